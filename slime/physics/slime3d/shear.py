"""Shear viscosity: the jelly's viscosity acting on velocity differences between neighbours.

``viscosity.py`` damps every deformation at one rate. A real jelly's viscous damping grows with
the square of the wave number: a ripple of wavelength lambda dies at about nu (2 pi / lambda)^2
per second for the kinematic viscosity nu (m^2/s). So when a slam stops the vertices on the floor
while their neighbours still move, the crease that would open between them is smoothed within a
substep, while the whole-body wobble, of wavelength about the diameter, hardly feels it.

On the ring grid, the deformation velocity u = v - v_rigid of each vertex is pulled toward its
four grid neighbours' (a pole: toward its whole first ring) with weights w = 1 / (rest length)^2,
so that sum w (u_n - u) is the finite-difference Laplacian. In one substep h a vertex of summed
weight d moves the fraction (1 - exp(-2 nu d h)) / 2 of the way to its neighbours' weighted mean:
nu h times the Laplacian while that is small, and never past half the gap, so even the fastest
mode (neighbours moving against each other) decays instead of flipping sign, at any viscosity and
resolution. The rigid part of the change (a push or a spin from nowhere, since weights and masses
are not uniform) is taken back out: it moves no momentum and no angular momentum.
"""

from __future__ import annotations

import math

from slime.physics.compiled import kernel
from slime.physics.slime3d.moments import rigid_velocity_at
from slime.physics.slime3d.surface import ring_vertex


@kernel(inline=True)
def inverse_square_distance(points, a, b):
    """1 / |p_b - p_a|^2 for columns a and b of ``points`` (3, P)."""
    d0 = points[0, b] - points[0, a]
    d1 = points[1, b] - points[1, a]
    d2 = points[2, b] - points[2, a]
    return 1.0 / (d0 * d0 + d1 * d1 + d2 * d2)


@kernel(inline=True)
def share(viscosity, degree, h):
    """(1 - exp(-2 nu d h)) / (2 d h): the fraction of the pull sum w (u_n - u) that one substep
    of length h applies, as a rate (1/s)."""
    return -math.expm1(-2.0 * viscosity * degree * h) / (2.0 * degree * h)


@kernel
def add_shear_viscosity(acc, x, v, mass, rest, first, stacks, slices, centre, velocity, omega, inverse,
                        viscosity, h, u, change):
    """a = nu L(u), exactly decayed over the substep (see the module docstring); ``u`` and
    ``change`` are (3, P) scratch arrays of the world's size. ``velocity``, ``omega``: the
    body's rigid motion (``moments``), ``inverse`` its inverse inertia."""
    if viscosity <= 0.0:
        return
    count = (stacks - 1) * slices + 2
    for k in range(first, first + count):
        r0, r1, r2 = rigid_velocity_at(velocity, omega, centre, x[0, k], x[1, k], x[2, k])
        u[0, k] = v[0, k] - r0
        u[1, k] = v[1, k] - r1
        u[2, k] = v[2, k] - r2
    north = first
    south = first + count - 1
    for i in range(1, stacks):
        k0 = ring_vertex(first, stacks, slices, i, 0)
        w_up = inverse_square_distance(rest, ring_vertex(first, stacks, slices, i - 1, 0), k0)
        w_down = inverse_square_distance(rest, k0, ring_vertex(first, stacks, slices, i + 1, 0))
        w_side = inverse_square_distance(rest, k0, k0 + 1 if slices > 1 else k0)
        degree = w_up + w_down + 2.0 * w_side
        rate = share(viscosity, degree, h)
        for j in range(slices):
            k = k0 + j
            up = k - slices if i > 1 else north
            down = k + slices if i < stacks - 1 else south
            left = k - 1 if j > 0 else k + slices - 1
            right = k + 1 if j < slices - 1 else k0
            for d in range(3):
                pull = (w_up * u[d, up] + w_down * u[d, down] + w_side * (u[d, left] + u[d, right])
                        - degree * u[d, k])
                change[d, k] = rate * pull
    for pole, ring in ((north, 1), (south, stacks - 1)):
        weight = inverse_square_distance(rest, pole, ring_vertex(first, stacks, slices, ring, 0))
        rate = share(viscosity, slices * weight, h)
        for d in range(3):
            pull = 0.0
            for j in range(slices):
                pull += u[d, ring_vertex(first, stacks, slices, ring, j)] - u[d, pole]
            change[d, pole] = rate * weight * pull
    # The rigid part of the change: its push (sum m a / M) and its turn (I^-1 sum m (x - c) x a).
    total = p0 = p1 = p2 = t0 = t1 = t2 = 0.0
    for k in range(first, first + count):
        m = mass[k]
        c0, c1, c2 = m * change[0, k], m * change[1, k], m * change[2, k]
        d0, d1, d2 = x[0, k] - centre[0], x[1, k] - centre[1], x[2, k] - centre[2]
        total += m
        p0 += c0
        p1 += c1
        p2 += c2
        t0 += d1 * c2 - d2 * c1
        t1 += d2 * c0 - d0 * c2
        t2 += d0 * c1 - d1 * c0
    push = (p0 / total, p1 / total, p2 / total)
    turn = (inverse[0, 0] * t0 + inverse[0, 1] * t1 + inverse[0, 2] * t2,
            inverse[1, 0] * t0 + inverse[1, 1] * t1 + inverse[1, 2] * t2,
            inverse[2, 0] * t0 + inverse[2, 1] * t1 + inverse[2, 2] * t2)
    for k in range(first, first + count):
        r0, r1, r2 = rigid_velocity_at(push, turn, centre, x[0, k], x[1, k], x[2, k])
        acc[0, k] += change[0, k] - r0
        acc[1, k] += change[1, k] - r1
        acc[2, k] += change[2, k] - r2
