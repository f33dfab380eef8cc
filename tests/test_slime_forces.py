"""The fast slime body computes the same forces as the plain, readable ``slime_forces`` module."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics.slime_body import SlimeBody, SlimeParams
from slime.physics.slime_forces import (
    add_internal_viscosity,
    add_shape_restoring,
    add_volume_pressure,
    best_fit_rotation,
    rigid_velocity,
    slime_forces,
)


def _states():
    """Five bodies, each in its own state (a fresh body for each case, so no case sees another's)."""

    def falling():
        return SlimeBody(SlimeParams(stacks=12, slices=14))

    def resting():
        body = falling()
        for _ in range(40):
            body.step()
        return body

    def poked():
        body = resting()
        body.poke((0.0, 2.0, 0.0), (0.0, -300.0, 0.0))
        body.step()
        return body

    def turned_and_shaken():
        body = poked()
        body.velocities[:] += np.random.default_rng(7).normal(scale=0.5, size=body.velocities.shape)
        angle = 0.7
        turn = np.array([[np.cos(angle), -np.sin(angle), 0.0], [np.sin(angle), np.cos(angle), 0.0], [0.0, 0.0, 1.0]])
        c = body.centroid()
        body.positions[:] = (body.positions - c) @ turn.T + c + [0.0, 1.0, 0.0]
        return body

    def spiked():
        body = turned_and_shaken()
        body.spike(0.2, seed=3)
        return body

    for make in (falling, resting, poked, turned_and_shaken, spiked):
        yield make.__name__.replace("_", " "), make()


@pytest.mark.parametrize("name, body", list(_states()), ids=lambda v: v if isinstance(v, str) else "")
def test_fast_path_equals_plain_forces(name, body):
    h = body.params.substep_dt
    for _ in range(3):  # the fast path tracks the rotation iteratively from substep to substep
        body._accelerations(h)
    fast = body._accelerations(h).T * body.mass[:, None]
    plain = slime_forces(body, h)
    scale = np.abs(plain).max()
    assert np.allclose(fast, plain, rtol=1e-3, atol=2e-4 * scale), np.abs(fast - plain).max() / scale


def test_internal_forces_agree_and_sum_to_zero():
    body = SlimeBody(SlimeParams(stacks=10, slices=12))
    body.spike(0.3, seed=1)
    body.velocities[:] = np.random.default_rng(2).normal(size=body.velocities.shape)
    plain = slime_forces(body, body.params.substep_dt, internal_only=True)
    assert np.allclose(plain.sum(axis=0), 0.0, atol=1e-9 * np.abs(plain).max())
    fast = body.internal_forces()
    assert np.allclose(fast, plain, rtol=1e-3, atol=2e-4 * np.abs(plain).max())


def test_each_plain_force_does_what_it_says():
    body = SlimeBody(SlimeParams(stacks=10, slices=12))
    x, m = body.positions.copy(), body.mass
    # squeezed to 90 % size: the pressure pushes outward everywhere
    c = body.centroid()
    small = c + 0.9 * (x - c)
    f = np.zeros_like(x)
    volume = add_volume_pressure(f, small, body.triangles, m, body.ideal_volume, body.pressure_scale, body.rest_spread)
    assert volume == pytest.approx(0.729 * body.ideal_volume)
    assert np.all(np.einsum("ij,ij->i", f, small - c) > 0)
    # turned rigidly: shape matching finds the turn and pulls nowhere
    turn = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    turned = (x - c) @ turn.T + c
    rotation = best_fit_rotation(turned, m, body.rest_offsets)
    assert np.allclose(rotation, turn, atol=1e-9)
    f = np.zeros_like(x)
    add_shape_restoring(f, turned, m, body.rest_offsets, 100.0, rotation)
    assert np.abs(f).max() < 1e-9
    # spinning rigidly: the viscosity sees no relative motion
    omega = np.array([0.3, -1.2, 0.5])
    v = np.cross(omega, x - c) + [1.0, 2.0, 3.0]
    assert np.allclose(rigid_velocity(x, v, m, 0.0), v)
    f = np.zeros_like(x)
    add_internal_viscosity(f, v, m, rigid_velocity(x, v, m, 0.0), 10.0)
    assert np.abs(f).max() < 1e-9


# ---------------------------------------------------------------- plain_forces: the readable file drives the body


def _scripted(params: SlimeParams, frames: int = 90) -> SlimeBody:
    body = SlimeBody(params)
    for k in range(frames):
        if k == 20:
            body.poke(body.centroid() + [0.6, 0.8, 0.0], [-120.0, -60.0, 0.0])
        if k == 40:
            body.grab(body.centroid() + [0.0, 1.0, 0.0])
        if 40 <= k < 60:
            body.drag_to(body.centroid() + [0.5, 1.5, 0.0])
        if k == 60:
            body.release()
        body.step()
    return body


def test_plain_forces_mode_moves_the_body_like_the_fast_path():
    small = SlimeParams(stacks=12, slices=14)
    fast = _scripted(small)
    slow = _scripted(small.with_(plain_forces=True))
    # Same physics by two codes (float32 vs float64, tracked vs fresh rotation): over a poke, a
    # grab and a release of 1.5 s the two bodies stay within a few millimetres of each other (the
    # stiffer skin and shape amplify float32 rounding a little more than they used to).
    assert np.abs(slow.positions - fast.positions).max() < 3e-3
    assert slow.recoveries == 0 and np.isfinite(slow.positions).all()
    assert slow.volume() == pytest.approx(slow.ideal_volume, rel=0.02)
    np.testing.assert_allclose(slow.orientation(), fast.orientation(), atol=3e-3)


def test_plain_forces_mode_runs_the_edited_function(monkeypatch):
    # What a student does: change a force in slime_forces.py and run with plain_forces. Here the
    # shape force is switched off, and the volume force doubled: the body must move differently.
    import slime.physics.slime_forces as module

    params = SlimeParams(stacks=12, slices=14, plain_forces=True)
    before = _scripted(params, frames=40).positions.copy()
    monkeypatch.setattr(module, "add_shape_restoring", lambda *a, **k: None)
    after = _scripted(params, frames=40)
    assert np.abs(after.positions - before).max() > 1e-2
    # The fast path does not read the file, so it is unaffected by the edit.
    np.testing.assert_array_equal(
        _scripted(params.with_(plain_forces=False), frames=40).positions,
        _scripted(SlimeParams(stacks=12, slices=14), frames=40).positions,
    )


def test_plain_forces_mode_survives_a_broken_force(monkeypatch):
    import slime.physics.slime_forces as module

    def broken(forces, *args, **kwargs):
        forces[0] = np.nan
        forces[1] = np.inf
        return 1.0

    monkeypatch.setattr(module, "add_volume_pressure", broken)
    body = _scripted(SlimeParams(stacks=12, slices=14, plain_forces=True), frames=30)
    assert np.isfinite(body.positions).all() and np.isfinite(body.velocities).all()


def test_plain_forces_param_is_validated_and_switchable():
    with pytest.raises(ValueError, match="plain_forces"):
        SlimeParams(plain_forces="yes")
    body = SlimeBody(SlimeParams(stacks=12, slices=14))
    for _ in range(10):
        body.step()
    body.set_params(plain_forces=True)
    for _ in range(10):
        body.step()
    body.set_params(plain_forces=False)
    for _ in range(30):
        body.step()
    assert body.recoveries == 0
    assert body.volume() == pytest.approx(body.ideal_volume, rel=0.02)
