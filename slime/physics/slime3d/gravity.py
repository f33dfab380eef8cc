"""Gravity: every vertex accelerated alike."""

from __future__ import annotations

from slime.physics.compiled import kernel


@kernel
def add_gravity(acc, first, count, gravity):
    """a = g (m/s^2, a 3-vector)."""
    for k in range(first, first + count):
        for d in range(3):
            acc[d, k] += gravity[d]
