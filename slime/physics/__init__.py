"""The physics: numpy arrays and compiled kernels, no GL and no windows. Arrays in, arrays out.

Two engines, one folder each, sharing the compiled step's pieces that live here (``compiled.py``
the kernels' options and cache, ``integrate.py`` symplectic Euler, ``planes.py`` floors and walls,
``warmup.py`` the first run's compilation):

- ``slime3d/``: the 3D slime, a UV sphere of point masses with its volume, shape, tension and
  viscosity forces, the world of slimes with its obstacles and contacts, and the hand;
- ``mass_spring/``: the mass-spring engine of the 2D scenes (particles, springs, Soda
  Constructor's tick, boxes, point contacts).
"""

from slime.physics.mass_spring.particles import Particles
from slime.physics.mass_spring.springs import Springs
from slime.physics.mass_spring.world import World
from slime.physics.planes import Planes

__all__ = ["Particles", "Springs", "Planes", "World"]
