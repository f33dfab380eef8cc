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
from the shape goal (``shape_matching``), explicit; its fastest wave, between neighbours, has
omega^2 up to 2 c^2 D (D the largest summed weight, ``largest_degree``) and sets how short the
substeps must be (``stability.py``). The viscous part is nu L(u) of the deformation velocity
u = v - v_rigid, applied exactly: in one substep h a vertex of summed weight D moves the fraction
(1 - exp(-2 nu D h)) / 2 of the way to its neighbours' weighted mean, nu h times the Laplacian
while that is small and never past half the gap, so even the fastest mode decays instead of
flipping sign, at any viscosity and resolution. The rigid part of the sum (a push or a spin from
nowhere, since weights and masses are not uniform) is taken back out: it moves no momentum and
no angular momentum.
"""

from __future__ import annotations

import math

from slime.physics.compiled import kernel
from slime.physics.slime3d.moments import rigid_velocity_at
from slime.physics.slime3d.shape_matching import shape_restoring_at
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
    if viscosity <= 0.0:
        return 0.0
    return -math.expm1(-2.0 * viscosity * degree * h) / (2.0 * degree * h)


@kernel
def largest_degree(rest, first, stacks, slices):
    """The largest summed weight D = sum w over a vertex's neighbours (1/m^2) on the body's rest
    grid ``rest`` (3, P): the shear stiffness's fastest wave has omega^2 up to 2 c^2 D."""
    largest = 0.0
    for i in range(1, stacks):
        k0 = ring_vertex(first, stacks, slices, i, 0)
        degree = (inverse_square_distance(rest, ring_vertex(first, stacks, slices, i - 1, 0), k0)
                  + inverse_square_distance(rest, k0, ring_vertex(first, stacks, slices, i + 1, 0))
                  + 2.0 * inverse_square_distance(rest, k0, k0 + 1 if slices > 1 else k0))
        largest = max(largest, degree)
    count = (stacks - 1) * slices + 2
    for pole, ring in ((first, 1), (first + count - 1, stacks - 1)):
        largest = max(largest, slices * inverse_square_distance(rest, pole, ring_vertex(first, stacks, slices, ring, 0)))
    return largest


@kernel
def add_shear(acc, x, v, mass, rest, first, stacks, slices, centre, rotation, velocity, omega, inverse, stiffness,
              viscosity, h, d, u, change):
    """a = c^2 L(d) + nu L(u), the viscous part exactly decayed over the substep (see the module
    docstring). ``d``, ``u`` and ``change`` are (3, P) scratch arrays of the world's size;
    ``rotation`` is the body's best-fit rotation (``shape_matching``), ``velocity``, ``omega``
    its rigid motion (``moments``), ``inverse`` its inverse inertia."""
    if viscosity <= 0.0 and stiffness <= 0.0:
        return
    count = (stacks - 1) * slices + 2
    for k in range(first, first + count):
        r0, r1, r2 = rigid_velocity_at(velocity, omega, centre, x[0, k], x[1, k], x[2, k])
        u[0, k] = v[0, k] - r0
        u[1, k] = v[1, k] - r1
        u[2, k] = v[2, k] - r2
        g0, g1, g2 = shape_restoring_at(x, rest, k, centre, rotation, 1.0)
        d[0, k] = -g0
        d[1, k] = -g1
        d[2, k] = -g2
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
            for c in range(3):
                pull = (w_up * u[c, up] + w_down * u[c, down] + w_side * (u[c, left] + u[c, right])
                        - degree * u[c, k])
                strain = (w_up * d[c, up] + w_down * d[c, down] + w_side * (d[c, left] + d[c, right])
                          - degree * d[c, k])
                change[c, k] = rate * pull + stiffness * strain
    for pole, ring in ((north, 1), (south, stacks - 1)):
        weight = inverse_square_distance(rest, pole, ring_vertex(first, stacks, slices, ring, 0))
        rate = share(viscosity, slices * weight, h)
        for c in range(3):
            pull = 0.0
            strain = 0.0
            for j in range(slices):
                n = ring_vertex(first, stacks, slices, ring, j)
                pull += u[c, n] - u[c, pole]
                strain += d[c, n] - d[c, pole]
            change[c, pole] = (rate * pull + stiffness * strain) * weight
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
