"""Headless simulation to .npz: the slime (3D) or any 2D scene, recorded every tick.

Output arrays (load with ``np.load(path)``):
- slime: ``positions (N+1, P, 3)``, ``triangles (M, 3)``, ``volume (N+1,)`` (the engine's
  slice-integrated volume), ``time (N+1,)``.
- 2D scenes: ``positions (N+1, P, 2)``, ``springs (S, 2)``, ``alive (N+1, S)``, ``time (N+1,)``.
Row 0 is the initial state; row k is the state after k ticks.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from slime.fileio import atomic_write


class UsageError(ValueError):
    """Bad command-line input; the message is one line for the user."""


@dataclass(frozen=True)
class Poke:
    """At frame ``tick``, push the slime at ``point`` with ``force`` (world units)."""

    tick: int
    point: tuple[float, float, float]
    force: tuple[float, float, float]


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


def parse_poke(text: str) -> Poke:
    """``TICK:X,Y,Z:FX,FY,FZ`` -> Poke."""
    parts = text.split(":")
    if len(parts) != 3:
        raise UsageError(f"malformed --poke {text!r}: expected TICK:X,Y,Z:FX,FY,FZ")
    try:
        tick = int(parts[0])
    except ValueError:
        raise UsageError(f"malformed --poke {text!r}: TICK must be a whole number") from None
    if tick < 0:
        raise UsageError(f"malformed --poke {text!r}: TICK must be 0 or more")
    return Poke(tick, _floats(parts[1], f"--poke {text!r} point", 3), _floats(parts[2], f"--poke {text!r} force", 3))


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` -> (W, H)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"malformed --size {text!r}: expected WxH, e.g. 800x600") from None
    from slime.app.render_common import check_size

    try:
        return check_size((w, h))
    except ValueError as exc:
        raise UsageError(f"--size {text!r} out of range: {exc}") from None


def parse_camera(text: str) -> tuple[float, float, float]:
    """``AZIMUTH,ELEVATION,DISTANCE`` in degrees and world units."""
    az, el, dist = _floats(text, "--camera", 3)
    if dist <= 0:
        raise UsageError(f"--camera distance must be positive, got {dist}")
    from slime.render.camera import ELEVATION_RANGE

    low, high = ELEVATION_RANGE
    if not low <= el <= high:
        raise UsageError(f"--camera elevation must be from {low:g} to {high:g} degrees (the camera stays above "
                         f"the floor), got {el:g}")
    return az, el, dist


def check_output(path: Path, suffixes: Sequence[str]) -> Path:
    """Fail early, before any work, on an output path that cannot be written."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise UsageError(f"{path}: output must end with {' or '.join(suffixes)}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"{path}: folder {folder} is not writable")
    if path.is_dir():
        raise UsageError(f"{path}: is a folder")
    return path


def save_npz_atomic(path: Path, **arrays) -> None:
    """np.savez_compressed, atomically: never a half-written file."""
    atomic_write(path, lambda f: np.savez_compressed(f, **arrays))


def simulate_slime(ticks: int, pokes: Sequence[Poke] = (), stacks: int | None = None, slices: int | None = None,
                   plain_forces: bool = False):
    """Run the slime for ``ticks`` frames; returns the arrays written to the .npz. ``plain_forces``:
    the forces come from slime_forces.py's readable functions (edit them to experiment)."""
    from slime.physics.slime_body import SlimeBody, SlimeParams

    changes = {"plain_forces": bool(plain_forces)}
    if stacks is not None:
        changes["stacks"] = stacks
    if slices is not None:
        changes["slices"] = slices
    try:
        params = SlimeParams(**changes)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    body = SlimeBody(params)
    by_tick: dict[int, list[Poke]] = {}
    for poke in pokes:
        by_tick.setdefault(poke.tick, []).append(poke)
    n_points = body.positions.shape[0]
    positions = np.empty((ticks + 1, n_points, 3), dtype=np.float64)
    volume = np.empty(ticks + 1)
    time = np.empty(ticks + 1)
    positions[0], volume[0], time[0] = body.positions, body.volume(), 0.0
    for k in range(ticks):
        for poke in by_tick.get(k, ()):
            body.poke(np.array(poke.point), np.array(poke.force))
        body.step()
        positions[k + 1], volume[k + 1], time[k + 1] = body.positions, body.volume(), (k + 1) * params.dt
    return {"positions": positions, "triangles": body.triangles.astype(np.int32), "volume": volume, "time": time}


def report_problems(scene) -> None:
    """A headless run's warnings (a blown-up tick undone, say): one stderr line each; the run
    still writes its output."""
    for problem in scene.problems():
        print(f"slime: warning: {problem}", file=sys.stderr)


def simulate_scene(name_or_path: str, ticks: int):
    """Run a 2D scene for ``ticks`` frames; returns the arrays written to the .npz."""
    from slime.scenes import load_scene

    scene = load_scene(name_or_path)
    first = np.array(scene.positions(), dtype=np.float64)
    springs = np.array(scene.springs(), dtype=np.int64).reshape(-1, 2)
    positions = np.empty((ticks + 1, *first.shape), dtype=np.float64)
    alive = np.empty((ticks + 1, springs.shape[0]), dtype=bool)
    positions[0], alive[0] = first, scene.alive()
    dt = float(getattr(scene, "dt", 1.0 / 60.0))
    for k in range(ticks):
        scene.unattended(k)
        scene.step()
        positions[k + 1] = scene.positions()
        alive[k + 1] = scene.alive()
    report_problems(scene)
    return {
        "positions": positions,
        "springs": springs.astype(np.int32),
        "alive": alive,
        "time": np.arange(ticks + 1) * dt,
    }
