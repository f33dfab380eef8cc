"""Static obstacles for the 3D world: boxes (axis-aligned or turned: ramps, stairs, walls, bowls),
balls and half-spaces, and the contact of slime vertices with them.

An obstacle never moves and has infinite mass, so a contact only changes the vertex: it is put
back on the surface, its approaching normal velocity is removed (times the restitution, a bounce,
above a small threshold speed so that resting vertices do not hop) and its tangential velocity
loses at most ``friction`` times the normal velocity change (Coulomb), never reversing.

No tunnelling. ``collide_obstacles`` gets each vertex's position before the substep's integration
(``x_prev``) and tests the whole segment ``x_prev -> x``, not only its end: a box is crossed when
the segment's slab interval (the latest entry over the three axes, the earliest exit) is not empty
and starts inside the substep, a ball when the segment's quadratic has a root in it. A vertex
that entered is stopped at the entry face: its coordinate along the face normal is set to the
face, its tangential motion is kept (then reduced by friction). A 2 cm board is safe at any
speed, since nothing is sampled. A vertex that started the substep inside (spawned there) is
pushed out by the shortest way. Half-spaces cannot be passed through (they have no far side), so
their end test is the whole test.

Cost. The obstacles are packed per kind as structure-of-arrays (``ObstacleSet``). A broad phase
first bounds the swept vertices in blocks of ``_BLOCK`` consecutive vertices (a slime's vertices
are stored ring after ring, so a block is a compact patch) and tests each block's box against
each obstacle's world bounding box: ``P / 64 x K`` comparisons. Only the vertices of overlapping
(block, obstacle) pairs reach the narrow phase, so a world where no slime is near an obstacle
pays a few array reductions. A world does that broad phase once a frame instead (``FramePairs``:
each vertex grown by how far it can go in the frame), and each substep only checks that no vertex
went further, falling back to its own broad phase when one did: in a pile of slimes against walls
the obstacles cost about a sixth less. Every test is vectorised over (vertex, obstacle) pairs;
the only Python loops are over the three kinds and over the few rounds that settle a vertex
touching two obstacles at once (a corner of a bowl of boxes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from slime.physics.slime3d.slime_params import vector3

__all__ = [
    "Ball",
    "Box",
    "FramePairs",
    "ObstacleSet",
    "Plane",
    "collide_obstacles",
    "ray_hit",
    "rotation_from_degrees",
    "signed_distance",
]

BOUNCE_THRESHOLD = 0.5  # m/s: slower approaches do not bounce (as the engine's Planes)
_BLOCK = 64  # vertices per broad-phase block
_ROUNDS = 3  # a vertex touching several obstacles is settled against them one after another
_ORTHONORMAL_TOLERANCE = 1e-6
FRAME_SLACK = 0.01  # m a vertex may move in a frame beyond twice its fastest speed's reach (``FramePairs``)


# ---------------------------------------------------------------------------------- validation
def _vector(name: str, value) -> np.ndarray:
    arr = vector3(name, value)
    arr.setflags(write=False)
    return arr


def _number(name: str, value, low: float, strict: bool) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(number) or number < low or (strict and number == low):
        relation = ">" if strict else ">="
        raise ValueError(f"{name} must be finite and {relation} {low:g}, got {value!r}")
    return number


def _rotation(value) -> np.ndarray:
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"rotation must be a 3x3 matrix of numbers, got {value!r}") from None
    if arr.shape != (3, 3) or not np.all(np.isfinite(arr)):
        raise ValueError(f"rotation must be a finite 3x3 matrix, got {value!r}")
    if np.abs(arr @ arr.T - np.eye(3)).max() > _ORTHONORMAL_TOLERANCE or np.linalg.det(arr) < 0.0:
        raise ValueError("rotation must be orthonormal with determinant +1 (use rotation_from_degrees)")
    arr.setflags(write=False)
    return arr


def rotation_from_degrees(yaw: float = 0.0, pitch: float = 0.0, roll: float = 0.0) -> np.ndarray:
    """(3, 3) rotation turning a body by ``roll`` about z, then ``pitch`` about x, then ``yaw``
    about y (degrees, right-handed): R = R_y(yaw) R_x(pitch) R_z(roll). A box's columns of R are
    its local axes in the world: ``pitch=20`` turns a flat board's top toward +z, a ramp going
    down toward +z."""
    yaw = math.radians(_number("yaw", yaw, -math.inf, False))
    pitch = math.radians(_number("pitch", pitch, -math.inf, False))
    roll = math.radians(_number("roll", roll, -math.inf, False))
    cy, sy, cp, sp, cr, sr = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch), math.cos(roll), math.sin(roll)
    ry = np.array([[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]])
    rx = np.array([[1.0, 0.0, 0.0], [0.0, cp, -sp], [0.0, sp, cp]])
    rz = np.array([[cr, -sr, 0.0], [sr, cr, 0.0], [0.0, 0.0, 1.0]])
    return ry @ rx @ rz


# ---------------------------------------------------------------------------------- obstacles
@dataclass(frozen=True)
class Box:
    """A solid box: ``center``, ``half_size`` along its own axes (all > 0), ``rotation`` whose
    columns are those axes in the world (world = center + rotation @ local)."""

    center: tuple = (0.0, 0.0, 0.0)
    half_size: tuple = (0.5, 0.5, 0.5)
    rotation: tuple = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    friction: float = 0.6

    def __post_init__(self):
        object.__setattr__(self, "center", _vector("box center", self.center))
        half = _vector("box half_size", self.half_size)
        if not np.all(half > 0.0):
            raise ValueError(f"box half_size must be positive, got {self.half_size!r}")
        object.__setattr__(self, "half_size", half)
        object.__setattr__(self, "rotation", _rotation(self.rotation))
        object.__setattr__(self, "friction", _number("box friction", self.friction, 0.0, False))


@dataclass(frozen=True)
class Ball:
    """A solid ball."""

    center: tuple = (0.0, 0.0, 0.0)
    radius: float = 0.5
    friction: float = 0.6

    def __post_init__(self):
        object.__setattr__(self, "center", _vector("ball center", self.center))
        object.__setattr__(self, "radius", _number("ball radius", self.radius, 0.0, True))
        object.__setattr__(self, "friction", _number("ball friction", self.friction, 0.0, False))


@dataclass(frozen=True)
class Plane:
    """A solid half-space: everything behind the plane through ``point`` with outward ``normal``
    (normalised here; it must not be zero)."""

    point: tuple = (0.0, 0.0, 0.0)
    normal: tuple = (0.0, 1.0, 0.0)
    friction: float = 0.6

    def __post_init__(self):
        object.__setattr__(self, "point", _vector("plane point", self.point))
        normal = _vector("plane normal", self.normal)
        length = float(np.linalg.norm(normal))
        if not length > 1e-12:
            raise ValueError("plane normal must not be zero")
        normal = normal / length
        normal.setflags(write=False)
        object.__setattr__(self, "normal", normal)
        object.__setattr__(self, "friction", _number("plane friction", self.friction, 0.0, False))


class ObstacleSet:
    """The obstacles packed per kind as structure-of-arrays (built once, when the scene changes)."""

    def __init__(self, obstacles=()):
        obstacles = list(obstacles)
        for ob in obstacles:
            if not isinstance(ob, (Box, Ball, Plane)):
                raise ValueError(f"an obstacle must be a Box, Ball or Plane, got {type(ob).__name__}")
        boxes = [o for o in obstacles if isinstance(o, Box)]
        balls = [o for o in obstacles if isinstance(o, Ball)]
        planes = [o for o in obstacles if isinstance(o, Plane)]
        self.obstacles = tuple(obstacles)
        self.box_center = np.array([b.center for b in boxes]).reshape(-1, 3)
        self.box_half = np.array([b.half_size for b in boxes]).reshape(-1, 3)
        self.box_rotation = np.array([b.rotation for b in boxes]).reshape(-1, 3, 3)
        self.box_friction = np.array([b.friction for b in boxes], dtype=np.float64)
        # World AABB half extents: |R| @ half.
        extent = np.einsum("kij,kj->ki", np.abs(self.box_rotation), self.box_half)
        self.ball_center = np.array([b.center for b in balls]).reshape(-1, 3)
        self.ball_radius = np.array([b.radius for b in balls], dtype=np.float64)
        self.ball_friction = np.array([b.friction for b in balls], dtype=np.float64)
        self.plane_point = np.array([p.point for p in planes]).reshape(-1, 3)
        self.plane_normal = np.array([p.normal for p in planes]).reshape(-1, 3)
        self.plane_friction = np.array([p.friction for p in planes], dtype=np.float64)
        self.box_low, self.box_high = self.box_center - extent, self.box_center + extent
        self.ball_low = self.ball_center - self.ball_radius[:, None]
        self.ball_high = self.ball_center + self.ball_radius[:, None]

    def __len__(self) -> int:
        return len(self.obstacles)


def _as_set(obstacles) -> ObstacleSet:
    return obstacles if isinstance(obstacles, ObstacleSet) else ObstacleSet(obstacles)


# ---------------------------------------------------------------------------------- broad phase
def _block_bounds(points: np.ndarray, reduce) -> np.ndarray:
    """(3, blocks) ``reduce`` (np.minimum or np.maximum) of (3, P) ``points`` over blocks of
    ``_BLOCK`` consecutive vertices, the last block taking what is left (``reduceat``: a
    reduction along short rows is several times slower)."""
    return reduce.reduceat(points, np.arange(0, points.shape[1], _BLOCK), axis=1)


def _swept_blocks(x: np.ndarray, x_prev: np.ndarray) -> tuple:
    """(3, blocks) lower and upper bounds of each block's vertices over the substep, from four
    reductions over all vertices (no per-vertex box); ``x`` and ``x_prev`` are (3, P)."""
    low = np.minimum(_block_bounds(x, np.minimum), _block_bounds(x_prev, np.minimum))
    high = np.maximum(_block_bounds(x, np.maximum), _block_bounds(x_prev, np.maximum))
    return low, high


def _block_pairs(ob_low: np.ndarray, ob_high: np.ndarray, block_low: np.ndarray, block_high: np.ndarray):
    """(block, obstacle) pairs whose boxes overlap, block-major (then obstacle); ``block_low``
    and ``block_high`` are (3, blocks), ``ob_low`` and ``ob_high`` (K, 3)."""
    none = (np.zeros(0, np.int64), np.zeros(0, np.int64))
    if ob_low.shape[0] == 0 or block_low.shape[1] == 0:
        return none
    # Obstacles anywhere near the vertices at all, then block by obstacle.
    near = np.all((ob_low <= block_high.max(axis=1)) & (ob_high >= block_low.min(axis=1)), axis=1)
    if not near.any():
        return none
    obs = np.flatnonzero(near)
    hit = np.all((ob_low[obs].T[:, None, :] <= block_high[:, :, None])
                 & (ob_high[obs].T[:, None, :] >= block_low[:, :, None]), axis=0)  # (blocks, obs)
    block, which = np.divmod(np.flatnonzero(hit), obs.size)
    return block, obs[which]


def _block_vertices(block: np.ndarray, count: int) -> tuple:
    """(pairs, _BLOCK) vertex indices of each block (clipped to the last vertex) and which of
    them are real (the last block may be short)."""
    vertex = block[:, None] * _BLOCK + np.arange(_BLOCK)[None]
    inside = vertex < count
    np.minimum(vertex, count - 1, out=vertex)
    return vertex, inside


def _vertex_pairs(x: np.ndarray, x_prev: np.ndarray, ob_low: np.ndarray, ob_high: np.ndarray, vertex, inside, ob):
    """The (vertex, obstacle) pairs among the blocks' whose own swept boxes meet the obstacle's:
    ``vertex`` and ``inside`` are ``_block_vertices`` of the blocks paired with obstacles ``ob``;
    ``x`` and ``x_prev`` (3, P). The obstacle's bounds broadcast over a block, never gathered
    per vertex."""
    if ob.size == 0:
        return ob, ob
    now, before = np.take(x, vertex, axis=1), np.take(x_prev, vertex, axis=1)  # (3, pairs, _BLOCK)
    low, high = np.minimum(now, before), np.maximum(now, before)
    keep = inside & np.all((ob_low[ob].T[:, :, None] <= high) & (ob_high[ob].T[:, :, None] >= low), axis=0)
    return vertex[keep], np.broadcast_to(ob[:, None], keep.shape)[keep]


def _candidate_pairs(x: np.ndarray, x_prev: np.ndarray, ob_low: np.ndarray, ob_high: np.ndarray, blocks: tuple):
    """(vertex, obstacle) pairs whose swept boxes may overlap. ``x`` and ``x_prev`` are (3, P);
    ``blocks`` their ``_swept_blocks`` (made once a substep, for every kind of obstacle). Only the
    vertices of blocks that meet an obstacle are tested one by one."""
    block, ob = _block_pairs(ob_low, ob_high, *blocks)
    vertex, inside = _block_vertices(block, x.shape[1])
    return _vertex_pairs(x, x_prev, ob_low, ob_high, vertex, inside, ob)


class FramePairs:
    """The broad phase done once a frame instead of once a substep. At the frame's start each
    vertex's box is its position grown by ``margin`` on every side (a bound on how far any
    vertex will move in the frame: twice the fastest speed times the frame, plus
    ``FRAME_SLACK``), and the (vertex, obstacle) pairs whose boxes meet are kept, found block by
    block as the substep's own broad phase finds them and in its order. While no vertex is
    further than ``margin`` from where it started the frame (checked each substep on both ends of
    the swept segment: a few reductions), every pair the substep's broad phase would find is among
    them, and the narrow phase, which tests the segment exactly, finds the same contacts without
    a broad phase of its own. The moment a vertex goes further (a throw, a teleport, a
    re-layout), ``collide_obstacles`` falls back to the substep's own broad phase: never a missed
    contact."""

    def __init__(self, x: np.ndarray, v: np.ndarray, obstacle_set, frame_time: float):
        ob = _as_set(obstacle_set)
        self.obstacles = ob
        self.start = np.array(np.asarray(x).T)  # (3, P), contiguous
        with np.errstate(invalid="ignore", over="ignore"):
            speed = max(float(v.max()), -float(v.min())) if v.size else 0.0  # NaN stays NaN
            self.margin = 2.0 * speed * float(frame_time) + FRAME_SLACK
        # A non-finite start needs no test of its own: it fails every ``holds``.
        self.valid = math.isfinite(self.margin)
        self._scratch = np.empty_like(self.start)
        self.kinds = {}
        if not self.valid or self.start.shape[1] == 0:
            return
        blocks = _block_bounds(self.start, np.minimum), _block_bounds(self.start, np.maximum)
        for kind, ob_low, ob_high in (("ball", ob.ball_low, ob.ball_high), ("box", ob.box_low, ob.box_high)):
            # A vertex's box grown by the margin meets an obstacle's box when the obstacle's, grown
            # by it, holds the vertex: the substep's broad phase, run on the grown obstacles.
            grown_low, grown_high = ob_low - self.margin, ob_high + self.margin
            block, which = _block_pairs(grown_low, grown_high, *blocks)
            vertex, inside = _block_vertices(block, self.start.shape[1])
            self.kinds[kind] = _vertex_pairs(self.start, self.start, grown_low, grown_high, vertex, inside, which)

    def holds(self, x: np.ndarray, x_prev: np.ndarray, obstacle_set) -> bool:
        """Whether these pairs still cover the substep from (P, 3) ``x_prev`` to ``x``."""
        if not self.valid or obstacle_set is not self.obstacles or x.shape != self.start.T.shape:
            return False
        for points in (x, x_prev):
            moved = np.subtract(points.T, self.start, out=self._scratch)
            # A NaN compares false, so it fails the check too.
            if not (moved.max() <= self.margin and -moved.min() <= self.margin):
                self.valid = False
                return False
        return True


# ---------------------------------------------------------------------------------- narrow phase
def _box_contacts(x, xp, ob: ObstacleSet, vertex, box):
    """For each candidate pair: hit mask, the corrected position and the outward normal. Few
    numpy calls (the pairs are few, and each call's fixed cost is most of the work)."""
    rot, center, half = ob.box_rotation[box], ob.box_center[box], ob.box_half[box]
    now = x[vertex]
    ends = np.stack((now, xp[vertex]))
    ends -= center
    both = np.einsum("kji,skj->ski", rot, ends)  # R^T (x - c) at the substep's end and start
    local, local_prev = both
    inside_now, inside_before = (np.abs(both) < half).all(axis=2)
    # Slab test on the segment local_prev -> local (t in [0, 1]). An axis the segment does not
    # move along divides by zero: its interval is (-inf, inf) inside the slab, empty (both ends
    # the same infinity) outside, NaN on its boundary; a NaN fails every comparison below, as a
    # segment that only grazes a face should.
    inv = 1.0 / (local - local_prev)
    t_a = (-half - local_prev) * inv
    t_b = (half - local_prev) * inv
    t_near = np.minimum(t_a, t_b)
    enter = t_near.max(axis=1)
    leave = np.maximum(t_a, t_b).min(axis=1)
    crossed = (enter <= leave) & (enter >= 0.0) & (enter <= 1.0) & (leave > 0.0) & ~inside_before
    hit = crossed | (inside_before & inside_now)
    if not hit.any():
        return hit, None, None, None
    idx = np.flatnonzero(hit)
    rows = np.arange(idx.size)
    loc, h = local[idx], half[idx]
    # A vertex that came in goes back to the face it entered by; one that started inside (it
    # was spawned there) leaves by the nearest face.
    entry_axis = np.argmax(t_near[idx], axis=1)
    nearest_axis = np.argmin(h - np.abs(loc), axis=1)
    use_entry = crossed[idx]
    axis = np.where(use_entry, entry_axis, nearest_axis)
    entry_side = np.sign(local_prev[idx, entry_axis])
    nearest_side = np.where(loc[rows, nearest_axis] >= 0.0, 1.0, -1.0)
    side = np.where(use_entry & (entry_side != 0.0), entry_side, nearest_side)
    # Along the face's normal only: from the local coordinate to the face's, in world terms.
    delta = side * h[rows, axis] - loc[rows, axis]
    normal = rot[idx, :, axis] * side[:, None]  # the box's axis, outward
    new_x = now[idx] + normal * (side * delta)[:, None]
    return hit, new_x, normal, np.abs(delta)


def _ball_contacts(x, xp, ob: ObstacleSet, vertex, ball):
    center, radius = ob.ball_center[ball], ob.ball_radius[ball]
    rel, rel_prev = x[vertex] - center, xp[vertex] - center
    dist2 = np.einsum("ij,ij->i", rel, rel)
    prev2 = np.einsum("ij,ij->i", rel_prev, rel_prev)
    r2 = radius * radius
    inside_before = prev2 < r2
    # |rel_prev + t d|^2 = r^2: the first root in [0, 1] is the entry.
    d = rel - rel_prev
    a = np.einsum("ij,ij->i", d, d)
    b = np.einsum("ij,ij->i", rel_prev, d)
    disc = b * b - a * (prev2 - r2)
    with np.errstate(divide="ignore", invalid="ignore"):
        enter = (-b - np.sqrt(np.maximum(disc, 0.0))) / a
    crossed = ~inside_before & (a > 0.0) & (disc > 0.0) & (enter >= 0.0) & (enter <= 1.0)
    hit = crossed | (inside_before & (dist2 < r2))
    if not hit.any():
        return hit, None, None, None
    idx = np.flatnonzero(hit)
    c, rad = center[idx], radius[idx, None]
    entry_point = rel_prev[idx] + np.where(crossed[idx], enter[idx], 1.0)[:, None] * d[idx]
    length = np.linalg.norm(entry_point, axis=1, keepdims=True)
    fallback = np.array([0.0, 1.0, 0.0])
    normal = np.where(length > 1e-12, entry_point / np.where(length > 1e-12, length, 1.0), fallback)
    # Keep the motion along the surface: the end point, moved onto the sphere on the entry side.
    end = rel[idx]
    tangential = end - np.einsum("ij,ij->i", end, normal)[:, None] * normal
    on_surface = rad * normal + tangential
    olen = np.linalg.norm(on_surface, axis=1, keepdims=True)
    normal_out = on_surface / np.where(olen > 1e-12, olen, 1.0)
    new_x = c + rad * normal_out
    depth = np.maximum(rad[:, 0] - np.sqrt(dist2[idx]), 0.0)
    return hit, new_x, normal_out, depth


def _plane_contacts(x, xp, ob: ObstacleSet, vertex, plane):
    normal = ob.plane_normal[plane]
    depth = np.einsum("ij,ij->i", ob.plane_point[plane] - x[vertex], normal)
    hit = depth > 0.0
    if not hit.any():
        return hit, None, None, None
    idx = np.flatnonzero(hit)
    return hit, x[vertex[idx]] + depth[idx, None] * normal[idx], normal[idx], depth[idx]


def _respond(v, vertex, normal, friction, restitution):
    """Velocity of vertices put on a surface: approaching normal speed removed (bounced above the
    threshold), tangential speed cut by Coulomb friction, never reversed."""
    vel = v[vertex]
    vn = np.einsum("ij,ij->i", vel, normal)
    tangent = vel - vn[:, None] * normal
    bounce = np.where(-vn > BOUNCE_THRESHOLD, restitution, 0.0)
    new_vn = np.where(vn < 0.0, -bounce * vn, vn)
    speed_t = np.sqrt(np.einsum("ij,ij->i", tangent, tangent))
    keep = np.clip(1.0 - friction * np.abs(new_vn - vn) / np.where(speed_t > 0.0, speed_t, 1.0), 0.0, 1.0)
    v[vertex] = tangent * keep[:, None] + new_vn[:, None] * normal


def collide_obstacles(x: np.ndarray, v: np.ndarray, x_prev: np.ndarray, obstacle_set, restitution: float = 0.0,
                      frame: FramePairs | None = None) -> int:
    """Resolve every vertex against the static obstacles, in place on (P, 3) float64 ``x`` and
    ``v`` (views allowed); ``x_prev`` are the positions before this substep's integration (for
    the swept test); ``obstacle_set`` an ``ObstacleSet`` (pack it once per scene) or a list of
    obstacles; ``frame`` this frame's ``FramePairs``, used while it holds. Returns the number of
    vertex contacts resolved."""
    ob = _as_set(obstacle_set)
    if len(ob) == 0 or x.shape[0] == 0:
        return 0
    restitution = _number("restitution", restitution, 0.0, False)
    # A non-finite vertex (state broken elsewhere; its body recovers it) compares false everywhere.
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if frame is not None and not frame.holds(x, x_prev, ob):
            frame = None
        return _collide(x, v, x_prev, ob, restitution, frame)


def _collide(x, v, x_prev, ob: ObstacleSet, restitution: float, frame: FramePairs | None) -> int:
    blocks = None
    count = 0
    kinds = (
        ("plane", ob.plane_normal.shape[0], None, None, _plane_contacts, ob.plane_friction),
        ("ball", ob.ball_radius.size, ob.ball_low, ob.ball_high, _ball_contacts, ob.ball_friction),
        ("box", ob.box_half.shape[0], ob.box_low, ob.box_high, _box_contacts, ob.box_friction),
    )
    for kind, k, ob_low, ob_high, contacts, friction in kinds:
        if k == 0:
            continue
        if ob_low is None:  # half-spaces are unbounded: each (of a few) tests every vertex
            # Contiguous columns: numpy is several times faster on them than on the rows of (P, 3) views.
            columns = [np.ascontiguousarray(x[:, a]) for a in range(3)]
            found = []
            for plane, (n, level) in enumerate(zip(ob.plane_normal, (ob.plane_point * ob.plane_normal).sum(axis=1))):
                height = columns[0] * n[0]
                height += columns[1] * n[1]
                height += columns[2] * n[2]
                below = np.flatnonzero(height < level)
                found.append((below, np.full(below.size, plane)))
            vertex, which = np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])
        elif frame is not None:
            vertex, which = frame.kinds[kind]
        else:
            if blocks is None:
                blocks = _swept_blocks(x.T, x_prev.T)
            vertex, which = _candidate_pairs(x.T, x_prev.T, ob_low, ob_high, blocks)
        for _ in range(_ROUNDS):
            if vertex.size == 0:
                break
            hit, new_x, normal, depth = contacts(x, x_prev, ob, vertex, which)
            if new_x is None:
                break
            hv, hw = vertex[hit], which[hit]
            # One contact per vertex per round (the deepest); the others are tested again after it.
            order = np.lexsort((-depth, hv))
            first = np.ones(order.size, dtype=bool)
            first[1:] = hv[order][1:] != hv[order][:-1]
            chosen = order[first]
            x[hv[chosen]] = new_x[chosen]
            _respond(v, hv[chosen], normal[chosen], friction[hw[chosen]], restitution)
            count += chosen.size
            rest = order[~first]
            vertex, which = hv[rest], hw[rest]
    return count


# ---------------------------------------------------------------------------------- queries
def signed_distance(points, obstacle_set) -> np.ndarray:
    """(P,) distance of each point to the nearest obstacle surface, negative inside one; inf when
    there are no obstacles. Dense over points x obstacles (for picking and tests)."""
    ob = _as_set(obstacle_set)
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    best = np.full(pts.shape[0], np.inf)
    if ob.box_half.shape[0]:
        local = np.einsum("kji,pkj->pki", ob.box_rotation, pts[:, None, :] - ob.box_center[None])
        q = np.abs(local) - ob.box_half[None]
        outside = np.linalg.norm(np.maximum(q, 0.0), axis=2)
        inside = np.minimum(q.max(axis=2), 0.0)
        best = np.minimum(best, (outside + inside).min(axis=1))
    if ob.ball_radius.size:
        d = np.linalg.norm(pts[:, None, :] - ob.ball_center[None], axis=2) - ob.ball_radius[None]
        best = np.minimum(best, d.min(axis=1))
    if ob.plane_normal.shape[0]:
        d = np.einsum("pkj,kj->pk", pts[:, None, :] - ob.plane_point[None], ob.plane_normal)
        best = np.minimum(best, d.min(axis=1))
    return best


def ray_hit(origin, direction, obstacle_set) -> float:
    """Distance along the ray (``direction`` normalised) to the first obstacle surface it meets;
    0 when the origin is inside an obstacle, inf when it meets none."""
    ob = _as_set(obstacle_set)
    o = _vector("ray origin", origin)
    d = _vector("ray direction", direction)
    length = float(np.linalg.norm(d))
    if not length > 0.0:
        raise ValueError("ray direction must not be zero")
    d = d / length
    if len(ob) and signed_distance(o, ob)[0] < 0.0:
        return 0.0
    best = math.inf
    if ob.box_half.shape[0]:
        lo = np.einsum("kji,kj->ki", ob.box_rotation, o - ob.box_center)
        ld = np.einsum("kji,j->ki", ob.box_rotation, d)
        with np.errstate(divide="ignore", invalid="ignore"):
            t_a = (-ob.box_half - lo) / ld
            t_b = (ob.box_half - lo) / ld
        parallel = ld == 0.0
        inside = np.abs(lo) <= ob.box_half
        t_near = np.where(parallel, np.where(inside, -np.inf, np.inf), np.minimum(t_a, t_b)).max(axis=1)
        t_far = np.where(parallel, np.where(inside, np.inf, -np.inf), np.maximum(t_a, t_b)).min(axis=1)
        ok = (t_near <= t_far) & (t_near >= 0.0)
        if ok.any():
            best = min(best, float(t_near[ok].min()))
    if ob.ball_radius.size:
        rel = o - ob.ball_center
        b = rel @ d
        disc = b * b - (np.einsum("ij,ij->i", rel, rel) - ob.ball_radius**2)
        t = -b - np.sqrt(np.maximum(disc, 0.0))
        ok = (disc >= 0.0) & (t >= 0.0)
        if ok.any():
            best = min(best, float(t[ok].min()))
    if ob.plane_normal.shape[0]:
        towards = ob.plane_normal @ d
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.einsum("kj,kj->k", ob.plane_point - o, ob.plane_normal) / towards
        ok = (towards < 0.0) & (t >= 0.0)
        if ok.any():
            best = min(best, float(t[ok].min()))
    return best
