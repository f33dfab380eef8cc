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
collapsed triangle (no normal) adds nothing to either. Each triangle is visited once and adds into
its three corners.
"""

from __future__ import annotations

import math

from slime.physics.compiled import kernel


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
def add_triangle(x, p, q, r, grad_volume, grad_area):
    """Triangle (p, q, r)'s parts of dV/dx and dA/dx at its three corners (module docstring)."""
    e0 = x[0, q] - x[0, p]
    e1 = x[1, q] - x[1, p]
    e2 = x[2, q] - x[2, p]
    f0 = x[0, r] - x[0, p]
    f1 = x[1, r] - x[1, p]
    f2 = x[2, r] - x[2, p]
    n0 = e1 * f2 - e2 * f1
    n1 = e2 * f0 - e0 * f2
    n2 = e0 * f1 - e1 * f0
    length = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    # Half the unit normal; a collapsed triangle (length 0) has no normal and pulls nothing.
    s = 0.5 / length if length > 1e-300 else 0.0
    h0, h1, h2 = s * n0, s * n1, s * n2
    # The edges facing p, q and r are r - q = f - e, p - r = -f and q - p = e, so p's part is
    # minus the other two's: two cross products serve the three corners.
    hf0, hf1, hf2 = h1 * f2 - h2 * f1, h2 * f0 - h0 * f2, h0 * f1 - h1 * f0
    he0, he1, he2 = h1 * e2 - h2 * e1, h2 * e0 - h0 * e2, h0 * e1 - h1 * e0
    grad_area[0, p] += hf0 - he0
    grad_area[1, p] += hf1 - he1
    grad_area[2, p] += hf2 - he2
    grad_area[0, q] -= hf0
    grad_area[1, q] -= hf1
    grad_area[2, q] -= hf2
    grad_area[0, r] += he0
    grad_area[1, r] += he1
    grad_area[2, r] += he2
    n0, n1, n2 = n0 / 6.0, n1 / 6.0, n2 / 6.0
    for k in (p, q, r):
        grad_volume[0, k] += n0
        grad_volume[1, k] += n1
        grad_volume[2, k] += n2


@kernel
def surface_gradients(x, first, stacks, slices, grad_volume, grad_area):
    """Fill columns ``first ..`` of ``grad_volume`` with dV/dx and of ``grad_area`` with dA/dx
    for the body whose UV-sphere vertices start at ``first`` (see the module docstring)."""
    count = (stacks - 1) * slices + 2
    for k in range(first, first + count):
        for d in range(3):
            grad_volume[d, k] = 0.0
            grad_area[d, k] = 0.0
    n = slices
    for i in range(stacks):
        if 0 < i < stacks - 1:
            # Between two rings, away from the seam, the four corners are fixed steps apart in memory.
            a = ring_vertex(first, stacks, slices, i, 0)
            for a in range(a, a + n - 1):
                add_triangle(x, a, a + n, a + 1, grad_volume, grad_area)
                add_triangle(x, a + 1, a + n, a + n + 1, grad_volume, grad_area)
        for j in range(slices) if i == 0 or i == stacks - 1 else range(slices - 1, slices):
            a = ring_vertex(first, stacks, slices, i, j)
            b = ring_vertex(first, stacks, slices, i + 1, j)
            c = ring_vertex(first, stacks, slices, i, j + 1)
            d = ring_vertex(first, stacks, slices, i + 1, j + 1)
            if i > 0:
                add_triangle(x, a, b, c, grad_volume, grad_area)
            if i < stacks - 1:
                add_triangle(x, c, b, d, grad_volume, grad_area)


@kernel
def enclosed_volume(x, grad_volume, first, count, centre):
    """V = (1/3) sum (x - c) . dV/dx over the body (after ``surface_gradients``); about the centre
    c so that a body far from the origin keeps its precision."""
    total = 0.0
    for k in range(first, first + count):
        total += ((x[0, k] - centre[0]) * grad_volume[0, k] + (x[1, k] - centre[1]) * grad_volume[1, k]
                  + (x[2, k] - centre[2]) * grad_volume[2, k])
    return total / 3.0
