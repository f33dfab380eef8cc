"""Enclosed volume of the UV-sphere mesh, band by band on the ring grid, its gradient and the
gradient of the surface area.

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
3, V = (1/3) sum_v x_v . grad_v, which the hot path uses to get the volume for free. For any
triangle list, ``vertex_area_vectors`` takes the same sums from slime/mesh.py, the one home of
area vectors and area-weighted normals; the grid's tests hold the two equal.

Layout, for speed: the surface tension's area gradient runs every substep, and what costs here is
passes over memory. The grid (stacks + 1, slices + 1), whose wrap column (index ``slices``)
repeats column 0, is read *flat*: node (i, j) is k = i w + j with w = slices + 1, so every
neighbour is a fixed offset (j + 1 is k + 1, i + 1 is k + w) and every operation is one contiguous
pass instead of one short row at a time. The quad at k spans k, k + 1, k + w, k + w + 1. The quads
at column ``slices`` join a wrap-column node to the next row's first node: fillers of zero area
(their edges repeat column 0's), zeroed all the same. Per-quad fields are stored after w + 1 zeros,
so that the four quads around node k are plain slices at offsets w + 1, w, 1 and 0, and the pole
rows and the last band need no special case. The wrap column collects the quads left of column 0
and is folded onto it at the end (then left 0).

Vectors are structure-of-arrays with the component axis first, in cyclic order so that a cross
product is two multiplies and a subtract over whole arrays: with rows (y, z, x, y),
(a x b)[x, y, z] = a[0:3] * b[1:4] - a[1:4] * b[0:3]. Positions come in as 5 cyclic rows
(x, y, z, x, y) (rows 0-2 for the volume, rows 1-4 for the edges). The two triangles of a quad are
stacked on an axis of their own, so that one numpy call serves both.

Many bodies go through the same passes (``batch`` in the constructor): positions (5, *batch,
stacks + 1, slices + 1) give gradients (3, *batch, stacks + 1, slices + 1) and volumes of shape
``batch``. Inside, the bodies' grids lie one after another down a single flat run (see
``GridVolume``), so the positions are read fastest when the bodies' grids are contiguous.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from slime.mesh import vertex_area_sums
from slime.physics.aligned import aligned_zeros


class GridVolume:
    """Work buffers and the band-volume / gradient computation for one grid shape, dtype and batch
    shape (see the module docstring for the flat, padded layout).

    A batch is laid out *tall*: body after body down one flat run, as one grid of
    ``count * (stacks + 1)`` rows, so every pass is one long run whatever the number of bodies
    (16 grids of 33 x 33 cost what one of 129 x 129 does, instead of 2.5 times as much row by
    row). The band between one body's last row and the next body's first joins nothing: its down
    edges, the pole rows' right edges (zero-length for any finite body) and the wrap column's
    diagonals are zeroed after the edges are taken, so its triangles have no area and no
    gradient, and a broken (non-finite) body cannot reach its neighbours through them (a test
    holds a NaN body's neighbours bit-equal to themselves alone).

    The passes are planned once, here: every numpy call of ``compute`` and ``area_gradient`` with
    its views into the preallocated buffers, so that a call only runs down the list. Buffers are
    few and reused (what one pass writes, the next reads while it is still in cache)."""

    def __init__(self, stacks: int, slices: int, dtype=np.float64, batch=()):
        s, n = int(stacks), int(slices)
        self.stacks, self.slices, self.dtype = s, n, np.dtype(dtype)
        self.batch = tuple(int(b) for b in batch)
        self.count = math.prod(self.batch)  # bodies
        w = self.width = n + 1
        self.rows = self.count * (s + 1)
        self.nodes = self.rows * w  # all bodies' nodes, one flat run
        self.quads = (self.rows - 1) * w - 1  # flat quads 0 .. quads - 1 (the last filler would reach past the grid)
        self.pad = w + 1  # quad k is stored at k + pad in the per-quad fields
        stored = self.nodes + self.pad
        # Edges in rows (y, z, x, y), three kinds stacked: 0: down x(k + w) - x(k), stored at k + w;
        # 1: right x(k + 1) - x(k), at k; 2: diag c - b = right - down of quad k, at k. So [0:2] at
        # w + k is (down, the right edge below) of quad k, and [1:3] at k is (right, diag).
        self.edges = aligned_zeros((4, 3, self.nodes), self.dtype)
        self.normals = aligned_zeros((3, 2, stored), self.dtype, start=self.pad)  # doubled area vectors of T1, T2
        self.quad = aligned_zeros((3, stored), self.dtype, start=self.pad)  # n1 + n2, padded
        self.spare = aligned_zeros((3, 2, self.quads), self.dtype)  # one product of a cross product, both triangles
        self.grad6 = aligned_zeros((3, self.nodes), self.dtype)  # per node: sum of its triangles' n (= 6 grad V)
        self._grad6_grid = self._grid(self.grad6)
        self._grad6_rows = self.grad6.reshape(3, self.rows, w, 1)  # split, never merged: a view
        self._row_dots = np.zeros((3, self.rows, 1, 1), dtype=self.dtype)
        self._compute_plan = self._plan_gradient()
        self._area_plan = None  # made on first use

    def _bodies(self, flat: np.ndarray) -> np.ndarray:
        """(lead, count, (s + 1) w) view of a (lead, nodes) array: one row per body."""
        return flat.reshape(flat.shape[0], self.count, -1)

    def _flat(self, x5: np.ndarray) -> np.ndarray:
        """(5, nodes) view (a copy only when the bodies' grids are not one after another)."""
        return x5.reshape(x5.shape[0], self.nodes)

    def _grid(self, flat: np.ndarray) -> np.ndarray:
        return flat.reshape(flat.shape[0], *self.batch, self.stacks + 1, self.width)

    def _fold_wrap(self, flat: np.ndarray) -> list:
        """Add the wrap column onto column 0 (both are the same vertex), then zero it."""
        rows = flat.reshape(flat.shape[0], self.rows, self.width)
        first, wrap = rows[..., 0], rows[..., self.slices]
        return [(np.add, (first, wrap, first)), (np.copyto, (wrap, 0.0))]

    def _cross(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> list:
        """a x b into ``out`` (3 rows, both triangles) for a, b in cyclic rows (y, z, x, y)."""
        return [
            (np.multiply, (a[0:3], b[1:4], out)),
            (np.multiply, (a[1:4], b[0:3], self.spare)),
            (np.subtract, (out, self.spare, out)),
        ]

    def _plan_gradient(self) -> list:
        """The passes of ``compute`` after the edges along the grid lines (which read the positions)."""
        s, w, m, pad, n = self.stacks, self.width, self.quads, self.pad, self.slices
        e, normals, quad, g = self.edges, self.normals, self.quad, self.grad6
        n1, n2 = normals[:, 0], normals[:, 1]
        within = slice(pad, pad + m)  # the quads in the padded fields
        # Between bodies: the down edges from one body's last row (stored on the next body's first
        # row) and every pole row's right edges are zero.
        # (One body alone needs none of it: its pole rows' right edges are zero already.)
        plan = []
        if self.count > 1:
            right = self._bodies(e[:, 1])  # (4, count, (s + 1) w)
            plan += [(np.copyto, (right[..., :w], 0.0)), (np.copyto, (right[..., s * w :], 0.0)),
                     (np.copyto, (self._bodies(e[:, 0])[:, 1:, :w], 0.0))]
        plan += [(np.subtract, (e[:, 1, :m], e[:, 0, w : w + m], e[:, 2, :m]))]
        if self.count > 1:
            # The wrap column's fillers' diagonals too: a filler has no area, but 0 x NaN is
            # NaN, and the last one of a body is read by the next body's first node.
            plan += [(np.copyto, (e[:, 2, n:m:w], 0.0))]
        # T1 = (a, b, c): (b - a) x (c - a) = down x right; T2 = (c, b, d), written as (b, d, c):
        # (d - b) x (c - b) = (right below) x diag. Both at once.
        plan += self._cross(e[:, 0:2, w : w + m], e[:, 1:3, :m], normals[..., within])
        plan += [(np.copyto, (normals[..., pad + n : pad + m : w], 0.0))]  # the fillers
        plan += [(np.add, (n1[..., within], n2[..., within], quad[..., within]))]
        # Node k is a of T1(k); b of T1 and T2 of quad k - w; c of T1 and T2 of quad k - 1; d of
        # T2(k - w - 1).
        plan += [
            (np.add, (n1[..., self._around(0)], quad[..., self._around(1)], g)),
            (np.add, (g, quad[..., self._around(w)], g)),
            (np.add, (g, n2[..., self._around(w + 1)], g)),
        ]
        return plan + self._fold_wrap(g)

    def _around(self, back: int) -> slice:
        """The per-quad field's entries of quad k - ``back`` for every node k."""
        return slice(self.pad - back, self.pad - back + self.nodes)

    def compute(self, x5: np.ndarray) -> np.ndarray:
        """Fill the triangles' area vectors and ``grad6`` from grid positions ``x5`` (5, *batch,
        stacks + 1, slices + 1), cyclic components and wrap column filled. Returns ``grad6`` (3,
        *batch, stacks + 1, slices + 1): 6 x the volume gradient; pole rows hold per-column parts,
        the wrap column is 0."""
        w, e = self.width, self.edges
        x = self._flat(x5)[1:5]
        np.subtract(x[:, w:], x[:, :-w], out=e[:, 0, w:])
        np.subtract(x[:, 1:], x[:, :-1], out=e[:, 1, :-1])
        for op, args in self._compute_plan:
            op(*args)
        return self._grad6_grid

    def area_gradient(self) -> np.ndarray:
        """After ``compute``: twice the gradient of the surface area at every grid node (3, *batch,
        stacks + 1, slices + 1; pole rows hold per-column parts, the wrap column is 0). For a
        triangle with unit normal u, 2 dA/dx at a corner is u x (the opposite edge,
        counter-clockwise):

            T1 = (a, b, c): a: u1 x (c - b), b: u1 x (a - c), c: u1 x (b - a)
            T2 = (c, b, d): c: u2 x (d - b), b: u2 x (c - d), d: u2 x (b - c)

        The three corners of a triangle sum to zero, so b's parts are minus the others' and four
        cross products per quad do. A collapsed triangle (zero normal) contributes nothing."""
        if self._area_plan is None:
            self._area_plan = self._plan_area()
        for op, args in self._area_plan:
            op(*args)
        return self._area2_grid

    def _plan_area(self) -> list:
        w, m, pad, nodes = self.width, self.quads, self.pad, self.nodes
        within = slice(pad, pad + m)
        unit = aligned_zeros((4, 2, m), self.dtype)  # rows (y, z, x, y), both triangles
        length = aligned_zeros((2, m), self.dtype)
        role_ad = aligned_zeros((3, 2, nodes + pad), self.dtype, start=pad)  # a of T1 and, negated, d of T2: (u1, u2) x diag
        role_c = aligned_zeros((3, nodes + pad), self.dtype, start=pad)
        role_b = self.quad  # free once compute has gathered grad6
        self.area2 = aligned_zeros((3, nodes), self.dtype)
        self._area2_grid = self._grid(self.area2)
        tiny = self.dtype.type(np.finfo(self.dtype).tiny) * self.dtype.type(1e6)
        e, nq = self.edges, self.normals[..., within]
        plan = [
            (partial(np.einsum, "k...,k...->...", out=length), (nq, nq)),  # |n|^2, one pass
            (np.sqrt, (length, length)),
            # + tiny, not max(|n|, tiny) (a slower loop): the same for every triangle that has an
            # area, and a zero normal stays a zero unit vector.
            (np.add, (length, tiny, length)),
            (np.reciprocal, (length, length)),  # then multiplies: a divide costs twice as much
            (np.multiply, (nq[1:3], length, unit[0:2])),
            (np.multiply, (nq[0:2], length, unit[2:4])),
        ]
        ad = role_ad[..., within]
        plan += self._cross(unit, e[:, 2:3, :m], ad)
        # c: u1 x down + u2 x (right below), written over the area vectors (read for the last
        # time by the unit normals above; fewer buffers stay in cache).
        c_parts = nq
        plan += self._cross(unit, e[:, 0:2, w : w + m], c_parts)
        c, b = role_c[..., within], role_b[..., within]
        plan += [
            (np.add, (c_parts[:, 0], c_parts[:, 1], c)),
            # b = -(a + c + d) = -(a + c - ad[1]).
            (np.add, (ad[:, 0], c, b)),
            (np.subtract, (b, ad[:, 1], b)),
        ]
        g = self.area2
        plan += [
            (np.add, (role_ad[:, 0, self._around(0)], role_c[:, self._around(1)], g)),
            (np.subtract, (g, role_b[:, self._around(w)], g)),
            (np.subtract, (g, role_ad[:, 1, self._around(w + 1)], g)),
        ]
        return plan + self._fold_wrap(g)

    def volume_from_gradient(self, x5: np.ndarray):
        """V = (1/3) sum x . grad V over the grid (pole rows hold partial sums, the wrap column 0):
        a float, or an array of shape ``batch``. One grid row's dot product at a time (a stack of
        1 x w by w x 1 products, no product array), the rows summed in float64."""
        rows = self._flat(x5)[:3].reshape(3, self.rows, 1, self.width)
        np.matmul(rows, self._grad6_rows, out=self._row_dots)
        if not self.batch:
            return float(self._row_dots.sum(dtype=np.float64)) / 18.0
        per_row = self._row_dots.reshape(3, *self.batch, self.stacks + 1)
        return per_row.sum(axis=(0, -1), dtype=np.float64) / 18.0

    def band_volumes(self, x5: np.ndarray) -> np.ndarray:
        """(*batch, stacks) signed volume of each latitude band (cones from the origin of ``x5``);
        after ``compute`` and before ``area_gradient`` (which reuses the area vectors' buffer).
        Their sum is the exact enclosed volume."""
        s, n, w, pad = self.stacks, self.slices, self.width, self.pad
        quads = self.normals[..., pad : pad + self.nodes].reshape(3, 2, *self.batch, s + 1, w)[..., :s, :n]
        a = x5[:3, ..., :s, :n]
        b = x5[:3, ..., 1:, :n]
        t1 = np.einsum("k...ij,k...ij->...i", a, quads[:, 0], dtype=np.float64)
        t2 = np.einsum("k...ij,k...ij->...i", b, quads[:, 1], dtype=np.float64)
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
    """(P, 3) grad V: a sixth of every triangle's area vector (x1 - x0) x (x2 - x0), summed at
    its three corners."""
    return vertex_area_sums(points, triangles, divide_by=6.0)
