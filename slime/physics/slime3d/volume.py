"""Measures of a closed triangle mesh from its triangle list: the enclosed volume, and sums over
triangle corners. The step reads the slime's surface off its one-rings (``slime3d.surface``);
these are the independent checks (tests, scene loading) and the constants made once per body."""

from __future__ import annotations

import numpy as np

from slime.mesh import vertex_area_sums


def mesh_volume(points: np.ndarray, triangles: np.ndarray) -> float:
    """Exact enclosed volume of a closed triangle mesh (divergence theorem), in float64, relative to
    the vertex mean so that far-away meshes keep their precision."""
    pts = np.asarray(points, dtype=np.float64)
    pts = pts - pts.mean(axis=0)
    x0, x1, x2 = (pts[triangles[:, k]] for k in range(3))
    return float(np.einsum("ij,ij->", x0, np.cross(x1, x2))) / 6.0


def corner_sum(triangles: np.ndarray, per_corner, count: int) -> np.ndarray:
    """Scatter-add a value of each triangle corner onto its vertex: ``per_corner(k)`` gives the (T,)
    or (T, D) values of corner k (0, 1, 2); returns (count,) or (count, D). Corner by corner and
    axis by axis with ``np.bincount`` (no Python loop over triangles)."""
    out = None
    for k in range(3):
        values = np.asarray(per_corner(k), dtype=np.float64)
        if out is None:
            out = np.zeros((count,) + values.shape[1:])
        if values.ndim == 1:
            out += np.bincount(triangles[:, k], weights=values, minlength=count)
        else:
            for axis in range(values.shape[1]):
                out[:, axis] += np.bincount(triangles[:, k], weights=values[:, axis], minlength=count)
    return out


def vertex_area_vectors(points: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """(P, 3) grad V: a sixth of every triangle's area vector (x1 - x0) x (x2 - x0), summed at
    its three corners."""
    return vertex_area_sums(points, triangles, divide_by=6.0)
