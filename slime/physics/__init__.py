"""The physics: numpy arrays and compiled kernels, no GL and no windows. Arrays in, arrays out.

Two engines, one folder each, sharing the compiled step's pieces that live here (``compiled.py``
the kernels' options and cache, ``integrate.py`` symplectic Euler, ``planes.py`` floors and walls,
``warmup.py`` the first run's compilation):

- ``slime3d/``: the 3D slime, a UV sphere of point masses with its volume, shape, tension and
  viscosity forces, the world of slimes with its obstacles and contacts, and the hand;
- ``mass_spring/``: the mass-spring engine of the 2D scenes (particles, springs, Soda
  Constructor's tick, boxes, point contacts).
"""

__all__ = ["MassSpringWorld", "Particles", "Springs", "Planes"]

# The mass-spring engine's names, imported on first use: the slime alone needs none of them (nor
# scipy, which the springs' scatter loads), and a command starts that much sooner.
_LAZY = {"Particles": "slime.physics.mass_spring.particles", "Springs": "slime.physics.mass_spring.springs",
         "MassSpringWorld": "slime.physics.mass_spring.world", "Planes": "slime.physics.planes"}


# The 2D engine was once slime.physics.World: a script that imports it by that name still runs.
_RENAMED = {"World": "MassSpringWorld"}


def __getattr__(name: str):
    name = _RENAMED.get(name, name)
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'slime.physics' has no attribute {name!r}")
