"""Static obstacles (slime/physics/slime3d/obstacles.py): validation, distances and rays against their
analytic values, the contact response, no tunnelling at any speed, and slimes in the scenes' world
(``World3D``) against boxes, balls and planes: never inside, never gaining energy."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slime.physics.slime3d.obstacles import (
    Ball,
    Box,
    FramePairs,
    ObstacleSet,
    Plane,
    collide_obstacles,
    ray_hit,
    rotation_from_degrees,
    signed_distance,
)
from slime.physics.slime3d.slime_params import SlimeParams
from helpers import contact_table, slime_world, thrown_through

angles = st.floats(-360.0, 360.0, allow_nan=False)


# ------------------------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: Box(half_size=(1.0, 0.0, 1.0)), "half_size must be positive"),
        (lambda: Box(center=(0.0, math.nan, 0.0)), "finite"),
        (lambda: Box(rotation=((1, 0, 0), (0, 2, 0), (0, 0, 1))), "orthonormal"),
        (lambda: Box(rotation=((1, 0, 0), (0, 1, 0), (0, 0, -1))), "orthonormal"),
        (lambda: Box(friction=-0.1), "friction"),
        (lambda: Ball(radius=0.0), "radius"),
        (lambda: Ball(center="here"), "3-vector"),
        (lambda: Plane(normal=(0, 0, 0)), "not be zero"),
        (lambda: Plane(point=(1, 2)), "3-vector"),
        (lambda: ObstacleSet([object()]), "Box, Ball, Plane, Cylinder"),
        (lambda: rotation_from_degrees(yaw=math.inf), "yaw"),
    ],
)
def test_bad_obstacles_are_refused_in_one_line(make, words):
    with pytest.raises(ValueError, match=words) as info:
        make()
    assert "\n" not in str(info.value)


@given(angles, angles, angles)
def test_rotation_from_degrees_is_a_proper_rotation(yaw, pitch, roll):
    r = rotation_from_degrees(yaw, pitch, roll)
    np.testing.assert_allclose(r @ r.T, np.eye(3), atol=1e-12)
    assert np.linalg.det(r) == pytest.approx(1.0)
    Box(rotation=r)  # accepted as it is


def test_rotation_from_degrees_turns_the_named_axes():
    np.testing.assert_allclose(rotation_from_degrees(yaw=90) @ [0, 0, 1], [1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(rotation_from_degrees(pitch=90) @ [0, 1, 0], [0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(rotation_from_degrees(roll=90) @ [1, 0, 0], [0, 1, 0], atol=1e-12)


# ------------------------------------------------------------------------------------ queries
def test_signed_distance_matches_the_analytic_values():
    box = Box(center=(1.0, 2.0, 3.0), half_size=(1.0, 0.5, 2.0))
    ball = Ball(center=(10.0, 0.0, 0.0), radius=2.0)
    plane = Plane(point=(0.0, -5.0, 0.0), normal=(0.0, 2.0, 0.0))
    pts = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 3.0], [1.0, 2.25, 3.0], [2.0 + 3.0, 2.5 + 4.0, 3.0]])
    np.testing.assert_allclose(signed_distance(pts, [box]), [-0.5, 1.0, -0.25, 5.0])
    np.testing.assert_allclose(signed_distance([[13.0, 0.0, 0.0], [10.0, 0.5, 0.0]], [ball]), [1.0, -1.5])
    np.testing.assert_allclose(signed_distance([[0.0, -7.0, 0.0]], [plane]), [-2.0])
    assert signed_distance([[0.0, 0.0, 0.0]], []) == [np.inf]


@given(angles, angles, angles, st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_a_turned_box_measures_distance_in_its_own_frame(yaw, pitch, roll, seed):
    rot = rotation_from_degrees(yaw, pitch, roll)
    box = Box(center=(0.5, -1.0, 2.0), half_size=(0.3, 1.0, 0.02), rotation=rot)
    upright = Box(center=(0.0, 0.0, 0.0), half_size=(0.3, 1.0, 0.02))
    local = np.random.default_rng(seed).uniform(-2.0, 2.0, size=(50, 3))
    world = box.center + local @ rot.T
    np.testing.assert_allclose(signed_distance(world, [box]), signed_distance(local, [upright]), atol=1e-12)


def test_ray_hit_distances():
    obstacles = [
        Box(center=(5.0, 0.0, 0.0), half_size=(1.0, 1.0, 1.0)),
        Ball(center=(0.0, 5.0, 0.0), radius=1.0),
        Plane(point=(0.0, 0.0, -3.0), normal=(0.0, 0.0, 1.0)),
    ]
    assert ray_hit((0, 0, 0), (2, 0, 0), obstacles) == pytest.approx(4.0)
    assert ray_hit((0, 0, 0), (0, 1, 0), obstacles) == pytest.approx(4.0)
    assert ray_hit((0, 0, 0), (0, 0, -1), obstacles) == pytest.approx(3.0)
    assert ray_hit((0, 0, 0), (0, 0, 1), obstacles) == math.inf
    assert ray_hit((5, 0, 0), (0, 0, 1), obstacles) == 0.0  # inside the box
    rot = rotation_from_degrees(yaw=45)
    turned = Box(center=(0.0, 0.0, 4.0), half_size=(1.0, 1.0, 1.0), rotation=rot)
    assert ray_hit((0, 0, 0), (0, 0, 1), [turned]) == pytest.approx(4.0 - math.sqrt(2.0))
    with pytest.raises(ValueError, match="not be zero"):
        ray_hit((0, 0, 0), (0, 0, 0), obstacles)


# ------------------------------------------------------------------------------------ contact
def test_a_vertex_inside_goes_to_the_nearest_face_and_stops_there():
    box = Box(center=(0.0, 0.0, 0.0), half_size=(1.0, 1.0, 1.0), friction=0.0)
    x = np.array([[0.2, 0.9, 0.0]])
    x_prev = x.copy()  # it started inside: the shortest way out
    v = np.array([[1.0, -2.0, 0.0]])
    assert collide_obstacles(x, v, x_prev, [box]) == 1
    np.testing.assert_allclose(x, [[0.2, 1.0, 0.0]])
    np.testing.assert_allclose(v, [[1.0, 0.0, 0.0]])  # normal speed gone, frictionless slide kept


def test_coulomb_friction_slows_and_never_reverses():
    plane = [Plane(point=(0, 0, 0), normal=(0, 1, 0), friction=0.5)]
    x = np.array([[0.0, -0.01, 0.0], [0.0, -0.01, 0.0]])
    v = np.array([[3.0, -2.0, 0.0], [0.5, -2.0, 0.0]])
    collide_obstacles(x, v, x.copy(), plane)
    np.testing.assert_allclose(v, [[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]])  # 3 - 0.5 * 2; 0.5 stops, not -0.5


def test_restitution_bounces_fast_approaches_only():
    plane = [Plane(point=(0, 0, 0), normal=(0, 1, 0), friction=0.0)]
    x = np.array([[0.0, -0.01, 0.0], [0.0, -0.01, 0.0]])
    v = np.array([[0.0, -4.0, 0.0], [0.0, -0.1, 0.0]])
    collide_obstacles(x, v, x.copy(), plane, restitution=0.5)
    np.testing.assert_allclose(v[:, 1], [2.0, 0.0])


def test_the_arrays_may_be_strided_views():
    soa_x = np.array([[0.0, 5.0], [-0.1, 5.0], [0.0, 5.0]])  # (3, P): vertex 0 below the plane
    soa_v = np.array([[0.0, 1.0], [-1.0, 1.0], [0.0, 1.0]])
    collide_obstacles(soa_x.T, soa_v.T, soa_x.T.copy(), [Plane()])
    np.testing.assert_allclose(soa_x[:, 0], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(soa_v[:, 0], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(soa_x[:, 1], [5.0, 5.0, 5.0])  # untouched


def test_vertices_far_from_every_obstacle_are_untouched():
    rng = np.random.default_rng(3)
    x = rng.uniform(-1.0, 1.0, size=(1000, 3))
    v = rng.normal(size=(1000, 3))
    x0, v0 = x.copy(), v.copy()
    obstacles = [Box(center=(10, 0, 0)), Ball(center=(0, 10, 0)), Plane(point=(0, -5, 0))]
    assert collide_obstacles(x, v, x - 0.01 * v, obstacles) == 0
    assert np.array_equal(x, x0) and np.array_equal(v, v0)


@given(angles, angles, angles, st.floats(5.0, 60.0), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_no_segment_crosses_a_thin_turned_board(yaw, pitch, roll, speed, seed):
    """A 2 cm board, turned anyhow; vertices fly at it at up to 60 m/s for one 1/480 s substep
    (12 cm: six times its thickness). None ends on the far side or inside."""
    rot = rotation_from_degrees(yaw, pitch, roll)
    board = Box(center=(0.1, 0.2, 0.3), half_size=(0.5, 0.01, 0.5), rotation=rot)
    rng = np.random.default_rng(seed)
    n = 200
    normal = rot[:, 1]
    # Starts far enough inside the board's outline that no substep's travel (at most 60 / 480 =
    # 0.125 m) can carry a vertex round its edge: every one of them meets a face.
    start_local = np.column_stack([rng.uniform(-0.37, 0.37, n), rng.uniform(0.011, 0.06, n), rng.uniform(-0.37, 0.37, n)])
    start_local[::2, 1] *= -1.0  # half come from the other side
    side = np.sign(start_local[:, 1])
    x_prev = board.center + start_local @ rot.T
    direction = -side[:, None] * normal + rng.normal(scale=0.3, size=(n, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    v = direction * speed
    x = x_prev + v / 480.0
    collide_obstacles(x, v, x_prev, [board])
    height = (x - board.center) @ normal
    assert np.all(side * height >= 0.01 - 1e-9), "a vertex ended inside or beyond the board"
    assert np.all(signed_distance(x, [board]) >= -1e-9)


def test_a_vertex_in_a_corner_of_two_boxes_ends_outside_both():
    floor = Box(center=(0, -0.5, 0), half_size=(2, 0.5, 2), friction=0.0)
    wall = Box(center=(1.5, 0.5, 0), half_size=(0.5, 1.5, 2), friction=0.0)
    x_prev = np.array([[0.95, 0.05, 0.0]])
    x = np.array([[1.02, -0.03, 0.0]])
    v = np.array([[2.0, -2.0, 0.0]])
    collide_obstacles(x, v, x_prev, [floor, wall])
    assert signed_distance(x, [floor, wall])[0] >= -1e-12
    np.testing.assert_allclose(v, [[0.0, 0.0, 0.0]], atol=1e-12)


# The wedge: a box turned 30 degrees about z dips its corner 0.22 m into the floor; its
# underside meets the floor at x = 0.16 in a crease of 30 degrees.
_WEDGE = Box(center=(0, 0.6, 0), half_size=(0.6, 0.6, 0.6), rotation=rotation_from_degrees(roll=30))


@pytest.mark.parametrize("seed", [41, 7, 2024])
def test_a_vertex_pushed_into_a_wedge_of_an_obstacle_and_the_floor_ends_out_of_both(seed):
    # Vertices driven into the crease from outside, fast and slow: each goes out of the box along
    # its face onto the floor, on the crease's edge, and keeps no velocity into either. Pushed out
    # of the box alone, a vertex there went under the floor, and back into the box the next substep.
    from slime.physics.planes import Planes, collide_planes

    rng = np.random.default_rng(seed)
    floor = Planes.floor(3, 0.0, friction=0.8)
    crease = np.array([0.16, 0.0, 0.0])
    x_prev = crease + np.column_stack([rng.uniform(0.001, 0.012, 64), rng.uniform(0.0, 0.006, 64), rng.uniform(-0.5, 0.5, 64)])
    x_prev[:, 1] = np.minimum(x_prev[:, 1], (x_prev[:, 0] - 0.16) * math.tan(math.radians(30)) - 1e-3)  # under the face
    x_prev[:, 1] = np.maximum(x_prev[:, 1], 0.0)
    v = np.column_stack([rng.uniform(-6.0, -1.0, 64), rng.uniform(-2.0, 1.0, 64), rng.normal(0.0, 0.5, 64)])
    x = x_prev + v / 480.0
    collide_planes(x, v, np.ones(64), floor)  # the world's order: the floor, then the obstacles
    assert (signed_distance(x, [_WEDGE]) < 0.0).any()
    collide_obstacles(x, v, x_prev, [_WEDGE], planes=floor)
    assert x[:, 1].min() >= -1e-12
    assert signed_distance(x, [_WEDGE]).min() >= -1e-9
    face = _WEDGE.rotation @ np.array([0.0, -1.0, 0.0])  # the underside's outward normal
    on_face = signed_distance(x, [_WEDGE]) < 1e-9
    assert (v[on_face] @ face).min(initial=0.0) >= -1e-9  # nothing still going into the box
    assert v[x[:, 1] < 1e-9, 1].min(initial=0.0) >= -1e-9  # nor into the floor
    assert on_face.sum() > 8 and (on_face & (x[:, 1] < 1e-9)).sum() > 0  # some on both: in the crease


@pytest.mark.slow
def test_a_spiked_slime_in_the_wedge_comes_to_rest_out_of_both_and_round_again():
    # The wedge: a goo slime beside it, spiked five times (vertices thrown into the box
    # and through it). It comes to rest with no vertex under the floor or in the box, and as
    # round as the same slime set down there untouched. It once kept 28 vertices under the floor
    # and a tail wrapped round the box's far side, holding 30 mJ for good.
    def settled(spikes: int):
        params = SlimeParams.of_material("goo", radius=0.4, stacks=32, slices=32, center=(0.9, 0.5, 0.0))
        world = slime_world([params], obstacles=[_WEDGE])
        for seed in range(spikes):
            world.spike(0, 1.0, seed=seed)
        for _ in range(300):
            world.step()
        return world

    world, untouched = settled(5), settled(0)
    assert world.x[1].min() >= -1e-9
    assert signed_distance(world.positions, [_WEDGE]).min() >= -1e-4
    assert world.kinetic_energy() < 1e-3
    extent, rest = np.ptp(world.x, axis=1), np.ptp(untouched.x, axis=1)
    np.testing.assert_allclose(extent, rest, rtol=0.1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [10, 4, 41])
def test_a_seeded_fuzz_of_obstacle_layouts_leaves_no_vertex_in_the_floor_or_an_obstacle(seed):
    # Three boxes turned at random, dipping into the floor and into each other, a slime of either
    # material thrown among them and spiked three times, and a second dropped onto it: over their
    # last second of settling no vertex is under the floor or inside a box, and they come to rest
    # (41.3): below 1 mJ, every vertex moving as its velocity says (no speed kept against a
    # surface that its position, put back every substep, never follows). Seed 10 once kept a goo
    # 15.6 mm under the floor.
    rng = np.random.default_rng(seed)
    boxes = []
    for _ in range(3):
        half_size = tuple(rng.uniform(0.15, 0.5, 3))
        boxes.append(Box(center=(rng.uniform(-0.5, 0.5), rng.uniform(0.0, 0.4), rng.uniform(-0.5, 0.5)),
                         half_size=half_size, rotation=rotation_from_degrees(*rng.uniform(-180, 180, 3))))
    material = ("jelly", "goo")[rng.integers(2)]
    params = SlimeParams.of_material(material, radius=0.35, stacks=20, slices=20,
                                     center=(rng.uniform(-0.3, 0.3), 2.0, rng.uniform(-0.3, 0.3)))
    dropped = SlimeParams(radius=0.25, stacks=16, slices=16, center=(rng.uniform(-0.3, 0.3), 3.0, rng.uniform(-0.3, 0.3)))
    world = slime_world([params, dropped], [(rng.uniform(-2, 2), 0.0, rng.uniform(-2, 2))], boxes)
    deepest_floor = deepest_box = 0.0
    for frame in range(300):
        if frame == 60:
            for k in range(3):
                world.spike(0, 1.0, seed=seed * 10 + k)
        world.step()
        if frame >= 240:
            deepest_floor = max(deepest_floor, -float(world.x[1].min()))
            deepest_box = max(deepest_box, -float(signed_distance(world.positions, boxes).min()))
    assert deepest_floor <= 1e-9 and deepest_box <= 1e-4, (material, deepest_floor, deepest_box)
    assert world.recoveries == 0
    before = world.x.copy()
    world.step()
    motion = 0.5 * float(world.mass @ np.sum(((world.x - before) / world.dt) ** 2, axis=0))
    assert world.kinetic_energy() < 1e-3 and motion < 1e-3, (world.kinetic_energy(), motion)


# ------------------------------------------------------------------------------------ slimes
def _slime(**kw):
    base = dict(radius=0.3, stacks=16, slices=16)
    base.update(kw)
    return SlimeParams(**base)


def mechanical_energy(world) -> float:
    """Kinetic plus gravitational energy (J) of every slime in the world."""
    return world.kinetic_energy() - float(world.mass @ (world.positions @ world.gravity))


def test_a_slime_falls_freely_onto_a_plane_then_rests_on_it():
    # Until it touches, its centre of mass falls as symplectic Euler has it, substep h: after
    # t = n h, y0 - g t^2 / 2 - g t h / 2 (its internal forces sum to zero); then the plane holds it.
    plane = Plane(point=(0.0, 0.0, 0.0), normal=(0.0, 1.0, 0.0))
    world = slime_world([_slime(center=(0.0, 1.5, 0.0), air_drag=0.0)], obstacles=[plane], floor_height=None)
    g, h = -float(world.gravity[1]), world.dt / world.substeps
    y0 = float(world.centroids()[0, 1])
    energy = mechanical_energy(world)
    for frame in range(1, 26):  # the lowest vertex, 1.2 m up, reaches the plane after 0.49 s
        world.step()
        t = frame * world.dt
        assert world.centroids()[0, 1] == pytest.approx(y0 - 0.5 * g * t * t - 0.5 * g * t * h, abs=1e-9)
    assert world.positions[:, 1].min() > 0.0
    landing = world.kinetic_energy()
    for _ in range(150):
        world.step()
        assert world.positions[:, 1].min() > -1e-9
        assert mechanical_energy(world) <= energy + 1e-9
    assert 0.1 < world.centroids()[0, 1] < 0.32  # on it, squashed a little by its weight
    assert world.kinetic_energy() < 0.01 * landing  # and all but still


@pytest.mark.parametrize("speed", [20.0, 40.0])
def test_a_slime_thrown_at_a_thin_board_never_passes_it(speed):
    board = Box(center=(1.0, 0.0, 0.0), half_size=(0.01, 1.0, 1.0))
    world = slime_world([_slime(center=(0, 0, 0))], velocities=[(speed, 0, 0)], obstacles=[board],
                        gravity=(0, 0, 0), floor_height=None)
    assert thrown_through(world) <= 0.99 + 1e-9
    assert world.centroids()[0, 0] < 0.9  # it came back
    assert world.momentum()[0] < 0.0  # the board pushed it back, it did not let it through
    assert np.all(np.isfinite(world.x))


def test_a_slime_rolls_down_a_turned_box_ramp_as_down_a_tilted_plane():
    turn = rotation_from_degrees(pitch=20)
    ramp = Box(center=(0, 0.5, 0), half_size=(1.5, 0.05, 1.5), rotation=turn)
    world = slime_world([_slime(center=(0, 1.2, -0.6))], obstacles=[ramp])
    obstacle_set = ObstacleSet([ramp])
    start = world.centroids()[0]
    energy = mechanical_energy(world)
    for _ in range(60):
        world.step()
        assert signed_distance(world.positions, obstacle_set).min() > -1e-9
        assert mechanical_energy(world) <= energy + 1e-9
    end = world.centroids()[0]
    assert end[2] > start[2] + 0.4  # down the slope, toward +z, its film holding it back a little
    assert abs(end[0] - start[0]) < 0.05  # straight down it
    # The box's top face is the plane through it: one law (restitution, friction, grip, adhesion).
    top = Plane(point=tuple(np.array([0.0, 0.5, 0.0]) + 0.05 * turn[:, 1]), normal=tuple(turn[:, 1]),
                friction=ramp.friction)
    plane = slime_world([_slime(center=(0, 1.2, -0.6))], obstacles=[top])
    for _ in range(60):
        plane.step()
    np.testing.assert_allclose(end - start, plane.centroids()[0] - start, rtol=0, atol=0.005)


def test_a_slime_comes_to_rest_on_a_ball_and_a_tilted_plane_holds_it_out():
    ball = Ball(center=(0.0, 0.5, 0.0), radius=0.5)
    world = slime_world([_slime(center=(0.0, 1.4, 0.0))], obstacles=[ball])
    for _ in range(60):
        world.step()
    assert signed_distance(world.positions, [ball]).min() > -1e-9
    assert world.centroids()[0, 1] > 1.0  # on the ball, not through it
    slope = Plane(point=(0.0, 0.5, 0.0), normal=(0.3, 1.0, 0.0), friction=0.2)
    world = slime_world([_slime(center=(0.0, 1.2, 0.0))], obstacles=[slope])
    energy = mechanical_energy(world)
    for _ in range(60):
        world.step()
        assert signed_distance(world.positions, [slope]).min() > -1e-9
        assert mechanical_energy(world) <= energy + 1e-9
    assert world.centroids()[0, 0] > 0.1  # it slid downhill (+x)


def test_a_slime_dropped_into_a_bowl_of_boxes_stays_in_it():
    walls = [
        Box(center=(0, -0.1, 0), half_size=(1, 0.1, 1)),
        Box(center=(-0.8, 0.3, 0), half_size=(0.1, 0.6, 1), rotation=rotation_from_degrees(roll=-30)),
        Box(center=(0.8, 0.3, 0), half_size=(0.1, 0.6, 1), rotation=rotation_from_degrees(roll=30)),
        Box(center=(0, 0.3, -0.8), half_size=(1, 0.6, 0.1), rotation=rotation_from_degrees(pitch=30)),
        Box(center=(0, 0.3, 0.8), half_size=(1, 0.6, 0.1), rotation=rotation_from_degrees(pitch=-30)),
    ]
    world = slime_world([_slime(center=(0.0, 0.4, 0.0))], velocities=[(4.0, 1.0, -3.0)], obstacles=walls,
                        floor_height=-5.0)
    energy = mechanical_energy(world)
    for _ in range(90):
        world.step()
        assert signed_distance(world.positions, walls).min() > -1e-9
        assert mechanical_energy(world) <= energy + 1e-9
    c = world.centroids()[0]
    assert np.all(np.abs(c[[0, 2]]) < 0.8) and 0.0 < c[1] < 0.6


def test_a_broken_vertex_does_not_spread():
    """A non-finite vertex (a state broken elsewhere, which the body recovers from) is left to
    its body: no error, and every finite vertex is still resolved."""
    x = np.array([[np.nan, 0.0, 0.0], [0.0, -0.1, 0.0], [np.inf, -np.inf, 0.0]])
    v = np.array([[0.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 0.0]])
    obstacles = [Plane(), Box(center=(0, -1, 0)), Ball(center=(3, 0, 0))]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        collide_obstacles(x, v, x.copy(), obstacles)
    np.testing.assert_allclose(x[1], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(v[1], [0.0, 0.0, 0.0])


# ------------------------------------------------------------------------------------ once a frame
def _random_obstacles(rng) -> ObstacleSet:
    boxes = [Box(center=rng.uniform(-1, 1, 3), half_size=rng.uniform(0.02, 0.6, 3),
                 rotation=rotation_from_degrees(*rng.uniform(-180, 180, 3))) for _ in range(4)]
    balls = [Ball(center=rng.uniform(-1, 1, 3), radius=rng.uniform(0.05, 0.5)) for _ in range(2)]
    return ObstacleSet(boxes + balls + [Plane(point=(0, -1.5, 0))])


@pytest.mark.parametrize("seed", range(6))
def test_the_frame_broad_phase_finds_what_the_substep_one_finds(seed):
    """``FramePairs`` made at the frame's start, then eight substeps of random motion inside its
    margin and one jump past it: every substep's contacts are bit-equal to those of the substep's
    own broad phase, and the jump turns the frame's pairs off (the fallback), never a miss."""
    rng = np.random.default_rng(seed)
    ob = _random_obstacles(rng)
    x = rng.uniform(-1.6, 1.6, (6000, 3))
    x = x[signed_distance(x, ob) > 0.02][:3000]  # outside, as a slime's vertices are
    v = rng.normal(scale=2.0, size=x.shape)
    frame = FramePairs(x, v, ob, 1.0 / 60.0)
    assert frame.kinds["box"][0].size > 0 and frame.kinds["ball"][0].size > 0
    a_x, a_v, b_x, b_v = x.copy(), v.copy(), x.copy(), v.copy()
    used = 0
    for substep in range(9):
        step = v / 480.0 + rng.normal(scale=0.002, size=v.shape)
        if substep == 8:  # one vertex goes further than the frame allowed for
            step[17] = 3.0 * frame.margin
        a_prev, b_prev = a_x.copy(), b_x.copy()
        a_x += step
        b_x += step
        used += frame.holds(a_x, a_prev, ob)
        count = collide_obstacles(a_x, a_v, a_prev, ob, frame=frame)
        assert count == collide_obstacles(b_x, b_v, b_prev, ob)
        assert np.array_equal(a_x, b_x) and np.array_equal(a_v, b_v)
    assert used == 8 and not frame.valid


@pytest.mark.slow
def test_a_world_with_obstacles_steps_as_if_every_substep_had_its_own_broad_phase(monkeypatch):
    """The ``pile`` scene (ten slimes falling into a walled box) for two seconds, with the frame's
    broad phase and with the substep's: the same state, bit for bit; and the frame's was used."""
    from slime.scenes.world_scene import load_world

    def run(use_frame: bool):
        world = load_world("pile").world
        uses = []
        holds = FramePairs.holds

        def counted(self, *args):
            result = holds(self, *args) if use_frame else False
            uses.append(result)
            return result

        monkeypatch.setattr(FramePairs, "holds", counted)
        for _ in range(120):
            world.step()
        monkeypatch.setattr(FramePairs, "holds", holds)
        return world.x.copy(), world.v.copy(), np.mean(uses)

    x_a, v_a, used = run(True)
    x_b, v_b, _ = run(False)
    assert used > 0.9
    assert np.array_equal(x_a, x_b) and np.array_equal(v_a, v_b)


def test_a_slime_thrown_within_a_frame_still_stops_at_a_thin_board():
    """The frame's pairs are made with the slime at rest (a margin of a centimetre); then, within
    the frame, it is flung at 20 m/s at a 2 cm board 8 cm away. The substeps notice it went
    further than the pairs allow for and test it themselves: it stops at the board."""
    board = Box(center=(0.4, 0.0, 0.0), half_size=(0.01, 1.0, 1.0))
    world = slime_world([_slime(center=(0.0, 0.0, 0.0))], obstacles=[board], gravity=(0, 0, 0), floor_height=None)
    world.step()
    assert world._obstacle_frame.valid and world._obstacle_frame.margin < 0.02
    world.v[0] = 20.0
    h = world.dt / world.substeps
    for _ in range(2 * world.substeps):
        world.substep(h)
        assert world.x[0].max() <= 0.39 + 1e-9
    assert not world._obstacle_frame.valid


def test_a_broken_frame_start_turns_the_frame_pairs_off():
    """A NaN speed gives no margin, a NaN position fails every check: the substeps' own broad
    phase is used, without a warning."""
    ob = ObstacleSet([Box()])
    x = np.zeros((5, 3))
    v = np.zeros((5, 3))
    v[2, 1] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not FramePairs(x, v, ob, 1.0 / 60.0).valid
        x[3, 0] = np.nan
        frame = FramePairs(x, np.zeros((5, 3)), ob, 1.0 / 60.0)
        assert not frame.holds(x, x, ob) and not frame.valid


@pytest.mark.parametrize("scene", ["ramp", "pillars", "pile"])
def test_the_frame_pairs_on_the_worlds_shared_blocks_are_the_pairs_of_every_vertex(scene):
    # One broad phase a frame for contacts and obstacles: the blocks the world bounds for its
    # slimes' contacts (spheres, as boxes) find every (vertex, obstacle) pair that blocks of the
    # vertices' own boxes find, frame after frame, with the slimes falling, landing and sliding.
    from slime.physics.slime3d.contact import frame_blocks
    from slime.scenes.world_scene import load_world

    world = load_world(scene).world
    for frame in range(45):
        world.step()
        if frame % 4:
            continue
        solids = ObstacleSet(world.obstacles)
        shared = FramePairs(world.x.T, world.v, solids, world.dt, frame_blocks(contact_table(world), world.x.T, world.v.T))
        own = FramePairs(world.x.T, world.v, solids, world.dt)
        assert shared.kinds.keys() == own.kinds.keys()
        for kind, (vertex, which) in own.kinds.items():
            found = set(zip(shared.kinds[kind][0].tolist(), shared.kinds[kind][1].tolist()))
            assert found == set(zip(vertex.tolist(), which.tolist())), (scene, frame, kind)


def test_a_vertex_hitting_two_obstacles_is_settled_on_the_deepest_first_and_tested_again_on_the_other():
    from slime.physics.slime3d.obstacles import settle_deepest

    # Vertex 1 hits obstacles 0 (0.1 deep) and 2 (0.3 deep, listed second); vertex 0 hits obstacle 1 once.
    x, v = np.zeros((3, 2)), np.array([[0.0, 0.0], [-1.0, -2.0], [0.0, 0.0]])
    vertex, which = np.array([1, 0, 1]), np.array([0, 1, 2])
    hit = np.ones(3, dtype=bool)
    new_x = np.array([[0.0, 0.1, 0.0], [0.0, 0.2, 0.0], [0.0, 0.3, 0.0]])
    normal = np.array([[0.0, 1.0, 0.0]] * 3)
    depth = np.array([0.1, 0.2, 0.3])
    no_planes = np.zeros((0, 3))
    put, deep, rest_vertex, rest_which = settle_deepest(x, v, vertex, which, hit, new_x, normal, depth, np.zeros(3),
                                                        np.ones(x.shape[1]), 0.0, 0.5, no_planes, no_planes,
                                                        np.zeros(0))
    assert put.tolist() == [0, 1] and deep.tolist() == [0.2, 0.3]
    np.testing.assert_array_equal(x[1], [0.2, 0.3])  # vertex 0 on obstacle 1, vertex 1 on the deeper obstacle 2
    np.testing.assert_array_equal(v[1], [0.0, 0.0])  # their approach stopped
    assert rest_vertex.tolist() == [1] and rest_which.tolist() == [0]  # and vertex 1 tested again against 0
