"""The membrane's step (``slime3d/membrane.py``): it carries the fastest waves at the substep the
body-wide terms set, agrees with the explicit step where both can carry the motion, moves no
momentum or angular momentum, takes no energy out, and leaves the substeps the same at every
resolution up to 128 x 128."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics.slime3d.membrane import RIPPLE_MARGIN, carry_membrane, ring_solve
from slime.physics.slime3d.materials import MATERIALS
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
from slime.physics.slime3d.slime_shape import SlimeShape

# 32 x 32 at 20 N/m: at 8 substeps a frame its polar rings' waves are past what the explicit step
# carries (h^2 omega^2 = 2.4 at the first ring), at 32 none is.
TENSE = dict(stacks=32, slices=32, surface_tension=20.0, gravity=(0.0, 0.0, 0.0), center=(0.0, 5.0, 0.0))


def test_the_ring_solve_is_the_ring_system_it_solves():
    rng = np.random.default_rng(1)
    for n, b in [(3, 0.2), (16, 7.0), (128, 30.0), (40, 1e6)]:
        right = rng.normal(size=(3, n))
        y = right.copy()
        ring_solve(y[0], y[1], y[2], b)
        back = (1.0 + 2.0 * b) * y - b * (np.roll(y, 1, axis=1) + np.roll(y, -1, axis=1))
        np.testing.assert_allclose(back, right, rtol=1e-10, atol=1e-10 * np.abs(right).max())


def _carried_jacobian_top(body, iterations=150):
    """The largest h^2 omega^2 of the substep's internal accelerations at the body's rest pose,
    carried as the step carries them: power iteration on their Jacobian (finite differences), no
    velocity (the viscosities read none)."""
    world = body.world
    h = body.substep_length
    rest = world.x.copy()
    rng = np.random.default_rng(3)
    mode = rng.normal(size=rest.shape)
    mode /= np.linalg.norm(mode)
    world.v[:] = 0.0
    top = 0.0
    eps = 1e-7
    for _ in range(iterations):
        world.x[:] = rest + eps * mode
        plus = world.accelerations(h, internal_only=True).copy()
        world.x[:] = rest - eps * mode
        minus = world.accelerations(h, internal_only=True).copy()
        pull = -(plus - minus) / (2.0 * eps)
        top = float(np.einsum("ij,ij->", pull, mode))
        mode = pull / np.linalg.norm(pull)
    world.x[:] = rest
    return h * h * top


def test_the_substep_carries_waves_the_explicit_step_could_not():
    # At 64 x 64 a jelly's fastest waves (round the first ring) have h^2 omega^2 = 3.2 at 8
    # substeps, past the explicit step's margin; carried, the fastest the step sees is within it
    # (plus the body-wide terms' own few hundredths).
    body = SlimeBody(SlimeParams(stacks=64, slices=64, gravity=(0.0, 0.0, 0.0), center=(0.0, 5.0, 0.0)))
    h = body.substep_length
    assert body.world.substeps == 8
    assert h * h * body.shape.ripple.max() > 3.0
    assert _carried_jacobian_top(body) < 1.1 * RIPPLE_MARGIN


def _squashed(substeps, **changes):
    """A floating tense slime squashed by a tenth along y, then let go: its positions about its
    centre after 0.25 s at ``substeps`` a frame."""
    body = SlimeBody(SlimeParams(**{**TENSE, **changes}, substeps=substeps))
    centre = body.centroid()
    body.positions[:, 1] = centre[1] + 0.9 * (body.positions[:, 1] - centre[1])
    for _ in range(15):
        body.step()
    return body.positions - body.centroid()


def test_carried_and_explicit_agree_where_both_carry_the_motion():
    # The squash rings at the shape's few hertz, long waves that both steps carry. At 8 substeps
    # the polar rings are carried, at 32 nothing is (the explicit step); they differ by no more
    # than the explicit step itself at 8 substeps differs from 32 for a mesh that needs nothing
    # carried (the tension at its default 2 N/m), the integrator's own error.
    carried = np.abs(_squashed(8) - _squashed(32)).max()
    explicit = np.abs(_squashed(8, surface_tension=2.0) - _squashed(32, surface_tension=2.0)).max()
    assert h2_top(8) > RIPPLE_MARGIN > h2_top(32)
    assert carried < 1.5 * explicit, (carried, explicit)


def h2_top(substeps):
    shape = SlimeShape(SlimeParams(**TENSE, substeps=substeps))
    h = shape.params.dt / max(substeps, shape.substeps_needed)
    return h * h * float(shape.ripple.max())


def test_the_carried_forces_move_no_momentum_or_angular_momentum():
    body = SlimeBody(SlimeParams(**TENSE, shear_stiffness=10.0))
    body.spike(0.02, seed=7)
    body.velocities[:] = np.random.default_rng(2).normal(0.0, 0.2, body.velocities.shape)
    assert np.abs(body.internal_forces()).max() < 0.5 * body.params.max_acceleration * body.mass.min()  # no bound
    forces = body.internal_forces()
    scale = np.abs(forces).sum()
    assert np.abs(forces.sum(axis=0)).max() < 1e-11 * scale
    torque = np.cross(body.positions - body.centroid(), forces).sum(axis=0)
    assert np.abs(torque).max() < 1e-6 * scale * body.params.radius


def _energy(body) -> float:
    """Kinetic energy, the tension's gamma A, the shape's 1/2 k_s sum m |x - goal|^2 and the
    pressure's -p_rest V + P (V0 - V)^2 / (2 V0): what the conservative forces' step keeps."""
    shape, prm = body.shape, body.params
    x = body.positions
    tri = body.triangles
    area = 0.5 * np.linalg.norm(np.cross(x[tri[:, 1]] - x[tri[:, 0]], x[tri[:, 2]] - x[tri[:, 0]]), axis=1).sum()
    goal = body.centroid() + shape.rest_offsets @ body.orientation().T
    shaped = 0.5 * prm.shape_stiffness * float(shape.mass @ np.sum((x - goal) ** 2, axis=1))
    volume, ideal = body.volume(), shape.ideal_volume
    pressure = -shape.rest_pressure * volume + shape.pressure_scale * (ideal - volume) ** 2 / (2.0 * ideal)
    return body.kinetic_energy() + shape.tension * area + shaped + pressure


def test_the_carried_step_takes_no_energy_out():
    # Every viscosity and the drag off, no shear stiffness (its pull on uneven masses is not a
    # potential's): a tense slime set ringing in every wave the mesh carries keeps its energy
    # through 2 s of carried substeps (a symplectic step's bounded swing of its fast waves' share,
    # no decay), where a backward Euler step would damp the fast waves away; with its viscosity it
    # loses it. (Small waves: the undamped tension crumples a mesh with no shear stiffness in any
    # step, explicit too, once the triangles' own shape changes.)
    still = dict(viscosity=0.0, shear_viscosity=0.0, air_drag=0.0, shear_stiffness=0.0)
    body = SlimeBody(SlimeParams(**TENSE, **still))
    rest = _energy(body)
    body.spike(0.0005, seed=3)
    start = _energy(body) - rest
    kept = []
    for _ in range(120):
        body.step()
        kept.append((_energy(body) - rest) / start)
    assert body.recoveries == 0
    assert 0.8 < min(kept) and max(kept) < 1.3, (min(kept), max(kept))
    damped = SlimeBody(SlimeParams(**TENSE, **{**still, "viscosity": 4.0}))
    damped.spike(0.0005, seed=3)
    for _ in range(120):
        damped.step()
    assert _energy(damped) - rest < 0.5 * start


@pytest.mark.slow
@pytest.mark.parametrize("material", list(MATERIALS))
def test_every_material_takes_the_same_substeps_up_to_128(material):
    counts = {n: SlimeBody(SlimeParams.of_material(material, stacks=n, slices=n)).world.substeps
              for n in (16, 32, 64, 128)}
    assert set(counts.values()) == {8}, counts


def test_carrying_nothing_leaves_the_explicit_acceleration():
    # Below the margin the membrane's step is the explicit one, bit for bit.
    shape = SlimeShape(SlimeParams(stacks=16, slices=16))
    h = shape.params.dt / 8
    assert (h * h * shape.ripple).max() < RIPPLE_MARGIN
    acc = np.random.default_rng(5).normal(size=(3, shape.count))
    carried = acc.copy()
    carry_membrane(carried, shape.mass, shape.ripple, 16, 16, h)
    np.testing.assert_array_equal(carried, acc)
