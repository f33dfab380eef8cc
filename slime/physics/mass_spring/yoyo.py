"""The Spring simulation article's spring step (the "yo-yo"), on the engine's particle arrays.

The Spring simulation article works in pixels per frame and never multiplies by a time step. Per bob and frame:

    force        = stiffness * gap                      (gap = anchor - location; rest length 0)
                 = stiffness * (|gap| - L) * unit(gap)  (with a natural (rest) length L)
    acceleration = force / mass        (or force itself when the mass is switched off)
    velocity    += acceleration
    velocity    *= damping             (0..1: the fraction of velocity kept, not a viscous d)
    velocity    += gravity             (gravity goes on after the damping, as in the Spring simulation article)
    location    += velocity

The damping is the engine's ``Particles.velocity_scale``; the location and velocity are
``Particles.positions`` and ``velocities``. The operations are done in the article's order so the
printed 1D sequences come out bit for bit. The spring force is the engine's one Hooke law
(springs.hooke_forces), whose rest-length-0 springs are exactly stiffness * gap.
"""

from __future__ import annotations

import numpy as np

from slime.physics.mass_spring.particles import Particles
from slime.physics.compiled import kernel
from slime.physics.mass_spring.springs import hooke_forces, hooke_scale


def ruby_round(x) -> np.ndarray:
    """Round half away from zero (Ruby's Float#round), not half to even (Python's round).

    ``x - trunc(x)`` is exact in floating point, so the half test never misfires near .5.
    """
    x = np.asarray(x, dtype=np.float64)
    whole = np.trunc(x)
    return whole + np.where(np.abs(x - whole) >= 0.5, np.sign(x), 0.0)


def spring_pull(location: np.ndarray, anchor: np.ndarray, stiffness: float, rest_length: float = 0.0,
                natural: bool = False) -> np.ndarray:
    """The Spring simulation article's spring force on bobs at ``location`` (M, D) or (D,) toward
    ``anchor`` (M, D) or (D,): slime's one Hooke law (springs.hooke_forces).

    Without ``natural`` the spring has rest length 0 and the force is exactly stiffness * gap (no
    square root, as the Spring simulation article optimises: its printed sequences are these
    bits). With it, the stretch beyond ``rest_length`` along the unit gap; a zero gap has no
    direction and gives no force (the article's normalize_or_zero).
    """
    gap = np.asarray(anchor, dtype=np.float64) - location
    rows = gap.reshape(-1, gap.shape[-1])
    hooke_forces(rows, rest_length if natural else None, stiffness, out=rows)
    return gap


def yoyo_integrate(positions: np.ndarray, velocities: np.ndarray, acceleration: np.ndarray,
                   damping, gravity=None) -> None:
    """velocity += acceleration; velocity *= damping; velocity += gravity; location += velocity, in place.

    ``damping`` is per particle (M,) or a scalar; arrays may be row views of the particles.
    """
    damping = np.asarray(damping, dtype=np.float64)
    velocities += acceleration
    velocities *= damping[..., None] if damping.ndim else damping
    if gravity is not None:
        velocities += gravity
    positions += velocities


def yoyo_step(particles: Particles, force: np.ndarray, use_mass: bool = True, gravity=None,
              rows=slice(None)) -> None:
    """One frame of the Spring simulation article for ``particles[rows]`` under ``force`` (rows, D).

    ``use_mass`` divides the force by the mass (the article's mass mode); otherwise the force is the
    acceleration. Pinned particles (inv_mass 0) stay where they are.
    """
    p = particles
    inv_mass = p.inv_mass[rows]
    if use_mass:
        # The Spring simulation article divides by the mass; force / m is not always bit-equal to force * (1/m).
        acceleration = force / p.mass[rows][..., None]
    else:
        acceleration = np.array(force, dtype=np.float64)
    pos, vel = p.positions[rows], p.velocities[rows]
    pinned = inv_mass == 0.0
    yoyo_integrate(pos, vel, acceleration, p.velocity_scale[rows], gravity)
    if np.any(pinned):
        vel[pinned] = 0.0
    p.positions[rows], p.velocities[rows] = pos, vel  # no-op for views, needed for fancy rows


# The printed experiments: (stiffness, damping, keeps inertia). "approach" moves a fixed fraction of
# the gap each frame (no velocity carried over); "bounce" carries the velocity undamped.
YOYO_MODELS = {
    "approach": (0.2, 1.0, False),
    "bounce": (0.2, 1.0, True),
    "damped": (0.2, 0.93, True),
    "refactored": (0.2, 0.93, True),  # the same numbers, written with named stiffness/damping/mass
}


def yoyo_run(model: str, frames: int = 70, hand: float = 5.0, start: float = 1.0) -> np.ndarray:
    """The 1D yo-yo of the Spring simulation article run on a one-particle 2D engine state (y stays 0); returns the
    x location after each frame."""
    stiffness, damping, inertia = YOYO_MODELS[model]
    yoyo = Particles.create([[start, 0.0]], mass=1.0, velocity_scale=damping)
    anchor = np.array([hand, 0.0])
    out = np.empty(frames)
    for frame in range(frames):
        if not inertia:
            yoyo.velocities[:] = 0.0  # each frame starts from rest: a pure fraction-of-the-gap move
        force = spring_pull(yoyo.positions, anchor, stiffness)
        yoyo_step(yoyo, force, use_mass=(model == "refactored"))
        out[frame] = yoyo.positions[0, 0]
    return out


def yoyo_digits(model: str, frames: int = 70) -> str:
    """The digit string the Spring simulation article prints: each frame's location rounded half away from zero."""
    return "".join(str(int(v)) for v in ruby_round(yoyo_run(model, frames)))


def chain_step(
    particles: Particles,
    parent: np.ndarray,
    child: np.ndarray,
    stiffness: float,
    rest_length: float,
    natural: bool,
    use_mass: bool,
    pull_parent: bool,
    pull_child: bool,
    anchor=None,
    wind=None,
    gravity=None,
    speed_limit: float | None = None,
) -> int:
    """One frame of the Spring simulation article's bob chain, in the article's order, in place.

    ``parent``/``child`` hold each bob's neighbour index or -1. Bob 0 is also pulled toward
    ``anchor`` (the mouse) when one is given; ``wind`` is a constant force on every bob.

    Why a loop over bobs: the Spring simulation article updates bob after bob, and each bob's springs read the
    locations of its neighbours as they are at that moment -- the parent has already moved this
    frame, the child has not (and in a ring, bob 0's parent, the last bob, has not; the last bob's
    child, bob 0, has). This Gauss-Seidel order changes the motion (it is what makes a long chain
    trail behind the mouse), and in natural-length mode the update is non-linear in the parent's
    new location, so no array-wide formula reproduces it. A chain has tens of bobs, each a handful
    of operations on 2-vectors: the loop is compiled (``_chain_frame``), one call a frame.

    ``speed_limit`` (pixels per frame, None for none) caps each bob's speed before it moves; see
    :func:`cap_speed` for why the chain needs it. Returns how many bobs the cap slowed.
    """
    p = particles
    dim = p.dim
    vector = lambda value: np.zeros(dim) if value is None else np.asarray(value, dtype=np.float64).reshape(dim)  # noqa: E731
    return _chain_frame(p.positions, p.velocities, np.ascontiguousarray(p.mass, dtype=np.float64),
                        np.ascontiguousarray(p.velocity_scale, dtype=np.float64), p.inv_mass > 0.0,
                        np.asarray(parent, dtype=np.int64), np.asarray(child, dtype=np.int64), float(stiffness),
                        float(rest_length), bool(natural), bool(use_mass), bool(pull_parent), bool(pull_child),
                        anchor is not None, vector(anchor), vector(wind), vector(gravity),
                        np.inf if speed_limit is None else float(speed_limit))


@kernel
def _pull(acc, x, k, target, stiffness, rest_length, natural, mass, use_mass):
    """Add bob k's spring pull toward the point ``target`` (D,) to ``acc``: the one Hooke law
    (``springs.hooke_scale``), or exactly k * gap for rest length 0, divided by the bob's mass as
    it arrives in mass mode."""
    if natural:
        length = 0.0
        for d in range(acc.shape[0]):
            gap = target[d] - x[k, d]
            length += gap * gap
        scale = hooke_scale(np.sqrt(length), rest_length, stiffness)
    else:
        scale = stiffness
    for d in range(acc.shape[0]):
        force = (target[d] - x[k, d]) * scale
        acc[d] += force / mass if use_mass else force


@kernel
def _chain_frame(x, v, mass, damping, has_mass, parent, child, stiffness, rest_length, natural, use_mass, pull_parent,
                 pull_child, anchored, anchor, wind, gravity, speed_limit):
    """``chain_step``'s frame, bob after bob: what reaches the bob, then the velocity with its
    damping, gravity and the cap, then the location."""
    capped = 0
    acc = np.empty(x.shape[1])
    for k in range(x.shape[0]):
        if not has_mass[k]:
            continue
        for d in range(acc.shape[0]):
            acc[d] = 0.0
        if anchored and k == 0:
            _pull(acc, x, k, anchor, stiffness, rest_length, natural, mass[k], use_mass)
        if pull_parent and parent[k] >= 0:
            _pull(acc, x, k, x[parent[k]], stiffness, rest_length, natural, mass[k], use_mass)
        if pull_child and child[k] >= 0:
            _pull(acc, x, k, x[child[k]], stiffness, rest_length, natural, mass[k], use_mass)
        for d in range(x.shape[1]):
            acc[d] += wind[d] / mass[k] if use_mass else wind[d]
            v[k, d] = (v[k, d] + acc[d]) * damping[k] + gravity[d]
        if cap_speed(v[k], speed_limit):
            capped += 1
        for d in range(x.shape[1]):
            x[k, d] += v[k, d]
    return capped


@kernel
def cap_speed(velocity: np.ndarray, limit: float) -> bool:
    """Scale ``velocity`` (D,) down in place to length ``limit`` when it is longer; True if it was.

    Why the chain needs a cap and not a stiffness limit: the Spring simulation article's
    bob-after-bob order is not energy-conserving. A bob's spring reads its parent's new location
    and its child's old one, so the pair's forces are not equal and opposite over a frame, and the
    linearised frame map has a spectral radius above 1 for every stiffness > 0 once there are two
    bobs and the damping keeps the whole velocity (1.0): 1.0002 at stiffness 0.001, 1.02 at 0.1,
    2.24 for 30 bobs at 0.7 (tests/scenes/test_springs_bounded.py computes them). Below damping 1 the
    stable stiffness depends on the bob count, the ring, the chain mode and the anchor, and the
    article's own presets sit on or just past that edge (preset 8's linearised map is 1.0045 and
    only its natural-length springs hold it), so no slider range could exclude the unstable
    region without excluding the presets. A speed cap leaves every motion below it bit for bit as
    the article's and turns a runaway into bounded motion: a jitter near where the springs hold
    the bobs (once a spring pulls harder than the cap, the bob's velocity flips every frame), or,
    for a chain nothing anchors, a drift of at most the cap per frame that a :func:`fence` stops.
    """
    speed2 = 0.0
    for d in range(velocity.shape[0]):
        speed2 += velocity[d] * velocity[d]
    if speed2 <= limit * limit:
        return False
    shrink = limit / np.sqrt(speed2)
    for d in range(velocity.shape[0]):
        velocity[d] *= shrink
    return True


def fence(particles: Particles, lo, hi) -> None:
    """Stop particles at the box [lo, hi] (D,): a particle outside is put on the edge and loses its
    velocity across it. The springs scene's box is far outside the window, so nothing the viewer
    sees ever meets it; it bounds what no force holds back (a free fall, the wind, a ring that a
    runaway chain sends off at the speed cap)."""
    x, v = particles.positions, particles.velocities
    outside = (x < lo) | (x > hi)
    if outside.any():
        np.clip(x, lo, hi, out=x)
        v[outside] = 0.0
