"""What both headless render commands (`slime render` for the 3D slime and for a 2D scene) check
the same way before any GL or physics work starts."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from slime.fileio import check_output
from slime.limits import SIZE, span


def check_render_args(output, frames, size) -> tuple[Path, tuple[int, int]]:
    """``output`` a .png or .gif that can be written, ``frames`` a whole number >= 1, ``size``
    whole pixels within limits.SIZE per side; returns (path, (width, height)). Anything else raises a
    one-line ValueError, so no file is started."""
    path = check_output(output, (".png", ".gif"))
    if isinstance(frames, bool) or not isinstance(frames, (int, np.integer)) or frames < 1:
        raise ValueError(f"frames must be a whole number >= 1, got {frames!r}")
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height), got {size!r}") from None
    low, high = SIZE
    if not (low <= width <= high and low <= height <= high) or (width, height) != tuple(size):
        raise ValueError(f"size must be whole pixels from {span(SIZE)} per side, got {size!r}")
    return path, (width, height)


class ProgressBar:
    """A one-line bar on stderr for long renders (30 frames or more), redrawn in place when it
    grows; silent when stderr is not a terminal, where carriage returns would only fill a log."""

    def __init__(self, total: int, enabled: bool, label: str = "rendering"):
        self.total, self.label = total, label
        self.enabled = enabled and total >= 30 and sys.stderr.isatty()
        self.shown = -1

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        filled = 30 * done // self.total
        if filled == self.shown and done != self.total:
            return
        self.shown = filled
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total}")
        if done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()
