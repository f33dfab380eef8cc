"""The membrane terms integrated implicitly: surface tension, shear stiffness and shear
viscosity, whose fastest waves are the shortest the mesh carries, stable at any substep length,
so that the substeps a frame are set by the body-wide terms and not by the mesh.

The equation. For the short waves that limit an explicit step, all three act through the rest
grid's Laplacian L (weights w = 1 / rest length^2, ``shear.ring_weights``; -L has eigenvalues
0 .. 2 D_i, D_i a vertex's summed weight): the elastic pair as a stiffness, a ripple at vertex i
springing back at omega^2 up to ``ripple_i`` = gamma K_area,i / m_i + 2 c^2 D_i
(``slime_shape``: the tension's area Hessian over the mass, and the shear stiffness), the shear
viscosity nu as a damping nu L. With

    B = diag(h^2 ripple_i / (2 D_i) + h nu),    A = I + B (-L),

the membrane's acceleration a_m (tension, c^2 L(d) and nu L(u), as the explicit forces give it)
is taken through A's inverse, P a_m with P = (I + B M)^-1 (I + B R)^-1 (R and M the ring and
meridian parts of -L: an alternating-direction split of A), and the substep goes on as
symplectic Euler. For the viscosity this is backward Euler, linear and symmetric: a mode of -L
eigenvalue lambda keeps 1 / (1 + h nu lambda) of its velocity, never overshooting. For the
stiffness it is a preconditioned symplectic step: a ripple of h^2 omega^2 = s sees s / (1 + s)
along each direction, under 2 together, inside the symplectic step's h^2 omega^2 < 4 at any h,
resolution and stiffness, and with no energy taken out (only the shortest waves are slowed, to a
period of a few substeps, and the viscosity damps them). A long wave, the wobble or a dent, has
s of a few thousandths, and P leaves it as the explicit step had it, to that order. (Backward
Euler for the stiffness as well, with its h J v on the right, was tried: it holds a stiff ripple
as hard, but damps every fast wave at h omega^2 / 2 a second; at 32 x 32 a dropped jelly then
bounced a quarter lower and a thrown one came to rest 13 % sooner. Its tolerance of a Jacobian
that misjudges the deformed mesh's stiffness is also narrower: h^2 omega^2 J-error under 4/3,
against 4 here.)

The cost. Each factor is solved exactly: (I + B R) is one cyclic tridiagonal system a ring, of
constant coefficients, solved as a forward and a backward first-order recursion
(``periodic_solve``); (I + B M) one tridiagonal system a meridian, the same coefficients for
every meridian (``meridian_solve``, the Thomas algorithm, a ring of meridians at a time). The
poles, one vertex each coupled to a whole ring, take their row's diagonal. A few multiplications
a vertex and component, about what one more Laplacian costs, against the 8 to 90 substeps of the
whole step it saves at 64 x 64 and 128 x 128. Why not XPBD or conjugate gradients: both iterate,
and converge slowest on the long waves that must stay right; these two solves are exact for what
they solve, need no iteration count and no warm start, and never return NaN.

P moves momentum: it is not a weighted mean. The rigid part of P a_m (its push and its turn)
is taken back out (``moments.internal_part_into``), so the membrane's forces still sum to no
force and no torque.
"""
from __future__ import annotations

import math

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.slime3d.shear import inverse_square_distance, ring_weights
from slime.physics.slime3d.surface import ring_vertex


@kernel
def periodic_solve(r0, r1, r2, a):
    """Solve (1 + 2a) y_j - a (y_{j-1} + y_{j+1}) = r_j round a ring (j wraps), in place, for
    the three components' rows at once (three independent recursions side by side keep the core
    busy where one waits on each of its own steps): the operator factors as
    (a / rho) (1 - rho S)(1 - rho S^-1), S the shift, rho < 1 the smaller root of
    a rho^2 - (1 + 2a) rho + a = 0; each factor is a first-order recursion round the ring,
    started from its periodic sum."""
    n = r0.shape[0]
    if a <= 0.0:
        return
    scale = 2.0 / ((1.0 + 2.0 * a) + math.sqrt(1.0 + 4.0 * a))  # rho / a, without the cancellation
    rho = a * scale
    lap = 1.0 - rho**n
    t0 = t1 = t2 = 0.0
    power = 1.0
    for k in range(n):
        t0 += power * r0[n - 1 - k]
        t1 += power * r1[n - 1 - k]
        t2 += power * r2[n - 1 - k]
        power *= rho
    p0, p1, p2 = t0 / lap, t1 / lap, t2 / lap
    for j in range(n):
        p0 = r0[j] + rho * p0
        p1 = r1[j] + rho * p1
        p2 = r2[j] + rho * p2
        r0[j], r1[j], r2[j] = p0, p1, p2
    t0 = t1 = t2 = 0.0
    power = 1.0
    for k in range(n):
        t0 += power * r0[k]
        t1 += power * r1[k]
        t2 += power * r2[k]
        power *= rho
    p0, p1, p2 = t0 / lap, t1 / lap, t2 / lap
    for j in range(n - 1, -1, -1):
        p0 = r0[j] + rho * p0
        p1 = r1[j] + rho * p1
        p2 = r2[j] + rho * p2
        r0[j], r1[j], r2[j] = scale * p0, scale * p1, scale * p2


@kernel
def ring_coefficients(rs, stacks, slices, ripple, viscosity, h, i):
    """Ring i's B coefficient times its ring weight, up weight and down weight: b w_side,
    b w_up, b w_down, with b = h^2 ripple / (2 D) + h nu."""
    w_up, w_down, w_side = ring_weights(rs, stacks, slices, i)
    degree = w_up + w_down + 2.0 * w_side
    b = h * (h * ripple[ring_vertex(0, stacks, slices, i, 0)] / (2.0 * degree) + viscosity)
    return b * w_side, b * w_up, b * w_down


@kernel
def meridian_solve(ms, rs, stacks, slices, ripple, viscosity, h):
    """Solve (I + B M) z = y along every meridian at once, in place in the body's rows ``ms``:
    rings 1 .. stacks - 1, the poles' values already solved and held (the Thomas algorithm; its
    coefficients are the same for every meridian, so each step runs along a whole ring)."""
    n = slices
    upper = np.empty(stacks + 1)  # c'_i of the elimination
    pivot = np.empty(stacks + 1)  # 1 / m_i
    lower = np.empty(stacks + 1)  # -b w_up
    previous_upper = 0.0
    for i in range(1, stacks):
        _, up, down = ring_coefficients(rs, stacks, slices, ripple, viscosity, h, i)
        lower[i] = -up
        m = 1.0 + up + down - (-up) * previous_upper if i > 1 else 1.0 + up + down
        pivot[i] = 1.0 / m
        upper[i] = -down / m
        previous_upper = upper[i]
    south = (stacks - 1) * n + 1
    last = ring_vertex(0, stacks, slices, stacks - 1, 0)
    for c in range(3):
        z = ms[c]
        north_value, south_value = z[0], z[south]
        # The poles are known: their pull on the first and last rings goes to the right side.
        _, up_first, _ = ring_coefficients(rs, stacks, slices, ripple, viscosity, h, 1)
        _, _, down_last = ring_coefficients(rs, stacks, slices, ripple, viscosity, h, stacks - 1)
        for j in range(n):
            z[1 + j] += up_first * north_value
        for j in range(n):
            z[last + j] += down_last * south_value
        for i in range(1, stacks):
            row = ring_vertex(0, stacks, slices, i, 0)
            here = z[row:row + n]
            p, low = pivot[i], lower[i]
            if i == 1:
                for j in range(n):
                    here[j] = here[j] * p
            else:
                above = z[row - n:row]
                for j in range(n):
                    here[j] = (here[j] - low * above[j]) * p
        for i in range(stacks - 2, 0, -1):
            row = ring_vertex(0, stacks, slices, i, 0)
            here, below = z[row:row + n], z[row + n:row + 2 * n]
            u = upper[i]
            for j in range(n):
                here[j] -= u * below[j]


@kernel
def membrane_solve(ms, rs, stacks, slices, ripple, viscosity, h):
    """a_m <- P a_m (see the module docstring), in place in the body's rows ``ms`` (3, count),
    with ``rs`` its rest rows and ``ripple`` its vertices' fastest membrane omega^2 (1/s^2)."""
    n = slices
    count = (stacks - 1) * n + 2
    for pole, ring in ((0, 1), (count - 1, stacks - 1)):
        degree = n * inverse_square_distance(rs, pole, ring_vertex(0, stacks, slices, ring, 0))
        keep = 1.0 / (1.0 + h * (0.5 * h * ripple[pole] + viscosity * degree))  # 1 / (1 + b D)
        for c in range(3):
            ms[c][pole] *= keep
    for i in range(1, stacks):
        side, _, _ = ring_coefficients(rs, stacks, slices, ripple, viscosity, h, i)
        row = ring_vertex(0, stacks, slices, i, 0)
        periodic_solve(ms[0][row:row + n], ms[1][row:row + n], ms[2][row:row + n], side)
    meridian_solve(ms, rs, stacks, slices, ripple, viscosity, h)
