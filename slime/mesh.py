"""A closed triangle mesh's measures in numpy: every triangle's area vector, values of the
triangles' corners summed at the vertices, area-weighted vertex normals and the enclosed volume.
The one numpy home of all of them: the renderer's and the glTF export's per-frame normals, a
slime body's constants (``slime3d/slime_shape.py``: vertex masses, rest area, stiffness), the
surface checks (``slime3d/surface_checks.py``) and the tests' volume and its gradient read them
here.

Why numpy here beside the step's compiled surface (``slime3d/surface.py``, which reads dV/dx and
dA/dx off each vertex's one-ring of the UV sphere every substep): that kernel is made for the
step, a body of the world's (3, P) arrays at a time, in the sphere's ring layout, computing the
area's gradient with the volume's. What reads this module takes any triangle list (the world
renderer draws the body's strip as triangles, the export writes whatever mesh it is given), once
a frame or once a body, and must not depend on the physics: the renderer is a layer of its own and
this module is neutral (numpy only, it imports no layer). The two agree to round-off:
tests/physics/test_normals.py holds the normals the renderer lights with to the direction the pressure
pushes along, and the compiled gradients to the derivative of ``mesh_volume``.

The area vector of a triangle (x0, x1, x2) is (x1 - x0) x (x2 - x0): it points to the side from
which the corners run counter-clockwise (outward on slime's meshes) and its length is twice the
triangle's area. Summed at the vertices, these vectors weigh big triangles more without any extra
work: normalised, the sums are the smooth vertex normals; divided by 6, they are the gradient of
the enclosed volume.

Coordinates are worked on as three contiguous component rows (3, P): ``np.take`` from a
contiguous row is several times faster than gathering (P, 3) rows by fancy indexing, which
dominated the frame at 128 x 128. The cross product is written out on those rows in exactly the
operations ``np.cross`` does (a1 b2 - a2 b1, ...), so the area vectors are the same bits as
``np.cross`` of the gathered edges. The scatter to the vertices (``_add_corners``) is one
``np.bincount`` per corner and component, added corner 0 + corner 1 + corner 2: faster than one
bincount over all the corners (no tiled weights).
"""

from __future__ import annotations

import numpy as np


def _corners(triangles) -> list[np.ndarray]:
    tri = np.asarray(triangles, dtype=np.int64)
    if tri.ndim != 2 or tri.shape[1] != 3:
        raise ValueError(f"triangles must be a (T, 3) array of vertex indices, not shape {tri.shape}")
    return [np.ascontiguousarray(tri[:, k]) for k in range(3)]


def _add_corners(corners, rows_of_corner, count: int, out: np.ndarray) -> np.ndarray:
    """Scatter-add per-corner values onto the vertices, into ``out`` (count, D): column d is the
    sum over the corners k = 0, 1, 2 (in that order) of ``rows_of_corner(k)[d]`` (T,) added at
    the vertices ``corners[k]`` (T,)."""
    for axis in range(out.shape[1]):
        column = np.bincount(corners[0], weights=rows_of_corner(0)[axis], minlength=count)
        column += np.bincount(corners[1], weights=rows_of_corner(1)[axis], minlength=count)
        column += np.bincount(corners[2], weights=rows_of_corner(2)[axis], minlength=count)
        out[:, axis] = column
    return out


def corner_sum(triangles, per_corner, count: int) -> np.ndarray:
    """Scatter-add a value of each triangle corner onto its vertex: ``per_corner(k)`` gives the (T,)
    or (T, D) values of corner k (0, 1, 2); returns (count,) or (count, D)."""
    values = [np.asarray(per_corner(k), dtype=np.float64) for k in range(3)]
    flat = values[0].ndim == 1
    rows = [np.atleast_2d(v) if flat else v.T for v in values]
    out = _add_corners(_corners(triangles), rows.__getitem__, int(count), np.empty((int(count), rows[0].shape[0])))
    return out[:, 0] if flat else out


def mesh_volume(points, triangles) -> float:
    """Exact enclosed volume of a closed, outward-wound triangle mesh (divergence theorem: a sixth
    of the sum of x0 . area vector), in float64, about the vertex mean so that a mesh far from
    the origin keeps its precision."""
    pts = np.asarray(points, dtype=np.float64)
    pts = pts - pts.mean(axis=0)
    tri = np.asarray(triangles, dtype=np.int64)
    return float(np.einsum("ij,ij->", pts[tri[:, 0]], triangle_area_vectors(pts, tri))) / 6.0


class TriangleAreaVectors:
    """For a fixed triangle list: every triangle's area vector (x1 - x0) x (x2 - x0), as three
    component rows (3, T). The index work and the work arrays are made once; each call reuses them
    (fresh temporaries of this size cost more than the arithmetic), so the rows it returns are
    overwritten by the next call."""

    def __init__(self, triangles, vertex_count: int):
        self.triangles = np.ascontiguousarray(triangles, dtype=np.int64)
        self.vertex_count = int(vertex_count)
        self._corner = _corners(self.triangles)
        t = self.triangles.shape[0]
        self._x = np.empty((3, self.vertex_count))  # the points' coordinate rows
        self._x0, self._e1, self._e2 = np.empty((3, t)), np.empty((3, t)), np.empty((3, t))
        self._area = np.empty((3, t))
        self._product = np.empty(t)

    def __call__(self, points) -> np.ndarray:
        """(3, T) area vector rows of the triangles on ``points`` (P, 3)."""
        x, x0, e1, e2, area, product = self._x, self._x0, self._e1, self._e2, self._area, self._product
        np.copyto(x, np.asarray(points).T)  # (3, P) rows: free for SoA views
        i0, i1, i2 = self._corner
        # mode="clip" lets np.take write straight into ``out`` ("raise" buffers it); every index is valid.
        np.take(x, i0, axis=1, out=x0, mode="clip")
        np.take(x, i1, axis=1, out=e1, mode="clip")
        np.take(x, i2, axis=1, out=e2, mode="clip")
        np.subtract(e1, x0, out=e1)
        np.subtract(e2, x0, out=e2)
        for k in range(3):  # np.cross's operations in its order: a[k+1] b[k+2] - a[k+2] b[k+1]
            p, q = (k + 1) % 3, (k + 2) % 3
            np.multiply(e1[p], e2[q], out=area[k])
            np.multiply(e1[q], e2[p], out=product)
            np.subtract(area[k], product, out=area[k])
        return area


def triangle_area_vectors(points, triangles) -> np.ndarray:
    """(T, 3) area vectors (x1 - x0) x (x2 - x0): length twice the area, pointing to the side
    from which the corners run counter-clockwise."""
    points = np.asarray(points, dtype=np.float64)
    return TriangleAreaVectors(triangles, len(points))(points).T.copy()


class VertexAreaSums(TriangleAreaVectors):
    """For a fixed triangle list: at each vertex, the sum of its triangles' area vectors. The index
    work is done once; call with (P, 3) points every frame or substep."""

    def __call__(self, points, out: np.ndarray | None = None) -> np.ndarray:
        """(P, 3) sums, into ``out`` when given (a sixth of them is dV/dx)."""
        area = super().__call__(points)
        if out is None:
            out = np.empty((self.vertex_count, 3), dtype=np.float64)
        return _add_corners(self._corner, lambda k: area, self.vertex_count, out)


class VertexNormals(VertexAreaSums):
    """Unit area-weighted vertex normals for a fixed triangle list (the renderer's per-frame
    normals). A vertex whose triangles all collapsed keeps a zero normal instead of a NaN."""

    def __call__(self, points, out: np.ndarray | None = None) -> np.ndarray:
        out = super().__call__(points, out)
        length = np.sqrt(np.einsum("ij,ij->i", out, out))
        out /= np.maximum(length, 1e-20)[:, None]
        return out


def vertex_area_sums(points, triangles) -> np.ndarray:
    """(P, 3): at each vertex, the sum of its triangles' area vectors (see ``VertexAreaSums``)."""
    points = np.asarray(points, dtype=np.float64)
    return VertexAreaSums(triangles, len(points))(points)


def vertex_normals(points, triangles) -> np.ndarray:
    """(P, 3) unit area-weighted normals of a counter-clockwise triangle mesh (outward when closed)."""
    points = np.asarray(points, dtype=np.float64)
    return VertexNormals(triangles, len(points))(points)
