"""Obstacle kinds (slime/obstacle_kinds): the cylinder against its analytic distance and rays, no
tunnelling through it at 20 m/s, slimes resting on it and sliding off it, in the bundled scene
``pillars`` and its picture; and the registry: a kind registered from this file is read by the
scene format, built into a world and drawn."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

from slime import obstacle_kinds
from slime.obstacle_kinds import KINDS, Ball, Cylinder, rotation_from_degrees
from slime.obstacle_mesh import obstacle_mesh
from slime.physics.slime3d.obstacles import ObstacleSet, collide_obstacles, ray_hit, signed_distance
from slime.physics.slime3d.slime_params import SlimeParams
from slime.render.images import save_png
from slime.render.world_renderer import bodies_of_world, render_world_picture
from slime.scenes.world_format import WorldFileError, load_world_scene, spec_to_dict, world_spec_from_dict
from slime.scenes.world_scene import build_world, load_world
from helpers import current_context, slime_world, thrown_through  # noqa: F401 (current_context: autouse, the module's ctx made current)


def _local(cylinder, points):
    return (np.asarray(points, dtype=np.float64) - cylinder.center) @ cylinder.rotation


# ------------------------------------------------------------------------------------ the cylinder
@pytest.mark.parametrize("make, words", [
    (lambda: Cylinder(radius=0.0), "cylinder radius must be > 0"),
    (lambda: Cylinder(half_height=-1.0), "cylinder half_height must be > 0"),
    (lambda: Cylinder(center=(0.0, math.nan, 0.0)), "finite"),
    (lambda: Cylinder(rotation=((1, 0, 0), (0, 1, 0), (0, 0, -1))), "orthonormal"),
    (lambda: Cylinder(friction=-0.1), "friction"),
])
def test_bad_cylinders_are_refused_in_one_line(make, words):
    with pytest.raises(ValueError, match=words) as info:
        make()
    assert "\n" not in str(info.value)


def test_cylinder_signed_distance_matches_the_analytic_values():
    pillar = Cylinder(center=(1.0, 2.0, 3.0), radius=0.5, half_height=2.0)
    points = np.array([
        [1.0, 2.0, 3.0],  # the centre: the side is nearest
        [1.0, 3.8, 3.0],  # inside, near the top cap
        [4.0, 2.0, 3.0],  # beside it: radial
        [1.3, 7.0, 3.0],  # above the top cap
        [1.0 + 3.5, 4.0 + 4.0, 3.0],  # beyond the rim: to the rim's circle
        [1.0, 2.0, 3.0 - 0.4],  # inside, 0.1 from the side
    ])
    np.testing.assert_allclose(signed_distance(points, [pillar]), [-0.5, -0.2, 2.5, 3.0, 5.0, -0.1], atol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_a_turned_cylinder_measures_distance_in_its_own_frame(seed):
    rng = np.random.default_rng(seed)
    rot = rotation_from_degrees(*rng.uniform(-180.0, 180.0, 3))
    turned = Cylinder(center=(0.5, -1.0, 2.0), radius=0.3, half_height=0.8, rotation=rot)
    upright = Cylinder(radius=0.3, half_height=0.8)
    local = rng.uniform(-2.0, 2.0, size=(200, 3))
    world = turned.center + local @ rot.T
    np.testing.assert_allclose(signed_distance(world, [turned]), signed_distance(local, [upright]), atol=1e-12)
    # The analytic form: a 2D box distance in (radial, axial).
    q = np.column_stack([np.hypot(local[:, 0], local[:, 2]) - 0.3, np.abs(local[:, 1]) - 0.8])
    analytic = np.linalg.norm(np.maximum(q, 0.0), axis=1) + np.minimum(q.max(axis=1), 0.0)
    np.testing.assert_allclose(signed_distance(local, [upright]), analytic, atol=1e-12)


def test_cylinder_bounds_hold_its_surface():
    rot = rotation_from_degrees(30.0, 50.0, -20.0)
    drum = Cylinder(center=(1.0, 2.0, -1.0), radius=0.6, half_height=0.25, rotation=rot)
    low, high = Cylinder.bounds(Cylinder.pack([drum]))
    positions, _ = drum.triangles()
    assert np.all(positions >= low[0] - 1e-9) and np.all(positions <= high[0] + 1e-9)
    # Tight: the mesh reaches the box's faces (to the polygon's chord).
    np.testing.assert_allclose(positions.min(axis=0), low[0], atol=0.6 * (1 - math.cos(math.pi / 48)) + 1e-9)
    np.testing.assert_allclose(positions.max(axis=0), high[0], atol=0.6 * (1 - math.cos(math.pi / 48)) + 1e-9)


def test_ray_hits_a_cylinder_on_its_side_and_caps_and_misses_beside_it():
    pillar = Cylinder(center=(0.0, 0.0, 4.0), radius=1.0, half_height=2.0)
    assert ray_hit((0, 0, 0), (0, 0, 1), [pillar]) == pytest.approx(3.0)  # the side
    assert ray_hit((0, 5, 4), (0, -1, 0), [pillar]) == pytest.approx(3.0)  # the top cap
    assert ray_hit((0, -7, 4), (0, 1, 0), [pillar]) == pytest.approx(5.0)  # the bottom cap
    assert ray_hit((1.01, 0, 0), (0, 0, 1), [pillar]) == math.inf  # just beside it
    assert ray_hit((0, 2.01, 0), (0, 0, 1), [pillar]) == math.inf  # just above it
    assert ray_hit((0, 0, 0), (1, 0, 0), [pillar]) == math.inf
    assert ray_hit((0, 0, 4), (1, 0, 0), [pillar]) == 0.0  # inside
    lying = Cylinder(center=(0.0, 0.0, 5.0), radius=1.0, half_height=1.0, rotation=rotation_from_degrees(pitch=90))
    assert ray_hit((0, 0, 0), (0, 0, 1), [lying]) == pytest.approx(4.0)  # its cap faces the ray now
    diagonal = np.array([0.0, 1.0, 1.0]) / math.sqrt(2.0)
    assert ray_hit((0, -4, 0), diagonal, [pillar]) == pytest.approx(3.0 * math.sqrt(2.0))  # the side at (0, -1, 3)


@pytest.mark.parametrize("seed", range(4))
def test_no_vertex_tunnels_through_a_cylinder_at_20_m_s_from_any_direction(seed):
    """Vertices from every direction at 20 m/s for one 1/30 s step (67 cm, more than three times the
    pillar's 20 cm width): each ends outside, on the surface it came in by, on its side."""
    rng = np.random.default_rng(seed)
    rot = rotation_from_degrees(*rng.uniform(-180.0, 180.0, 3))
    pillar = Cylinder(center=(0.2, 0.5, -0.3), radius=0.1, half_height=0.25, rotation=rot, friction=0.4)
    n = 400
    toward = rng.normal(size=(n, 3))
    toward /= np.linalg.norm(toward, axis=1, keepdims=True)
    x_prev = pillar.center + 0.35 * toward
    aim_local = np.column_stack([rng.uniform(-0.06, 0.06, n), rng.uniform(-0.22, 0.22, n), rng.uniform(-0.06, 0.06, n)])
    aim = pillar.center + aim_local @ rot.T
    v = aim - x_prev
    v *= 20.0 / np.linalg.norm(v, axis=1, keepdims=True)
    x = x_prev + v / 30.0
    end = x.copy()
    assert collide_obstacles(x, v, x_prev, [pillar]) == n
    assert np.all(signed_distance(x, [pillar]) >= -1e-9)
    # The last point outside on each segment, sampled finely, says which surface it came in by.
    t = np.linspace(0.0, 1.0, 20001)
    start, end = _local(pillar, x_prev), _local(pillar, end)
    path = start[:, None, :] + t[None, :, None] * (end - start)[:, None, :]
    inside = (np.hypot(path[..., 0], path[..., 2]) < 0.1) & (np.abs(path[..., 1]) < 0.25)
    assert inside.any(axis=1).all()
    before = path[np.arange(n), inside.argmax(axis=1) - 1]
    through_cap = np.abs(before[:, 1]) >= 0.25
    final = _local(pillar, x)
    cap_ok = (np.sign(final[:, 1]) == np.sign(before[:, 1])) & (np.abs(final[:, 1]) >= 0.25 - 1e-9)
    side_ok = ((final[:, 0] * before[:, 0] + final[:, 2] * before[:, 2]) > 0.0) & (
        np.hypot(final[:, 0], final[:, 2]) >= 0.1 - 1e-9)
    assert np.all(np.where(through_cap, cap_ok, side_ok))
    assert through_cap.any() and (~through_cap).any()
    # No speed left into the surface it was put on.
    normal_speed = np.where(through_cap, np.sign(final[:, 1]) * (v @ rot[:, 1]), 0.0)
    assert np.all(normal_speed >= -1e-9)


def test_a_vertex_started_inside_a_cylinder_leaves_by_the_nearest_surface():
    pillar = Cylinder(radius=1.0, half_height=1.0, friction=0.0)
    x = np.array([[0.0, 0.95, 0.2], [0.9, 0.0, 0.0]])
    v = np.array([[1.0, -2.0, 0.0], [-1.0, 0.0, 0.5]])
    assert collide_obstacles(x, v, x.copy(), [pillar]) == 2
    np.testing.assert_allclose(x, [[0.0, 1.0, 0.2], [1.0, 0.0, 0.0]], atol=1e-12)
    np.testing.assert_allclose(v, [[1.0, 0.0, 0.0], [0.0, 0.0, 0.5]], atol=1e-12)


def _slime(**kw):
    base = dict(radius=0.3, stacks=16, slices=16)
    base.update(kw)
    return SlimeParams(**base)


def test_a_slime_lands_on_a_pillar_and_rests_on_its_top():
    pillar = Cylinder(center=(0.0, 0.5, 0.0), radius=0.5, half_height=0.5)
    world = slime_world([_slime(center=(0.0, 1.6, 0.0))], obstacles=[pillar])
    for _ in range(150):
        world.step()
        assert signed_distance(world.positions, [pillar]).min() > -1e-9
    centre = world.centroids()[0]
    assert 1.0 < centre[1] < 1.35 and np.hypot(centre[0], centre[2]) < 0.05  # on the top, in the middle
    assert np.abs(world.v).max() < 0.2  # at rest but for the last of its wobble


def test_a_slime_slides_off_a_log_and_is_never_inside_it():
    log = Cylinder(center=(0.0, 0.3, 0.0), radius=0.3, half_height=1.0, rotation=rotation_from_degrees(pitch=90),
                   friction=0.2)
    world = slime_world([_slime(center=(0.12, 0.95, 0.0))], obstacles=[log])
    for _ in range(90):
        world.step()
        assert signed_distance(world.positions, [log]).min() > -1e-9
    centre = world.centroids()[0]
    assert centre[0] > 0.45 and centre[1] < 0.5  # off the log on the +x side, down by the floor


@pytest.mark.parametrize("speed", [20.0, 40.0])
def test_a_slime_thrown_at_a_thin_disc_never_passes_it(speed):
    disc = Cylinder(center=(1.0, 0.0, 0.0), radius=1.0, half_height=0.01, rotation=rotation_from_degrees(roll=90))
    world = slime_world([_slime(center=(0, 0, 0))], velocities=[(speed, 0, 0)], obstacles=[disc],
                        gravity=(0, 0, 0), floor_height=None)
    assert thrown_through(world) <= 0.99 + 1e-9
    assert world.momentum()[0] < 0.0  # pushed back, not let through
    assert np.all(np.isfinite(world.x))


def test_cylinder_mesh_closes_around_it_with_outward_normals():
    drum = Cylinder(center=(0.0, 1.0, 0.0), radius=0.5, half_height=0.3, rotation=rotation_from_degrees(10, 20, 30))
    rows = obstacle_mesh(drum)
    positions, normals = rows[:, :3].astype(float), rows[:, 3:6].astype(float)
    assert len(rows) % 3 == 0 and np.all(np.abs(signed_distance(positions, [drum])) < 1e-5)
    outward = signed_distance(positions + 0.01 * normals, [drum])
    assert np.all(outward > 0.005)
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1.0, atol=1e-5)


# ------------------------------------------------------------------------------------ the scene file
CYLINDER_SCENE = {
    "slimes": [{"center": [0.0, 2.0, 0.0], "radius": 0.3, "stacks": 8, "slices": 8}],
    "obstacles": [{"kind": "cylinder", "center": [0.0, 0.5, 0.0], "radius": 0.4, "half_height": 0.5,
                   "rotation": [0, 0, 10], "friction": 0.3, "color": "#808080"}],
}


def test_a_cylinder_reads_writes_and_builds_from_a_scene_file():
    spec = world_spec_from_dict(CYLINDER_SCENE)
    (entry,) = spec.obstacles
    assert (entry.kind, entry.radius, entry.half_height, entry.rotation) == ("cylinder", 0.4, 0.5, (0.0, 0.0, 10.0))
    assert entry.half_size is None  # a box's key
    assert world_spec_from_dict(spec_to_dict(spec)) == spec
    scene = build_world(spec)
    (built,) = scene.world.obstacles
    assert isinstance(built, Cylinder) and built.friction == 0.3
    np.testing.assert_allclose(built.rotation, rotation_from_degrees(roll=10))
    assert scene.drawn_obstacles[0]["kind"] == "cylinder" and len(obstacle_mesh(scene.drawn_obstacles[0])) > 0


@pytest.mark.parametrize("change, message", [
    (lambda o: o.pop("half_height"), "obstacles[0] (a cylinder) is missing the key 'half_height'"),
    (lambda o: o.update(half_height=0), "obstacles[0].half_height must be from 0.001 to 1000 m, got 0"),
    (lambda o: o.update(radius="wide"), "obstacles[0].radius must be a number, got string 'wide'"),
    (lambda o: o.update(rotation=[0, 400, 0]), "obstacles[0].rotation[1] must be from -360 to 360 degrees"),
    (lambda o: o.update(size=[1, 1, 1]), "obstacles[0] (a cylinder) has an unknown key 'size'"),
    (lambda o: o.update(center=[0.0, 2.0, 0.0]), "slimes[0] starts inside obstacles[0] (a cylinder)"),
])
def test_bad_cylinder_entries_are_one_line_errors_naming_the_key(change, message):
    data = {"slimes": [dict(CYLINDER_SCENE["slimes"][0])], "obstacles": [dict(CYLINDER_SCENE["obstacles"][0])]}
    change(data["obstacles"][0])
    with pytest.raises(WorldFileError) as info:
        world_spec_from_dict(data)
    assert message in str(info.value) and "\n" not in str(info.value)


# ------------------------------------------------------------------------------------ the registry
@dataclass(frozen=True)
class Bead(Ball):
    """A kind from outside the package: a ball the file gives by its diameter."""

    name = "bead"
    file_keys = ("center", "diameter")
    required = ("center", "diameter")

    @classmethod
    def read(cls, check, data, where):
        return {"center": check.vector(data["center"], f"{where}.center"),
                "diameter": check.number(data["diameter"], f"{where}.diameter", (0.002, 100.0), "m")}

    @classmethod
    def build(cls, values, friction):
        return cls(center=values["center"], radius=0.5 * values["diameter"], friction=friction)


@pytest.fixture
def bead():
    obstacle_kinds.register(Bead)
    yield Bead
    obstacle_kinds.unregister("bead")


BEAD_SCENE = {
    "slimes": [{"center": [-1.0, 0.5, 0.0], "radius": 0.3, "stacks": 8, "slices": 8}],
    "obstacles": [{"kind": "bead", "center": [0.8, 0.6, 0.0], "diameter": 1.2, "color": "#e02020"}],
}


def test_a_kind_registered_from_outside_is_read_built_collided_and_drawn(ctx, bead, tmp_path):
    assert KINDS["bead"] is Bead
    with pytest.raises(WorldFileError, match="kind must be one of box, ball, plane, cylinder, bead"):
        world_spec_from_dict({"slimes": BEAD_SCENE["slimes"], "obstacles": [{"kind": "cone"}]})
    with pytest.raises(WorldFileError, match=r"obstacles\[0\] \(a bead\) has an unknown key 'radius'"):
        world_spec_from_dict({"slimes": BEAD_SCENE["slimes"], "obstacles": [dict(BEAD_SCENE["obstacles"][0], radius=1)]})
    spec = world_spec_from_dict(BEAD_SCENE)
    assert world_spec_from_dict(spec_to_dict(spec)) == spec
    scene = build_world(spec)
    (built,) = scene.world.obstacles
    assert isinstance(built, Bead) and built.radius == 0.6
    assert list(ObstacleSet([built]).groups) == ["bead"]
    x = np.array([[0.8, 1.15, 0.0]])
    collide_obstacles(x, np.zeros((1, 3)), np.array([[0.8, 1.3, 0.0]]), [built])
    assert x[0, 1] == pytest.approx(1.2)
    # Drawn: where it stands, the picture is its red; without it, not.
    with_bead = render_world_picture(ctx, bodies_of_world(scene.world), scene.drawn_obstacles, (0.0, 1.0, 4.0), (160, 120))
    without = render_world_picture(ctx, bodies_of_world(scene.world), [], (0.0, 1.0, 4.0), (160, 120))
    save_png(tmp_path / "bead.png", with_bead)
    changed = np.abs(with_bead.astype(int) - without.astype(int)).max(axis=2) > 30
    red = (with_bead[..., 0].astype(int) - with_bead[..., 2]) > 60
    assert (changed & red).mean() > 0.02


def test_an_unregistered_kind_is_refused_by_the_physics():
    with pytest.raises(ValueError, match="registered kinds"):
        ObstacleSet([Bead(radius=1.0)])


# ------------------------------------------------------------------------------------ the bundled scene
def test_pillars_is_a_bundled_scene_of_cylinders_and_its_slimes_stay_on_or_off_them(ctx, tmp_path):
    spec = load_world_scene("pillars")
    assert {o.kind for o in spec.obstacles} == {"cylinder"}
    scene = load_world("pillars")
    world = scene.world
    solids = ObstacleSet(world.obstacles)
    for _ in range(120):
        world.step()
        assert signed_distance(world.positions, solids).min() > -1e-6
    centres = [world.positions[b.start:b.stop].mean(axis=0) for b in world.bodies]
    heights = {scene.file_index(i): c[1] for i, c in enumerate(centres)}
    assert heights[0] > 1.2  # on the pillar's top (1.2 m)
    assert heights[1] < 0.5  # slid off the log to the floor
    assert heights[2] > 0.86  # on the table (0.86 m)
    # The picture: the cylinders' pixels are there (drawn with them and without them differ).
    from slime.app.render_world import scene_camera

    cam = scene_camera(scene)
    bodies = bodies_of_world(world, scene.looks())
    full = render_world_picture(ctx, bodies, scene.drawn_obstacles, cam, (320, 240))
    bare = render_world_picture(ctx, bodies, [], cam, (320, 240))
    save_png(tmp_path / "pillars.png", full)
    changed = np.abs(full.astype(int) - bare.astype(int)).max(axis=2) > 30
    assert changed.mean() > 0.05, f"{100 * changed.mean():.1f} % of the picture"
    for entry in scene.drawn_obstacles:  # each cylinder's centre is on its own pixels
        col, row = cam.project(np.asarray(entry["center"], dtype=np.float64), (320, 240))
        assert changed[int(row) - 1:int(row) + 2, int(col) - 1:int(col) + 2].any(), entry["center"]


# ------------------------------------------------------------------------------------ picking
def test_the_window_ray_lands_on_a_cylinder_or_passes_beside_it_and_drops_clear_it():
    from slime.app.world_play import WorldPlay, single_slime_world
    from slime.scenes.world_scene import place_drop

    small = SlimeParams(radius=0.3, stacks=8, slices=8, center=(-3.0, 0.3, 0.0))
    p = WorldPlay(single_slime_world(small), small, seed=0)
    p.world.add_obstacle(Cylinder(center=(1.0, 0.5, 0.0), radius=0.4, half_height=0.5))
    top = p.ray_target((1.2, 5.0, 0.0), (0.0, -1.0, 0.0), reach=10.0)
    assert top == pytest.approx([1.2, 1.0, 0.0])  # on its top cap
    side = p.ray_target((5.0, 0.5, 0.0), (-1.0, 0.0, 0.0), reach=10.0)
    assert side == pytest.approx([1.4, 0.5, 0.0])  # on its side
    beside = p.ray_target((1.41, 5.0, 0.0), (0.0, -1.0, 0.0), reach=10.0)
    assert beside == pytest.approx([1.41, 0.0, 0.0])  # past its rim to the floor
    centre = place_drop(p.world, (1.0, 1.0, 0.0), 0.3, lift=0.0)
    assert centre[1] >= 1.0 + 0.3  # above the pillar, not inside it


@pytest.mark.parametrize("seed", [3, 14, 15])
def test_each_kinds_compiled_surface_is_its_distance_and_the_distances_gradient(seed):
    # The adhesion's film reads a vertex's height above an obstacle and the outward normal there
    # (obstacle_contacts.surface_of); a kind of your own gets them from its distance by central
    # differences (ObstacleKind.surface). The built-in kinds' compiled ones must say the same,
    # inside and outside, wherever the distance has a gradient (away from edges and the axis).
    from slime.obstacle_kinds import Box, ObstacleKind
    from slime.physics.slime3d.obstacle_contacts import surface_of

    rng = np.random.default_rng(seed)
    turn = rotation_from_degrees(*rng.uniform(-180.0, 180.0, 3))
    obstacles = [Box(center=tuple(rng.normal(size=3)), half_size=(0.4, 0.7, 0.5), rotation=turn),
                 Ball(center=tuple(rng.normal(size=3)), radius=0.6),
                 Cylinder(center=tuple(rng.normal(size=3)), radius=0.5, half_height=0.6, rotation=turn)]
    for obstacle in obstacles:
        kind = type(obstacle)
        packed = kind.pack([obstacle])
        points = obstacle.center + rng.uniform(-1.5, 1.5, (400, 3))
        x = np.ascontiguousarray(points.T)
        vertex, which = np.arange(len(points)), np.zeros(len(points), dtype=np.int64)
        height, normal = surface_of(kind)(packed, x, vertex, which)
        np.testing.assert_allclose(height, kind.distance(packed, points)[:, 0], rtol=0, atol=1e-12)
        reference_height, reference = ObstacleKind.surface.__func__(kind, packed, x, vertex, which)
        np.testing.assert_allclose(reference_height, height, rtol=0, atol=1e-12)
        smooth = np.abs(np.linalg.norm(reference, axis=1) - 1.0) < 1e-6
        agree = np.einsum("ij,ij->i", normal, reference) > 1.0 - 1e-6
        assert np.mean(agree[smooth]) > 0.97, kind.name  # all but where a ridge lies within a step
        np.testing.assert_allclose(np.linalg.norm(normal, axis=1), 1.0, atol=1e-12)
