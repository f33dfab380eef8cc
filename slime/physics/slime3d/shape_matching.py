"""Shape restoring by shape matching (Müller et al. 2005): each vertex is pulled toward the rest
shape placed at the body's current centre of mass and turned by the rotation that fits it best, so
the slime keeps its shape yet rolls and tumbles freely.

With masses m, positions x (centre c) and rest offsets r (mass centre 0), the rotation R that
minimises sum m |R r + c - x|^2 is the rotational factor of the polar decomposition of
A = sum m (x - c) r^T (``moments.moments_about``). The pulls m k (c + R r - x) sum to zero
(sum m r = 0) and apply no torque (A R^T = R S R^T is symmetric), so they move neither momentum
nor angular momentum.
"""

from __future__ import annotations

import numpy as np

from slime.physics.compiled import kernel


@kernel
def best_rotation(covariance, fallback):
    """The proper rotation (det +1) nearest to A = ``covariance`` (3, 3): R = U V^T from A's
    singular value decomposition, with the axis of the smallest singular value flipped when U V^T
    is a reflection (an inverted or flat body; decided on U V^T itself, since for a flat body det A
    is rounding noise of either sign). ``fallback`` when A has no well-defined rotation: not
    finite, or of rank below 2 (the body collapsed to a point or a line)."""
    for i in range(3):
        for j in range(3):
            if not np.isfinite(covariance[i, j]):
                return fallback.copy()
    u, sigma, vt = np.linalg.svd(covariance)
    if not (sigma[0] > 0.0 and sigma[1] > 1e-6 * sigma[0]):
        return fallback.copy()
    rotation = u @ vt
    if np.linalg.det(rotation) < 0.0:
        u[:, 2] = -u[:, 2]
        rotation = u @ vt
    return rotation


@kernel
def add_shape_restoring(acc, x, rest, first, count, centre, rotation, stiffness):
    """a = k (c + R r - x): each vertex accelerated toward its goal, the rest offset r turned by
    the best-fit rotation R and placed at the centre of mass c, at the per-mass stiffness k
    (1/s^2; the surface wobbles at about sqrt(k) rad/s whatever the mesh)."""
    for k in range(first, first + count):
        r0, r1, r2 = rest[0, k], rest[1, k], rest[2, k]
        for d in range(3):
            goal = centre[d] + rotation[d, 0] * r0 + rotation[d, 1] * r1 + rotation[d, 2] * r2
            acc[d, k] += stiffness * (goal - x[d, k])
