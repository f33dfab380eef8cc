"""Exercise 7-1: springs drawn as dotted lines.

Part of the Computer Seminar chapter's scenes (see the package's docstring)."""

from __future__ import annotations

import numpy as np

from slime.physics.mass_spring.collide2d import BOX_FLOOR, box_planes
from slime import theme
from slime.scenes.base import DrawList
from slime.scenes.sandbox.base import SpringMassScene


def dots_along(starts: np.ndarray, ends: np.ndarray, spacing: float) -> np.ndarray:
    """Centres of dots along each segment: the segment cut into pieces about ``spacing`` long and
    one dot in the middle of each piece (at least one per segment). Vectorised over segments."""
    gap = ends - starts
    length = np.sqrt(np.einsum("ij,ij->i", gap, gap))
    pieces = np.maximum(1, np.ceil(length / spacing).astype(np.int64))
    owner = np.repeat(np.arange(len(pieces)), pieces)
    first = np.cumsum(pieces) - pieces
    index_in_segment = np.arange(owner.size) - first[owner]
    t = (index_in_segment + 0.5) / pieces[owner]
    return starts[owner] + t[:, None] * gap[owner]


class Dotted(SpringMassScene):
    """Exercise 7-1: the chapter's first program (simple_main) with springs drawn as dotted lines."""

    name = "dotted"
    title = "dotted springs (exercise 7-1)"
    help_lines = ["left / right: dots closer / further apart"]
    keys = ("left", "right")
    DOT_SPACING = 8.0

    def __init__(self):
        # simple_main's gravity 0.5; it walls only the right and the floor, the chapter suggests
        # adding the others the same way, and here all four keep everything on screen.
        super().__init__(gravity=(0.0, 0.5), walls=box_planes(600.0, 400.0, y_down=True), sink_fix=BOX_FLOOR)
        self.dot_spacing = self.DOT_SPACING
        self.add_mass((100.0, 200.0), (10.0, -15.0))
        p1 = self.add_mass((300.0, 100.0))
        p2 = self.add_mass((400.0, 120.0))
        self.add_spring(p1, p2, 0.01, 20.0)
        p3 = self.add_mass((350.0, 50.0), fixed=True)
        p4 = self.add_mass((450.0, 80.0))
        self.add_spring(p3, p4, 0.01, 20.0)
        # And two chains of five hanging from fixed masses, so there are plenty of dots to see.
        for top, side in (((150.0, 30.0), 1.0), ((500.0, 30.0), -1.0)):
            previous = self.add_mass(top, fixed=True)
            for k in range(1, 6):
                new = self.add_mass((top[0] + side * 30.0 * k, top[1] + 20.0 * k))
                self.add_spring(previous, new, 0.02, 30.0)
                previous = new

    def draw_springs(self, d: DrawList) -> None:
        starts, ends = self.spring_segments()
        if len(starts):
            d.add_circles(dots_along(starts, ends, self.dot_spacing), 3.0, theme.INK, filled=True)

    def key(self, name: str) -> None:
        if name in ("left", "right"):
            self.dot_spacing = float(np.clip(self.dot_spacing + (-2.0 if name == "left" else 2.0), 2.0, 40.0))


def make_dotted() -> Dotted:
    return Dotted()


# --- exercise 7-2: forced oscillation near and far from resonance -----------------------------
