"""The two measures of the slime's surface that its pressure and its tension act on, and their
gradients: the enclosed volume V and the area A, per vertex, read off each vertex's one-ring.

The mesh is a UV sphere (``slime.physics.sphere``): vertex 0 the north pole, then ``stacks - 1``
rings of ``slices`` vertices, then the south pole; ring vertex (i, j) is number
1 + (i - 1) slices + j, i = 1 .. stacks - 1. Each quad of the ring grid is split along its
(bottom-left, top-right) diagonal, so a ring vertex X has six neighbours which, seen from outside,
go counter-clockwise D (i + 1, j), R (i, j + 1), UR (i - 1, j + 1), U (i - 1, j), L (i, j - 1),
DL (i + 1, j - 1); a pole's neighbours are its whole first ring. The triangles around X are
(X, n_a, n_a+1) for consecutive neighbours. With e_a = n_a - x, each has the doubled area vector
N_a = e_a x e_a+1, and

    dV/dx = (1/6) sum_a N_a                        (the area-weighted normal: outward)
    dA/dx = (1/2) sum_a u_a x (e_a+1 - e_a)         (u_a = N_a / |N_a|: toward the opposite edges)
    V     = (1/3) sum_x (x - c) . dV/dx            (the divergence theorem, exact for the mesh)

The first is the divergence theorem's volume differentiated (over a closed one-ring the terms
that depend on the origin telescope away); the second pulls each corner of a triangle toward the
edge it faces, within the triangle's plane. A collapsed triangle (no normal) adds nothing to
either. Gathering over one-rings, every vertex is written once: no scatter, and the loops
vectorise. Polar triangles between a pole and two repeats of itself do not exist (they have no
area), which is why the ring next to a pole sees its U and UR both as the pole.
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
def triangle_terms(x, k, a, b):
    """For the triangle (x_k, x_a, x_b): its doubled area vector N = (x_a - x_k) x (x_b - x_k),
    and half its unit normal crossed with the edge facing x_k, (u x (x_b - x_a)) / 2: this
    triangle's parts of 6 dV/dx_k and of dA/dx_k."""
    e0 = x[0, a] - x[0, k]
    e1 = x[1, a] - x[1, k]
    e2 = x[2, a] - x[2, k]
    f0 = x[0, b] - x[0, k]
    f1 = x[1, b] - x[1, k]
    f2 = x[2, b] - x[2, k]
    n0 = e1 * f2 - e2 * f1
    n1 = e2 * f0 - e0 * f2
    n2 = e0 * f1 - e1 * f0
    length = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    # Half over the length: a collapsed triangle (length 0) has no normal and pulls nothing.
    s = 0.5 / length if length > 1e-300 else 0.0
    g0 = f0 - e0
    g1 = f1 - e1
    g2 = f2 - e2
    return (n0, n1, n2,
            s * (n1 * g2 - n2 * g1), s * (n2 * g0 - n0 * g2), s * (n0 * g1 - n1 * g0))


@kernel(inline=True)
def store_gradients(grad_volume, grad_area, k, v0, v1, v2, a0, a1, a2):
    """Vertex k's dV/dx = (v0, v1, v2) / 6 (the sums are of doubled area vectors) and dA/dx."""
    grad_volume[0, k] = v0 / 6.0
    grad_volume[1, k] = v1 / 6.0
    grad_volume[2, k] = v2 / 6.0
    grad_area[0, k] = a0
    grad_area[1, k] = a1
    grad_area[2, k] = a2


@kernel(inline=True)
def one_ring(x, k, d, r, ur, u, l, dl, grad_volume, grad_area):
    """dV/dx and dA/dx at ring vertex k from its six neighbours, counter-clockwise from below."""
    # The six triangles (k, n_a, n_a+1), written out: a loop over a tuple of indices would not vectorise.
    p = triangle_terms(x, k, d, r)
    q = triangle_terms(x, k, r, ur)
    s = triangle_terms(x, k, ur, u)
    t = triangle_terms(x, k, u, l)
    w = triangle_terms(x, k, l, dl)
    z = triangle_terms(x, k, dl, d)
    v0 = p[0] + q[0] + s[0] + t[0] + w[0] + z[0]
    v1 = p[1] + q[1] + s[1] + t[1] + w[1] + z[1]
    v2 = p[2] + q[2] + s[2] + t[2] + w[2] + z[2]
    a0 = p[3] + q[3] + s[3] + t[3] + w[3] + z[3]
    a1 = p[4] + q[4] + s[4] + t[4] + w[4] + z[4]
    a2 = p[5] + q[5] + s[5] + t[5] + w[5] + z[5]
    store_gradients(grad_volume, grad_area, k, v0, v1, v2, a0, a1, a2)


@kernel(inline=True)
def one_ring_at(x, first, stacks, slices, i, j, grad_volume, grad_area):
    """``one_ring`` at ring-grid node (i, j), its neighbours looked up with the wrap and the poles."""
    one_ring(x, ring_vertex(first, stacks, slices, i, j),
             ring_vertex(first, stacks, slices, i + 1, j), ring_vertex(first, stacks, slices, i, j + 1),
             ring_vertex(first, stacks, slices, i - 1, j + 1), ring_vertex(first, stacks, slices, i - 1, j),
             ring_vertex(first, stacks, slices, i, j - 1), ring_vertex(first, stacks, slices, i + 1, j - 1),
             grad_volume, grad_area)


@kernel
def surface_gradients(x, first, stacks, slices, grad_volume, grad_area):
    """Fill columns ``first ..`` of ``grad_volume`` with dV/dx and of ``grad_area`` with dA/dx
    for the body whose UV-sphere vertices start at ``first`` (see the module docstring)."""
    for i in range(1, stacks):
        for j in range(slices):
            one_ring_at(x, first, stacks, slices, i, j, grad_volume, grad_area)
    # The poles: the north one sees its first ring counter-clockwise as j rises, the south one as
    # j falls.
    for pole in range(2):
        i = 1 if pole == 0 else stacks - 1
        k = ring_vertex(first, stacks, slices, 0 if pole == 0 else stacks, 0)
        v0 = v1 = v2 = a0 = a1 = a2 = 0.0
        for j in range(slices):
            here = ring_vertex(first, stacks, slices, i, j)
            after = ring_vertex(first, stacks, slices, i, j + 1)
            if pole == 1:
                here, after = after, here
            n0, n1, n2, g0, g1, g2 = triangle_terms(x, k, here, after)
            v0 += n0
            v1 += n1
            v2 += n2
            a0 += g0
            a1 += g1
            a2 += g2
        store_gradients(grad_volume, grad_area, k, v0, v1, v2, a0, a1, a2)


@kernel
def enclosed_volume(x, grad_volume, first, count, centre):
    """V = (1/3) sum (x - c) . dV/dx over the body (after ``surface_gradients``); about the centre
    c so that a body far from the origin keeps its precision."""
    total = 0.0
    for k in range(first, first + count):
        total += ((x[0, k] - centre[0]) * grad_volume[0, k] + (x[1, k] - centre[1]) * grad_volume[1, k]
                  + (x[2, k] - centre[2]) * grad_volume[2, k])
    return total / 3.0
