"""The membrane's implicit step (``slime3d/membrane.py``): exact for what it solves, stable for the
fastest ripple at a substep the explicit step cannot take, and the explicit step's own answer on
the long waves and at a substep both can take."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics.slime3d.membrane import periodic_solve
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams


def test_periodic_solve_inverts_its_ring_operator():
    rng = np.random.default_rng(1)
    for a, n in [(0.3, 17), (3.7, 64), (5.0e4, 128)]:
        r = rng.normal(size=(3, n))
        y = r.copy()
        periodic_solve(y[0], y[1], y[2], a)
        back = (1.0 + 2.0 * a) * y - a * (np.roll(y, 1, axis=1) + np.roll(y, -1, axis=1))
        np.testing.assert_allclose(back, r, rtol=0.0, atol=1e-9 * np.abs(r).max())
    r = rng.normal(size=(3, 9))
    y = r.copy()
    periodic_solve(y[0], y[1], y[2], 0.0)  # no stiffness: nothing to solve
    np.testing.assert_array_equal(y, r)


def _floating(size: int, **changes) -> SlimeBody:
    return SlimeBody(SlimeParams(stacks=size, slices=size, gravity=(0.0, 0.0, 0.0), center=(0.0, 50.0, 0.0),
                                 **changes))


def explicit(body: SlimeBody) -> None:
    """The same step with the membrane solve left out: no ripple stiffness, P = I (for a body of
    no shear viscosity, which the solve would take implicitly too)."""
    world = body.world
    assert not world.model.shear_viscosity.any()
    world.model = world.model._replace(ripple=np.zeros_like(world.model.ripple))


def _omega_squared(body: SlimeBody, mode: np.ndarray, h: float) -> float:
    """The restoring acceleration per unit displacement along ``mode`` (3, P) (1/s^2), as the
    step of length h applies it."""
    world = body.world
    rest = world.x.copy()
    amplitude = 1e-5
    world.x[:] = rest + amplitude * mode
    world.v[:] = 0.0
    moved = world.accelerations(h, internal_only=True).copy()
    world.x[:] = rest
    still = world.accelerations(h, internal_only=True).copy()
    return float(-np.einsum("ij,ij->", moved - still, mode) / (amplitude * np.einsum("ij,ij->", mode, mode)))


def _modes(body: SlimeBody):
    n = body.shape.slices
    unit = np.ascontiguousarray((body.rest_offsets / np.linalg.norm(body.rest_offsets, axis=1, keepdims=True)).T)
    ring, column = np.divmod(np.arange(body.shape.count) - 1, n)
    sign = np.where((ring + column) % 2 == 0, 1.0, -1.0)  # every vertex against its four neighbours
    sign[[0, -1]] = 0.0
    ripple = unit * sign
    offsets = body.rest_offsets
    wobble = np.ascontiguousarray((offsets * [1.0, -1.0, 0.0]).T)  # l = 2: squashed one way, stretched the other
    return ripple, wobble


@pytest.mark.parametrize("size, tension", [(64, 20.0), pytest.param(128, 2.0, marks=pytest.mark.slow)])
def test_the_fastest_ripple_is_stable_at_the_frames_substep_and_the_wobble_as_explicit(size, tension):
    body = _floating(size, surface_tension=tension, shear_stiffness=10.0, shear_viscosity=0.0)
    h = body.substep_length
    assert body.world.substeps == 8  # the body-wide terms' count, whatever the skin
    ripple, wobble = _modes(body)
    implicit_ripple, implicit_wobble = _omega_squared(body, ripple, h), _omega_squared(body, wobble, h)
    explicit(body)
    explicit_ripple, explicit_wobble = _omega_squared(body, ripple, h), _omega_squared(body, wobble, h)
    # Explicitly this ripple would grow without bound at this substep (h^2 omega^2 past 4)...
    assert h * h * explicit_ripple > 4.0
    # ... the implicit step takes it inside the bound, still springing back (a restoring force).
    assert 0.0 < h * h * implicit_ripple < 2.0
    # The wobble, a wave of the body's size, is the explicit step's to a part in a thousand.
    assert implicit_wobble == pytest.approx(explicit_wobble, rel=1e-3)


def _run(substeps: int, implicit: bool) -> np.ndarray:
    body = _floating(24, substeps=substeps, shear_viscosity=0.0)
    if not implicit:
        explicit(body)
    top = body.positions[np.argmax(body.positions[:, 1])].copy()
    body.poke(top, [30.0, -120.0, 0.0])
    for _ in range(10):
        body.step()
    return body.positions - body.centroid()


def test_the_implicit_step_agrees_with_the_explicit_one_where_both_are_stable():
    # 40 substeps a frame at 24 x 24 carry the explicit membrane (it needs 8). After a poke both
    # steps near the motion the explicit one makes at 320 substeps, each within its own error: a
    # first-order step's error is about twice what it moves when its substep is halved
    # (Richardson), and halves with the substep. The implicit one's is the larger: backward
    # Euler damps a wave of h omega at about h omega^2 / 2 a second, where the symplectic step
    # keeps it.
    reference = _run(320, False)
    for implicit in (True, False):
        coarse, fine = _run(40, implicit), _run(80, implicit)
        error, own = np.abs(coarse - reference).max(), 2.0 * np.abs(coarse - fine).max()
        assert 0.0 < error < 1.2 * own, implicit
        assert np.abs(fine - reference).max() < 0.6 * error, implicit
