"""Adhesion: slime sticks to what it lands on, so a drop splats instead of bouncing and a thrown
slime comes to rest instead of rolling away.

A vertex within a thin film above a plane (``ADHESION_REACH`` of the radius: the floor, a wall)
that moves away from it is held back by the film, with a pull of at most ``adhesion`` a (m/s^2)
per unit mass, fading linearly to nothing at the film's edge: the separating speed loses
min(v_n, a h (1 - height / reach)) in a substep, never reversed (it only dissipates: the film
holds, it does not pull back).

The film's pull is taken by the body as a whole: the impulses of its vertices are summed into
one push and one turn about the centre of mass, and every vertex gets the rigid velocity change
they make, Delta v = J / M + I^-1 L x (x - c). Momentum and angular momentum change exactly as
if each vertex had been held on its own; the deformation is left to the forces. Held vertex by
vertex, the film would grip a few vertices of a fine mesh's contact patch while their neighbours
move on, and crumple the patch; taken as a whole, it holds back the leap of a bounce and the turn
of a roll (its turn about the centre is what resists rolling), which is what sticking does.
"""

from __future__ import annotations

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.slime3d.moments import body_moments, inverse_inertia, rigid_velocity_at

ADHESION_REACH = 0.05  # of the radius: the film within which a surface sticks to a plane


@kernel
def adhere(model, b, x, v, normal, point, h):
    """Body ``b``'s velocities (3, P) changed by the planes' films (``normal``, ``point`` (K, 3))
    over a substep of length h (see the module docstring)."""
    first, count = model.first[b], model.count[b]
    pull = model.adhesion[b] * h
    reach = ADHESION_REACH * model.radius[b]
    if not (pull > 0.0) or normal.shape[0] == 0:
        return
    mass = model.mass
    # The films' impulses, summed about the body's first vertex (moved to the centre below).
    j0 = j1 = j2 = l0 = l1 = l2 = 0.0
    held = False
    p0, p1, p2 = x[0, first], x[1, first], x[2, first]
    for p in range(normal.shape[0]):
        n0, n1, n2 = normal[p, 0], normal[p, 1], normal[p, 2]
        for k in range(first, first + count):
            height = (x[0, k] - point[p, 0]) * n0 + (x[1, k] - point[p, 1]) * n1 + (x[2, k] - point[p, 2]) * n2
            if not height < reach:
                continue
            vn = v[0, k] * n0 + v[1, k] * n1 + v[2, k] * n2
            if not vn > 0.0:
                continue
            film = 1.0 - max(height, 0.0) / reach
            impulse = -mass[k] * min(vn, pull * film)
            f0, f1, f2 = impulse * n0, impulse * n1, impulse * n2
            e0, e1, e2 = x[0, k] - p0, x[1, k] - p1, x[2, k] - p2
            j0 += f0
            j1 += f1
            j2 += f2
            l0 += e1 * f2 - e2 * f1
            l1 += e2 * f0 - e0 * f2
            l2 += e0 * f1 - e1 * f0
            held = True
    if not held:
        return
    centre, _, total, _, second_moment, _ = body_moments(x, v, mass, model.rest, first, count)
    d0, d1, d2 = centre[0] - p0, centre[1] - p1, centre[2] - p2
    turn = np.array([l0 - (d1 * j2 - d2 * j1), l1 - (d2 * j0 - d0 * j2), l2 - (d0 * j1 - d1 * j0)])
    push = np.array([j0 / total, j1 / total, j2 / total])
    omega = inverse_inertia(second_moment, model.inertia_floor[b]) @ turn
    for k in range(first, first + count):
        r0, r1, r2 = rigid_velocity_at(push, omega, centre, x[0, k], x[1, k], x[2, k])
        v[0, k] += r0
        v[1, k] += r1
        v[2, k] += r2


@kernel
def adhere_all(model, x, v, normal, point, h, held):
    """``adhere`` for every body of the model but ``held`` (-1 for none): a slime in the hand is
    peeled off by it, however hard it sticks."""
    for b in range(model.first.shape[0]):
        if b != held:
            adhere(model, b, x, v, normal, point, h)
