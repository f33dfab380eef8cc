"""Independent truths about closed triangle meshes for the contact tests: whether points are
inside (winding number, exact for any closed mesh, star-shaped or not) and how far they are from
the surface (exact point-triangle distance), by brute force over all triangles."""

from __future__ import annotations

import numpy as np


def winding_numbers(points: np.ndarray, vertices: np.ndarray, triangles: np.ndarray, chunk: int = 256) -> np.ndarray:
    """(Q,) winding number of each point about the closed, outward-wound mesh (1 inside, 0 out)."""
    out = np.zeros(len(points))
    a0, b0, c0 = (vertices[triangles[:, k]] for k in range(3))
    for s in range(0, len(points), chunk):
        p = points[s : s + chunk, None, :]
        a, b, c = a0[None] - p, b0[None] - p, c0[None] - p
        la, lb, lc = (np.linalg.norm(t, axis=2) for t in (a, b, c))
        det = np.einsum("qtk,qtk->qt", a, np.cross(b, c))
        den = (la * lb * lc + np.einsum("qtk,qtk->qt", a, b) * lc + np.einsum("qtk,qtk->qt", b, c) * la
               + np.einsum("qtk,qtk->qt", c, a) * lb)
        out[s : s + chunk] = 2.0 * np.arctan2(det, den).sum(axis=1) / (4.0 * np.pi)
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
            pts = xi[near]
            inside = winding_numbers(pts, xj, tj) > 0.5
            if inside.any():
                worst = max(worst, float(surface_distance(pts[inside], xj, tj).max()))
    return worst
