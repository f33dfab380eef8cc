"""Measurements of a slime surface's health, used by the robustness tests and ``slime bench
--only fuzz``: is any triangle turned inside out, how sharp is the sharpest fold, how far is each
vertex from where it sits at rest. Arrays in, numbers out."""

from __future__ import annotations

import numpy as np

from slime.mesh import triangle_area_vectors


def inverted_triangles(positions, triangles, rest_offsets, rotation) -> int:
    """How many triangles face against their rest orientation turned by the best-fit ``rotation``
    (a fold, or a surface turned inside out)."""
    now = triangle_area_vectors(positions, triangles)
    rest = triangle_area_vectors(rest_offsets, triangles) @ np.asarray(rotation).T
    return int(np.count_nonzero(np.einsum("ij,ij->i", now, rest) <= 0.0))


def edge_neighbours(triangles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of triangles sharing an edge (two index arrays)."""
    tri = np.asarray(triangles)
    edges = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
    owner = np.tile(np.arange(len(tri)), 3)
    key = np.sort(edges, axis=1)
    order = np.lexsort((key[:, 1], key[:, 0]))
    key, owner = key[order], owner[order]
    same = np.all(key[1:] == key[:-1], axis=1)
    return owner[:-1][same], owner[1:][same]


def largest_fold_angle(positions, triangles, pairs=None) -> float:
    """The largest angle (degrees) between the normals of two triangles that share an edge: 0 on a
    flat sheet, a few degrees on a smooth sphere, 180 where the surface is folded flat on itself."""
    a, b = edge_neighbours(triangles) if pairs is None else pairs
    n = triangle_area_vectors(positions, triangles)
    length = np.linalg.norm(n, axis=1, keepdims=True)
    n = np.divide(n, length, out=np.zeros_like(n), where=length > 0.0)
    cos = np.clip(np.einsum("ij,ij->i", n[a], n[b]), -1.0, 1.0)
    return float(np.degrees(np.arccos(cos.min())))


def radial_error(positions, centroid, rest_offsets) -> float:
    """The largest |d / d0 - 1| over vertices, d the distance from the centroid now and d0 at rest."""
    d = np.linalg.norm(np.asarray(positions) - np.asarray(centroid), axis=1)
    d0 = np.linalg.norm(np.asarray(rest_offsets), axis=1)
    return float(np.max(np.abs(d / d0 - 1.0)))
