"""Infinite planes (floor, walls) that particles cannot pass, with restitution and Coulomb friction."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Planes:
    """K planes; ``normal`` points into the free side, ``point`` lies on the plane."""

    normal: np.ndarray  # (K, D), unit
    point: np.ndarray  # (K, D)
    restitution: np.ndarray  # (K,) 0 = no bounce, 1 = elastic
    friction: np.ndarray  # (K,) Coulomb coefficient
    # Approach speeds below this do not bounce: without it a resting particle, which gains g*h
    # of approach speed every substep, would hop forever (Box2D's restitution threshold).
    bounce_threshold: float = 0.5

    @classmethod
    def create(cls, normals, points, restitution=0.0, friction=0.5, bounce_threshold=0.5) -> "Planes":
        normals = np.array(normals, dtype=np.float64, ndmin=2)
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        points = np.array(points, dtype=np.float64, ndmin=2).reshape(normals.shape)
        k = normals.shape[0]
        return cls(
            normal=normals,
            point=points,
            restitution=np.broadcast_to(np.asarray(restitution, dtype=np.float64), (k,)).copy(),
            friction=np.broadcast_to(np.asarray(friction, dtype=np.float64), (k,)).copy(),
            bounce_threshold=float(bounce_threshold),
        )

    @classmethod
    def floor(cls, dim: int, height: float = 0.0, restitution=0.0, friction=0.5, bounce_threshold=0.5) -> "Planes":
        """A floor whose normal is +y."""
        normal = np.zeros(dim)
        normal[1] = 1.0
        return cls.create(normal, normal * height, restitution, friction, bounce_threshold)

    @classmethod
    def empty(cls, dim: int) -> "Planes":
        return cls(np.zeros((0, dim)), np.zeros((0, dim)), np.zeros(0), np.zeros(0))

    @property
    def count(self) -> int:
        return self.normal.shape[0]


def collide_planes(
    positions: np.ndarray,
    velocities: np.ndarray,
    inv_mass: np.ndarray,
    planes: Planes,
    radius: np.ndarray | float = 0.0,
) -> np.ndarray:
    """Project particles out of every plane and resolve their velocity there, in place.

    The approaching normal speed is reflected by the restitution (zeroed below the bounce
    threshold); the tangential speed loses
    at most ``friction`` times the normal speed change (Coulomb), never reversing. Returns a
    bool (N,) mask of particles in contact with any plane.
    """
    n = positions.shape[0]
    touching = np.zeros(n, dtype=bool)
    movable = inv_mass > 0.0
    for k in range(planes.count):  # a handful of planes; the work per plane is vectorised
        normal = planes.normal[k]
        depth = radius - (positions - planes.point[k]) @ normal
        hit = (depth > 0.0) & movable
        if not np.any(hit):
            continue
        touching |= hit
        positions[hit] += depth[hit, None] * normal
        v = velocities[hit]
        vn = v @ normal
        approaching = vn < 0.0
        v_tangent = v - vn[:, None] * normal
        bounce = np.where(-vn > planes.bounce_threshold, planes.restitution[k], 0.0)
        new_vn = np.where(approaching, -bounce * vn, vn)
        dvn = np.abs(new_vn - vn)
        speed_t = np.linalg.norm(v_tangent, axis=1)
        keep = np.clip(1.0 - planes.friction[k] * dvn / np.where(speed_t > 0, speed_t, 1.0), 0.0, 1.0)
        velocities[hit] = v_tangent * keep[:, None] + new_vn[:, None] * normal
    return touching
