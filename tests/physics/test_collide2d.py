"""The 2D engine's impulse-as-force contacts (slime/physics/mass_spring/collide2d.py), run as the
scenes run them: ``ContactForces`` and ``PlaneImpactForces`` as a ``MassSpringWorld``'s force functions,
stepped. The Computer Seminar chapter's test tables as analytic cases, momentum kept, the relative
normal speed reversed times e (the kinetic energy of the centre-of-mass frame times e^2), the
tangential speed kept, a pinned partner as the infinite-mass limit, and a ball that bounces on the
floor without sinking into it."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics.mass_spring.collide2d import BOX_FLOOR, ContactForces, PlaneImpactForces, box_planes
from slime.physics.mass_spring.particles import Particles
from slime.physics.mass_spring.world import MassSpringWorld
from slime.physics.planes import Planes


def particles(*specs) -> Particles:
    """Particles given as (pos, vel, radius, mass, restitution) each."""
    pos, vel, radius, mass, restitution = (list(column) for column in zip(*specs))
    return Particles.create(pos, vel, mass=mass, radius=radius, restitution=restitution)


def one_step(p: Particles, dt=1.0, contacts=True, planes: Planes | None = None, sink_fix=None):
    """One step of a world with no gravity and no damping in which only the contacts act (between
    the particles, and with ``planes`` when given): the velocities after it are the impact's.
    Returns the world and its contact force functions."""
    contact = ContactForces() if contacts else None
    walls = PlaneImpactForces(planes, sink_fix) if planes is not None else None
    world = MassSpringWorld(p, dt=dt, extra_forces=[f for f in (contact, walls) if f is not None],
                  after_integrate=[walls.after_integrate] if walls is not None else [])
    world.step()
    return world, contact, walls


def momentum(p: Particles) -> np.ndarray:
    return (p.mass[:, None] * p.velocities).sum(axis=0)


# The Computer Seminar chapter's table for the impact between two points: (pos, vel, radius, mass, restitution) each.
POINT_CASES = [
    (((0, 0), (5, 0), 20, 10, 1.0), ((20, 0), (-5, 0), 20, 10, 1.0), True),
    (((0, 0), (5, 0), 20, 15, 0.2), ((20, 0), (-5, 0), 20, 30, 0.8), True),
    (((0, 0), (5, 0), 20, 10, 1.0), ((120, 0), (-5, 0), 20, 10, 1.0), False),  # not in contact
    (((0, 0), (5, 0), 20, 10, 1.0), ((0, 0), (-5, 0), 20, 10, 1.0), False),  # same position
    (((0, 0), (-5, 0), 20, 10, 1.0), ((20, 0), (5, 0), 20, 10, 1.0), False),  # moving apart
]


@pytest.mark.parametrize("p1, p2, impact", POINT_CASES)
def test_impact_between_points_original_table(p1, p2, impact):
    p = particles(p1, p2)
    v = p.velocities.copy()
    before = momentum(p)
    _, contacts, _ = one_step(p)
    assert contacts.last_count == int(impact)
    if not impact:
        np.testing.assert_array_equal(p.velocities, v)
        return
    restitution = p1[4] * p2[4]
    np.testing.assert_allclose(p.velocities[0] - p.velocities[1], -restitution * (v[0] - v[1]), atol=1e-12)
    np.testing.assert_allclose(momentum(p), before, atol=1e-12)


# The Computer Seminar chapter's table for the impact by a fixed wall. The Computer Seminar chapter's normals point INTO the wall; the
# engine's planes point into the free side, so each is negated here.
PLANE_CASES = [
    (((600, 200), (5, 3), 20, 10, 1.0), (1, 0), (600, 0), (-5, 3), True),
    (((15, 200), (-5, 3), 20, 10, 0.8), (-1, 0), (0, 0), (0.8 * 5, 3), True),
    (((300, 400), (-5, 3), 20, 10, 0.6), (0, 1), (0, 400), (-5, -0.6 * 3), True),
    (((600, 200), (-5, 3), 20, 10, 1.0), (1, 0), (600, 0), None, False),  # moving away from the wall
    (((580, 200), (5, 3), 20, 10, 1.0), (1, 0), (600, 0), None, False),  # just touching: no contact
]


@pytest.mark.parametrize("spec, original_normal, point, vel_expected, impact", PLANE_CASES)
def test_impact_by_fixture_original_table(spec, original_normal, point, vel_expected, impact):
    p = particles(spec)
    wall = Planes.create([-np.array(original_normal, float)], [point], restitution=0.0, friction=0.0)
    world = MassSpringWorld(p, dt=1.0)
    walls = PlaneImpactForces(wall)
    world.extra_forces.append(walls)
    world.step()
    assert bool(walls.hits[0, 0]) is impact
    np.testing.assert_allclose(p.velocities[0], vel_expected if impact else spec[1], atol=1e-12)


def test_pinned_partner_is_the_infinite_mass_limit():
    # A ball hitting a pinned ball bounces back with -e1 e2 times its speed; the pinned one does not move.
    p = particles(((0.0, 0.0), (3.0, 0.0), 10.0, 2.0, 0.9), ((15.0, 0.0), (0.0, 0.0), 10.0, np.inf, 0.8))
    _, contacts, _ = one_step(p)
    assert contacts.last_count == 1
    assert p.velocities[0, 0] == pytest.approx(-0.72 * 3.0)
    np.testing.assert_array_equal(p.positions[1], [15.0, 0.0])
    # Two pinned particles: no finite answer, so no impulse.
    p = particles(((0.0, 0.0), (3.0, 0.0), 10.0, np.inf, 0.9), ((15.0, 0.0), (0.0, 0.0), 10.0, np.inf, 0.8))
    _, contacts, _ = one_step(p)
    assert contacts.last_count == 0 and np.all(np.isfinite(p.velocities))


def test_oblique_impact_keeps_tangential_velocity():
    p = particles(((0.0, 0.0), (1.0, 2.0), 6.0, 1.0, 0.7), ((6.0, 8.0), (-1.0, 0.5), 6.0, 2.0, 1.0))  # normal (0.6, 0.8)
    v = p.velocities.copy()
    before = momentum(p)
    one_step(p, dt=0.25)
    n, t = np.array([0.6, 0.8]), np.array([-0.8, 0.6])
    v1, v2 = p.velocities
    assert (v1 - v2) @ n == pytest.approx(-0.7 * (v[0] - v[1]) @ n)
    assert v1 @ t == pytest.approx(v[0] @ t) and v2 @ t == pytest.approx(v[1] @ t)
    np.testing.assert_allclose(momentum(p), before, atol=1e-12)


def random_crowd(n=400, seed=0) -> Particles:
    rng = np.random.default_rng(seed)
    return Particles.create(rng.random((n, 2)) * 300.0, rng.normal(size=(n, 2)) * 3.0, mass=rng.uniform(0.5, 5.0, n),
                            radius=rng.uniform(2.0, 9.0, n), restitution=rng.uniform(0.3, 1.0, n))


def test_collision_pass_conserves_momentum_in_a_crowd():
    p = random_crowd(seed=1)
    before = momentum(p)
    _, contacts, _ = one_step(p, dt=0.5)
    assert contacts.last_count > 20
    np.testing.assert_allclose(momentum(p), before, atol=1e-9)  # internal forces: the total momentum kept


def test_head_on_pair_energy_scales_with_e_squared():
    # Relative speed reversed times e: the kinetic energy in the centre-of-mass frame drops by e^2.
    p = particles(((0.0, 0.0), (4.0, 0.0), 6.0, 2.0, 0.5), ((10.0, 0.0), (-1.0, 0.0), 6.0, 3.0, 0.8))
    m = p.mass[:, None]
    vcm = momentum(p) / p.mass.sum()
    ke = lambda u: 0.5 * np.sum(m * (u - vcm) ** 2)  # noqa: E731
    before = ke(p.velocities)
    one_step(p)
    assert ke(p.velocities) == pytest.approx(0.4**2 * before)


def drop_ball(sink_fix, frames=3000):
    p = Particles.create([[300.0, 100.0]], mass=10.0, radius=10.0, restitution=0.95, damping=0.01)
    world = MassSpringWorld(p, gravity=np.array([0.0, 0.5]), dt=1.0)
    walls = PlaneImpactForces(box_planes(600.0, 400.0), sink_fix)
    world.extra_forces.append(walls)
    world.after_integrate.append(walls.after_integrate)
    heights = np.empty(frames)
    for k in range(frames):
        world.step()
        heights[k] = p.positions[0, 1]
    return heights


def test_ball_bounces_on_the_floor_without_sinking():
    # A ball dropped in a y-down box (floor at y = 400, radius 10). The impulse fires only once
    # the disc is already in the floor, so it may enter for the frame of arrival, but the fix
    # puts it back: it never stays in, and it comes to rest on the surface, not below it.
    y = drop_ball(BOX_FLOOR)
    inside = y > 390.0 + 1e-9
    longest_stay = max(len(run) for run in np.split(inside, np.flatnonzero(~inside)))
    assert longest_stay <= 4
    assert y[-500:].max() < 391.0 and y[-500:].min() >= 390.0 - 1e-9
    assert y[:200].min() < 300.0  # it bounced back up first (restitution 0.95)


def test_without_the_fix_the_ball_sinks_through():
    # Gravity added in the same step as the impulse wins a little every frame at rest.
    y = drop_ball(np.zeros(4, dtype=bool))
    assert y[-1] > 400.0


def test_a_ball_in_a_corner_bounces_off_both_walls():
    # Sunk into the floor and the right wall at once, moving into both: each wall reverses its own
    # normal speed times e, and the ball, still in both, leaves them untouched after that.
    p = Particles.create([[595.0, 396.0]], velocities=[[2.0, 3.0]], mass=1.0, radius=10.0, restitution=0.5)
    world, _, walls = one_step(p, contacts=False, planes=box_planes(600.0, 400.0))
    assert walls.hits[:, 0].tolist() == [False, True, False, True]
    np.testing.assert_allclose(p.velocities[0], [-1.0, -1.5])
    world.step()
    assert not walls.hits.any()
    np.testing.assert_allclose(p.velocities[0], [-1.0, -1.5])


def test_contact_forces_count_and_world_integration():
    # Two balls thrown at each other in empty space: momentum is kept through the whole run.
    p = Particles.create([[0.0, 0.0], [50.0, 1.0]], velocities=[[2.0, 0.0], [-1.0, 0.0]], mass=[1.0, 4.0],
                         radius=5.0, restitution=0.9)
    world = MassSpringWorld(p, dt=1.0)
    contacts = ContactForces()
    world.extra_forces.append(contacts)
    before = momentum(p)
    for _ in range(60):
        world.step()
    assert contacts.count >= 1
    np.testing.assert_allclose(momentum(p), before, atol=1e-12)
    assert p.velocities[0, 0] < p.velocities[1, 0]  # they bounced apart
