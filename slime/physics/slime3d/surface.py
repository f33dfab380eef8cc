"""The two measures of the slime's surface that its pressure and its tension act on, and their
gradients: the enclosed volume V and the area A, per vertex.

The mesh is a UV sphere (``slime.physics.slime3d.sphere``): vertex 0 the north pole, then ``stacks - 1``
rings of ``slices`` vertices, then the south pole; ring vertex (i, j) is number
1 + (i - 1) slices + j, i = 1 .. stacks - 1, and rows 0 and ``stacks`` of the ring grid are the
poles. Each quad of the grid, between rings i and i + 1 and columns j and j + 1, is split along its
(bottom-left, top-right) diagonal into the triangles (a, b, c) and (c, b, d), counter-clockwise
seen from outside, with a = (i, j), b = (i + 1, j), c = (i, j + 1), d = (i + 1, j + 1). (The band
next to a pole has one triangle a quad: the other's two corners are the pole.)

A triangle (p, q, r) with the doubled area vector N = (q - p) x (r - p) and unit normal u adds

    to dV/dx at each corner:  N / 6          (summed: the area-weighted normal, outward)
    to dA/dx at p:            u x (r - q) / 2 (and cyclically: each corner pulled toward the
                                              edge it faces, within the triangle's plane)

and V = (1/3) sum_x (x - c) . dV/dx over the vertices (the divergence theorem, exact for the
mesh; about the centre c for precision). The first is the divergence theorem's volume
differentiated: over a closed fan of triangles the terms that depend on the origin cancel. A
collapsed triangle (no normal) adds nothing to either. Each vertex gathers the parts of its own
six triangles (``surface_gradients``).
"""

from __future__ import annotations

import math

import numpy as np

from slime.physics.compiled import body_rows, kernel, scratch_rows

SIXTH = 1.0 / 6.0  # a multiplication: a division by 6 costs several


@kernel
def ring_vertex(first, stacks, slices, i, j):
    """The world column of ring-grid node (i, j): rows 0 and ``stacks`` are the poles, and j wraps
    around the ring."""
    if i <= 0:
        return first
    if i >= stacks:
        return first + (stacks - 1) * slices + 1
    if j < 0:
        j += slices
    elif j >= slices:
        j -= slices
    return first + 1 + (i - 1) * slices + j


@kernel
def point(rows, k):
    """Column k of (three) rows, as a point (x, y, z)."""
    return rows[0][k], rows[1][k], rows[2][k]


@kernel
def columns_of(rows, start, length):
    """Columns ``start .. start + length - 1`` of (three) rows, indexed from 0."""
    return rows[0][start:start + length], rows[1][start:start + length], rows[2][start:start + length]


@kernel
def triangle_parts(p, q, r):
    """Triangle (p, q, r)'s doubled area vector N (N / 6 is its part of dV/dx at each corner) and
    u / 2, half its unit normal, both zero for a collapsed triangle (no normal)."""
    e0, e1, e2 = q[0] - p[0], q[1] - p[1], q[2] - p[2]
    f0, f1, f2 = r[0] - p[0], r[1] - p[1], r[2] - p[2]
    n0 = e1 * f2 - e2 * f1
    n1 = e2 * f0 - e0 * f2
    n2 = e0 * f1 - e1 * f0
    length = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    s = 0.5 / length if length > 1e-300 else 0.0
    return n0, n1, n2, s * n0, s * n1, s * n2


@kernel
def half_normal_cross(t, s, r):
    """u / 2 x (s - r) for triangle parts ``t`` (``triangle_parts``): the pull on the corner that
    faces the edge from r to s."""
    h0, h1, h2 = t[3], t[4], t[5]
    e0, e1, e2 = s[0] - r[0], s[1] - r[1], s[2] - r[2]
    return h1 * e2 - h2 * e1, h2 * e0 - h0 * e2, h0 * e1 - h1 * e0


@kernel
def six_rows(buffer, row, start, length):
    """Rows ``row .. row + 5`` of a triangle buffer (N, then u / 2, of one triangle of each quad),
    columns ``start ..``, indexed from 0."""
    end = start + length
    return (buffer[row, start:end], buffer[row + 1, start:end], buffer[row + 2, start:end],
            buffer[row + 3, start:end], buffer[row + 4, start:end], buffer[row + 5, start:end])


@kernel
def store_triangle(rows6, t, parts):
    """Triangle parts (``triangle_parts``) into column t of six rows."""
    rows6[0][t] = parts[0]
    rows6[1][t] = parts[1]
    rows6[2][t] = parts[2]
    rows6[3][t] = parts[3]
    rows6[4][t] = parts[4]
    rows6[5][t] = parts[5]


@kernel
def stored(rows6, t):
    """The triangle parts in column t of six rows."""
    return rows6[0][t], rows6[1][t], rows6[2][t], rows6[3][t], rows6[4][t], rows6[5][t]


@kernel
def padded_rings(x, stacks, slices, first_ring, last_ring):
    """Ring-grid rows ``first_ring - 1 .. last_ring + 1`` of a body's rows ``x``, each as
    ``slices + 2`` columns: column 0 is the ring's last vertex and column ``slices + 1`` its
    first again, so that across the seam a vertex's neighbours are one column away as everywhere
    else; a pole's row is the pole repeated (a triangle with two pole corners is collapsed and
    adds nothing). Returns (3, rows x (slices + 2))."""
    n, width = slices, slices + 2
    grid = np.empty((3, (last_ring - first_ring + 3) * width))
    for d in range(3):
        source, out = x[d], grid[d]
        for i in range(first_ring - 1, last_ring + 2):
            row = out[(i - first_ring + 1) * width:(i - first_ring + 2) * width]
            start = ring_vertex(0, stacks, slices, i, 0)
            if i <= 0 or i >= stacks:
                for c in range(width):
                    row[c] = source[start]
            else:
                ring = source[start:start + n]
                inner = row[1:n + 1]
                for j in range(n):
                    inner[j] = ring[j]
                row[0] = ring[n - 1]
                row[n + 1] = ring[0]
    return grid


@kernel
def block_gradients(x, stacks, slices, first_ring, last_ring, grad_volume, grad_area):
    """dV/dx and dA/dx at the vertices of rings ``first_ring .. last_ring``, and at a pole next
    to them, ``x`` and the gradients the body's rows. The rings, with those above and below, are
    laid out with their seams padded (``padded_rings``); the triangles of the bands between
    them are worked out once, into a buffer, then each vertex gathers its six. Every row of the
    padded block is the same number of columns from the next, so each loop runs along the whole
    block as one row, several vertices at a time, and the seam and the rings next to the poles
    are no different from the rest (the padding columns' own results are thrown away)."""
    width = slices + 2
    grid = padded_rings(x, stacks, slices, first_ring, last_ring)
    length = (last_ring - first_ring + 1) * width  # the block's rings, padding columns included
    quads = length + width  # the bands first_ring - 1 .. last_ring
    # Each quad's (a, b, c) in rows 0-5, its (c, b, d) in rows 6-11, one column before the first
    # quad so that every vertex's quad before it has a column.
    buffer = np.empty((12, quads + 1))
    for r in range(12):
        buffer[r, 0] = buffer[r, quads] = 0.0
    abc, cbd = six_rows(buffer, 0, 1, quads), six_rows(buffer, 6, 1, quads)
    top, bottom = columns_of(grid, 0, quads), columns_of(grid, width, quads)
    # One triangle a loop: a loop that writes many arrays runs one quad at a time. (The last
    # quad's corner d would be past the block: it is a padding column, and left at zero.)
    for t in range(quads - 1):
        store_triangle(abc, t, triangle_parts(point(top, t), point(bottom, t), point(top, t + 1)))
    for t in range(quads - 1):
        store_triangle(cbd, t, triangle_parts(point(top, t + 1), point(bottom, t), point(bottom, t + 1)))
    # The quads a vertex reads, as rows indexed by the vertex: in the band above it, the quad
    # before it and its own; in the band below, the same.
    above_prev_cbd, above_abc, above_cbd = six_rows(buffer, 6, 0, length), six_rows(buffer, 0, 1, length), \
        six_rows(buffer, 6, 1, length)
    below_prev_abc, below_prev_cbd = six_rows(buffer, 0, width, length), six_rows(buffer, 6, width, length)
    below_abc = six_rows(buffer, 0, width + 1, length)
    # Gathered into an array of the block's own, padding columns too, then the ring vertices
    # copied out: loops that write only arrays made here run several vertices at a time.
    gathered = np.empty((6, length))
    v, a = columns_of(gathered, 0, length), columns_of(gathered[3:], 0, length)
    for d in range(3):
        # A component a loop, each reading six rows.
        out, n0, n1, n2 = v[d], above_prev_cbd[d], above_abc[d], above_cbd[d]
        n3, n4, n5 = below_prev_abc[d], below_prev_cbd[d], below_abc[d]
        for u in range(length):
            out[u] = SIXTH * (n0[u] + n1[u] + n2[u] + n3[u] + n4[u] + n5[u])
    # Its neighbours: (i - 1, j) is up[u], (i - 1, j + 1) up[u + 1], (i, j - 1) here[u],
    # (i, j + 1) here[u + 2], (i + 1, j - 1) down[u] and (i + 1, j) down[u + 1].
    up, here, down = columns_of(grid, 0, length + 1), columns_of(grid, width - 1, length + 2), columns_of(grid, 2 * width - 1, length + 1)
    for u in range(length):
        p = half_normal_cross(stored(above_prev_cbd, u), point(here, u), point(up, u))
        q = half_normal_cross(stored(above_abc, u), point(up, u), point(up, u + 1))
        r = half_normal_cross(stored(above_cbd, u), point(up, u + 1), point(here, u + 2))
        store(a, u, (p[0] + q[0] + r[0], p[1] + q[1] + r[1], p[2] + q[2] + r[2]))
    for u in range(length):
        p = half_normal_cross(stored(below_prev_abc, u), point(down, u), point(here, u))
        q = half_normal_cross(stored(below_prev_cbd, u), point(down, u + 1), point(down, u))
        r = half_normal_cross(stored(below_abc, u), point(here, u + 2), point(down, u + 1))
        a[0][u] += p[0] + q[0] + r[0]
        a[1][u] += p[1] + q[1] + r[1]
        a[2][u] += p[2] + q[2] + r[2]
    n = slices
    for i in range(first_ring, last_ring + 1):
        k, u = ring_vertex(0, stacks, slices, i, 0), (i - first_ring) * width + 1
        for d in range(3):
            volume_out, area_out = grad_volume[d][k:k + n], grad_area[d][k:k + n]
            volume_in, area_in = v[d][u:u + n], a[d][u:u + n]
            for j in range(n):
                volume_out[j] = volume_in[j]
                area_out[j] = area_in[j]
    # A pole is a corner of every triangle of the band next to it: c of each (c, b, d) of the
    # first band, b of each (a, b, c) of the last.
    if first_ring == 1:
        pole_gradients(grid, cbd, 0, width, n, 0, grad_volume, grad_area, 0)
    if last_ring == stacks - 1:
        pole_gradients(grid, abc, quads - width, width, n, 1, grad_volume, grad_area,
                       ring_vertex(0, stacks, slices, stacks, 0))


@kernel
def pole_gradients(grid, triangles, band, width, slices, corner, grad_volume, grad_area, k):
    """dV/dx and dA/dx at a pole (column k of the body's rows): the parts of the ``slices``
    triangles of the band whose quads start at column ``band`` of the padded ``grid``, the pole
    their corner 0 (p of the first band's (c, b, d)) or 1 (q of the last band's (a, b, c))."""
    total = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for j in range(1, slices + 1):
        t = band + j
        parts = stored(triangles, t)
        if corner == 0:  # (c, b, d): the pole faces b -> d
            pull = half_normal_cross(parts, point(grid, t + width + 1), point(grid, t + width))
        else:  # (a, b, c): the pole faces c -> a
            pull = half_normal_cross(parts, point(grid, t), point(grid, t + 1))
        total = (total[0] + SIXTH * parts[0], total[1] + SIXTH * parts[1], total[2] + SIXTH * parts[2],
                 total[3] + pull[0], total[4] + pull[1], total[5] + pull[2])
    store(grad_volume, k, total[:3])
    store(grad_area, k, total[3:])


@kernel
def store(rows, k, values):
    """values[0], values[1], values[2] into column k of three rows."""
    rows[0][k] = values[0]
    rows[1][k] = values[1]
    rows[2][k] = values[2]


BLOCK = 4096  # ring vertices in a block of rings: its triangles (12 rows of them) stay in the core's own cache


@kernel
def surface_gradients(x, first, stacks, slices, grad_volume, grad_area):
    """Fill the first columns of ``grad_volume`` with dV/dx and of ``grad_area`` with dA/dx, one a
    vertex, for the body whose UV-sphere vertices start at column ``first`` of ``x`` (see the
    module docstring), in blocks of rings (``block_gradients``); the first and the last block do
    the poles too. The gradients are the body's own scratch, not the world's columns: one body's
    worth, reused body after body, stays in the core's cache."""
    count = (stacks - 1) * slices + 2
    xs = body_rows(x, first, count)
    gv = scratch_rows(grad_volume, count)
    ga = scratch_rows(grad_area, count)
    rings = max(1, BLOCK // slices)
    for first_ring in range(1, stacks, rings):
        block_gradients(xs, stacks, slices, first_ring, min(first_ring + rings - 1, stacks - 1), gv, ga)


@kernel
def enclosed_volume(x, grad_volume, first, count, centre):
    """V = (1/3) sum (x - c) . dV/dx over the body (after ``surface_gradients``, whose columns
    start at 0); about the centre c so that a body far from the origin keeps its precision."""
    x0, x1, x2 = body_rows(x, first, count)
    g0, g1, g2 = scratch_rows(grad_volume, count)
    c0, c1, c2 = centre[0], centre[1], centre[2]
    total = 0.0
    for k in range(count):
        total += (x0[k] - c0) * g0[k] + (x1[k] - c1) * g1[k] + (x2[k] - c2) * g2[k]
    return total / 3.0
