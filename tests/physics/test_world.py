"""A world of slimes: several bodies stepped together, with contact, obstacles and scene files;
its .npz, its determinism, and the hand on any body."""

from __future__ import annotations

import numpy as np
import pytest

from mesh_truth import world_penetration
from slime.physics.slime3d.obstacles import Ball, Box, Plane, signed_distance
from slime.physics.slime3d.slime_body import SlimeBody
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.world3d import SQUASH_RISE, World3D
from slime.scenes.world_scene import load_world
from slime.simulate import simulate_world


def test_the_single_slime_is_the_world_with_one_body():
    body = SlimeBody(SlimeParams(stacks=16, slices=16))
    world = World3D()
    world.add_slime(SlimeParams(stacks=16, slices=16))
    for _ in range(30):
        body.step()
        world.step()
    np.testing.assert_array_equal(body.positions, world.positions)


def _busy_world(held: bool, squashed: bool, crowded: bool) -> World3D:
    """A world holding what a substep's pipeline may meet: a hand, a lid, obstacles and contacts."""
    world = World3D()
    world.add_slime(SlimeParams(radius=0.5, stacks=10, slices=10, center=(0.0, 0.55, 0.0)), velocity=(0.8, 0.0, 0.3))
    if crowded:
        world.add_slime(SlimeParams(radius=0.4, stacks=8, slices=9, center=(0.95, 0.45, 0.0)))
        world.add_obstacle(Box(center=(-0.9, 0.4, 0.0), half_size=(0.2, 0.4, 0.6)))
    for _ in range(5):
        world.step()
    if squashed:
        world.squash(0.5)
    if held:
        world.press(0, world.body_positions(0)[0], (0.0, -1.0, 0.0))
    return world


@pytest.mark.parametrize("held, squashed, crowded", [(False, False, False), (False, True, False),
                                                      (True, False, False), (False, False, True),
                                                      (True, True, True)])
def test_an_added_force_that_adds_nothing_steps_the_world_bit_for_bit(held, squashed, crowded):
    # One pipeline: with nothing between its compiled stages a frame runs in one call, with an
    # added force a stage at a time around it; both must be the same arithmetic.
    plain, added = _busy_world(held, squashed, crowded), _busy_world(held, squashed, crowded)
    added.extra_accelerations.append(lambda world, acc, h: None)
    for frame in range(20):
        plain.step()
        added.step()
        assert np.array_equal(plain.x, added.x) and np.array_equal(plain.v, added.v), frame
    assert plain.time == added.time
    assert np.all(np.isfinite(plain.x))


def test_a_lid_rises_and_goes_in_the_compiled_pipeline():
    world = World3D()
    world.add_slime(SlimeParams(radius=0.5, stacks=12, slices=12, center=(0.0, 0.5, 0.0)))
    world.squash(0.25)
    lid = world.lids()[0]
    world.step()
    # The lid rose by its speed over the frame, and nothing of the slime is above it.
    risen = world.lids()[0]
    assert risen.height == pytest.approx(lid.height + lid.speed * world.dt, rel=1e-12)
    assert world.body_positions(0)[:, 1].max() <= risen.height + 1e-12
    for _ in range(int(2 * (lid.end - lid.height) / lid.speed / world.dt)):
        world.step()
    assert world.lids() == [None]


@pytest.mark.parametrize("resolution", [8, 24, pytest.param(48, marks=pytest.mark.slow)])
def test_slimes_thrown_at_each_other_conserve_momentum_and_do_not_interpenetrate(resolution):
    # No floor, no gravity, no air: only the two bodies, meeting at 20 m/s.
    world = World3D(gravity=(0.0, 0.0, 0.0), floor_height=None)
    world.add_slime(SlimeParams(radius=0.5, stacks=resolution, slices=resolution, center=(-0.8, 0.0, 0.0), air_drag=0.0),
                    velocity=(10.0, 0.0, 0.0))
    world.add_slime(SlimeParams(radius=0.4, mass=0.6, stacks=resolution + 4, slices=resolution, center=(0.8, 0.1, 0.0),
                                air_drag=0.0), velocity=(-10.0, 0.0, 0.0))
    p0 = world.momentum()
    worst = 0.0
    touched = False
    for _ in range(40):
        world.step()
        touched |= world.contacts > 0
        worst = max(worst, world_penetration(world))
    assert touched
    np.testing.assert_allclose(world.momentum(), p0, atol=0.01 * np.abs(p0).max() + 1e-9)
    assert worst <= 0.02 * 0.4  # 2 % of the smaller radius
    assert world.recoveries == 0
    c = world.centroids()
    assert c[0, 0] < c[1, 0]  # they bounced apart, not through each other


@pytest.mark.slow
def test_three_slimes_stacked_come_to_rest_without_sinking():
    world = World3D()
    for k in range(3):
        world.add_slime(SlimeParams(radius=0.5, stacks=20, slices=20, center=(0.0, 0.5 + 1.02 * k, 0.0)))
    for _ in range(480):  # 8 s: a stack of soft jelly rocks a while
        world.step()
    assert world.kinetic_energy() < 1e-4
    assert world_penetration(world) <= 0.02 * 0.5
    heights = np.sort(world.centroids()[:, 1])
    assert heights[2] > heights[0] + 1.2  # still a stack, squashed (1.36 m), not merged


def test_no_tunnelling_through_a_thin_box_at_twenty_metres_a_second():
    world = World3D(gravity=(0.0, 0.0, 0.0), floor_height=None)
    world.add_slime(SlimeParams(radius=0.3, stacks=16, slices=16, center=(-1.0, 0.0, 0.0)), velocity=(20.0, 0.0, 0.0))
    world.add_obstacle(Box(center=(0.0, 0.0, 0.0), half_size=(0.01, 2.0, 2.0)))
    for _ in range(60):
        world.step()
        assert world.positions[:, 0].max() <= 0.0 - 0.01 + 1e-9
    assert world.recoveries == 0


def test_squash_flattens_every_slime_and_they_come_back():
    world = World3D()
    for k in range(3):
        world.add_slime(SlimeParams(radius=0.4, stacks=16, slices=16, center=(1.0 * k, 0.4, 0.0)))
    for _ in range(120):  # settled: a soft jelly sags
        world.step()
    heights = [np.ptp(world.body_positions(i)[:, 1]) for i in range(3)]
    world.squash()
    assert all(np.ptp(world.body_positions(i)[:, 1]) < 0.3 * heights[i] for i in range(3))
    for _ in range(180):
        world.step()
    ideal = np.array([b.shape.ideal_volume for b in world.bodies])
    np.testing.assert_allclose(world.volumes(), ideal, rtol=0.01)
    assert all(np.ptp(world.body_positions(i)[:, 1]) > 0.9 * heights[i] for i in range(3))


@pytest.mark.parametrize("resolution, radius", [
    (8, 1.0), (32, 1.0), (32, 0.3), pytest.param(64, 1.0, marks=pytest.mark.slow),
])
def test_a_squashed_slime_comes_back_with_a_hop_not_a_leap(resolution, radius):
    # Let go at once, a slime squashed to a quarter of its height would leap many times its own
    # height. Under the rising lid it leaves the floor no faster than the lid.
    world = World3D()
    world.add_slime(SlimeParams(radius=radius, stacks=resolution, slices=resolution))
    for _ in range(60):
        world.step()
    rest = world.centroids()[0, 1]
    world.squash()
    highest = rest
    for _ in range(180):  # 3 s
        world.step()
        highest = max(highest, world.centroids()[0, 1])
    hop = (SQUASH_RISE * radius) ** 2 / (2 * 9.81)
    assert highest - rest < hop + 0.02 * radius, (highest - rest, hop)
    assert highest - rest > -0.02 * radius  # it does come back up (stuck to the floor, no higher)
    assert world.volumes()[0] == pytest.approx(world.bodies[0].shape.ideal_volume, rel=0.01)
    # Back on the floor (an 8 x 8 slime, a coarse polyhedron, may come to rest on another face,
    # up to 9 % of its radius lower).
    assert abs(world.centroids()[0, 1] - rest) < 0.1 * radius
    assert world.recoveries == 0


def test_the_lid_stays_with_its_slime_and_a_reset_lifts_it():
    world = World3D()
    world.add_slime(SlimeParams(radius=0.5, stacks=16, slices=16, center=(0.0, 0.5, 0.0)))
    for _ in range(30):
        world.step()
    world.squash()
    flat = np.ptp(world.body_positions(0)[:, 1])
    # A slime added while the first is still under its lid: the first stays held, the new one is free.
    world.add_slime(SlimeParams(radius=0.5, stacks=12, slices=12, center=(3.0, 2.0, 0.0)))
    world.step()
    held = next(i for i, b in enumerate(world.bodies) if b.shape.stacks == 16)
    rise = SQUASH_RISE * 0.5 * world.dt
    assert np.ptp(world.body_positions(held)[:, 1]) < flat + rise + 1e-9
    free = 1 - held
    assert world.body_positions(free)[:, 1].min() < 2.0 - 0.5 - 1e-3  # falling, not held
    # Reset: the rest shape at once, no lid pressing on it.
    world.reset_body(held)
    world.step()
    assert np.ptp(world.body_positions(held)[:, 1]) > 0.9
    with pytest.raises(ValueError, match="squash factor"):
        world.squash(0.0)
    with pytest.raises(ValueError, match="squash factor"):
        world.squash("flat")


def test_adding_and_removing_slimes_keeps_the_others_and_their_tags():
    world = World3D()
    world.add_slime(SlimeParams(radius=0.5, stacks=12, slices=12, center=(0.0, 0.5, 0.0)), tag="a")
    world.add_slime(SlimeParams(radius=0.5, stacks=20, slices=20, center=(3.0, 0.5, 0.0)), tag="b")
    for _ in range(10):
        world.step()
    before = {b.tag: world.body_positions(i).copy() for i, b in enumerate(world.bodies)}
    world.add_slime(SlimeParams(radius=0.5, stacks=12, slices=12, center=(-3.0, 0.5, 0.0)), tag="c")
    after = {b.tag: world.body_positions(i) for i, b in enumerate(world.bodies)}
    for tag in "ab":
        np.testing.assert_array_equal(after[tag], before[tag])
    world.remove_slime([b.tag for b in world.bodies].index("a"))
    assert sorted(b.tag for b in world.bodies) == ["b", "c"]
    with pytest.raises(ValueError):
        world.remove_slime(5)
    world.remove_slime(0)
    world.remove_slime(0)
    world.step()  # an empty world steps
    assert world.positions.shape == (0, 3)


def test_a_broken_body_in_a_batch_leaves_the_others_untouched():
    # Bodies of one resolution share one batch (one flat run of grid passes); a NaN written
    # into one of them must not reach the forces of the others within the frame, and the broken
    # one comes back by itself.
    def world():
        w = World3D(gravity=(0.0, 0.0, 0.0), floor_height=None)
        for k in range(3):
            w.add_slime(SlimeParams(radius=0.5, stacks=12, slices=12, center=(3.0 * k, 0.0, 0.0)), velocity=(0.0, 1.0, 0.0))
        return w
    broken, clean = world(), world()
    for w in (broken, clean):
        w.spike(0, 0.3, seed=1)
        w.spike(2, 0.3, seed=2)
    b = broken.bodies[1]
    broken.x[:, b.start : b.stop] = np.nan
    broken.step()
    clean.step()
    for index in (0, 2):
        np.testing.assert_array_equal(broken.body_positions(index), clean.body_positions(index))
    assert np.isfinite(broken.positions).all()  # the broken body was recovered at the frame's end


def test_a_world_run_is_deterministic():
    def run():
        world = load_world("duel").world
        for _ in range(30):
            world.step()
        return world.positions.copy()

    assert run().tobytes() == run().tobytes()


def test_the_world_npz_layout():
    arrays = simulate_world("duel", 4)
    world = load_world("duel").world
    p, b = world.positions.shape[0], len(world.bodies)
    assert arrays["positions"].shape == (5, p, 3)
    assert arrays["body"].shape == (p,) and set(np.unique(arrays["body"])) == set(range(b))
    assert np.all(np.diff(arrays["body"]) >= 0)  # body after body
    assert arrays["triangles"].shape == (world.triangles.shape[0], 3)
    assert arrays["triangles"].min() == 0 and arrays["triangles"].max() == p - 1
    # Each triangle's corners belong to one body.
    corners = arrays["body"][arrays["triangles"]]
    assert np.all(corners == corners[:, :1])
    assert arrays["volume"].shape == (5, b)
    np.testing.assert_allclose(arrays["time"], np.arange(5) / 60.0)
    assert arrays["recoveries"] == 0


def test_seeded_abuse_of_a_world_leaves_it_whole():
    rng = np.random.default_rng(3)
    world = World3D()
    for _ in range(200):
        action = rng.integers(0, 7)
        count = len(world.bodies)
        if action == 0 and count < 8:
            res = int(rng.choice([8, 12, 16]))
            world.add_slime(SlimeParams(radius=float(rng.uniform(0.2, 0.6)), stacks=res, slices=res,
                                        center=(float(rng.uniform(-1, 1)), float(rng.uniform(0.6, 3)), 0.0)))
        elif action == 1 and count:
            world.remove_slime(int(rng.integers(count)))
        elif action == 2:
            world.squash()
        elif action == 3 and count:
            i = int(rng.integers(count))
            world.poke(i, world.centroids()[i] + (0, 1, 0), rng.normal(size=3) * 1e4)
        elif action == 4 and count:
            i = int(rng.integers(count))
            world.grab(i, world.centroids()[i])
            world.drag_to(rng.normal(size=3) * 20.0)
        elif action == 5:
            world.release(velocity=rng.normal(size=3) * 30.0)
        elif action == 6 and count:
            world.spike(int(rng.integers(count)), 1.0, seed=int(rng.integers(1000)))
        world.step()
        assert np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
    world.release()
    for _ in range(240):
        world.step()
    if world.bodies:
        ideal = np.array([b.shape.ideal_volume for b in world.bodies])
        np.testing.assert_allclose(world.volumes(), ideal, rtol=0.02)


@pytest.mark.slow
def test_pictures_of_the_pile_from_two_cameras():
    # Every slime of the pile shows (its hue is on the picture) from one side and from the other,
    # and the two pictures are not the same picture.
    from slime.app.render_world import HeadlessWorld

    scene = load_world("pile")
    for _ in range(90):
        scene.world.step()
    pictures = []
    for azimuth in (35.0, 215.0):
        headless = HeadlessWorld(scene, size=(320, 240), camera=(azimuth, 70.0, 4.0))  # down over the walls
        try:
            pictures.append(headless.draw().astype(np.float64) / 255.0)
        finally:
            headless.release()
    for picture in pictures:
        top, low = picture.max(axis=2), picture.min(axis=2)
        colourful = (top - low) > 0.2  # the jellies, not the grey walls, the floor or the sky
        assert colourful.mean() > 0.02
        # Their hues: the pile's slimes are of many colours, and many of them show.
        r, g, b = (picture[..., k][colourful] for k in range(3))
        hue = np.degrees(np.arctan2(np.sqrt(3.0) * (g - b), 2.0 * r - g - b)) % 360.0
        counts = np.bincount((hue // 30.0).astype(int), minlength=12)
        assert (counts > 0.02 * colourful.sum()).sum() >= 4, counts
    assert np.abs(pictures[0] - pictures[1]).mean() > 0.02


# Numbers a script may pass by mistake: the ends of a float, NaN, inf, zero and ordinary values.
_ODD = (0.0, 1.0, -1.0, 1e308, -1e308, float("nan"), float("inf"), 1e-300, 3.0, 100.0)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # nor does numpy print an overflow on the way
@pytest.mark.parametrize("seed", range(32))
def test_any_sequence_of_world_calls_is_a_value_error_or_a_finite_world(seed):
    """A seeded fuzz of the Python API a coursework script drives: slimes added (any size, place and
    speed) and removed, pokes, grabs, drags and throws, presses, squashes, gravity and boxes, with
    odd numbers among the ordinary ones. Each call either works or raises a ValueError (one line),
    and after every frame every vertex is finite, with no warning printed."""
    rng = np.random.default_rng(seed)
    number = lambda: float(_ODD[rng.integers(len(_ODD))]) if rng.random() < 0.3 else float(rng.normal() * 3.0)  # noqa: E731
    vector = lambda: (number(), number(), number())  # noqa: E731
    world = World3D()

    def add(_):
        world.add_slime(SlimeParams(stacks=int(rng.integers(3, 12)), slices=int(rng.integers(3, 12)),
                                    radius=abs(number()) or 0.5, center=vector()), velocity=vector())

    # Most adds are refused (an odd radius, centre or speed): three in the draw keep slimes to abuse.
    anytime = [add, add, add,
               lambda _: world.release(velocity=vector() if rng.random() < 0.5 else None),
               lambda _: world.set_gravity(vector()),
               lambda _: world.add_obstacle(Box(center=vector(), half_size=(abs(number()), abs(number()), abs(number())))),
               lambda _: world.squash(abs(number())),
               lambda _: world.unpress()]
    on_a_slime = [lambda b: world.remove_slime(b),
                  lambda b: world.poke(b, vector(), vector(), radius=abs(number())),
                  lambda b: (world.grab(b, vector()), world.drag_to(vector())),
                  lambda b: world.press(b, vector(), vector())]
    calls = refused = 0
    for _ in range(60):
        choice = int(rng.integers(len(anytime) + len(on_a_slime)))
        if choice >= len(anytime) and not world.bodies:
            continue
        calls += 1
        try:
            if choice < len(anytime):
                anytime[choice](None)
            else:
                on_a_slime[choice - len(anytime)](int(rng.integers(len(world.bodies))))
        except ValueError as error:
            refused += 1
            assert len(str(error).splitlines()) == 1, str(error)
        for _ in range(int(rng.integers(0, 4))):
            world.step()
        if world.bodies:
            assert np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
    assert calls > 20 and 0 < refused < calls  # the odd numbers were met, and so were ordinary ones


@pytest.mark.parametrize("material, normal, surface", [
    ("jelly", (0.0, 1.0, 0.0), "box"), ("jelly", (-1.0, 0.0, 0.0), "wall"), ("goo", (0.0, 1.0, 0.0), "box"),
    ("goo", (-1.0, 0.0, 0.0), "wall"), ("rubber", (-1.0, 0.0, 0.0), "wall"), ("jelly", (0.0, 1.0, 0.0), "ball")])
def test_a_slime_splats_and_holds_on_every_obstacle_kind_as_on_a_plane(material, normal, surface):
    # Restitution, friction, grip and adhesion are one law for every surface: thrown at a box's
    # top, at pile's wall or at a big ball, a slime leaves it as it leaves a plane through that
    # face (the ball's face curves away a little: it lets go a little sooner), and a sticky one
    # is held there as it is on the plane, where without its film it would bounce off.
    leap, later = _rebound(material, normal, surface)
    plane_leap, plane_later = _rebound(material, normal, "plane")
    close = 0.002 if surface != "ball" else 0.1
    assert leap == pytest.approx(plane_leap, rel=close) and later == pytest.approx(plane_later, rel=close, abs=0.01)
    dry_leap, _ = _rebound(material, normal, surface, adhesion=0.0)
    if material == "rubber":
        assert leap == pytest.approx(dry_leap, rel=1e-6)  # nothing holds it: it bounces off alike
    else:
        assert leap < 0.75 * dry_leap and later < 0.5 * dry_leap  # held back, and still held


def test_the_floor_and_a_plane_obstacle_are_one_contact():
    # No gravity and a sideways throw: the slime lands on its side, slides and sticks, by the same
    # law (restitution, friction, grip, adhesion) whether the plane is the floor or an obstacle.
    def thrown(world):
        world.add_slime(SlimeParams(radius=0.5, stacks=12, slices=12, center=(0.0, 0.7, 0.0)),
                        velocity=(1.5, -2.0, 0.5))
        for _ in range(40):
            world.step()
        return world

    floor = thrown(World3D(floor_friction=0.7))
    plane = World3D(floor_height=None)
    plane.add_obstacle(Plane(point=(0.0, 0.0, 0.0), normal=(0.0, 1.0, 0.0), friction=0.7))
    plane = thrown(plane)
    np.testing.assert_array_equal(floor.positions, plane.positions)
    np.testing.assert_array_equal(floor.velocities, plane.velocities)
    assert floor.positions[:, 1].min() > -1e-9  # on it, not through it


def _surface(kind: str, normal: np.ndarray):
    """An obstacle whose face of outward ``normal`` lies 1 m from the origin, facing it: a plane,
    a big box, ``pile``'s wall (a board 0.2 m thick, 1.2 m x 2.3 m) or a ball of radius 10 m."""
    friction = 0.6
    if kind == "plane":
        return Plane(point=tuple(-normal), normal=tuple(normal), friction=friction)
    if kind == "box":
        return Box(center=tuple(-4.0 * normal), half_size=(3.0, 3.0, 3.0), friction=friction)
    if kind == "wall":
        half = np.where(np.abs(normal) > 0.5, 0.1, (0.6, 0.6, 1.15))
        return Box(center=tuple(-1.1 * normal), half_size=tuple(half), friction=friction)
    return Ball(center=tuple(-11.0 * normal), radius=10.0, friction=friction)


def _rebound(material: str, normal, surface: str = "plane", **changes) -> tuple:
    """How a slime thrown at 4 m/s onto an obstacle's face of outward ``normal`` (``_surface``)
    leaves it, with no gravity: the fastest its centre moves away along the normal, and how fast
    it still does a second later."""
    normal = np.asarray(normal, dtype=np.float64)
    world = World3D(gravity=(0.0, 0.0, 0.0), floor_height=None)
    obstacle = _surface(surface, normal)
    world.add_obstacle(obstacle)
    world.add_slime(SlimeParams.of_material(material, radius=0.4, stacks=16, slices=16, center=(0.0, 0.0, 0.0),
                                            **changes), velocity=tuple(-4.0 * normal))
    away = []
    for _ in range(60):
        world.step()
        away.append(float(world.momentum() @ normal) / world.mass.sum())
        assert signed_distance(world.positions, [obstacle]).min() > -1e-9  # never into it
    return max(away), away[-1]


@pytest.mark.parametrize("material", ["jelly", "goo", "rubber"])
def test_a_slime_thrown_at_a_wall_splats_and_holds_as_on_the_floor(material):
    wall, floor = _rebound(material, (-1.0, 0.0, 0.0))[0], _rebound(material, (0.0, 1.0, 0.0))[0]
    assert wall == pytest.approx(floor, rel=0.15)  # the same law: only the mesh's turn differs
    dry = _rebound(material, (-1.0, 0.0, 0.0), adhesion=0.0)[0]
    if material == "rubber":
        assert wall > 0.7 * 4.0 and wall == pytest.approx(dry, rel=1e-6)  # bounces back, nothing to hold it
    else:
        assert wall < 0.75 * dry  # the wall's film holds back the leap of the bounce, as the floor's does


@pytest.mark.slow
def test_the_pile_comes_to_rest_within_ten_seconds_of_its_last_landing_with_no_slime_inside_another():
    # Ten slimes dropped into pile's walled box (41.3, 42 Keep): a contact's velocity is what its
    # motion is, so the heap settles below 1 mJ of kinetic energy within 10 s of its last slime's
    # landing and stays there; and at no frame of the first 420 ticks is a vertex of one slime
    # inside another deeper than 2 % of the smallest radius (winding numbers). The pile once held
    # 0.02-0.2 J for good (contact vertices keeping 1-1.5 m/s while their positions stood still),
    # and its deepest vertex lay 15.5 mm inside another.
    world = load_world("pile").world
    last = world.bodies[-1]
    mass = last.shape.mass
    smallest = min(b.params.radius for b in world.bodies)
    fall = world.gravity[1] * world.dt
    velocity, landed, frame, deepest, energy, moving = np.zeros(3), None, 0, 0.0, [], []
    while landed is None or frame < landed + 600:
        before = world.x.copy()
        world.step()
        frame += 1
        # The kinetic energy of the vertices' motion over the frame, read off their positions.
        moving.append(0.5 * float(world.mass @ (((world.x - before) / world.dt) ** 2).sum(axis=0)))
        now = world.v[:, last.start:last.stop] @ mass / mass.sum()
        if landed is None and frame > 5 and abs(now[1] - velocity[1] - fall) > 2.0 * world.dt:
            landed = frame  # its centre stops falling freely
        velocity = now
        if frame <= 420:
            deepest = max(deepest, world_penetration(world))
        energy.append(world.kinetic_energy())
    assert 30 < landed < 120  # it fell about 4 m
    # The heap's motion is below 1 mJ in the tenth second after the landing (0.3 mJ, and falling).
    # Its velocities still hold about twice that again: a held contact plane settles at a few cm/s
    # that the positions do not follow (issue 41 item 3, open). The bound on them keeps the pile
    # from sliding back to the 0.02-0.2 J it held for good before its contact planes were mended.
    assert max(moving[-60:]) < 1e-3, moving[-60:]
    assert max(energy[-60:]) < 1.5e-3, energy[-60:]
    assert deepest <= 0.02 * smallest, deepest
    assert world.recoveries == 0
