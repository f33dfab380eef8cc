"""Adhesion (slime3d/adhesion.py): the films' impulses, taken by the body as a whole, change its
momentum and its angular momentum about the centre of mass exactly as the vertices' own
impulses would, and leave its shape's motion alone."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics.slime3d.adhesion import ADHESION_REACH, adhere_all
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.world3d import World3D


def _lifting_off(seed: int):
    """A 16 x 16 slime with its bottom in the floor's film, every vertex moving at a random
    velocity with an upward part (leaving the film), plus two planes: the floor and a wall."""
    rng = np.random.default_rng(seed)
    params = SlimeParams(stacks=16, slices=16)
    world = World3D.for_slime(params)
    world.add_slime(params.with_(center=(0.0, params.floor_height + params.radius - 0.3 * ADHESION_REACH, 0.0)))
    world.v[:] = rng.normal(0.0, 0.5, world.v.shape) + np.array([[0.3], [0.4], [0.0]])
    normal = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])
    point = np.array([[0.0, params.floor_height, 0.0], [params.radius * 0.98, 0.0, 0.0]])
    return world, normal, point


def _film_impulses(world, normal, point, h):
    """Each vertex's own impulse (P, 3) from the module docstring's rule, plane by plane."""
    model = world.model
    pull, reach = model.adhesion[0] * h, ADHESION_REACH * model.radius[0]
    x, v, m = world.x.T, world.v.T, model.mass
    impulses = np.zeros_like(x)
    for n, q in zip(normal, point):
        height, vn = (x - q) @ n, v @ n
        film = 1.0 - np.maximum(height, 0.0) / reach
        amount = np.where((height < reach) & (vn > 0.0), -m * np.minimum(vn, pull * film), 0.0)
        impulses += amount[:, None] * n
    return impulses


@pytest.mark.parametrize("seed", range(4))
def test_the_film_moves_the_body_as_its_vertices_impulses_would(seed):
    world, normal, point = _lifting_off(seed)
    h = world.dt / world.substeps
    m, x = world.model.mass, world.x.T.copy()
    impulses = _film_impulses(world, normal, point, h)
    assert np.count_nonzero(np.abs(impulses).sum(axis=1)) >= 8  # the film holds a patch
    centre = (m[:, None] * x).sum(axis=0) / m.sum()
    before = world.v.T.copy()
    adhere_all(world.model, world.x, world.v, normal, point, h, np.int64(-1))
    change = world.v.T - before
    momentum = (m[:, None] * change).sum(axis=0)
    spin = np.cross(x - centre, m[:, None] * change).sum(axis=0)
    scale = np.abs(impulses).sum()
    np.testing.assert_allclose(momentum, impulses.sum(axis=0), rtol=0, atol=1e-12 * scale)
    # The turn goes through the inertia with its small floor (moments.inverse_inertia), a part in
    # a million of a 1 m slime's.
    torque = np.cross(x - centre, impulses).sum(axis=0)
    np.testing.assert_allclose(spin, torque, rtol=0, atol=1e-5 * np.abs(torque).max())
    # A rigid change: every pair of vertices keeps its separation's rate along their line.
    i, j = np.random.default_rng(seed).integers(0, len(x), (2, 200))
    along = np.einsum("ij,ij->i", change[i] - change[j], x[i] - x[j])
    assert np.abs(along).max() <= 1e-12 * np.abs(change).max()
    assert np.abs(change).max() > 0.0


def test_a_body_held_by_the_hand_and_a_body_moving_into_the_film_take_no_impulse():
    world, normal, point = _lifting_off(0)
    h = world.dt / world.substeps
    before = world.v.copy()
    adhere_all(world.model, world.x, world.v, normal, point, h, np.int64(0))  # in the hand
    np.testing.assert_array_equal(world.v, before)
    world.v[:] = before
    world.v[0] = np.abs(before[0])  # every vertex moving towards the wall
    world.v[1] = -np.abs(before[1])  # and down into the floor
    settling = world.v.copy()
    adhere_all(world.model, world.x, world.v, normal, point, h, np.int64(-1))
    np.testing.assert_array_equal(world.v, settling)
