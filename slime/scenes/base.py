"""The protocol every 2D scene implements (numpy only: no GL, no windows).

A scene is state plus rules. The window (slime/app/scene_window.py) and the headless commands
(`slime simulate NAME`, `slime render NAME`) drive any scene through this protocol alone:

- time: ``step()`` advances one frame (the scene decides its own substeps and dt).
- recording: ``positions()`` (P, 2), ``springs()`` (S, 2) int pairs, ``alive()`` (S,) bool.
  Particle and spring counts may change between frames in interactive scenes; headless runs keep them fixed.
- drawing: ``draw_list()`` returns a DrawList in world coordinates; ``bounds`` is the scene's world
  rectangle and ``view_bounds()`` the part of it shown this frame (the bounds, unless the scene
  frames a moving subject: the falling slinky, the walker); ``y_down`` says whether world y grows
  downward (the pixel-coordinate programs: the Spring simulation article, the Computer Seminar chapter, the box game) or
  upward (Soda). The renderer flips as needed. Colours and the background come from
  :mod:`slime.theme`; ``stroke`` (world units, 0 for the theme's pixel width) widens
  the springs of a scene that is drawn zoomed in.
- input, in world coordinates: ``key(name)`` on press and ``key_up(name)`` on release, with names
  'a'..'z', '0'..'9', 'left', 'right', 'up', 'down', 'space', 'enter', 'backspace', 'tab',
  'escape' (the window handles escape, h and p itself), and modifiers prefixed as 'ctrl+s';
  ``mouse_move(xy)``, ``mouse_press(xy, button)``, ``mouse_drag(xy, button)``,
  ``mouse_release(xy, button)`` with button 'left' | 'right' | 'middle'; ``held`` keys are available
  to the scene through its own key/key_up bookkeeping. A handler is handed ``xy`` as two finite
  floats within ``POINTER_REACH`` of the origin (``pointer``, applied to every subclass's handlers):
  a caller that sends anything else gets a ValueError before the scene sees it.
- panel: ``parameters()`` lists sliders (Param); ``hud()`` lists text lines shown on screen;
  ``help_lines`` describes every key and mouse action for the help overlay; ``keys`` names every
  key ``key()`` / ``key_up()`` acts on (the window gives its own letters, h for help and p for a
  screenshot, to a scene that names them there, and keeps F1 / F12 for itself).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from slime.draw_list import Color, DrawList
from slime import theme

@dataclass
class Param:
    """A live slider: ``get()`` reads, ``set(value)`` writes, within [lo, hi]."""

    name: str
    get: Callable[[], float]
    set: Callable[[float], None]
    lo: float
    hi: float


POINTER_REACH = 1.0e6  # world units: the farthest a pointer may be from the origin (the scenes span 1 to 1000)


def pointer(xy) -> tuple[float, float]:
    """A pointer's world point as two floats, or one ValueError: two finite numbers within
    +-``POINTER_REACH``. The windows only ever send points in view; a script may send anything,
    and a point past the float's square root would overflow every distance a scene takes."""
    try:
        x, y = (float(v) for v in np.asarray(xy, dtype=np.float64).reshape(2))
    except (TypeError, ValueError):
        raise ValueError(f"a pointer is two numbers (x, y), got {xy!r}") from None
    if not (math.isfinite(x) and math.isfinite(y) and abs(x) <= POINTER_REACH and abs(y) <= POINTER_REACH):
        raise ValueError(f"a pointer must be finite and within {POINTER_REACH:g} of the origin, got {xy!r}")
    return x, y


def _checks_pointer(handler):
    """``handler`` with its point checked by ``pointer`` first."""
    @functools.wraps(handler)
    def checked(self, xy, *args, **kwargs):
        return handler(self, pointer(xy), *args, **kwargs)

    checked.checks_pointer = True
    return checked


class Scene2D:
    """Base class with do-nothing input handlers; scenes override what they use."""

    def __init_subclass__(cls, **kwargs):
        # Every scene's pointer handlers take a checked point (``pointer``): each scene, and each
        # student's, is then written for the points a window sends, not for NaN or 1e308.
        super().__init_subclass__(**kwargs)
        for name in ("mouse_move", "mouse_press", "mouse_drag", "mouse_release"):
            handler = cls.__dict__.get(name)
            if handler is not None and not getattr(handler, "checks_pointer", False):
                setattr(cls, name, _checks_pointer(handler))

    name: str = "scene"
    title: str = "scene"
    # World rectangle (xmin, ymin, xmax, ymax) the camera shows.
    bounds: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)
    y_down: bool = False
    background: Color = theme.BACKGROUND
    stroke: float = 0.0  # springs' width in world units when wider than the theme's LINE_PX
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

    def headless(self) -> None:
        """Called once before a headless run (``slime render``, ``slime simulate``) records or draws
        anything: a scene may set itself up to show itself best with no one at the controls."""

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

    def view_bounds(self) -> tuple[float, float, float, float]:
        """The world rectangle shown this frame (the window maps the mouse with it too)."""
        return tuple(self.bounds)

    def hud(self) -> list[str]:
        return []

    def parameters(self) -> list[Param]:
        return []

    def key(self, name: str) -> None:
        pass

    def key_up(self, name: str) -> None:
        pass

    @_checks_pointer
    def mouse_move(self, xy) -> None:
        pass

    @_checks_pointer
    def mouse_press(self, xy, button: str) -> None:
        pass

    @_checks_pointer
    def mouse_drag(self, xy, button: str) -> None:
        pass

    @_checks_pointer
    def mouse_release(self, xy, button: str) -> None:
        pass


def drawing_of(scene: Scene2D) -> DrawList:
    """``scene.draw_list()``, checked: a scene (a user's file, say) that gives anything but a
    DrawList is told so in one line, rather than failing inside the renderer."""
    drawn = scene.draw_list()
    if not isinstance(drawn, DrawList):
        raise ValueError(f"scene {getattr(scene, 'name', type(scene).__name__)!r}: draw_list() gave "
                         f"{type(drawn).__name__}, not a DrawList (slime/scenes/base.py)")
    return drawn


def contain(view, box, margin: float = 0.0) -> tuple[float, float, float, float]:
    """``view`` (xmin, ymin, xmax, ymax) moved the least, keeping its size, so that ``box`` grown by
    ``margin`` on every side lies inside it; along an axis where it cannot, centred on the box. A
    camera that only moves when its subject reaches the edge: nothing jumps, and a still subject
    leaves the picture still."""
    out = list(view)
    for axis in (0, 1):
        lo, hi = box[axis] - margin, box[axis + 2] + margin
        vlo, vhi = view[axis], view[axis + 2]
        if hi - lo > vhi - vlo:
            shift = 0.5 * (lo + hi) - 0.5 * (vlo + vhi)
        elif lo < vlo:
            shift = lo - vlo
        elif hi > vhi:
            shift = hi - vhi
        else:
            shift = 0.0
        out[axis], out[axis + 2] = vlo + shift, vhi + shift
    return tuple(float(v) for v in out)


def extent(points: np.ndarray, radius=0.0) -> tuple[float, float, float, float]:
    """The rectangle around ``points`` (N, 2) and their discs of ``radius``; finite points only."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (len(points),))
    ok = np.all(np.isfinite(points), axis=1) & np.isfinite(r)
    if not ok.any():
        return (0.0, 0.0, 0.0, 0.0)
    lo = (points[ok] - r[ok, None]).min(axis=0)
    hi = (points[ok] + r[ok, None]).max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


class Follow:
    """A camera on a moving subject, for scenes whose subject leaves or shrinks inside its bounds.

    The view keeps the aspect of ``bounds``; its size is ``zoom`` times theirs, easing (``rate`` per
    frame) toward the subject's extent times ``grow``, never under ``smallest`` (and zooming out at
    once when the subject would not fit); then it moves the least that keeps the subject inside
    (``contain``), and, given ``inside``, stays within that rectangle where it can.
    """

    def __init__(self, bounds, *, grow: float = 1.5, smallest: float = 0.4, rate: float = 0.05, inside=None):
        self.grow, self.smallest, self.rate, self.inside = grow, smallest, rate, inside
        self.reset(bounds)

    def reset(self, bounds) -> None:
        self.bounds = tuple(float(v) for v in bounds)
        self.zoom = 1.0
        self.view = self.bounds

    def update(self, box) -> tuple[float, float, float, float]:
        bw, bh = self.bounds[2] - self.bounds[0], self.bounds[3] - self.bounds[1]
        need = max((box[2] - box[0]) / bw, (box[3] - box[1]) / bh)
        target = max(need * self.grow, self.smallest)
        self.zoom = max(self.zoom + self.rate * (target - self.zoom), need)
        cx, cy = 0.5 * (self.view[0] + self.view[2]), 0.5 * (self.view[1] + self.view[3])
        hw, hh = 0.5 * self.zoom * bw, 0.5 * self.zoom * bh
        view = contain((cx - hw, cy - hh, cx + hw, cy + hh), box)
        if self.inside is not None and self.zoom < 1.0:
            view = _within(view, self.inside)
        self.view = view
        return view


def _within(view, outer) -> tuple[float, float, float, float]:
    """``view`` moved the least to lie within ``outer`` (it is smaller on both axes)."""
    out = list(view)
    for axis in (0, 1):
        shift = max(outer[axis] - view[axis], 0.0) + min(outer[axis + 2] - view[axis + 2], 0.0)
        out[axis], out[axis + 2] = view[axis] + shift, view[axis + 2] + shift
    return tuple(float(v) for v in out)


__all__ = ["Color", "DrawList", "Param", "Scene2D", "Follow", "contain", "extent"]
