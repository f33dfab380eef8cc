"""The 3D slime (the PhysicalSlime C++ program, done physically): a UV sphere of point masses held
together by three internal forces, each substep (``slime_forces.py`` writes each one plainly as
its own function; this module computes the same numbers faster, and a test holds them equal;
``SlimeParams(plain_forces=True)`` makes the body run on those functions, edits included):

1. volume preservation: a pressure proportional to the relative volume error pushes every vertex
   along its area-weighted normal, which is exactly the volume gradient, so the force is the
   gradient of an energy and sums to zero. The volume is the mesh's own, integrated band by band on
   the ring grid (``volume.py``), and the ideal volume is the *rest mesh's* volume, not 4/3 pi r^3
   (the PhysicalSlime program's permanent pressure bias);
2. shape restoring: each vertex is pulled toward the rest sphere placed at the current centroid and
   turned by the best-fit rotation (shape matching), so the body can roll and tumble;
3. viscosity: damps velocity relative to the body's own rigid motion (centroid velocity plus
   angular velocity), so wobbles die out while falling and rolling stay free; plus a small air drag
   on absolute velocity.

Then gravity, the floor (engine ``Planes``/``collide_planes`` with Coulomb friction), and the
engine's symplectic Euler.

Layout, for speed. The state lives in the engine's ``Particles`` (positions/velocities (P, 3)
float64), stored as transposed views of structure-of-arrays (3, P) buffers so the ring grid's rows
are contiguous. Each substep copies positions (relative to the centroid) and velocities into one
float32 grid buffer of 12 rows over the (stacks + 1, slices + 1) ring grid (pole rows repeated, a
wrap column):

    rows 0-2 rest offsets r, rows 3-7 x - c with cyclic components (x, y, z, x, y),
    rows 8-10 velocity, row 11 ones.

Shape matching, viscosity, air drag and gravity are affine in (r, x - c, v, 1), so their
accelerations are one (3, 12) matrix applied to that buffer in a single matmul, and the moments
they need (the centroid shift, centroid velocity, A = sum m x r^T, the second moment, the angular
momentum) are one (4, 12) product of the mass-weighted positions with the same buffer. The 3 x 3
algebra in between (rotation tracking, inertia solve, assembling the map) is plain Python floats:
at the default mesh size numpy's per-call overhead on 3 x 3 arrays would cost more than the forces.
Masses on the grid are split over the repeated pole entries and zero in the wrap column, so grid
sums are exact vertex sums. The pressure comes from ``GridVolume`` on
rows 3-7. Everything is accumulated as acceleration; the engine integrator is called with a unit
inverse mass (the particles' own ``inv_mass`` stays the true one). Volume sums are float64.

Masses are the vertices' shares of the rest surface (uniform surface density), raised to at least
the mean share. The floor is for the poles: a UV sphere's polar rings have slivers of area, so their
vertices would be up to n/3 times lighter than the equator's, while the pressure on them depends
on their (full-length) meridian edges. A polar bump then grows its own pressure faster than its mass
resists, and the slime sprouts spikes (seen at 64x64 and 128x128 after hard pokes). With the floor
the polar vertices are heavier per area and the polar axis has about 20 % less inertia than the
others; every internal force still sums to zero.
"""

from __future__ import annotations

import math

import numpy as np

from slime.limits import SPIKE, span
from slime.physics import slime_forces as plain
from slime.physics.integrate import symplectic_euler
from slime.physics.particles import Particles
from slime.physics.planes import Planes
from slime.physics.shape_matching import (
    best_rotation,
    matrix_quaternion,
    quaternion_matrix,
    rigid_angular_velocity,
    track_rotation,
)
from slime.physics.slime_params import SlimeParams
from slime.physics.sphere import grid_edges, ring_grid, sphere_strip, sphere_triangles, uv_sphere, vertex_count
from slime.physics.volume import GridVolume, corner_sum, fill_grid, mesh_volume, vertex_area_vectors

__all__ = ["SlimeBody", "SlimeParams", "wendland"]

_R0, _X0, _V0, _ONE = 0, 3, 8, 11  # row offsets in the float32 grid buffer
_CHUNK = 4096  # grid columns per matrix product (4 x 12 x 4096 stays under OpenBLAS's threading threshold)


def wendland(q: np.ndarray) -> np.ndarray:
    """Wendland C2 kernel (1 - q)^4 (4 q + 1) for q < 1, 0 beyond: 1 at the centre, smooth to
    second order at the edge (no kink where the falloff ends, unlike the PhysicalSlime program's linear one)."""
    q = np.clip(np.asarray(q, dtype=np.float64), 0.0, 1.0)
    return (1.0 - q) ** 4 * (4.0 * q + 1.0)


def _vec3(name: str, value) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite 3-vector, got {value!r}") from None
    if arr.shape != (3,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a finite 3-vector, got {value!r}")
    return arr


def _magnitude(vector: np.ndarray) -> float:
    """Euclidean length without overflow (a 1e200 force has a finite length of about 1.7e200)."""
    big = float(np.max(np.abs(vector)))
    if big == 0.0:
        return 0.0
    return big * float(np.linalg.norm(vector / big))


MAX_SPIKE = SPIKE[1]  # spike(amount): the largest scatter, in radii (slime.limits.SPIKE)
MAX_SPREAD = 100.0  # radii from the centroid beyond which a vertex means the state is broken


class SlimeBody:
    """A soft slime sphere. See the module docstring for the physics and the memory layout."""

    def __init__(self, params: SlimeParams | None = None):
        self._build(params if params is not None else SlimeParams())

    # ------------------------------------------------------------------ construction
    def _build(self, params: SlimeParams) -> None:
        s, n = params.stacks, params.slices
        p = vertex_count(s, n)
        self.params = params
        self.grid = ring_grid(s, n)
        self.triangles = sphere_triangles(s, n)
        self.strip = sphere_strip(s, n)
        self.grid_edges = grid_edges(s, n)  # the shear viscosity's neighbours (plain path)
        # State as (3, P) structure-of-arrays; the particles hold (P, 3) views of them.
        self._x_soa = np.zeros((3, p))
        self._v_soa = np.zeros((3, p))
        self.particles = Particles(
            positions=self._x_soa.T,
            velocities=self._v_soa.T,
            inv_mass=np.ones(p),
            damping=np.zeros(p),
            velocity_scale=np.ones(p),
            radius=np.zeros(p),
            restitution=np.zeros(p),
        )
        self._unit_inv_mass = np.ones(p)  # the integrator gets accelerations
        self._acc = np.zeros((3, p))
        self._good_x = np.zeros((3, p))
        shape = (s + 1, n + 1)
        self._buf = np.zeros((12, *shape), dtype=np.float32)
        self._buf[_ONE] = 1.0
        self._acc32 = np.zeros((3, *shape), dtype=np.float32)
        self._mx = np.zeros((4, *shape), dtype=np.float32)  # m x~ rows, then m
        self._moments = np.zeros((4, 12), dtype=np.float32)
        self._moments_part = np.zeros((4, 12), dtype=np.float32)
        # The two matrix products run in column chunks small enough that OpenBLAS keeps them on one
        # thread: its worker threads spin between calls and, on a small shared machine, cost far
        # more than they save on products this thin (measured: 128 x 128 goes from 6 ms to 1 ms).
        size = (s + 1) * (n + 1)
        self._chunks = [slice(a, min(a + _CHUNK, size)) for a in range(0, size, _CHUNK)]
        self._pressure = np.zeros((3, s - 1, n), dtype=np.float32)
        self._tension = np.zeros((3, s - 1, n), dtype=np.float32)
        self._affine = np.zeros((3, 12), dtype=np.float32)
        self._deformation_map = np.zeros((3, 12), dtype=np.float32)
        self._u = np.zeros((3, *shape), dtype=np.float32)  # deformation velocity on the grid
        self._shear_acc = np.zeros((3, *shape), dtype=np.float32)  # wrap column stays 0
        self._neighbours = np.zeros((3, s - 1, n), dtype=np.float32)
        self._shear_moments = np.zeros((4, 3), dtype=np.float32)
        self._shear_moments_part = np.zeros((4, 3), dtype=np.float32)
        self._volume32 = GridVolume(s, n, np.float32)
        self._volume64 = GridVolume(s, n, np.float64)
        self._x5_64 = np.zeros((5, *shape))
        self._derive()
        self.reset()

    def _derive(self) -> None:
        """Everything that follows from the parameters but not from the state (cheap; no reset)."""
        prm = self.params
        s, n = prm.stacks, prm.slices
        rest = uv_sphere(s, n, prm.radius)
        tri = rest[self.triangles]
        area = 0.5 * np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
        share = corner_sum(self.triangles, lambda k: area / 3.0, rest.shape[0])
        self.rest_area = float(area.sum())
        share = np.maximum(share, share.mean())  # the polar floor: see the module docstring
        self.mass = prm.mass * share / share.sum()  # (P,) per-vertex masses
        self.particles.inv_mass = 1.0 / self.mass
        self.rest_offsets = rest - (self.mass @ rest) / prm.mass  # (P, 3), mass centroid at 0
        self.ideal_volume = mesh_volume(self.rest_offsets, self.triangles)
        # Pressure per unit relative volume error: omega^2 of the breathing mode = volume_stiffness.
        self.pressure_scale = prm.volume_stiffness * prm.radius * prm.mass / (3.0 * self.rest_area)
        # How far the rest surface spreads (sum |dV/dx|^2 / m), the volume force's yardstick: see
        # slime_forces.add_volume_pressure.
        grad_v = vertex_area_vectors(self.rest_offsets, self.triangles)
        self.rest_spread = float(np.einsum("ij,ij->", grad_v, grad_v / self.mass[:, None]))
        # The surface tension in force: the parameter times the factor that keeps it stable at
        # this resolution and substep (see slime_forces.tension_relief).
        relief = plain.tension_relief(self.mass, plain.area_stiffness(self.rest_offsets, self.triangles),
                                      prm.surface_tension, prm.substep_dt)
        self.tension = prm.surface_tension * relief
        # The pressure that holds the rest shape against that tension (the Laplace pressure
        # 2 gamma / R of a drop, measured on the mesh): the rest pull projected onto dV/dx.
        grad_a = plain.area_gradient(self.rest_offsets, self.triangles)
        self.rest_pressure = self.tension * float(np.einsum("ij,ij->", grad_a, grad_v) / np.einsum("ij,ij->", grad_v, grad_v))
        # Fast path: tension / m per ring vertex (the grid's area gradient is doubled: / 2).
        weight = self.tension / self.mass / 2.0
        self._tension_weight = weight[1:-1].reshape(s - 1, n).astype(np.float32)
        self._tension_pole = (weight[0], weight[-1])
        self.edge_weights = plain.viscous_edge_weights(self.rest_offsets, self.grid_edges)
        self._shear_cache = None
        # Regularises the inertia tensor of a collapsed body (a millionth of the rest one).
        self.inertia_floor = 1e-6 * prm.mass * prm.radius**2
        rest5 = np.zeros((5, s + 1, n + 1))
        fill_grid(rest5, self.rest_offsets)
        self._buf[_R0 : _R0 + 3] = rest5[:3]
        grid_mass = np.zeros((s + 1, n + 1))
        grid_mass[1:s, :n] = self.mass[1:-1].reshape(s - 1, n)
        grid_mass[0, :n] = self.mass[0] / n
        grid_mass[s, :n] = self.mass[-1] / n
        self._grid_mass = grid_mass.astype(np.float32)
        self._mx[3] = self._grid_mass
        self._grid_inv_mass = (1.0 / self.mass[1:-1].reshape(s - 1, n)).astype(np.float32)
        self.planes = Planes.floor(3, prm.floor_height, prm.floor_restitution, prm.floor_friction)
        self._gravity = np.asarray(prm.gravity, dtype=np.float64)

    def reset(self) -> None:
        """Back to the rest sphere at the initial centre, at rest, time 0, nothing grabbed."""
        self._x_soa[:] = (self.rest_offsets + np.asarray(self.params.center)).T
        self._v_soa[:] = 0.0
        self._quaternion = (1.0, 0.0, 0.0, 0.0)  # best-fit rotation, tracked substep to substep
        self._grab_index = None
        self._grab_target = None
        self._finger = None
        self.time = 0.0
        self.recoveries = 0
        self.last_volume = self.ideal_volume
        self._centroid_ref = self.centroid()
        np.copyto(self._good_x, self._x_soa)
        self._good_quaternion = self._quaternion

    def set_params(self, **changes) -> None:
        """Live parameter change. Stiffnesses, damping, gravity, floor, mass, radius, dt and substeps
        apply at once and keep the current state (a new radius makes the body grow or shrink toward
        it); a new stacks/slices rebuilds the mesh and resets."""
        new = self.params.with_(**changes)
        if (new.stacks, new.slices) != (self.params.stacks, self.params.slices):
            self._build(new)
            return
        self.params = new
        self._derive()

    # ------------------------------------------------------------------ views
    @property
    def positions(self) -> np.ndarray:
        """(P, 3) float64 view of the vertex positions (the particles' array)."""
        return self.particles.positions

    @property
    def velocities(self) -> np.ndarray:
        return self.particles.velocities

    @property
    def grabbed(self) -> int | None:
        return self._grab_index

    # ------------------------------------------------------------------ measurements
    def centroid(self) -> np.ndarray:
        return self.mass @ self.positions / self.params.mass

    def momentum(self) -> np.ndarray:
        return self.mass @ self.velocities

    def kinetic_energy(self) -> float:
        v = self.velocities
        return 0.5 * float(self.mass @ np.einsum("ij,ij->i", v, v))

    def angular_momentum(self) -> np.ndarray:
        """About the centroid."""
        r = self.positions - self.centroid()
        return (self.mass[:, None] * np.cross(r, self.velocities)).sum(axis=0)

    def _grid64(self) -> np.ndarray:
        fill_grid(self._x5_64, self.positions, origin=self.centroid())
        return self._x5_64

    def volume(self) -> float:
        """The engine's band-integrated volume (float64): the sum of ``band_volumes``."""
        x5 = self._grid64()
        self._volume64.compute(x5)
        return float(self._volume64.band_volumes(x5).sum())

    def band_volumes(self) -> np.ndarray:
        """(stacks,) signed volume of each latitude band, cones from the centroid."""
        x5 = self._grid64()
        self._volume64.compute(x5)
        return self._volume64.band_volumes(x5)

    def mesh_volume(self) -> float:
        """Exact enclosed volume by the divergence theorem over ``triangles`` (independent check)."""
        return mesh_volume(self.positions, self.triangles)

    def vertex_normals(self) -> np.ndarray:
        """(P, 3) unit area-weighted normals of the current surface (the pressure's directions)."""
        g = self._volume64.compute(self._grid64())
        s, n = self.params.stacks, self.params.slices
        out = np.empty((vertex_count(s, n), 3))
        out[1:-1] = g[:, 1:s, :n].reshape(3, -1).T
        out[0] = g[:, 0, :n].sum(axis=1)
        out[-1] = g[:, s, :n].sum(axis=1)
        length = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(length > 0.0, length, 1.0)

    def orientation(self) -> np.ndarray:
        """(3, 3) best-fit rotation of the current shape against the rest shape (shape matching)."""
        r = self.positions - self.centroid()
        covariance = (self.mass[:, None] * r).T @ self.rest_offsets
        return best_rotation(covariance, np.array(quaternion_matrix(self._quaternion)))

    def shape_error(self) -> float:
        """Largest distance of a vertex from the best-fit placed rest shape, in radii."""
        goal = self.centroid() + self.rest_offsets @ self.orientation().T
        return float(np.max(np.linalg.norm(self.positions - goal, axis=1))) / self.params.radius

    # ------------------------------------------------------------------ forces
    def _accelerations(self, h: float, internal_only: bool = False) -> np.ndarray:
        """Fill and return the (3, P) acceleration of every vertex for a substep of length h."""
        prm = self.params
        s, n = prm.stacks, prm.slices
        x = self.particles.positions.T
        v = self.particles.velocities.T
        buf = self._buf
        # Positions relative to last substep's centroid (float32 keeps its precision near it; the
        # small shift to this substep's centroid comes out of the moments), then velocities.
        ref = self._centroid_ref
        np.subtract(x[:, 1:-1].reshape(3, s - 1, n), ref[:, None, None], out=buf[_X0 : _X0 + 3, 1:s, :n])
        buf[_X0 : _X0 + 3, 0, :] = (x[:, 0] - ref)[:, None]
        buf[_X0 : _X0 + 3, s, :] = (x[:, -1] - ref)[:, None]
        buf[_X0 : _X0 + 3, 1:s, n] = buf[_X0 : _X0 + 3, 1:s, 0]
        buf[_X0 + 3 : _X0 + 5] = buf[_X0 : _X0 + 2]
        np.copyto(buf[_V0 : _V0 + 3, 1:s, :n], v[:, 1:-1].reshape(3, s - 1, n), casting="same_kind")
        buf[_V0 : _V0 + 3, 0, :] = v[:, 0][:, None]
        buf[_V0 : _V0 + 3, s, :] = v[:, -1][:, None]
        buf[_V0 : _V0 + 3, 1:s, n] = buf[_V0 : _V0 + 3, 1:s, 0]
        flat = buf.reshape(12, -1)

        # Moments in one product: row k < 3 is sum m x~_k [r, x~, (x, y), v, 1], row 3 is sum m [...].
        np.multiply(buf[_X0 : _X0 + 3], self._grid_mass, out=self._mx[:3])
        mx = self._mx.reshape(4, -1)
        first, *rest = self._chunks
        np.matmul(mx[:, first], flat[:, first].T, out=self._moments)
        for part in rest:
            np.matmul(mx[:, part], flat[:, part].T, out=self._moments_part)
            self._moments += self._moments_part
        mom = self._moments.tolist()
        total = prm.mass
        shift = [mom[3][_X0 + k] / total for k in range(3)]  # centroid - ref
        vc = [mom[3][_V0 + k] / total for k in range(3)]  # centroid velocity
        self._centroid_ref = ref + shift
        # sum m (x - c) r^T = sum m x~ r^T, since sum m r = 0.
        self._quaternion = track_rotation([row[_R0 : _R0 + 3] for row in mom[:3]], self._quaternion)
        rotation = quaternion_matrix(self._quaternion)
        second = [[mom[i][_X0 + j] - total * shift[i] * shift[j] for j in range(3)] for i in range(3)]
        kxv = [[mom[i][_V0 + j] - total * shift[i] * vc[j] for j in range(3)] for i in range(3)]
        angular_momentum = (kxv[1][2] - kxv[2][1], kxv[2][0] - kxv[0][2], kxv[0][1] - kxv[1][0])
        omega = rigid_angular_velocity(second, angular_momentum, self.inertia_floor).tolist()

        affine = [[0.0] * 12 for _ in range(3)]
        add_shape_matching(affine, rotation, prm.shape_stiffness, shift)
        drag = 0.0 if internal_only else prm.air_drag
        add_viscosity_and_drag(affine, h, prm.viscosity, drag, vc, omega, shift)
        if prm.shear_viscosity > 0.0:
            rigid_part = self._shear_viscosity(h, vc, omega, shift, second)
            add_rigid_correction(affine, *rigid_part, shift)
        if not internal_only:
            for i in range(3):
                affine[i][_ONE] += prm.gravity[i]
        self._affine[:] = affine
        acc = self._acc32
        acc_flat = acc.reshape(3, -1)
        for part in self._chunks:
            np.matmul(self._affine, flat[:, part], out=acc_flat[:, part])
        if prm.shear_viscosity > 0.0:
            acc += self._shear_acc

        # Pressure along the volume gradient (the area-weighted normals). Sum grad = 0, so the
        # volume does not care that x~ is relative to ref rather than to the centroid.
        x5 = buf[_X0 : _X0 + 5]
        grad6 = self._volume32.compute(x5)
        volume = self._volume32.volume_from_gradient(x5)
        self.last_volume = volume
        ratio = min(max((self.ideal_volume - volume) / self.ideal_volume, -1.0), 1.0)
        if ratio != ratio:  # NaN
            ratio = 0.0
        np.multiply(grad6[:, 1:s, :n], self._grid_inv_mass, out=self._pressure)
        pole_n = grad6[:, 0, :n].sum(axis=1, dtype=np.float64)
        pole_s = grad6[:, s, :n].sum(axis=1, dtype=np.float64)
        spread = (float(np.vdot(self._pressure, grad6[:, 1:s, :n])) + float(pole_n @ pole_n) / self.mass[0]
                  + float(pole_s @ pole_s) / self.mass[-1]) / 36.0
        limit = 1.0 if not spread > self.rest_spread else self.rest_spread / spread
        pressure = (self.rest_pressure + self.pressure_scale * limit * ratio) / 6.0
        self._pressure *= np.float32(pressure)
        acc[:, 1:s, :n] += self._pressure

        tension_n = tension_s = 0.0
        if prm.surface_tension > 0.0:
            area2 = self._volume32.area_gradient()
            np.multiply(area2[:, 1:s, :n], self._tension_weight, out=self._tension)
            acc[:, 1:s, :n] -= self._tension
            tension_n = self._tension_pole[0] * area2[:, 0, :n].sum(axis=1, dtype=np.float64)
            tension_s = self._tension_pole[1] * area2[:, s, :n].sum(axis=1, dtype=np.float64)

        out = self._acc
        np.copyto(out[:, 1:-1].reshape(3, s - 1, n), acc[:, 1:s, :n])
        out[:, 0] = acc[:, 0, 0] + pressure * pole_n / self.mass[0] - tension_n
        out[:, -1] = acc[:, s, 0] + pressure * pole_s / self.mass[-1] - tension_s
        if not internal_only and self._grab_index is not None:
            self._add_grab_pull(out, x, v, h)
        np.minimum(out, prm.max_acceleration, out=out)
        np.maximum(out, -prm.max_acceleration, out=out)
        return out

    def _shear_coefficients(self, h: float) -> tuple:
        """Per ring row, the grid form of ``slime_forces.add_shear_viscosity`` for substep h: the
        weights of the up, down and side neighbours and of the vertex itself, each times the decay
        factor (1 - exp(-2 nu d h)) / (2 d h); and the same factor times the weight for each pole."""
        cached = self._shear_cache
        if cached is not None and cached[0] == h:
            return cached[1]
        s, n = self.params.stacks, self.params.slices
        nu = self.params.shear_viscosity
        rest = np.zeros((5, s + 1, n + 1))
        fill_grid(rest, self.rest_offsets)
        meridian = np.sum((rest[:3, 1:, 0] - rest[:3, :-1, 0]) ** 2, axis=0)  # (s,) rows i -> i + 1
        around = np.sum((rest[:3, 1:s, 1] - rest[:3, 1:s, 0]) ** 2, axis=0)  # (s - 1,) ring chords
        w_up, w_down, w_side = 1.0 / meridian[:-1], 1.0 / meridian[1:], 1.0 / around
        degree = w_up + w_down + 2.0 * w_side
        factor = -np.expm1(-2.0 * nu * degree * h) / (2.0 * degree * h)
        column = lambda a: (a * factor)[:, None].astype(np.float32)  # noqa: E731
        poles = []
        for w in (1.0 / meridian[0], 1.0 / meridian[-1]):
            d = n * w
            poles.append(float(-math.expm1(-2.0 * nu * d * h) / (2.0 * d * h) * w))
        coefficients = (column(w_up), column(w_down), column(w_side), column(degree), poles[0], poles[1])
        self._shear_cache = (h, coefficients)
        return coefficients

    def _shear_viscosity(self, h: float, vc, omega, shift, second) -> tuple:
        """``slime_forces.add_shear_viscosity`` on the ring grid: fills ``_shear_acc`` with each
        vertex's weighted pull toward its four grid neighbours' deformation velocity (a pole:
        toward its first ring's), and returns the rigid part of that pull (linear acceleration,
        angular acceleration) for the affine map to take back out."""
        prm = self.params
        s, n = prm.stacks, prm.slices
        up, down, side, own, north, south = self._shear_coefficients(h)
        # u = v - v_c - omega x (x~ - shift): affine in the buffer, one product.
        wx, wy, wz = omega
        spin = ((0.0, -wz, wy), (wz, 0.0, -wx), (-wy, wx, 0.0))
        rows = [[0.0] * 12 for _ in range(3)]
        for i in range(3):
            rows[i][_V0 + i] = 1.0
            for j in range(3):
                rows[i][_X0 + j] = -spin[i][j]
            rows[i][_ONE] = -vc[i] + spin[i][0] * shift[0] + spin[i][1] * shift[1] + spin[i][2] * shift[2]
        self._deformation_map[:] = rows
        u = self._u
        u_flat = u.reshape(3, -1)
        flat = self._buf.reshape(12, -1)
        for part in self._chunks:
            np.matmul(self._deformation_map, flat[:, part], out=u_flat[:, part])
        # The two side neighbours (the wrap column is column 0; left of column 0 is column n - 1).
        near = self._neighbours
        np.copyto(near, u[:, 1:s, 1 : n + 1])
        near[:, :, 1:] += u[:, 1:s, 0 : n - 1]
        near[:, :, 0] += u[:, 1:s, n - 1]
        acc = self._shear_acc
        inner = acc[:, 1:s, :n]
        np.multiply(near, side, out=inner)
        np.multiply(u[:, 0 : s - 1, :n], up, out=near)
        inner += near
        np.multiply(u[:, 2 : s + 1, :n], down, out=near)
        inner += near
        np.multiply(u[:, 1:s, :n], own, out=near)
        inner -= near
        acc[:, 0, :n] = (north * (u[:, 1, :n].sum(axis=1, dtype=np.float64) - n * u[:, 0, 0].astype(np.float64)))[:, None]
        acc[:, s, :n] = (south * (u[:, s - 1, :n].sum(axis=1, dtype=np.float64) - n * u[:, s, 0].astype(np.float64)))[:, None]
        # Its moments: row k < 3 is sum m x~_k a, row 3 is sum m a.
        mx = self._mx.reshape(4, -1)
        acc_flat = acc.reshape(3, -1)
        first, *rest = self._chunks
        np.matmul(mx[:, first], acc_flat[:, first].T, out=self._shear_moments)
        for part in rest:
            np.matmul(mx[:, part], acc_flat[:, part].T, out=self._shear_moments_part)
            self._shear_moments += self._shear_moments_part
        (c00, c01, c02), (c10, c11, c12), (c20, c21, c22), push = self._shear_moments.tolist()
        total = prm.mass
        linear = [push[k] / total for k in range(3)]
        # Torque about the centroid: sum m (x~ - shift) x a.
        torque = (c12 - c21 - (shift[1] * push[2] - shift[2] * push[1]),
                  c20 - c02 - (shift[2] * push[0] - shift[0] * push[2]),
                  c01 - c10 - (shift[0] * push[1] - shift[1] * push[0]))
        angular = rigid_angular_velocity(second, torque, self.inertia_floor).tolist()
        return linear, angular

    def _plain_accelerations(self, h: float) -> np.ndarray:
        """The (3, P) acceleration from ``slime_forces.py``'s readable functions (``plain_forces``).

        Looked up through the module at every call, so an edited or monkeypatched force function
        there is what moves the slime. Grab and clamp as in the fast path."""
        out = self._acc
        np.divide(plain.slime_forces(self, h).T, self.mass, out=out)
        if self._grab_index is not None:
            self._add_grab_pull(out, self.particles.positions.T, self.particles.velocities.T, h)
        out[~np.isfinite(out)] = 0.0  # an experiment gone wrong must not put NaN into the state
        np.minimum(out, self.params.max_acceleration, out=out)
        np.maximum(out, -self.params.max_acceleration, out=out)
        return out

    def internal_forces(self) -> np.ndarray:
        """(P, 3) forces of the three internal terms alone (volume, shape, viscosity) at the current
        state: no gravity, drag, grab or floor. They sum to zero (momentum is conserved)."""
        acc = self._accelerations(self.params.substep_dt, internal_only=True)
        return self.mass[:, None] * acc.T

    # ------------------------------------------------------------------ stepping
    def substep(self, h: float) -> None:
        prm = self.params
        if self._finger is not None:
            self._advance_finger(h)
        acc = self._plain_accelerations(h) if prm.plain_forces else self._accelerations(h)
        positions, velocities = self.particles.positions, self.particles.velocities
        symplectic_euler(positions, velocities, acc.T, self._unit_inv_mass, h)
        collide_floor(positions.T, velocities.T, self.planes)
        np.minimum(velocities, prm.max_speed, out=velocities)
        np.maximum(velocities, -prm.max_speed, out=velocities)
        self.time += h

    def step(self) -> None:
        """One frame: ``substeps`` substeps of ``dt / substeps``; a broken result (``_healthy``) is
        recovered."""
        h = self.params.substep_dt
        with np.errstate(all="ignore"):
            for _ in range(self.params.substeps):
                self.substep(h)
        if self._healthy():
            x = self.particles.positions
            if self.params.plain_forces:
                # The fast path tracks these each substep; keep them current so switching back,
                # orientation() and recovery carry on from here.
                self._centroid_ref = self.centroid()
                self._quaternion = matrix_quaternion(self.orientation())
            # The last good state, for recovery (kept after every good frame, not before each one,
            # so that state broken from outside between frames is not taken for good).
            np.copyto(self._good_x, x.T)
            self._good_quaternion = self._quaternion
        else:
            self._recover()

    def _healthy(self) -> bool:
        """The state the forces can work from: finite, no vertex farther than ``MAX_SPREAD`` radii
        from the centroid, no speed above max_speed. The forces themselves keep a body inside
        these; a state outside them was written from outside or came from an edited force (the
        plain path computes in float64 and would carry a 1e300 velocity along), and both paths
        recover from it the same way."""
        x, v = self.particles.positions, self.particles.velocities
        if not (np.isfinite(x.sum()) and np.isfinite(v.sum())):
            return False
        if np.abs(v).max() > self.params.max_speed:
            return False
        spread = np.abs(x - self.centroid()).max()
        return bool(spread <= MAX_SPREAD * self.params.radius)

    def _recover(self) -> None:
        """Broken state (see ``_healthy``): put the rest shape back at the last good centroid and orientation, still."""
        self.recoveries += 1
        self._quaternion = self._good_quaternion
        rotation = np.array(quaternion_matrix(self._quaternion))
        centroid = self._good_x @ self.mass / self.params.mass
        if not np.all(np.isfinite(centroid)):
            centroid = np.asarray(self.params.center)
        self._centroid_ref = centroid
        self.particles.positions[:] = centroid + self.rest_offsets @ rotation.T
        self.particles.velocities[:] = 0.0

    # ------------------------------------------------------------------ interaction
    def _nearest(self, point) -> int:
        d = self.positions - _vec3("point", point)
        return int(np.argmin(np.einsum("ij,ij->i", d, d)))

    def poke(self, point, force, radius: float | None = None) -> int:
        """Push the surface near ``point`` with ``force`` (N), applied at once as the impulse of one
        frame, force * dt: the vertex nearest to ``point`` and its neighbours within ``radius``
        (default: ``poke_spread`` body radii, so a push dents a broad patch and rebounds round, not
        as a spike) share it by mass times a Wendland falloff, so every one of them
        gets a velocity change along ``force`` that fades smoothly to 0 at ``radius``. The total
        impulse is force * dt; the peak velocity change is clamped to ``max_speed``. Returns the
        nearest vertex."""
        prm = self.params
        force = _vec3("force", force)
        radius = prm.poke_spread * prm.radius if radius is None else radius
        try:
            radius = float(radius)
        except (TypeError, ValueError):
            raise ValueError(f"poke radius must be a number, got {radius!r}") from None
        if not (np.isfinite(radius) and radius > 0.0):
            raise ValueError(f"poke radius must be positive and finite, got {radius}")
        nearest = self._nearest(point)
        d = self.positions - self.positions[nearest]
        weight = wendland(np.sqrt(np.einsum("ij,ij->i", d, d)) / radius)
        total = float(self.mass @ weight)
        # Length and direction apart, so that no force is too large to compute: the velocity change
        # at weight 1 is |F| dt / total, clamped to max_speed.
        strength = _magnitude(force)
        if strength == 0.0:
            return nearest
        speed = min(strength * (prm.dt / total), prm.max_speed)
        delta = (force / strength) * speed
        self.particles.velocities += weight[:, None] * delta
        return nearest

    def grab(self, index_or_point, reach: float | None = None) -> int:
        """Grab a vertex (an index, or the vertex nearest to a point); returns its index. Until
        ``release``, ``drag_to`` pulls it and its neighbourhood (within ``grab_falloff * radius``,
        Wendland weights) toward a target; the target starts where the vertex is."""
        if np.ndim(index_or_point) == 0:
            index = index_or_point
            if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
                raise ValueError(f"grab takes a vertex index (an integer) or a point, got {index_or_point!r}")
            index = int(index)
            if not 0 <= index < self.positions.shape[0]:
                raise ValueError(f"vertex index {index} out of range 0..{self.positions.shape[0] - 1}")
        else:
            index = self._nearest(index_or_point)
        d = self.positions - self.positions[index]
        if reach is None:
            reach = self.params.grab_falloff * self.params.radius
        weight = wendland(np.sqrt(np.einsum("ij,ij->i", d, d)) / reach)
        self._finger = None  # a new grab ends a press (press() starts its finger after this)
        self._grab_members = np.flatnonzero(weight > 0.0)
        self._grab_weight = weight[self._grab_members]
        self._grab_index = index
        self._grab_target = self.positions[index].copy()
        return index

    def drag_to(self, target) -> None:
        """Move the grab target (world coordinates); no effect when nothing is grabbed."""
        target = _vec3("target", target)
        if self._grab_index is not None:
            self._grab_target = target

    def _add_grab_pull(self, acc: np.ndarray, x: np.ndarray, v: np.ndarray, h: float) -> None:
        """Pull the grabbed neighbourhood toward the target, in velocity form so that it is stable
        at any rate: the wanted velocity closes the gap at ``grab_rate`` (gap clamped to one radius,
        speed to ``max_speed``), and each member's velocity relaxes toward it by its grab weight
        times 1 - exp(-2 rate h) per substep (a critically damped spring, implicit). Independent of
        the vertices' masses, so the hand can lift the whole slime."""
        prm = self.params
        gap = self._grab_target - x[:, self._grab_index]
        length = float(np.linalg.norm(gap))
        if length > prm.radius:
            gap *= prm.radius / length
        rate = prm.grab_rate if self._finger is None else prm.finger_rate  # a finger holds firmer than a hand
        wanted = np.clip(rate * gap, -prm.max_speed, prm.max_speed)
        blend = -np.expm1(-2.0 * rate * h) / h
        members = self._grab_members
        pull = (blend * self._grab_weight) * (wanted[:, None] - v[:, members])
        acc[:, members] += pull
        if self._finger is not None:  # a press dents, it does not carry: the net push is held back
            acc -= (pull @ self.mass[members] / self.params.mass)[:, None]

    def release(self, velocity=None) -> None:
        """Let go (of a grab or a press); with ``velocity`` (the mouse's), the grabbed neighbourhood
        takes it on by weight."""
        self._finger = None
        if self._grab_index is not None and velocity is not None:
            velocity = _vec3("velocity", velocity)
            members, weight = self._grab_members, self._grab_weight[:, None]
            v = self.particles.velocities
            v[members] += weight * (velocity - v[members])
            np.clip(v, -self.params.max_speed, self.params.max_speed, out=v)
        self._grab_index = None
        self._grab_target = None

    def press(self, point, direction) -> int:
        """Start pressing a finger into the surface at ``point`` (the surface vertex nearest to
        it) along ``direction`` (the view ray). The finger is a grab whose target starts at the
        touched vertex and moves in along ``direction`` at ``finger_speed`` radii per second until
        ``finger_depth`` radii deep, then holds: the dent grows while held, stays while held, and
        springs back with a wobble on ``unpress``. Unlike a grab it does not carry the body: the
        pull's net push is taken back from every vertex evenly (as the table and the other hand
        hold a jelly that is pressed), so a slanted press dents instead of sliding the slime
        away. Returns the touched vertex."""
        direction = _vec3("direction", direction)
        length = _magnitude(direction)
        if length == 0.0:
            raise ValueError("press direction must not be zero")
        index = self._nearest(point)
        self.grab(index, reach=self.params.finger_radius * self.params.radius)
        self._finger = {"touch": self.positions[index].copy(), "direction": direction / length, "depth": 0.0}
        return index

    def unpress(self) -> None:
        """Take the finger away (nothing happens when none is pressing)."""
        if self._finger is not None:
            self._finger = None
            self.release()

    @property
    def pressing(self) -> bool:
        return self._finger is not None

    def _advance_finger(self, h: float) -> None:
        prm, f = self.params, self._finger
        f["depth"] = min(f["depth"] + prm.finger_speed * prm.radius * h, prm.finger_depth * prm.radius)
        self._grab_target = f["touch"] + f["direction"] * f["depth"]

    def spike(self, amount: float = 0.5, seed=None) -> None:
        """The PhysicalSlime program's scatter: every vertex jumps ``amount * radius`` along its own random direction
        (uniform on the sphere, from a numpy Generator seeded with ``seed``)."""
        try:
            amount = float(amount)
        except (TypeError, ValueError):
            raise ValueError(f"spike amount must be a number, got {amount!r}") from None
        if not SPIKE[0] <= amount <= SPIKE[1]:
            raise ValueError(f"spike amount must be {span(SPIKE, 'radii')}, got {amount}")
        rng = np.random.default_rng(seed)
        direction = rng.normal(size=self.positions.shape)
        length = np.linalg.norm(direction, axis=1, keepdims=True)
        direction /= np.where(length > 0.0, length, 1.0)
        self.particles.positions += direction * (amount * self.params.radius)


def collide_floor(x: np.ndarray, v: np.ndarray, floor: Planes) -> None:
    """``collide_planes`` for the one +y floor plane of a slime, on (3, P) position/velocity arrays,
    touching only the few vertices below it: they are put back on the plane, their approaching
    normal speed is reflected by the restitution (stopped below the bounce threshold) and their
    tangential speed loses at most ``friction`` times the normal speed change (Coulomb), never
    reversing. Same numbers as
    ``collide_planes`` (a test holds them equal); without its per-call overhead, which at the
    default mesh size cost more than all the slime's forces together."""
    height = floor.point[0, 1]
    below = np.flatnonzero(x[1] < height)
    if below.size == 0:
        return
    x[1, below] = height
    vx, vn, vz = v[0, below], v[1, below], v[2, below]
    # Bounce only above the plane's threshold speed (so resting contacts do not hop), as the engine.
    threshold = float(getattr(floor, "bounce_threshold", 0.0))
    new_vn = np.where(vn < -threshold, -floor.restitution[0] * vn, np.maximum(vn, 0.0))
    speed_t = np.sqrt(vx * vx + vz * vz)
    keep = np.clip(1.0 - floor.friction[0] * np.abs(new_vn - vn) / np.where(speed_t > 0.0, speed_t, 1.0), 0.0, 1.0)
    v[0, below] = vx * keep
    v[1, below] = new_vn
    v[2, below] = vz * keep


def add_shape_matching(affine: list, rotation, stiffness: float, shift) -> None:
    """Shape restoring as rows of the affine map (3 x 12 nested lists) on x~ = x - ref, with the
    centroid c = ref + shift: k (R r - (x - c)) = k R r - k x~ + k shift pulls each vertex to its
    goal c + R r."""
    for i in range(3):
        row = affine[i]
        for j in range(3):
            row[_R0 + j] += stiffness * rotation[i][j]
        row[_X0 + i] -= stiffness
        row[_ONE] += stiffness * shift[i]


def add_rigid_correction(affine: list, linear, angular, shift) -> None:
    """Take a rigid acceleration a + alpha x (x - c) back out, as rows of the affine map on x~ = x - ref
    (c = ref + shift)."""
    ax, ay, az = angular
    spin = ((0.0, -az, ay), (az, 0.0, -ax), (-ay, ax, 0.0))
    for i in range(3):
        row = affine[i]
        for j in range(3):
            row[_X0 + j] -= spin[i][j]
        row[_ONE] += -linear[i] + spin[i][0] * shift[0] + spin[i][1] * shift[1] + spin[i][2] * shift[2]


def add_viscosity_and_drag(
    affine: list, h: float, viscosity: float, air_drag: float, centroid_velocity, omega, shift
) -> None:
    """-mu (v - v_c - omega x (x - c)) - a v as rows of the affine map on x~ = x - ref (c = ref +
    shift). The rates are the exact exponential decay over one substep, (1 - exp(-rate h)) / h,
    so any viscosity is stable (never overshoots)."""
    total = viscosity + air_drag
    if total <= 0.0:
        return
    decay = -math.expm1(-total * h) / h
    mu = decay * viscosity / total
    wx, wy, wz = omega
    spin = ((0.0, -wz, wy), (wz, 0.0, -wx), (-wy, wx, 0.0))  # spin @ d = omega x d
    for i in range(3):
        row = affine[i]
        row[_V0 + i] -= decay
        for j in range(3):
            row[_X0 + j] += mu * spin[i][j]
        spun_shift = spin[i][0] * shift[0] + spin[i][1] * shift[1] + spin[i][2] * shift[2]
        row[_ONE] += mu * (centroid_velocity[i] - spun_shift)
