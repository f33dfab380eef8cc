"""The box game's box world: landing, walls, exact time of impact (no tunnelling), inverse-mass push-out, jumping."""

import numpy as np
import pytest

from slime.physics.mass_spring.boxes import Boxes, BoxWorld, sweep_times
from slime.scenes import load_scene
from slime.scenes.boxes import GRAVITY, JUMP_SPEED

INF = np.inf


def box_game_world(player_min=(300.0, 0.0), player_velocity=(0.0, 0.0)) -> BoxWorld:
    """The box game's level exactly: player, floor, floating floor, two walls."""
    mins = [player_min, (0, 460), (220, 360), (200, 340), (420, 340)]
    sizes = [(20, 20), (640, 20), (200, 20), (20, 40), (20, 40)]
    boxes = Boxes.create(mins, sizes, velocities=[player_velocity] + [(0, 0)] * 4, mass=[1, INF, INF, INF, INF])
    return BoxWorld(boxes, gravity=(0.0, 0.1))


def run(world: BoxWorld, frames: int) -> None:
    for _ in range(frames):
        world.step()
        assert np.all(np.isfinite(world.boxes.positions))
        assert np.all(np.isfinite(world.boxes.velocities))


def test_lands_on_the_floating_platform_and_stops():
    world = box_game_world()
    run(world, 200)
    b = world.boxes
    # Dropped at x = 300, it lands on the floating floor (top y = 360): bottom exactly there, at rest.
    assert b.positions[0, 1] + 20.0 == pytest.approx(360.0, abs=1e-12)
    assert b.positions[0, 0] == 300.0
    assert np.all(b.velocities[0] == 0.0)
    assert world.grounded[0]


def test_lands_on_the_floor_when_dropped_beside_the_platform():
    world = box_game_world(player_min=(100.0, 0.0))
    run(world, 300)
    b = world.boxes
    assert b.positions[0, 1] == pytest.approx(440.0, abs=1e-12)
    assert b.velocities[0, 1] == 0.0 and world.grounded[0]


def test_first_contact_frame_matches_free_fall():
    # Free fall with v += g then y += v: y_n = g n (n + 1) / 2. The bottom reaches 360 (y = 340)
    # during the frame where y_n first passes 340; the box stops at exactly 340 in that frame.
    world = box_game_world()
    n_contact = next(n for n in range(1, 200) if 0.1 * n * (n + 1) / 2 >= 340.0)
    run(world, n_contact - 1)
    assert world.boxes.positions[0, 1] < 340.0 and not world.grounded[0]
    run(world, 1)
    assert world.boxes.positions[0, 1] == pytest.approx(340.0, abs=1e-12) and world.grounded[0]


def test_walls_block_walking_on_the_platform():
    world = box_game_world()
    run(world, 120)
    b = world.boxes
    for direction, expected_x in ((-1.0, 220.0), (1.0, 400.0)):
        for _ in range(80):
            b.velocities[0, 0] = 3.0 * direction
            world.step()
        # Stopped flush against the wall (the left wall's right face is x = 220, the right wall's
        # left face x = 420), still standing on the platform.
        assert b.positions[0, 0] == pytest.approx(expected_x, abs=1e-12)
        assert b.positions[0, 1] == pytest.approx(340.0, abs=1e-12)


@pytest.mark.parametrize("speed", [50.0, 1e3, 1e6])
def test_no_tunnelling_through_a_thin_wall(speed):
    # A 1 px wall and a 10 px box moving 'speed' px per frame: a step would jump far past it.
    boxes = Boxes.create([(0, 0), (100, -50)], [(10, 10), (1, 200)], velocities=[(speed, 0), (0, 0)], mass=[1, INF])
    world = BoxWorld(boxes)
    run(world, 3)
    assert boxes.positions[0, 0] == pytest.approx(90.0, abs=1e-9)
    assert boxes.velocities[0, 0] == 0.0


@pytest.mark.parametrize("speed", [100.0, 5e2, 1e5])
def test_no_tunnelling_through_a_thin_floor_while_moving_sideways(speed):
    boxes = Boxes.create([(0, 0), (-1000, 200)], [(20, 20), (1e5, 0.5)], velocities=[(3.0, speed), (0, 0)], mass=[1, INF])
    world = BoxWorld(boxes, gravity=(0.0, 0.1))
    run(world, 5)
    assert boxes.positions[0, 1] == pytest.approx(180.0, abs=1e-9)
    assert boxes.velocities[0, 1] == 0.0
    # The sideways motion continues after the impact (the rest of the step is advanced).
    assert boxes.positions[0, 0] == pytest.approx(15.0, abs=1e-9)
    assert world.grounded[0]


def test_sweep_time_of_impact_is_analytic():
    # Box [0, 10] moving +40 towards an obstacle starting at 25: contact after 15 of 40 = 0.375.
    toi, axis = sweep_times(
        np.array([[0.0, 0.0]]), np.array([[10.0, 10.0]]), np.array([[40.0, 0.0]]),
        np.array([[25.0, -5.0], [60.0, 0.0]]), np.array([[30.0, 5.0], [70.0, 10.0]]),
    )
    assert toi[0, 0] == pytest.approx(0.375) and axis[0, 0] == 0
    assert toi[0, 1] == np.inf  # out of reach this step


def test_push_out_is_split_by_inverse_mass():
    # Two dynamic boxes overlapping by 4 px along x, masses 1 and 3, no gravity, at rest.
    boxes = Boxes.create([(0.0, 0.0), (6.0, 0.0)], [(10.0, 10.0), (10.0, 10.0)], mass=[1.0, 3.0])
    centre_of_mass_before = (boxes.centers * np.array([[1.0], [3.0]])).sum(axis=0) / 4.0
    BoxWorld(boxes).step()
    # The light box moves 3/4 of the depth, the heavy one 1/4 (w_i / (w_1 + w_2)).
    assert boxes.positions[0, 0] == pytest.approx(-3.0)
    assert boxes.positions[1, 0] == pytest.approx(7.0)
    assert boxes.positions[1, 0] - (boxes.positions[0, 0] + 10.0) == pytest.approx(0.0, abs=1e-12)
    centre_of_mass_after = (boxes.centers * np.array([[1.0], [3.0]])).sum(axis=0) / 4.0
    np.testing.assert_allclose(centre_of_mass_after, centre_of_mass_before, atol=1e-12)


def test_push_out_against_a_static_box_moves_only_the_dynamic_one():
    boxes = Boxes.create([(0.0, 0.0), (0.0, 8.0)], [(10.0, 10.0), (50.0, 10.0)], velocities=[(0, 2.0), (0, 0)], mass=[1.0, INF])
    BoxWorld(boxes).step()
    # Started 2 px inside, moved 2 more: pushed up by the least penetration, and stopped.
    assert boxes.positions[0, 1] == pytest.approx(-2.0)
    assert boxes.positions[1, 1] == 8.0
    assert boxes.velocities[0, 1] == 0.0


def test_jump_only_when_grounded():
    scene = load_scene("boxes")
    # In the air at the start: Z does nothing.
    scene.step()
    scene.key("z")
    scene.step()
    assert scene.world.boxes.velocities[0, 1] > 0.0
    for _ in range(150):
        scene.step()
    y_rest = scene.world.boxes.positions[0, 1]
    assert scene.world.grounded[0]
    scene.key("z")
    scene.step()
    # The jump: vy = -4, then one frame of gravity.
    assert scene.world.boxes.velocities[0, 1] == pytest.approx(-JUMP_SPEED + GRAVITY)
    peak = y_rest
    for _ in range(30):
        scene.key("z")  # mashing Z in the air must not jump again
        scene.step()
        peak = min(peak, scene.world.boxes.positions[0, 1])
    for _ in range(60):
        scene.step()
        peak = min(peak, scene.world.boxes.positions[0, 1])
    # The rise is v^2 / 2g = 80 px (within one frame's step), never more.
    assert y_rest - peak == pytest.approx(JUMP_SPEED**2 / (2 * GRAVITY), abs=JUMP_SPEED)
    assert scene.world.boxes.positions[0, 1] == pytest.approx(y_rest) and scene.world.grounded[0]


@pytest.mark.slow
def test_scene_walks_and_never_goes_nan():
    scene = load_scene("boxes")
    rng = np.random.default_rng(4)
    keys = ["left", "right", "z"]
    for frame in range(600):
        if frame % 20 == 0:
            for k in ("left", "right"):
                scene.key_up(k)
            scene.key(keys[rng.integers(3)])
        scene.step()
        p = scene.positions()
        assert np.all(np.isfinite(p))
        # The player never overlaps a static box by more than round-off.
        b = scene.world.boxes
        lo, hi = b.positions[0], b.maxs[0]
        overlap = np.minimum(hi, b.maxs[1:]) - np.maximum(lo, b.positions[1:])
        assert np.all(np.min(overlap, axis=1) <= 1e-9)
    dl = scene.draw_list()
    assert dl.box_corners.shape[0] == scene.world.boxes.count
    assert scene.hud() and scene.help_lines


def test_infinite_velocity_recovers():
    world = box_game_world()
    world.boxes.velocities[0] = (np.inf, np.nan)
    run(world, 3)


def test_standing_still_collects_no_coin():
    scene = load_scene("boxes")
    for _ in range(300):  # five seconds: the drop from the start, then standing
        scene.step()
    assert scene.world.grounded[0]
    assert not scene.collected.any() and "coins 0/" in scene.hud()[0]


def test_walking_right_on_the_floating_floor_collects_its_coin():
    from slime.scenes.boxes import COINS

    scene = load_scene("boxes")
    for _ in range(120):
        scene.step()
    scene.key("right")
    for _ in range(60):
        scene.step()
    assert scene.collected.sum() == 1
    assert scene.coins[scene.collected][0].tolist() == list(COINS[1])


def test_every_coin_is_within_a_jump_of_a_platform():
    # A jump lifts the player's top by v^2 / 2g above its standing height; a coin is reachable if it
    # hangs over some platform's top no higher than that (plus the player's own height).
    from slime.scenes.boxes import COIN_RADIUS, COINS, EXTRA_LEVEL, PLAYER_SIZE, BOX_GAME_LEVEL

    rise = JUMP_SPEED**2 / (2 * GRAVITY)
    for cx, cy in COINS:
        assert any(
            x - PLAYER_SIZE[0] <= cx <= x + w + PLAYER_SIZE[0]
            and top - PLAYER_SIZE[1] - rise - COIN_RADIUS <= cy <= top
            for x, top, w, _ in BOX_GAME_LEVEL + EXTRA_LEVEL
        ), (cx, cy)
