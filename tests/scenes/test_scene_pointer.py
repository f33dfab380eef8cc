"""The 2D scenes' pointer: every scene's mouse handlers take a checked point (``base.pointer``), so
a script that sends NaN, inf or 1e308 gets one ValueError, and any mix of clicks, drags, keys and
sliders leaves every scene finite."""

from __future__ import annotations

import numpy as np
import pytest

from slime.scenes import SCENES, load_scene
from slime.scenes.base import POINTER_REACH, DrawList, Scene2D, pointer


def test_pointer_takes_two_finite_numbers_within_reach():
    assert pointer((1, 2.5)) == (1.0, 2.5)
    assert pointer(np.array([-3.0, 4.0])) == (-3.0, 4.0)
    assert pointer((POINTER_REACH, -POINTER_REACH)) == (POINTER_REACH, -POINTER_REACH)
    for bad in [(np.nan, 0.0), (0.0, np.inf), (1e308, 0.0), (0.0, -2 * POINTER_REACH), (1.0,), (1, 2, 3), "xy", None]:
        with pytest.raises(ValueError, match="pointer"):
            pointer(bad)


def test_a_students_scene_gets_checked_points_without_asking():
    class Dots(Scene2D):
        def __init__(self):
            self.clicks = []

        def step(self):
            pass

        def positions(self):
            return np.array(self.clicks, dtype=np.float64).reshape(-1, 2)

        def draw_list(self):
            return DrawList()

        def mouse_press(self, xy, button):
            self.clicks.append(xy)

    class MoreDots(Dots):  # an override of an override is checked too, once
        def mouse_press(self, xy, button):
            super().mouse_press(xy, button)

    for scene in (Dots(), MoreDots()):
        scene.mouse_press(np.array([1.0, 2.0]), "left")
        with pytest.raises(ValueError, match="pointer must be finite"):
            scene.mouse_press((float("nan"), 0.0), "left")
        assert scene.clicks == [(1.0, 2.0)]


_ODD = (0.0, 1e308, -1e308, float("nan"), float("inf"), 1e-300, 5.0, -3.0, 1e6)
_KEYS = ("left", "right", "up", "down", "space", "z", "x", "r", "g", "s", "q", "c", "d", "1", "9", "backspace",
         "enter", "ctrl+s", "nonsense")


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("name", sorted(SCENES))
@pytest.mark.parametrize("seed", range(3))
def test_any_input_leaves_every_scene_finite(name, seed, tmp_path, monkeypatch):
    """150 frames of random input to each built-in scene, odd numbers among ordinary points:
    a pointer it refuses is a ValueError, and after every frame every point is finite, drawn
    and framed without a warning."""
    monkeypatch.chdir(tmp_path)  # ctrl+s in soda saves its model into ./out/
    rng = np.random.default_rng(seed)
    scene = load_scene(name)
    params = scene.parameters()
    number = lambda: float(_ODD[rng.integers(len(_ODD))]) if rng.random() < 0.2 else float(rng.normal() * 3.0)  # noqa: E731
    refused = 0
    for _ in range(150):
        xy, button, r = (number(), number()), ("left", "right", "middle")[rng.integers(3)], rng.random()
        try:
            if r < 0.15:
                scene.mouse_press(xy, button)
            elif r < 0.3:
                scene.mouse_drag(xy, button)
            elif r < 0.4:
                scene.mouse_release(xy, button)
            elif r < 0.5:
                scene.mouse_move(xy)
            elif r < 0.6:
                scene.key(_KEYS[rng.integers(len(_KEYS))])
            elif r < 0.65:
                scene.key_up(_KEYS[rng.integers(len(_KEYS))])
            elif r < 0.72 and params:
                slider = params[rng.integers(len(params))]
                slider.set((slider.lo, slider.hi, 0.5 * (slider.lo + slider.hi))[rng.integers(3)])
            elif r < 0.74:
                scene.reset()
        except ValueError as error:
            refused += 1
            assert "pointer" in str(error), str(error)
        scene.step()
        assert np.isfinite(np.asarray(scene.positions(), dtype=np.float64)).all()
        assert isinstance(scene.draw_list(), DrawList)
        assert np.isfinite(scene.view_bounds()).all()
    assert refused > 0  # the odd points were sent
