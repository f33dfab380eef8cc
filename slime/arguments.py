"""What the command line accepts: its value parsers (argparse types and the parsers of --poke,
--size, --camera), each checking against slime/limits.py, each failing with one line."""

from __future__ import annotations

import argparse
import math

from slime.framing import check_view
from slime.limits import FRAMES, MAX_PIXELS, SIZE, range_text
from slime.window_backends import WINDOW_BACKENDS


class UsageError(ValueError):
    """Bad command-line input; the message is one line for the user."""


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be 1 or more")
    return value


def frame_count(text: str) -> int:
    """--frames and --ticks: a whole number within limits.FRAMES."""
    value = positive_int(text)
    if value > FRAMES[1]:
        raise argparse.ArgumentTypeError(f"{text!r} is too many: at most {FRAMES[1]} ({range_text(FRAMES)})")
    return value


def window_backend(text: str) -> str:
    if text == "headless":
        raise argparse.ArgumentTypeError("'headless' opens no window: render pictures with `slime render`")
    if text not in WINDOW_BACKENDS:
        raise argparse.ArgumentTypeError(f"unknown window backend {text!r}; choose from {', '.join(WINDOW_BACKENDS)}")
    return text


def _floats(text: str, what: str, count: int) -> tuple[float, ...]:
    parts = text.split(",")
    if len(parts) != count:
        raise UsageError(f"{what} needs {count} comma-separated numbers, got {text!r}")
    try:
        values = tuple(float(p) for p in parts)
    except ValueError:
        raise UsageError(f"{what} has a value that is not a number: {text!r}") from None
    if not all(math.isfinite(v) for v in values):
        raise UsageError(f"{what} must be finite numbers, got {text!r}")
    return values


def parse_poke(text: str):
    """``TICK:X,Y,Z:FX,FY,FZ`` -> the poke event (``world_format.poke``), named by the text in errors."""
    from slime.scenes.world_format import poke

    parts = text.split(":")
    if len(parts) != 3:
        raise UsageError(f"malformed --poke {text!r}: expected TICK:X,Y,Z:FX,FY,FZ")
    try:
        tick = int(parts[0])
    except ValueError:
        raise UsageError(f"malformed --poke {text!r}: TICK must be a whole number") from None
    if tick < 0:
        raise UsageError(f"malformed --poke {text!r}: TICK must be 0 or more")
    if tick >= FRAMES[1]:
        raise UsageError(f"--poke {text!r}: TICK must be less than {FRAMES[1]}, the most frames a run has")
    return poke(tick, _floats(parts[1], f"--poke {text!r} point", 3), _floats(parts[2], f"--poke {text!r} force", 3),
                where=f"--poke {text!r}")


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` -> (W, H)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"malformed --size {text!r}: expected WxH, e.g. 800x600") from None
    low, high = SIZE
    if not (low <= w <= high and low <= h <= high):
        raise UsageError(f"--size {text!r} out of range: each side must be from {range_text(SIZE)}")
    if w * h > MAX_PIXELS:
        raise UsageError(f"--size {text!r} is {w * h / 1e6:.1f} megapixels; at most {MAX_PIXELS / 1e6:.1f} "
                         "(4096x4096) fit in memory")
    return w, h


def parse_camera(text: str) -> tuple[float, float, float]:
    """``AZIMUTH,ELEVATION,DISTANCE`` in degrees and world units."""
    return check_camera(_floats(text, "--camera", 3), "--camera")


def check_camera(view, name: str = "camera") -> tuple[float, float, float]:
    """(azimuth, elevation, distance) as floats, checked as every view is (``slime.framing.check_view``);
    one UsageError (a ValueError) naming ``name`` otherwise."""
    try:
        return check_view(view, name)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
