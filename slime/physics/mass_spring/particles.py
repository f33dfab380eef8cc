"""Point masses as structure-of-arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Particles:
    """N point masses in D dimensions.

    ``inv_mass`` 0 marks a pinned (infinite-mass) particle: forces do not move it.
    ``damping`` is the viscous coefficient d of a force ``-d v`` (the Computer Seminar chapter's style);
    ``velocity_scale`` multiplies the velocity once per step (the Spring simulation article's style, 1 = off).
    ``radius`` is the collision radius used by point-point contacts and boundaries.
    """

    positions: np.ndarray
    velocities: np.ndarray
    inv_mass: np.ndarray
    damping: np.ndarray
    velocity_scale: np.ndarray
    radius: np.ndarray
    restitution: np.ndarray

    @classmethod
    def create(
        cls,
        positions,
        velocities=None,
        mass=1.0,
        damping=0.0,
        velocity_scale=1.0,
        radius=0.0,
        restitution=1.0,
    ) -> "Particles":
        positions = np.array(positions, dtype=np.float64, ndmin=2)
        if positions.ndim != 2 or positions.shape[1] not in (2, 3):
            raise ValueError(f"positions must have shape (N, 2) or (N, 3), got {positions.shape}")
        n = positions.shape[0]
        if velocities is None:
            velocities = np.zeros_like(positions)
        velocities = np.array(velocities, dtype=np.float64).reshape(positions.shape)
        mass = np.broadcast_to(np.asarray(mass, dtype=np.float64), (n,))
        if np.any(~np.isfinite(mass) & (mass != np.inf)) or np.any(mass <= 0):
            raise ValueError("masses must be positive (use inf for a pinned particle)")
        with np.errstate(divide="ignore"):
            inv_mass = np.where(np.isinf(mass), 0.0, 1.0 / mass)

        def per_particle(value):
            return np.broadcast_to(np.asarray(value, dtype=np.float64), (n,)).copy()

        return cls(
            positions=positions,
            velocities=velocities,
            inv_mass=inv_mass,
            damping=per_particle(damping),
            velocity_scale=per_particle(velocity_scale),
            radius=per_particle(radius),
            restitution=per_particle(restitution),
        )

    @property
    def count(self) -> int:
        return self.positions.shape[0]

    @property
    def dim(self) -> int:
        return self.positions.shape[1]

    @property
    def mass(self) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.where(self.inv_mass > 0, 1.0 / np.where(self.inv_mass > 0, self.inv_mass, 1.0), np.inf)

    def append(self, other: "Particles") -> np.ndarray:
        """Add the particles of ``other``; returns their new indices."""
        start = self.count
        for name in ("positions", "velocities", "inv_mass", "damping", "velocity_scale", "radius", "restitution"):
            setattr(self, name, np.concatenate([getattr(self, name), getattr(other, name)]))
        return np.arange(start, self.count)

    def remove(self, keep: np.ndarray) -> None:
        """Keep only the particles selected by the boolean mask or index array ``keep``."""
        for name in ("positions", "velocities", "inv_mass", "damping", "velocity_scale", "radius", "restitution"):
            setattr(self, name, getattr(self, name)[keep])
