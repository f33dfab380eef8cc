"""Work buffers whose rows start on a cache-line boundary.

numpy's large arrays start 16 bytes past a page (the allocator's header), so a float32 row is
almost never 64-byte aligned, and an elementwise pass whose *output* is misaligned runs at half
speed on this machine's vector units (measured: ``np.multiply`` of 50,000 float32 values, 4.6 us
aligned, 9.6 us at a 16-byte offset; a misaligned input costs nothing). The hot passes of the slime
step are such passes, so their buffers come from here: every last-axis row starts 64 bytes after
the previous one's start, padded, and the caller names the index (``start``) of the slice it
writes, which is then the one on a 64-byte boundary.
"""

from __future__ import annotations

import math

import numpy as np

ALIGN = 64  # bytes: one cache line, one AVX-512 register


def aligned_zeros(shape, dtype=np.float32, start: int = 0) -> np.ndarray:
    """Zeros of ``shape`` whose element [..., start] (of every last-axis row) sits on a 64-byte
    boundary. The result is a view of a padded block: rows are not contiguous with each other,
    so a reshape that merges the last axis with another copies (split it, don't merge it)."""
    dtype = np.dtype(dtype)
    shape = tuple(int(k) for k in shape)
    per_line = ALIGN // dtype.itemsize
    lead = (-int(start)) % per_line  # padding before element 0 of each row
    row = math.ceil((shape[-1] + lead) / per_line) * per_line
    rows = math.prod(shape[:-1])
    raw = np.zeros(rows * row + per_line, dtype=dtype)
    start = (-raw.ctypes.data % ALIGN) // dtype.itemsize
    block = raw[start : start + rows * row].reshape(*shape[:-1], row)
    return block[..., lead : lead + shape[-1]]
