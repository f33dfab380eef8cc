"""Viscosity relative to the body's own rigid motion: a poke's wobble dies out while the fall, the
throw and the roll go on untouched.

Rates are applied as exact exponential decays over a substep (``decay_rate``), so they never
overshoot (reverse a velocity) whatever the rate and the substep.
"""

from __future__ import annotations

import math

from slime.physics.compiled import kernel
from slime.physics.slime3d.moments import rigid_velocity_at


@kernel
def decay_rate(rate, h):
    """The rate that removes exactly the fraction 1 - exp(-rate h) of a velocity in one substep
    of length h: (1 - exp(-rate h)) / h. An explicit -rate v would overshoot once rate h > 1."""
    if rate <= 0.0:
        return 0.0
    return -math.expm1(-rate * h) / h


@kernel
def internal_viscosity_at(x, v, k, centre, velocity, omega, rate):
    """a = -mu (v - v_c - omega x (x - c)) at vertex k: velocity relative to the body's rigid
    motion (its centre's velocity v_c and its spin omega) decays at the rate mu (1/s). Internal:
    the forces m a sum to zero and apply no torque."""
    r0, r1, r2 = rigid_velocity_at(velocity, omega, centre, x[0][k], x[1][k], x[2][k])
    return -rate * (v[0][k] - r0), -rate * (v[1][k] - r1), -rate * (v[2][k] - r2)
