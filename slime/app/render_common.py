"""What both headless render commands (`slime render` for the 3D slime and for a 2D scene) check
the same way before any GL or physics work starts."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
from tqdm import tqdm

from slime.fileio import check_output
from slime.limits import SIZE, span
from slime.render.images import OUTPUT_SUFFIXES


def check_render_args(output, frames, size) -> tuple[Path, tuple[int, int]]:
    """``output`` a .png, .gif, .mp4 or .webm that can be written, ``frames`` a whole number >= 1, ``size``
    whole pixels within limits.SIZE per side; returns (path, (width, height)). Anything else raises a
    one-line ValueError, so no file is started."""
    path = check_output(output, OUTPUT_SUFFIXES)
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


MIN_PROGRESS_FRAMES = 30  # a shorter render is over before a bar would tell anything


def progress_bar(total: int, enabled: bool, label: str = "rendering") -> tqdm:
    """A tqdm bar on stderr for long renders (MIN_PROGRESS_FRAMES or more), redrawn in place; a
    silent one when disabled or when stderr is not a terminal, where carriage returns would only
    fill a log. Use as a context manager, ``bar.update(1)`` per frame."""
    shown = enabled and total >= MIN_PROGRESS_FRAMES and sys.stderr.isatty()
    # The terminal's size from shutil, which falls back to 80x24 where a terminal reports 0x0 (tqdm
    # would then draw nothing at all).
    columns, lines = shutil.get_terminal_size()
    return tqdm(total=total, desc=label, unit="frame", file=sys.stderr, disable=not shown, leave=True,
                ncols=columns, nrows=lines)
