"""What both headless render commands (`slime render` for the 3D slime and for a 2D scene) check
the same way before any GL or physics work starts."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

MAX_SIDE = 8192  # pixels per side: far past any screen, short of GL's texture limits
# Pixels per picture: a 4096x4096 frame. The slime's headless frame holds about 40 bytes a pixel
# (4x multisampled colour, its resolve, the backdrop texture and its copy, the read-back), so
# this bounds one render at about 0.7 GB; 8192x8192 would take 3 GB.
MAX_PIXELS = 4096 * 4096


def check_size(size) -> tuple[int, int]:
    """``size`` as whole (width, height) pixels within MAX_SIDE per side and MAX_PIXELS in all,
    or a one-line ValueError."""
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height), got {size!r}") from None
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or (width, height) != tuple(size):
        raise ValueError(f"size must be whole pixels from 1 to {MAX_SIDE} per side, got {size!r}")
    if width * height > MAX_PIXELS:
        raise ValueError(f"size {width}x{height} is {width * height / 1e6:.1f} megapixels; at most "
                         f"{MAX_PIXELS / 1e6:.1f} (4096x4096) fit in memory")
    return width, height


def check_gl_size(ctx, size) -> None:
    """A one-line ValueError where this machine's OpenGL cannot draw a ``size`` picture (above
    GL_MAX_RENDERBUFFER_SIZE or GL_MAX_TEXTURE_SIZE per side)."""
    info = ctx.info
    for name in ("GL_MAX_RENDERBUFFER_SIZE", "GL_MAX_TEXTURE_SIZE"):
        limit = int(info.get(name) or 0)
        if limit and max(int(size[0]), int(size[1])) > limit:
            raise ValueError(f"size {int(size[0])}x{int(size[1])} is larger than this OpenGL allows "
                             f"({name} = {limit} pixels per side)")


def check_output(output, frames, size) -> tuple[Path, tuple[int, int]]:
    """``output`` a .png or .gif in a folder that exists, ``frames`` a whole number >= 1, ``size``
    within ``check_size``'s bounds; returns (path, (width, height)). Anything else raises a
    one-line ValueError, so no file is started."""
    path = Path(output)
    if path.suffix.lower() not in (".png", ".gif"):
        raise ValueError(f"output must end with .png or .gif, got {str(output)!r}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"output folder {str(folder)!r} does not exist")
    if isinstance(frames, bool) or not isinstance(frames, (int, np.integer)) or frames < 1:
        raise ValueError(f"frames must be a whole number >= 1, got {frames!r}")
    return path, check_size(size)


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
