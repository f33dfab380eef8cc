"""Air drag: a small decay of the absolute velocity, so that a thrown slime slows in the air."""

from __future__ import annotations

from slime.physics.compiled import kernel


@kernel
def air_drag_at(v, k, rate):
    """a = -a_drag v at vertex k of the body's rows ``v`` (``compiled.body_rows``), at the rate a_drag (1/s)."""
    return -rate * v[0][k], -rate * v[1][k], -rate * v[2][k]
