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
    well-defined one (non-finite, or rank below 2: a collapsed point or a line). One body of
    ``best_rotations``."""
    a = np.asarray(covariance, dtype=np.float64)
    return best_rotations(a[None], np.asarray(fallback, dtype=np.float64)[None])[0]


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
    rotation = u @ vt
    # A reflection (the body inverted, or flat) becomes the nearest rotation by flipping the axis
    # of the smallest singular value. Decided on U V^T itself, not on det A: for a flat body
    # (A of rank 2) det A is rounding noise of either sign, and U V^T a reflection half the time.
    flip = np.linalg.det(rotation) < 0.0
    if flip.any():
        u[flip, :, 2] *= -1.0
        rotation = u @ vt
    if usable.all():
        return rotation
    return np.where(usable[:, None, None], rotation, fallback)


def _inertia_map() -> tuple[np.ndarray, np.ndarray]:
    """Constant linear maps for the inverse inertia: (9, 9) taking C's nine entries to those of
    I = (tr C) 1 - C for C's symmetric part, and (81, 9) taking the products of I's entries
    (outer(I, I), flattened) to its adjugate (adj I)_ij = the (j, i) cofactor."""
    inertia = np.zeros((9, 9))
    adjugate = np.zeros((81, 9))
    for i in range(3):
        for j in range(3):
            inertia[3 * i + j, 3 * i + j] -= 0.5
            inertia[3 * j + i, 3 * i + j] -= 0.5
            if i == j:
                inertia[[0, 4, 8], 3 * i + j] += 1.0
            i1, i2, j1, j2 = (i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3
            adjugate[9 * (3 * j1 + i1) + 3 * j2 + i2, 3 * i + j] += 1.0
            adjugate[9 * (3 * j1 + i2) + 3 * j2 + i1, 3 * i + j] -= 1.0
    return inertia, adjugate


_INERTIA, _ADJUGATE = _inertia_map()
_EYE9 = np.eye(3).reshape(9)


def inverse_inertias(second_moment: np.ndarray, regulariser) -> np.ndarray:
    """(B, 3, 3) I^-1 with I = (tr C + regulariser) 1 - C, from (B, 3, 3) second moments
    C = sum m (x - c)(x - c)^T. The regulariser (kg m^2, per body) keeps a collapsed body from
    dividing by zero; a body whose inertia is still singular or non-finite gets 0 (no rotation).

    In closed form, adj I / det I, through the constant maps above: a handful of numpy calls for
    any number of bodies. (LAPACK's det and inv cost several times more here: at these sizes the
    calls are the cost, and after the step's large passes their code is no longer in cache.)"""
    b = second_moment.shape[0]
    with np.errstate(invalid="ignore", over="ignore"):  # a broken (non-finite) state: no warning, 0 below
        inertia = second_moment.reshape(b, 9) @ _INERTIA
        inertia += np.multiply.outer(regulariser, _EYE9)
        adjugate = (inertia[:, :, None] * inertia[:, None, :]).reshape(b, 81) @ _ADJUGATE
        det = np.einsum("bi,bi->b", inertia[:, :3], adjugate[:, ::3])  # row 0 of I times its cofactors
    usable = (det > 1e-300) & (det < np.inf)  # false for NaN too
    scale = np.divide(1.0, det, out=np.zeros(b), where=usable)
    inverse = adjugate * scale[:, None]
    if not usable.all():
        inverse[~usable] = 0.0
    return inverse.reshape(b, 3, 3)


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
