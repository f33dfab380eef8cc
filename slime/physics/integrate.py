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
    # min() == 0 is one pass where (inv_mass == 0).any() is two (inv_mass is never negative).
    if inv_mass.size and np.minimum.reduce(inv_mass) == 0.0:
        velocities[inv_mass == 0.0] = 0.0
    positions += velocities * dt


def symplectic_euler_consuming(
    positions: np.ndarray,
    velocities: np.ndarray,
    forces: np.ndarray,
    inv_mass: np.ndarray,
    dt: float,
    velocity_scale: np.ndarray | None = None,
) -> None:
    """:func:`symplectic_euler` with the same values, using ``forces`` as its scratch space (it is
    overwritten): the World's per-step force array is not needed after the step."""
    step = np.multiply(inv_mass, dt)
    for axis in range(forces.shape[1]):  # columns: long inner loops (see forces.py)
        forces[:, axis] *= step
    velocities += forces
    if velocity_scale is not None:
        for axis in range(velocities.shape[1]):
            velocities[:, axis] *= velocity_scale
    if inv_mass.size and np.minimum.reduce(inv_mass) == 0.0:
        velocities[inv_mass == 0.0] = 0.0
    np.multiply(velocities, dt, out=forces)
    positions += forces
