"""What both headless render commands (`slime render` of a 3D scene, the lone slime's included, and
of a 2D scene) check the same way before any GL or physics work starts."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from slime.fileio import check_output
from slime.limits import FRAMES, MAX_PIXELS, SIZE, range_text
from slime.render.images import OUTPUT_SUFFIXES


def check_size(size) -> tuple[int, int]:
    """``size`` as whole (width, height) pixels within limits.SIZE per side and limits.MAX_PIXELS
    in all, or a one-line ValueError."""
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height), got {size!r}") from None
    low, high = SIZE
    if not (low <= width <= high and low <= height <= high) or (width, height) != tuple(size):
        raise ValueError(f"size must be whole pixels from {range_text(SIZE)} per side, got {size!r}")
    if width * height > MAX_PIXELS:
        raise ValueError(f"size {width}x{height} is {width * height / 1e6:.1f} megapixels; at most "
                         f"{MAX_PIXELS / 1e6:.1f} (4096x4096) fit in memory")
    return width, height


def held_to_limits(size) -> tuple[int, int]:
    """``size`` shrunk, keeping its shape, to within limits.SIZE per side and limits.MAX_PIXELS in
    all: what a window resized past them draws and saves at (the window shows it scaled up), so a
    huge window costs no more than the largest picture `slime render` makes."""
    width, height = max(1, int(size[0])), max(1, int(size[1]))
    shrink = min(1.0, SIZE[1] / max(width, height), math.sqrt(MAX_PIXELS / (width * height)))
    return max(1, int(width * shrink)), max(1, int(height * shrink))


def check_gl_size(ctx, size) -> None:
    """A one-line ValueError where this machine's OpenGL cannot draw a ``size`` picture (above
    GL_MAX_RENDERBUFFER_SIZE or GL_MAX_TEXTURE_SIZE per side)."""
    info = ctx.info
    for name in ("GL_MAX_RENDERBUFFER_SIZE", "GL_MAX_TEXTURE_SIZE"):
        limit = int(info.get(name) or 0)
        if limit and max(int(size[0]), int(size[1])) > limit:
            raise ValueError(f"size {int(size[0])}x{int(size[1])} is larger than this OpenGL allows "
                             f"({name} = {limit} pixels per side)")


def headless_context(ctx, size) -> tuple:
    """(context, whether it is ours to release, (width, height)): ``ctx`` as given, or a new
    headless (EGL) one; a ``size`` this GL cannot draw is a one-line ValueError (and a context
    made here is released first)."""
    from slime.render.context import create_headless_context

    size = check_size(size)  # before any context: a size no picture can have is refused at once
    owns = ctx is None
    ctx = ctx or create_headless_context()
    try:
        check_gl_size(ctx, size)
    except ValueError:
        if owns:
            ctx.release()
        raise
    return ctx, owns, size


def check_render_args(output, frames, size) -> tuple[Path, tuple[int, int]]:
    """``output`` a .png, .gif, .mp4 or .webm that can be written, ``frames`` a whole number >= 1,
    ``size`` within ``check_size``'s bounds; returns (path, (width, height)). Anything else raises a
    one-line ValueError, so no file is started."""
    path = check_output(output, OUTPUT_SUFFIXES)
    check_frames(frames)
    return path, check_size(size)


def check_frames(frames) -> int:
    """``frames`` if it is a whole number within ``limits.FRAMES``; a one-line ValueError otherwise."""
    if isinstance(frames, bool) or not isinstance(frames, (int, np.integer)) or not FRAMES[0] <= frames <= FRAMES[1]:
        raise ValueError(f"frames must be a whole number from {range_text(FRAMES)}, got {frames!r}")
    return int(frames)
