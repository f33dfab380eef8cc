"""Symplectic (semi-implicit) Euler: velocity first, then position with the new velocity."""

from __future__ import annotations

import numpy as np


def symplectic_euler(
    positions: np.ndarray,
    velocities: np.ndarray,
    forces: np.ndarray,
    inv_mass: np.ndarray,
    dt: float,
    velocity_scale: np.ndarray | None = None,
) -> None:
    """In place: v += F/m dt; v *= velocity_scale; x += v dt. Pinned particles (inv_mass 0) keep still."""
    velocities += forces * (inv_mass[:, None] * dt)
    if velocity_scale is not None:
        velocities *= velocity_scale[:, None]
    pinned = inv_mass == 0.0
    if pinned.any():
        velocities[pinned] = 0.0
    positions += velocities * dt
