"""The slime's forces written plainly: one small numpy function per force, each adding into an
(P, 3) force array. Read this file to understand (or change) the physics.

``SlimeBody`` (slime_body.py) computes exactly these numbers a faster way: it folds the shape,
viscosity, drag and gravity terms into one affine map applied by a single matrix product on the
ring grid, and takes the volume gradient from shifted grid slices instead of gathering triangles.
``tests/test_slime_forces.py`` holds the two equal, and ``slime bench`` times them side by side, so
a change tried here can be measured before it is folded into the fast path. To see a change act,
run the body on this file: ``SlimeParams(plain_forces=True)``, or ``--plain-forces`` on the
command line (``slime --plain-forces``, ``slime render --plain-forces ...``).

Per-mass stiffnesses (1/s^2) and rates (1/s) are used throughout, so each term is an acceleration
times the vertex mass and behaves the same whatever the mesh resolution.
"""

from __future__ import annotations

import math

import numpy as np

from slime.mesh import triangle_area_vectors
from slime.physics.shape_matching import best_rotation
from slime.physics.volume import corner_sum, mesh_volume, vertex_area_vectors


def centroid(x: np.ndarray, mass: np.ndarray) -> np.ndarray:
    return mass @ x / mass.sum()


def add_volume_pressure(forces, x, triangles, mass, ideal_volume: float, pressure_scale: float,
                        rest_spread: float, rest_pressure: float = 0.0) -> float:
    """Pressure along the volume gradient (the area-weighted vertex normals of the deformed
    surface): ``rest_pressure``, which holds the rest shape against its surface tension as the
    Laplace pressure 2 gamma / R holds a drop, plus a part proportional to the relative volume
    error, clamped to +-100 %. The gradient of the volume sums
    to zero over a closed surface, so the pressure moves no momentum. Returns the current volume.

    The error part is divided by how far the surface has spread, S / S0 with S = sum |dV/dx|^2 / m
    (S0 at rest), whenever S > S0. The stiffness of the volume constraint along its own direction
    is pressure_scale S / V0: it grows with the square of the surface area, and an inflated or
    spiked body would outrun the integrator (23x its volume after one hard scatter). Normalised,
    the breathing mode keeps omega^2 = volume_stiffness at any size, like a position-based volume
    constraint, while at rest nothing changes."""
    grad = vertex_area_vectors(x, triangles)  # dV/dx, outward
    volume = mesh_volume(x, triangles)
    error = np.clip((ideal_volume - volume) / ideal_volume, -1.0, 1.0)
    spread = float(np.sum(grad * grad / mass[:, None]))
    limit = rest_spread / spread if spread > rest_spread else 1.0
    forces += (rest_pressure + pressure_scale * limit * error) * grad
    return volume


def _corners_and_normals(x, triangles):
    """The triangles' corner positions (three (T, 3) arrays) and doubled area vectors (T, 3)."""
    pts = np.asarray(x, dtype=np.float64)
    return [pts[triangles[:, k]] for k in range(3)], triangle_area_vectors(pts, triangles)


def _opposite_edge(corners, k: int) -> np.ndarray:
    """The edge facing corner k, counter-clockwise: x_{k+2} - x_{k+1}."""
    return corners[(k + 2) % 3] - corners[(k + 1) % 3]


def area_gradient(x, triangles) -> np.ndarray:
    """(P, 3): the gradient of the total surface area. For a triangle (a, b, c) with unit normal u,
    dA/da = u x (c - b) / 2 (and cyclically): it pulls each corner toward the opposite edge,
    within the triangle's plane. A collapsed triangle (no normal) contributes nothing."""
    corners, normal = _corners_and_normals(x, triangles)
    length = np.linalg.norm(normal, axis=1, keepdims=True)
    unit = np.divide(normal, length, out=np.zeros_like(normal), where=length > 1e-300)
    return corner_sum(triangles, lambda k: 0.5 * np.cross(unit, _opposite_edge(corners, k)), len(x))


def area_stiffness(x, triangles) -> np.ndarray:
    """(P,): an upper estimate of how stiff the area is at each vertex, sum over its triangles of
    |opposite edge|^2 / (2 area) (the size of the area's Hessian there, cot-weights summed)."""
    corners, normal = _corners_and_normals(x, triangles)
    doubled = np.maximum(np.linalg.norm(normal, axis=1), 1e-300)

    def per_corner(k):
        opposite = _opposite_edge(corners, k)
        return np.einsum("ij,ij->i", opposite, opposite) / doubled

    return corner_sum(triangles, per_corner, len(x))


def tension_relief(mass, stiffness, tension: float, h: float) -> float:
    """The factor 1 / (1 + 2 h^2 gamma max(K / m)) that keeps the surface tension stable. Tension
    stiffens as the mesh refines (a vertex's mass shrinks, its area Hessian K does not), so
    explicit steps blow up past gamma ~ 1.4 N/m at 128 x 128. Scaled so, the stiffest mode keeps
    h^2 omega^2 < 1 whatever gamma and the resolution (Gershgorin: the Hessian's largest
    eigenvalue is below 2 K). One factor for every vertex, so the force stays a gradient: it
    moves no momentum and applies no torque."""
    return 1.0 / (1.0 + 2.0 * h * h * tension * float(np.max(stiffness / mass)))


def add_surface_tension(forces, x, triangles, tension: float) -> None:
    """-gamma dA/dx: the surface pulls itself smooth and small, like a drop's skin. Folds and
    cones cost area, so a dent rounds off. The area does not change when the body moves or turns,
    so its gradient moves no momentum and applies no torque. (The rest sphere's own tension,
    which would shrink it, is held by ``rest_pressure`` in ``add_volume_pressure``.) ``tension``
    is the one in force: ``surface_tension`` times ``tension_relief``."""
    if tension > 0.0:
        forces -= tension * area_gradient(x, triangles)


def best_fit_rotation(x, mass, rest_offsets, fallback=np.eye(3)) -> np.ndarray:
    """The rotation R that best maps the rest shape onto the current one (shape matching: the
    rotational part of A = sum m (x - c) r^T, by polar decomposition)."""
    r = x - centroid(x, mass)
    return best_rotation((mass[:, None] * r).T @ rest_offsets, fallback)


def add_shape_restoring(forces, x, mass, rest_offsets, stiffness: float, rotation) -> None:
    """Each vertex pulled toward its goal, the rest shape placed at the current centroid and turned
    by the best-fit rotation: m k (c + R r - x). The goals share the body's centroid, so the pulls
    sum to zero; the rotation lets the body roll instead of snapping back to its first pose."""
    goal = centroid(x, mass) + rest_offsets @ np.asarray(rotation).T
    forces += (stiffness * mass)[:, None] * (goal - x)


def rigid_velocity(x, v, mass, regulariser: float) -> np.ndarray:
    """The velocity each vertex would have if the body moved rigidly: v_c + omega x (x - c), with
    omega = I^-1 L from the body's angular momentum and inertia tensor."""
    c = centroid(x, mass)
    vc = mass @ v / mass.sum()
    r = x - c
    second = (mass[:, None] * r).T @ r
    inertia = (np.trace(second) + regulariser) * np.eye(3) - second
    momentum = (mass[:, None] * np.cross(r, v)).sum(axis=0)
    omega = np.linalg.solve(inertia, momentum)
    return vc + np.cross(omega, r)


def decay_rate(rate: float, h: float) -> float:
    """The rate that removes exactly the fraction 1 - exp(-rate h) of a velocity in one substep:
    an explicit -rate v would overshoot (reverse the velocity) once rate h > 1."""
    return -math.expm1(-rate * h) / h if rate > 0.0 else 0.0


def add_internal_viscosity(forces, v, mass, rigid_v, rate: float) -> None:
    """-m mu (v - v_rigid): damps the wobble relative to the body's own rigid motion, so a poke
    dies out while the fall and the roll go on untouched. Internal: sums to zero."""
    forces -= (rate * mass)[:, None] * (v - rigid_v)


def add_shear_viscosity(forces, x, v, mass, edges, edge_weights, rigid_v, viscosity: float, h: float,
                        regulariser: float) -> None:
    """The jelly's viscosity acting on velocity gradients: nu times the Laplacian of the
    deformation velocity u = v - v_rigid, on the ring grid's edges (``sphere.grid_edges``) with
    weights 1 / (rest length)^2, so the sum over a vertex's edges of w (u_j - u_i) is the finite-
    difference Laplacian. Each vertex's u moves toward its neighbours' weighted mean by the fraction
    (1 - exp(-2 nu d h)) / 2 of the gap in one substep (d = its summed weights): nu h times the
    Laplacian while that is small, and never more than half the gap, so even the fastest mode
    (neighbours moving against each other) decays instead of flipping sign: stable at any
    viscosity and resolution.

    ``add_internal_viscosity`` damps every deformation at one rate. A real jelly's viscous damping
    grows with the square of the wave number: a ripple of wavelength lambda dies at about
    nu (2 pi / lambda)^2 per second. Without it, when a slam stops the vertices on the floor
    while their neighbours still move, the surface creases between neighbours (a fold of 176
    degrees at 128 x 128 after the README poke); with it the crease is smoothed within a substep
    while the whole-body wobble, of wavelength about the diameter, hardly feels it. The rigid part
    of the change (a push or a spin from nowhere, since the weights and masses are not uniform)
    is taken out, so it moves no momentum and no angular momentum."""
    if viscosity <= 0.0:
        return
    count = x.shape[0]
    u = v - rigid_v
    a, b = edges[:, 0], edges[:, 1]
    gap = edge_weights[:, None] * (u[b] - u[a])
    pulled = np.stack([np.bincount(a, gap[:, k], count) - np.bincount(b, gap[:, k], count) for k in range(3)], axis=1)
    degree = np.bincount(a, edge_weights, count) + np.bincount(b, edge_weights, count)
    change = (-np.expm1(-2.0 * viscosity * degree * h) / (2.0 * degree))[:, None] * pulled
    change -= rigid_velocity(x, change, mass, regulariser)
    forces += mass[:, None] * change / h


def viscous_edge_weights(rest_offsets, edges) -> np.ndarray:
    """1 / (rest length)^2 of each edge: the finite-difference Laplacian's weights."""
    d = rest_offsets[edges[:, 1]] - rest_offsets[edges[:, 0]]
    return 1.0 / np.einsum("ij,ij->i", d, d)


def add_air_drag(forces, v, mass, rate: float) -> None:
    """A small -m a v on absolute velocity, so a thrown slime slows down in the air."""
    forces -= (rate * mass)[:, None] * v


def add_gravity(forces, mass, gravity) -> None:
    forces += mass[:, None] * np.asarray(gravity, dtype=np.float64)


def slime_forces(body, h: float, internal_only: bool = False) -> np.ndarray:
    """All the forces on a ``SlimeBody``'s vertices for a substep of length h (no grab, no floor),
    in the order the physics reads: volume, surface tension, shape, viscosity (whole-body and shear), then drag and gravity."""
    prm = body.params
    x, v, m = body.positions, body.velocities, body.mass
    forces = np.zeros_like(x)
    add_volume_pressure(forces, x, body.triangles, m, body.ideal_volume, body.pressure_scale, body.rest_spread,
                        body.rest_pressure)
    add_surface_tension(forces, x, body.triangles, body.tension)
    add_shape_restoring(forces, x, m, body.rest_offsets, prm.shape_stiffness, best_fit_rotation(x, m, body.rest_offsets))
    # Viscosity and drag together decay exactly over the substep; each takes its share of the rate.
    total = prm.viscosity + (0.0 if internal_only else prm.air_drag)
    decay = decay_rate(total, h)
    rigid_v = rigid_velocity(x, v, m, body.inertia_floor)
    if total > 0.0:
        add_internal_viscosity(forces, v, m, rigid_v, decay * prm.viscosity / total)
        if not internal_only:
            add_air_drag(forces, v, m, decay * prm.air_drag / total)
    add_shear_viscosity(forces, x, v, m, body.grid_edges, body.edge_weights, rigid_v, prm.shear_viscosity, h,
                        body.inertia_floor)
    if not internal_only:
        add_gravity(forces, m, prm.gravity)
    return forces
