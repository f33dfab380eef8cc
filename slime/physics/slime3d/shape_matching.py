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


@kernel(inline=True)
def _frobenius(m):
    total = 0.0
    for i in range(3):
        for j in range(3):
            total += m[i, j] * m[i, j]
    return math.sqrt(total)


@kernel(inline=True)
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
    U V^T itself, since for a flat body det A is rounding noise of either sign). ``fallback`` when A
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
    u, sigma, vt = np.linalg.svd(covariance)
    if not (sigma[0] > 0.0 and sigma[1] > 1e-6 * sigma[0]):
        return fallback.copy()
    rotation = u @ vt
    if np.linalg.det(rotation) < 0.0:
        u[:, 2] = -u[:, 2]
        rotation = u @ vt
    return rotation


@kernel(inline=True)
def shape_restoring_at(x, rest, k, centre, rotation, stiffness):
    """a = k_s (c + R r - x) at vertex k: accelerated toward its goal, its rest offset r turned by
    the best-fit rotation R and placed at the centre of mass c, at the per-mass stiffness k_s
    (1/s^2; the surface wobbles at about sqrt(k_s) rad/s whatever the mesh)."""
    r0, r1, r2 = rest[0][k], rest[1][k], rest[2][k]
    g0 = centre[0] + rotation[0, 0] * r0 + rotation[0, 1] * r1 + rotation[0, 2] * r2
    g1 = centre[1] + rotation[1, 0] * r0 + rotation[1, 1] * r1 + rotation[1, 2] * r2
    g2 = centre[2] + rotation[2, 0] * r0 + rotation[2, 1] * r1 + rotation[2, 2] * r2
    return stiffness * (g0 - x[0][k]), stiffness * (g1 - x[1][k]), stiffness * (g2 - x[2][k])
