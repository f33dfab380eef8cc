"""A material's grip (``Material.grip``): the share of a hard surface's friction its skin takes,
on the floor (``planes.plane_contacts``, in the compiled substep and in the Python one) and on an
obstacle (``obstacles.settle_deepest``). Goo's wet skin takes 0.6 of it and slides on further than the
same goo gripping fully; jelly and rubber take all of it."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics.slime3d.materials import MATERIALS
from slime.physics.slime3d.obstacles import Box
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.world3d import World3D

SLIDE = 3.0  # m/s along x, given to a goo slime settled on what holds it


def _slid(grip: float, on_box: bool, python_path: bool) -> float:
    """How far (m) a 12 x 12 goo slime settled for 0.5 s on the floor (or on a box's top, the
    floor far below) goes along x in 0.4 s after it is set sliding at ``SLIDE``."""
    params = SlimeParams.of_material("goo", stacks=12, slices=12, radius=0.5, grip=grip,
                                     floor_height=-5.0 if on_box else 0.0)
    world = World3D.for_slime(params)
    world.add_slime(params.with_(center=(0.0, 0.5, 0.0)))
    if on_box:
        world.add_obstacle(Box(center=(0.0, -1.0, 0.0), half_size=(20.0, 1.0, 20.0), friction=0.8))
    if python_path:  # an added force (none) takes the substep through Python: collide_planes
        world.extra_accelerations.append(lambda world, acc, h: None)
    for _ in range(30):
        world.step()
    world.v[0] += SLIDE
    start = world.centroids()[0, 0]
    for _ in range(24):
        world.step()
    return float(world.centroids()[0, 0] - start)


@pytest.mark.parametrize("on_box, python_path", [(False, False), (False, True), (True, False)])
def test_goo_slides_further_than_full_grip_allows(on_box, python_path):
    wet, dry = _slid(0.6, on_box, python_path), _slid(1.0, on_box, python_path)
    assert wet > 1.15 * dry > 0.0, (wet, dry)


def test_each_vertex_takes_its_own_slime_s_grip():
    world = World3D()
    for x, name in ((-2.0, "goo"), (2.0, "jelly")):
        world.add_slime(SlimeParams.of_material(name, stacks=6, slices=6, center=(x, 1.0, 0.0)))
    goo, jelly = world.bodies
    assert MATERIALS["goo"].values["grip"] == 0.6
    assert np.all(world.model.grip[goo.start:goo.stop] == 0.6)
    assert np.all(world.model.grip[jelly.start:jelly.stop] == 1.0)


@pytest.mark.parametrize("collide", ["planes", "obstacles"])
def test_a_grip_of_the_wrong_length_is_refused(collide):
    """One grip a particle: a shorter array is a ValueError, never a read past its end."""
    from slime.physics.planes import Planes, collide_planes
    from slime.physics.slime3d.obstacles import collide_obstacles

    x, v = np.zeros((4, 3)), np.zeros((4, 3))
    with pytest.raises(ValueError):
        if collide == "planes":
            collide_planes(x, v, np.ones(4), Planes.floor(3), grip=np.ones(3))
        else:
            collide_obstacles(x, v, x.copy(), [Box()], grip=np.ones(3))
