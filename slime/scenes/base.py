"""The protocol every 2D scene implements (numpy only: no GL, no windows).

A scene is state plus rules. The window (slime/app/scene_window.py) and the headless commands
(`slime simulate NAME`, `slime render NAME`) drive any scene through this protocol alone:

- time: ``step()`` advances one frame (the scene decides its own substeps and dt).
- recording: ``positions()`` (P, 2), ``springs()`` (S, 2) int pairs, ``alive()`` (S,) bool.
  Particle and spring counts may change between frames in interactive scenes; headless runs keep them fixed.
- drawing: ``draw_list()`` returns a DrawList in world coordinates; ``bounds`` is the world
  rectangle to show, ``y_down`` says whether world y grows downward (the pixel-coordinate seeds 001,
  003, 004) or upward (Soda). The renderer flips as needed.
- input, in world coordinates: ``key(name)`` on press and ``key_up(name)`` on release, with names
  'a'..'z', '0'..'9', 'left', 'right', 'up', 'down', 'space', 'enter', 'backspace', 'tab',
  'escape' (the window handles escape, h and p itself), and modifiers prefixed as 'ctrl+s';
  ``mouse_move(xy)``, ``mouse_press(xy, button)``, ``mouse_drag(xy, button)``,
  ``mouse_release(xy, button)`` with button 'left' | 'right' | 'middle'; ``held`` keys are available
  to the scene through its own key/key_up bookkeeping.
- panel: ``parameters()`` lists sliders (Param); ``hud()`` lists text lines shown on screen;
  ``help_lines`` describes every key and mouse action for the help overlay; ``keys`` names every
  key ``key()`` / ``key_up()`` acts on (the window gives its own letters, h for help and p for a
  screenshot, to a scene that names them there, and keeps F1 / F12 for itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from slime.draw_list import Color, DrawList

@dataclass
class Param:
    """A live slider: ``get()`` reads, ``set(value)`` writes, within [lo, hi]."""

    name: str
    get: Callable[[], float]
    set: Callable[[float], None]
    lo: float
    hi: float


class Scene2D:
    """Base class with do-nothing input handlers; scenes override what they use."""

    name: str = "scene"
    title: str = "scene"
    # World rectangle (xmin, ymin, xmax, ymax) the camera shows.
    bounds: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)
    y_down: bool = False
    background: Color = (1.0, 1.0, 1.0, 1.0)
    help_lines: list[str] = []
    keys: tuple[str, ...] = ()  # protocol key names this scene acts on (see the module docstring)
    # True: the window and the pictures keep a strip above the world for the HUD (a scene whose world fills
    # its bounds, like Soda's box); False: the HUD is drawn over the world's top-left corner.
    hud_above: bool = False

    def step(self) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        pass

    def problems(self) -> list[str]:
        """What went wrong in the run so far that a headless run should report (one line each)."""
        return []

    def unattended(self, frame: int) -> None:
        """Called before each step of a headless run (``slime render``, ``slime simulate``), where
        no one holds the mouse: a scene driven by the mouse can move its own hand here."""

    def positions(self) -> np.ndarray:
        raise NotImplementedError

    def springs(self) -> np.ndarray:
        return np.zeros((0, 2), dtype=np.int64)

    def alive(self) -> np.ndarray:
        return np.ones(self.springs().shape[0], dtype=bool)

    def draw_list(self) -> DrawList:
        raise NotImplementedError

    def hud(self) -> list[str]:
        return []

    def parameters(self) -> list[Param]:
        return []

    def key(self, name: str) -> None:
        pass

    def key_up(self, name: str) -> None:
        pass

    def mouse_move(self, xy) -> None:
        pass

    def mouse_press(self, xy, button: str) -> None:
        pass

    def mouse_drag(self, xy, button: str) -> None:
        pass

    def mouse_release(self, xy, button: str) -> None:
        pass


__all__ = ["Color", "DrawList", "Param", "Scene2D"]
