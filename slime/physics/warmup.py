"""The physics compiled before it is needed: the first run after an install (or after a force was
edited) compiles every kernel once, stage by stage, so that a caller can show progress; later runs
load them from the cache (``compiled.py``) in a fraction of a second.

``stages()`` lists (name, run) pairs; running them all compiles every kernel for the types the
program calls them with, and ``mark_compiled()`` notes it in the cache folder, which is named after
the kernels' sources: an edit is a new folder, not yet marked.
"""

from __future__ import annotations

import numpy as np

from slime.physics.compiled import CACHE

_MARK = CACHE / "compiled"


def is_compiled() -> bool:
    return _MARK.exists()


def mark_compiled() -> None:
    try:
        _MARK.write_text("every kernel of these sources compiled\n")
    except OSError:
        pass  # no cache to write: nothing to remember either


def _slimes() -> None:
    from slime.physics.slime3d.obstacles import Ball, Box, Cylinder
    from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
    from slime.physics.slime3d.world3d import World3D

    body = SlimeBody(SlimeParams(stacks=4, slices=4))
    body.step()
    body.volume()
    body.orientation()
    world = World3D()
    world.add_slime(SlimeParams(radius=0.5, stacks=4, slices=5, center=(0.0, 0.5, 0.0)))
    world.add_slime(SlimeParams(radius=0.5, stacks=4, slices=5, center=(0.9, 0.5, 0.0)))  # touching: contact compiles
    # Into the first slime's sides and top: the obstacles' contact kernels compile too.
    world.add_obstacle(Box(center=(-0.5, 0.5, 0.0), half_size=(0.1, 0.5, 1.0)))
    world.add_obstacle(Ball(center=(0.0, 0.5, 0.5), radius=0.15))
    world.add_obstacle(Cylinder(center=(0.0, 1.0, 0.0), radius=0.2, half_height=0.1))
    world.step()


def _springs() -> None:
    from slime.physics.mass_spring.particles import Particles
    from slime.physics.planes import Planes
    from slime.physics.mass_spring.soda import SodaModel
    from slime.physics.mass_spring.springs import Springs
    from slime.physics.mass_spring.world import World

    for dim in (2, 3):
        world = World(Particles.create(np.ones((2, dim)) * [[1.0], [2.0]]), Springs.create([[0, 1]], 0.5, 1.0),
                      planes=Planes.floor(dim), gravity=-np.eye(dim)[1])
        world.step()
    SodaModel.create(np.array([[0.1, 0.2], [0.3, 0.4]]), [[0, 1]], [0.2]).tick()
    from slime.physics.mass_spring.yoyo import chain_step

    for natural in (False, True):  # the springs scene's bob chain
        bobs = Particles.create(np.array([[0.0, 0.0], [1.0, 0.0]]))
        chain_step(bobs, np.array([-1, 0]), np.array([1, -1]), 0.1, 0.5, natural, True, True, True,
                   anchor=np.zeros(2), speed_limit=10.0)


def stages() -> list:
    """(what it compiles, a function that compiles it) in the order to run them."""
    return [("the slime's forces and contacts", _slimes), ("the spring engine", _springs)]
