"""Independent truths about closed triangle meshes for the contact tests: whether points are
inside (winding number, exact for any closed mesh, star-shaped or not) and how far they are from
the surface (exact point-triangle distance), by brute force over all triangles."""

from __future__ import annotations

import numpy as np
from scipy.spatial import ConvexHull, QhullError


def winding_numbers(points: np.ndarray, vertices: np.ndarray, triangles: np.ndarray, chunk: int = 256) -> np.ndarray:
    """(Q,) winding number of each point about the closed, outward-wound mesh (1 inside, 0 out):
    the sum of the triangles' solid angles (Van Oosterom and Strackee), written per coordinate,
    which numpy runs far faster than cross products and einsum over (Q, T, 3) arrays."""
    out = np.zeros(len(points))
    corners = [vertices[triangles[:, k]].T for k in range(3)]  # each (3, T)
    for s in range(0, len(points), chunk):
        p = points[s : s + chunk]
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = ([corner[k][None] - p[:, k, None] for k in range(3)] for corner in corners)
        la, lb, lc = (np.sqrt(x * x + y * y + z * z) for x, y, z in ((ax, ay, az), (bx, by, bz), (cx, cy, cz)))
        det = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)
        den = (la * lb * lc + (ax * bx + ay * by + az * bz) * lc + (bx * cx + by * cy + bz * cz) * la
               + (cx * ax + cy * ay + cz * az) * lb)
        out[s : s + chunk] = np.arctan2(det, den).sum(axis=1) / (2.0 * np.pi)
    return out


def surface_distance(points: np.ndarray, vertices: np.ndarray, triangles: np.ndarray, chunk: int = 128) -> np.ndarray:
    """(Q,) exact distance of each point to the nearest triangle."""
    out = np.empty(len(points))
    a0, b0, c0 = (vertices[triangles[:, k]] for k in range(3))
    n0 = np.cross(b0 - a0, c0 - a0)
    n0 /= np.maximum(np.linalg.norm(n0, axis=1, keepdims=True), 1e-300)

    def segment(p, a, b):
        ab = b - a
        t = np.clip(np.einsum("qtk,qtk->qt", p - a, ab) / np.maximum(np.einsum("tk,tk->t", ab[0], ab[0]), 1e-300), 0, 1)
        return np.linalg.norm(p - (a + t[..., None] * ab), axis=2)

    for s in range(0, len(points), chunk):
        p = points[s : s + chunk, None, :]
        a, b, c, n = a0[None], b0[None], c0[None], n0[None]
        h = np.einsum("qtk,qtk->qt", p - a, n)
        q = p - h[..., None] * n
        inside = np.ones(h.shape, dtype=bool)
        for u, w in ((a, b), (b, c), (c, a)):
            inside &= np.einsum("qtk,qtk->qt", np.cross(w - u, q - u), n) >= 0.0
        edge = np.minimum(np.minimum(segment(p, a, b), segment(p, b, c)), segment(p, c, a))
        out[s : s + chunk] = np.where(inside, np.abs(h), edge).min(axis=1)
    return out


def in_hull(points: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """(Q,) whether each point lies in the convex hull of ``vertices`` (or within 1e-9 of it).
    A closed mesh lies inside its vertices' hull, so a point outside it is outside the mesh: a
    filter that leaves the winding numbers to the few points it keeps."""
    try:
        planes = ConvexHull(vertices).equations
    except QhullError:  # a flat or degenerate cloud: keep every point
        return np.ones(len(points), dtype=bool)
    return (points @ planes[:, :3].T + planes[:, 3]).max(axis=1) <= 1e-9


def deepest_inside(bodies_vertices: list, triangles: list, centroids, reach) -> float:
    """Largest depth of any body's vertex inside any other body (0 when none is inside)."""
    worst = 0.0
    for i, xi in enumerate(bodies_vertices):
        for j, (xj, tj) in enumerate(zip(bodies_vertices, triangles)):
            if i == j:
                continue
            near = np.linalg.norm(xi - centroids[j], axis=1) < reach[j]
            if not near.any():
                continue
            near[near] = in_hull(xi[near], xj)
            if not near.any():
                continue
            pts = xi[near]
            inside = winding_numbers(pts, xj, tj) > 0.5
            if inside.any():
                worst = max(worst, float(surface_distance(pts[inside], xj, tj).max()))
    return worst
