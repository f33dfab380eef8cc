"""The slime's forces, fast: every body of one mesh resolution at once, on the ring grid.

``slime_forces.py`` writes each force plainly; this module computes the same numbers for a whole
stack of B bodies of the same ``stacks x slices`` (each with its own size, mass, stiffnesses and
viscosities) in a fixed number of numpy calls, whatever B. ``tests/test_slime_forces.py`` holds
the two equal.

Layout. Each substep copies positions (relative to each body's last centroid) and velocities into
one float32 grid buffer of 12 rows over B ring grids of (stacks + 1, slices + 1) nodes (pole rows
repeated, a wrap column):

    rows 0-2 rest offsets r, rows 3-5 velocity, row 6 ones,
    rows 7-11 x - c with cyclic components (x, y, z, x, y).

Shape matching, viscosity, air drag and gravity are affine in (r, v, 1, x - c), so their
accelerations are one (3, 10) matrix per body applied to the buffer's first ten rows in one
batched product (the two cyclic copies, which only the volume's cross products read, come last
and stay out of every product), and the moments they need (centroid shift, centroid velocity,
A = sum m x r^T, the second moment, the angular momentum) are one (4, 10) product per body of the
mass-weighted positions with the same rows. The 3 x 3 algebra in between (best-fit rotations by one batched SVD, inertia solves,
assembling the maps) works on (B, 3, 3) stacks. Masses on the grid are split over the repeated pole
entries and zero in the wrap column, so grid sums are exact vertex sums. The pressure and the
surface tension come from ``GridVolume`` on rows 7-11, the shear viscosity from shifted slices of
the deformation velocity. Everything is accumulated as acceleration; volume sums are float64.

Speed is in passes over memory: the work buffers come from ``aligned.aligned_zeros`` (a pass whose
output starts off a cache line runs at half speed), the shear stencil runs over rows 1 .. s - 1 as
one flat run rather than row by row, and one scratch grid serves three passes in turn so that
fewer buffers compete for the cache (after a full pass over several megabytes even the 3 x 3 SVD
takes three times as long: its code and data were evicted).
"""

from __future__ import annotations

import numpy as np

from slime.physics.aligned import aligned_zeros
from slime.physics.shape_matching import apply3, axial_vectors, best_rotations, inverse_inertias, spin_matrices
from slime.physics.slime_shape import SlimeShape
from slime.physics.volume import GridVolume

_R0, _V0, _ONE, _X0 = 0, 3, 6, 7  # row offsets in the float32 grid buffer
_LINEAR = 10  # the rows the affine maps and the moments read (not the cyclic copies 10, 11)
_DIAGONAL = np.arange(3)
# Grid nodes per matrix product: 4 x 12 x 4096 stays under OpenBLAS's threading threshold, whose
# worker threads spin between calls and, on a small shared machine, cost far more than they save
# on products this thin (measured: 128 x 128 goes from 6 ms to 1 ms).
_CHUNK = 4096


class SlimeBatch:
    """B slime bodies of one mesh resolution: their constants stacked, their grid buffers, and the
    rotation and centroid each body's shape matching tracks from substep to substep."""

    def __init__(self, shapes: list[SlimeShape], gravity=(0.0, -9.81, 0.0)):
        s, n = shapes[0].stacks, shapes[0].slices
        if any((sh.stacks, sh.slices) != (s, n) for sh in shapes):
            raise ValueError("a SlimeBatch holds bodies of one resolution")
        b = len(shapes)
        self.shapes = list(shapes)
        self.stacks, self.slices, self.size = s, n, b
        self.count = shapes[0].count  # vertices per body
        shape = (s + 1, n + 1)
        nodes = (s + 1) * (n + 1)
        self._nodes = nodes
        self._chunks = [slice(a, min(a + _CHUNK, nodes)) for a in range(0, nodes, _CHUNK)]
        f32 = np.float32

        def grid(rows: int) -> np.ndarray:
            # The bodies' grids one after another (GridVolume's tall layout), each row on a cache line.
            return aligned_zeros((rows, b * nodes), f32).reshape(rows, b, *shape)

        self.buf = grid(12)
        self.buf[_ONE] = 1.0
        self.buf[_R0 : _R0 + 3] = np.stack([sh.rest_grid for sh in shapes], axis=1)
        self._mx = grid(4)  # m x~ rows, then m
        self._mx[3] = np.stack([sh.grid_mass for sh in shapes])
        self._acc = grid(3)
        self._u = grid(3)  # deformation velocity
        # The shear viscosity's pull, written as one flat run from index w (row 1 of the first body).
        w = n + 1
        self._shear_acc = aligned_zeros((3, b * nodes), f32, start=w).reshape(3, b, *shape)
        # One scratch grid, reused pass after pass (what is not touched stays in cache): the
        # shear stencil's products, then the pressure, then the surface tension.
        self._scratch = grid(3)
        self._volume = GridVolume(s, n, f32, batch=(b,))
        # Per-body constants, stacked.
        prm = [sh.params for sh in shapes]
        column = lambda values: np.array(values, dtype=np.float64)  # noqa: E731
        self.total_mass = column([p.mass for p in prm])
        self.radius = column([p.radius for p in prm])
        self.shape_stiffness = column([p.shape_stiffness for p in prm])
        self.viscosity = column([p.viscosity for p in prm])
        self.air_drag = column([p.air_drag for p in prm])
        self.gravity = np.broadcast_to(np.asarray(gravity, dtype=np.float64), (b, 3)).copy()
        self.ideal_volume = column([sh.ideal_volume for sh in shapes])
        self.pressure_scale = column([sh.pressure_scale for sh in shapes])
        self.rest_pressure = column([sh.rest_pressure for sh in shapes])
        self.rest_spread = column([sh.rest_spread for sh in shapes])
        self.inertia_floor = column([sh.inertia_floor for sh in shapes])
        self.pole_mass = np.array([[sh.mass[0], sh.mass[-1]] for sh in shapes])
        self.grid_inv_mass = np.stack([sh.grid_inv_mass for sh in shapes])
        self.tension_weight = np.stack([sh.tension_weight for sh in shapes])
        self.tension_pole = np.array([sh.tension_pole for sh in shapes])
        self.any_tension = any(sh.tension > 0.0 for sh in shapes)
        # The shear weights of the up, down, side neighbours and of the vertex itself on every
        # grid node of rows 1 .. s - 1 (zero in the wrap column), flat, so the stencil is whole passes.
        self.shear = []
        for k in range(4):
            weight = aligned_zeros((b * nodes,), f32)
            weight.reshape(b, s + 1, n + 1)[:, 1:s, :n] = np.stack([sh.shear[k] for sh in shapes])
            self.shear.append(weight[w : b * nodes - w])
        self.shear_side = np.stack([sh.shear[2][:, 0] for sh in shapes])  # (B, s - 1)
        self.shear_pole = np.array([sh.shear[4:] for sh in shapes])  # (B, 2)
        self.any_shear = any(p.shear_viscosity > 0.0 for p in prm)
        # Tracked state: each body's centroid from the last substep, and its best-fit rotation.
        self.ref = np.zeros((b, 3))
        self.rotation = np.broadcast_to(np.eye(3), (b, 3, 3)).copy()
        self.last_volume = self.ideal_volume.copy()
        # The affine maps, rewritten in place each substep; the velocity block depends only on the
        # substep length (kept with the h it was made for).
        self._affine = np.zeros((b, 3, _LINEAR))
        self._deformation = np.zeros((b, 3, _LINEAR))
        self._deformation[:, :, _V0 : _V0 + 3] = np.eye(3)
        self._decay_for = None

    # ------------------------------------------------------------------ the forces
    def accelerations(self, x: np.ndarray, v: np.ndarray, out: np.ndarray, h: float,
                      internal_only: bool = False) -> None:
        """Write the acceleration of every vertex into ``out``. ``x``, ``v``, ``out``: (3, B, P)
        views of the world's arrays for this batch's bodies. ``internal_only`` leaves out gravity
        and air drag (the internal forces alone sum to zero)."""
        s, n, b = self.stacks, self.slices, self.size
        buf = self.buf
        ref = self.ref.T[:, :, None, None]
        # Positions relative to last substep's centroid (float32 keeps its precision near it; the
        # small shift to this substep's centroid comes out of the moments), then velocities.
        xs = buf[_X0 : _X0 + 3]
        np.subtract(x[:, :, 1:-1].reshape(3, b, s - 1, n), ref, out=xs[:, :, 1:s, :n])
        xs[:, :, 0, :] = (x[:, :, 0] - self.ref.T)[:, :, None]
        xs[:, :, s, :] = (x[:, :, -1] - self.ref.T)[:, :, None]
        xs[:, :, 1:s, n] = xs[:, :, 1:s, 0]
        buf[_X0 + 3 : _X0 + 5] = buf[_X0 : _X0 + 2]
        vs = buf[_V0 : _V0 + 3]
        np.copyto(vs[:, :, 1:s, :n], v[:, :, 1:-1].reshape(3, b, s - 1, n), casting="same_kind")
        vs[:, :, 0, :] = v[:, :, 0][:, :, None]
        vs[:, :, s, :] = v[:, :, -1][:, :, None]
        vs[:, :, 1:s, n] = vs[:, :, 1:s, 0]
        flat = buf.reshape(12, b, -1)[:_LINEAR]

        # Moments in one product per body: row k < 3 is sum m x~_k [r, v, 1, x~], row 3 sum m [...].
        np.multiply(xs, self._mx[3], out=self._mx[:3])
        mom = self._product(self._mx.reshape(4, b, -1), flat)  # (B, 4, 10) float64
        total = self.total_mass
        shift = mom[:, 3, _X0 : _X0 + 3] / total[:, None]  # centroid - ref
        vc = mom[:, 3, _V0 : _V0 + 3] / total[:, None]  # centroid velocity
        self.ref = self.ref + shift
        # sum m (x - c) r^T = sum m x~ r^T, since sum m r = 0.
        self.rotation = best_rotations(mom[:, :3, _R0 : _R0 + 3], self.rotation)
        second = mom[:, :3, _X0 : _X0 + 3] - total[:, None, None] * shift[:, :, None] * shift[:, None, :]
        kxv = mom[:, :3, _V0 : _V0 + 3] - total[:, None, None] * shift[:, :, None] * vc[:, None, :]
        inverse_inertia = inverse_inertias(second, self.inertia_floor)
        omega = apply3(inverse_inertia, axial_vectors(kxv))
        spin = spin_matrices(omega)

        # Shape restoring, k (R r - (x - c)) = k R r - k x~ + k shift; viscosity relative to the
        # rigid motion and air drag, -mu (v - v_c - omega x (x - c)) - a v, at the exact
        # exponential decay over the substep (never overshoots); gravity; and the shear
        # viscosity's rigid part taken back out (a push and a turn W about the centroid):
        #   x~ block: -k 1 + mu spin - W;  1 column: k shift + mu v_c - (mu spin - W) shift + g - push.
        affine = self._affine
        k = self.shape_stiffness
        np.multiply(self.rotation, k[:, None, None], out=affine[:, :, _R0 : _R0 + 3])
        mu = self._viscous_rate(h, internal_only)
        turning = affine[:, :, _X0 : _X0 + 3]
        np.multiply(spin, mu[:, None, None], out=turning)
        column = k[:, None] * shift + mu[:, None] * vc
        if not internal_only:
            column += self.gravity
        if self.any_shear:
            linear, angular = self._shear_viscosity(flat, vc, spin, shift, inverse_inertia)
            turning -= spin_matrices(angular)
            column -= linear
        column -= apply3(turning, shift)
        affine[:, :, _ONE] = column
        turning[:, _DIAGONAL, _DIAGONAL] -= k[:, None]
        acc = self._acc
        self._apply(affine, flat, acc.reshape(3, b, -1), self._shear_acc.reshape(3, b, -1) if self.any_shear else None)

        # Pressure along the volume gradient (the area-weighted normals). Sum grad = 0, so the
        # volume does not care that x~ is relative to ref rather than to the centroid.
        x5 = buf[_X0 : _X0 + 5]
        grad6 = self._volume.compute(x5)
        volume = np.asarray(self._volume.volume_from_gradient(x5), dtype=np.float64).reshape(b)
        self.last_volume = volume
        ratio = np.clip((self.ideal_volume - volume) / self.ideal_volume, -1.0, 1.0)
        ratio[~np.isfinite(ratio)] = 0.0
        pressure_vec = self._scratch
        np.multiply(grad6, self.grid_inv_mass, out=pressure_vec)  # grad / m, 0 off the rings
        poles = grad6[:, :, ::s, :n].sum(axis=3, dtype=np.float64)  # (3, B, 2): rows 0 and s at once
        pole_n, pole_s = poles[:, :, 0], poles[:, :, 1]
        ring = (np.einsum("kbn,kbn->b", pressure_vec.reshape(3, b, -1), grad6.reshape(3, b, -1))
                .astype(np.float64))
        spread = (ring + (pole_n * pole_n).sum(axis=0) / self.pole_mass[:, 0]
                  + (pole_s * pole_s).sum(axis=0) / self.pole_mass[:, 1]) / 36.0
        limit = np.where(spread > self.rest_spread, self.rest_spread / np.where(spread > 0.0, spread, 1.0), 1.0)
        pressure = (self.rest_pressure + self.pressure_scale * limit * ratio) / 6.0  # (B,)
        pressure_vec *= pressure.astype(np.float32)[:, None, None]
        acc += pressure_vec

        tension_n = tension_s = 0.0
        if self.any_tension:
            area2 = self._volume.area_gradient()
            np.multiply(area2, self.tension_weight, out=self._scratch)
            acc -= self._scratch
            pole_area = area2[:, :, ::s, :n].sum(axis=3, dtype=np.float64)
            tension_n = self.tension_pole[:, 0] * pole_area[:, :, 0]
            tension_s = self.tension_pole[:, 1] * pole_area[:, :, 1]

        np.copyto(out[:, :, 1:-1].reshape(3, b, s - 1, n), acc[:, :, 1:s, :n])
        out[:, :, 0] = acc[:, :, 0, 0] + pressure * pole_n / self.pole_mass[:, 0] - tension_n
        out[:, :, -1] = acc[:, :, s, 0] + pressure * pole_s / self.pole_mass[:, 1] - tension_s

    def _viscous_rate(self, h: float, internal_only: bool) -> np.ndarray:
        """(B,) the viscosity's part of the viscosity-and-drag decay rate over a substep of h. The
        affine map's velocity block (-decay 1, decay the whole rate) is written here when h changes."""
        key = (h, internal_only)
        if self._decay_for != key:
            drag = 0.0 if internal_only else self.air_drag
            rate = self.viscosity + drag
            decay = np.where(rate > 0.0, -np.expm1(-rate * h) / h, 0.0)
            mu = np.where(rate > 0.0, decay * self.viscosity / np.where(rate > 0.0, rate, 1.0), 0.0)
            self._affine[:, :, _V0 : _V0 + 3] = -decay[:, None, None] * np.eye(3)
            self._decay_for, self._mu = key, mu
        return self._mu

    def _shear_viscosity(self, flat, vc, spin, shift, inverse_inertia) -> tuple:
        """``slime_forces.add_shear_viscosity`` on the ring grids: fills ``_shear_acc`` with each
        vertex's weighted pull toward its four grid neighbours' deformation velocity (a pole:
        toward its first ring's), and returns the rigid part of that pull ((B, 3) linear and
        angular accelerations) for the affine map to take back out."""
        s, n, b = self.stacks, self.slices, self.size
        w = n + 1
        up, down, side, own = self.shear
        # u = v - v_c - omega x (x~ - shift): affine in the buffer, one product.
        deformation = self._deformation  # its velocity block is the identity
        np.negative(spin, out=deformation[:, :, _X0 : _X0 + 3])
        deformation[:, :, _ONE] = apply3(spin, shift) - vc
        u = self._u
        self._apply(deformation[:, :, _V0:], flat[_V0:], u.reshape(3, b, -1))  # r's columns are 0
        # Every body's rows as one flat run, body after body (node k's neighbours at k +- 1 and
        # k +- w). The weights are 0 in the wrap column (which stays 0) and on the pole rows, which
        # are written last, whole, so what the run read across a body's edge is gone.
        flat_u = u.reshape(3, -1)
        lo, hi = w, b * self._nodes - w
        acc = self._shear_acc
        inner = acc.reshape(3, -1)[:, lo:hi]
        near = self._scratch.reshape(3, -1)[:, : hi - lo]
        np.add(flat_u[:, lo + 1 : hi + 1], flat_u[:, lo - 1 : hi - 1], out=inner)
        inner *= side
        np.multiply(flat_u[:, lo - w : hi - w], up, out=near)
        inner += near
        np.multiply(flat_u[:, lo + w : hi + w], down, out=near)
        inner += near
        np.multiply(flat_u[:, lo:hi], own, out=near)
        inner -= near
        # Column 0's left neighbour is column n - 1, not the flat run's k - 1 (the row above's wrap).
        acc[:, :, 1:s, 0] += self.shear_side * (u[:, :, 1:s, n - 1] - u[:, :, 0 : s - 1, n])
        north = self.shear_pole[:, 0] * (u[:, :, 1, :n].sum(axis=2, dtype=np.float64) - n * u[:, :, 0, 0].astype(np.float64))
        south = self.shear_pole[:, 1] * (u[:, :, s - 1, :n].sum(axis=2, dtype=np.float64) - n * u[:, :, s, 0].astype(np.float64))
        acc[:, :, 0, :] = north[:, :, None]  # the wrap column's mass is 0: no moment from it
        acc[:, :, s, :] = south[:, :, None]
        # Its moments: row k < 3 is sum m x~_k a, row 3 is sum m a.
        mom = self._product(self._mx.reshape(4, b, -1), acc.reshape(3, b, -1))  # (B, 4, 3)
        push = mom[:, 3, :]
        linear = push / self.total_mass[:, None]
        torque = axial_vectors(mom[:, :3, :] - shift[:, :, None] * push[:, None, :])  # about the centroid
        return linear, apply3(inverse_inertia, torque)

    def _product(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """(B, K, J) float64 sums over the grid nodes of left (K, B, nodes) times right (J, B, nodes)."""
        out = None
        for part in self._chunks:
            p = np.matmul(left[:, :, part].transpose(1, 0, 2), right[:, :, part].transpose(1, 2, 0))
            out = p.astype(np.float64) if out is None else out + p
        return out

    def _apply(self, maps: np.ndarray, flat: np.ndarray, out: np.ndarray, plus: np.ndarray | None = None) -> None:
        """out (3, B, nodes) = maps (B, 3, J) applied to buffer rows ``flat`` (J, B, nodes), in
        float32, plus ``plus`` (3, B, nodes) when given (added as the product is put in place:
        one pass)."""
        maps32 = maps.astype(np.float32)
        for part in self._chunks:
            product = np.matmul(maps32, flat[:, :, part].transpose(1, 0, 2)).transpose(1, 0, 2)
            if plus is None:
                out[:, :, part] = product
            else:
                np.add(product, plus[:, :, part], out=out[:, :, part])

    # ------------------------------------------------------------------ tracking
    def track(self, x: np.ndarray, bodies=None) -> None:
        """Start tracking from positions ``x`` (3, B, P): each body's centroid now, and its
        best-fit rotation (kept where the shape has none)."""
        index = np.arange(self.size) if bodies is None else np.atleast_1d(bodies)
        for i in index:
            sh = self.shapes[i]
            c = x[:, i] @ sh.mass / sh.params.mass
            self.ref[i] = c
            a = (sh.mass * (x[:, i] - c[:, None])) @ sh.rest_offsets
            self.rotation[i] = best_rotations(a[None], self.rotation[i][None])[0]
