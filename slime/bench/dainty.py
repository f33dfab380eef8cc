"""Dainty Walker: 600 Soda Constructor ticks (60 000 substeps) of the Soda tick.

Rows: {"benchmark": "dainty_walker", "ticks", "seconds", "us_per_substep", "ruby_seconds",
"vs_ruby"}. The reference is Soda Constructor itself, the Ruby program the tick reproduces: it took
``RUBY_SECONDS`` for the same 600 ticks on the development machine (2 cores), timed by the issue
that set the target (at least 10x faster). There is no Ruby on the machine to time it again in the
same run, so this one figure is a constant; the tick's agreement with it is held by
tests/physics/test_soda_physics.py (within 1e-6 of its positions).
"""

from __future__ import annotations

import time

import numpy as np

from slime.physics.mass_spring import soda

RUBY_SECONDS = 4.3  # Soda Constructor's own 600 ticks of Dainty Walker, 2-core development machine


def _time(ticks: int, repeats: int) -> float:
    from slime.scenes.soda_format import DAINTY_WALKER, load_model

    best = np.inf
    for _ in range(repeats):
        model = load_model(DAINTY_WALKER)
        start = time.perf_counter()
        for _ in range(ticks):
            model.tick()
        best = min(best, time.perf_counter() - start)
    return best


def run(quick: bool = False) -> list[dict]:
    ticks = 600
    seconds = _time(ticks, 1 if quick else 3)
    return [{"benchmark": "dainty_walker", "ticks": ticks, "seconds": seconds,
             "us_per_substep": 1e6 * seconds / (ticks * soda.SUBSTEPS_PER_TICK), "ruby_seconds": RUBY_SECONDS,
             "vs_ruby": RUBY_SECONDS / seconds}]


if __name__ == "__main__":
    from slime.bench import format_table

    print(format_table(run()))
