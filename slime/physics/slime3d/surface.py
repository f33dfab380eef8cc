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

from slime.physics.compiled import kernel, rows

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
def span(rows, start, length):
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
def corner_parts(p, q, r, corner):
    """Triangle (p, q, r)'s parts of dV/dx and dA/dx at its corner 0 (p), 1 (q) or 2 (r):
    (N / 6, u / 2 x the edge the corner faces)."""
    t = triangle_parts(p, q, r)
    if corner == 0:
        a = half_normal_cross(t, r, q)
    elif corner == 1:
        a = half_normal_cross(t, p, r)
    else:
        a = half_normal_cross(t, q, p)
    return SIXTH * t[0], SIXTH * t[1], SIXTH * t[2], a[0], a[1], a[2]


@kernel
def add_parts(total, part):
    """Two sets of gradient parts (dV/dx then dA/dx, three components each) summed."""
    return (total[0] + part[0], total[1] + part[1], total[2] + part[2],
            total[3] + part[3], total[4] + part[4], total[5] + part[5])


@kernel
def fan_parts(k, up, up_next, left, right, down_prev, down):
    """dV/dx and dA/dx at the ring vertex at point k, from its six triangles; its neighbours are
    the points (i - 1, j), (i - 1, j + 1), (i, j - 1), (i, j + 1), (i + 1, j - 1) and (i + 1, j)
    of the ring grid. A triangle that meets a pole twice is collapsed and adds nothing."""
    total = corner_parts(up, left, k, 2)  # (c, b, d) of quad (i - 1, j - 1)
    total = add_parts(total, corner_parts(up, k, up_next, 1))  # (a, b, c) of quad (i - 1, j)
    total = add_parts(total, corner_parts(up_next, k, right, 1))  # (c, b, d) of quad (i - 1, j)
    total = add_parts(total, corner_parts(left, down_prev, k, 2))  # (a, b, c) of quad (i, j - 1)
    total = add_parts(total, corner_parts(k, down_prev, down, 0))  # (c, b, d) of quad (i, j - 1)
    return add_parts(total, corner_parts(k, down, right, 0))  # (a, b, c) of quad (i, j)


@kernel
def vertex_gradients(x, stacks, slices, i, j):
    """dV/dx and dA/dx at ring-grid node (i, j), a pole too, its neighbours found one by one: for
    the poles, the rings next to them and the seam, whose neighbours are not fixed steps apart."""
    if i == 0 or i == stacks:
        # A pole: corner c of every (c, b, d) of the first band, or b of every (a, b, c) of the last.
        ring = 1 if i == 0 else stacks - 1
        pole = point(x, ring_vertex(0, stacks, slices, i, 0))
        total = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        for m in range(slices):
            here = point(x, ring_vertex(0, stacks, slices, ring, m))
            after = point(x, ring_vertex(0, stacks, slices, ring, m + 1))
            if i == 0:
                total = add_parts(total, corner_parts(pole, here, after, 0))
            else:
                total = add_parts(total, corner_parts(here, pole, after, 1))
        return total
    node = (ring_vertex(0, stacks, slices, i, j), ring_vertex(0, stacks, slices, i - 1, j),
            ring_vertex(0, stacks, slices, i - 1, j + 1), ring_vertex(0, stacks, slices, i, j - 1),
            ring_vertex(0, stacks, slices, i, j + 1), ring_vertex(0, stacks, slices, i + 1, j - 1),
            ring_vertex(0, stacks, slices, i + 1, j))
    return fan_parts(point(x, node[0]), point(x, node[1]), point(x, node[2]), point(x, node[3]), point(x, node[4]),
                     point(x, node[5]), point(x, node[6]))


@kernel
def store(rows, k, values):
    """values[0], values[1], values[2] into column k of three rows."""
    rows[0][k] = values[0]
    rows[1][k] = values[1]
    rows[2][k] = values[2]


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
def block_gradients(x, stacks, slices, first_ring, last_ring, grad_volume, grad_area):
    """dV/dx and dA/dx at the vertices of rings ``first_ring .. last_ring`` (2 .. stacks - 2: away
    from the poles), ``x`` and the gradients the body's rows. The triangles of the bands above
    and below them are worked out once, into a buffer, then each vertex gathers its six. Within
    the block, quad j and vertex j of a ring are fixed steps apart in memory from their
    neighbours, so each loop runs along all the block's rings as one row, several vertices at a
    time; only across the seam is the step different, and the seam's vertices come out wrong
    here (``surface_gradients`` puts them right)."""
    n = slices
    start = ring_vertex(0, stacks, slices, first_ring, 0)
    length = (last_ring - first_ring + 1) * n
    quads = length + n  # the bands first_ring - 1 .. last_ring
    # Each quad's (a, b, c) in rows 0-5, its (c, b, d) in rows 6-11, one column before the first
    # quad so that every vertex's quad before it has a column.
    buffer = np.empty((12, quads + 1))
    for r in range(12):
        buffer[r, 0] = buffer[r, quads] = 0.0
    abc, cbd = six_rows(buffer, 0, 1, quads), six_rows(buffer, 6, 1, quads)
    top, bottom = span(x, start - n, quads), span(x, start, quads)
    # One triangle a loop: a loop that writes many arrays runs one quad at a time. (The last
    # quad's corner d would be past the block: it is on the seam, and left at zero.)
    for t in range(quads - 1):
        store_triangle(abc, t, triangle_parts(point(top, t), point(bottom, t), point(top, t + 1)))
    for t in range(quads - 1):
        store_triangle(cbd, t, triangle_parts(point(top, t + 1), point(bottom, t), point(bottom, t + 1)))
    # The quads a vertex reads, as rows indexed by the vertex: in the band above it, the quad
    # before it and its own; in the band below, the same.
    above_prev_cbd, above_abc, above_cbd = six_rows(buffer, 6, 0, length), six_rows(buffer, 0, 1, length), \
        six_rows(buffer, 6, 1, length)
    below_prev_abc, below_prev_cbd = six_rows(buffer, 0, n, length), six_rows(buffer, 6, n, length)
    below_abc = six_rows(buffer, 0, n + 1, length)
    v, a = span(grad_volume, start, length), span(grad_area, start, length)
    for d in range(3):
        # A component a loop, each reading six rows.
        out, n0, n1, n2 = v[d], above_prev_cbd[d], above_abc[d], above_cbd[d]
        n3, n4, n5 = below_prev_abc[d], below_prev_cbd[d], below_abc[d]
        for u in range(length):
            out[u] = SIXTH * (n0[u] + n1[u] + n2[u] + n3[u] + n4[u] + n5[u])
    # Its neighbours: (i - 1, j) is up[u], (i - 1, j + 1) up[u + 1], (i, j - 1) here[u],
    # (i, j + 1) here[u + 2], (i + 1, j - 1) down[u] and (i + 1, j) down[u + 1].
    up, here, down = span(x, start - n, length + 1), span(x, start - 1, length + 2), span(x, start + n - 1, length + 1)
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


BLOCK = 1024  # ring vertices in a block of rings: its triangles stay in the cache


@kernel
def surface_gradients(x, first, stacks, slices, grad_volume, grad_area):
    """Fill columns ``first ..`` of ``grad_volume`` with dV/dx and of ``grad_area`` with dA/dx
    for the body whose UV-sphere vertices start at ``first`` (see the module docstring): rings
    2 .. stacks - 2 in blocks of rings (``block_gradients``), then the seam, the poles and the
    rings next to them vertex by vertex (``vertex_gradients``)."""
    n = slices
    count = (stacks - 1) * n + 2
    xs = rows(x, first, count)
    gv = rows(grad_volume, first, count)
    ga = rows(grad_area, first, count)
    rings = max(1, BLOCK // n)
    for first_ring in range(2, stacks - 1, rings):
        block_gradients(xs, stacks, slices, first_ring, min(first_ring + rings - 1, stacks - 2), gv, ga)
    for i in range(stacks + 1):
        if i == 0 or i == stacks:
            columns = range(1)
        elif i == 1 or i == stacks - 1:
            columns = range(n)
        else:
            columns = range(0, n, n - 1)  # the seam
        for j in columns:
            k = ring_vertex(0, stacks, slices, i, j)
            parts = vertex_gradients(xs, stacks, slices, i, j)
            store(gv, k, parts[:3])
            store(ga, k, parts[3:])


@kernel
def enclosed_volume(x, grad_volume, first, count, centre):
    """V = (1/3) sum (x - c) . dV/dx over the body (after ``surface_gradients``); about the centre
    c so that a body far from the origin keeps its precision."""
    x0, x1, x2 = rows(x, first, count)
    g0, g1, g2 = rows(grad_volume, first, count)
    c0, c1, c2 = centre[0], centre[1], centre[2]
    total = 0.0
    for k in range(count):
        total += (x0[k] - c0) * g0[k] + (x1[k] - c1) * g1[k] + (x2[k] - c2) * g2[k]
    return total / 3.0
