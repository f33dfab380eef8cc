"""The physics engine: numpy only, no GL and no windows. Arrays in, arrays out.

One engine for 2D and 3D: particles are structure-of-arrays with positions of shape (N, D),
D in {2, 3}; forces are small functions that add into one (N, D) force array; a fixed-dt
symplectic Euler step with substeps advances them.
"""

from slime.physics.particles import Particles
from slime.physics.springs import Springs
from slime.physics.planes import Planes
from slime.physics.world import World

__all__ = ["Particles", "Springs", "Planes", "World"]
