"""What both headless render commands (`slime render` for the 3D slime and for a 2D scene) check
the same way before any GL or physics work starts."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from slime.render.images import OUTPUT_SUFFIXES

MAX_SIDE = 8192  # pixels per side: far past any screen, short of GL's texture limits


def check_output(output, frames, size) -> tuple[Path, tuple[int, int]]:
    """``output`` a .png, .gif, .mp4 or .webm in a folder that exists, ``frames`` a whole number >= 1,
    ``size`` whole pixels 1..MAX_SIDE per side; returns (path, (width, height)). Anything else
    raises a one-line ValueError, so no file is started."""
    path = Path(output)
    if path.suffix.lower() not in OUTPUT_SUFFIXES:
        raise ValueError(f"output must end with {', '.join(OUTPUT_SUFFIXES)}, got {str(output)!r}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"output folder {str(folder)!r} does not exist")
    if isinstance(frames, bool) or not isinstance(frames, (int, np.integer)) or frames < 1:
        raise ValueError(f"frames must be a whole number >= 1, got {frames!r}")
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height), got {size!r}") from None
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or (width, height) != tuple(size):
        raise ValueError(f"size must be whole pixels from 1 to {MAX_SIDE} per side, got {size!r}")
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
