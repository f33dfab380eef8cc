"""The user's hand on a slime: poke, grab and drag, throw, press a finger in, scatter (spike).

Everything here acts on one body's arrays, given as a ``BodyView`` (its (P, 3) position and
velocity views into the world's arrays, its per-vertex masses and its parameters), so the same
hand works on the single slime and on any slime of a world. The hand holds at most one body at a
time (a grab or a press); a poke and a spike are instantaneous.

A grab is Ten Minute Physics' pin made soft: the grabbed vertex and its neighbourhood are pulled
toward the mouse's target in velocity form (critically damped, stable at any rate), and on release
they take on the mouse's velocity, so the slime is thrown.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slime.limits import SPIKE, span
from slime.physics.slime_params import SlimeParams


def wendland(q: np.ndarray) -> np.ndarray:
    """Wendland C2 kernel (1 - q)^4 (4 q + 1) for q < 1, 0 beyond: 1 at the centre, smooth to
    second order at the edge (no kink where the falloff ends, unlike the PhysicalSlime program's linear one)."""
    q = np.clip(np.asarray(q, dtype=np.float64), 0.0, 1.0)
    return (1.0 - q) ** 4 * (4.0 * q + 1.0)


def vector3(name: str, value) -> np.ndarray:
    """A finite 3-vector, or one ValueError naming the argument."""
    try:
        arr = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite 3-vector, got {value!r}") from None
    if arr.shape != (3,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a finite 3-vector, got {value!r}")
    return arr


def magnitude(vector: np.ndarray) -> float:
    """Euclidean length without overflow (a 1e200 force has a finite length of about 1.7e200)."""
    big = float(np.max(np.abs(vector)))
    if big == 0.0:
        return 0.0
    return big * float(np.linalg.norm(vector / big))


@dataclass
class BodyView:
    """One body of a world, as the hand sees it: views into the world's arrays."""

    positions: np.ndarray  # (P, 3) view
    velocities: np.ndarray  # (P, 3) view
    mass: np.ndarray  # (P,)
    params: SlimeParams

    def nearest(self, point) -> int:
        d = self.positions - vector3("point", point)
        return int(np.argmin(np.einsum("ij,ij->i", d, d)))

    def falloff(self, index: int, reach: float) -> np.ndarray:
        """Wendland weights of every vertex by its distance from vertex ``index``, 0 beyond ``reach``."""
        d = self.positions - self.positions[index]
        return wendland(np.sqrt(np.einsum("ij,ij->i", d, d)) / reach)


def poke(body: BodyView, point, force, radius: float | None = None) -> int:
    """Push the surface near ``point`` with ``force`` (N), applied at once as the impulse of one
    frame, force * dt: the vertex nearest to ``point`` and its neighbours within ``radius``
    (default: ``poke_spread`` body radii, so a push dents a broad patch and rebounds round, not
    as a spike) share it by mass times a Wendland falloff, so every one of them gets a velocity
    change along ``force`` that fades smoothly to 0 at ``radius``. The total impulse is force *
    dt; the peak velocity change is clamped to ``max_speed``. Returns the nearest vertex."""
    prm = body.params
    force = vector3("force", force)
    radius = prm.poke_spread * prm.radius if radius is None else radius
    try:
        radius = float(radius)
    except (TypeError, ValueError):
        raise ValueError(f"poke radius must be a number, got {radius!r}") from None
    if not (np.isfinite(radius) and radius > 0.0):
        raise ValueError(f"poke radius must be positive and finite, got {radius}")
    nearest = body.nearest(point)
    weight = body.falloff(nearest, radius)
    total = float(body.mass @ weight)
    # Length and direction apart, so that no force is too large to compute: the velocity change
    # at weight 1 is |F| dt / total, clamped to max_speed.
    strength = magnitude(force)
    if strength == 0.0:
        return nearest
    speed = min(strength * (prm.dt / total), prm.max_speed)
    body.velocities += weight[:, None] * ((force / strength) * speed)
    return nearest


def spike(body: BodyView, amount: float = 0.5, seed=None) -> None:
    """The PhysicalSlime program's scatter: every vertex jumps ``amount * radius`` along its own
    random direction (uniform on the sphere, from a numpy Generator seeded with ``seed``)."""
    try:
        amount = float(amount)
    except (TypeError, ValueError):
        raise ValueError(f"spike amount must be a number, got {amount!r}") from None
    if not SPIKE[0] <= amount <= SPIKE[1]:
        raise ValueError(f"spike amount must be {span(SPIKE, 'radii')}, got {amount}")
    rng = np.random.default_rng(seed)
    direction = rng.normal(size=body.positions.shape)
    length = np.linalg.norm(direction, axis=1, keepdims=True)
    direction /= np.where(length > 0.0, length, 1.0)
    body.positions += direction * (amount * body.params.radius)


class Hand:
    """What the user holds: nothing, a grab (a vertex and its neighbourhood pulled toward a
    target) or a press (a finger moving in). ``body`` is the index of the held body in its world."""

    def __init__(self):
        self.body: int | None = None
        self.index: int | None = None  # the grabbed vertex, within its body
        self.target: np.ndarray | None = None
        self.finger: dict | None = None
        self.members = np.zeros(0, dtype=np.int64)
        self.weight = np.zeros(0)

    def grab(self, body_index: int, body: BodyView, index_or_point, reach: float | None = None) -> int:
        """Grab a vertex (an index, or the vertex nearest to a point); returns its index. Until
        ``release``, ``drag_to`` pulls it and its neighbourhood (within ``grab_falloff * radius``,
        Wendland weights) toward a target; the target starts where the vertex is."""
        count = body.positions.shape[0]
        if np.ndim(index_or_point) == 0:
            index = index_or_point
            if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
                raise ValueError(f"grab takes a vertex index (an integer) or a point, got {index_or_point!r}")
            index = int(index)
            if not 0 <= index < count:
                raise ValueError(f"vertex index {index} out of range 0..{count - 1}")
        else:
            index = body.nearest(index_or_point)
        if reach is None:
            reach = body.params.grab_falloff * body.params.radius
        weight = body.falloff(index, reach)
        self.finger = None  # a new grab ends a press (press() starts its finger after this)
        self.body = body_index
        self.members = np.flatnonzero(weight > 0.0)
        self.weight = weight[self.members]
        self.index = index
        self.target = body.positions[index].copy()
        return index

    def drag_to(self, target) -> None:
        """Move the grab target (world coordinates); no effect when nothing is grabbed."""
        target = vector3("target", target)
        if self.index is not None:
            self.target = target

    def release(self, body: BodyView | None, velocity=None) -> None:
        """Let go (of a grab or a press); with ``velocity`` (the mouse's), the grabbed neighbourhood
        takes it on by weight."""
        self.finger = None
        if self.index is not None and velocity is not None and body is not None:
            velocity = vector3("velocity", velocity)
            members, weight = self.members, self.weight[:, None]
            v = body.velocities
            v[members] += weight * (velocity - v[members])
            np.clip(v, -body.params.max_speed, body.params.max_speed, out=v)
        self.body = None
        self.index = None
        self.target = None

    def press(self, body_index: int, body: BodyView, point, direction) -> int:
        """Start pressing a finger into the surface at ``point`` (the surface vertex nearest to
        it) along ``direction`` (the view ray). The finger is a grab whose target starts at the
        touched vertex and moves in along ``direction`` at ``finger_speed`` radii per second until
        ``finger_depth`` radii deep, then holds: the dent grows while held, stays while held, and
        springs back with a wobble on ``unpress``. Unlike a grab it does not carry the body: the
        pull's net push is taken back from every vertex evenly (as the table and the other hand
        hold a jelly that is pressed), so a slanted press dents instead of sliding the slime
        away. Returns the touched vertex."""
        direction = vector3("direction", direction)
        length = magnitude(direction)
        if length == 0.0:
            raise ValueError("press direction must not be zero")
        index = body.nearest(point)
        self.grab(body_index, body, index, reach=body.params.finger_radius * body.params.radius)
        self.finger = {"touch": body.positions[index].copy(), "direction": direction / length, "depth": 0.0}
        return index

    def unpress(self) -> None:
        """Take the finger away (nothing happens when none is pressing)."""
        if self.finger is not None:
            self.finger = None
            self.release(None)

    def advance(self, body: BodyView, h: float) -> None:
        """Move a pressing finger on by one substep."""
        if self.finger is None:
            return
        prm, f = body.params, self.finger
        f["depth"] = min(f["depth"] + prm.finger_speed * prm.radius * h, prm.finger_depth * prm.radius)
        self.target = f["touch"] + f["direction"] * f["depth"]

    def add_pull(self, body: BodyView, acc: np.ndarray, h: float) -> None:
        """Pull the grabbed neighbourhood toward the target, adding into ``acc`` (P, 3) of the held
        body, in velocity form so that it is stable at any rate: the wanted velocity closes the
        gap at ``grab_rate`` (gap clamped to one radius, speed to ``max_speed``), and each member's
        velocity relaxes toward it by its grab weight times 1 - exp(-2 rate h) per substep (a
        critically damped spring, implicit). Independent of the vertices' masses, so the hand can
        lift the whole slime."""
        if self.index is None:
            return
        prm = body.params
        x, v = body.positions, body.velocities
        gap = self.target - x[self.index]
        length = float(np.linalg.norm(gap))
        if length > prm.radius:
            gap *= prm.radius / length
        rate = prm.grab_rate if self.finger is None else prm.finger_rate  # a finger holds firmer than a hand
        wanted = np.clip(rate * gap, -prm.max_speed, prm.max_speed)
        blend = -np.expm1(-2.0 * rate * h) / h
        members = self.members
        pull = (blend * self.weight)[:, None] * (wanted - v[members])
        acc[members] += pull
        if self.finger is not None:  # a press dents, it does not carry: the net push is held back
            acc -= body.mass[members] @ pull / prm.mass
