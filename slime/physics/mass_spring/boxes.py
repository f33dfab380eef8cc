"""Axis-aligned boxes that do not rotate (the box game's box world), as structure-of-arrays.

A box is its min corner ``positions`` (N, 2) and its ``sizes`` (N, 2); with y down (pixel
coordinates, as the box game) the min corner is the top-left. ``inv_mass`` 0 marks a static box of
infinite mass (floors, walls): it never moves, and every formula uses inverse masses so the
infinite mass needs no special case (the box game turns m = inf into 1/m for the same reason).

One step (:meth:`BoxWorld.step`) does what the box game does, exactly instead of by small increments:

1. gravity into the velocity of every dynamic box;
2. sweep every dynamic box against every static box (all pairs as (D, S) arrays): the time of
   impact is solved per axis from the entry and exit times of the slabs (swept AABB), so a box
   moves to the earliest impact, its velocity along the contact normal is removed (the box game's
   "stop"), and it goes on for the rest of the step; a few events per step at most, since every
   event zeroes one velocity axis. Because the impact time is solved, not searched, a box cannot
   pass through a wall or platform however fast it moves or however thin the wall is;
3. push out whatever still overlaps (dynamic against dynamic, or a box that started the step
   inside another) along the axis of least penetration, split by inverse mass:
   ``box1 -= n * depth * w1 / (w1 + w2)``, ``box2 += n * depth * w2 / (w1 + w2)``, w = inv_mass,
   and stop both along the normal.

Dynamic boxes are few (a player, a crate); the sweep is against statics only. Dynamic-vs-dynamic
contacts rely on the push-out, so two very fast dynamic boxes could still pass each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Start-of-step overlaps smaller than this (float round-off after snapping to a contact) count as
# touching, so a box resting on a floor is found by the sweep at t = 0 every step.
_TOUCH_TOLERANCE = 1e-9


@dataclass
class Boxes:
    positions: np.ndarray  # (N, 2) min corners
    sizes: np.ndarray  # (N, 2) width, height
    velocities: np.ndarray  # (N, 2) displacement per unit time
    inv_mass: np.ndarray  # (N,) 0 = static (infinite mass)

    @classmethod
    def create(cls, mins, sizes, velocities=None, mass=1.0) -> "Boxes":
        mins = np.array(mins, dtype=np.float64, ndmin=2).reshape(-1, 2)
        n = mins.shape[0]
        sizes = np.array(np.broadcast_to(np.asarray(sizes, dtype=np.float64), (n, 2)))
        if np.any(~(sizes > 0.0)) or not np.all(np.isfinite(sizes)):
            raise ValueError("box sizes must be positive and finite")
        if velocities is None:
            velocities = np.zeros((n, 2))
        velocities = np.array(np.broadcast_to(np.asarray(velocities, dtype=np.float64), (n, 2)))
        mass = np.broadcast_to(np.asarray(mass, dtype=np.float64), (n,))
        if np.any(~(mass > 0.0)):
            raise ValueError("masses must be positive (use inf for a static box)")
        with np.errstate(divide="ignore"):
            inv_mass = np.where(np.isinf(mass), 0.0, 1.0 / mass)
        velocities[inv_mass == 0.0] = 0.0
        return cls(positions=mins, sizes=sizes, velocities=velocities, inv_mass=inv_mass)

    @property
    def count(self) -> int:
        return self.positions.shape[0]

    @property
    def maxs(self) -> np.ndarray:
        return self.positions + self.sizes

    @property
    def centers(self) -> np.ndarray:
        return self.positions + 0.5 * self.sizes

    @property
    def dynamic(self) -> np.ndarray:
        return self.inv_mass > 0.0

    def append(self, other: "Boxes") -> np.ndarray:
        start = self.count
        for name in ("positions", "sizes", "velocities", "inv_mass"):
            setattr(self, name, np.concatenate([getattr(self, name), getattr(other, name)]))
        return np.arange(start, self.count)


def sweep_times(
    mins: np.ndarray, sizes: np.ndarray, displacement: np.ndarray, obstacle_mins: np.ndarray, obstacle_maxs: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Swept AABB: when each moving box first touches each fixed box during ``displacement``.

    ``mins``, ``sizes``, ``displacement`` are (D, 2); obstacles (S, 2). Returns ``(toi, axis)``,
    both (D, S): ``toi`` the fraction of the displacement at first contact (inf when they do not
    meet within [0, 1] or already overlap at the start), ``axis`` the axis (0 = x, 1 = y) whose
    faces meet, i.e. the contact normal's axis.

    Per axis the boxes' intervals overlap for t in (entry, exit); they touch when the last axis
    enters, if that happens before the first axis leaves. An axis without motion overlaps always
    or never.
    """
    lo = mins[:, None, :]
    hi = lo + sizes[:, None, :]
    d = displacement[:, None, :]
    olo = obstacle_mins[None, :, :]
    ohi = obstacle_maxs[None, :, :]
    moving = d != 0.0
    safe_d = np.where(moving, d, 1.0)
    forward = d > 0.0
    entry = np.where(forward, olo - hi, ohi - lo) / safe_d
    exit_ = np.where(forward, ohi - lo, olo - hi) / safe_d
    # Still on an axis: overlapping (open intervals, so side-by-side boxes slide past) or apart for good.
    still_overlap = (lo < ohi) & (hi > olo)
    entry = np.where(moving, entry, np.where(still_overlap, -np.inf, np.inf))
    exit_ = np.where(moving, exit_, np.where(still_overlap, np.inf, -np.inf))
    t_enter = np.max(entry, axis=-1)
    t_exit = np.min(exit_, axis=-1)
    # A tie (exactly onto a corner) is taken as a y contact, so a box lands on an edge rather than
    # being stopped sideways by it.
    axis = np.where(entry[..., 1] >= entry[..., 0], 1, 0)
    # Relative tolerance: a resting box sits at t_enter ~ -1e-16 after round-off.
    span = np.max(np.abs(d), axis=-1)
    tol = _TOUCH_TOLERANCE / np.where(span > 0.0, span, 1.0)
    hit = (t_enter < t_exit) & (t_enter >= -tol) & (t_enter <= 1.0)
    toi = np.where(hit, np.maximum(t_enter, 0.0), np.inf)
    return toi, axis


def overlap_normals(
    mins1: np.ndarray, maxs1: np.ndarray, mins2: np.ndarray, maxs2: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For K box pairs: the penetration depth (K,) along the axis of least penetration (0 when
    they do not overlap) and the unit normal (K, 2) pointing from box 1 towards box 2.

    Of the four ways apart (box 1 leaves to the left, right, up or down) the shortest wins.
    """
    # Depth to separate by moving box 1 in -x (box 2 is to its right), +x, -y, +y.
    towards_plus_x = maxs1[:, 0] - mins2[:, 0]
    towards_minus_x = maxs2[:, 0] - mins1[:, 0]
    towards_plus_y = maxs1[:, 1] - mins2[:, 1]
    towards_minus_y = maxs2[:, 1] - mins1[:, 1]
    depths = np.stack([towards_plus_x, towards_minus_x, towards_plus_y, towards_minus_y], axis=1)
    overlapping = np.all(depths > 0.0, axis=1)
    side = np.argmin(depths, axis=1)
    depth = np.where(overlapping, depths[np.arange(depths.shape[0]), side], 0.0)
    normals = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])[side]
    return depth, normals


def push_apart(
    positions: np.ndarray, velocities: np.ndarray, inv_mass: np.ndarray, i: np.ndarray, j: np.ndarray, depth, normal
) -> None:
    """In place: separate overlapping pairs (i, j) along ``normal`` (from i to j) by ``depth``,
    box i taking the share w_i / (w_i + w_j) of the distance (w = inverse mass), and stop each box
    along the normal if it still moves into the other.

    A box in several contacts moves by the largest push per direction, not their sum, so two
    floor tiles under one box do not lift it twice.
    """
    w_sum = inv_mass[i] + inv_mass[j]
    live = (depth > 0.0) & (w_sum > 0.0)
    if not np.any(live):
        return
    i, j, depth, normal, w_sum = i[live], j[live], depth[live], normal[live], w_sum[live]
    share_i = inv_mass[i] / w_sum
    share_j = inv_mass[j] / w_sum
    moves = np.concatenate([-normal * (depth * share_i)[:, None], normal * (depth * share_j)[:, None]])
    who = np.concatenate([i, j])
    n = positions.shape[0]
    up = np.zeros((n, 2))
    down = np.zeros((n, 2))
    np.maximum.at(up, who, np.maximum(moves, 0.0))
    np.minimum.at(down, who, np.minimum(moves, 0.0))
    positions += up + down
    # The box game's "stop": cancel the normal velocity, but only where it still points into the
    # contact (a box already leaving, e.g. jumping off, keeps its speed).
    stop_normal(velocities, inv_mass, i, normal, into=True)
    stop_normal(velocities, inv_mass, j, -normal, into=True)


def stop_normal(velocities: np.ndarray, inv_mass: np.ndarray, who: np.ndarray, normal: np.ndarray, into: bool) -> None:
    """Remove the velocity component of boxes ``who`` along ``normal`` (only the part moving into
    +normal when ``into``). Static boxes are skipped."""
    v = velocities[who]
    vn = np.einsum("ij,ij->i", v, normal)
    remove = (inv_mass[who] > 0.0) & ((vn > 0.0) if into else np.ones_like(vn, dtype=bool))
    velocities[who[remove]] -= (vn[remove])[:, None] * normal[remove]


@dataclass
class BoxWorld:
    boxes: Boxes
    gravity: np.ndarray = field(default_factory=lambda: np.zeros(2))
    dt: float = 1.0  # the box game moves by v once per frame: one frame is one unit of time
    max_events: int = 4  # impacts per box per step; two already stop it on both axes
    push_passes: int = 2  # push-out passes; the second fixes what the first pushed into a static
    time: float = 0.0
    # Per box, from the last step: something below it (along gravity) touched it.
    grounded: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def __post_init__(self):
        self.gravity = np.asarray(self.gravity, dtype=np.float64).reshape(2)
        self.grounded = np.zeros(self.boxes.count, dtype=bool)

    def _down(self) -> np.ndarray:
        g = float(np.hypot(*self.gravity))
        return self.gravity / g if g > 0.0 else np.array([0.0, 1.0])

    def step(self) -> None:
        b = self.boxes
        dynamic = np.flatnonzero(b.inv_mass > 0.0)
        static = np.flatnonzero(b.inv_mass == 0.0)
        b.velocities[static] = 0.0
        b.velocities[dynamic] += self.gravity * self.dt
        down = self._down()
        before = b.positions.copy()
        self.grounded = np.zeros(b.count, dtype=bool)
        if dynamic.size:
            self._sweep(dynamic, static, down)
            self._push_out(dynamic, down)
        self._recover(before)
        self.time += self.dt

    def _sweep(self, dynamic: np.ndarray, static: np.ndarray, down: np.ndarray) -> None:
        """Move the dynamic boxes for dt, stopping at each impact with a static box."""
        b = self.boxes
        remaining = np.full(dynamic.size, self.dt)
        smin = b.positions[static]
        smax = smin + b.sizes[static]
        for event in range(self.max_events):
            active = remaining > 0.0
            if not np.any(active):
                return
            pos = b.positions[dynamic]
            vel = b.velocities[dynamic]
            displacement = vel * remaining[:, None]
            if static.size:
                toi, axis = sweep_times(pos, b.sizes[dynamic], displacement, smin, smax)
                first = np.argmin(toi, axis=1)
                rows = np.arange(dynamic.size)
                t = toi[rows, first]
                contact_axis = axis[rows, first]
            else:
                t = np.full(dynamic.size, np.inf)
                first = contact_axis = np.zeros(dynamic.size, dtype=np.int64)
            hit = active & (t <= 1.0)
            # No impact: the whole remaining motion.
            free = active & ~hit
            pos[free] += displacement[free]
            remaining[free] = 0.0
            if np.any(hit):
                k = np.flatnonzero(hit)
                a = contact_axis[k]
                s = first[k]
                pos[k] += displacement[k] * t[k, None]
                # Snap the meeting faces together exactly, so round-off never leaves a sliver of overlap.
                moving_plus = displacement[k, a] > 0.0
                pos[k, a] = np.where(moving_plus, smin[s, a] - b.sizes[dynamic[k], a], smax[s, a])
                normal = np.zeros((k.size, 2))
                normal[np.arange(k.size), a] = np.where(moving_plus, 1.0, -1.0)
                vn = np.einsum("ij,ij->i", vel[k], normal)
                vel[k] -= vn[:, None] * normal
                self.grounded[dynamic[k]] |= normal @ down > 0.5
                # The box game advances the rest of the step after the impact; the last event allowed
                # keeps the box at its impact point instead, so it cannot run on into anything.
                remaining[k] = 0.0 if event == self.max_events - 1 else remaining[k] * (1.0 - t[k])
            b.positions[dynamic] = pos
            b.velocities[dynamic] = vel

    def _push_out(self, dynamic: np.ndarray, down: np.ndarray) -> None:
        """Separate remaining overlaps: each dynamic box against every other box."""
        b = self.boxes
        n = b.count
        # Pairs (dynamic i, any j != i), each unordered dynamic pair once.
        i = np.repeat(dynamic, n)
        j = np.tile(np.arange(n), dynamic.size)
        keep = (i != j) & ~((b.inv_mass[j] > 0.0) & (j < i))
        i, j = i[keep], j[keep]
        if i.size == 0:
            return
        for _ in range(self.push_passes):
            maxs = b.maxs
            depth, normal = overlap_normals(b.positions[i], maxs[i], b.positions[j], maxs[j])
            touching = depth > 0.0
            if not np.any(touching):
                return
            push_apart(b.positions, b.velocities, b.inv_mass, i, j, depth, normal)
            # i has j below it when the normal from i to j points down; and the other way round.
            along = normal @ down
            self.grounded[i[touching & (along > 0.5)]] = True
            self.grounded[j[touching & (along < -0.5)]] = True

    def _recover(self, before: np.ndarray) -> None:
        """Physics never returns NaN: a box whose state went non-finite (an infinite velocity set
        from outside, say) goes back to where it started the step, at rest."""
        b = self.boxes
        bad = ~np.all(np.isfinite(b.positions), axis=1) | ~np.all(np.isfinite(b.velocities), axis=1)
        if np.any(bad):
            b.positions[bad] = np.nan_to_num(before[bad], nan=0.0, posinf=0.0, neginf=0.0)
            b.velocities[bad] = 0.0
