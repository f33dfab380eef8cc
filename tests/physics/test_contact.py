"""Slime-slime contact (slime/physics/slime3d/contact.py) in the scenes' world (``World3D``):
momentum kept to round-off, kinetic energy never gained, no vertex of one slime inside another
(checked by winding numbers, independently of the contact's own plane), at 20 m/s, at every
resolution and mixed resolutions and radii; a stack of three comes to rest."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import contact_table, slime_world
from mesh_truth import deepest_inside, surface_distance, winding_numbers
from slime.physics.slime3d.contact import (BodyTable, balanced_speed, body_centroids, broad_phase, collide_slimes,
                                          damp_contacts)
from slime.physics.slime3d.moments import body_moments
from slime.physics.slime3d.slime_params import SlimeParams

FREE = dict(gravity=(0.0, 0.0, 0.0), floor_height=None)  # empty space: the momentum is the contact's


def _free(res, radius=0.5, **kw):
    """A slime for empty space: no air drag either."""
    return SlimeParams(radius=radius, stacks=res, slices=res, air_drag=0.0, **kw)


def _body_momentum(world, index) -> np.ndarray:
    body = world.bodies[index]
    return world.v[:, body.start:body.stop] @ world.mass[body.start:body.stop]


def _angular_momentum(world, index) -> np.ndarray:
    """Body ``index``'s angular momentum about its centre of mass."""
    body = world.bodies[index]
    return body_moments(world.x, world.v, world.mass, world.model.rest, body.start, body.shape.count)[5]


def _deepest(world) -> float:
    """How deep the deepest vertex of any slime is inside another (winding numbers, ``mesh_truth``)."""
    xs = [world.body_positions(k).copy() for k in range(len(world.bodies))]
    cs = list(world.centroids())
    reach = [float(np.linalg.norm(x - c, axis=1).max()) for x, c in zip(xs, cs)]
    return deepest_inside(xs, [b.triangles for b in world.bodies], cs, reach)


# ------------------------------------------------------------------------------------ the truths
# The cube [0, 1]^3 as 12 outward-wound triangles.
_CUBE = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
_CUBE_FACES = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [2, 3, 7], [2, 7, 6],
                        [0, 4, 7], [0, 7, 3], [1, 2, 6], [1, 6, 5]])


def test_the_mesh_truths_say_inside_and_how_far_as_a_cube_has_it():
    points = np.array([[0.5, 0.5, 0.5], [0.9, 0.2, 0.5], [1.5, 0.5, 0.5], [2.0, 2.0, 2.0], [0.5, 0.5, -0.25],
                       [-0.1, 0.5, 0.5]])
    inside = winding_numbers(points, _CUBE, _CUBE_FACES)
    np.testing.assert_allclose(inside, [1, 1, 0, 0, 0, 0], atol=1e-12)
    # To the nearest face, the nearest edge, the nearest corner.
    np.testing.assert_allclose(surface_distance(points, _CUBE, _CUBE_FACES),
                               [0.5, 0.1, 0.5, np.sqrt(3.0), 0.25, 0.1], atol=1e-12)
    # A half-size cube poking a quarter out of the first's +x face: its corners inside the first
    # are 0.25 from the first's faces.
    second = 0.5 * _CUBE + [0.75, 0.25, 0.25]
    depth = deepest_inside([_CUBE, second], [_CUBE_FACES, _CUBE_FACES], [_CUBE.mean(0), second.mean(0)], [1.0, 1.0])
    assert depth == pytest.approx(0.25, abs=1e-12)
    # Apart, nothing is inside.
    apart = _CUBE + [1.5, 0.0, 0.0]
    assert deepest_inside([_CUBE, apart], [_CUBE_FACES, _CUBE_FACES], [_CUBE.mean(0), apart.mean(0)], [1.0, 1.0]) == 0.0


# ------------------------------------------------------------------------------------ table
@pytest.mark.parametrize(
    "change, words",
    [
        (dict(stop=[10, 20]), "vertex range"),
        (dict(stacks=[2, 4]), "at least 3"),
        (dict(radius=[0.5, -1.0]), "radii"),
        (dict(friction=[0.5, -0.2]), "friction"),
        (dict(friction=[0.5, 0.5, 0.5]), "one per body"),
        (dict(mass=np.zeros(28)), "mass"),
    ],
)
def test_a_bad_body_table_is_refused_in_one_line(change, words):
    good = dict(start=[0, 14], stop=[14, 28], stacks=[4, 4], slices=[4, 4], radius=[0.5, 0.5], mass=np.ones(28), friction=0.5)
    good.update(change)
    with pytest.raises(ValueError, match=words) as info:
        BodyTable(**good)
    assert "\n" not in str(info.value)


def test_bodies_apart_cost_nothing_and_are_untouched():
    # Closing at 2 m/s from 3 m apart: they cannot meet within the frame, so the broad phase finds
    # nothing, and each slime moves exactly as it does alone in the world.
    slimes = [_free(16, center=(-2, 0, 0)), _free(16, center=(2, 0, 0))]
    world = slime_world(slimes, velocities=[(1, 0, 0), (-1, 0, 0)], **FREE)
    x, v = world.positions, world.velocities
    table = contact_table(world)
    candidates = broad_phase(table, x, v, world.dt)
    assert candidates.empty
    x0, v0 = x.copy(), v.copy()
    assert collide_slimes(table, candidates, x, v, body_centroids(table, x)) == 0
    assert np.array_equal(x, x0) and np.array_equal(v, v0)
    world.step()
    assert world.contacts == 0
    for k, (params, velocity) in enumerate(zip(slimes, [(1, 0, 0), (-1, 0, 0)])):
        alone = slime_world([params], velocities=[velocity], **FREE)
        alone.step()
        np.testing.assert_allclose(world.body_positions(k), alone.body_positions(0), rtol=0, atol=1e-12)


# ------------------------------------------------------------------------------------ collisions
@pytest.mark.parametrize(
    "res_a, res_b, radius_a, radius_b",
    [(8, 8, 0.5, 0.5), (32, 32, 0.5, 0.5), (12, 48, 0.3, 0.6), (64, 8, 0.5, 0.25),
     pytest.param(128, 16, 0.5, 0.4, marks=pytest.mark.slow)],
)
def test_a_head_on_collision_at_20_m_per_s_keeps_momentum_and_nobody_enters_the_other(res_a, res_b, radius_a, radius_b):
    gap = 0.05
    world = slime_world(
        [_free(res_a, radius_a, center=(-radius_a - gap, 0.0, 0.0)), _free(res_b, radius_b, center=(radius_b + gap, 0.0, 0.0))],
        velocities=[(10.0, 0.0, 0.0), (-10.0, 0.0, 0.0)], **FREE)
    before = world.momentum()
    energy = world.kinetic_energy()
    scale = float(np.abs(_body_momentum(world, 0)).max())
    worst = 0.0
    for frame in range(14):
        world.step()
        assert world.kinetic_energy() <= energy * (1.0 + 1e-9)  # the contact and the jelly only take energy
        if frame % 2 == 1:
            worst = max(worst, _deepest(world))
    assert np.abs(world.momentum() - before).max() < 0.01 * scale
    assert worst < 0.02 * min(radius_a, radius_b)
    # They met and came apart again: the contact pushed, it did not let one through.
    ca, cb = world.centroids()
    assert ca[0] < cb[0]
    assert _body_momentum(world, 0)[0] < 0.0 < _body_momentum(world, 1)[0]
    assert np.all(np.isfinite(world.x)) and np.all(np.isfinite(world.v))


def test_a_glancing_collision_with_friction_keeps_momentum_and_spins_the_slimes():
    world = slime_world(
        [_free(16, center=(-0.6, 0.3, 0.0), contact_friction=1.0), _free(16, center=(0.6, -0.3, 0.0), contact_friction=1.0)],
        velocities=[(8.0, 0.0, 1.0), (-8.0, 0.0, -1.0)], **FREE)
    before = world.momentum()
    for _ in range(20):
        world.step()
    assert np.abs(world.momentum() - before).max() < 0.01 * 8.0
    spin = [_angular_momentum(world, k) for k in range(2)]
    assert abs(spin[0][2]) > 1e-3 and abs(spin[1][2]) > 1e-3  # friction turned them
    assert _deepest(world) < 0.01


def test_a_seeded_scrum_of_slimes_keeps_momentum_and_stays_apart():
    rng = np.random.default_rng(11)
    params, velocities = [], []
    for k in range(5):
        angle = 2 * np.pi * k / 5
        res = int(rng.choice([8, 12, 20]))
        params.append(_free(res, float(rng.uniform(0.25, 0.45)), center=(np.cos(angle), rng.uniform(-0.2, 0.2), np.sin(angle))))
        velocities.append(-np.array([np.cos(angle), 0.0, np.sin(angle)]) * rng.uniform(2.0, 8.0))
    world = slime_world(params, velocities=velocities, **FREE)
    before = world.momentum()
    energy = world.kinetic_energy()
    for _ in range(30):
        world.step()
    scale = max(float(np.abs(_body_momentum(world, k)).max()) for k in range(len(params)))
    assert np.abs(world.momentum() - before).max() < 0.01 * scale
    assert world.kinetic_energy() < energy
    assert _deepest(world) < 0.02 * 0.25
    assert np.all(np.isfinite(world.x))


# ------------------------------------------------------------------------------------ stacking
@pytest.mark.slow
def test_three_stacked_slimes_come_to_rest_without_sinking_into_each_other():
    radius = 0.5
    world = slime_world([SlimeParams(radius=radius, stacks=12, slices=12, center=(0.0, 0.45 + 0.9 * k, 0.0))
                         for k in range(3)])
    kinetic = []
    for _ in range(420):  # 7 s: a stack of soft jelly rocks a while
        world.step()
        kinetic.append(world.kinetic_energy())
    assert kinetic[-1] < 1e-4
    heights = world.centroids()[:, 1]
    # The soft jelly at the bottom carries twice its weight and squashes to about half its height
    # (its centre 0.27 m up, the next 0.62 m above it): squashed, not sunk into each other (the
    # depth below says so).
    assert np.all(np.diff(heights) > 1.1 * radius)
    assert np.abs(world.centroids()[:, [0, 2]]).max() < 0.05  # still a stack
    assert _deepest(world) < 0.02 * radius


def test_a_broken_body_does_not_spread_to_the_others():
    """A body whose state went non-finite (it is recovered by its own step) finds no candidates
    and changes nothing in the others."""
    world = slime_world([_free(8, center=(-0.45, 0, 0)), _free(8, center=(0.45, 0, 0))], **FREE)
    table, x, v = contact_table(world), world.positions, world.velocities
    x[: int(table.stop[0])] = np.nan
    candidates = broad_phase(table, x, v, world.dt)
    assert candidates.empty
    x1 = x[int(table.start[1]):].copy()
    centroids = np.array([[np.nan] * 3, world.centroids()[1]])
    collide_slimes(table, candidates, x, v, centroids)
    assert np.array_equal(x[int(table.start[1]):], x1)
    # And in the world's step: the broken one is put back, whole, the other goes on untouched.
    other = world.body_positions(1).copy()
    world.step()
    assert world.recoveries == 1 and np.all(np.isfinite(world.x))
    np.testing.assert_allclose(world.body_positions(1), other, atol=1e-3)


def test_with_held_normals_the_planes_do_not_depend_on_the_centroids():
    """A pair's plane lies halfway between the two bodies' outermost vertices along its normal:
    with the frame's normals held, any centroids (or none) give the same contact, to rounding."""
    results = []
    for centroids in (None, "true", "shifted"):
        world = slime_world([_free(16, center=(0.0, 0.5, 0.0)), _free(16, center=(0.9, 0.5, 0.1))], **FREE)
        table, x, v = contact_table(world), world.positions, world.velocities
        c = world.centroids()
        candidates = broad_phase(table, x, v, 1.0 / 60.0, c)
        axis = c[1] - c[0]
        candidates.normals = (axis / np.linalg.norm(axis))[None]
        given = {None: None, "true": c, "shifted": c + np.array([[3.0, -2.0, 1.0], [0.5, 0.5, -4.0]])}[centroids]
        hits = collide_slimes(table, candidates, x, v, given)
        results.append((hits, x.copy(), v.copy()))
    assert results[0][0] > 0
    for hits, x, v in results[1:]:
        assert hits == results[0][0]
        np.testing.assert_allclose(x, results[0][1], rtol=0, atol=1e-12)
        np.testing.assert_allclose(v, results[0][2], rtol=0, atol=1e-12)
    world = slime_world([_free(16, center=(0.0, 0.5, 0.0)), _free(16, center=(0.9, 0.5, 0.1))], **FREE)
    table = contact_table(world)
    candidates = broad_phase(table, world.positions, world.velocities, 1.0 / 60.0)
    with pytest.raises(ValueError, match="needs the centroids"):
        collide_slimes(table, candidates, world.positions, world.velocities)


# ------------------------------------------------------------------------------------ the dashpot
def _approaching_pair(gap_radii: float, speed: float = 0.5):
    """Two free 16 x 16 slimes of radius 0.5 on the x axis, ``gap_radii`` radii of empty space
    between their surfaces (negative: pressed into each other), closing at ``speed`` m/s."""
    half = 0.5 + 0.5 * gap_radii * 0.5
    return slime_world([_free(16, center=(-half, 0.0, 0.0)), _free(16, center=(half, 0.0, 0.0))],
                       velocities=[(speed / 2, 0.0, 0.0), (-speed / 2, 0.0, 0.0)], **FREE)


@pytest.mark.parametrize("gap_radii, damped", [(-0.02, True), (0.0, True), (0.005, True), (0.03, False), (0.06, False)])
def test_the_dashpot_damps_touching_pairs_only_and_by_the_exact_exponential(gap_radii, damped):
    world = _approaching_pair(gap_radii)
    table, x, v = contact_table(world), world.x.T, world.v.T
    candidates = broad_phase(table, x, v, world.dt)
    # Both sides have candidates: the pair is near enough for the broad phase either way.
    assert {1.0, -1.0} <= set(candidates.side.tolist())
    momentum = world.momentum()
    damp_contacts(table, candidates, x, v, body_centroids(table, x), world.dt, rate=10.0)
    velocity = body_centroids(table, v)
    closing = velocity[0, 0] - velocity[1, 0]
    expected = 0.5 * np.exp(-10.0 * world.dt) if damped else 0.5
    assert closing == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(world.momentum(), momentum, atol=1e-14)


def test_a_body_broken_within_the_frame_leaves_the_dashpot_of_its_partner_alone():
    world = _approaching_pair(-0.02)
    table, x, v = contact_table(world), world.x.T, world.v.T
    candidates = broad_phase(table, x, v, world.dt)
    body = world.bodies[1]
    world.v[:, body.start + 3] = np.nan  # its positions still finite: the velocity broke last
    damp_contacts(table, candidates, x, v, body_centroids(table, x), world.dt)
    first = world.bodies[0]
    assert np.all(np.isfinite(world.v[:, first.start:first.stop]))


# ------------------------------------------------------------------------------------ the plane's speed
@pytest.mark.parametrize("seed", [5, 17, 2026])
def test_the_planes_speed_balances_the_two_sides_impulses_exactly(seed):
    # Every vertex approaching the plane faster than it moves is stopped at its speed u: the
    # impulses the two sides take then cancel, whatever the masses, counts and speeds, so the
    # pair's momentum is kept without leaving any approaching vertex a speed into the other body.
    rng = np.random.default_rng(seed)
    for _ in range(300):
        count = int(rng.integers(2, 40))
        vn = rng.normal(0.0, 1.0, count) * 10.0 ** rng.uniform(-3, 1)
        mass = rng.uniform(0.01, 1.0, count)
        side = np.where(rng.random(count) < rng.uniform(0.1, 0.9), 1.0, -1.0)
        side[:2] = (1.0, -1.0)
        u = balanced_speed(vn, mass, side)
        first = mass * np.maximum(vn - u, 0.0) * (side > 0)
        second = mass * np.maximum(u - vn, 0.0) * (side < 0)
        slack = 1e-12 * np.abs(vn).max()  # the sums' rounding
        assert vn.min() - slack <= u <= vn.max() + slack
        assert abs(first.sum() - second.sum()) <= 1e-12 * np.sum(mass * np.abs(vn))


def test_the_frames_candidates_are_the_vertices_near_the_held_face():
    # Two slimes pressed together, their held contact face turned 20 degrees from the line of
    # their centres (a slime resting on another's shoulder): every vertex that lies past the plane
    # the substeps will use is a candidate, so none passes into the other slime for a frame. (The
    # candidates were once measured against the line of centres' plane, and in the settled pile a
    # pair flickered by a frame's worth of penetration for good.)
    world = slime_world([_free(24, center=(0.0, 0.0, 0.0)), _free(24, center=(0.92, 0.0, 0.0))], **FREE)
    table, x, v = contact_table(world), world.positions, world.velocities
    turn = np.radians(20.0)
    face = np.array([[np.cos(turn), np.sin(turn), 0.0]])
    candidates = broad_phase(table, x, v, world.dt, faces=lambda first, second, c, velocity: face)
    np.testing.assert_array_equal(candidates.normals, face)
    along = x @ face[0]
    first, second = slice(int(table.start[0]), int(table.stop[0])), slice(int(table.start[1]), int(table.stop[1]))
    plane = 0.5 * (along[first].max() + along[second].min())
    past = set(np.flatnonzero(along[first] > plane).tolist()) | set(
        (np.flatnonzero(along[second] < plane) + int(table.start[1])).tolist())
    assert len(past) > 10
    assert past <= set(candidates.vertex.tolist())
