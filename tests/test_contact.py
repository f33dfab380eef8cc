"""Slime-slime contact (slime/physics/slime3d/contact.py): momentum kept to round-off, no vertex of one
slime inside another (checked by winding numbers, independently of the contact's own plane), at
20 m/s, at every resolution and mixed resolutions and radii; a stack of three comes to rest."""

from __future__ import annotations

import numpy as np
import pytest

from mesh_truth import deepest_inside, surface_distance, winding_numbers
from slime.physics.slime3d.contact import BodyTable, broad_phase, collide_slimes
from slime.physics.slime3d.slime_params import SlimeParams
from slime_pile import SlimePile


def _free(res, radius=0.5, **kw):
    """A slime floating in empty space: no gravity, no floor, no drag (momentum is the contact's)."""
    return SlimeParams(radius=radius, stacks=res, slices=res, gravity=(0, 0, 0), floor_height=-100.0, air_drag=0.0, **kw)


def _deepest(pile):
    xs = [b.positions.copy() for b in pile.bodies]
    cs = [b.centroid() for b in pile.bodies]
    reach = [float(np.linalg.norm(x - c, axis=1).max()) for x, c in zip(xs, cs)]
    return deepest_inside(xs, [b.triangles for b in pile.bodies], cs, reach)


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
    pile = SlimePile([_free(16, center=(-2, 0, 0)), _free(16, center=(2, 0, 0))], velocities=[(1, 0, 0), (-1, 0, 0)])
    candidates = broad_phase(pile.table, pile.x, pile.v, 1 / 60)
    assert candidates.empty
    x0, v0 = pile.x.copy(), pile.v.copy()
    assert collide_slimes(pile.table, candidates, pile.x, pile.v, np.array([b.centroid() for b in pile.bodies])) == 0
    assert np.array_equal(pile.x, x0) and np.array_equal(pile.v, v0)


# ------------------------------------------------------------------------------------ collisions
@pytest.mark.parametrize(
    "res_a, res_b, radius_a, radius_b",
    [(8, 8, 0.5, 0.5), (32, 32, 0.5, 0.5), (12, 48, 0.3, 0.6), (64, 8, 0.5, 0.25),
     pytest.param(128, 16, 0.5, 0.4, marks=pytest.mark.slow)],
)
def test_a_head_on_collision_at_20_m_per_s_keeps_momentum_and_nobody_enters_the_other(res_a, res_b, radius_a, radius_b):
    gap = 0.05
    pile = SlimePile(
        [_free(res_a, radius_a, center=(-radius_a - gap, 0.0, 0.0)), _free(res_b, radius_b, center=(radius_b + gap, 0.0, 0.0))],
        velocities=[(10.0, 0.0, 0.0), (-10.0, 0.0, 0.0)],
    )
    before = pile.momentum()
    scale = float(np.abs(pile.bodies[0].momentum()).max())
    worst = 0.0
    for frame in range(14):
        pile.step()
        if frame % 2 == 1:
            worst = max(worst, _deepest(pile))
    assert np.abs(pile.momentum() - before).max() < 0.01 * scale
    assert worst < 0.02 * min(radius_a, radius_b)
    # They met and came apart again: the contact pushed, it did not let one through.
    ca, cb = (b.centroid() for b in pile.bodies)
    assert ca[0] < cb[0]
    assert pile.bodies[0].momentum()[0] < 0.0 < pile.bodies[1].momentum()[0]
    assert np.all(np.isfinite(pile.x)) and np.all(np.isfinite(pile.v))


def test_a_glancing_collision_with_friction_keeps_momentum_and_spins_the_slimes():
    pile = SlimePile(
        [_free(16, center=(-0.6, 0.3, 0.0)), _free(16, center=(0.6, -0.3, 0.0))],
        velocities=[(8.0, 0.0, 1.0), (-8.0, 0.0, -1.0)],
        friction=1.0,
    )
    before = pile.momentum()
    for _ in range(20):
        pile.step()
    assert np.abs(pile.momentum() - before).max() < 0.01 * 8.0
    spin = [b.angular_momentum() for b in pile.bodies]
    assert abs(spin[0][2]) > 1e-3 and abs(spin[1][2]) > 1e-3  # friction turned them
    assert _deepest(pile) < 0.01


def test_a_seeded_scrum_of_slimes_keeps_momentum_and_stays_apart():
    rng = np.random.default_rng(11)
    params, velocities = [], []
    for k in range(5):
        angle = 2 * np.pi * k / 5
        res = int(rng.choice([8, 12, 20]))
        params.append(_free(res, float(rng.uniform(0.25, 0.45)), center=(np.cos(angle), rng.uniform(-0.2, 0.2), np.sin(angle))))
        velocities.append(-np.array([np.cos(angle), 0.0, np.sin(angle)]) * rng.uniform(2.0, 8.0))
    pile = SlimePile(params, velocities=velocities)
    before = pile.momentum()
    for _ in range(30):
        pile.step()
    scale = max(float(np.abs(b.momentum()).max()) for b in pile.bodies)
    assert np.abs(pile.momentum() - before).max() < 0.01 * scale
    assert _deepest(pile) < 0.02 * 0.25
    assert np.all(np.isfinite(pile.x))


# ------------------------------------------------------------------------------------ stacking
@pytest.mark.slow
def test_three_stacked_slimes_come_to_rest_without_sinking_into_each_other():
    radius = 0.5
    pile = SlimePile([SlimeParams(radius=radius, stacks=12, slices=12, center=(0.0, 0.45 + 0.9 * k, 0.0)) for k in range(3)])
    kinetic = []
    for _ in range(420):  # 7 s: a stack of soft jelly rocks a while
        pile.step()
        kinetic.append(pile.kinetic_energy())
    assert kinetic[-1] < 1e-4
    heights = np.array([b.centroid()[1] for b in pile.bodies])
    # The soft jelly at the bottom carries twice its weight and squashes to about half its height
    # (its centre 0.27 m up, the next 0.62 m above it): squashed, not sunk into each other (the
    # depth below says so).
    assert np.all(np.diff(heights) > 1.1 * radius)
    assert np.abs(np.array([b.centroid()[[0, 2]] for b in pile.bodies])).max() < 0.05  # still a stack
    assert _deepest(pile) < 0.02 * radius


def test_a_broken_body_does_not_spread_to_the_others():
    """A body whose state went non-finite (it is recovered by its own step) finds no candidates
    and changes nothing in the others."""
    pile = SlimePile([_free(8, center=(-0.45, 0, 0)), _free(8, center=(0.45, 0, 0))])
    pile.x[: int(pile.table.stop[0])] = np.nan
    candidates = broad_phase(pile.table, pile.x, pile.v, 1 / 60)
    assert candidates.empty
    x1 = pile.x[int(pile.table.start[1]) :].copy()
    centroids = np.array([[np.nan] * 3, pile.bodies[1].centroid()])
    collide_slimes(pile.table, candidates, pile.x, pile.v, centroids)
    assert np.array_equal(pile.x[int(pile.table.start[1]) :], x1)


def test_with_held_normals_the_planes_do_not_depend_on_the_centroids():
    """A pair's plane lies halfway between the two bodies' outermost vertices along its normal:
    with the frame's normals held, any centroids (or none) give the same contact, to rounding."""
    results = []
    for centroids in (None, "true", "shifted"):
        pile = SlimePile([_free(16, center=(0.0, 0.5, 0.0)), _free(16, center=(0.9, 0.5, 0.1))])
        x, v = pile.x, pile.v
        c = np.array([b.centroid() for b in pile.bodies])
        candidates = broad_phase(pile.table, x, v, 1.0 / 60.0, c)
        axis = c[1] - c[0]
        candidates.normals = (axis / np.linalg.norm(axis))[None]
        given = {None: None, "true": c, "shifted": c + np.array([[3.0, -2.0, 1.0], [0.5, 0.5, -4.0]])}[centroids]
        hits = collide_slimes(pile.table, candidates, x, v, given)
        results.append((hits, x.copy(), v.copy()))
    assert results[0][0] > 0
    for hits, x, v in results[1:]:
        assert hits == results[0][0]
        np.testing.assert_allclose(x, results[0][1], rtol=0, atol=1e-12)
        np.testing.assert_allclose(v, results[0][2], rtol=0, atol=1e-12)
    pile = SlimePile([_free(16, center=(0.0, 0.5, 0.0)), _free(16, center=(0.9, 0.5, 0.1))])
    candidates = broad_phase(pile.table, pile.x, pile.v, 1.0 / 60.0)
    with pytest.raises(ValueError, match="needs the centroids"):
        collide_slimes(pile.table, candidates, pile.x, pile.v)


# ------------------------------------------------------------------------------------ the dashpot
def _approaching_pair(gap_radii: float, speed: float = 0.5):
    """Two free 16 x 16 slimes of radius 0.5 on the x axis, ``gap_radii`` radii of empty space
    between their surfaces (negative: pressed into each other), closing at ``speed`` m/s."""
    from slime.physics.slime3d.world3d import World3D

    world = World3D(gravity=(0.0, 0.0, 0.0), floor_height=None)
    half = 0.5 + 0.5 * gap_radii * 0.5
    world.add_slime(_free(16).with_(center=(-half, 0.0, 0.0)), velocity=(speed / 2, 0.0, 0.0))
    world.add_slime(_free(16).with_(center=(half, 0.0, 0.0)), velocity=(-speed / 2, 0.0, 0.0))
    return world


@pytest.mark.parametrize("gap_radii, damped", [(-0.02, True), (0.0, True), (0.005, True), (0.03, False), (0.06, False)])
def test_the_dashpot_damps_touching_pairs_only_and_by_the_exact_exponential(gap_radii, damped):
    from slime.physics.slime3d.contact import body_centroids, damp_contacts

    world = _approaching_pair(gap_radii)
    table, x, v = world._contact_table, world.x.T, world.v.T
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
    from slime.physics.slime3d.contact import body_centroids, damp_contacts

    world = _approaching_pair(-0.02)
    table, x, v = world._contact_table, world.x.T, world.v.T
    candidates = broad_phase(table, x, v, world.dt)
    body = world.bodies[1]
    world.v[:, body.start + 3] = np.nan  # its positions still finite: the velocity broke last
    damp_contacts(table, candidates, x, v, body_centroids(table, x), world.dt)
    first = world.bodies[0]
    assert np.all(np.isfinite(world.v[:, first.start:first.stop]))
