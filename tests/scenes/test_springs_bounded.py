"""The springs scene stays bounded for every slider and key the panel offers.

The Spring simulation article's bob-after-bob order has no stable stiffness at damping 1.0 once
there are two bobs, so the scene caps the bobs' speed and fences them far outside the window
(slime.physics.mass_spring.yoyo.cap_speed, fence); every motion below the cap stays the article's.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from slime.physics.mass_spring.particles import Particles
from slime.physics.mass_spring.yoyo import cap_speed, chain_step, fence
from slime.scenes import springs
from slime.scenes.springs import FENCE, SPEED_LIMIT, SpringsScene

TOGGLES = ["n", "g", "s", "w", "m", "a", "r", "c"]


def _linear_chain_radius(bobs: int, stiffness: float, damping: float) -> float:
    """Spectral radius of one frame of the article's chain step (rest length 0, anchored, linear)."""
    n = bobs
    parent, child = np.arange(n) - 1, np.arange(n) + 1
    child[-1] = -1

    def frame(state):
        p = Particles.create(state[: 2 * n].reshape(n, 2), state[2 * n:].reshape(n, 2), velocity_scale=damping)
        chain_step(p, parent, child, stiffness, 0.0, False, False, True, True, anchor=np.zeros(2))
        return np.concatenate([p.positions.ravel(), p.velocities.ravel()])

    matrix = np.array([frame(e) for e in np.eye(4 * n)]).T
    return float(np.abs(np.linalg.eigvals(matrix)).max())


@pytest.mark.parametrize("stiffness, at_least", [(0.001, 1.0002), (0.1, 1.02)])
def test_the_article_order_grows_at_full_damping_for_any_stiffness(stiffness, at_least):
    # Why a stiffness range cannot make the scene safe: two bobs at damping 1.0 grow every frame.
    assert _linear_chain_radius(2, stiffness, 1.0) > at_least
    # One bob alone is the plain spring: stable (radius 1) up to stiffness 4.
    assert _linear_chain_radius(1, 3.9, 1.0) == pytest.approx(1.0)
    assert _linear_chain_radius(30, 0.7, 1.0) > 2.2  # preset 8 at damping 1.0


def _run(scene: SpringsScene, frames: int) -> float:
    biggest = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any numpy RuntimeWarning fails the test
        with np.errstate(all="raise"):
            for frame in range(frames):
                scene.unattended(frame)
                scene.step()
                x = scene.bobs.positions
                assert np.isfinite(x).all() and np.isfinite(scene.bobs.velocities).all()
                if x.size:
                    biggest = max(biggest, float(np.abs(x).max()))
    return biggest


@pytest.mark.slow
def test_preset_8_at_full_damping_stays_bounded():
    # Unfenced, this one grows without bound (past 1e65 px): held inside the fence, still moving.
    s = SpringsScene(1)
    s.key("8")
    {p.name: p for p in s.parameters()}["damping"].set(1.0)
    assert _run(s, 1500) <= float(np.abs(FENCE).max())
    assert np.abs(s.bobs.velocities).max() > 0.0
    # Said on screen while it lasts, and by a headless run once.
    assert s.hud()[-1] == "speed capped: unstable settings"
    (problem,) = s.problems()
    assert "speed cap (1442 px per frame)" in problem and "stiffness 0.7 with damping 1" in problem
    # Back at the preset's damping the chain comes home by itself and the cap lets go.
    {p.name: p for p in s.parameters()}["damping"].set(0.6)
    _run(s, 200)
    capped = s.capped_frames
    _run(s, 1800)
    assert s.capped_frames == capped
    assert np.linalg.norm(s.bobs.positions - s.anchor, axis=1).max() < 1000.0


def _slider_extremes(rng):
    for preset in range(1, 10):
        for _ in range(6):
            values = {"stiffness": rng.choice([0.0, 1.0, rng.uniform(0, 1)]),
                      "damping": rng.choice([0.0, 1.0, rng.uniform(0.9, 1.0)]),
                      "rest length": rng.choice([0.0, 300.0]),
                      "gravity y": rng.choice([-3.0, 3.0, 0.0]),
                      "mass": rng.choice([0.1, 20.0])}
            toggles = [t for t in TOGGLES if rng.random() < 0.4]
            yield preset, values, toggles


@pytest.mark.slow
def test_fuzz_presets_sliders_and_toggles_stay_bounded():
    rng = np.random.default_rng(9)
    lo, hi = FENCE
    for preset, values, toggles in _slider_extremes(rng):
        s = SpringsScene(int(rng.integers(1000)))
        s.key(str(preset))
        for t in toggles:
            s.key(t)
        for p in s.parameters():
            p.set(values[p.name])
            assert p.lo <= p.get() <= p.hi
        for _ in range(int(rng.integers(0, 40))):  # keys go past the sliders' ends
            s.key(str(rng.choice(["right", "up", "l", "k", "enter"])))
        _run(s, 300)
        x = s.bobs.positions
        assert np.all((x >= lo) & (x <= hi)), (preset, values, toggles)
        # Nothing moves faster than the cap (one frame's step per bob).
        assert np.all(np.hypot(*s.bobs.velocities.T) <= SPEED_LIMIT * (1 + 1e-12))


@pytest.mark.parametrize("preset", [*range(1, 8), *(pytest.param(p, marks=pytest.mark.slow) for p in (8, 9))])
def test_presets_never_meet_the_cap_or_the_fence(preset, monkeypatch):
    # Below the cap the motion is the article's, bit for bit: the same run with neither.
    capped = SpringsScene(3)
    capped.key(str(preset))
    _run(capped, 600)
    monkeypatch.setattr(springs, "SPEED_LIMIT", np.inf)
    monkeypatch.setattr(springs, "FENCE", (np.full(2, -np.inf), np.full(2, np.inf)))
    free = SpringsScene(3)
    free.key(str(preset))
    _run(free, 600)
    assert np.array_equal(capped.bobs.positions, free.bobs.positions)
    assert capped.problems() == [] and "speed capped" not in "".join(capped.hud())


def test_cap_speed_and_fence():
    v = np.array([3.0, 4.0])
    assert not cap_speed(v, 10.0)
    assert v.tolist() == [3.0, 4.0]
    assert cap_speed(v, 1.0)
    assert np.hypot(*v) == pytest.approx(1.0) and v[1] / v[0] == pytest.approx(4 / 3)
    p = Particles.create([[5.0, -20.0], [1.0, 1.0]], [[1.0, -2.0], [1.0, 1.0]])
    fence(p, np.array([0.0, 0.0]), np.array([10.0, 10.0]))
    assert p.positions.tolist() == [[5.0, 0.0], [1.0, 1.0]]
    assert p.velocities.tolist() == [[1.0, 0.0], [1.0, 1.0]]
