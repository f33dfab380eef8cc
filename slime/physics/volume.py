"""Enclosed volume of the UV-sphere mesh, band by band on the ring grid, and its gradient.

The mesh is read on the ring grid (see ``sphere.ring_grid``): a (stacks + 1, slices) array of
vertices whose first and last rows repeat the poles. Each latitude band between rows i and i + 1 is
``slices`` quads split the way ``sphere_triangles`` splits them:

    a = (i, j)   c = (i, j + 1)          T1 = (a, b, c),  T2 = (c, b, d)
    b = (i+1, j) d = (i+1, j + 1)

The band's signed volume is the sum over its triangles of the cone from the origin,
(1/6) x0 . (x1 x x2); the bands add up to the exact divergence-theorem volume of the closed mesh,
whatever the body's orientation (the PhysicalSlime program integrated ring areas along a fixed axis, which is only
right while the body stays upright). Pole-band triangles that touch the repeated pole twice are
degenerate and contribute exactly zero, so no band is special.

The gradient of the volume with respect to a vertex is a sixth of the sum of the doubled area
vectors n_t = (x1 - x0) x (x2 - x0) of its six triangles: the area-weighted vertex normal. It is
gathered on the grid from shifted slices (no scatter), and since the volume is homogeneous of degree
3, V = (1/3) sum_v x_v . grad_v, which the hot path uses to get the volume for free.

Arrays here are structure-of-arrays with a *cyclic* component axis of length 5 (x, y, z, x, y),
so that a cross product is two multiplies and a subtract over whole arrays:
(a x b)[0:3] = a[1:4] * b[2:5] - a[2:5] * b[1:4]. The grid also carries a wrap column (index
``slices`` repeats column 0), so the neighbour at j + 1 is a plain slice.
"""

from __future__ import annotations

import numpy as np


class GridVolume:
    """Work buffers and the band-volume / gradient computation for one grid shape and dtype."""

    def __init__(self, stacks: int, slices: int, dtype=np.float64):
        s, n = stacks, slices
        self.stacks, self.slices, self.dtype = s, n, np.dtype(dtype)
        z = lambda *shape: np.zeros(shape, dtype=self.dtype)  # noqa: E731
        self.down = z(5, s, n + 1)  # x(i+1, j) - x(i, j)
        self.right = z(5, s + 1, n)  # x(i, j+1) - x(i, j)
        self.diag = z(5, s, n)  # x(i, j+1) - x(i+1, j)
        self.t1 = z(3, s, n)
        self.t2 = z(3, s, n)
        # Doubled area vectors of T1 and T2 per quad, padded: row 0 and row s+1 stay zero (no quad
        # above the north pole / below the south pole), column 0 repeats column n (the quad at j - 1).
        self.n1 = z(3, s + 2, n + 1)
        self.n2 = z(3, s + 2, n + 1)
        self.quad = z(3, s + 2, n + 1)
        # Per grid node: sum of the doubled area vectors of its triangles (= 6 grad V). Last column 0.
        self.grad6 = z(3, s + 1, n + 1)
        self.product = z(3, s + 1, n + 1)
        self.unit1 = None  # area-gradient buffers, made on first use

    def compute(self, x5: np.ndarray) -> np.ndarray:
        """Fill ``n1``, ``n2`` and ``grad6`` from grid positions ``x5`` (5, stacks + 1, slices + 1),
        cyclic components and wrap column filled. Returns ``grad6`` (6 x the volume gradient)."""
        s, n = self.stacks, self.slices
        np.subtract(x5[:, 1:, :], x5[:, :-1, :], out=self.down)
        np.subtract(x5[:, :, 1:], x5[:, :, :-1], out=self.right)
        np.subtract(self.right[:, :s, :], self.down[:, :, :n], out=self.diag)  # c - b = (c - a) - (b - a)
        # T1 = (a, b, c): (b - a) x (c - a)
        self._cross(self.down[:, :, :n], self.right[:, :s, :], self.n1[:, 1 : s + 1, 1:])
        # T2 = (c, b, d), written as (b, d, c): (d - b) x (c - b)
        self._cross(self.right[:, 1:, :], self.diag, self.n2[:, 1 : s + 1, 1:])
        self.n1[:, :, 0] = self.n1[:, :, n]
        self.n2[:, :, 0] = self.n2[:, :, n]
        np.add(self.n1, self.n2, out=self.quad)
        # Node (i, j) is a of T1(i, j); b of T1 and T2 of quad (i-1, j); c of T1 and T2 of quad
        # (i, j-1); d of T2(i-1, j-1). In padded coordinates quad (i, j) sits at (i + 1, j + 1).
        g = self.grad6[:, :, :n]
        np.add(self.n1[:, 1:, 1:], self.quad[:, 1:, :n], out=g)
        g += self.quad[:, :-1, 1:]
        g += self.n2[:, :-1, :n]
        return self.grad6

    def area_gradient(self) -> np.ndarray:
        """After ``compute``: twice the gradient of the surface area at every grid node (3, stacks
        + 1, slices + 1; pole rows hold per-column parts, last column 0). For a triangle with unit
        normal u, 2 dA/dx at a corner is u x (the opposite edge, counter-clockwise):

            T1 = (a, b, c): a: u1 x (c - b), b: u1 x (a - c), c: u1 x (b - a)
            T2 = (c, b, d): c: u2 x (d - b), b: u2 x (c - d), d: u2 x (b - c)

        gathered like ``grad6``. A collapsed triangle (zero normal) contributes nothing."""
        if self.unit1 is None:
            self._init_area_buffers()
        s, n = self.stacks, self.slices
        for normal, unit in ((self.n1, self.unit1), (self.n2, self.unit2)):
            quad = normal[:, 1 : s + 1, 1:]
            np.multiply(quad, quad, out=self.t1)
            length = self.length
            np.sum(self.t1, axis=0, out=length)
            np.sqrt(length, out=length)
            np.maximum(length, self._tiny, out=length)
            np.divide(quad, length, out=unit[:3])
            unit[3:5] = unit[0:2]
        down, right, diag = self.down, self.right, self.diag
        # Roles, padded like n1 (quad (i, j) at (i + 1, j + 1)).
        ra, rb, rc, rd = self.role_a, self.role_b, self.role_c, self.role_d
        self._cross(self.unit1, diag, ra[:, 1 : s + 1, 1:])
        self._cross(right[:, :s, :], self.unit1, rb[:, 1 : s + 1, 1:])  # u1 x (a - c) = right x u1
        self._cross(self.unit1, down[:, :, :n], rc[:, 1 : s + 1, 1:])
        self._cross(self.unit2, right[:, 1:, :], self.tmp3)
        rc[:, 1 : s + 1, 1:] += self.tmp3
        self._cross(down[:, :, 1:], self.unit2, self.tmp3)  # u2 x (c - d) = down(i, j + 1) x u2
        rb[:, 1 : s + 1, 1:] += self.tmp3
        self._cross(diag, self.unit2, rd[:, 1 : s + 1, 1:])  # u2 x (b - c) = diag x u2
        for role in (ra, rb, rc, rd):
            role[:, :, 0] = role[:, :, n]
        g = self.area2[:, :, :n]
        np.add(ra[:, 1:, 1:], rc[:, 1:, :n], out=g)
        g += rb[:, :-1, 1:]
        g += rd[:, :-1, :n]
        return self.area2

    def _init_area_buffers(self) -> None:
        s, n = self.stacks, self.slices
        z = lambda *shape: np.zeros(shape, dtype=self.dtype)  # noqa: E731
        self.unit1 = z(5, s, n)
        self.unit2 = z(5, s, n)
        self.length = z(s, n)
        self.tmp3 = z(3, s, n)
        self.role_a, self.role_b, self.role_c, self.role_d = (z(3, s + 2, n + 1) for _ in range(4))
        self.area2 = z(3, s + 1, n + 1)
        self._tiny = self.dtype.type(np.finfo(self.dtype).tiny) * self.dtype.type(1e6)

    def _cross(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
        np.multiply(a[1:4], b[2:5], out=self.t1)
        np.multiply(a[2:5], b[1:4], out=self.t2)
        np.subtract(self.t1, self.t2, out=out)

    def volume_from_gradient(self, x5: np.ndarray) -> float:
        """V = (1/3) sum x . grad V over the grid (pole rows hold partial sums, the wrap column 0),
        summed in float64."""
        np.multiply(x5[:3], self.grad6, out=self.product)
        return float(self.product.sum(dtype=np.float64)) / 18.0

    def band_volumes(self, x5: np.ndarray) -> np.ndarray:
        """(stacks,) signed volume of each latitude band (cones from the origin of ``x5``); after
        ``compute``. Their sum is the exact enclosed volume."""
        s, n = self.stacks, self.slices
        a = x5[:3, :s, :n]
        b = x5[:3, 1:, :n]
        t1 = np.einsum("kij,kij->i", a, self.n1[:, 1 : s + 1, 1:], dtype=np.float64)
        t2 = np.einsum("kij,kij->i", b, self.n2[:, 1 : s + 1, 1:], dtype=np.float64)
        return (t1 + t2) / 6.0


def fill_grid(x5: np.ndarray, points: np.ndarray, origin=None) -> None:
    """Write vertex array ``points`` (P, 3) (UV-sphere vertex order) into the cyclic grid ``x5``
    (5, stacks + 1, slices + 1), optionally relative to ``origin``."""
    s = x5.shape[1] - 1
    n = x5.shape[2] - 1
    pts = np.asarray(points, dtype=np.float64)
    if origin is not None:
        pts = pts - np.asarray(origin, dtype=np.float64)
    x5[:3, 1:s, :n] = pts[1:-1].reshape(s - 1, n, 3).transpose(2, 0, 1)
    x5[:3, 0, :] = pts[0][:, None]
    x5[:3, s, :] = pts[-1][:, None]
    x5[:3, 1:s, n] = x5[:3, 1:s, 0]
    x5[3:5] = x5[0:2]


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
    """(P, 3): a third of the area vector of every triangle, summed at its vertices (grad V)."""
    pts = np.asarray(points, dtype=np.float64)
    x0, x1, x2 = (pts[triangles[:, k]] for k in range(3))
    third = np.cross(x1 - x0, x2 - x0) / 6.0
    return corner_sum(triangles, lambda k: third, pts.shape[0])
