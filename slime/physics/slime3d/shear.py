"""Shear: the jelly's resistance to neighbours moving out of place against each other, elastic
and viscous.

``shape_matching.py`` and ``viscosity.py`` act on the body as a whole: each vertex is pulled
toward its goal, and its motion relative to the rigid motion decays, at one rate whatever the
shape of the deformation, so a crumple a few vertices wide is held no harder than a dent the size
of the body. A real jelly's restoring and damping grow with the square of the wave number: a
ripple of wavelength lambda springs back at omega^2 = c^2 (2 pi / lambda)^2 (c^2 the shear
stiffness G / rho, m^2/s^2) and dies at about nu (2 pi / lambda)^2 per second (nu the kinematic
shear viscosity, m^2/s). So where a slam or the floor's grip stops some vertices while their
neighbours still move, the crease or crumple between them is pushed back and smoothed at once,
while the whole-body wobble, of wavelength about the diameter, hardly feels either (c^2 = 2 adds
about 12 1/s^2 to its omega^2, against the shape stiffness's 500).

On the ring grid both act through the finite-difference Laplacian L: each vertex is pulled toward
its four grid neighbours (a pole: toward its whole first ring) with weights w = 1 / (rest
length)^2, L(u) = sum w (u_n - u). The elastic part is c^2 L(d) of the displacement d = x - goal
from the shape goal (``shape_matching``); its fastest wave, between neighbours, has omega^2 up to
2 c^2 D (D a vertex's summed weight, ``degrees``), and both parts go with the surface tension
into the internal acceleration the substep carries where that wave is faster than it could
explicitly (``membrane.py``). The viscous part is nu L(u) of the deformation velocity
u = v - v_rigid, applied exactly: in one substep h a vertex of summed weight D moves the fraction
(1 - exp(-2 nu D h)) / 2 of the way to its neighbours' weighted mean, nu h times the Laplacian
while that is small and never past half the gap, so even the fastest mode decays instead of
flipping sign, at any viscosity and resolution. The rigid part of the sum (a push or a spin from
nowhere, since weights and masses are not uniform) is taken back out
(``moments.internal_part_into``): it moves no momentum and no angular momentum.
"""

from __future__ import annotations

import math

import numpy as np

from slime.physics.compiled import body_rows, kernel, scratch_rows
from slime.physics.slime3d.moments import rigid_velocity_at
from slime.physics.slime3d.shape_matching import shape_restoring_at
from slime.physics.slime3d.surface import BLOCK, padded_rings, ring_vertex


@kernel
def inverse_square_distance(points, a, b):
    """1 / |p_b - p_a|^2 for columns a and b of a body's rows ``points`` (``compiled.body_rows``)."""
    d0 = points[0][b] - points[0][a]
    d1 = points[1][b] - points[1][a]
    d2 = points[2][b] - points[2][a]
    return 1.0 / (d0 * d0 + d1 * d1 + d2 * d2)


@kernel
def share(viscosity, degree, h):
    """(1 - exp(-2 nu d h)) / (2 d h): the fraction of the pull sum w (u_n - u) that one substep
    of length h applies, as a rate (1/s)."""
    if viscosity <= 0.0:
        return 0.0
    return -math.expm1(-2.0 * viscosity * degree * h) / (2.0 * degree * h)


@kernel
def ring_weights(rs, stacks, slices, i):
    """The Laplacian's weights at ring i of a body's rest rows ``rs``: to the ring above, to the
    ring below, and to each neighbour beside (1 / rest length^2, 1/m^2)."""
    row = ring_vertex(0, stacks, slices, i, 0)
    w_up = inverse_square_distance(rs, ring_vertex(0, stacks, slices, i - 1, 0), row)
    w_down = inverse_square_distance(rs, row, ring_vertex(0, stacks, slices, i + 1, 0))
    w_side = inverse_square_distance(rs, row, row + 1 if slices > 1 else row)
    return w_up, w_down, w_side


@kernel
def degrees(rest, first, stacks, slices):
    """(2, count): each vertex's summed weight D = sum w over its neighbours (1/m^2) on the body's
    rest grid ``rest`` (3, P), and the part of it along the meridians (to the rings above and
    below; a pole's is its whole star). The shear stiffness's fastest wave there has omega^2 up to
    2 c^2 D."""
    count = (stacks - 1) * slices + 2
    rs = body_rows(rest, first, count)
    out = np.empty((2, count))
    for i in range(1, stacks):
        w_up, w_down, w_side = ring_weights(rs, stacks, slices, i)
        row = ring_vertex(0, stacks, slices, i, 0)
        for j in range(slices):
            out[0, row + j] = w_up + w_down + 2.0 * w_side
            out[1, row + j] = w_up + w_down
    for pole, ring in ((0, 1), (count - 1, stacks - 1)):
        star = slices * inverse_square_distance(rs, pole, ring_vertex(0, stacks, slices, ring, 0))
        out[0, pole] = out[1, pole] = star
    return out


@kernel
def ring_laplacian(up, down, here, j, w_up, w_down, w_side, degree):
    """L at column j of a ring: its neighbours above and below (``up[j]``, ``down[j]``: the rings'
    values) and beside, read off the ring's padded row ``here`` (``surface.padded_rings``: the
    vertex is ``here[j + 1]``, its neighbours ``here[j]`` and ``here[j + 2]``), weights as
    ``add_shear``'s."""
    return w_up * up[j] + w_down * down[j] + w_side * (here[j] + here[j + 2]) - degree * here[j + 1]


@kernel
def add_shear(membrane, x, v, rest, first, stacks, slices, centre, rotation, velocity, omega, stiffness,
              viscosity, h, d, u):
    """a = c^2 L(d) + nu L(u), the viscous part exactly decayed over the substep (see the module
    docstring), added into ``membrane`` (the body's internal acceleration that ``membrane.py``
    carries, its own from column 0), its rigid part still in. ``d`` and ``u`` are (3, at least the body's count) scratch arrays,
    the body's own from column 0; ``rotation`` is the body's best-fit rotation
    (``shape_matching``), ``velocity``, ``omega`` its rigid motion (``moments``)."""
    n = slices
    count = (stacks - 1) * n + 2
    south = count - 1
    xs, vs, rs = body_rows(x, first, count), body_rows(v, first, count), body_rows(rest, first, count)
    ds, us, ms = scratch_rows(d, count), scratch_rows(u, count), scratch_rows(membrane, count)
    if viscosity <= 0.0 and stiffness <= 0.0:
        return
    for k in range(count):
        r = rigid_velocity_at(velocity, omega, centre, xs[0][k], xs[1][k], xs[2][k])
        us[0][k] = vs[0][k] - r[0]
        us[1][k] = vs[1][k] - r[1]
        us[2][k] = vs[2][k] - r[2]
    for k in range(count):
        g = shape_restoring_at(xs, rs, k, centre, rotation, 1.0)
        ds[0][k] = -g[0]
        ds[1][k] = -g[1]
        ds[2][k] = -g[2]
    # Both on the padded ring grid, a block of rings at a time (``surface.padded_rings``): across
    # the seam and next to a pole a vertex's neighbours are then where they are everywhere else,
    # and a ring is one loop, several vertices at a time. The loop writes into an array made here,
    # then added out: written straight into the world's scratch array, which the compiler cannot
    # tell apart from the arrays the loop reads, it runs slower.
    width = n + 2
    laplacian = np.empty((3, n))
    rings = max(1, BLOCK // n)
    for first_ring in range(1, stacks, rings):
        last_ring = min(first_ring + rings - 1, stacks - 1)
        u_grid = padded_rings(us, stacks, slices, first_ring, last_ring)
        d_grid = padded_rings(ds, stacks, slices, first_ring, last_ring)
        for i in range(first_ring, last_ring + 1):
            row = ring_vertex(0, stacks, slices, i, 0)
            w_up, w_down, w_side = ring_weights(rs, stacks, slices, i)
            degree = w_up + w_down + 2.0 * w_side
            rate = share(viscosity, degree, h)
            here = (i - first_ring + 1) * width  # the ring's padded row in the block's grid
            above, below = here - width + 1, here + width + 1
            for c in range(3):
                uc, dc = u_grid[c], d_grid[c]
                u_up, u_here, u_down = uc[above:above + n], uc[here:here + width], uc[below:below + n]
                d_up, d_here, d_down = dc[above:above + n], dc[here:here + width], dc[below:below + n]
                out = laplacian[c]
                for j in range(n):
                    out[j] = (rate * ring_laplacian(u_up, u_down, u_here, j, w_up, w_down, w_side, degree)
                              + stiffness * ring_laplacian(d_up, d_down, d_here, j, w_up, w_down, w_side, degree))
            for c in range(3):
                target, source = ms[c][row:row + n], laplacian[c]
                for j in range(n):
                    target[j] += source[j]
    for pole, ring in ((0, 1), (south, stacks - 1)):
        weight = inverse_square_distance(rs, pole, ring_vertex(0, stacks, slices, ring, 0))
        rate = share(viscosity, slices * weight, h)
        start = ring_vertex(0, stacks, slices, ring, 0)
        for c in range(3):
            uc, dc = us[c], ds[c]
            pull = 0.0
            strain = 0.0
            for j in range(start, start + n):
                pull += uc[j] - uc[pole]
                strain += dc[j] - dc[pole]
            ms[c][pole] += (rate * pull + stiffness * strain) * weight
