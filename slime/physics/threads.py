"""Threads for a world's forces, opt-in: ``SLIME_THREADS=N`` computes the slimes' forces on N
threads (default 1: serial, as every benchmark and test of speed assumes).

One body's forces read that body alone (its vertices, its rotation, its volume) and write its own
columns of the accelerations, so the bodies are split into N groups of about as many vertices
each, and each group's forces are the same compiled kernel (``slime3d.step.slime_substeps``) run
on a thread of its own; the kernels let go of Python's lock while they run. The numbers are the
same to the bit as a serial step's. The threads wait for each other without spinning, so on a
machine that other work keeps busy they share its cores rather than fight over them (numba's own
``parallel`` threads spin while they wait, and there the step slowed down many times over).

Only a world of several slimes gains: a lone slime is one body, on one thread, and everything
else of a substep (the hand, the integrator, floor, obstacles, contacts) stays serial.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from slime.limits import THREADS

VARIABLE = "SLIME_THREADS"
# The fewest vertices a group of bodies takes a thread for: a smaller group's forces take less
# time than handing them to another thread and back (measured on two cores: four 32 x 32 slimes,
# 4000 vertices, stepped slower on two threads; sixteen, 16 000 vertices, faster).
MIN_GROUP_VERTICES = 4096

_POOLS: dict[int, ThreadPoolExecutor] = {}


def check_threads(value, name: str = VARIABLE) -> int:
    """``value`` as a number of threads, within ``slime.limits.THREADS``; else ValueError naming
    ``name``."""
    text = str(value).strip()
    try:
        count = int(text)
    except ValueError:
        count = None
    if count is None or not THREADS[0] <= count <= THREADS[1]:
        raise ValueError(f"{name}={text!r} is not a number of threads: a whole number from {THREADS[0]} to "
                         f"{THREADS[1]}")
    return count


def threads_from_environment() -> int:
    """The threads ``$SLIME_THREADS`` asks for (1 when it is unset or empty); ValueError for
    anything but a whole number within ``slime.limits.THREADS``."""
    text = os.environ.get(VARIABLE, "").strip()
    return check_threads(text) if text else 1


def pool(threads: int) -> ThreadPoolExecutor:
    """A pool of ``threads`` threads, one for the whole program (worlds come and go)."""
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="slime-forces")
    return _POOLS[threads]


def balanced_groups(counts, groups: int) -> list[tuple[int, int]]:
    """Bodies with ``counts`` vertices each, split into at most ``groups`` runs (first, end) of
    neighbouring bodies, none empty, each with about the same number of vertices (a run ends
    where the running total passes its share) and about ``MIN_GROUP_VERTICES`` at least."""
    counts = np.asarray(counts, dtype=np.int64)
    groups = max(1, min(int(groups), len(counts), int(counts.sum()) // MIN_GROUP_VERTICES))
    if groups == 1:
        return [(0, len(counts))] if len(counts) else []
    # The body at which each run ends: the first whose running total reaches k / groups of the
    # whole, held so that every run keeps at least one body.
    total = np.cumsum(counts)
    ends = np.searchsorted(total, total[-1] * np.arange(1, groups) / groups, side="left") + 1
    bounds = [0]
    for k, end in enumerate(ends):
        least, most = bounds[-1] + 1, len(counts) - (groups - 1 - k)
        bounds.append(int(min(max(end, least), most)))
    bounds.append(len(counts))
    return [(bounds[k], bounds[k + 1]) for k in range(groups)]
