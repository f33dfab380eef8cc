"""Shape restoring by shape matching (Müller et al. 2005): each vertex is pulled toward the rest
shape placed at the body's current centre of mass and turned by the rotation that fits it best, so
the slime keeps its shape yet rolls and tumbles freely.

With masses m, positions x (centre c) and rest offsets r (mass centre 0), the rotation R that
minimises sum m |R r + c - x|^2 is the rotational factor of the polar decomposition of
A = sum m (x - c) r^T (``moments.body_moments``). The pulls m k (c + R r - x) sum to zero
(sum m r = 0) and apply no torque (A R^T = R S R^T is symmetric), so they move neither momentum
nor angular momentum.
"""

from __future__ import annotations

import math

import numpy as np

from slime.physics.compiled import kernel


@kernel
def _frobenius(m):
    total = 0.0
    for i in range(3):
        for j in range(3):
            total += m[i, j] * m[i, j]
    return math.sqrt(total)


@kernel
def _inverse_transpose(m):
    """(M^-1)^T = cof(M) / det M, and det M."""
    cof = np.empty((3, 3))
    for r in range(3):
        r1, r2 = (r + 1) % 3, (r + 2) % 3
        for c in range(3):
            c1, c2 = (c + 1) % 3, (c + 2) % 3
            cof[r, c] = m[r1, c1] * m[r2, c2] - m[r1, c2] * m[r2, c1]
    det = m[0, 0] * cof[0, 0] + m[0, 1] * cof[0, 1] + m[0, 2] * cof[0, 2]
    return cof / det, det


@kernel
def best_rotation(covariance, fallback):
    """The proper rotation (det +1) nearest to A = ``covariance`` (3, 3): the rotational factor of
    A's polar decomposition A = R S.

    For a body that is neither inverted nor flat (det A well above zero) it is the limit of
    Newton's iteration X <- (g X + X^-T / g) / 2 from X = A (g = sqrt(|X^-1| / |X|) scales each step;
    Higham 1986), a few 3 x 3 inverses. Otherwise from A's singular value decomposition: R = U V^T,
    with the axis of the smallest singular value flipped when U V^T is a reflection (decided on
    U and V themselves, since for a flat body det A is rounding noise of either sign). ``fallback`` when A
    has no well-defined rotation: not finite, or of rank below 2 (collapsed to a point or a line)."""
    norm = _frobenius(covariance)
    if not norm < np.inf:  # not finite (NaN fails too)
        return fallback.copy()
    inverse_t, det = _inverse_transpose(covariance)
    if det > 1e-4 * norm * norm * norm:
        x = covariance.copy()
        for _ in range(30):
            gamma = math.sqrt(_frobenius(inverse_t) / _frobenius(x))
            step = 0.5 * (gamma * x + inverse_t / gamma)
            change = _frobenius(step - x)
            x = step
            if change < 1e-15:
                break
            inverse_t, _ = _inverse_transpose(x)
        return x
    # A = U S V^T from the eigenvectors V of A^T A (S^2 its eigenvalues, largest first).
    gram = np.empty((3, 3))
    for r in range(3):
        for c in range(3):
            gram[r, c] = (covariance[0, r] * covariance[0, c] + covariance[1, r] * covariance[1, c]
                          + covariance[2, r] * covariance[2, c])
    squares, v = symmetric_eigen(gram)
    sigma0, sigma1 = math.sqrt(max(squares[0], 0.0)), math.sqrt(max(squares[1], 0.0))
    if not (sigma0 > 0.0 and sigma1 > 1e-6 * sigma0):
        return fallback.copy()
    # U's first two columns are A v / sigma; the third axes, u0 x u1 and v0 x v1, make U and V
    # proper rotations (the smallest singular value's axis flipped when U V^T would reflect).
    u = np.empty((3, 3))
    for r in range(3):
        u[r, 0] = (covariance[r, 0] * v[0, 0] + covariance[r, 1] * v[1, 0] + covariance[r, 2] * v[2, 0]) / sigma0
        u[r, 1] = (covariance[r, 0] * v[0, 1] + covariance[r, 1] * v[1, 1] + covariance[r, 2] * v[2, 1]) / sigma1
    for m in (u, v):
        m[0, 2] = m[1, 0] * m[2, 1] - m[2, 0] * m[1, 1]
        m[1, 2] = m[2, 0] * m[0, 1] - m[0, 0] * m[2, 1]
        m[2, 2] = m[0, 0] * m[1, 1] - m[1, 0] * m[0, 1]
    rotation = np.empty((3, 3))
    for r in range(3):
        for c in range(3):
            rotation[r, c] = u[r, 0] * v[c, 0] + u[r, 1] * v[c, 1] + u[r, 2] * v[c, 2]
    return rotation


@kernel
def symmetric_eigen(m):
    """The eigenvalues of a symmetric 3 x 3 matrix, largest first, and its unit eigenvectors (as
    columns, in the same order), by Jacobi's rotations: each zeroes one off-diagonal pair, until
    they are rounding noise. (numpy's SVD, compiled, is more code than the rest of the physics:
    this is enough for a 3 x 3.)"""
    a = m.copy()
    v = np.eye(3)
    for _ in range(50):
        off = a[0, 1] * a[0, 1] + a[0, 2] * a[0, 2] + a[1, 2] * a[1, 2]
        if not off > 1e-32 * (a[0, 0] * a[0, 0] + a[1, 1] * a[1, 1] + a[2, 2] * a[2, 2]):
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if a[p, q] == 0.0:
                continue
            theta = (a[q, q] - a[p, p]) / (2.0 * a[p, q])
            t = (1.0 if theta >= 0.0 else -1.0) / (abs(theta) + math.sqrt(theta * theta + 1.0))
            c = 1.0 / math.sqrt(t * t + 1.0)
            s = t * c
            for k in range(3):  # A J, then J^T (A J), and V J
                a[k, p], a[k, q] = c * a[k, p] - s * a[k, q], s * a[k, p] + c * a[k, q]
            for k in range(3):
                a[p, k], a[q, k] = c * a[p, k] - s * a[q, k], s * a[p, k] + c * a[q, k]
            for k in range(3):
                v[k, p], v[k, q] = c * v[k, p] - s * v[k, q], s * v[k, p] + c * v[k, q]
    # Largest first: a sort of three.
    order = [0, 1, 2]
    for i in range(3):
        for j in range(2 - i):
            if a[order[j], order[j]] < a[order[j + 1], order[j + 1]]:
                order[j], order[j + 1] = order[j + 1], order[j]
    values = np.empty(3)
    vectors = np.empty((3, 3))
    for c in range(3):
        values[c] = a[order[c], order[c]]
        for r in range(3):
            vectors[r, c] = v[r, order[c]]
    return values, vectors


@kernel
def shape_restoring_at(x, rest, k, centre, rotation, stiffness):
    """a = k_s (c + R r - x) at vertex k: accelerated toward its goal, its rest offset r turned by
    the best-fit rotation R and placed at the centre of mass c, at the per-mass stiffness k_s
    (1/s^2; the surface wobbles at about sqrt(k_s) rad/s whatever the mesh)."""
    r0, r1, r2 = rest[0][k], rest[1][k], rest[2][k]
    g0 = centre[0] + rotation[0, 0] * r0 + rotation[0, 1] * r1 + rotation[0, 2] * r2
    g1 = centre[1] + rotation[1, 0] * r0 + rotation[1, 1] * r1 + rotation[1, 2] * r2
    g2 = centre[2] + rotation[2, 0] * r0 + rotation[2, 1] * r1 + rotation[2, 2] * r2
    return stiffness * (g0 - x[0][k]), stiffness * (g1 - x[1][k]), stiffness * (g2 - x[2][k])
