"""Stand-ins the tests share: a small 2D scene that exercises every part of the Scene2D protocol."""

from __future__ import annotations

import numpy as np

from slime.scenes.base import DrawList, Param, Scene2D

WHITE = (1.0, 1.0, 1.0, 1.0)
RED = (0.85, 0.15, 0.15, 1.0)
GREEN = (0.1, 0.6, 0.2, 1.0)
BLUE = (0.15, 0.3, 0.85, 1.0)
DARK = (0.1, 0.1, 0.12, 1.0)


class DemoScene(Scene2D):
    """Three masses on two springs above a floor box, an outlined box, a dashed spring; a mass
    bobs with the step count (so every frame differs) and each left click adds a red disc."""
    background = WHITE  # the renderer's tests draw on white, whatever the scenes' theme

    name = "demo"
    title = "slime demo scene"
    bounds = (0.0, 0.0, 10.0, 10.0)
    help_lines = ["left click: add a mass", "r: reset"]
    keys = ("r",)

    def __init__(self, y_down: bool = False, hud_lines=None):
        self.y_down = y_down
        self.hud_lines = ["demo scene", "masses: 3"] if hud_lines is None else hud_lines
        self.reset()
        self.gain = 1.0
        self.keys: list[str] = []

    def reset(self) -> None:
        self.frame = 0
        self.clicks: list[tuple[float, float]] = []

    def step(self) -> None:
        self.frame += 1

    def positions(self) -> np.ndarray:
        bob = 7.0 + 0.5 * np.sin(0.2 * self.frame)
        return np.array([[2.0, 5.0], [5.0, 5.0], [8.0, bob]])

    def springs(self) -> np.ndarray:
        return np.array([[0, 1], [1, 2]])

    def draw_list(self) -> DrawList:
        dl = DrawList()
        p = self.positions()
        dl.add_boxes([(0.0, 0.0)], [(10.0, 1.0)], BLUE, filled=True)
        dl.add_boxes([(0.5, 7.5)], [(3.5, 9.5)], DARK, filled=False)
        dl.add_lines(p[[0, 1], :], p[[1, 2], :], GREEN)
        dl.add_lines([(1.0, 2.5)], [(9.0, 2.5)], DARK, dashed=True)
        dl.add_circles(p, 0.4, RED, filled=True)
        dl.add_circles([(8.0, 3.8)], 0.6, BLUE, filled=False)
        if self.clicks:
            dl.add_circles(self.clicks, 0.5, RED, filled=True)
        return dl

    def hud(self) -> list[str]:
        return list(self.hud_lines)

    def parameters(self) -> list[Param]:
        return [Param("gain", lambda: self.gain, lambda v: setattr(self, "gain", v), 0.0, 2.0)]

    def key(self, name: str) -> None:
        self.keys.append(name)
        if name == "r":
            self.reset()

    def mouse_press(self, xy, button: str) -> None:
        if button == "left":
            self.clicks.append((float(xy[0]), float(xy[1])))
