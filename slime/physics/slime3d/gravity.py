"""Gravity: every vertex accelerated alike."""

from __future__ import annotations

from slime.physics.compiled import kernel


@kernel
def gravity_at(gravity):
    """a = g (m/s^2, a 3-vector), at every vertex."""
    return gravity[0], gravity[1], gravity[2]
