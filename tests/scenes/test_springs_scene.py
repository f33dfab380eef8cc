"""The Spring simulation article: the yo-yo step and the spring-experiments scene (presets, keys, HUD, chain order)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from slime.physics.mass_spring.particles import Particles
from slime.physics.mass_spring.yoyo import chain_step, ruby_round, spring_pull, yoyo_digits, yoyo_step
from slime import theme
from slime.scenes import load_scene
from slime.scenes.springs import SpringsScene, make_scene, ruby_round_text

# The digit strings the Spring simulation article prints for its 1D experiments (70 frames, hand 5, yo-yo from 1).
ARTICLE_SEQUENCES = {
    "approach": "2233444445555555555555555555555555555555555555555555555555555555555555",
    "bounce": "2357899875321123578998753211235789986532112457899865321124679998643111",
    "damped": "2356788875433334556777655444445566666555444455566665555445555555555555",
    "refactored": "2356788875433334556777655444445566666555444455566665555445555555555555",
}


@pytest.mark.parametrize("model", list(ARTICLE_SEQUENCES))
def test_yoyo_models_print_the_article_sequences(model):
    assert yoyo_digits(model) == ARTICLE_SEQUENCES[model]


@pytest.mark.parametrize(
    "value, expected",
    [(2.5, 3), (-2.5, -3), (0.5, 1), (-0.5, -1), (1.4999999999999998, 1), (4.5, 5), (3.49, 3), (0.0, 0)],
)
def test_ruby_round_is_half_away_from_zero(value, expected):
    assert ruby_round(value) == expected


def test_python_round_would_get_a_half_wrong():
    # The reason ruby_round exists: banker's rounding sends 2.5 down.
    assert round(2.5) == 2 and ruby_round(2.5) == 3


def test_rest_length_worked_example_is_bit_exact():
    # The Spring simulation article's worked example: anchor 5, bob at 1, rest length 1, stiffness 0.2, damping 0.93.
    force = spring_pull(np.array([[1.0, 0.0]]), np.array([5.0, 0.0]), 0.2, 1.0, natural=True)
    assert force.tolist() == [[0.6000000000000001, 0.0]]
    bob = Particles.create([[1.0, 0.0]], mass=1.0, velocity_scale=0.93)
    yoyo_step(bob, force)
    assert bob.velocities.tolist() == [[0.5580000000000002, 0.0]]
    assert bob.positions.tolist() == [[1.5580000000000003, 0.0]]


def test_spring_pull_signs_and_zero_gap():
    bob = np.array([[0.0, 0.0]])
    # Shorter than the rest length: pushed away from the anchor.
    assert spring_pull(bob, np.array([0.0, 3.0]), 2.0, 5.0, natural=True).tolist() == [[0.0, -4.0]]
    # A zero gap has no direction: no force, no NaN.
    assert spring_pull(bob, np.array([0.0, 0.0]), 2.0, 5.0, natural=True).tolist() == [[0.0, 0.0]]


def reference_chain_frame(x, v, parent, child, k, rest, natural, anchor, damping, gravity):
    """The article's order written with plain floats: bob after bob, reading neighbours as they are."""
    for i in range(len(x)):
        ax = ay = 0.0
        targets = ([anchor] if anchor is not None and i == 0 else []) + [
            tuple(x[j]) for j in (parent[i], child[i]) if j >= 0
        ]
        for tx, ty in targets:
            gx, gy = tx - x[i][0], ty - x[i][1]
            if natural:
                length = math.hypot(gx, gy)
                ux, uy = (gx / length, gy / length) if length > 0 else (0.0, 0.0)
                fx, fy = ux * (length - rest), uy * (length - rest)
            else:
                fx, fy = gx, gy
            ax, ay = ax + fx * k, ay + fy * k
        vx, vy = (v[i][0] + ax) * damping + gravity[0], (v[i][1] + ay) * damping + gravity[1]
        v[i] = [vx, vy]
        x[i] = [x[i][0] + vx, x[i][1] + vy]


@pytest.mark.parametrize("natural", [False, True])
def test_chain_step_follows_the_article_order_exactly(natural):
    rng = np.random.default_rng(7)
    start = rng.random((5, 2)) * 300
    n = len(start)
    parent = np.array([n - 1, 0, 1, 2, 3])  # a ring: bob 0's parent is the last bob
    child = np.array([1, 2, 3, 4, 0])
    bobs = Particles.create(start, mass=3.0, velocity_scale=0.96)
    x_ref, v_ref = start.tolist(), [[0.0, 0.0]] * n
    anchor = (150.0, 20.0)
    for _ in range(20):
        chain_step(bobs, parent, child, 0.02, 40.0, natural, use_mass=False, pull_parent=True,
                   pull_child=True, anchor=np.array(anchor), gravity=np.array([0.0, 0.5]))
        reference_chain_frame(x_ref, v_ref, parent, child, 0.02, 40.0, natural, anchor, 0.96, (0.0, 0.5))
    np.testing.assert_allclose(bobs.positions, np.array(x_ref), rtol=1e-12, atol=1e-9)


def test_chain_order_differs_from_simultaneous_update():
    # The sequential order is observable: a Jacobi update (all from old positions) ends elsewhere.
    start = np.array([[0.0, 0.0], [100.0, 0.0], [200.0, 0.0]])
    parent, child = np.array([-1, 0, 1]), np.array([1, 2, -1])
    seq = Particles.create(start, velocity_scale=0.9)
    chain_step(seq, parent, child, 0.1, 0.0, False, False, True, False, anchor=np.array([-50.0, 0.0]))
    # Bob 1 pulled toward bob 0's NEW location (0 + (-50 * 0.1) * 0.9 = -4.5).
    assert seq.positions[0, 0] == pytest.approx(-4.5)
    assert seq.positions[1, 0] == pytest.approx(100.0 + (-4.5 - 100.0) * 0.1 * 0.9)


PRESETS = {
    # number: (stiffness, damping, rest_length, gravity y, bobs, natural, gravity_mode, anchor, ring, muscle)
    1: (0.02, 0.96, 100.0, 1.0, 1, False, False, True, False, False),
    2: (0.2, 0.7, 100.0, 1.0, 1, False, False, True, False, False),
    3: (0.01, 0.98, 100.0, 0.7, 1, False, True, True, False, False),
    4: (0.02, 0.96, 100.0, 1.0, 2, True, False, False, False, False),
    5: (0.02, 0.98, 100.0, 0.5, 3, True, True, True, True, False),
    6: (0.02, 0.96, 70.0, 1.0, 3, True, False, False, True, True),
    7: (0.6, 0.6, 25.0, 1.0, 20, True, False, True, False, False),
    8: (0.7, 0.6, 5.0, 1.0, 30, True, False, True, False, False),
    9: (0.45, 0.7, 3.0, 0.6, 20, True, True, True, False, False),
}


@pytest.mark.parametrize("number", list(PRESETS))
def test_presets_set_the_article_values(number):
    s = make_scene()
    s.key("2" if number == 1 else "1")  # start from another preset so every value must change hands
    s.key(str(number))
    k, d, rest, gy, bobs, natural, gravity_mode, anchor, ring, muscle = PRESETS[number]
    assert (s.stiffness, s.damping, s.rest_length, s.gravity[1]) == (k, d, rest, gy)
    assert s.bobs.count == bobs == s.bob_count
    assert (s.natural_mode, s.gravity_mode, s.anchor_mode, s.ring_mode, s.muscle_mode) == (
        natural, gravity_mode, anchor, ring, muscle)
    assert s.mass == 3.0
    x = s.bobs.positions
    assert np.all((x >= 0) & (x <= [1200, 800]))  # random starts inside the window


def test_preset_9_keeps_mass_and_chain_modes():
    s = make_scene()
    s.key("s")
    s.key("c")
    s.key("9")
    assert s.mass_mode and s.chain_mode == 1
    s.key("1")
    assert not s.mass_mode and s.chain_mode == 0


def test_bob_starts_are_reproducible_from_the_rng_seed():
    assert np.array_equal(make_scene(5).positions(), make_scene(5).positions())
    assert not np.array_equal(make_scene(5).positions(), make_scene(6).positions())


@pytest.mark.parametrize("key, attr", [("n", "natural_mode"), ("g", "gravity_mode"), ("s", "mass_mode"),
                                       ("w", "wind_mode"), ("m", "muscle_mode"), ("a", "anchor_mode"),
                                       ("r", "ring_mode")])
def test_toggles_flip_and_flip_back(key, attr):
    s = make_scene()
    before = getattr(s, attr)
    s.key(key)
    assert getattr(s, attr) is (not before)
    s.key(key)
    assert getattr(s, attr) is before


def test_chain_mode_cycles_and_ring_links_the_ends():
    s = make_scene()
    s.key("7")
    assert [s.chain_mode] + [(s.key("c"), s.chain_mode)[1] for _ in range(3)] == [0, 1, 2, 0]
    s.key("r")
    assert s.parent[0] == s.bobs.count - 1 and s.child[-1] == 0
    assert s.alive()[s.bobs.count - 1]  # the ring link in the recording is live
    s.key("r")
    assert s.parent[0] == -1 and s.child[-1] == -1


def test_parameter_keys():
    s = make_scene()
    s.key("right")
    assert s.stiffness == pytest.approx(0.03)
    s.key("left")
    s.key("left")
    assert s.stiffness == pytest.approx(0.01)
    for _ in range(10):
        s.key("up")
    assert s.damping == 1.0  # clamped
    for _ in range(150):
        s.key("down")
    assert s.damping == 0.0
    s.key("j")
    assert s.rest_length == 101.0
    s.key("k")
    s.key("k")
    assert s.rest_length == 99.0
    s.key("l")
    assert s.gravity[1] == pytest.approx(1.1)
    s.key("h")
    s.key("h")
    assert s.gravity[1] == pytest.approx(0.9)
    s.key("enter")
    s.key("enter")
    assert s.bob_count == 3 and s.positions().shape == (4, 2)  # 3 bobs + the anchor
    for _ in range(5):
        s.key("backspace")
    assert s.bob_count == 0 and s.positions().shape == (1, 2)
    s.step()  # no bobs: nothing to do, nothing breaks


def test_hud_lists_keys_with_current_values():
    s = make_scene()
    s.key("3")
    hud = s.hud()
    text = "\n".join(hud)
    assert len(hud) <= 5  # a strip above the picture, not a column down it (H lists every key)
    assert hud[0].startswith("preset 3: yo-yo 1A / 4A")
    for words in ("stiffness 0.01 [left/right]", "damping 0.98 [up/down]", "rest length 100.0 [j/k]",
                  "gravity (0.0, 0.7) on [h/l, g]", "bobs 1 [enter/backspace]", "mass 3.0 off [s]",
                  "rest length off [n]", "hand's spring on [a]", "ring off [r]", "wind off [w]", "chain both ways [c]"):
        assert words in text, words
    assert "_" not in text  # no program names (rest_length, anchor_mode) in what a user reads
    s.key("right")
    assert "stiffness 0.02 [left/right]" in "\n".join(s.hud())  # 0.01 + 0.01 printed rounded to 3 places


def test_ruby_round_text():
    assert ruby_round_text(0.1 + 0.2, 3) == "0.3"
    assert ruby_round_text(0.125, 2) == "0.13"  # half away from zero on the printed digits
    assert ruby_round_text(100.0, 2) == "100.0"


def test_yoyo_4a_hangs_at_the_analytic_depth():
    # With gravity added after damping, rest means 0 = k * gap * d + g: the bob hangs g / (k d) below.
    s = make_scene()
    s.key("3")
    s.mouse_move((600.0, 200.0))
    for _ in range(3000):
        s.step()
    bob = s.bobs.positions[0]
    assert bob[0] == pytest.approx(600.0, abs=1e-6)
    assert bob[1] - 200.0 == pytest.approx(0.7 / (0.01 * 0.98), rel=1e-6)


def test_basic_preset_settles_on_the_mouse():
    s = make_scene()
    s.mouse_move((321.0, 123.0))
    for _ in range(1000):
        s.step()
    np.testing.assert_allclose(s.bobs.positions[0], [321.0, 123.0], atol=1e-6)


def test_muscle_rest_length_breathes_once_a_second():
    s = make_scene()
    s.key("6")
    s.frame_count = 15  # a quarter turn
    assert s.current_rest_length() == pytest.approx(70.0)
    s.frame_count = 45
    assert s.current_rest_length() == pytest.approx(0.0, abs=1e-9)


def test_wind_pushes_along_x():
    s = make_scene()
    s.key("w")
    s.mouse_move((600.0, 400.0))
    for _ in range(2000):
        s.step()
    # Force balance: k * gap + wind = 0 -> the bob settles 1 / k to the right of the mouse.
    assert s.bobs.positions[0, 0] - 600.0 == pytest.approx(1.0 / 0.02, rel=1e-6)


@pytest.mark.parametrize("number", list(PRESETS))
def test_every_preset_runs_headless_without_nan(number):
    s = load_scene("springs")
    assert isinstance(s, SpringsScene)
    s.key(str(number))
    s.key("w") if number == 5 else None
    springs = s.springs()
    for frame in range(300):
        s.mouse_move((600.0 + 200.0 * math.sin(frame / 20.0), 300.0))
        s.step()
    x = s.positions()
    assert np.all(np.isfinite(x))
    assert s.springs().shape == springs.shape and s.alive().shape == (springs.shape[0],)
    d = s.draw_list()
    assert d.circle_centers.shape[0] >= s.bobs.count


def test_unattended_hand_moves_and_the_bob_follows_on_its_spring():
    # Headless runs have no mouse: the hand loops on its own (slime render / simulate springs).
    from slime.scenes import load_scene

    scene = load_scene("springs")
    hands, bobs = [], []
    for frame in range(360):
        scene.unattended(frame)
        scene.step()
        hands.append(scene.anchor.copy())
        bobs.append(scene.bobs.positions[0].copy())
    hands, bobs = np.array(hands), np.array(bobs)
    span = hands.max(axis=0) - hands.min(axis=0)
    assert span[0] > 400 and span[1] > 300  # a loop over much of the 1200 x 800 window
    assert np.all(hands[:, 0] > 300)  # right of the HUD's column
    lag = np.linalg.norm(bobs - hands, axis=1)[60:]
    assert lag.max() > 5.0  # the spring stretches: the bob trails the hand...
    assert lag.max() < 200.0  # ...and keeps up with it
    assert np.all(np.isfinite(bobs))


def test_simulate_springs_records_the_moving_hand(tmp_path):
    from slime.cli import main

    out = tmp_path / "springs.npz"
    assert main(["simulate", "springs", "--ticks", "120", "--output", str(out)]) == 0
    positions = np.load(out)["positions"]
    hand = positions[:, -1]  # the anchor is the last point
    assert np.linalg.norm(hand[-1] - hand[0]) > 100.0


@pytest.mark.parametrize("frames", [60, 120])
def test_the_headless_picture_shows_the_spring_and_the_bob(ctx, frames):
    # `slime render springs` once drew the bob sitting on the hand: one ring, no spring to see.
    # Along the stretch of spring outside the bob's ring, pixels carry the spring's colour; the
    # ring and the hand's dot show in theirs.
    from slime.app.render_scene import SceneFrames
    from slime.scenes.springs import BOB_RADIUS

    scene = load_scene("springs")
    for frame in range(frames):
        scene.unattended(frame)
        scene.step()
    size = (800, 600)
    painter = SceneFrames(ctx, size)
    try:
        rgb = painter.draw(scene)[..., :3].astype(int)
    finally:
        painter.release()
    view, top = painter.view, painter.world_top  # the world is drawn below the HUD's strip
    bob, hand = scene.bobs.positions[0], scene.anchor
    length = np.linalg.norm(hand - bob)
    assert length > 2 * BOB_RADIUS  # the spring reaches well outside the ring

    def seen(world, color, tol=40) -> bool:
        x, y = np.floor(view.world_to_pixel(world) + (0, top)).astype(int)
        block = rgb[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3)
        return bool(np.any(np.all(np.abs(block - np.round(np.array(color) * 255)) <= tol, axis=1)))

    spring, ring, dot = theme.INK[:3], theme.BODY[:3], theme.ACCENT[:3]
    direction = (hand - bob) / length
    for along in np.linspace(BOB_RADIUS + 8.0, length - 8.0, 6):
        assert seen(bob + along * direction, spring), along
    assert seen(bob - BOB_RADIUS * direction, ring)
    assert seen(hand, dot)
    # Off the chain: the background.
    away = bob - 0.5 * BOB_RADIUS * np.array([-direction[1], direction[0]])
    assert not seen(away, spring, tol=20) and not seen(away, ring, tol=20)
