"""What a slime's parameters fix and its motion does not: the mesh, the vertex masses, the rest
shape, every constant of its forces (ideal volume, pressure scale, the tension's stiffest wave)
and the substeps those need. Computed once per body when it is made or its parameters change; the
forces (``slime3d/``) read them every substep, through ``slime3d.step.SlimeModel``.

Masses are the vertices' shares of the rest surface (uniform surface density), raised to at least
the mean share. The floor is for the poles: a UV sphere's polar rings have slivers of area, so their
vertices would be up to n/3 times lighter than the equator's, while the pressure on them depends
on their (full-length) meridian edges. A polar bump then grows its own pressure faster than its mass
resists, and the slime sprouts spikes (seen at 64x64 and 128x128 after hard pokes). With the floor
the polar vertices are heavier per area and the polar axis has about 20 % less inertia than the
others; every internal force still sums to zero.
"""

from __future__ import annotations

import numpy as np

from slime.mesh import corner_sum, triangle_area_vectors
from slime.physics.slime3d.surface import enclosed_volume, surface_gradients
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.shear import degrees
from slime.physics.slime3d.stability import substeps_needed
from slime.physics.slime3d.sphere import ring_grid, sphere_strip, sphere_triangles, uv_sphere


class SlimeShape:
    """The constants of one slime body (see the module docstring). Arrays are read-only by use."""

    def __init__(self, params: SlimeParams):
        self.params = prm = params
        s, n = prm.stacks, prm.slices
        self.stacks, self.slices = s, n
        self.grid = ring_grid(s, n)
        self.triangles = sphere_triangles(s, n)
        self.strip = sphere_strip(s, n)
        rest = uv_sphere(s, n, prm.radius)
        self.count = rest.shape[0]
        area = 0.5 * np.linalg.norm(triangle_area_vectors(rest, self.triangles), axis=1)
        share = corner_sum(self.triangles, lambda k: area / 3.0, self.count)
        self.rest_area = float(area.sum())
        share = np.maximum(share, share.mean())  # the polar floor: see the module docstring
        self.mass = prm.mass * share / share.sum()  # (P,) per-vertex masses
        self.rest_offsets = rest - (self.mass @ rest) / prm.mass  # (P, 3), mass centroid at 0
        offsets = np.ascontiguousarray(self.rest_offsets.T)
        grad_v, grad_a = np.zeros((2, 3, self.count))
        surface_gradients(offsets, 0, s, n, grad_v, grad_a)
        self.ideal_volume = float(enclosed_volume(offsets, grad_v, 0, self.count, np.zeros(3)))
        # Pressure per unit relative volume error: omega^2 of the breathing mode = volume_stiffness.
        self.pressure_scale = prm.volume_stiffness * prm.radius * prm.mass / (3.0 * self.rest_area)
        # The surface tension is the parameter itself, N/m at every resolution, and so is the shear
        # stiffness. Their fastest waves, per vertex (1/s^2): round a ring, and a pole's own pull,
        # the membrane's step carries at any substep (``membrane.py``); along the meridians they
        # are the explicit step's, and set the substeps with the body-wide terms (``stability.py``).
        self.tension = prm.surface_tension
        stiffness, meridian = area_stiffness(self.rest_offsets, self.triangles, self.grid)
        degree, meridian_degree = degrees(offsets, 0, s, n)
        with np.errstate(over="ignore"):  # a stiffness near the largest float: refused just below
            self.ripple = self.tension * stiffness / self.mass + 2.0 * prm.shear_stiffness * degree
            for pole in (0, self.count - 1):  # a pole's pull on its own: its star, its ring held
                self.ripple[pole] = (self.tension * stiffness[pole] / self.mass[pole]
                                     + prm.shear_stiffness * degree[pole])
        rings = slice(1, self.count - 1)
        self.tension_stiffness = float(np.max(meridian[rings] / self.mass[rings]))
        self.shear_degree = float(np.max(meridian_degree[rings]))
        self.substeps_needed = substeps_needed(prm.dt, prm.shape_stiffness, prm.volume_stiffness, self.tension,
                                               self.tension_stiffness, prm.shear_stiffness, self.shear_degree)
        # The pressure that holds the rest shape against that tension (the Laplace pressure
        # 2 gamma / R of a drop, measured on the mesh): the rest pull projected onto dV/dx.
        self.rest_pressure = self.tension * float(np.sum(grad_a * grad_v) / np.sum(grad_v * grad_v))
        # Regularises the inertia tensor of a collapsed body (a millionth of the rest one).
        self.inertia_floor = 1e-6 * prm.mass * prm.radius**2


def area_stiffness(x, triangles, grid) -> tuple[np.ndarray, np.ndarray]:
    """(P,) each: an upper estimate of how stiff the area is at each vertex, sum over its triangles
    of |opposite edge|^2 / (2 area) (the size of the area's Hessian there, cot-weights summed), and
    the part of it whose opposite edge runs round a ring (both its ends on one ring of ``grid``,
    ``sphere.ring_grid``): the vertex moving against the ring beside it, a wave along the meridian.
    The rest are waves round the rings."""
    pts = np.asarray(x, dtype=np.float64)
    tri = np.asarray(triangles)
    ring_of = np.empty(len(pts), dtype=np.int64)
    ring_of[np.asarray(grid).reshape(-1)] = np.repeat(np.arange(len(grid)), np.asarray(grid).shape[1])
    corners = [pts[tri[:, k]] for k in range(3)]
    doubled = np.maximum(np.linalg.norm(triangle_area_vectors(pts, tri), axis=1), 1e-300)

    def per_corner(k, along_meridian):
        opposite = corners[(k + 2) % 3] - corners[(k + 1) % 3]
        value = np.einsum("ij,ij->i", opposite, opposite) / doubled
        if along_meridian:
            value = np.where(ring_of[tri[:, (k + 1) % 3]] == ring_of[tri[:, (k + 2) % 3]], value, 0.0)
        return value

    return (corner_sum(tri, lambda k: per_corner(k, False), len(pts)),
            corner_sum(tri, lambda k: per_corner(k, True), len(pts)))
