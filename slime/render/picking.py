"""Which triangle of the slime a ray hits: Möller–Trumbore against every triangle at once.

Exact (no bounding-sphere shortcut): the body can be dented or stretched far from a sphere.
Both sides count as hits, so a ray from inside (a camera pushed into the body) still picks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RayHit:
    point: np.ndarray  # (3,) world position of the hit
    triangle: int  # row in the triangle list
    distance: float  # along the (unit) ray direction from its origin
    barycentric: np.ndarray  # (3,) weights of the triangle's corners at the hit


def intersect_ray_triangles(origin, direction, positions: np.ndarray, triangles: np.ndarray, eps: float = 1e-12):
    """All hits of one ray: (t (M,), u (M,), v (M,), hit mask (M,)). t is in units of |direction|."""
    origin = np.asarray(origin, dtype=np.float64)
    direction = np.asarray(direction, dtype=np.float64)
    a = positions[triangles[:, 0]]
    edge1 = positions[triangles[:, 1]] - a
    edge2 = positions[triangles[:, 2]] - a
    p = np.cross(direction, edge2)
    det = np.einsum("ij,ij->i", edge1, p)
    parallel = np.abs(det) < eps
    inv_det = 1.0 / np.where(parallel, 1.0, det)
    s = origin - a
    u = np.einsum("ij,ij->i", s, p) * inv_det
    q = np.cross(s, edge1)
    v = (q @ direction) * inv_det
    t = np.einsum("ij,ij->i", edge2, q) * inv_det
    # A hair of slack on the edges: a ray exactly through an edge or vertex would otherwise be
    # rejected by rounding on every triangle that shares it and slip through the mesh.
    slack = 1e-9
    hit = ~parallel & (u >= -slack) & (v >= -slack) & (u + v <= 1.0 + slack) & (t > 0.0)
    return t, u, v, hit


def pick(origin, direction, positions: np.ndarray, triangles: np.ndarray) -> RayHit | None:
    """The nearest hit of the ray on the mesh, or None when it misses."""
    direction = np.asarray(direction, dtype=np.float64)
    direction = direction / np.linalg.norm(direction)
    t, u, v, hit = intersect_ray_triangles(origin, direction, positions, triangles)
    if not hit.any():
        return None
    candidates = np.flatnonzero(hit)
    best = candidates[np.argmin(t[candidates])]
    distance = float(t[best])
    return RayHit(
        point=np.asarray(origin, dtype=np.float64) + distance * direction,
        triangle=int(best),
        distance=distance,
        barycentric=np.array([1.0 - u[best] - v[best], u[best], v[best]]),
    )


def intersect_plane(origin, direction, plane_point, plane_normal) -> np.ndarray | None:
    """Where the ray meets the plane, or None when parallel or behind the origin."""
    direction = np.asarray(direction, dtype=np.float64)
    denom = float(np.dot(plane_normal, direction))
    if abs(denom) < 1e-9:
        return None
    t = float(np.dot(plane_normal, np.asarray(plane_point) - np.asarray(origin))) / denom
    if t < 0.0:
        return None
    return np.asarray(origin, dtype=np.float64) + t * direction


def pick_body(origin, direction, positions: np.ndarray, triangles: np.ndarray,
              body_of_vertex: np.ndarray) -> tuple[int, RayHit] | None:
    """The first body the ray meets among several meshes sharing one vertex array (a World3D's
    ``positions``, ``triangles`` and ``body_of_vertex``): (body index, its hit), or None when the
    ray meets none (or there is nothing to hit)."""
    triangles = np.asarray(triangles)
    if triangles.size == 0:
        return None
    hit = pick(origin, direction, positions, triangles)
    if hit is None:
        return None
    return int(body_of_vertex[triangles[hit.triangle, 0]]), hit
