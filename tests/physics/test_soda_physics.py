"""The Soda tick (slime/physics/mass_spring/soda.py) against Soda Constructor's Model.tick.

Two references:

- ``tests/support/data/soda_*_ruby.json`` were produced by running Soda Constructor's own Ruby Node / Spring /
  Model classes (ruby 3.1.2, with a minimal 2D vector class written for the purpose; neither
  file is in this repository) on ``assets/dainty_walker.json`` (600 ticks, positions every 10)
  and ``tests/support/data/soda_two_walls_model.json`` (200 ticks, every 2), calling
  ``Model#tick(1.0 / 60)`` as Soda Constructor's window does.
- ``ReferenceModel`` below: a plain-Python, object-per-mass restatement of Soda Constructor's rules,
  written for these tests, slow but obvious.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from slime.physics.mass_spring import soda
from slime.physics.mass_spring.soda import WALL_LEFT, WALL_RIGHT, WALL_UNKNOWN, SodaModel, count_wave_flips
from slime.scenes.soda_format import DAINTY_WALKER, load_model

DATA = Path(__file__).resolve().parents[1] / "support" / "data"
TWO_WALLS = DATA / "soda_two_walls_model.json"


# --- a plain-Python reference of Soda Constructor's semantics ----------------------------------------


class RefMass:
    def __init__(self, location, velocity, acceleration):
        self.x, self.y = location
        self.vx, self.vy = velocity
        self.ax, self.ay = acceleration
        self.fx = self.fy = 0.0


class ReferenceModel:
    """One object per mass and per spring, updated one at a time in list order."""

    def __init__(self, model: SodaModel):
        self.masses = [
            RefMass(tuple(x), tuple(v), tuple(a)) for x, v, a in zip(model.locations, model.velocities, model.acceleration)
        ]
        s = model.springs
        self.springs = [
            (int(s.a[k]), int(s.b[k]), float(s.rest_length[k]), float(s.amplitude[k]), float(s.phase[k]))
            for k in range(s.count)
        ]
        self.gx, self.gy = (float(g) for g in model.gravity)
        self.friction = model.friction
        self.k = model.stiffness
        self.surface_friction = model.surface_friction
        self.surface_reflection = model.surface_reflection
        self.width = model.width
        self.wave_amplitude = model.wave_amplitude
        self.wave_phase = model.wave_phase
        self.wave_speed = model.wave_speed
        self.wave_direction = model.wave_direction
        self.last_wall = "unknown"
        self.flip_log = []  # (substep, number of flips in it)

    def substep(self, h):
        for m in self.masses:
            m.fx = self.gx - self.friction * m.vx
            m.fy = self.gy - self.friction * m.vy
        for a, b, rest, amplitude, phase in self.springs:
            ma, mb = self.masses[a], self.masses[b]
            dx, dy = mb.x - ma.x, mb.y - ma.y
            length = math.hypot(dx, dy)
            if length == 0.0:
                continue
            now = rest * (1.0 - math.sin(phase + self.wave_phase) * amplitude * self.wave_amplitude)
            pull = self.k * (length - now) / length
            ma.fx += dx * pull
            ma.fy += dy * pull
            mb.fx -= dx * pull
            mb.fy -= dy * pull
        for m in self.masses:
            m.x += m.vx * h
            m.y += m.vy * h
            m.vx += m.ax * h
            m.vy += m.ay * h
            m.ax, m.ay = m.fx, m.fy
        flips = 0
        for m in self.masses:
            if m.y < 0.0:
                m.y = 0.0
                m.vx *= 1.0 - self.surface_friction
                m.vy *= self.surface_reflection
            if m.x < 0.0 or m.x > self.width:
                m.x = 0.0 if m.x < 0.0 else self.width
                m.vx *= self.surface_reflection
                m.vy *= 1.0 - self.surface_friction
                side = "left" if m.x <= 0.0 else "right"
                if self.last_wall != side:
                    self.last_wall = side
                    self.wave_direction = -self.wave_direction
                    flips += 1
        return flips

    def tick(self, dt=1.0 / 60.0):
        self.wave_phase += self.wave_speed * self.wave_direction
        for i in range(100):
            flips = self.substep(dt / 10.0)
            if flips:
                self.flip_log.append((i, flips))

    def locations(self):
        return np.array([(m.x, m.y) for m in self.masses])


def _walls(name: str) -> int:
    return {"unknown": WALL_UNKNOWN, "left": WALL_LEFT, "right": WALL_RIGHT}[name]


# --- against Soda Constructor's own Ruby code -------------------------------------------------------


@pytest.mark.parametrize(
    "model_path, reference",
    [(DAINTY_WALKER, "soda_dainty_walker_ruby.json"), (TWO_WALLS, "soda_two_walls_ruby.json")],
    ids=["dainty_walker_600_ticks", "two_walls_200_ticks"],
)
def test_tick_matches_soda_constructors_ruby_model(model_path, reference):
    ref = json.loads((DATA / reference).read_text())
    model = load_model(model_path)
    every = ref["every"]
    for frame in range(1, len(ref["positions"])):
        for _ in range(every):
            model.tick()
        np.testing.assert_allclose(model.locations, ref["positions"][frame], rtol=0, atol=1e-6)
        assert model.wave_direction == ref["wave_direction"][frame]
        assert model.wave_phase == pytest.approx(ref["wave_phase"][frame], abs=1e-9)
    assert frame * every == ref["ticks"]
    np.testing.assert_allclose(model.velocities, ref["final_velocity"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(model.acceleration, ref["final_acceleration"], rtol=0, atol=1e-6)
    assert model.last_wall == _walls(ref["last_wall"])


def test_the_ruby_walker_run_reaches_a_wall_and_turns():
    """The 600-tick reference is only a strong check if it covers a wall hit and a wave flip."""
    ref = json.loads((DATA / "soda_dainty_walker_ruby.json").read_text())
    assert ref["wave_direction"][0] == 1 and ref["wave_direction"][-1] == -1
    assert ref["last_wall"] == "right"


# --- against the plain-Python reference -----------------------------------------------------


@pytest.mark.parametrize("model_path, ticks", [(DAINTY_WALKER, 30), (TWO_WALLS, 120)], ids=["walker", "two_walls"])
def test_tick_matches_the_object_per_mass_reference(model_path, ticks):
    model = load_model(model_path)
    ref = ReferenceModel(model)
    for _ in range(ticks):
        model.tick()
        ref.tick()
        np.testing.assert_allclose(model.locations, ref.locations(), rtol=0, atol=1e-9)
        assert model.wave_direction == ref.wave_direction
    assert soda.WALL_NAMES[model.last_wall] == ref.last_wall


def test_two_walls_model_hits_both_walls_in_one_substep():
    """The fixture is built so masses 0 (right wall) and 1 (left wall) land in the same substep."""
    ref = ReferenceModel(load_model(TWO_WALLS))
    ref.tick()
    assert (9, 2) in ref.flip_log  # substep 10: right then left, two flips
    assert ref.wave_direction == 1 and ref.last_wall == "left"


def _mirror_pair(order_right_first: bool, last_wall: int) -> SodaModel:
    """Two free masses that cross the right and the left wall in the same substep."""
    right = ([0.9525, 0.5], [3.0, 0.0])
    left = ([0.0475, 0.5], [-3.0, 0.0])
    first, second = (right, left) if order_right_first else (left, right)
    return SodaModel.create(
        [first[0], second[0]],
        np.zeros((0, 2), dtype=np.int64),
        [],
        velocities=[first[1], second[1]],
        gravity=(0.0, 0.0),
        friction=0.0,
        width=1.0,
        wave_direction=1.0,
        last_wall=last_wall,
    )


@pytest.mark.parametrize(
    "right_first, last_wall, flips_expected",
    [
        (True, WALL_UNKNOWN, 2),
        (False, WALL_UNKNOWN, 2),
        (True, WALL_LEFT, 2),  # right differs from left, then left differs from right
        (False, WALL_LEFT, 1),  # left is no news; right flips
        (True, WALL_RIGHT, 1),
        (False, WALL_RIGHT, 2),
    ],
)
def test_same_substep_wall_hits_count_in_mass_order(right_first, last_wall, flips_expected):
    model = _mirror_pair(right_first, last_wall)
    ref = ReferenceModel(model)
    ref.last_wall = soda.WALL_NAMES[last_wall]
    model.tick()
    ref.tick()
    assert sum(f for _, f in ref.flip_log) == flips_expected
    assert model.wave_direction == ref.wave_direction == (-1.0) ** flips_expected
    assert soda.WALL_NAMES[model.last_wall] == ref.last_wall == ("left" if right_first else "right")


def test_count_wave_flips_table():
    L, R, U = WALL_LEFT, WALL_RIGHT, WALL_UNKNOWN
    assert count_wave_flips(U, np.array([L, L, L])) == (1, L)  # many masses on one wall: one flip
    assert count_wave_flips(L, np.array([L, L])) == (0, L)
    assert count_wave_flips(L, np.array([R, L, R])) == (3, R)
    assert count_wave_flips(R, np.array([R, L, L, R])) == (2, R)


# --- physics from first principles ----------------------------------------------------------


def test_free_fall_follows_the_lagged_integrator_in_closed_form():
    """x_n = x0 + n v0 h + (n-1) a0 h^2 + g h^2 (n-1)(n-2)/2: velocity uses the previous force."""
    g, a0, v0, y0 = -0.5, 0.3, 0.2, 10.0
    model = SodaModel.create(
        [[1.0, y0]], np.zeros((0, 2), dtype=np.int64), [], velocities=[[0.0, v0]], accelerations=[[0.0, a0]],
        gravity=(0.0, g), friction=0.0,
    )
    model.tick()
    n, h = 100, soda.SODA_DT / 10
    expected = y0 + n * v0 * h + (n - 1) * a0 * h * h + g * h * h * (n - 1) * (n - 2) / 2
    assert model.locations[0, 1] == pytest.approx(expected, abs=1e-12)
    assert model.velocities[0, 1] == pytest.approx(v0 + a0 * h + (n - 1) * g * h, abs=1e-12)
    assert model.acceleration[0, 1] == g


def test_springs_conserve_momentum_without_gravity_friction_or_walls():
    model = load_model(DAINTY_WALKER)
    model.gravity[:] = 0.0
    model.friction = 0.0
    model.width, model.height = 100.0, 100.0
    model.locations[:] += 40.0  # far from every wall and the floor
    model.velocities[:] = 0.0
    model.acceleration[:] = 0.0
    for _ in range(20):
        model.tick()
    np.testing.assert_allclose(model.velocities.sum(axis=0), 0.0, atol=1e-12)
    assert np.abs(model.velocities).max() > 1e-3  # the muscles did move things


def test_muscle_rest_length_breathes_with_the_wave():
    model = load_model(DAINTY_WALKER)
    s = model.springs
    expected = s.rest_length * (1 - np.sin(s.phase + model.wave_phase) * s.amplitude * model.wave_amplitude)
    np.testing.assert_allclose(model.dynamic_rest_length(), expected)
    plain = s.amplitude == 0
    np.testing.assert_array_equal(model.dynamic_rest_length()[plain], s.rest_length[plain])
    model.wave_phase = math.pi / 2 - s.phase[14]  # muscle 14 at its shortest
    assert model.dynamic_rest_length()[14] == pytest.approx(0.795 * (1 - 0.5 * 0.15))


def test_damped_spring_settles_at_its_rest_length():
    model = SodaModel.create(
        [[1.0, 1.0], [1.9, 1.0]], [[0, 1]], [0.5], gravity=(0.0, 0.0), friction=2.0, stiffness=3.0, width=4.0
    )
    for _ in range(200):
        model.tick()
    assert np.linalg.norm(model.locations[1] - model.locations[0]) == pytest.approx(0.5, abs=1e-6)
    assert model.centroid() == pytest.approx([1.45, 1.0], abs=1e-9)  # no net force moves the middle


def test_coincident_masses_feel_no_spring_force_and_stay_finite():
    """normalize_or_zero: a zero-length spring has no direction, so no force (no NaN)."""
    model = SodaModel.create([[1.0, 1.0], [1.0, 1.0]], [[0, 1]], [0.3], gravity=(0.0, 0.0), friction=0.0)
    model.tick()
    np.testing.assert_array_equal(model.locations, [[1.0, 1.0], [1.0, 1.0]])
    assert model.blowups == 0


def test_an_unstable_stiffness_is_undone_not_returned_as_nan():
    """With k = 1e300 the spring forces overflow to inf within a few substeps (inf - inf = NaN)."""
    model = load_model(DAINTY_WALKER)
    model.set_stiffness(1e300)
    before = model.locations.copy()
    model.tick()
    assert np.isfinite(model.locations).all() and np.isfinite(model.velocities).all()
    assert model.blowups == 1
    np.testing.assert_array_equal(model.locations, before)
    np.testing.assert_array_equal(model.velocities, 0.0)


@pytest.mark.parametrize("stiffness", [1e9, 1e5])
def test_a_runaway_stiffness_is_undone_while_still_finite(stiffness):
    """k = 1e9 diverges without ever reaching inf (1e222 after 100 ticks, before the runaway
    check): every tick must be caught and undone, and nothing may warn on the way."""
    import warnings

    from slime.scenes import load_scene

    scene = load_scene("soda")
    scene.model.set_stiffness(stiffness)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(100):
            scene.step()
            scene.draw_list()
    m = scene.model
    assert m.blowups > 0 and scene.problems() and "too stiff" in scene.problems()[0]
    x = m.locations
    assert np.isfinite(x).all() and x[:, 0].min() >= 0.0 and x[:, 0].max() <= m.width
    assert 0.0 <= x[:, 1].min() and x[:, 1].max() < 2 * m.height  # still where the walker stood


def test_a_stiff_but_stable_walker_is_not_mistaken_for_a_runaway():
    model = load_model(DAINTY_WALKER)
    model.set_stiffness(40.0)  # the panel's top springiness, 6x the walker's own: the integrator holds
    for _ in range(100):
        model.tick()
    assert model.blowups == 0 and np.isfinite(model.locations).all()


def test_floor_and_walls_keep_every_mass_in_the_box():
    model = load_model(TWO_WALLS)
    for _ in range(100):
        model.tick()
        x = model.locations
        assert (x[:, 1] >= 0).all() and (x[:, 0] >= 0).all() and (x[:, 0] <= model.width).all()


def test_dainty_walker_walks():
    """From Soda Constructor's start it strides right about 0.4 m per 100 ticks until the right wall."""
    model = load_model(DAINTY_WALKER)
    start = model.centroid()
    for _ in range(300):
        model.tick()
    moved = model.centroid() - start
    assert moved[0] > 1.0
    assert abs(moved[1]) < 0.3  # it walks, it does not fly or collapse
    assert model.wave_direction == 1  # not yet at the wall


def test_a_held_mass_stays_at_the_hand():
    model = load_model(DAINTY_WALKER)
    target = np.array([[2.0, 1.5]])
    for _ in range(3):
        model.tick(held=(np.array([4]), target))
        np.testing.assert_array_equal(model.locations[4], target[0])
        np.testing.assert_array_equal(model.velocities[4], 0.0)
    assert np.linalg.norm(model.locations[[0, 1, 6]] - target, axis=1).min() < 0.7  # its neighbours follow


def test_editing_keeps_springs_pointing_at_the_right_masses():
    model = load_model(DAINTY_WALKER)
    ends_before = model.locations[model.springs.pairs].copy()
    attached = (model.springs.a == 3) | (model.springs.b == 3)
    model.remove_mass(3)
    assert model.mass_count == 9 and model.spring_count == 22 - attached.sum()
    np.testing.assert_array_equal(model.locations[model.springs.pairs], ends_before[~attached])
    assert model.add_spring(0, 1) is None  # already joined (as 0-1)
    assert model.add_spring(1, 0) is None
    assert model.add_spring(2, 2) is None
    new = model.add_mass([3.0, 0.5])
    k = model.add_spring(new, 0)
    assert model.springs.rest_length[k] == pytest.approx(np.linalg.norm(model.locations[0] - [3.0, 0.5]))
    model.tick()
    assert np.isfinite(model.locations).all()


def test_caterpillar_asset_crawls_left():
    """Our own small model: three bottom muscles 1.5 rad apart make a travelling wave that crawls."""
    model = load_model(DAINTY_WALKER.parent / "caterpillar.json")
    start = model.centroid()
    for _ in range(200):
        model.tick()
    assert model.centroid()[0] - start[0] < -0.25
    assert model.blowups == 0


@pytest.mark.parametrize("change, cause", [
    (lambda m: m.set_stiffness(1e9), "stiffness 1e+09 is too stiff"),
    (lambda m: setattr(m, "wave_amplitude", 1e12), "the wave amplitude 1e+12"),
    (lambda m: m.gravity.__setitem__(1, -1e12), "gravity 1e+12"),
    (lambda m: m.particles.velocities.__setitem__(slice(None), (0.0, 1e9)), "starting speed"),
])
def test_a_blow_up_names_the_cause_it_measured(change, cause):
    # The walker with one setting far out: the warning names that setting, not the stiffness always.
    from slime.scenes import load_scene

    scene = load_scene("soda")
    change(scene.model)
    for _ in range(5):
        scene.step()
    problems = scene.problems()
    assert scene.model.blowups > 0 and len(problems) == 1 and cause in problems[0], problems
