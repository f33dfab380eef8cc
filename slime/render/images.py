"""Reading pixels back and writing PNG/GIF files atomically (temp file in the same folder, then rename)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import numpy as np
from PIL import Image

from slime.fileio import atomic_write


def read_rgba(fbo, components: int = 4) -> np.ndarray:
    """The framebuffer's pixels as a read-only (H, W, components) uint8 view, top row first (GL
    reads bottom-up)."""
    w, h = fbo.size
    data = fbo.read(components=components, alignment=1)
    # A flipped view, not a copy: on a software rasteriser the copy of an 800x600 frame costs as
    # much as reading it. Writers make it contiguous when they need to.
    return np.frombuffer(data, dtype=np.uint8).reshape(h, w, components)[::-1]


def save_png(path, pixels: np.ndarray) -> None:
    """Write an (H, W, 3|4) uint8 image as PNG, atomically."""
    image = Image.fromarray(np.ascontiguousarray(pixels))
    atomic_write(Path(path), lambda f: image.save(f, format="PNG"))


GIF_MAX_FPS = 50.0  # GIF delays are whole centiseconds, and players slow anything under 20 ms down


def gif_frame_times(count: int, fps: float) -> np.ndarray:
    """Which of ``count`` frames taken at ``fps`` a GIF keeps so it plays in real time: all of
    them up to 50 fps; above, the frame nearest each 1/50 s (60 Hz drops every sixth)."""
    if fps <= GIF_MAX_FPS:
        return np.arange(count)
    kept = np.round(np.arange(0.0, count * GIF_MAX_FPS / fps) * (fps / GIF_MAX_FPS)).astype(int)
    return np.unique(kept[kept < count])


def save_gif(path, frames: Sequence[np.ndarray], fps: float = 30.0) -> None:
    """Write frames (each (H, W, 3|4) uint8), taken at ``fps`` frames per simulated second, as a
    looping animated GIF that plays in real time (see ``gif_frame_times``), atomically."""
    if not frames:
        raise ValueError("no frames to write")
    if not (math.isfinite(fps) and fps > 0.0):
        raise ValueError(f"fps must be positive, got {fps}")
    frames = [frames[i] for i in gif_frame_times(len(frames), fps)]
    fps = min(fps, GIF_MAX_FPS)
    images = [Image.fromarray(np.ascontiguousarray(f[..., :3])) for f in frames]
    # One shared adaptive palette keeps the slime's gradients from flickering between frames.
    first = images[0].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    paletted = [first] + [im.quantize(palette=first, dither=Image.Dither.NONE) for im in images[1:]]
    duration = int(round(1000.0 / fps))
    atomic_write(
        Path(path),
        lambda f: paletted[0].save(
            f, format="GIF", save_all=True, append_images=paletted[1:], duration=duration, loop=0, disposal=1
        ),
    )
