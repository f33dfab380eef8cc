"""Forces that act on every particle. Each adds into an (N, D) force array."""

from __future__ import annotations

import numpy as np


def add_air_drag(forces: np.ndarray, velocities: np.ndarray, inv_mass: np.ndarray, drag: float) -> None:
    """A small linear drag proportional to mass, so heavy and light particles slow alike."""
    if drag == 0.0:
        return
    movable = inv_mass > 0.0
    mass = np.where(movable, 1.0 / np.where(movable, inv_mass, 1.0), 0.0)
    forces -= (drag * mass)[:, None] * velocities


def set_gravity_and_damping(
    forces: np.ndarray, inv_mass: np.ndarray, gravity: np.ndarray, velocities: np.ndarray, damping: np.ndarray
) -> None:
    """Overwrite ``forces`` with m g - d v: gravity on every movable particle (pinned ones, inv_mass
    0, feel none) and viscous damping, written straight into a reused array (no zeroing pass)."""
    if np.minimum.reduce(inv_mass, initial=1.0) > 0.0:  # nothing pinned (inv_mass >= 0): no masking
        mass = np.divide(1.0, inv_mass)
    else:
        movable = inv_mass > 0.0
        mass = np.where(movable, 1.0 / np.where(movable, inv_mass, 1.0), 0.0)
    gravity = np.asarray(gravity, dtype=np.float64)
    # Column by column: (N, 1) x (D,) broadcasts run numpy's inner loop only D elements long.
    for axis in range(forces.shape[1]):
        column = forces[:, axis]
        np.multiply(mass, gravity[axis], out=column)
        column -= np.multiply(damping, velocities[:, axis])
