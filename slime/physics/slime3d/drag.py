"""Air drag: a small decay of the absolute velocity, so that a thrown slime slows in the air."""

from __future__ import annotations

from slime.physics.compiled import kernel


@kernel
def add_air_drag(acc, v, first, count, rate):
    """a = -a_drag v, at the rate a_drag (1/s)."""
    for k in range(first, first + count):
        for d in range(3):
            acc[d, k] -= rate * v[d, k]
