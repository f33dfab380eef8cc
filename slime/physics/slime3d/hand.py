"""The user's hand on a slime: poke, grab and drag, throw, press a finger in, scatter (spike).

Everything here acts on one body's arrays, given as a ``BodyView`` (its (P, 3) position and
velocity views into the world's arrays, its per-vertex masses and its parameters), so the same
hand works on the single slime and on any slime of a world. The hand holds at most one body at a
time (a grab or a press); a poke and a spike are instantaneous.

A grab is Ten Minute Physics' pin made soft: the grabbed vertex and its neighbourhood are pulled
toward the mouse's target in velocity form (critically damped, stable at any rate), and on release
they take on the mouse's velocity, so the slime is thrown.

A press is a finger (``Finger``): a solid ball pushed in along the view ray, the skin round it
sinking after it, lifted out again on release; the world pushes the held body out of it after each
substep's integration (``Hand.push_out``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from slime.limits import SPIKE, range_text
from slime.physics.compiled import kernel
from slime.physics.slime3d.moments import mass_centroids
from slime.physics.slime3d.slime_params import SlimeParams, vector3


def wendland(q: np.ndarray) -> np.ndarray:
    """Wendland C2 kernel (1 - q)^4 (4 q + 1) for q < 1, 0 beyond: 1 at the centre, smooth to
    second order at the edge (no kink where the falloff ends, unlike the PhysicalSlime program's linear one)."""
    q = np.clip(np.asarray(q, dtype=np.float64), 0.0, 1.0)
    return (1.0 - q) ** 4 * (4.0 * q + 1.0)


def magnitude(vector: np.ndarray) -> float:
    """Euclidean length without overflow (a 1e200 force has a finite length of about 1.7e200)."""
    big = float(np.max(np.abs(vector)))
    if big == 0.0:
        return 0.0
    return big * float(np.linalg.norm(vector / big))


@dataclass
class BodyView:
    """One body of a world, as the hand sees it: its columns of the world's arrays."""

    world_positions: np.ndarray  # (3, P) the world's, which the kernels read: one layout for every body
    world_velocities: np.ndarray  # (3, P)
    first: int  # the body's first column
    mass: np.ndarray  # (n,) its vertices' masses
    params: SlimeParams
    triangles: np.ndarray | None = None  # (T, 3) outward-wound, for surface normals
    positions: np.ndarray = field(init=False)  # (n, 3) view of its columns
    velocities: np.ndarray = field(init=False)  # (n, 3) view

    def __post_init__(self):
        columns = slice(self.first, self.first + len(self.mass))
        self.positions = self.world_positions[:, columns].T
        self.velocities = self.world_velocities[:, columns].T

    def centroid(self) -> np.ndarray:
        return mass_centroids(self.positions, self.mass, [0])[0]

    def outward_normal(self, index: int) -> np.ndarray:
        """Unit area-weighted normal of the surface at vertex ``index``; straight out from the
        centroid where there are no triangles or they give none (a crumpled surface)."""
        x = self.positions
        normal = np.zeros(3)
        if self.triangles is not None:
            tri = self.triangles[np.any(self.triangles == index, axis=1)]
            normal = np.cross(x[tri[:, 1]] - x[tri[:, 0]], x[tri[:, 2]] - x[tri[:, 0]]).sum(axis=0)
        length = magnitude(normal)
        if not (np.isfinite(length) and length > 0.0):
            normal = x[index] - self.centroid()
            length = magnitude(normal)
        return normal / length if np.isfinite(length) and length > 0.0 else np.array([0.0, 1.0, 0.0])

    def nearest(self, point) -> int:
        point = vector3("point", point)
        # A point out near the largest float is as far from every vertex (inf): the first is nearest.
        with np.errstate(over="ignore", invalid="ignore"):
            d = self.positions - point
            return int(np.argmin(np.einsum("ij,ij->i", d, d)))

    def falloff(self, index: int, reach: float) -> np.ndarray:
        """Wendland weights of every vertex by its distance from vertex ``index``, 0 beyond ``reach``."""
        d = self.positions - self.positions[index]
        return wendland(np.sqrt(np.einsum("ij,ij->i", d, d)) / reach)


def reach_of(name: str, value) -> float:
    """A hand's reach (m) as a float, or one ValueError naming it: positive and finite (the
    falloff divides by it)."""
    try:
        reach = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not (np.isfinite(reach) and reach > 0.0):
        raise ValueError(f"{name} must be positive and finite, got {value!r}")
    return reach


def poke(body: BodyView, point, force, radius: float | None = None) -> int:
    """Push the surface near ``point`` with ``force`` (N), applied at once as the impulse of one
    frame, force * dt: the vertex nearest to ``point`` and its neighbours within ``radius``
    (default: ``poke_spread`` body radii, so a push dents a broad patch and rebounds round, not
    as a spike) share it by mass times a Wendland falloff, so every one of them gets a velocity
    change along ``force`` that fades smoothly to 0 at ``radius``. The total impulse is force *
    dt; the peak velocity change is clamped to ``max_speed``. Returns the nearest vertex."""
    prm = body.params
    force = vector3("force", force)
    radius = reach_of("poke radius", prm.hand.poke_spread * prm.radius if radius is None else radius)
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
        raise ValueError(f"spike amount must be {range_text(SPIKE, 'radii')}, got {amount}")
    try:
        rng = np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise ValueError(f"spike seed must be None or a whole number 0 or more, got {seed!r}") from None
    direction = rng.normal(size=body.positions.shape)
    length = np.linalg.norm(direction, axis=1, keepdims=True)
    direction /= np.where(length > 0.0, length, 1.0)
    body.positions += direction * (amount * body.params.radius)


FINGER_TURN = 2.0  # a press's path is the view ray plus this many inward surface normals (see Finger)
LIFT_SPEED = 2.0  # a finger taken away moves out this many times faster than it went in ...
LET_GO = 0.3  # ... and lets go of the surface once this shallow, a fraction of its full depth (see Finger)
ACROSS_POWER = 2.0  # the sinking surface is held across the path by its weight to this power (see Finger)


@dataclass
class Finger:
    """A finger pressed into a slime (``Hand.press``).

    The fingertip is a solid ball of ``finger_radius`` body radii. It is put down on the outside
    of the surface, touching it at the pressed vertex, then moves in at ``finger_speed`` radii per
    second until ``finger_depth`` radii in, and holds there. The surface cannot enter the ball
    nor the path it swept (the finger's shaft, ``push_out_of_finger``), so the skin cannot close
    over the finger. The dent grows while held, stays while held, and once the finger is taken
    away the body's own forces spring it back with a wobble.

    Around the tip the surface sinks with it: every vertex within ``finger_spread`` radii of the
    touched one is drawn toward where it was when the press began, moved along the finger's path
    by the depth times its Wendland weight (1 at the touch, 0 at the edge of the spread), at
    ``finger_rate`` in the grab's critically damped velocity form. This stands in for the
    elasticity that, in a real jelly, carries a finger's dent out into a broad round dimple and
    that per-vertex shape matching does not have: with the ball alone the finger would punch a
    narrow hole whose rim stays where it was.

    The path is the view ray turned toward the surface's inward normal n at the touched point
    (the direction of d - ``FINGER_TURN`` n, for the unit ray d). Where the surface faces the
    viewer the two agree. Where the ray grazes the surface (a press near the outline, such as on
    the top of the slime as seen on screen), a finger going straight along the line of sight
    would move the skin only along the line of sight, which no one sees; this one presses the
    outline in, as a finger pushed onto a slope slips into it.

    Along the path each of them is drawn by its weight; across the path by its weight squared, so
    that near the tip the skin is held where it is (it cannot bunch up round the ball), while
    further out it is free to bulge sideways: the volume the dent pushes away goes into the
    sides, as a pressed jelly's does. (Held across as firmly as along, the skin cannot make way:
    a fine body is squeezed far under its volume and the pressure blows a bulge out of it.)

    A press dents, it does not carry: the momentum the finger gives the body is taken back from
    all of its vertices evenly (``pull_toward_finger``, ``push_out_of_finger``), and while the
    finger is on the body its momentum across gravity is held at what it was (``hold_level``), as
    the table and the other hand hold a jelly that is pressed, so a slanted or off-centre press
    does not slide the slime away. Its angular momentum is left free: held by a rigid turn every
    substep, the turn fought the floor's friction and folded the skin above it within half a
    second.

    Taken away, the finger moves back out along its path ``LIFT_SPEED`` times faster than it went
    in, the surface still sinking with it, and lets go once it is ``LET_GO`` of its full depth
    in: the rest of the dent springs back by the body's own forces, overshoots and wobbles. Let
    go at once from full depth, the body pressed down against the floor sprang back so hard that
    it hopped off it (0.3 radii high, measured); let go at a third of the depth, a quick spring
    and a wobble of a tenth of a radius remain.

    Measured from the demo's camera (tests/physics/test_slime_press.py), pressed a tenth of a radius
    under the top of the outline: the outline's top is down by about 0.3 radii after half a
    second at 8 to 128 stacks. Known limit: from about 128 stacks the skin wrapped round the
    ball crumples while held, the pressure reads the crumple as lost volume and blows out a
    bulge near the floor until the finger is taken away (the body comes back after)."""

    start: np.ndarray  # where the ball's centre was put down
    direction: np.ndarray  # unit: the path it moves in along
    radius: float  # the ball's radius (m)
    members: np.ndarray  # the vertices that sink with the tip
    weight: np.ndarray  # their Wendland weights
    anchors: np.ndarray  # (k, 3) where they were when the press began
    full_depth: float  # how deep it goes (m)
    momentum: np.ndarray  # the body's momentum across gravity when the press began
    origin: np.ndarray  # the body's centroid when the press began
    depth: float = 0.0  # how far the tip has moved in (m)
    velocity: np.ndarray = None  # the tip's velocity during the last substep
    lifting: bool = False  # taken away: on its way out (``advance``)

    @classmethod
    def touching(cls, body: BodyView, index: int, direction: np.ndarray) -> "Finger":
        prm = body.params
        normal = body.outward_normal(index)
        path = direction - FINGER_TURN * normal
        length = magnitude(path)
        path = path / length if length > 1e-6 else -normal  # a ray straight out of the surface
        radius = prm.hand.finger_radius * prm.radius
        weight = body.falloff(index, prm.hand.finger_spread * prm.radius)
        members = np.flatnonzero(weight > 0.0)
        return cls(start=body.positions[index] + radius * normal, direction=path, radius=radius, members=members,
                   weight=weight[members], anchors=body.positions[members].copy(),
                   momentum=level_momentum(body), origin=body.centroid(), full_depth=prm.hand.finger_depth * prm.radius, velocity=np.zeros(3))

    @property
    def tip(self) -> np.ndarray:
        return self.start + self.direction * self.depth

    def advance(self, body: BodyView, h: float) -> None:
        """Move the tip on by one substep and draw the surface round it after it."""
        prm = body.params
        if self.lifting:
            depth = max(self.depth - LIFT_SPEED * prm.hand.finger_speed * prm.radius * h, 0.0)
        else:
            depth = min(self.depth + prm.hand.finger_speed * prm.radius * h, self.full_depth)
        self.velocity = self.direction * ((depth - self.depth) / h)
        self.depth = depth
        # The finger goes along with the body across gravity (a body pressed in flight is not
        # torn apart by a finger that stays behind).
        shift = level(body, body.centroid() - self.origin)
        self.origin = self.origin + shift
        self.start = self.start + shift
        self.anchors = self.anchors + shift
        self.velocity = self.velocity + shift / h
        pull_toward_finger(body.world_positions, body.world_velocities, body.first, body.mass, self.members,
                           self.weight, self.anchors, self.direction, depth, prm.hand.finger_rate, prm.max_speed,
                           -np.expm1(-2.0 * prm.hand.finger_rate * h), ACROSS_POWER)
        hold_level(body, self.momentum)

    @property
    def gone(self) -> bool:
        """A lifting finger lets go of the surface once it is this shallow (``LET_GO``)."""
        return self.lifting and self.depth <= LET_GO * self.full_depth

    def push_out(self, body: BodyView) -> None:
        """After a substep's integration: the surface out of the ball and its shaft."""
        push_out_of_finger(body.world_positions, body.world_velocities, body.first, body.mass, self.start, self.tip,
                           self.radius, self.velocity)


@kernel
def add_at_vertex(array, i, mass, given, d0, d1, d2):
    """Add (d0, d1, d2) to column ``i`` of a (3, P) ``array``, and ``mass`` times it to ``given``
    (3,): what the body has been given, for ``subtract_evenly``."""
    array[0, i] += d0
    array[1, i] += d1
    array[2, i] += d2
    given[0] += mass * d0
    given[1] += mass * d1
    given[2] += mass * d2


@kernel
def subtract_evenly(array, first, mass, given):
    """Take the mass-weighted sum ``given`` (a momentum, or a mass times a shift) back from every
    vertex of a body evenly: array_k -= given / sum(mass), for the body's columns ``first`` .. of
    the world's (3, P) ``array``."""
    total = 0.0
    for k in range(mass.shape[0]):
        total += mass[k]
    for k in range(mass.shape[0]):
        for c in range(3):
            array[c, first + k] -= given[c] / total


@kernel
def pull_toward_finger(x, v, first, mass, members, weight, anchors, direction, depth, rate, max_speed, relax,
                       across_power):
    """The skin round a finger drawn after it, in velocity form, on the body whose vertices are the
    world's (3, P) columns ``first`` .. (its masses ``mass``). Member j (vertex k, weight w) wants
    the velocity u = rate (a + w depth d - x_k), each component held within +-``max_speed`` (a its
    anchor, d the path); of the change c = u - v_k, the part along the path (c . d) d is taken at
    weight w and the part across at w^``across_power``, both relaxed over the substep by ``relax``
    = 1 - exp(-2 rate h): v_k += relax (w (c . d) d + w^p (c - (c . d) d)). The momentum that
    gives the body is taken back from every vertex evenly (``subtract_evenly``): the finger deforms the
    body, it does not shove it."""
    d0, d1, d2 = direction[0], direction[1], direction[2]
    momentum = np.zeros(3)
    for j in range(members.shape[0]):
        k, w = members[j], weight[j]
        i = first + k  # its column
        c0 = min(max(rate * (anchors[j, 0] + w * depth * d0 - x[0, i]), -max_speed), max_speed) - v[0, i]
        c1 = min(max(rate * (anchors[j, 1] + w * depth * d1 - x[1, i]), -max_speed), max_speed) - v[1, i]
        c2 = min(max(rate * (anchors[j, 2] + w * depth * d2 - x[2, i]), -max_speed), max_speed) - v[2, i]
        along = c0 * d0 + c1 * d1 + c2 * d2
        across = w ** across_power
        add_at_vertex(v, i, mass[k], momentum,
             relax * (w * along * d0 + across * (c0 - along * d0)),
             relax * (w * along * d1 + across * (c1 - along * d1)),
             relax * (w * along * d2 + across * (c2 - along * d2)))
    subtract_evenly(v, first, mass, momentum)


@kernel
def push_out_of_finger(x, v, first, mass, start, tip, radius, finger_velocity):
    """The finger as a solid capsule (the segment ``start``-``tip`` swept by a ball of ``radius``),
    on the body whose vertices are the world's (3, P) columns ``first`` .. (its masses ``mass``):
    every vertex inside it is put back on its surface, straight out from the axis (along the axis,
    ahead of the finger, for one on the axis itself), and loses the part of its velocity relative to
    the finger's, v - ``finger_velocity``, that goes into it; a vertex outside is not touched. The
    body's own forces push back against it. What the projection and the velocity changes give the
    body as a whole is taken back from every vertex evenly (``subtract_evenly``): a projection must not
    carry the body either."""
    a0, a1, a2 = tip[0] - start[0], tip[1] - start[1], tip[2] - start[2]
    span2 = a0 * a0 + a1 * a1 + a2 * a2
    span = np.sqrt(span2)
    h0, h1, h2 = (a0 / span, a1 / span, a2 / span) if span2 > 0.0 else (0.0, 1.0, 0.0)
    shifted = np.zeros(3)  # mass times the projections
    momentum = np.zeros(3)  # mass times the velocity changes
    inside = 0
    for k in range(mass.shape[0]):
        i = first + k
        r0, r1, r2 = x[0, i] - start[0], x[1, i] - start[1], x[2, i] - start[2]
        t = min(max((r0 * a0 + r1 * a1 + r2 * a2) / span2, 0.0), 1.0) if span2 > 0.0 else 0.0
        o0, o1, o2 = r0 - t * a0, r1 - t * a1, r2 - t * a2
        dist2 = o0 * o0 + o1 * o1 + o2 * o2
        if not dist2 < radius * radius:
            continue
        inside += 1
        dist = np.sqrt(dist2)
        if dist > 1e-9 * radius:
            n0, n1, n2 = o0 / dist, o1 / dist, o2 / dist
        else:
            n0, n1, n2 = h0, h1, h2
        add_at_vertex(x, i, mass[k], shifted, n0 * radius - o0, n1 * radius - o1, n2 * radius - o2)
        into = min((v[0, i] - finger_velocity[0]) * n0 + (v[1, i] - finger_velocity[1]) * n1
                   + (v[2, i] - finger_velocity[2]) * n2, 0.0)
        add_at_vertex(v, i, mass[k], momentum, -into * n0, -into * n1, -into * n2)
    if inside > 0:
        subtract_evenly(x, first, mass, shifted)
        subtract_evenly(v, first, mass, momentum)


def level(body: BodyView, vector: np.ndarray) -> np.ndarray:
    """The part of ``vector`` across gravity (all of it where there is no gravity)."""
    g = np.asarray(body.params.gravity, dtype=np.float64)
    size = magnitude(g)
    if size == 0.0:
        return vector
    down = g / size
    return vector - (vector @ down) * down


def level_momentum(body: BodyView) -> np.ndarray:
    return level(body, body.mass @ body.velocities)


def hold_level(body: BodyView, momentum: np.ndarray) -> None:
    """Set the body's momentum across gravity back to ``momentum`` by an even velocity change:
    the floor's friction under a squashed, spreading body cannot walk it away from the finger."""
    subtract_evenly(body.world_velocities, body.first, body.mass, level_momentum(body) - momentum)


class Hand:
    """What the user holds: nothing, a grab (a vertex and its neighbourhood pulled toward a
    target) or a press (a finger moving in). ``body`` is the index of the held body in its world."""

    def __init__(self):
        self.body: int | None = None
        self.index: int | None = None  # the grabbed vertex, within its body
        self.target: np.ndarray | None = None
        self.finger: Finger | None = None
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
        reach = reach_of("grab reach", body.params.hand.grab_falloff * body.params.radius if reach is None else reach)
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
        it), coming in along ``direction`` (the view ray); returns the touched vertex. Pressing
        ends a grab; ``unpress`` (or a grab, or ``release``) takes the finger away. See
        ``Finger`` for what the finger is and does."""
        direction = vector3("direction", direction)
        length = magnitude(direction)
        if length == 0.0:
            raise ValueError("press direction must not be zero")
        index = body.nearest(point)
        self.release(None)
        self.finger = Finger.touching(body, index, direction / length)
        self.body = body_index
        return index

    @property
    def pressing(self) -> bool:
        """A finger is pressed in (and not on its way out)."""
        return self.finger is not None and not self.finger.lifting

    def unpress(self) -> None:
        """Take the finger away (nothing happens when none is pressing); the body's own forces
        spring the dent back."""
        if self.pressing:
            self.finger.lifting = True

    def advance(self, body: BodyView, h: float) -> None:
        """Move a pressing finger on by one substep and draw the surface round it after it."""
        if self.finger is not None:
            self.finger.advance(body, h)
            if self.finger.gone:
                self.finger, self.body = None, None

    def push_out(self, body: BodyView) -> None:
        """After a substep's integration: the surface out of the finger (``push_out_of_finger``)."""
        if self.finger is not None:
            self.finger.push_out(body)

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
        wanted = np.clip(prm.hand.grab_rate * gap, -prm.max_speed, prm.max_speed)
        blend = -np.expm1(-2.0 * prm.hand.grab_rate * h) / h
        members = self.members
        pull = (blend * self.weight)[:, None] * (wanted - v[members])
        acc[members] += pull
