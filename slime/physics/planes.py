"""Infinite planes (floor, walls) that particles cannot pass, and the one law by which any hard
surface answers a particle that reaches it (``contact_response``: restitution above a threshold
speed, Coulomb friction): the floor, a plane, a box, a ball or a cylinder alike, in 2D and 3D."""

from __future__ import annotations

from dataclasses import dataclass

import math

import numpy as np

from slime.physics.compiled import kernel

# m/s: slower approaches do not bounce: without it a resting particle, which gains g h of approach
# speed every substep, would hop forever (Box2D's restitution threshold).
BOUNCE_THRESHOLD = 0.5


@dataclass
class Planes:
    """K planes; ``normal`` points into the free side, ``point`` lies on the plane."""

    normal: np.ndarray  # (K, D), unit
    point: np.ndarray  # (K, D)
    restitution: np.ndarray  # (K,) 0 = no bounce, 1 = elastic
    friction: np.ndarray  # (K,) Coulomb coefficient
    bounce_threshold: float = BOUNCE_THRESHOLD  # approach speeds below it do not bounce

    @classmethod
    def create(cls, normals, points, restitution=0.0, friction=0.5, bounce_threshold=BOUNCE_THRESHOLD) -> "Planes":
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
    def floor(cls, dim: int, height: float = 0.0, restitution=0.0, friction=0.5,
              bounce_threshold=BOUNCE_THRESHOLD) -> "Planes":
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

    def joined(self, other: "Planes") -> "Planes":
        """These planes and ``other``'s, in that order (the first's bounce threshold)."""
        return Planes(np.concatenate([self.normal, other.normal]), np.concatenate([self.point, other.point]),
                      np.concatenate([self.restitution, other.restitution]),
                      np.concatenate([self.friction, other.friction]), self.bounce_threshold)


def collide_planes(
    positions: np.ndarray,
    velocities: np.ndarray,
    inv_mass: np.ndarray,
    planes: Planes,
    radius: np.ndarray | float = 0.0,
    grip: np.ndarray | None = None,
) -> np.ndarray:
    """Project particles (rows of (N, D) arrays, views welcome) out of every plane and resolve
    their velocity there, in place (``plane_contacts``); ``grip`` (N,) the share of a plane's
    friction each particle takes (None: all of it). Returns a bool (N,) mask of the particles in
    contact with any plane."""
    touching = np.zeros(positions.shape[0], dtype=np.bool_)
    radii = (np.full(positions.shape[0], float(radius)) if np.ndim(radius) == 0
             else np.asarray(radius, dtype=np.float64).reshape(positions.shape[0]))
    plane_contacts(positions, velocities, inv_mass, planes.normal, planes.point, planes.restitution,
                   planes.friction, float(planes.bounce_threshold), radii, touching,
                   friction_shares(grip, positions.shape[0]))
    return touching


def friction_shares(grip, count: int) -> np.ndarray:
    """(count,) float64: each particle's share of a surface's friction, ``grip`` (one value a
    particle: an array of another length is a ValueError, never read past its end), or all of it
    for None. The floor's and the obstacles' contacts take it alike."""
    return np.ones(count) if grip is None else np.asarray(grip, dtype=np.float64).reshape(count)


@kernel
def plane_contacts(positions, velocities, inv_mass, normal, point, restitution, friction, bounce_threshold, radius,
                   touching, grip):
    """Plane by plane, every movable particle (inv_mass > 0) deeper than its radius is put back on
    the plane's free side. Its approaching normal speed v_n is reflected to -e v_n when it came in
    faster than ``bounce_threshold`` and stopped otherwise (so a resting particle does not hop);
    its tangential speed loses at most mu = ``friction`` x ``grip`` times the change of normal
    speed (Coulomb), never reversing: the plane's coefficient, times the share of it the
    particle's surface takes (1 for a dry one). That is ``contact_response``."""
    dim, count = positions.shape[1], positions.shape[0]
    depth = np.empty(count)
    inside = np.empty(count, dtype=np.int64)
    for p in range(normal.shape[0]):
        # First every particle's depth, component by component (a loop over the particles alone
        # runs several at a time), then the list of those that are in, without a branch (each
        # index is written, and kept by counting it only when in).
        for k in range(count):
            depth[k] = radius[k]
        for d in range(dim):
            n_d, q_d = normal[p, d], point[p, d]
            for k in range(count):
                depth[k] -= (positions[k, d] - q_d) * n_d
        listed = 0
        for k in range(count):
            inside[listed] = k
            listed += 1 if depth[k] > 0.0 and inv_mass[k] > 0.0 else 0
        # Then the listed particles, a step at a time over the whole list: the square roots and
        # divisions of many particles run together.
        vn = np.zeros(listed)
        tangential = np.zeros(listed)
        for d in range(dim):
            n_d = normal[p, d]
            for i in range(listed):
                k = inside[i]
                positions[k, d] += depth[k] * n_d
                vn[i] += velocities[k, d] * n_d
        for d in range(dim):
            n_d = normal[p, d]
            for i in range(listed):
                t = velocities[inside[i], d] - vn[i] * n_d
                tangential[i] += t * t
        keep = np.empty(listed)
        new_vn = np.empty(listed)
        e, mu = restitution[p], friction[p]
        for i in range(listed):
            new_vn[i], keep[i] = contact_response(vn[i], math.sqrt(tangential[i]), e, mu * grip[inside[i]],
                                                  bounce_threshold)
        for d in range(dim):
            n_d = normal[p, d]
            for i in range(listed):
                k = inside[i]
                velocities[k, d] = (velocities[k, d] - vn[i] * n_d) * keep[i] + new_vn[i] * n_d
        for i in range(listed):
            touching[inside[i]] = True


@kernel
def contact_response(vn, speed_t, restitution, friction, threshold):
    """How a hard surface answers a particle on it, whatever the surface: from its normal speed
    v_n (negative: approaching) and tangential speed |v_t|, the new normal speed and the share of
    the tangential velocity it keeps,

        v_n' = -e v_n if -v_n > threshold else 0   (for v_n < 0; else v_n' = v_n),
        keep = max(0, 1 - mu |v_n' - v_n| / |v_t|)  (at most 1),

    with e the ``restitution`` and mu the ``friction`` (Coulomb: friction takes at most mu times
    the normal impulse, and never reverses the sliding)."""
    bounced = -restitution * vn if -vn > threshold else 0.0
    new_vn = bounced if vn < 0.0 else vn
    keep = min(max(1.0 - friction * abs(new_vn - vn) / (speed_t if speed_t > 0.0 else 1.0), 0.0), 1.0)
    return new_vn, keep
