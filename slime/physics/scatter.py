"""Scatter-adds over particle indices with np.bincount (faster than np.add.at)."""

from __future__ import annotations

import numpy as np


def scatter_add(target: np.ndarray, index: np.ndarray, values: np.ndarray) -> None:
    """``target[index[k]] += values[k]`` for every k, repeated indices summed. target is (N, D)."""
    n, d = target.shape
    if d == 1:
        target[:, 0] += np.bincount(index, weights=values[:, 0], minlength=n)
        return
    # One bincount over (particle, axis) bins instead of one per axis: each bin still sums its
    # values in the order of k, so the result is the same to the bit, with one pass instead of D.
    flat = (np.asarray(index, dtype=np.int64)[:, None] * d + np.arange(d)).ravel()
    target += np.bincount(flat, weights=np.ascontiguousarray(values, dtype=np.float64).ravel(), minlength=n * d).reshape(n, d)
