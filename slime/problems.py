"""A headless run's warnings: what went wrong in a scene that still finished (a blown-up tick
undone, say), one stderr line each."""

from __future__ import annotations

import sys


def report_problems(scene) -> None:
    """A headless run's warnings (a blown-up tick undone, say): one stderr line each; the run
    still writes its output."""
    for problem in scene.problems():
        print(f"slime: warning: {problem}", file=sys.stderr)
