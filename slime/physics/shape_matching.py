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


def rotation_angle(rotation: np.ndarray) -> float:
    """Angle (radians) of a rotation matrix."""
    return float(np.arccos(np.clip((np.trace(rotation) - 1.0) / 2.0, -1.0, 1.0)))


def best_rotations(covariances: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """``best_rotation`` for a stack of bodies at once: (B, 3, 3) covariances A = sum m (x - c) r^T
    in, (B, 3, 3) proper rotations out (one batched SVD). A body whose A is non-finite or of rank
    below 2 (collapsed to a point or a line) keeps its ``fallback`` rotation."""
    a = np.asarray(covariances, dtype=np.float64)
    finite = np.isfinite(a).all(axis=(1, 2))
    if not finite.all():
        a = np.where(finite[:, None, None], a, np.eye(3))
    u, sigma, vt = np.linalg.svd(a)
    usable = finite & (sigma[:, 0] > 0.0) & (sigma[:, 1] > 1e-6 * sigma[:, 0])
    # A reflection (the body inverted or flattened: det A < 0) becomes the nearest rotation by
    # flipping the axis of the smallest singular value.
    flip = np.linalg.det(a) < 0.0
    if flip.any():
        u[flip, :, 2] *= -1.0
    rotation = u @ vt
    if usable.all():
        return rotation
    return np.where(usable[:, None, None], rotation, fallback)


def inverse_inertias(second_moment: np.ndarray, regulariser) -> np.ndarray:
    """(B, 3, 3) I^-1 with I = (tr C + regulariser) 1 - C, from (B, 3, 3) second moments
    C = sum m (x - c)(x - c)^T. The regulariser (kg m^2, per body) keeps a collapsed body from
    dividing by zero; a body whose inertia is still singular or non-finite gets 0 (no rotation)."""
    c = 0.5 * (second_moment + np.swapaxes(second_moment, 1, 2))
    trace = np.trace(c, axis1=1, axis2=2) + regulariser
    inertia = trace[:, None, None] * np.eye(3) - c
    finite = np.isfinite(inertia).all(axis=(1, 2))
    if not finite.all():  # a broken state: no rotation, and no warning from LAPACK
        inertia = np.where(finite[:, None, None], inertia, np.eye(3))
    det = np.linalg.det(inertia)
    ok = finite & (det > 1e-300)
    if not ok.all():
        inertia = np.where(ok[:, None, None], inertia, np.eye(3))
    inverse = np.linalg.inv(inertia)
    if not ok.all():
        inverse[~ok] = 0.0
    return inverse


def apply3(matrices: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """(B, 3): each (3, 3) matrix times its 3-vector."""
    return np.matmul(matrices, vectors[:, :, None])[:, :, 0]


# The cross product as linear maps, so that a stack of them is one matrix product (a handful of
# numpy calls per substep instead of one per entry: at these sizes the calls are the cost).
_SPIN = np.zeros((3, 9))  # omega -> spin matrix entries: spin @ d = omega x d
_SPIN[2, 1], _SPIN[1, 2] = -1.0, 1.0
_SPIN[2, 3], _SPIN[0, 5] = 1.0, -1.0
_SPIN[1, 6], _SPIN[0, 7] = -1.0, 1.0
_AXIAL = np.ascontiguousarray(-_SPIN.T)  # C entries -> sum a x b for C = sum a b^T


def spin_matrices(omega: np.ndarray) -> np.ndarray:
    """(B, 3, 3) cross-product matrices: spin @ d = omega x d."""
    return (omega @ _SPIN).reshape(-1, 3, 3)


def axial_vectors(c: np.ndarray) -> np.ndarray:
    """(B, 3) from (B, 3, 3) sums C = sum a b^T: sum a x b (the vector of twice C's antisymmetric part)."""
    return c.reshape(-1, 9) @ _AXIAL
