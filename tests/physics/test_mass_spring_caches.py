"""The 2D engine's caches change none of its physics. ``ContactForces`` keeps a Verlet candidate
list between steps, ``PlaneImpactForces`` measures all walls at once, springs scatter through a
cached incidence matrix and the MassSpringWorld reuses its force array. Each is run on states built to
stress its cache (particles drifting past the margin, teleported, growing, added; springs added
and broken; pins) and checked against the physics: every touching pair found (brute-force
distances), momentum kept, each wall's normal speed reversed times e, no particle left sunk in a
wall, Newton's third law, symplectic Euler written out.
"""

import numpy as np
import pytest

from slime.physics import MassSpringWorld, Particles, Springs
from slime.physics.integrate import symplectic_euler
from slime.physics.mass_spring.collide2d import BOX_FLOOR, ContactForces, PlaneImpactForces, box_planes
from slime.physics.mass_spring.scatter import scatter_add
from slime.physics.mass_spring.springs import add_spring_forces, spring_forces


def approaching_touching_pairs(x, v, inv_mass, r) -> set:
    """Every pair (i < j) of discs that touch or overlap, approach each other along the line of
    their centres and are not both pinned, by brute force over all pairs."""
    gap = x[None, :] - x[:, None]  # x_j - x_i
    distance = np.linalg.norm(gap, axis=-1)
    closing = -np.einsum("ijk,ijk->ij", v[None, :] - v[:, None], gap)  # > 0: approaching
    ok = (distance <= r[:, None] + r[None, :]) & (distance > 0.0) & (closing >= 0.0)
    ok &= (inv_mass[:, None] + inv_mass[None, :]) > 0.0
    ok &= np.triu(np.ones_like(ok), 1)
    return set(zip(*(a.tolist() for a in np.nonzero(ok))))


def test_the_verlet_contacts_find_every_touching_pair_and_keep_momentum():
    rng = np.random.default_rng(7)
    n = 120
    x = rng.uniform(0.0, 100.0, (n, 2))
    r = rng.uniform(1.0, 3.0, n)
    inv_mass = rng.uniform(0.5, 2.0, n)
    inv_mass[:5] = 0.0  # some pinned
    e = rng.uniform(0.2, 1.0, n)
    contacts = ContactForces(margin=2.0)
    total = 0
    for step in range(150):
        v = rng.normal(0.0, 1.0, x.shape)
        x += 0.05 * v  # a slow random walk: the list is kept for many steps ...
        if step % 10 == 5:
            x[rng.integers(n)] += 3.0  # ... and a jump past the margin forces a new search
        if step == 60:
            x[10] = x[20] + 0.5  # a teleport right onto another particle
        if step == 89:  # 3 and 4 stand still 9 apart: out of reach + margin (2 * 3 + 2) ...
            x[3] = x[4] + [9.0, 0.0]
        if step >= 89:
            x[3] -= 0.05 * v[3]
            x[4] -= 0.05 * v[4]
        if step == 90:
            r[3] = 8.0  # ... until 3 grows in place: now they touch, with nobody having moved
        pairs = approaching_touching_pairs(x, v, inv_mass, r)
        forces = np.zeros_like(x)
        count = contacts.add_forces(forces, x, v, inv_mass, e, r, 0.5)
        assert count == len(pairs)
        # Pushed are the particles of those pairs and no others; the pushes are equal and
        # opposite, so the momentum is kept (a pinned particle's share moves nothing).
        pushed = set(np.flatnonzero(np.abs(forces).max(axis=1) > 0.0).tolist())
        assert pushed == {k for pair in pairs for k in pair}
        np.testing.assert_allclose(forces.sum(axis=0), 0.0, atol=1e-9)
        total += count
    assert total > 100  # contacts really happened
    assert 10 < contacts.rebuilds < 60  # the list was kept for a while and rebuilt when needed


def test_two_particles_closing_in_by_more_than_half_the_margin_each_are_caught():
    # Reach 2, margin 1: the pair starts 3.1 apart (outside reach + margin), each moves 0.6
    # toward the other (less than the margin, more than half of it): 1.9 apart, touching.
    x = np.array([[0.0, 0.0], [3.1, 0.0], [50.0, 50.0]])
    v = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 0.0]])
    ones = np.ones(3)
    contacts = ContactForces(margin=1.0)
    assert contacts.add_forces(np.zeros_like(x), x, v, ones, ones, ones, 1.0) == 0
    x[0, 0] += 0.6
    x[1, 0] -= 0.6
    forces = np.zeros_like(x)
    assert contacts.add_forces(forces, x, v, ones, ones, ones, 1.0) == 1
    # Equal masses, e = 1, a step of 1: the impact swaps their velocities, the third is untouched.
    np.testing.assert_allclose(v + forces, [[-1.0, 0.0], [1.0, 0.0], [0.0, 0.0]], atol=1e-12)


def test_verlet_contacts_in_a_world_meet_balls_thrown_from_afar():
    # Two balls thrown at each other from far apart (farther than reach + margin): the list is
    # built before they are close, so they meet only if it is rebuilt in time.
    p = Particles.create([[0.0, 0.0], [200.0, 1.0]], velocities=[[3.0, 0.0], [-3.0, 0.0]], radius=5.0)
    world = MassSpringWorld(p, dt=1.0)
    contacts = ContactForces()
    world.extra_forces.append(contacts)
    for _ in range(60):
        world.step()
    assert contacts.count >= 1
    assert p.velocities[0, 0] < 0.0 < p.velocities[1, 0]


def box_state(rng, n):
    width, height = 200.0, 150.0
    # Half the particles hug a wall or a corner, some past it, moving every way.
    x = rng.uniform(0.0, 1.0, (n, 2)) * [width, height]
    x[: n // 2] = rng.choice([-2.0, 3.0, 197.0, 202.0], (n // 2, 2)) * [1.0, height / width]
    x[: n // 4, 0] = rng.uniform(-3.0, 3.0, n // 4)
    v = rng.normal(0.0, 2.0, (n, 2))
    r = rng.uniform(2.0, 6.0, n)
    inv_mass = rng.uniform(0.2, 3.0, n)
    inv_mass[::7] = 0.0
    e = rng.uniform(0.0, 1.0, n)
    return box_planes(width, height), x, v, r, inv_mass, e


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_walls_at_once_reverse_each_walls_normal_speed_and_leave_none_sunk(seed):
    rng = np.random.default_rng(seed)
    planes, x, v, r, inv_mass, e = box_state(rng, 80)
    p = Particles.create(x, v, radius=r, restitution=e)
    p.inv_mass[:] = inv_mass
    world = MassSpringWorld(p, dt=0.5)
    walls = PlaneImpactForces(planes, BOX_FLOOR)
    forces = np.zeros_like(x)
    walls(world, forces)
    # Hit: the disc crosses the wall while moving into it, and not pinned.
    height = x @ planes.normal.T - np.einsum("ij,ij->i", planes.point, planes.normal)  # (N, K)
    into = v @ planes.normal.T
    hit = ((height < r[:, None]) & (into < 0.0) & (inv_mass[:, None] > 0.0)).T
    assert hit.sum() > 5 and (hit.sum(axis=0) > 1).any()  # corners too
    np.testing.assert_array_equal(np.asarray(walls.hits), hit)
    # The box's walls are square to the axes: each wall that hits a particle turns its speed into
    # that wall to -e times it, the speed along the wall is kept; the others feel nothing.
    after = v + forces * inv_mass[:, None] * 0.5
    expected = v.copy()
    for k in range(planes.count):
        normal = planes.normal[k]
        expected[hit[k]] -= (1.0 + e[hit[k]])[:, None] * (v[hit[k]] @ normal)[:, None] * normal
    np.testing.assert_allclose(after, expected, rtol=0, atol=1e-12)
    assert np.all(forces[inv_mass == 0.0] == 0.0)
    # The sink fix after a move: a particle the floor hit that still moves into it is put back with
    # its surface on the floor; everyone else stays where they are.
    v_after = rng.normal(0.0, 2.0, v.shape)
    p.velocities[:] = v_after
    walls.after_integrate(world)
    floor = np.flatnonzero(BOX_FLOOR)[0]
    sinking = hit[floor] & (v_after @ planes.normal[floor] < 0.0)
    assert sinking.any() and (~sinking).any()
    floor_height = (p.positions - planes.point[floor]) @ planes.normal[floor]
    np.testing.assert_allclose(floor_height[sinking], r[sinking], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(p.positions[~sinking], x[~sinking])


def test_spring_scatter_follows_appended_and_broken_springs():
    """Each spring pulls its two ends equally and oppositely (``spring_forces`` scattered one by
    one), through the cached matrix too, as springs are added and broken and particles added."""
    rng = np.random.default_rng(4)
    x = rng.uniform(0.0, 10.0, (30, 2))
    pairs = rng.integers(0, 30, (80, 2))
    springs = Springs.create(pairs, rng.uniform(0.5, 3.0, 80), rng.uniform(0.5, 2.0, 80))
    springs.b[0] = springs.a[0]  # a zero-length spring: no force
    springs.alive[5] = False

    def reference(positions):
        f = spring_forces(positions, springs)
        out = np.zeros_like(positions)
        scatter_add(out, springs.a, f)
        scatter_add(out, springs.b, -f)
        return out

    for _ in range(2):  # the second call uses the cached matrix
        forces = np.zeros_like(x)
        add_spring_forces(forces, x, springs)
        np.testing.assert_allclose(forces, reference(x), rtol=1e-13, atol=1e-13)
    springs.append(Springs.create([[0, 29], [3, 4]], 1.0, 5.0))  # new arrays: the matrix is rebuilt
    springs.alive[7] = False  # broken in place: no rebuild needed, the force is masked
    forces = np.zeros_like(x)
    add_spring_forces(forces, x, springs)
    np.testing.assert_allclose(forces, reference(x), rtol=1e-13, atol=1e-13)
    assert np.abs(forces.sum(axis=0)).max() < 1e-12  # internal forces: no net force
    x_more = np.concatenate([x, x[:3] + 1.0])  # more particles: a taller matrix
    forces = np.zeros_like(x_more)
    add_spring_forces(forces, x_more, springs)
    np.testing.assert_allclose(forces, reference(x_more), rtol=1e-13, atol=1e-13)
    assert np.all(forces[30:] == 0.0)


def test_world_step_equals_the_plain_formulas():
    rng = np.random.default_rng(5)
    n = 25
    x = rng.uniform(0.0, 10.0, (n, 2))
    v = rng.normal(0.0, 1.0, (n, 2))
    mass = rng.uniform(0.5, 2.0, n)
    mass[[2, 11]] = np.inf  # pinned
    p = Particles.create(x, v, mass=mass, damping=rng.uniform(0.0, 0.3, n), velocity_scale=rng.uniform(0.9, 1.0, n))
    springs = Springs.create(rng.integers(0, n, (40, 2)), 2.0, 0.7)
    gravity = np.array([0.1, -0.4])
    world = MassSpringWorld(p, springs, gravity=gravity, dt=0.1)
    for _ in range(20):
        xr, vr = p.positions.copy(), p.velocities.copy()
        # m g (none on the pinned) - d v, written out
        forces = np.where(np.isinf(mass), 0.0, mass)[:, None] * gravity - p.damping[:, None] * vr
        add_spring_forces(forces, xr, springs)
        symplectic_euler(xr, vr, forces, p.inv_mass, 0.1, p.velocity_scale)
        world.step()
        np.testing.assert_allclose(p.positions, xr, rtol=1e-14, atol=1e-14)
        np.testing.assert_allclose(p.velocities, vr, rtol=1e-14, atol=1e-14)
    assert np.array_equal(p.positions[[2, 11]], x[[2, 11]])  # the pins never moved
    # Particles added between steps: the reused force array follows the new count.
    p.append(Particles.create([[1.0, 1.0]]))
    world.step()
    assert p.positions.shape == (n + 1, 2) and np.all(np.isfinite(p.positions))
