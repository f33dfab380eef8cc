"""Helpers more than one test file uses: one definition each."""

from __future__ import annotations

import subprocess
import sys

import numpy as np


def jelly(img: np.ndarray) -> np.ndarray:
    """Pixels coloured like the slime's jelly: clearly greener than red (floor and sky are
    grey-blue), and not much bluer than green."""
    rgb = img.astype(int)
    return (rgb[..., 1] - rgb[..., 0] > 45) & (rgb[..., 1] >= rgb[..., 2] - 10)


def run_cli(*args, cwd=None, env=None, timeout=120) -> subprocess.CompletedProcess:
    """``python -m slime ARGS`` in a process of its own; the timeout turns a hang (a FIFO opened
    for reading with no writer) into a failure."""
    return subprocess.run([sys.executable, "-m", "slime", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=timeout)
