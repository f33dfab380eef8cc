"""What the slime window does to its world, without a window (slime/app/world_play.py): picking the
nearest of several slimes along a ray, dropping a slime above a point (N), taking one away
(Delete), squashing them all (Q), parameter changes on every slime, reset; the 3D scene files built
into worlds (slime/scenes/world_scene.py); and a seeded fuzz of all of it, abuse included."""

import numpy as np
import pytest

from slime import limits
from slime.app.world_play import WorldPlay, single_slime_world
from slime.look import SlimeLook
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.world3d import World3D
from slime.render.picking import pick_body
from slime.scenes.world_format import load_world_scene, world_scene_names
from slime.scenes.world_scene import build_world, drawn_obstacle, place_drop

SMALL = SlimeParams(stacks=8, slices=8, radius=0.5)


def two_slimes(near_first: bool) -> World3D:
    """Two slimes on the z axis, one at z = 0 and one at z = -3 (added in either order)."""
    world = World3D()
    centres = [(0.0, 0.6, 0.0), (0.0, 0.6, -3.0)]
    for centre in (centres if near_first else centres[::-1]):
        world.add_slime(SMALL.with_(center=centre), tag=centre)
    return world


@pytest.mark.parametrize("near_first", [True, False])
def test_the_ray_picks_the_nearest_of_two_slimes(near_first):
    world = two_slimes(near_first)
    # From +z down the axis: through both slimes; the one at z = 0 is met first, on its front.
    body, hit = pick_body((0.0, 0.6, 5.0), (0.0, 0.0, -1.0), world.positions, world.triangles, world.body_of_vertex)
    assert world.bodies[body].tag == (0.0, 0.6, 0.0)
    assert hit.point[2] == pytest.approx(0.5, abs=0.03)  # its front surface, radius 0.5
    # From -z: the other one.
    body, hit = pick_body((0.0, 0.6, -8.0), (0.0, 0.0, 1.0), world.positions, world.triangles, world.body_of_vertex)
    assert world.bodies[body].tag == (0.0, 0.6, -3.0)
    assert hit.point[2] == pytest.approx(-3.5, abs=0.03)
    # Beside both: nothing.
    assert pick_body((2.0, 0.6, 5.0), (0.0, 0.0, -1.0), world.positions, world.triangles, world.body_of_vertex) is None


def test_picking_an_empty_world_finds_nothing():
    world = World3D()
    assert pick_body((0, 1, 5), (0, 0, -1), world.positions, world.triangles, world.body_of_vertex) is None


def play(seed=0, limit=limits.WINDOW_SLIMES[1]) -> WorldPlay:
    return WorldPlay(single_slime_world(SMALL), SMALL, seed=seed, limit=limit)


def heights(world: World3D) -> np.ndarray:
    return np.array([np.ptp(world.body_positions(i)[:, 1]) for i in range(len(world.bodies))])


def test_a_dropped_slime_starts_above_the_point_clear_of_everything_and_lands():
    p = play()
    on_floor = p.drop((2.0, 0.0, 0.0))
    assert len(p.world.bodies) == 2
    centre = p.world.centroids()[on_floor]
    radius = p.world.bodies[on_floor].params.radius
    assert centre[[0, 2]] == pytest.approx([2.0, 0.0], abs=1e-9)
    assert centre[1] > 1.9 * radius  # dropped from a radius above resting
    # Dropped onto the first slime: it starts above that slime's top, not inside it.
    top = p.world.body_positions(0)[:, 1].max()
    onto = p.drop((0.0, top, 0.0))
    low = p.world.body_positions(onto)[:, 1].min()
    assert low > top
    assert isinstance(p.world.bodies[onto].tag, SlimeLook)  # a colour of its own
    for _ in range(90):
        p.step()
    assert p.world.body_positions(0)[:, 1].min() == pytest.approx(0.0, abs=0.02)  # it landed, on the floor
    assert np.all(np.isfinite(p.world.positions))


def test_a_drop_ray_lands_on_a_slime_else_the_floor_else_at_reach():
    p = play()
    world = p.world
    top = world.body_positions(0)[:, 1].max()
    down = p.ray_target((0.0, 5.0, 0.0), (0.0, -1.0, 0.0), reach=4.0)
    assert down[1] == pytest.approx(top, abs=0.02)
    floor = p.ray_target((3.0, 5.0, 0.0), (0.0, -1.0, 0.0), reach=4.0)
    assert floor == pytest.approx([3.0, 0.0, 0.0])
    sky = p.ray_target((3.0, 5.0, 0.0), (0.0, 1.0, 0.0), reach=4.0)
    assert sky == pytest.approx([3.0, 9.0, 0.0])


def test_dropping_stops_at_the_limit():
    p = play(limit=3)
    assert p.drop((2.0, 0.0, 0.0)) is not None and p.drop((-2.0, 0.0, 0.0)) is not None
    assert p.full and p.drop((0.0, 0.0, 2.0)) is None and len(p.world.bodies) == 3


def test_delete_takes_away_the_slime_under_the_ray_and_nothing_elsewhere():
    p = play()
    far = p.drop((0.0, 0.0, -3.0))
    far_tag = p.world.bodies[far].tag
    assert not p.remove_under_ray((3.0, 0.5, 5.0), (0.0, 0.0, -1.0))  # empty space
    assert p.remove_under_ray((0.0, 0.4, 5.0), (0.0, 0.0, -1.0))  # the near one goes
    assert [b.tag for b in p.world.bodies] == [far_tag]
    while p.world.bodies:
        p.world.remove_slime(0)
    # An empty world: nothing to take, poke or squash, and it still steps.
    assert not p.remove_under_ray((0.0, 0.4, 5.0), (0.0, 0.0, -1.0))
    assert p.pick((0.0, 0.4, 5.0), (0.0, 0.0, -1.0)) is None
    p.squash()
    p.spike()
    p.step()
    assert p.world.positions.shape == (0, 3)


def test_squash_flattens_every_slime_and_they_recover():
    p = play()
    p.drop((2.0, 0.0, 0.0))
    for _ in range(120):
        p.step()
    before = heights(p.world)
    p.squash()
    assert np.all(heights(p.world) < 0.3 * before)
    # They blow back up under the rising lid, hop a little, and within 3 s stand as they stood
    # (an 8 x 8 mesh at rest turned another way measures a few per cent taller or shorter).
    for _ in range(180):
        p.step()
    assert np.all(np.abs(heights(p.world) - before) < 0.1 * before), (heights(p.world), before)


def test_parameters_and_looks_apply_to_every_slime_and_survive_a_reset():
    p = play()
    p.drop((2.0, 0.0, 0.0))
    tags = [b.tag for b in p.world.bodies]
    p.set_params(viscosity=7.0)
    assert [b.params.viscosity for b in p.world.bodies] == [7.0, 7.0]
    assert [b.tag for b in p.world.bodies] == tags  # the looks follow their slimes through the re-layout
    p.set_params(stacks=10, slices=12)
    assert {(b.shape.stacks, b.shape.slices) for b in p.world.bodies} == {(10, 12)}
    p.set_gravity((0.0, -3.0, 0.0))
    assert all(b.params.gravity == (0.0, -3.0, 0.0) for b in p.world.bodies)
    p.set_looks(lambda look: look.with_color((0.9, 0.1, 0.1)))
    assert all(b.tag.deep_color == p.base_look.deep_color for b in p.world.bodies)
    with pytest.raises(ValueError):
        p.set_params(viscosity=-1.0)
    assert p.world.bodies[0].params.viscosity == 7.0  # a refused change changes nothing
    p.reset()
    assert len(p.world.bodies) == 1  # the world as it started...
    body = p.world.bodies[0]
    assert body.params.viscosity == 7.0 and (body.shape.stacks, body.shape.slices) == (10, 12)  # ...as set since
    assert tuple(p.world.gravity) == (0.0, -3.0, 0.0)


def test_the_hand_works_on_the_slime_the_ray_meets_and_a_relayout_invalidates_it():
    p = play()
    second = p.drop((0.0, 0.0, -3.0))
    for _ in range(60):
        p.step()
    body, hit = p.pick((0.0, 0.4, -8.0), (0.0, 0.0, 1.0))
    assert body == second
    generation = p.generation
    p.grab(body, hit.point)
    p.drag_to(hit.point + np.array([0.0, 1.0, 0.0]))
    for _ in range(30):
        p.step()
    assert p.world.centroids()[body][1] > p.world.centroids()[1 - body][1] + 0.2  # lifted; the other is not
    p.release(velocity=(0.0, 0.0, 2.0))
    assert p.holding is None
    p.poke(body, hit.point, (0.0, 0.0, 1.0))
    p.press(body, hit.point, (0.0, 0.0, 1.0))
    assert p.pressing and p.valid(body, generation)
    p.drop((3.0, 0.0, 0.0))  # a re-layout lets go and makes the old index stale
    assert not p.pressing and not p.valid(body, generation)


def test_world3d_tags_follow_bodies_through_relayouts():
    world = World3D()
    world.add_slime(SMALL.with_(center=(0, 0.6, 0)), tag="a")
    world.add_slime(SMALL.with_(stacks=10, center=(2, 0.6, 0)), tag="b")
    world.add_slime(SMALL.with_(center=(4, 0.6, 0)), tag="c")
    assert [b.tag for b in world.bodies] == ["a", "b", "c"]  # in the order they came
    centre_of = {b.tag: world.centroids()[i] for i, b in enumerate(world.bodies)}
    world.set_slimes_params({0: world.bodies[0].params.with_(stacks=10)})
    for i, b in enumerate(world.bodies):
        assert world.centroids()[i] == pytest.approx(centre_of[b.tag], abs=1e-9)
    world.remove_slime([b.tag for b in world.bodies].index("b"))
    assert sorted(b.tag for b in world.bodies) == ["a", "c"]


@pytest.mark.parametrize("name", world_scene_names())
def test_every_bundled_scene_builds_with_a_look_per_slime_in_world_order(name):
    spec = load_world_scene(name)
    scene = build_world(spec)
    world, looks = scene.world, scene.looks()
    assert len(world.bodies) == len(looks) == len(spec.slimes)
    assert len(world.obstacles) == len(spec.obstacles) == len(scene.drawn_obstacles)
    # Each body's look is its own slime's: matched by where the slime starts.
    for body, look in zip(world.bodies, looks):
        spec_slime = min(spec.slimes, key=lambda s: np.linalg.norm(np.subtract(s.center, body.params.center)))
        assert look == spec_slime.slime_look()
        assert body.params.radius == spec_slime.radius
    assert tuple(world.gravity) == pytest.approx(spec.gravity)
    for obstacle in spec.obstacles:
        assert ("half_size" in drawn_obstacle(obstacle)) == (obstacle.kind == "box")
    for _ in range(3):
        world.step()
    assert np.all(np.isfinite(world.positions))


def test_a_drop_clears_obstacles():
    from slime.physics.slime3d import obstacles

    world = World3D()
    world.add_obstacle(obstacles.Box(center=(0.0, 0.5, 0.0), half_size=(1.0, 0.5, 1.0)))
    centre = place_drop(world, (0.0, 0.0, 0.0), 0.3, lift=0.0)
    assert centre[1] >= 1.0 + 0.3  # above the box's top, not inside it


def test_fuzz_the_window_actions_seeded():
    # The window's keys and mouse as a seeded random sequence, abuse included: N ten times at
    # once and held past the limit, Delete until empty then poke and grab empty space, Q again and
    # again, resolution changes mid-grab. Nothing may raise, go NaN or leave the hand on a stale body.
    rng = np.random.default_rng(2024)
    p = WorldPlay(single_slime_world(SMALL), SMALL, seed=5, limit=12)
    held_generation = None
    for action_number in range(260):
        action = rng.choice(["drop", "drop10", "delete", "delete_all", "squash", "spike", "poke", "grab", "release",
                             "press", "params", "gravity", "reset", "step"],
                            p=[.12, .03, .1, .02, .08, .04, .1, .08, .06, .05, .04, .03, .02, .23])
        origin = np.array([rng.uniform(-3, 3), rng.uniform(0.2, 4), 6.0])
        direction = np.array([rng.uniform(-0.4, 0.4), rng.uniform(-0.6, 0.1), -1.0])
        if action == "drop":
            p.drop_under_ray(origin, direction, reach=5.0)
        elif action == "drop10":
            for _ in range(10):
                p.drop_under_ray(origin, direction, reach=5.0)
        elif action == "delete":
            p.remove_under_ray(origin, direction)
        elif action == "delete_all":
            while p.world.bodies:
                p.world.remove_slime(int(rng.integers(len(p.world.bodies))))
            assert p.pick(origin, direction) is None
        elif action == "squash":
            p.squash()
        elif action == "spike":
            p.spike()
        elif action in ("poke", "grab", "press"):
            found = p.pick(origin, direction)
            if found is not None:
                body, hit = found
                getattr(p, action)(body, hit.point, *([direction] if action != "grab" else []))
                held_generation = p.generation
        elif action == "release":
            p.release(velocity=rng.uniform(-5, 5, 3))
        elif action == "params":
            size = int(rng.integers(6, 11))
            p.set_params(stacks=size, slices=size, viscosity=float(rng.uniform(*limits.VISCOSITY)))
        elif action == "gravity":
            p.set_gravity((0.0, -float(rng.uniform(*limits.GRAVITY)), 0.0))
        elif action == "reset":
            p.reset()
        if held_generation is not None and held_generation != p.generation:
            assert p.holding is None  # a re-layout let go
            held_generation = None
        if p.holding is not None:
            p.drag_to(p.world.positions[p.world.bodies[p.holding].start] + rng.uniform(-1, 1, 3))
        p.step()
        assert len(p.world.bodies) <= 12
        assert np.all(np.isfinite(p.world.positions)) and np.all(np.isfinite(p.world.velocities))
        assert len(p.looks) == len(p.world.bodies)
