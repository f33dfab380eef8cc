"""What a slime's parameters fix and its motion does not: the mesh, the vertex masses, the rest
shape, and every constant of its forces (ideal volume, pressure scale, surface tension in force,
shear viscosity weights). Computed once per body when it is made or its parameters change; the
forces (``slime_batch.py``, ``slime_forces.py``) read them every substep.

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

from slime.mesh import triangle_area_vectors
from slime.physics import slime_forces as plain
from slime.physics.slime_params import SlimeParams
from slime.physics.sphere import grid_edges, ring_grid, sphere_strip, sphere_triangles, uv_sphere
from slime.physics.volume import corner_sum, fill_grid, mesh_volume, vertex_area_vectors


class SlimeShape:
    """The constants of one slime body (see the module docstring). Arrays are read-only by use."""

    def __init__(self, params: SlimeParams):
        self.params = prm = params
        s, n = prm.stacks, prm.slices
        self.stacks, self.slices = s, n
        self.grid = ring_grid(s, n)
        self.triangles = sphere_triangles(s, n)
        self.strip = sphere_strip(s, n)
        self.grid_edges = grid_edges(s, n)  # the shear viscosity's neighbours
        rest = uv_sphere(s, n, prm.radius)
        self.count = rest.shape[0]
        area = 0.5 * np.linalg.norm(triangle_area_vectors(rest, self.triangles), axis=1)
        share = corner_sum(self.triangles, lambda k: area / 3.0, self.count)
        self.rest_area = float(area.sum())
        share = np.maximum(share, share.mean())  # the polar floor: see the module docstring
        self.mass = prm.mass * share / share.sum()  # (P,) per-vertex masses
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
        h = prm.substep_dt
        relief = plain.tension_relief(self.mass, plain.area_stiffness(self.rest_offsets, self.triangles),
                                      prm.surface_tension, h)
        self.tension = prm.surface_tension * relief
        # The pressure that holds the rest shape against that tension (the Laplace pressure
        # 2 gamma / R of a drop, measured on the mesh): the rest pull projected onto dV/dx.
        grad_a = plain.area_gradient(self.rest_offsets, self.triangles)
        self.rest_pressure = self.tension * float(np.einsum("ij,ij->", grad_a, grad_v) / np.einsum("ij,ij->", grad_v, grad_v))
        self.edge_weights = plain.viscous_edge_weights(self.rest_offsets, self.grid_edges)
        # Regularises the inertia tensor of a collapsed body (a millionth of the rest one).
        self.inertia_floor = 1e-6 * prm.mass * prm.radius**2

        # --- the same constants on the ring grid (stacks + 1, slices + 1), for the fast path ---
        rest5 = np.zeros((5, s + 1, n + 1))
        fill_grid(rest5, self.rest_offsets)
        self.rest_grid = rest5[:3].astype(np.float32)
        grid_mass = np.zeros((s + 1, n + 1))
        grid_mass[1:s, :n] = self.mass[1:-1].reshape(s - 1, n)
        grid_mass[0, :n] = self.mass[0] / n  # a pole's mass split over its repeated entries
        grid_mass[s, :n] = self.mass[-1] / n
        self.grid_mass = grid_mass.astype(np.float32)
        # Per-node weights over the whole grid, 0 on the pole rows and the wrap column (the poles are
        # summed apart): the pressure and tension are then whole contiguous passes.
        self.grid_inv_mass = np.zeros((s + 1, n + 1), dtype=np.float32)
        self.grid_inv_mass[1:s, :n] = 1.0 / self.mass[1:-1].reshape(s - 1, n)
        # Tension / m per ring vertex (the grid's area gradient is doubled: / 2), and at the poles.
        weight = self.tension / self.mass / 2.0
        self.tension_weight = np.zeros((s + 1, n + 1), dtype=np.float32)
        self.tension_weight[1:s, :n] = weight[1:-1].reshape(s - 1, n)
        self.tension_pole = (float(weight[0]), float(weight[-1]))
        self.shear = _shear_coefficients(rest5, prm.shear_viscosity, h, n)


def _shear_coefficients(rest5: np.ndarray, viscosity: float, h: float, slices: int) -> tuple:
    """Per ring row, the grid form of ``slime_forces.add_shear_viscosity`` for substep h: the
    weights of the up, down and side neighbours and of the vertex itself, each times the decay
    factor (1 - exp(-2 nu d h)) / (2 d h), as (stacks - 1, 1) columns; and the same factor times the
    weight for each pole."""
    n = slices
    meridian = np.sum((rest5[:3, 1:, 0] - rest5[:3, :-1, 0]) ** 2, axis=0)  # (s,) rows i -> i + 1
    around = np.sum((rest5[:3, 1:-1, 1] - rest5[:3, 1:-1, 0]) ** 2, axis=0)  # (s - 1,) ring chords
    w_up, w_down, w_side = 1.0 / meridian[:-1], 1.0 / meridian[1:], 1.0 / around
    degree = w_up + w_down + 2.0 * w_side
    factor = -np.expm1(-2.0 * viscosity * degree * h) / (2.0 * degree * h)
    column = lambda a: (a * factor)[:, None].astype(np.float32)  # noqa: E731
    poles = []
    for w in (1.0 / meridian[0], 1.0 / meridian[-1]):
        d = n * w
        poles.append(float(-math.expm1(-2.0 * viscosity * d * h) / (2.0 * d * h) * w))
    return column(w_up), column(w_down), column(w_side), column(degree), poles[0], poles[1]
