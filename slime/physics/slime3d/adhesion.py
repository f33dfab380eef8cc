"""Adhesion: slime sticks to what it lands on, so a drop splats instead of bouncing and a thrown
slime comes to rest instead of rolling away.

A vertex within a thin film above a surface (``ADHESION_REACH`` of the radius: the floor, a
wall, a box's face, a ball, a cylinder) that moves away from it is held back by the film, with a pull of at most ``adhesion`` a (m/s^2)
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

One law for every surface (``film_impulse``, ``take_by_body``): the planes' films are measured
here, plane by plane (``adhere``, in the compiled floor stage); a solid obstacle's are measured by
its kind, each vertex's height above the nearest point of its surface and the outward normal
there (``obstacle_contacts.surface_of``), and taken alike (``adhere_to_surfaces``).
"""

from __future__ import annotations

import numpy as np

from slime.physics.compiled import body_rows, kernel
from slime.physics.slime3d.moments import cross, inverse_inertia, mass_moments, rigid_velocity_at, matrix_times_vector

ADHESION_REACH = 0.05  # of the radius: the film within which a slime sticks to a surface


@kernel
def adhere(model, b, x, v, normal, point, h):
    """Body ``b``'s velocities (3, P) changed by the planes' films (``normal``, ``point`` (K, 3))
    over a substep of length h (see the module docstring)."""
    first, count = model.first[b], model.count[b]
    pull = model.adhesion[b] * h
    reach = ADHESION_REACH * model.radius[b]
    if not (pull > 0.0) or normal.shape[0] == 0:
        return
    x0, x1, x2 = body_rows(x, first, count)
    v0, v1, v2 = body_rows(v, first, count)
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
            impulse = film_impulse(m[k], height, vn, pull, reach)
            total += impulse
            r0 += impulse * (x0[k] - p0)
            r1 += impulse * (x1[k] - p1)
            r2 += impulse * (x2[k] - p2)
        turn = cross(r0, r1, r2, n0, n1, n2)
        j0, j1, j2 = j0 + total * n0, j1 + total * n1, j2 + total * n2
        l0, l1, l2 = l0 + turn[0], l1 + turn[1], l2 + turn[2]
    take_by_body(model, b, x, v, j0, j1, j2, l0, l1, l2, p0, p1, p2)


@kernel
def film_impulse(mass, height, vn, pull, reach):
    """The film's impulse (along the surface's outward normal) on a vertex of ``mass`` at
    ``height`` above a surface, leaving it at normal speed ``vn``: -m min(v_n, a h (1 - height /
    reach)), ``pull`` = a h, within the film and leaving it; anything else (NaN too) takes none."""
    film = 1.0 - max(height, 0.0) / reach
    impulse = -mass * min(vn, pull * film)
    return impulse if height < reach and vn > 0.0 else 0.0


@kernel
def take_by_body(model, b, x, v, j0, j1, j2, l0, l1, l2, p0, p1, p2):
    """The films' summed impulse J = (j0, j1, j2) on body ``b`` and its turn L = (l0, l1, l2)
    about the point p = (p0, p1, p2) taken by the body as a whole: every vertex's velocity
    changes by J / M + I^-1 L_c x (x - c), L_c the turn moved to the centre of mass c."""
    if not (j0 != 0.0 or j1 != 0.0 or j2 != 0.0):
        return
    first, count = model.first[b], model.count[b]
    x0, x1, x2 = body_rows(x, first, count)
    v0, v1, v2 = body_rows(v, first, count)
    centre, total, second_moment = mass_moments(x, model.mass, first, count)
    moved = cross(centre[0] - p0, centre[1] - p1, centre[2] - p2, j0, j1, j2)  # the sums' point to c
    turn = np.array([l0 - moved[0], l1 - moved[1], l2 - moved[2]])
    push = np.array([j0 / total, j1 / total, j2 / total])
    omega = matrix_times_vector(inverse_inertia(second_moment, model.inertia_floor[b]), turn)
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


@kernel
def adhere_to_surfaces(model, x, v, vertex, normal, height, h, held):
    """The films of solid surfaces on the model's bodies but ``held`` (-1 for none): each
    (``vertex[i]``, its ``height[i]`` above a surface whose outward normal there is ``normal[i]``
    (n, 3)) takes ``film_impulse`` over a substep of length h, and each body takes its vertices'
    impulses as a whole (``take_by_body``), as a plane's film is taken. ``x``, ``v`` (3, P)."""
    bodies = model.first.shape[0]
    sums = np.zeros((bodies, 6))
    for i in range(vertex.shape[0]):
        k = vertex[i]
        b = np.searchsorted(model.first, k, side="right") - 1
        pull = model.adhesion[b] * h
        if b == held or not (pull > 0.0):
            continue
        n0, n1, n2 = normal[i, 0], normal[i, 1], normal[i, 2]
        vn = v[0, k] * n0 + v[1, k] * n1 + v[2, k] * n2
        impulse = film_impulse(model.mass[k], height[i], vn, pull, ADHESION_REACH * model.radius[b])
        if impulse == 0.0:
            continue
        first = model.first[b]
        r0, r1, r2 = impulse * (x[0, k] - x[0, first]), impulse * (x[1, k] - x[1, first]), impulse * (x[2, k] - x[2, first])
        turn = cross(r0, r1, r2, n0, n1, n2)
        sums[b, 0] += impulse * n0
        sums[b, 1] += impulse * n1
        sums[b, 2] += impulse * n2
        sums[b, 3] += turn[0]
        sums[b, 4] += turn[1]
        sums[b, 5] += turn[2]
    for b in range(bodies):
        first = model.first[b]
        take_by_body(model, b, x, v, sums[b, 0], sums[b, 1], sums[b, 2], sums[b, 3], sums[b, 4], sums[b, 5],
                     x[0, first], x[1, first], x[2, first])
