"""Shape matching (Müller et al. 2005): the best-fit rigid motion of a deformed point cloud.

With masses m, current positions x (centroid c) and rest positions r (mass centroid 0), the
rotation R minimising sum m |R r + c - x|^2 is the rotational factor of the polar decomposition of
A = sum m (x - c) r^T. Goals g = c + R r pulled on with a per-mass stiffness conserve linear
momentum (sum m r = 0) and angular momentum (A R^T = R S R^T is symmetric: no net torque).
"""

from __future__ import annotations

import math

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


def rotation_angle(rotation: np.ndarray) -> float:
    """Angle (radians) of a rotation matrix."""
    return float(np.arccos(np.clip((np.trace(rotation) - 1.0) / 2.0, -1.0, 1.0)))


def quaternion_matrix(q) -> list:
    """Rotation matrix (nested lists) of a unit quaternion (w, x, y, z)."""
    w, x, y, z = q
    return [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]


def track_rotation(covariance, q, max_iterations: int = 20, tolerance: float = 1e-6):
    """The rotation of ``covariance`` (3 x 3 nested lists, A = sum m (x - c) r^T), found by the
    iteration of Müller, Bender, Chentanez and Macklin (2016), warm-started from the unit quaternion
    ``q`` of the previous substep: each pass turns R about sum_j R e_j x A e_j (the torque that
    aligns R's columns with A's), which converges to the polar rotation in one or two passes when
    the body turns a little per substep. It never yields a reflection and, on a collapsed body
    (A -> 0), keeps the previous rotation. Plain Python floats: far cheaper than an SVD call.
    The default tolerance (1e-6 rad per pass) matches the float32 moments the slime feeds it: a
    tighter one only chases their rounding, up to ``max_iterations`` passes per substep.
    Returns the new unit quaternion (w, x, y, z)."""
    a = [[float(v) for v in row] for row in covariance]
    if not all(math.isfinite(v) for row in a for v in row):
        return q
    scale = sum(v * v for row in a for v in row) ** 0.5
    if not scale > 0.0:
        return q
    eps = 1e-9 * scale
    w, x, y, z = q
    for _ in range(max_iterations):
        r = quaternion_matrix((w, x, y, z))
        ox = oy = oz = 0.0
        dot = 0.0
        for j in range(3):
            rx, ry, rz = r[0][j], r[1][j], r[2][j]
            ax, ay, az = a[0][j], a[1][j], a[2][j]
            ox += ry * az - rz * ay
            oy += rz * ax - rx * az
            oz += rx * ay - ry * ax
            dot += rx * ax + ry * ay + rz * az
        inv = 1.0 / (abs(dot) + eps)
        ox, oy, oz = ox * inv, oy * inv, oz * inv
        angle = math.sqrt(ox * ox + oy * oy + oz * oz)
        if angle < tolerance:
            break
        half = 0.5 * angle
        s = math.sin(half) / angle
        dw, dx, dy, dz = math.cos(half), ox * s, oy * s, oz * s
        # q <- dq * q
        w, x, y, z = (
            dw * w - dx * x - dy * y - dz * z,
            dw * x + dx * w + dy * z - dz * y,
            dw * y - dx * z + dy * w + dz * x,
            dw * z + dx * y - dy * x + dz * w,
        )
        norm = math.sqrt(w * w + x * x + y * y + z * z)
        w, x, y, z = w / norm, x / norm, y / norm, z / norm
    return (w, x, y, z)


def matrix_quaternion(rotation) -> tuple:
    """Unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method)."""
    m = [[float(v) for v in row] for row in np.asarray(rotation)]
    trace = m[0][0] + m[1][1] + m[2][2]
    if trace > 0.0:
        s = 2.0 * math.sqrt(1.0 + trace)
        q = (0.25 * s, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s)
    elif m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[0][0] - m[1][1] - m[2][2])
        q = ((m[2][1] - m[1][2]) / s, 0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s)
    elif m[1][1] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[1][1] - m[0][0] - m[2][2])
        q = ((m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s)
    else:
        s = 2.0 * math.sqrt(1.0 + m[2][2] - m[0][0] - m[1][1])
        q = ((m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s)
    norm = math.sqrt(sum(v * v for v in q))
    return tuple(v / norm for v in q)
