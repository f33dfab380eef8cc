"""Frames per second of the slime window itself (``slime bench --window``): the demo at its default
1280x720 with its panel, drawn on whatever OpenGL the display gives (llvmpipe under Xvfb), once
adapting its quality to keep 60 FPS and once pinned at the best quality (4x MSAA, full scale).

Each row is the demo's own measurement after a warm-up (``run_demo(bench_seconds=...)``), taken
in a child process so the window, its GL context and its imgui context go away with it. Without
a DISPLAY the benchmark starts its own Xvfb when one is installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import contextmanager

from slime.app.xvfb import private_xvfb

SIZE = (1280, 720)


@contextmanager
def display():
    """The DISPLAY to open windows on: the one set, else a private Xvfb (None when neither)."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    with private_xvfb("1920x1080x24") as name:
        yield name


def _case(name: str, quality: str, seconds: float) -> dict:
    with display() as where:
        if where is None:
            return {"benchmark": "window", "case": name, "error": "no DISPLAY and no Xvfb to open a window on"}
        env = dict(os.environ, DISPLAY=where)
        env.pop("WAYLAND_DISPLAY", None)
        code = ("from slime.app.demo import run_demo; "
                f"raise SystemExit(run_demo(size={SIZE!r}, quality={quality!r}, bench_seconds={seconds!r}))")
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              timeout=120 + 4 * seconds)
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            return {"benchmark": "window", "case": name, **{k: v for k, v in row.items() if k != "benchmark"}}
    reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return {"benchmark": "window", "case": name, "error": reason}


def run(quick: bool = False) -> list[dict]:
    seconds = 3.0 if quick else 8.0
    return [_case("adaptive", "adaptive", seconds), _case("pinned high", "high", seconds)]


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(json.dumps(row))
