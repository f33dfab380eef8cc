"""The slime's compiled forces (``slime/physics/slime3d``) hold the physics: their gradients are the
derivatives of what they are gradients of, the internal forces move neither momentum nor angular
momentum, the shear viscosity damps ripples and not the wobble, bodies of a world do not reach
each other through the kernels, and the same source run uncompiled gives the same numbers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from slime.physics.slime3d.membrane import carry_membrane
from slime.physics.slime3d.moments import body_moments, internal_part_into, inverse_inertia
from slime.physics.slime3d.shape_matching import best_rotation
from slime.physics.slime3d.shear import add_shear
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
from slime.mesh import mesh_volume
from slime.physics.slime3d.world3d import World3D


def _area(points, triangles) -> float:
    n = np.cross(points[triangles[:, 1]] - points[triangles[:, 0]], points[triangles[:, 2]] - points[triangles[:, 0]])
    return 0.5 * float(np.linalg.norm(n, axis=1).sum())


def _deformed(stacks, slices, seed=4) -> SlimeBody:
    body = SlimeBody(SlimeParams(stacks=stacks, slices=slices))
    body.spike(0.3, seed=seed)
    return body


@pytest.mark.parametrize("stacks, slices", [(3, 3), (4, 3), (5, 8), (10, 12), (17, 6), (40, 64)])  # (40, 64): three blocks of rings
def test_volume_and_area_gradients_are_the_derivatives_of_the_mesh_volume_and_area(stacks, slices):
    body = _deformed(stacks, slices)
    x, tri = body.positions.copy(), body.triangles
    grad_volume, grad_area = body.surface_gradients()
    rng = np.random.default_rng(stacks * 100 + slices)
    eps = 1e-6
    for _ in range(6):  # central differences along random directions, poles included
        d = rng.normal(size=x.shape)
        numeric_v = (mesh_volume(x + eps * d, tri) - mesh_volume(x - eps * d, tri)) / (2 * eps)
        numeric_a = (_area(x + eps * d, tri) - _area(x - eps * d, tri)) / (2 * eps)
        assert numeric_v == pytest.approx(np.einsum("ij,ij->", grad_volume, d), rel=1e-6)
        assert numeric_a == pytest.approx(np.einsum("ij,ij->", grad_area, d), rel=1e-6)
    # And the volume the pressure acts on is the mesh's own.
    assert body.volume() == pytest.approx(mesh_volume(x, tri), rel=1e-12)


def test_every_internal_force_moves_no_momentum_and_no_angular_momentum():
    rng = np.random.default_rng(2)
    base = dict(stacks=14, slices=11, gravity=(0.0, 0.0, 0.0), center=(0.0, 40.0, 0.0))
    none = dict(shape_stiffness=0.0, volume_stiffness=0.0, viscosity=0.0, surface_tension=0.0, shear_viscosity=0.0,
                shear_stiffness=0.0)
    alone = {name: {**none, field: value} for name, field, value in [
        ("shape", "shape_stiffness", 450.0), ("pressure", "volume_stiffness", 10000.0),
        ("tension", "surface_tension", 2.0), ("viscosity", "viscosity", 4.0),
        ("shear viscosity", "shear_viscosity", 0.12), ("shear stiffness", "shear_stiffness", 2.0)]}
    alone["all"] = {}
    for name, only in alone.items():
        body = SlimeBody(SlimeParams(**base, **only))
        body.spike(0.25, seed=3)
        body.velocities[:] = rng.normal(0.0, 2.0, body.velocities.shape)
        forces = body.internal_forces()
        scale = np.abs(forces).sum()
        assert scale > 0.0, name
        assert np.abs(forces.sum(axis=0)).max() < 1e-11 * scale, name
        torque = np.cross(body.positions - body.centroid(), forces).sum(axis=0)
        # The viscosities read the spin through an inertia raised by a millionth of the rest one
        # (``inertia_floor``, so that a collapsed body has one): a torque of that order is left.
        assert np.abs(torque).max() < 1e-6 * scale * body.params.radius, name


def _shear_of(body, v, stiffness, viscosity, displaced=None):
    """The shear's acceleration (3, P) of a floating body with velocities ``v`` (3, P), its
    vertices ``displaced`` (3, P) from their goals, as the step adds it: ``add_shear``'s, carried
    by the membrane's step, its rigid part taken out; checked to move no momentum or angular
    momentum."""
    world = body.world
    count, h = body.shape.count, body.substep_length
    rest = world.model.rest
    x = world.x + (0.0 if displaced is None else displaced)
    m = world.mass
    centre, velocity, _, covariance, second, spin = body_moments(x, v, m, rest, 0, count)
    rotation = best_rotation(covariance, np.eye(3))
    inverse = inverse_inertia(second, body.inertia_floor)
    acc = np.zeros_like(x)
    membrane, d, u = (np.zeros_like(x) for _ in range(3))
    stacks, slices = body.shape.stacks, body.shape.slices
    add_shear(membrane, x, v, rest, 0, stacks, slices, centre, rotation, velocity, inverse @ spin,
              stiffness, viscosity, h, d, u)
    carry_membrane(membrane, m, world.model.ripple, stacks, slices, h)
    internal_part_into(acc, membrane, m, x, 0, count, centre, inverse)
    forces = m * acc
    assert np.abs(forces.sum(axis=1)).max() < 1e-9 * np.abs(forces).max()
    torque = np.cross((x.T - centre), forces.T).sum(axis=0)
    assert np.abs(torque).max() < 1e-9 * np.abs(forces).max()
    return acc


def _floating_modes():
    body = SlimeBody(SlimeParams(stacks=24, slices=24, gravity=(0.0, 0.0, 0.0), center=(0.0, 50.0, 0.0)))
    count = body.shape.count
    # (3, P) in the world's own layout, so the kernels run as compiled for it (no second copy).
    unit = np.ascontiguousarray((body.rest_offsets / np.linalg.norm(body.rest_offsets, axis=1, keepdims=True)).T)
    ripple = unit * np.where(np.arange(count) % 2 == 0, 1.0, -1.0)  # neighbours against each other
    breathing = unit.copy()  # the whole body swelling: a wavelength of the diameter
    return body, ripple, breathing


def test_shear_viscosity_damps_ripples_not_the_wobble_and_is_stable_at_any_viscosity():
    body, ripple, breathing = _floating_modes()
    h = body.substep_length

    def relative_decay(v, viscosity):
        acc = _shear_of(body, v, 0.0, viscosity)
        return float(-np.einsum("ij,ij->", acc * h, v) / np.einsum("ij,ij->", v, v))

    nu = body.params.shear_viscosity
    assert relative_decay(ripple, nu) > 50.0 * relative_decay(breathing, nu)
    # Stable at any viscosity: the fastest mode loses at most all of itself, never flips sign.
    for viscosity in (nu, 1e3, 1e9):
        assert 0.0 < relative_decay(ripple, viscosity) <= 1.0 + 1e-9


def test_shear_stiffness_springs_ripples_back_not_the_wobble_and_its_substeps_hold_the_fastest():
    body, ripple, breathing = _floating_modes()
    c2 = body.params.shear_stiffness
    zero = np.zeros_like(ripple)

    def omega_squared(mode):
        """The restoring acceleration per unit displacement along ``mode`` (1/s^2)."""
        acc = _shear_of(body, zero, c2, 0.0, displaced=1e-4 * mode)
        return float(-np.einsum("ij,ij->", acc, mode) / (1e-4 * np.einsum("ij,ij->", mode, mode)))

    ripple_w2, breathing_w2 = omega_squared(ripple), omega_squared(breathing)
    # A crumple between neighbours springs back hundreds of times harder than the body swells
    # (at 24 x 24: 995 1/s^2 against 4).
    assert ripple_w2 > 100.0 * breathing_w2 > 0.0
    # Breathing (l = 0) is held by the pressure, not by shear: a few 1/s^2 at most against the
    # shape's 500 (an l = 2 wobble feels c^2 l (l + 1) / R^2 = 12 of them).
    assert breathing_w2 < 0.01 * body.params.shape_stiffness
    # The substep carries the fastest ripple within its margin (``membrane.RIPPLE_MARGIN``).
    assert body.substep_length ** 2 * ripple_w2 < 1.0


def test_the_bodies_of_a_world_feel_only_their_own_forces():
    # Three bodies of three resolutions side by side: each one's accelerations are those it has alone.
    specs = [dict(stacks=9, slices=7, radius=0.4), dict(stacks=12, slices=16, radius=0.7, viscosity=8.0),
             dict(stacks=5, slices=5, radius=0.3, shape_stiffness=900.0)]
    rng = np.random.default_rng(11)
    world = World3D()
    for k, spec in enumerate(specs):
        world.add_slime(SlimeParams(center=(3.0 * k, 2.0, 0.0), **spec))
    world.x[:] += rng.normal(0.0, 0.02, world.x.shape)
    world.v[:] += rng.normal(0.0, 0.5, world.v.shape)
    together = world.accelerations(world.dt / world.substeps).copy()
    for k, body in enumerate(world.bodies):
        alone = World3D()
        alone.add_slime(body.params)
        alone.x[:] = world.x[:, body.start : body.stop]
        alone.v[:] = world.v[:, body.start : body.stop]
        np.testing.assert_array_equal(alone.accelerations(world.dt / world.substeps), together[:, body.start : body.stop])


# The same run compiled and as plain Python (numba's own switch), compared to 1e-9: a slime tense
# and stiff enough for its frame that the membrane's step carries its rings and poles.
_RUN = """
import json, sys
import numpy as np
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
body = SlimeBody(SlimeParams(stacks=8, slices=16, surface_tension=20.0, shear_stiffness=50.0, dt=0.1))
for tick in range(30):
    if tick == 5:
        body.poke(body.centroid() + [0.3, 1.0, 0.0], [6.0, -50.0, 0.0])
    body.step()
print(json.dumps(body.positions.tolist()))
"""


def _positions_run(disable_jit: bool) -> np.ndarray:
    env = dict(os.environ)
    env["NUMBA_DISABLE_JIT"] = "1" if disable_jit else "0"
    run = subprocess.run([sys.executable, "-c", _RUN], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return np.array(json.loads(run.stdout))


@pytest.mark.slow
def test_the_same_source_runs_uncompiled_with_the_same_numbers():
    compiled, plain = _positions_run(False), _positions_run(True)
    assert not np.array_equal(compiled, SlimeBody(SlimeParams(stacks=8, slices=16)).positions)  # it moved
    np.testing.assert_allclose(plain, compiled, rtol=1e-9, atol=1e-9 * np.abs(compiled).max())


@pytest.mark.parametrize("state", ["huge", "nan", "inf velocity", "flat", "point", "line", "mirrored"])
def test_absurd_states_never_raise_in_a_kernel_and_come_out_finite(state):
    # What the kernels may be handed between frames (a state written from outside): each step
    # returns finite numbers, and the health check recovers what no force could make.
    body = SlimeBody(SlimeParams(stacks=8, slices=9))
    x, v = body.positions, body.velocities
    if state == "huge":
        x *= 1e300
    elif state == "nan":
        x[5] = np.nan
    elif state == "inf velocity":
        v[3] = np.inf
    elif state == "flat":
        x[:, 1] = 1.0
    elif state == "point":
        x[:] = 1.0
    elif state == "line":
        x[:, 0] = x[:, 2] = 0.0
    else:
        x[:, 0] = -x[:, 0]  # turned inside out
    for _ in range(3):
        body.step()
        assert np.isfinite(body.positions).all() and np.isfinite(body.velocities).all()
    assert np.isfinite(body.volume())
