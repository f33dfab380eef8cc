"""A body's motion as a whole, from its vertices: the centre of mass and its velocity, the
moments about the centre that shape matching and the viscosities read, the inverse inertia, and
the velocity the body would have if it moved rigidly.

Arrays are the world's: ``x``, ``v`` (3, P) positions and velocities, ``mass`` (P,), ``rest``
(3, P) each body's rest shape about its own centre of mass. A body is the columns
``first .. first + count - 1``.
"""

from __future__ import annotations

import numpy as np

from slime.physics.compiled import body_rows, kernel


@kernel
def centre_of_mass(x, mass, first, count):
    """c = sum m x / M over the body's columns of ``x`` (3, P): where it is as a whole (or, given
    the velocities, how fast it goes)."""
    x0, x1, x2 = body_rows(x, first, count)
    m = mass[first:first + count]
    total = cx = cy = cz = 0.0
    for k in range(count):
        total += m[k]
        cx += m[k] * x0[k]
        cy += m[k] * x1[k]
        cz += m[k] * x2[k]
    return np.array([cx, cy, cz]) / total


@kernel
def centres_of_mass(x, mass, first, count):
    """(B, 3) ``centre_of_mass`` of every body (columns ``first[b] ..``, ``count[b]`` of them)."""
    out = np.empty((first.shape[0], 3))
    for b in range(first.shape[0]):
        c = centre_of_mass(x, mass, first[b], count[b])
        # Element by element: numba's whole-row assignment compiles its shape-mismatch message
        # (string formatting, over a second) for a mismatch that cannot happen here.
        for d in range(3):
            out[b, d] = c[d]
    return out


def mass_centroids(points: np.ndarray, mass: np.ndarray, start) -> np.ndarray:
    """(B, 3) centres of mass (``centre_of_mass``) of bodies stored one after another in (P, 3)
    ``points`` (positions, or velocities for the bodies' velocities) with (P,) vertex masses;
    body i's vertices start at ``start[i]`` and run to the next one's start."""
    first = np.asarray(start, dtype=np.int64).reshape(-1)
    count = np.diff(np.append(first, len(mass)))
    # (3, P) contiguous, the world's own layout: one compiled copy of the kernel serves every caller.
    columns = np.ascontiguousarray(np.asarray(points, dtype=np.float64).T)
    return centres_of_mass(columns, np.asarray(mass, dtype=np.float64), first, count)


@kernel
def body_moments(x, v, mass, rest, first, count):
    """Everything the forces read of the body as a whole, in one pass: its centre of mass c, the
    velocity v_c of c, its mass M, and the sums about c that its shape and spin are read from:

        A = sum m (x - c) r^T      (shape matching's covariance: rest shape r onto the current one)
        C = sum m (x - c)(x - c)^T (the second moment; the inertia is (tr C) 1 - C)
        L = sum m (x - c) x v      (the angular momentum about c)

    The sums are taken about the body's first vertex p (a point near it, so that a body far from
    the origin keeps its precision) and moved to c: A is the same about any point (sum m r = 0),
    C = C_p - M d d^T and L = L_p - M d x v_c with d = c - p. Returns (c, v_c, M, A, C, L)."""
    x0, x1, x2 = body_rows(x, first, count)
    v0, v1, v2 = body_rows(v, first, count)
    r0, r1, r2 = body_rows(rest, first, count)
    m = mass[first:first + count]
    p0, p1, p2 = x0[0], x1[0], x2[0]
    total = 0.0
    s0 = s1 = s2 = u0 = u1 = u2 = 0.0
    a00 = a01 = a02 = a10 = a11 = a12 = a20 = a21 = a22 = 0.0
    c00 = c01 = c02 = c11 = c12 = c22 = 0.0
    l0 = l1 = l2 = 0.0
    for k in range(count):
        mk = m[k]
        e0 = x0[k] - p0
        e1 = x1[k] - p1
        e2 = x2[k] - p2
        d0, d1, d2 = mk * e0, mk * e1, mk * e2
        w0, w1, w2 = v0[k], v1[k], v2[k]
        total += mk
        s0 += d0
        s1 += d1
        s2 += d2
        u0 += mk * w0
        u1 += mk * w1
        u2 += mk * w2
        a00 += d0 * r0[k]
        a01 += d0 * r1[k]
        a02 += d0 * r2[k]
        a10 += d1 * r0[k]
        a11 += d1 * r1[k]
        a12 += d1 * r2[k]
        a20 += d2 * r0[k]
        a21 += d2 * r1[k]
        a22 += d2 * r2[k]
        c00 += d0 * e0
        c01 += d0 * e1
        c02 += d0 * e2
        c11 += d1 * e1
        c12 += d1 * e2
        c22 += d2 * e2
        l0 += d1 * w2 - d2 * w1
        l1 += d2 * w0 - d0 * w2
        l2 += d0 * w1 - d1 * w0
    # d = c - p and v_c; then C and L moved from p to c.
    g0, g1, g2 = s0 / total, s1 / total, s2 / total
    c0, c1, c2 = u0 / total, u1 / total, u2 / total
    centre = np.array([p0 + g0, p1 + g1, p2 + g2])
    velocity = np.array([c0, c1, c2])
    a = np.array([[a00, a01, a02], [a10, a11, a12], [a20, a21, a22]])
    c = second_moment_at_centre(total, g0, g1, g2, c00, c01, c02, c11, c12, c22)
    spin = np.array([l0 - total * (g1 * c2 - g2 * c1), l1 - total * (g2 * c0 - g0 * c2),
                     l2 - total * (g0 * c1 - g1 * c0)])
    return centre, velocity, total, a, c, spin


@kernel
def mass_moments(x, mass, first, count):
    """Where the body's mass is, alone, in one pass: its centre of mass c, its mass M and its
    second moment C = sum m (x - c)(x - c)^T, as ``body_moments`` (which reads the velocities and
    the rest shape too) takes them. Returns (c, M, C)."""
    x0, x1, x2 = body_rows(x, first, count)
    m = mass[first:first + count]
    p0, p1, p2 = x0[0], x1[0], x2[0]
    total = s0 = s1 = s2 = 0.0
    c00 = c01 = c02 = c11 = c12 = c22 = 0.0
    for k in range(count):
        mk = m[k]
        e0 = x0[k] - p0
        e1 = x1[k] - p1
        e2 = x2[k] - p2
        d0, d1, d2 = mk * e0, mk * e1, mk * e2
        total += mk
        s0 += d0
        s1 += d1
        s2 += d2
        c00 += d0 * e0
        c01 += d0 * e1
        c02 += d0 * e2
        c11 += d1 * e1
        c12 += d1 * e2
        c22 += d2 * e2
    g0, g1, g2 = s0 / total, s1 / total, s2 / total
    centre = np.array([p0 + g0, p1 + g1, p2 + g2])
    return centre, total, second_moment_at_centre(total, g0, g1, g2, c00, c01, c02, c11, c12, c22)


@kernel
def second_moment_at_centre(total, g0, g1, g2, c00, c01, c02, c11, c12, c22):
    """C about the centre from the sums about a point p: C = C_p - M d d^T, d = c - p = (g0, g1,
    g2), C_p's six entries given (it is symmetric)."""
    return np.array([[c00 - total * g0 * g0, c01 - total * g0 * g1, c02 - total * g0 * g2],
                     [c01 - total * g0 * g1, c11 - total * g1 * g1, c12 - total * g1 * g2],
                     [c02 - total * g0 * g2, c12 - total * g1 * g2, c22 - total * g2 * g2]])


@kernel
def inverse_inertia(second_moment, floor):
    """I^-1 for I = (tr C + floor) 1 - C, by its adjugate over its determinant. ``floor`` (kg m^2)
    keeps a body collapsed to a point or a line from dividing by zero; an inertia still singular
    or not finite gives 0: no rotation is read from it."""
    i = -second_moment.copy()
    trace = second_moment[0, 0] + second_moment[1, 1] + second_moment[2, 2] + floor
    for d in range(3):
        i[d, d] += trace
    adj = np.empty((3, 3))
    for r in range(3):
        for c in range(3):
            r1, r2 = (c + 1) % 3, (c + 2) % 3
            c1, c2 = (r + 1) % 3, (r + 2) % 3
            adj[r, c] = i[r1, c1] * i[r2, c2] - i[r1, c2] * i[r2, c1]
    det = i[0, 0] * adj[0, 0] + i[0, 1] * adj[1, 0] + i[0, 2] * adj[2, 0]
    if not (det > 1e-300 and det < np.inf):
        return np.zeros((3, 3))
    return adj / det


@kernel
def matrix_times_vector(matrix, vector):
    """M v for a 3 x 3 M, written out: numba's ``@`` compiles a general matrix product for it."""
    v0, v1, v2 = vector[0], vector[1], vector[2]
    return np.array([matrix[0, 0] * v0 + matrix[0, 1] * v1 + matrix[0, 2] * v2,
                     matrix[1, 0] * v0 + matrix[1, 1] * v1 + matrix[1, 2] * v2,
                     matrix[2, 0] * v0 + matrix[2, 1] * v1 + matrix[2, 2] * v2])


@kernel
def cross(a0, a1, a2, b0, b1, b2):
    """a x b, component by component."""
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@kernel
def rigid_velocity_at(velocity, omega, centre, px, py, pz):
    """The velocity v_c + omega x (p - c) the point p would have if the body moved rigidly."""
    dx = px - centre[0]
    dy = py - centre[1]
    dz = pz - centre[2]
    return (velocity[0] + omega[1] * dz - omega[2] * dy,
            velocity[1] + omega[2] * dx - omega[0] * dz,
            velocity[2] + omega[0] * dy - omega[1] * dx)


@kernel
def internal_part_into(acc, part, mass, x, first, count, centre, inverse):
    """acc += a - a_rigid over the body's columns of ``acc`` (3, P), with a = ``part`` (the body's
    own rows from column 0: its internal acceleration as the substep carries it) and a_rigid its
    rigid part, the push sum m a / M and the turn I^-1 sum m (x - c) x a (``inverse`` the body's
    I^-1): what internal forces whose sum and torque should vanish, and on a mesh of uneven
    weights and masses do not quite, add."""
    m = mass[first:first + count]
    c0, c1, c2 = part[0], part[1], part[2]
    x0, x1, x2 = body_rows(x, first, count)
    total = p0 = p1 = p2 = t0 = t1 = t2 = 0.0
    for k in range(count):
        f0, f1, f2 = m[k] * c0[k], m[k] * c1[k], m[k] * c2[k]
        torque = cross(x0[k] - centre[0], x1[k] - centre[1], x2[k] - centre[2], f0, f1, f2)
        total += m[k]
        p0, p1, p2 = p0 + f0, p1 + f1, p2 + f2
        t0, t1, t2 = t0 + torque[0], t1 + torque[1], t2 + torque[2]
    push = (p0 / total, p1 / total, p2 / total)
    turn = (inverse[0, 0] * t0 + inverse[0, 1] * t1 + inverse[0, 2] * t2,
            inverse[1, 0] * t0 + inverse[1, 1] * t1 + inverse[1, 2] * t2,
            inverse[2, 0] * t0 + inverse[2, 1] * t1 + inverse[2, 2] * t2)
    a0, a1, a2 = body_rows(acc, first, count)
    for k in range(count):
        r = rigid_velocity_at(push, turn, centre, x0[k], x1[k], x2[k])
        a0[k] += c0[k] - r[0]
        a1[k] += c1[k] - r[1]
        a2[k] += c2[k] - r[2]
