"""Dainty Walker: 600 Soda Constructor ticks (60 000 substeps) of the Soda tick, against a bincount variant.

The Soda substep is tiny (10 masses, 22 springs), so per-call numpy overhead is the whole cost.
The reference row runs the same substep with the engine's general path (gather the spring ends
with fancy indexing, scatter the forces with np.bincount) to show what the incidence-matrix
products in slime/physics/soda.py buy.
"""

from __future__ import annotations

import time

import numpy as np

from slime.physics import soda
from slime.physics.scatter import scatter_add
from slime.physics.springs import hooke_forces


def _bincount_tick(model: soda.SodaModel, dt: float = soda.SODA_DT) -> None:
    """The same tick with gather + np.bincount spring forces (no walls hit by the walker here)."""
    model.wave_phase += model.wave_speed * model.wave_direction
    x, v, s = model.particles.positions, model.particles.velocities, model.springs
    acceleration = model.acceleration
    h = dt / soda.OVERSAMPLING
    rest = model.dynamic_rest_length()
    ground = np.array([1.0 - model.surface_friction, model.surface_reflection])
    wall = np.array([model.surface_reflection, 1.0 - model.surface_friction])
    for _ in range(soda.SUBSTEPS_PER_TICK):
        force = model.gravity - model.friction * v
        gap = x[s.b] - x[s.a]
        f = hooke_forces(gap, rest, model.stiffness, out=gap)
        scatter_add(force, s.a, f)
        scatter_add(force, s.b, -f)
        x += v * h
        v += acceleration * h
        acceleration = force
        below = x[:, 1] < 0.0
        x[below, 1] = 0.0
        v[below] *= ground
        outside = (x[:, 0] < 0.0) | (x[:, 0] > model.width)
        if outside.any():
            np.clip(x[:, 0], 0.0, model.width, out=x[:, 0])
            v[outside] *= wall
            sides = np.where(x[outside, 0] <= 0.0, soda.WALL_LEFT, soda.WALL_RIGHT)
            flips, model.last_wall = soda.count_wave_flips(model.last_wall, sides)
            if flips % 2:
                model.wave_direction = -model.wave_direction
    model.acceleration = acceleration


def _time(tick_fn, ticks: int, repeats: int) -> tuple[float, np.ndarray]:
    from slime.scenes.soda_format import DAINTY_WALKER, load_model

    best = np.inf
    for _ in range(repeats):
        model = load_model(DAINTY_WALKER)
        start = time.perf_counter()
        for _ in range(ticks):
            tick_fn(model)
        best = min(best, time.perf_counter() - start)
    return best, model.locations.copy()


def run(quick: bool = False) -> list[dict]:
    ticks = 600
    repeats = 1 if quick else 3
    seconds, final = _time(soda.tick, ticks, repeats)
    reference_seconds, reference_final = _time(_bincount_tick, ticks, repeats)
    substeps = ticks * soda.SUBSTEPS_PER_TICK
    return [
        {
            "benchmark": "dainty_walker",
            "ticks": ticks,
            "seconds": seconds,
            "variant": "incidence matmul (slime)",
            "us_per_substep": 1e6 * seconds / substeps,
        },
        {
            "benchmark": "dainty_walker",
            "ticks": ticks,
            "seconds": reference_seconds,
            "variant": "gather + bincount",
            "us_per_substep": 1e6 * reference_seconds / substeps,
            # Both run Soda Constructor's semantics; they differ only in rounding order.
            "max_position_difference": float(np.abs(final - reference_final).max()),
        },
    ]


if __name__ == "__main__":
    from slime.bench import format_table

    print(format_table(run()))
