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
collapsed triangle (no normal) adds nothing to either. Each triangle is worked out once, and each
vertex gathers the parts of its own triangles (``surface_gradients``).
"""

from __future__ import annotations

import math

import numpy as np

from slime.physics.compiled import kernel, rows

SIXTH = 1.0 / 6.0  # a multiplication: a division by 6 costs several


@kernel(inline=True)
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


@kernel(inline=True)
def point(rows, k):
    """Column k of (three) rows, as a point (x, y, z)."""
    return rows[0][k], rows[1][k], rows[2][k]


@kernel(inline=True)
def ring(rows, start, n):
    """Columns ``start .. start + n - 1`` of (three) rows, indexed from 0."""
    return rows[0][start:start + n], rows[1][start:start + n], rows[2][start:start + n]


@kernel(inline=True)
def triangle_parts(p, q, r):
    """Triangle (p, q, r)'s doubled area vector N (N / 6 is its part of dV/dx at each corner) and u / 2, half its unit
    normal, both zero for a collapsed triangle (no normal)."""
    e0, e1, e2 = q[0] - p[0], q[1] - p[1], q[2] - p[2]
    f0, f1, f2 = r[0] - p[0], r[1] - p[1], r[2] - p[2]
    n0 = e1 * f2 - e2 * f1
    n1 = e2 * f0 - e0 * f2
    n2 = e0 * f1 - e1 * f0
    length = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    s = 0.5 / length if length > 1e-300 else 0.0
    return n0, n1, n2, s * n0, s * n1, s * n2


@kernel(inline=True)
def store_triangle(band, j, t):
    """Triangle parts ``t`` into column j of six rows of a band."""
    band[0][j] = t[0]
    band[1][j] = t[1]
    band[2][j] = t[2]
    band[3][j] = t[3]
    band[4][j] = t[4]
    band[5][j] = t[5]


@kernel(inline=True)
def edge_cross(h, j, s, t):
    """u / 2 x (s - t) for the triangle in column j of six band rows ``h``."""
    h0, h1, h2 = h[3][j], h[4][j], h[5][j]
    e0, e1, e2 = s[0] - t[0], s[1] - t[1], s[2] - t[2]
    return h1 * e2 - h2 * e1, h2 * e0 - h0 * e2, h0 * e1 - h1 * e0


@kernel(inline=True)
def band_rows(bands, i):
    """Band buffer i (of ``bands`` (2, 12, n)) as the rows (N, u / 2) of its quads' (a, b, c)
    triangles and those of their (c, b, d) triangles."""
    b = bands[i % 2]
    return (b[0], b[1], b[2], b[3], b[4], b[5]), (b[6], b[7], b[8], b[9], b[10], b[11])


@kernel(inline=True)
def gather_volume(above, below, j, jm, k, grad_volume):
    """Ring vertex k = (i, j)'s dV/dx: the sum of N / 6 over its six triangles, (c, b, d) of quad j - 1,
    (a, b, c) and (c, b, d) of quad j of the band above, and (a, b, c), (c, b, d) of quad j - 1
    and (a, b, c) of quad j of the band below (``jm`` is j - 1 round the ring)."""
    abc_above, cbd_above = above
    abc_below, cbd_below = below
    v0, v1, v2 = grad_volume
    v0[k] = SIXTH * (cbd_above[0][jm] + abc_above[0][j] + cbd_above[0][j] + abc_below[0][jm] + cbd_below[0][jm]
             + abc_below[0][j])
    v1[k] = SIXTH * (cbd_above[1][jm] + abc_above[1][j] + cbd_above[1][j] + abc_below[1][jm] + cbd_below[1][jm]
             + abc_below[1][j])
    v2[k] = SIXTH * (cbd_above[2][jm] + abc_above[2][j] + cbd_above[2][j] + abc_below[2][jm] + cbd_below[2][jm]
             + abc_below[2][j])


@kernel(inline=True)
def gather_area_above(above, j, jm, k, up, up_next, left, right, grad_area):
    """Ring vertex k = (i, j)'s dA/dx from its three triangles in the band above, (c, b, d) of
    quad j - 1 and (a, b, c), (c, b, d) of quad j (``jm`` is j - 1 round the ring): each one's
    u / 2 crossed with the edge that faces the vertex. Its neighbours there are the points
    (i - 1, j), (i - 1, j + 1), (i, j - 1) and (i, j + 1)."""
    abc, cbd = above
    a = edge_cross(cbd, jm, left, up)
    b = edge_cross(abc, j, up, up_next)
    c = edge_cross(cbd, j, up_next, right)
    grad_area[0][k] = a[0] + b[0] + c[0]
    grad_area[1][k] = a[1] + b[1] + c[1]
    grad_area[2][k] = a[2] + b[2] + c[2]


@kernel(inline=True)
def gather_area_below(below, j, jm, k, left, right, down_prev, down, grad_area):
    """And the three in the band below, (a, b, c), (c, b, d) of quad j - 1 and (a, b, c) of quad
    j, added: its neighbours there are (i, j - 1), (i, j + 1), (i + 1, j - 1) and (i + 1, j)."""
    abc, cbd = below
    e = edge_cross(abc, jm, down_prev, left)
    f = edge_cross(cbd, jm, down, down_prev)
    g = edge_cross(abc, j, right, down)
    grad_area[0][k] += e[0] + f[0] + g[0]
    grad_area[1][k] += e[1] + f[1] + g[1]
    grad_area[2][k] += e[2] + f[2] + g[2]


@kernel
def fill_band(x, stacks, slices, i, band):
    """Band i's triangles, quad by quad, into the band's rows (``band_rows``); a triangle whose
    corners meet at a pole is all zeros. ``x`` the body's rows."""
    n = slices
    abc, cbd = band
    if 0 < i < stacks - 1:
        # Away from the poles and the seam, ring by ring, indexed from 0: the loop runs several
        # quads at a time.
        top = ring(x, ring_vertex(0, stacks, slices, i, 0), n)
        bottom = ring(x, ring_vertex(0, stacks, slices, i + 1, 0), n)
        # One triangle of the quad a loop: a loop that writes many arrays runs one quad at a time.
        for j in range(n - 1):
            store_triangle(abc, j, triangle_parts(point(top, j), point(bottom, j), point(top, j + 1)))
        for j in range(n - 1):
            store_triangle(cbd, j, triangle_parts(point(top, j + 1), point(bottom, j), point(bottom, j + 1)))
        columns = range(n - 1, n)
    else:
        columns = range(n)
    nothing = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for j in columns:
        a = point(x, ring_vertex(0, stacks, slices, i, j))
        b = point(x, ring_vertex(0, stacks, slices, i + 1, j))
        c = point(x, ring_vertex(0, stacks, slices, i, j + 1))
        d = point(x, ring_vertex(0, stacks, slices, i + 1, j + 1))
        store_triangle(abc, j, triangle_parts(a, b, c) if i > 0 else nothing)
        store_triangle(cbd, j, triangle_parts(c, b, d) if i < stacks - 1 else nothing)


@kernel
def surface_gradients(x, first, stacks, slices, grad_volume, grad_area):
    """Fill columns ``first ..`` of ``grad_volume`` with dV/dx and of ``grad_area`` with dA/dx
    for the body whose UV-sphere vertices start at ``first`` (see the module docstring). Band by
    band, each triangle is worked out once into a two-band buffer, and each vertex of the ring
    between the two bands gathers its six triangles: every loop writes its own column only, so
    the loops along a ring run several vertices at a time."""
    n = slices
    count = (stacks - 1) * n + 2
    xs = rows(x, first, count)
    gv = rows(grad_volume, first, count)
    ga = rows(grad_area, first, count)
    bands = np.empty((2, 12, n))
    # The two buffers' rows, made once and swapped ring by ring (a view costs a reference count).
    first_band, second_band = band_rows(bands, 0), band_rows(bands, 1)
    fill_band(xs, stacks, slices, 0, first_band)
    north = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for j in range(n):
        # The north pole is corner c of (c, b, d): it faces the edge d - b.
        cbd = first_band[1]
        h = edge_cross(cbd, j, point(xs, ring_vertex(0, stacks, slices, 1, j + 1)),
                       point(xs, ring_vertex(0, stacks, slices, 1, j)))
        north = (north[0] + SIXTH * cbd[0][j], north[1] + SIXTH * cbd[1][j], north[2] + SIXTH * cbd[2][j],
                 north[3] + h[0], north[4] + h[1], north[5] + h[2])
    for i in range(1, stacks):
        above, below = (first_band, second_band) if i % 2 == 1 else (second_band, first_band)
        fill_band(xs, stacks, slices, i, below)
        row = ring_vertex(0, stacks, slices, i, 0)
        if 1 < i < stacks - 1:
            top, here, bottom = ring(xs, row - n, n), ring(xs, row, n), ring(xs, row + n, n)
            v, a = ring(gv, row, n), ring(ga, row, n)
            for j in range(1, n - 1):
                gather_volume(above, below, j, j - 1, j, v)
            for j in range(1, n - 1):
                gather_area_above(above, j, j - 1, j, point(top, j), point(top, j + 1), point(here, j - 1),
                                  point(here, j + 1), a)
            for j in range(1, n - 1):
                gather_area_below(below, j, j - 1, j, point(here, j - 1), point(here, j + 1), point(bottom, j - 1),
                                  point(bottom, j), a)
            columns = range(0, n, n - 1)  # the seam: 0 and n - 1
        else:
            columns = range(n)
        for j in columns:
            jm = j - 1 if j > 0 else n - 1
            gather_volume(above, below, j, jm, row + j, gv)
            left = point(xs, ring_vertex(0, stacks, slices, i, j - 1))
            right = point(xs, ring_vertex(0, stacks, slices, i, j + 1))
            gather_area_above(above, j, jm, row + j, point(xs, ring_vertex(0, stacks, slices, i - 1, j)),
                              point(xs, ring_vertex(0, stacks, slices, i - 1, j + 1)), left, right, ga)
            gather_area_below(below, j, jm, row + j, left, right, point(xs, ring_vertex(0, stacks, slices, i + 1, j - 1)),
                              point(xs, ring_vertex(0, stacks, slices, i + 1, j)), ga)
    abc = (first_band if (stacks - 1) % 2 == 0 else second_band)[0]
    south = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for j in range(n):
        # The south pole is corner b of (a, b, c): it faces the edge a - c.
        h = edge_cross(abc, j, point(xs, ring_vertex(0, stacks, slices, stacks - 1, j)),
                       point(xs, ring_vertex(0, stacks, slices, stacks - 1, j + 1)))
        south = (south[0] + SIXTH * abc[0][j], south[1] + SIXTH * abc[1][j], south[2] + SIXTH * abc[2][j],
                 south[3] + h[0], south[4] + h[1], south[5] + h[2])
    for pole, parts in ((0, north), (count - 1, south)):
        gv[0][pole], gv[1][pole], gv[2][pole] = parts[0], parts[1], parts[2]
        ga[0][pole], ga[1][pole], ga[2][pole] = parts[3], parts[4], parts[5]


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
