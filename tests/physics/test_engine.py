"""The shared engine core: springs, gravity, planes, integrator, in 2D and 3D."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics import MassSpringWorld, Particles, Planes, Springs
from slime.physics.integrate import symplectic_euler
from slime.physics.planes import collide_planes
from slime.physics.mass_spring.scatter import scatter_add
from slime.physics.mass_spring.springs import add_spring_forces, break_overloaded, hooke_forces, muscle_rest_length, spring_forces


def test_scatter_add_sums_repeated_indices():
    target = np.zeros((3, 2))
    scatter_add(target, np.array([0, 2, 0]), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert np.array_equal(target, [[6.0, 8.0], [0.0, 0.0], [3.0, 4.0]])


@pytest.mark.parametrize("dim", [2, 3])
def test_spring_forces_are_equal_and_opposite_and_hooke(dim):
    rng = np.random.default_rng(1)
    positions = rng.normal(size=(6, dim))
    springs = Springs.create([[0, 1], [1, 2], [2, 3], [3, 0], [4, 5]], rest_length=0.7, stiffness=[1, 2, 3, 4, 5])
    forces = np.zeros_like(positions)
    per_spring = add_spring_forces(forces, positions, springs)
    assert np.allclose(forces.sum(axis=0), 0.0)  # internal forces: no net force
    gap = positions[springs.b] - positions[springs.a]
    length = np.linalg.norm(gap, axis=1)
    assert np.allclose(np.linalg.norm(per_spring, axis=1), springs.stiffness * np.abs(length - 0.7))
    # a stretched spring pulls a toward b
    stretched = length > 0.7
    assert np.all(np.einsum("ij,ij->i", per_spring[stretched], gap[stretched]) > 0)


def test_zero_length_spring_gives_no_force():
    springs = Springs.create([[0, 1]], rest_length=1.0, stiffness=10.0)
    assert np.array_equal(spring_forces(np.zeros((2, 2)), springs), np.zeros((1, 2)))


@pytest.mark.parametrize("dim", [2, 3])
def test_hooke_forces_is_one_law_whatever_the_batch(dim):
    """The one Hooke law: the analytic force, and the same bits for a spring whether it comes in a
    few (a Soda substep's path) or among many, in place or not."""
    rng = np.random.default_rng(8)
    gap = rng.normal(size=(200, dim)) * rng.uniform(0.01, 100.0, (200, 1))
    gap[3] = 0.0  # coincident ends: no direction, no force
    rest, k = rng.uniform(0.0, 5.0, 200), rng.uniform(0.1, 9.0, 200)
    many = hooke_forces(gap, rest, k)
    length = np.linalg.norm(gap, axis=1)
    fine = length > 0.0
    expected = (k * (length - rest))[fine, None] * gap[fine] / length[fine, None]
    np.testing.assert_allclose(many[fine], expected, rtol=1e-13, atol=1e-13)
    assert np.array_equal(many[3], np.zeros(dim)) and np.isfinite(many).all()
    for start in range(0, 200, 40):  # 40 springs at a time: the few-springs path
        part = slice(start, start + 40)
        assert np.array_equal(hooke_forces(gap[part], rest[part], k[part]), many[part])
        work = gap[part].copy()
        assert hooke_forces(work, rest[part], k[part], out=work) is work
        assert np.array_equal(work, many[part])
    # Rest length 0 (None): exactly k d, no square root; a scalar stiffness serves every spring.
    assert np.array_equal(hooke_forces(gap, None, k), gap * k[:, None])
    assert np.array_equal(hooke_forces(gap, None, 0.3), gap * 0.3)
    # Broken springs give no force.
    live = np.ones(200, dtype=bool)
    live[[5, 150]] = False
    cut = hooke_forces(gap, rest, k, live=live)
    assert not cut[[5, 150]].any() and np.array_equal(cut[live], many[live])


def test_hooke_forces_signs():
    d = np.array([[4.0, 0.0], [0.0, 2.0]])  # stretched past 3, squeezed below 3
    assert hooke_forces(d, 3.0, 2.0).tolist() == [[2.0, 0.0], [0.0, -2.0]]


def test_muscle_rest_length_is_sodas_formula():
    springs = Springs.create([[0, 1], [1, 2]], rest_length=[2.0, 3.0], amplitude=[0.5, 0.0], phase=[0.3, 1.0])
    got = muscle_rest_length(springs, wave_phase=0.2, wave_amplitude=0.15)
    assert np.allclose(got, [2.0 * (1 - np.sin(0.5) * 0.5 * 0.15), 3.0])


def test_fragile_spring_breaks_over_threshold_only():
    springs = Springs.create([[0, 1], [1, 2]], rest_length=1.0, stiffness=10.0, break_force=[5.0, 50.0])
    positions = np.array([[0.0, 0.0], [2.0, 0.0], [4.0, 0.0]])  # both stretched by 1: force 10
    f = spring_forces(positions, springs)
    broken = break_overloaded(springs, f)
    assert broken.tolist() == [True, False] and springs.alive.tolist() == [False, True]
    assert np.array_equal(spring_forces(positions, springs)[0], [0.0, 0.0])


def test_symplectic_euler_order_and_pinned():
    x = np.array([[0.0, 0.0], [1.0, 1.0]])
    v = np.array([[1.0, 0.0], [5.0, 5.0]])
    f = np.array([[0.0, 2.0], [9.0, 9.0]])
    symplectic_euler(x, v, f, np.array([0.5, 0.0]), 0.1, np.ones(2))
    assert np.allclose(v[0], [1.0, 0.1]) and np.allclose(x[0], [0.1, 0.01])  # x uses the new v
    assert np.array_equal(x[1], [1.0, 1.0]) and np.array_equal(v[1], [0.0, 0.0])


def test_free_fall_matches_symplectic_euler_closed_form():
    g, h, n = -9.81, 0.01, 100
    world = MassSpringWorld(Particles.create([[0.0, 10.0, 0.0]], mass=2.0), gravity=[0, g, 0], dt=h)
    for _ in range(n):
        world.step()
    # v_k = k g h; x_n = x0 + h^2 g n(n+1)/2
    assert np.isclose(world.particles.velocities[0, 1], n * g * h)
    assert np.isclose(world.particles.positions[0, 1], 10.0 + h * h * g * n * (n + 1) / 2)


def test_spring_oscillator_period_and_energy():
    k, m = 40.0, 0.5
    world = MassSpringWorld(Particles.create([[0.0, 0.0], [1.2, 0.0]], mass=[np.inf, m]),
                  Springs.create([[0, 1]], rest_length=1.0, stiffness=k), dt=1e-3)
    xs, energies = [], []
    for _ in range(3000):
        world.step()
        x = world.particles.positions[1, 0] - 1.0
        v = world.particles.velocities[1, 0]
        xs.append(x)
        energies.append(0.5 * m * v * v + 0.5 * k * x * x)
    xs = np.array(xs)
    crossings = np.flatnonzero((xs[:-1] > 0) & (xs[1:] <= 0))
    period = np.mean(np.diff(crossings)) * 1e-3
    assert period == pytest.approx(2 * np.pi * np.sqrt(m / k), rel=0.01)
    assert np.ptp(energies) / np.mean(energies) < 0.02  # symplectic: bounded energy error


def test_two_body_spring_conserves_momentum():
    world = MassSpringWorld(Particles.create([[0.0, 0.0, 0.0], [1.5, 0.3, -0.2]], [[0, 1, 0], [0.5, 0, 0]], mass=[1.0, 3.0]),
                  Springs.create([[0, 1]], rest_length=1.0, stiffness=25.0), dt=1 / 120, substeps=4)
    p0 = (world.particles.mass[:, None] * world.particles.velocities).sum(axis=0)
    for _ in range(200):
        world.step()
    p1 = (world.particles.mass[:, None] * world.particles.velocities).sum(axis=0)
    assert np.allclose(p0, p1, atol=1e-12)


def test_plane_reflects_with_restitution_and_projects_out():
    x = np.array([[0.0, -0.1], [1.0, 0.5]])
    v = np.array([[0.0, -2.0], [0.0, -2.0]])
    floor = Planes.floor(2, restitution=0.5, friction=0.0, bounce_threshold=1.0)
    touching = collide_planes(x, v, np.ones(2), floor)
    assert touching.tolist() == [True, False]
    assert np.allclose(x[0], [0.0, 0.0]) and np.allclose(v[0], [0.0, 1.0]) and np.allclose(v[1], [0.0, -2.0])


def test_slow_approach_does_not_bounce():
    x, v = np.array([[0.0, -0.01]]), np.array([[0.0, -0.2]])
    collide_planes(x, v, np.ones(1), Planes.floor(2, restitution=0.9, friction=0.0, bounce_threshold=0.5))
    assert np.array_equal(v, [[0.0, 0.0]])


def test_plane_friction_is_coulomb_and_never_reverses():
    x = np.array([[0.0, -0.01], [0.0, -0.01]])
    v = np.array([[3.0, -1.0], [0.1, -1.0]])
    collide_planes(x, v, np.ones(2), Planes.floor(2, restitution=0.0, friction=0.5))
    assert np.allclose(v[0], [2.5, 0.0])  # loses mu * |dv_n| = 0.5
    assert np.allclose(v[1], [0.0, 0.0])  # would reverse: stops instead


def test_a_particle_takes_its_grip_of_the_plane_friction():
    """mu = friction x grip: a particle with grip 0.4 on a floor of 0.5 slides on with 3 - 0.2 of
    its 3 m/s after stopping 1 m/s into it; one of grip 1 with 3 - 0.5, as with no grip given."""
    x = np.array([[0.0, -0.01], [0.0, -0.01], [0.0, -0.01]])
    v = np.array([[3.0, -1.0], [3.0, -1.0], [0.1, -1.0]])
    collide_planes(x, v, np.ones(3), Planes.floor(2, restitution=0.0, friction=0.5), grip=np.array([0.4, 1.0, 0.4]))
    assert np.allclose(v, [[2.8, 0.0], [2.5, 0.0], [0.0, 0.0]])  # and still never reversed


def test_ball_comes_to_rest_on_floor():
    world = MassSpringWorld(Particles.create([[0.0, 1.0, 0.0]], [[1.0, 0.0, 0.0]]), planes=Planes.floor(3, restitution=0.3, friction=0.6),
                  gravity=[0, -9.81, 0], dt=1 / 60, substeps=4)
    for _ in range(300):
        world.step()
    assert world.particles.positions[0, 1] == pytest.approx(0.0, abs=1e-9)
    assert np.linalg.norm(world.particles.velocities[0]) < 1e-6


def test_particles_validation_and_pinned_mass():
    p = Particles.create([[0, 0], [1, 1]], mass=[np.inf, 2.0])
    assert p.inv_mass.tolist() == [0.0, 0.5] and p.mass[1] == 2.0 and np.isinf(p.mass[0])
    with pytest.raises(ValueError):
        Particles.create([[0, 0, 0, 0]])
    with pytest.raises(ValueError):
        Particles.create([[0, 0]], mass=0.0)


def test_sparse_scatter_fast_path_equals_public_product(monkeypatch):
    """add_product uses scipy's private CSR kernel when it is there; the public product must give
    the same sums, should a scipy release move the kernel."""
    from slime.physics.mass_spring import scatter

    rng = np.random.default_rng(4)
    first, second = rng.integers(0, 50, size=300), rng.integers(0, 50, size=300)
    matrix = scatter.pair_incidence(first, second, 50)
    values = rng.normal(size=(300, 2))
    expected = np.zeros((50, 2))
    scatter_add(expected, first, values)
    scatter_add(expected, second, -values)
    fast = np.zeros((50, 2))
    scatter.add_product(fast, matrix, values)
    monkeypatch.setattr(scatter, "_csr_matvecs", None)
    public = np.zeros((50, 2))
    scatter.add_product(public, matrix, values)
    assert np.allclose(fast, expected) and np.allclose(public, expected)
