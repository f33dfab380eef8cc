"""Scatter-adds over particle indices: np.bincount, or a precomputed sparse incidence matrix.

For a fixed set of index pairs (springs) the scatter is a product with an (N, S) matrix of +1/-1
entries, built once; its product is one C loop that adds straight into the force array, where
two bincounts per axis need four passes, four temporaries and four adds.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csr_matrix

try:  # scipy's own CSR kernel (y += A x, several vectors at once), without the Python wrapper.
    from scipy.sparse._sparsetools import csr_matvecs as _csr_matvecs
except ImportError:  # pragma: no cover - a scipy that moved it: the public product still works
    _csr_matvecs = None


def scatter_add(target: np.ndarray, index: np.ndarray, values: np.ndarray) -> None:
    """``target[index[k]] += values[k]`` for every k, repeated indices summed. target is (N, D)."""
    n = target.shape[0]
    for axis in range(target.shape[1]):
        target[:, axis] += np.bincount(index, weights=values[:, axis], minlength=n)


def pair_incidence(first: np.ndarray, second: np.ndarray, n: int) -> csr_matrix:
    """The (n, K) matrix with +1 at (first[k], k) and -1 at (second[k], k): ``M @ f`` gives each
    particle the sum of the pair vectors it is first in, minus those it is second in."""
    k = first.shape[0]
    rows = np.concatenate([first, second]).astype(np.int64, copy=False)
    cols = np.concatenate([np.arange(k), np.arange(k)])
    signs = np.concatenate([np.ones(k), -np.ones(k)])
    matrix = csr_matrix((signs, (rows, cols)), shape=(n, k))
    matrix.sum_duplicates()  # a pair (i, i) nets to nothing, as the two bincounts would
    return matrix


def add_product(target: np.ndarray, matrix: csr_matrix, values: np.ndarray) -> None:
    """``target += matrix @ values`` in place; target (N, D) and values (K, D) C-contiguous float64."""
    if (
        _csr_matvecs is not None
        and target.flags.c_contiguous
        and values.flags.c_contiguous
        and target.dtype == np.float64
        and values.dtype == np.float64
    ):
        n, k = matrix.shape
        _csr_matvecs(n, k, target.shape[1], matrix.indptr, matrix.indices, matrix.data, values.ravel(), target.ravel())
    else:
        target += matrix @ values
