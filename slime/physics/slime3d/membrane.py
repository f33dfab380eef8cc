"""The membrane's stiff waves carried by the step: surface tension and shear stiffness, whose
fastest waves are the shortest the mesh carries, stable at the substep the body-wide terms set,
so that a frame takes the same substeps at every resolution.

Where the stiffness is. On the UV sphere the fastest membrane waves run round the rings: a ring's
neighbours are closest near the poles (the first ring's side is about 2 pi^2 R / (stacks slices)
against the meridian's pi R / stacks), so its triangles are slivers whose tension stiffness
(``slime_shape.area_stiffness``) and shear weight 1 / side^2 grow with the resolution's fourth
power, and the pole is pulled by its whole first ring. Along the meridians the waves are no
faster than the explicit step carries up to 128 x 128 at 8 substeps (``stability.py`` counts
them, and takes more substeps past that).

The equation. A substep of symplectic Euler with a mass matrix of its own for the body's internal
forces F_e that are stiffnesses or couple neighbours (pressure, surface tension, shape restoring,
the shear's stiffness and viscosity):

    (M + C) a_e = F_e,    v += h (a_e + a_rest),    x += h v

with a_rest the rest (the body-wide viscosity, drag and gravity, applied as they are), and C a graph
Laplacian on the ring edges and the pole's star (its edges to the first ring), each edge's weight
chosen from the stiffness the substep cannot carry: a ring whose vertices' fastest membrane wave
has h^2 omega^2 = s over ``RIPPLE_MARGIN`` s0 gets c = m (s / s0 - 1) / 4 on each of its edges,
so that its shortest wave (neighbours moving apart, -L's eigenvalue 4) has
h^2 omega^2 = s / (1 + 4 c / m) = s0; a pole whose pull on its own (its ring held) has
h^2 omega^2 = s over s0 gets c = m_pole (s / s0 - 1) / slices on each star edge. Everywhere
else C = 0: the step is the explicit one (at 16 x 16 and 32 x 32 every ring is below s0, so they
move as they did). This is the linearly implicit step (M + h^2 K) dv = h F with the stiffness K
kept only where, and only as much as, it exceeds what the substep carries, and on the rest
grid's stencil, which matches the stiff waves: they are neighbours moving against each other
round a ring. Every stiffness goes through the same M + C, the membrane's and the body-wide ones
alike: a step whose stiffnesses saw two different mass matrices would not be symmetric, and could
ring up a wave that both of them move; the shear's viscosity goes with them (it is one stencil
with the shear's stiffness, and a rate through a positive mass still only takes energy out).

What it keeps. C 1 = 0, so sum m a_e = sum F_e: the internal forces still move no momentum, and
a uniform acceleration passes unchanged; the rigid turn the solve leaves in a_e is taken out with
the shear's (``moments.internal_part_into``), so they apply no torque either. C is symmetric,
positive and fixed for a given substep, so the step is still symplectic for the stiffnesses: it
takes no energy out (a wave slowed, not damped; only the viscosities dissipate), and a long wave,
the wobble or a dent, which hardly moves neighbours against each other, keeps the explicit
step's motion to the order of (h omega)^2 c / m. Backward Euler (K's h dv on the right as well)
would damp every wave at h omega^2 / 2 a second, the wobble and a landing's splash too, which is
how the first implicit try (a whole-mesh filter of the membrane's acceleration) lost a tenth of
the jelly's bounce at 32 x 32, a mesh that needs nothing carried.

The cost. Each ring's system has constant coefficients, cyclic tridiagonal, solved exactly by a
forward and a backward first-order recursion round the ring (``ring_solve``); a pole with its first
ring by eliminating the pole (``pole_solve``). A few multiplications a vertex and component, on
the rings that need it, against the 15 to 90 substeps a frame of the explicit step it saves at
64 x 64 and 128 x 128. No iteration: nothing to converge, no count to choose, no NaN from a
solver that stopped early. (Conjugate gradients or XPBD over the whole mesh would be more general
but iterate, and converge slowest on the long waves that must stay right.)
"""

from __future__ import annotations

import math

from slime.physics.compiled import kernel
from slime.physics.slime3d.surface import ring_vertex

RIPPLE_MARGIN = 1.0  # the most h^2 omega^2 of the fastest membrane ripple a substep carries


@kernel
def ring_coupling(ripple, h):
    """c / m of a ring's edges (``RIPPLE_MARGIN``, the module docstring): max(0, s / s0 - 1) / 4
    with s = h^2 ``ripple`` (1/s^2, its vertices' fastest membrane wave)."""
    excess = h * h * ripple / RIPPLE_MARGIN - 1.0
    return 0.25 * excess if excess > 0.0 else 0.0


@kernel
def pole_coupling(ripple, h, slices):
    """c / m_pole of a pole's star edges: max(0, s / s0 - 1) / slices, s = h^2 ``ripple`` (the pole's
    own pull, its ring held)."""
    excess = h * h * ripple / RIPPLE_MARGIN - 1.0
    return excess / slices if excess > 0.0 else 0.0


@kernel
def ring_solve(r0, r1, r2, b):
    """Solve (1 + 2b) y_j - b (y_{j-1} + y_{j+1}) = r_j round a ring (j wraps), in place, the three
    components side by side. The operator is kappa (1 - rho S)(1 - rho S^-1), S the shift, rho < 1
    the smaller root of rho^2 - (1 + 2b) rho / b + 1 = 0 and kappa = b / rho: each factor a
    first-order recursion round the ring, started from its periodic sum."""
    n = r0.shape[0]
    if not b > 0.0:
        return
    root = math.sqrt(1.0 + 4.0 * b)
    rho = 2.0 * b / ((1.0 + 2.0 * b) + root)
    scale = 2.0 / ((1.0 + 2.0 * b) + root)  # 1 / kappa
    lap = 1.0 - rho**n
    # (1 - rho S) z = r: z_j = r_j + rho z_{j-1}, from z_{n-1} = sum_k rho^k r_{n-1-k} / (1 - rho^n).
    t0 = t1 = t2 = 0.0
    power = 1.0
    for k in range(n):
        t0 += power * r0[n - 1 - k]
        t1 += power * r1[n - 1 - k]
        t2 += power * r2[n - 1 - k]
        power *= rho
        if power < 1e-18:
            break
    p0, p1, p2 = t0 / lap, t1 / lap, t2 / lap
    for j in range(n):
        p0 = r0[j] + rho * p0
        p1 = r1[j] + rho * p1
        p2 = r2[j] + rho * p2
        r0[j], r1[j], r2[j] = p0, p1, p2
    # (1 - rho S^-1) y = z: y_j = z_j + rho y_{j+1}, from y_n = y_0 = sum_k rho^k z_k / (1 - rho^n).
    t0 = t1 = t2 = 0.0
    power = 1.0
    for k in range(n):
        t0 += power * r0[k]
        t1 += power * r1[k]
        t2 += power * r2[k]
        power *= rho
        if power < 1e-18:
            break
    p0, p1, p2 = t0 / lap, t1 / lap, t2 / lap
    for j in range(n - 1, -1, -1):
        p0 = r0[j] + rho * p0
        p1 = r1[j] + rho * p1
        p2 = r2[j] + rho * p2
        r0[j], r1[j], r2[j] = scale * p0, scale * p1, scale * p2


@kernel
def pole_solve(ms, pole, start, slices, mass, ring_b, pole_c):
    """The pole and its first ring (columns ``start ..``) of (M + C) a = M a_explicit, in place in
    the body's rows ``ms``: ``ring_b`` the ring's c / m, ``pole_c`` the pole's c / m_pole. With
    q = c_p / (m_1 + c_p) the ring is the ring system of b = c_r / (m_1 + c_p) on
    m_1 / (m_1 + c_p) times its own, g, plus q times the pole's; the pole's row then reads
    (m_p + n c_p (1 - q)) a_p = m_p a_p,explicit + c_p sum g."""
    n = slices
    m_pole, m_ring = mass[pole], mass[start]
    c_pole = pole_c * m_pole
    share = m_ring / (m_ring + c_pole)
    q = c_pole / (m_ring + c_pole)
    r0, r1, r2 = ms[0][start:start + n], ms[1][start:start + n], ms[2][start:start + n]
    for j in range(n):
        r0[j] *= share
        r1[j] *= share
        r2[j] *= share
    ring_solve(r0, r1, r2, ring_b * share)
    if c_pole <= 0.0:
        return
    s0 = s1 = s2 = 0.0
    for j in range(n):
        s0 += r0[j]
        s1 += r1[j]
        s2 += r2[j]
    inverse = 1.0 / (m_pole + n * c_pole * (1.0 - q))
    y0 = (m_pole * ms[0][pole] + c_pole * s0) * inverse
    y1 = (m_pole * ms[1][pole] + c_pole * s1) * inverse
    y2 = (m_pole * ms[2][pole] + c_pole * s2) * inverse
    ms[0][pole], ms[1][pole], ms[2][pole] = y0, y1, y2
    for j in range(n):
        r0[j] += q * y0
        r1[j] += q * y1
        r2[j] += q * y2


@kernel
def carry_membrane(ms, mass, ripple, stacks, slices, h):
    """a_e <- (M + C)^-1 M a_e (see the module docstring), in place in the body's rows ``ms``
    (3, count): the carried forces' explicit acceleration in, the one the substep carries out. ``mass``
    and ``ripple`` (1/s^2, each vertex's fastest membrane wave: a ring's round it, a pole's own
    pull) are the body's, from column 0."""
    n = slices
    south = (stacks - 1) * n + 1
    for i in range(2, stacks - 1):
        row = ring_vertex(0, stacks, slices, i, 0)
        b = ring_coupling(ripple[row], h)
        if b > 0.0:
            ring_solve(ms[0][row:row + n], ms[1][row:row + n], ms[2][row:row + n], b)
    last = ring_vertex(0, stacks, slices, stacks - 1, 0)  # stacks >= 3: the poles' rings are two
    pole_solve(ms, 0, 1, n, mass, ring_coupling(ripple[1], h), pole_coupling(ripple[0], h, n))
    pole_solve(ms, south, last, n, mass, ring_coupling(ripple[last], h), pole_coupling(ripple[south], h, n))
