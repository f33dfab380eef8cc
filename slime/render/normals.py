"""Smooth vertex normals of the deformed surface, recomputed every frame.

Each vertex gets the sum of the unnormalised face normals of its triangles. The cross product's
length is twice the triangle's area, so big triangles weigh more (area weighting) without any
extra work; the sum is then normalised. Triangles are counter-clockwise seen from outside, so the
result points outward.
"""

from __future__ import annotations

import numpy as np


def face_normals(positions: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """(M, 3) unnormalised normals, length = 2 x area, pointing to the counter-clockwise side."""
    a = positions[triangles[:, 0]]
    return np.cross(positions[triangles[:, 1]] - a, positions[triangles[:, 2]] - a)


class VertexNormals:
    """Area-weighted vertex normals for a fixed triangle list; the index work is done once."""

    def __init__(self, triangles: np.ndarray, vertex_count: int):
        self.triangles = np.ascontiguousarray(triangles, dtype=np.int64)
        self.vertex_count = int(vertex_count)
        # Corner -> vertex, in the order face normals repeat for the three corners of each face.
        self._corner_vertex = self.triangles.T.reshape(-1)

    def __call__(self, positions: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        fn = face_normals(positions, self.triangles)
        corners = np.tile(fn, (3, 1))  # corner k of face f sits at row k * M + f
        if out is None:
            out = np.empty((self.vertex_count, 3), dtype=np.float64)
        for axis in range(3):  # three scatter-adds, one per component
            out[:, axis] = np.bincount(self._corner_vertex, weights=corners[:, axis], minlength=self.vertex_count)
        length = np.sqrt(np.einsum("ij,ij->i", out, out))
        # A vertex whose triangles all collapsed keeps a zero normal instead of a NaN.
        out /= np.maximum(length, 1e-20)[:, None]
        return out


def vertex_normals(positions: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Unit outward normals (P, 3) of a closed, counter-clockwise triangle mesh."""
    return VertexNormals(triangles, len(positions))(np.asarray(positions, dtype=np.float64))
