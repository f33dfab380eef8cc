"""UV-sphere topology: stacks x slices, poles not duplicated (as the PhysicalSlime C++ program).

Vertex 0 is the north pole (+y), then the ``stacks - 1`` latitude rings of ``slices`` vertices
each, top to bottom, then the south pole: ``(stacks - 1) * slices + 2`` vertices.

``ring_grid`` gives the same vertices as a (stacks + 1, slices) index grid whose first and last
rows repeat the poles; every other structure (triangles, strip, neighbours) is read off it, so
the physics can work on the regular grid instead of scattering.
"""

from __future__ import annotations

import numpy as np

# Separator between the strips of the one indexed triangle strip (GL's fixed restart index for uint32).
RESTART = np.uint32(0xFFFFFFFF)


def vertex_count(stacks: int, slices: int) -> int:
    return (stacks - 1) * slices + 2


def ring_grid(stacks: int, slices: int) -> np.ndarray:
    """(stacks + 1, slices) vertex indices; row 0 is all north pole, row ``stacks`` all south pole."""
    grid = np.empty((stacks + 1, slices), dtype=np.int64)
    grid[0] = 0
    grid[1:stacks] = 1 + np.arange((stacks - 1) * slices).reshape(stacks - 1, slices)
    grid[stacks] = vertex_count(stacks, slices) - 1
    return grid


def uv_sphere(stacks: int, slices: int, radius: float = 1.0, center=(0.0, 0.0, 0.0)) -> np.ndarray:
    """Rest positions (P, 3). theta runs pole to pole over ``stacks``, phi around over ``slices``
    (the PhysicalSlime program divides phi by the stack count; a full turn is 2 pi / slices per step)."""
    theta = np.pi * np.arange(1, stacks) / stacks
    phi = 2.0 * np.pi * np.arange(slices) / slices
    ring_radius = radius * np.sin(theta)[:, None]
    ring = np.stack(
        [
            ring_radius * np.sin(phi)[None, :],
            np.broadcast_to(radius * np.cos(theta)[:, None], (stacks - 1, slices)),
            ring_radius * np.cos(phi)[None, :],
        ],
        axis=-1,
    ).reshape(-1, 3)
    positions = np.concatenate([[[0.0, radius, 0.0]], ring, [[0.0, -radius, 0.0]]])
    return positions + np.asarray(center, dtype=np.float64)


def _band_quads(stacks: int, slices: int):
    grid = ring_grid(stacks, slices)
    nxt = np.roll(np.arange(slices), -1)
    top, bottom = grid[:-1], grid[1:]
    return top, bottom, top[:, nxt], bottom[:, nxt]


def sphere_triangles(stacks: int, slices: int) -> np.ndarray:
    """(2 * slices * (stacks - 1), 3) triangles, counter-clockwise seen from outside.

    Each quad of the grid is split along the (bottom-left, top-right) diagonal, the same split
    the strip makes, so the list and the strip describe the same surface.
    """
    top, bottom, top_next, bottom_next = _band_quads(stacks, slices)
    first = np.stack([top, bottom, top_next], axis=-1)  # degenerate on the north band
    second = np.stack([top_next, bottom, bottom_next], axis=-1)  # degenerate on the south band
    tris = np.concatenate([first[1:].reshape(-1, 3), second[:-1].reshape(-1, 3)])
    return tris


def sphere_strip(stacks: int, slices: int) -> np.ndarray:
    """One triangle strip (uint32) over the whole sphere: a strip per latitude band, zig-zagging
    top/bottom around the ring and closing on its first column, bands separated by RESTART."""
    top, bottom, _, _ = _band_quads(stacks, slices)
    cols = np.concatenate([np.arange(slices), [0]])
    band = np.stack([top[:, cols], bottom[:, cols]], axis=-1).reshape(stacks, -1)
    restart = np.full((stacks, 1), RESTART, dtype=np.int64)
    strip = np.concatenate([band, restart], axis=1).reshape(-1)[:-1]
    return strip.astype(np.uint32)


def strip_to_triangles(strip: np.ndarray) -> np.ndarray:
    """Expand a restart-separated strip into triangles as GL draws them (odd ones swap their first
    two vertices to keep the winding), dropping degenerate ones."""
    strip = np.asarray(strip, dtype=np.int64)
    out = []
    for run in np.split(strip, np.flatnonzero(strip == int(RESTART))):
        run = run[run != int(RESTART)]
        if run.size < 3:
            continue
        k = np.arange(run.size - 2)
        a = np.where(k % 2 == 0, run[k], run[k + 1])
        b = np.where(k % 2 == 0, run[k + 1], run[k])
        c = run[k + 2]
        out.append(np.stack([a, b, c], axis=1))
    tris = np.concatenate(out) if out else np.zeros((0, 3), dtype=np.int64)
    keep = (tris[:, 0] != tris[:, 1]) & (tris[:, 1] != tris[:, 2]) & (tris[:, 0] != tris[:, 2])
    return tris[keep]


def canonical_triangles(tris: np.ndarray) -> np.ndarray:
    """Rotate each triangle so its smallest index comes first (winding kept), then sort rows."""
    tris = np.asarray(tris, dtype=np.int64)
    shift = np.argmin(tris, axis=1)
    idx = (shift[:, None] + np.arange(3)[None, :]) % 3
    rotated = np.take_along_axis(tris, idx, axis=1)
    order = np.lexsort(rotated.T[::-1])
    return rotated[order]
