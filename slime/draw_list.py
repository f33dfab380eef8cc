"""What a 2D scene asks to have drawn in one frame: discs, segments and boxes in world coordinates.

Numpy only. Scenes (slime/scenes) fill it; the 2D renderer (slime/render/draw2d.py) draws it;
neither depends on the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Color = tuple[float, float, float, float]


def _empty(shape) -> np.ndarray:
    return np.zeros(shape, dtype=np.float64)


@dataclass
class DrawList:
    """What to draw this frame, in world coordinates. Colours are RGBA in 0..1."""

    circle_centers: np.ndarray = field(default_factory=lambda: _empty((0, 2)))
    circle_radii: np.ndarray = field(default_factory=lambda: _empty((0,)))
    circle_colors: np.ndarray = field(default_factory=lambda: _empty((0, 4)))
    # Filled discs are drawn solid, others as rings.
    circle_filled: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    line_segments: np.ndarray = field(default_factory=lambda: _empty((0, 2, 2)))
    line_colors: np.ndarray = field(default_factory=lambda: _empty((0, 4)))
    # Dashed segments (exercise 7-1's dotted springs): one flag per segment.
    line_dashed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    box_corners: np.ndarray = field(default_factory=lambda: _empty((0, 2, 2)))  # (B, [min, max], 2)
    box_colors: np.ndarray = field(default_factory=lambda: _empty((0, 4)))
    box_filled: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def add_circles(self, centers, radii, color: Color, filled: bool = False) -> None:
        centers = np.asarray(centers, dtype=np.float64).reshape(-1, 2)
        k = centers.shape[0]
        self.circle_centers = np.concatenate([self.circle_centers, centers])
        self.circle_radii = np.concatenate([self.circle_radii, np.broadcast_to(np.asarray(radii, float), (k,))])
        self.circle_colors = np.concatenate([self.circle_colors, _colors(color, k)])
        self.circle_filled = np.concatenate([self.circle_filled, np.full(k, filled)])

    def add_lines(self, starts, ends, color: Color, dashed: bool = False) -> None:
        segments = _pairs(starts, ends)
        self.line_segments = np.concatenate([self.line_segments, segments])
        self.line_colors = np.concatenate([self.line_colors, _colors(color, len(segments))])
        self.line_dashed = np.concatenate([self.line_dashed, np.full(len(segments), dashed)])

    def add_boxes(self, mins, maxs, color: Color, filled: bool = True) -> None:
        corners = _pairs(mins, maxs)
        self.box_corners = np.concatenate([self.box_corners, corners])
        self.box_colors = np.concatenate([self.box_colors, _colors(color, len(corners))])
        self.box_filled = np.concatenate([self.box_filled, np.full(len(corners), filled)])

    def extend(self, other: "DrawList") -> "DrawList":
        """Append ``other``'s shapes (drawn after this list's own of the same kind); returns self."""
        for name in self.__dataclass_fields__:
            setattr(self, name, np.concatenate([getattr(self, name), getattr(other, name)]))
        return self


def _pairs(first, second) -> np.ndarray:
    """Two lists of points (k, 2) -> k pairs (k, 2, 2)."""
    first = np.asarray(first, dtype=np.float64).reshape(-1, 2)
    second = np.asarray(second, dtype=np.float64).reshape(-1, 2)
    return np.stack([first, second], axis=1)


def _colors(color, k: int) -> np.ndarray:
    c = np.asarray(color, dtype=np.float64)
    if c.ndim == 1:
        c = np.broadcast_to(c, (k, 4))
    return np.array(c, dtype=np.float64).reshape(k, 4)
