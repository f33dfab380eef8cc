"""The Computer Seminar chapter's scenes: the sandbox, the slinky drop and exercises 7-1..7-4, on the shared engine."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics.mass_spring.springs import Springs, spring_forces
from slime.scenes import load_scene
from slime.scenes.sandbox import (
    Sandbox,
    dots_along,
    inverse_square_forces,
    make_attractor,
    make_counter,
    make_dotted,
    make_resonance,
    make_sandbox,
    make_slinky,
)

# The Computer Seminar chapter's restoring-force table: positions of ends 1 and 2, k, natural length, force on end 1.
RESTORING_CASES = [
    ((0, 0), (10, 0), 2, 0, (2 * 10, 0)),
    ((10, 0), (0, 0), 2, 0, (-2 * 10, 0)),
    ((0, 0), (10, 0), 2, 7, (2 * (10 - 7), 0)),
    ((10, 0), (0, 0), 2, 7, (-2 * (10 - 7), 0)),
    ((0, 0), (10, 0), 2, 13, (-2 * (13 - 10), 0)),
    ((10, 0), (0, 0), 2, 13, (2 * (13 - 10), 0)),
    ((0, 0), (0, 10), 3, 0, (0, 3 * 10)),
    ((2, 10), (2, 5), 4, 0, (0, -5 * 4)),
    ((0, 0), (0, 10), 3, 5, (0, 3 * 5)),
    ((0, 0), (0, 10), 3, 12, (0, -3 * 2)),
    ((0, 0), (0, 0), 0, 0, (0, 0)),  # coincident ends: no direction, no force
    ((12, 5), (12, 5), 0, 0, (0, 0)),
]


@pytest.mark.parametrize("x1, x2, k, natural, expected", RESTORING_CASES)
def test_restoring_force_original_table(x1, x2, k, natural, expected):
    x = np.array([x1, x2], dtype=float)
    f = spring_forces(x, Springs.create([[0, 1]], natural, k))
    np.testing.assert_allclose(f[0], expected, atol=1e-12)


# --- sandbox ------------------------------------------------------------------------------------


def test_clicks_add_masses_and_fixed_masses():
    s = make_sandbox(demo=False)
    s.mouse_press((100.0, 100.0), "left")
    s.mouse_press((200.0, 100.0), "right")
    s.mouse_press((300.0, 100.0), "middle")  # not a sandbox button: nothing
    p = s.world.particles
    assert p.count == 2
    assert p.inv_mass[0] == pytest.approx(0.1) and p.inv_mass[1] == 0.0
    assert np.all(p.velocities[1] == 0.0)
    vx, vy = p.velocities[0]
    assert -10 <= vx <= 10 and -10 <= vy <= 0  # thrown up (y down) at a random speed
    assert s.world.springs.count == 0


def test_space_chains_new_masses_with_fragile_springs():
    s = make_sandbox(demo=False)
    s.key("space")
    for x in (100.0, 130.0, 160.0):
        s.mouse_press((x, 100.0), "left")
    s.key_up("space")
    s.mouse_press((400.0, 100.0), "left")  # after release: not chained
    sp = s.world.springs
    assert sp.pairs.tolist() == [[1, 0], [2, 1]]
    assert np.all(sp.stiffness == 0.01) and np.all(sp.rest_length == 20.0) and np.all(sp.break_force == 5.0)


@pytest.mark.parametrize("span, survives", [(500.0, True), (560.0, False)])
def test_fragile_spring_breaks_under_overload(span, survives):
    # k = 0.01, natural length 20, threshold 5: the force 0.01 (L - 20) passes 5 beyond L = 520.
    s = make_sandbox(demo=False)
    s.key("space")
    s.mouse_press((20.0, 200.0), "right")
    s.mouse_press((20.0 + span, 200.0), "right")
    s.step()
    assert bool(s.alive()[0]) is survives


def test_overstretched_chain_breaks_when_pulled():
    # A free mass chained to a fixed one and thrown hard away snaps its spring.
    s = make_sandbox(demo=False)
    s.key("space")
    s.mouse_press((300.0, 100.0), "right")
    s.mouse_press((320.0, 100.0), "left")
    s.world.particles.velocities[1] = (0.0, 0.0)
    s.world.springs.break_force[:] = 0.3  # weaker than the pull at full stretch below
    s.world.particles.positions[1] = (300.0, 200.0)  # 100 px: force 0.8
    s.step()
    assert not s.alive()[0]


def test_walls_keep_the_demo_inside_and_nothing_is_nan():
    s = make_sandbox()
    assert s.world.particles.count == 32 and s.world.springs.count == 10  # two chains of 6, 20 loose masses
    for _ in range(500):
        s.step()
    x = s.world.particles.positions
    r = s.world.particles.radius
    assert np.all(np.isfinite(x))
    slack = 20.0  # one frame of travel at most
    assert np.all(x - r[:, None] > -slack) and np.all(x + r[:, None] < np.array([600.0, 400.0]) + slack)


def test_backspace_clears_the_sandbox():
    s = make_sandbox()
    s.key("backspace")
    assert s.world.particles.count == 0 and s.world.springs.count == 0
    s.step()
    s.mouse_press((50.0, 50.0), "left")
    s.step()
    assert s.world.particles.count == 1


def test_collision_pass_conserves_momentum_in_the_scene():
    # Gravity off and no walls: only springs and contacts act, all internal, so with no pinned
    # masses and no damping the total momentum stays as it was.
    s = Sandbox(demo=False)
    s.world.gravity[:] = 0.0
    s.world.extra_forces.remove(s.walls)
    s.walls = None
    rng = np.random.default_rng(2)
    s.key("space")
    for x in rng.random((12, 2)) * [200, 120] + [200, 140]:
        s.mouse_press(x, "left")
    s.key_up("space")
    for x in rng.random((30, 2)) * [200, 120] + [200, 140]:
        s.mouse_press(x, "left")
    p = s.world.particles
    p.damping[:] = 0.0
    momentum = (p.mass[:, None] * p.velocities).sum(0)
    for _ in range(100):
        s.step()
    assert s.contacts.count > 10
    np.testing.assert_allclose((p.mass[:, None] * p.velocities).sum(0), momentum, atol=1e-9)


# --- slinky -------------------------------------------------------------------------------------


def test_slinky_settled_start_is_the_exact_hanging_equilibrium():
    s = make_slinky(settled=True)
    x0 = s.positions().copy()
    for _ in range(30):
        s.step()
    np.testing.assert_allclose(s.positions(), x0, atol=1e-9)


def test_slinky_centre_of_mass_falls_freely_while_the_bottom_waits():
    s = make_slinky(settled=True)
    s.key("space")
    assert s.released
    p = s.world.particles
    free = p.inv_mass > 0
    g, drag_rate = 0.5, 0.01 / 0.1  # every mass feels the same viscous d / m
    com_y0 = p.positions[free, 1].mean()
    bottom0 = p.positions[-1].copy()
    v_com = 0.0
    for frame in range(1, 13):
        s.step()
        # Springs are internal once the top is cut: the centre of mass obeys m dV = (m g - d V) dt.
        v_com += g - drag_rate * v_com
        assert p.velocities[free, 1].mean() == pytest.approx(v_com, rel=1e-12)
        # The slinky effect: the bottom mass has not yet heard that the top was let go.
        assert np.all(p.positions[-1] == bottom0)
    assert p.positions[free, 1].mean() - com_y0 > 25.0
    for _ in range(20):
        s.step()
    assert p.positions[-1, 1] > bottom0[1] + 1.0  # later it falls too


def test_slinky_start_runs_and_r_rehangs():
    s = load_scene("slinky")
    x0 = s.positions().copy()
    assert x0.shape == (15, 2) and np.allclose(np.diff(x0[:, 1]), 30.0)
    for _ in range(200):
        s.step()
    s.key("space")
    for _ in range(200):
        s.step()
    assert np.all(np.isfinite(s.positions()))
    assert s.positions()[1:, 1].min() > 400.0  # gone off the bottom of the window
    s.key("r")
    np.testing.assert_allclose(s.positions(), x0)
    assert s.alive().all()


def test_slinky_release_frame_for_headless_runs():
    s = make_slinky(release_frame=5)
    for _ in range(5):
        s.step()
    assert not s.released
    s.step()
    assert s.released


# --- exercises ----------------------------------------------------------------------------------


def test_dots_along_segments():
    starts = np.array([[0.0, 0.0], [10.0, 10.0], [5.0, 5.0]])
    ends = np.array([[40.0, 0.0], [10.0, 13.0], [5.0, 5.0]])
    dots = dots_along(starts, ends, 8.0)
    assert len(dots) == 5 + 1 + 1  # ceil(40 / 8), then at least one per segment
    np.testing.assert_allclose(dots[:5, 0], [4.0, 12.0, 20.0, 28.0, 36.0])
    np.testing.assert_allclose(dots[5], [10.0, 11.5])
    np.testing.assert_allclose(dots[6], [5.0, 5.0])


def test_dotted_scene_draws_springs_as_dots():
    s = make_dotted()
    d = s.draw_list()
    assert d.line_segments.shape[0] == 0  # no solid spring lines
    s_ = s.world.springs
    x = s.world.particles.positions
    lengths = np.linalg.norm(x[s_.b] - x[s_.a], axis=1)
    expected_dots = int(np.sum(np.maximum(1, np.ceil(lengths / s.dot_spacing))))
    assert d.circle_centers.shape[0] == expected_dots + s.world.particles.count
    s.key("right")
    assert s.dot_spacing == 10.0


def swing_amplitudes(scene, frames_to_settle=1500, window=200):
    for _ in range(frames_to_settle):
        scene.step()
    seen = []
    for _ in range(window):
        scene.step()
        seen.append(scene.world.particles.positions[scene.movers, 0] - scene.rest_x)
    return np.abs(np.array(seen)).max(axis=0)


def test_resonance_amplitudes_match_the_driven_oscillator():
    s = make_resonance()
    k, m, d, f0 = s.STIFFNESS, s.MASS, s.VISCOUS, s.FORCE_AMPLITUDE
    amp = swing_amplitudes(s)
    w = s.ratios() * s.omega0
    analytic = f0 / np.sqrt((k - m * w**2) ** 2 + (d * w) ** 2)
    np.testing.assert_allclose(amp, analytic, rtol=0.05)
    assert amp[1] > 10 * amp[0] and amp[1] > 10 * amp[2]
    assert any("swing" in line for line in s.hud())


def test_resonance_ratio_keys():
    s = make_resonance()
    s.key("right")
    assert s.ratios()[1] == pytest.approx(1.05)
    s.key("left")
    s.key("left")
    assert s.ratios()[1] == pytest.approx(0.95)


def test_counter_counts_point_impacts_in_the_hud():
    s = make_counter()
    assert s.hud()[0] == "collisions: 0"
    per_step = []
    for _ in range(200):
        s.step()
        per_step.append(s.contacts.last_count)
    assert s.collisions == sum(per_step) > 0
    assert s.hud()[0] == f"collisions: {s.collisions}"


def test_inverse_square_force_law_and_newtons_third_law():
    x = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 0.0]])
    f = inverse_square_forces(x, np.array([0, 0]), np.array([1, 2]), np.array([50.0, 50.0]))
    np.testing.assert_allclose(f[0], 50.0 / 25.0 * np.array([0.6, 0.8]))  # toward the partner, G / r^2
    np.testing.assert_allclose(f[1], 0.0)  # coincident: nothing, no NaN
    f_rep = inverse_square_forces(x, np.array([0]), np.array([1]), np.array([-50.0]))
    np.testing.assert_allclose(f_rep[0], -f[0])


def test_attractor_holds_circular_orbits_and_repels_on_i():
    s = make_attractor()
    p = s.world.particles
    sun = p.positions[s.sun].copy()
    r0 = np.linalg.norm(p.positions[s.pair_a] - sun, axis=1)
    radii = []
    for _ in range(600):
        s.step()
        radii.append(np.linalg.norm(p.positions[s.pair_a] - sun, axis=1))
    radii = np.array(radii)
    assert np.all(np.abs(radii / r0 - 1.0) < 0.05)  # circular orbits stay circular
    s.key("i")
    assert s.hud()[0] == "repelling"
    start = radii[-1]
    for _ in range(30):
        s.step()
    assert np.all(np.linalg.norm(p.positions[s.pair_a] - sun, axis=1) > start)
    n = p.count
    s.mouse_press((300.0, 120.0), "left")
    assert s.world.particles.count == n + 1 and s.pair_a.size == 9


@pytest.mark.parametrize("name", ["sandbox", "slinky", "dotted", "resonance", "counter", "attractor"])
def test_every_scene_runs_headless_without_nan(name):
    s = load_scene(name)
    n_points, n_springs = s.positions().shape[0], s.springs().shape[0]
    if name == "slinky":
        s.key("space")
    for _ in range(300):
        s.step()
        assert np.all(np.isfinite(s.positions()))
    # Headless runs keep counts fixed (the recorder stacks frames).
    assert s.positions().shape[0] == n_points and s.springs().shape[0] == n_springs
    assert s.alive().shape == (n_springs,)
    assert s.draw_list().circle_centers.shape[0] > 0
    assert s.help_lines and s.y_down
