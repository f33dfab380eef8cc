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

from slime.physics.shape_matching import best_rotation
from slime.physics.volume import mesh_volume, vertex_area_vectors


def centroid(x: np.ndarray, mass: np.ndarray) -> np.ndarray:
    return mass @ x / mass.sum()


def add_volume_pressure(forces, x, triangles, ideal_volume: float, pressure_scale: float) -> float:
    """Pressure along the volume gradient (the area-weighted vertex normals of the deformed
    surface), proportional to the relative volume error, clamped to +-100 %. The gradient of the
    volume sums to zero over a closed surface, so the pressure moves no momentum. Returns the
    current volume."""
    grad = vertex_area_vectors(x, triangles)  # dV/dx, outward
    volume = mesh_volume(x, triangles)
    error = np.clip((ideal_volume - volume) / ideal_volume, -1.0, 1.0)
    forces += pressure_scale * error * grad
    return volume


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


def add_air_drag(forces, v, mass, rate: float) -> None:
    """A small -m a v on absolute velocity, so a thrown slime slows down in the air."""
    forces -= (rate * mass)[:, None] * v


def add_gravity(forces, mass, gravity) -> None:
    forces += mass[:, None] * np.asarray(gravity, dtype=np.float64)


def slime_forces(body, h: float, internal_only: bool = False) -> np.ndarray:
    """All the forces on a ``SlimeBody``'s vertices for a substep of length h (no grab, no floor),
    in the order the physics reads: volume, shape, viscosity, then drag and gravity."""
    prm = body.params
    x, v, m = body.positions, body.velocities, body.mass
    forces = np.zeros_like(x)
    add_volume_pressure(forces, x, body.triangles, body.ideal_volume, body.pressure_scale)
    add_shape_restoring(forces, x, m, body.rest_offsets, prm.shape_stiffness, best_fit_rotation(x, m, body.rest_offsets))
    # Viscosity and drag together decay exactly over the substep; each takes its share of the rate.
    total = prm.viscosity + (0.0 if internal_only else prm.air_drag)
    decay = decay_rate(total, h)
    if total > 0.0:
        add_internal_viscosity(forces, v, m, rigid_velocity(x, v, m, body.inertia_floor), decay * prm.viscosity / total)
        if not internal_only:
            add_air_drag(forces, v, m, decay * prm.air_drag / total)
    if not internal_only:
        add_gravity(forces, m, prm.gravity)
    return forces
