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

from slime.physics.compiled import kernel, rows
from slime.physics.slime3d.moments import cross, inverse_inertia, mass_moments, rigid_velocity_at, times

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
    x0, x1, x2 = rows(x, first, count)
    v0, v1, v2 = rows(v, first, count)
    m = model.mass[first:first + count]
    # The films' impulses, summed about the body's first vertex p (moved to the centre below). A
    # plane's impulses all lie along its normal n, so their sum is (sum of i_k) n and their turn
    # about p is (sum of i_k (x_k - p)) x n: four sums a plane, over the vertices, several at a time.
    j0 = j1 = j2 = l0 = l1 = l2 = 0.0
    p0, p1, p2 = x0[0], x1[0], x2[0]
    for p in range(normal.shape[0]):
        n0, n1, n2 = normal[p, 0], normal[p, 1], normal[p, 2]
        q0, q1, q2 = point[p, 0], point[p, 1], point[p, 2]
        total = r0 = r1 = r2 = 0.0
        for k in range(count):
            height = (x0[k] - q0) * n0 + (x1[k] - q1) * n1 + (x2[k] - q2) * n2
            vn = v0[k] * n0 + v1[k] * n1 + v2[k] * n2
            film = 1.0 - max(height, 0.0) / reach
            # Within the film and leaving it; anything else (NaN too) takes no impulse.
            impulse = -m[k] * min(vn, pull * film)
            impulse = impulse if height < reach and vn > 0.0 else 0.0
            total += impulse
            r0 += impulse * (x0[k] - p0)
            r1 += impulse * (x1[k] - p1)
            r2 += impulse * (x2[k] - p2)
        turn = cross(r0, r1, r2, n0, n1, n2)
        j0, j1, j2 = j0 + total * n0, j1 + total * n1, j2 + total * n2
        l0, l1, l2 = l0 + turn[0], l1 + turn[1], l2 + turn[2]
    held = j0 != 0.0 or j1 != 0.0 or j2 != 0.0
    if not held:
        return
    centre, total, second_moment = mass_moments(x, model.mass, first, count)
    moved = cross(centre[0] - p0, centre[1] - p1, centre[2] - p2, j0, j1, j2)  # the sums' point to c
    turn = np.array([l0 - moved[0], l1 - moved[1], l2 - moved[2]])
    push = np.array([j0 / total, j1 / total, j2 / total])
    omega = times(inverse_inertia(second_moment, model.inertia_floor[b]), turn)
    for k in range(count):
        r = rigid_velocity_at(push, omega, centre, x0[k], x1[k], x2[k])
        v0[k] += r[0]
        v1[k] += r[1]
        v2[k] += r[2]


@kernel
def adhere_all(model, x, v, normal, point, h, held):
    """``adhere`` for every body of the model but ``held`` (-1 for none): a slime in the hand is
    peeled off by it, however hard it sticks."""
    for b in range(model.first.shape[0]):
        if b != held:
            adhere(model, b, x, v, normal, point, h)
