"""Shape matching (Müller et al. 2005): the best-fit rigid motion of a deformed point cloud.

With masses m, current positions x (centroid c) and rest positions r (mass centroid 0), the
rotation R minimising sum m |R r + c - x|^2 is the rotational factor of the polar decomposition of
A = sum m (x - c) r^T. Goals g = c + R r pulled on with a per-mass stiffness conserve linear
momentum (sum m r = 0) and angular momentum (A R^T = R S R^T is symmetric: no net torque).
"""

from __future__ import annotations

import numpy as np


def best_rotation(covariance: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Proper rotation (det +1) closest to ``covariance`` (3, 3); ``fallback`` when it has no
    well-defined one (non-finite, or rank below 2: a collapsed point or a line)."""
    a = np.asarray(covariance, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        return fallback
    u, sigma, vt = np.linalg.svd(a)
    if not sigma[0] > 0.0 or sigma[1] <= 1e-6 * sigma[0]:
        return fallback
    # A reflection (det < 0: the body is inverted or flattened) is turned into the nearest
    # rotation by flipping the axis of the smallest singular value.
    if np.linalg.det(u @ vt) < 0.0:
        u = u.copy()
        u[:, 2] = -u[:, 2]
    return u @ vt


def rigid_angular_velocity(second_moment, angular_momentum, regulariser: float) -> np.ndarray:
    """omega = I^-1 L with I = tr(C) 1 - C from the second moment C = sum m (x - c)(x - c)^T; the
    small ``regulariser`` (kg m^2) keeps a collapsed body (I -> 0) from dividing by zero. Plain
    Python floats (Cramer's rule): a 3 x 3 solve is far cheaper so than through LAPACK."""
    (c00, c01, c02), (c10, c11, c12), (c20, c21, c22) = (tuple(map(float, row)) for row in second_moment)
    trace = c00 + c11 + c22 + regulariser
    a, b, c = trace - c00, -0.5 * (c01 + c10), -0.5 * (c02 + c20)
    e, f = trace - c11, -0.5 * (c12 + c21)
    i = trace - c22
    # Symmetric [[a, b, c], [b, e, f], [c, f, i]]: cofactors.
    ca, cb, cc = e * i - f * f, c * f - b * i, b * f - c * e
    ce, cf, ci = a * i - c * c, b * c - a * f, a * e - b * b
    det = a * ca + b * cb + c * cc
    lx, ly, lz = (float(t) for t in angular_momentum)
    if not (det > 0.0 and np.isfinite(det)):
        return np.zeros(3)
    omega = np.array([ca * lx + cb * ly + cc * lz, cb * lx + ce * ly + cf * lz, cc * lx + cf * ly + ci * lz]) / det
    if not np.all(np.isfinite(omega)):
        return np.zeros(3)
    return omega


def skew(w: np.ndarray) -> np.ndarray:
    """The matrix W with W x = w x x."""
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def rotation_angle(rotation: np.ndarray) -> float:
    """Angle (radians) of a rotation matrix."""
    return float(np.arccos(np.clip((np.trace(rotation) - 1.0) / 2.0, -1.0, 1.0)))
