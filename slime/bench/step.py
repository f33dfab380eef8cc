"""Slime body speed: one physics substep per mesh size against the PhysicalSlime C++ program in
the same run, and (not quick) memory growth over a long run. (A whole frame, every material:
``bench/frame.py``.)

Rows:
  {"benchmark": "step", "stacks", "slices", "vertices", "substeps", "ms_per_step", "cpp_ms", "vs_cpp"}
      one full substep (every force, gravity, floor, adhesion, integrate) of a body resting on the
      floor: a frame (``step()``, the substeps that mesh takes, and the frame's health check)
      divided by its substeps, as a frame runs them, in one compiled call; ``cpp_ms`` is one
      update + integrate of the C++ program (``bench/cpp.py``) at the same mesh, the two timed in
      turns in the same run (the machine is shared and noisy), and ``vs_cpp`` the ratio. The C++
      program does less (float32, no rotation, tension, shear viscosity or floor): the ratio is
      measured against a floor, not a twin.
  {"benchmark": "memory", "stacks", "slices", "steps", "rss_start_kib", "peak_kib", "growth_kib"}
      resident memory over a long run at 32 x 32: ``growth_kib`` is what the process grew by at the end
      beyond the start (must stay ~0: the step preallocates its work buffers).
"""

from __future__ import annotations

import time
import os
import tracemalloc

import numpy as np

from slime.bench import cpp
from slime.bench.feel import settled
from slime.physics.slime3d.slime_params import SlimeParams


def median_ms(fn, repeats: int, inner: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    return 1e3 * float(np.median(times))


ROUNDS, ROUNDS_QUICK = 3, 2  # turns each program takes at every mesh size
SETTLING = 0.4  # s before timing: on the floor and deformed, so every branch (floor contact) runs
# quick: a tenth of a second, the slime (which starts on the floor) already pressed into it: every
# branch still runs, and the settling at 128 x 128 is most of a quick run's time.
SETTLING_QUICK = 0.1


def resting(params: SlimeParams, quick: bool):
    """A slime of ``params`` settled on the floor for timing."""
    return settled(params, SETTLING_QUICK if quick else SETTLING)


def turns(fn, size: int, inner: int, quick: bool) -> tuple[float, float | None]:
    """``fn``'s median ms and the C++ program's one step at size x size (None without it), the
    two taking turns, a few rounds, each keeping its median: the machine's load drifts, and a
    drift then lands on both rather than on one."""
    repeats = 5 if quick else 15
    ours, theirs = [], []
    for _ in range(ROUNDS_QUICK if quick else ROUNDS):
        ours.append(median_ms(fn, repeats, inner))
        theirs.append(cpp.step_ms(size, size, 200 if quick else 1000))
    return float(np.median(ours)), (float(np.median(theirs)) if None not in theirs else None)


def run(quick: bool = False) -> list[dict]:
    rows = []
    sizes = (16, 32, 64, 128)
    for size in sizes:
        body = resting(SlimeParams(stacks=size, slices=size), quick)
        substeps = body.world.substeps
        inner = max(1, 4000 // (size * size * substeps) * 4)
        frame, reference = turns(body.step, size, inner, quick)
        ms = frame / substeps
        rows.append(
            {
                "benchmark": "step",
                "stacks": size,
                "slices": size,
                "vertices": int(body.positions.shape[0]),
                "substeps": substeps,
                "ms_per_step": ms,
                "cpp_ms": reference,
                "vs_cpp": ms / reference if reference else None,
            }
        )
    if not quick:
        rows.append(_memory(5000))
    return rows


def _rss_kib() -> float:
    """Resident memory of this process (Linux /proc; elsewhere tracemalloc's Python-side figure)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024.0
    except (OSError, ValueError):
        return tracemalloc.get_traced_memory()[0] / 1024.0


def _memory(steps: int) -> dict:
    """Resident memory before and after a long run with periodic pokes. Resident size, not
    tracemalloc: tracing numpy's allocations slows the run some tenfold and is not needed to
    see growth."""
    body = settled(SlimeParams(stacks=32, slices=32), SETTLING)
    for _ in range(200):  # warm every buffer and cache before the baseline
        body.step()
    traced = not os.path.exists("/proc/self/statm")
    if traced:
        tracemalloc.start()
    start = peak = _rss_kib()
    for k in range(steps):
        body.step()
        if k % 500 == 0:
            body.poke(body.centroid() + [body.params.radius, 0.0, 0.0], [-50.0, 0.0, 0.0])
            peak = max(peak, _rss_kib())
    end = _rss_kib()
    if traced:
        tracemalloc.stop()
    return {
        "benchmark": "memory",
        "stacks": 32,
        "slices": 32,
        "steps": steps,
        "rss_start_kib": start,
        "peak_kib": peak - start,
        "growth_kib": end - start,
    }

if __name__ == "__main__":
    from slime.bench import format_table

    print(format_table(run(quick=True)))
