"""Static obstacles for the 3D world (boxes, balls, half-spaces, cylinders and any kind registered
in ``slime.obstacle_kinds.KINDS``) and the contact of slime vertices with them. Each kind's
geometry (bounds, distance) is its own module there, the built-in kinds' contact of a segment and
ray hits are compiled in ``obstacle_contacts.py``; this module packs a scene's obstacles per kind,
runs the broad phase and applies the response.

An obstacle never moves and has infinite mass, so a contact only changes the vertex: it is put
back on the surface, its approaching normal velocity is removed (times the restitution, a bounce,
above a small threshold speed so that resting vertices do not hop) and its tangential velocity
loses at most ``friction`` times the normal velocity change (Coulomb), never reversing.

No tunnelling. ``collide_obstacles`` gets each vertex's position before the substep's integration
(``x_prev``) and tests the whole segment ``x_prev -> x``, not only its end: a box is crossed when
the segment's slab interval (the latest entry over the three axes, the earliest exit) is not empty
and starts inside the substep, a ball when the segment's quadratic has a root in it, a cylinder
when its slab and radial intervals overlap. A vertex that entered is put back on the surface it
entered by, its tangential motion kept (then reduced by friction). A 2 cm board is safe at any
speed, since nothing is sampled. A vertex that started the substep inside (spawned there) is
pushed out by the shortest way. Half-spaces cannot be passed through (they have no far side), so
their end test is the whole test.

Cost. The obstacles are packed per kind as structure-of-arrays (``ObstacleSet``, each kind's
``pack``). A broad phase first bounds the swept vertices in blocks of ``_BLOCK`` consecutive
vertices (a slime's vertices are stored ring after ring, so a block is a compact patch) and tests
each block's box against each obstacle's world bounding box: ``P / 64 x K`` comparisons. Only the vertices of overlapping
(block, obstacle) pairs reach the narrow phase, so a world where no slime is near an obstacle
pays a few array reductions. A world does that broad phase once a frame instead (``FramePairs``:
each vertex grown by how far it can go in the frame), on the blocks it bounds once a frame for
the slimes' contacts as well (``contact.FrameBlocks``: one broad phase for both), and each
substep only checks that no vertex went further, falling back to its own broad phase when one
did. The blocks' bounds are numpy reductions, the pairs they lead to one compiled pass
(``overlapping_pairs``); each kind's narrow phase is a compiled loop over its candidate pairs
(the built-in kinds' ``*_contacts`` kernels), as are each round's choice of contacts and their
response (``settle_deepest``, ``respond``) and the frame's check (``within``); the only Python
loops are over the kinds and over the few rounds that settle a vertex touching two obstacles at
once (a corner of a bowl of boxes), and the few passes that test again, against every obstacle,
the vertices one of them moved (the crease where two boxes meet).

Wedges. Where an obstacle's face dips into the floor or a wall (a tilted box's corner in the
floor) the two pushes would undo each other every substep, the vertex left under one surface or
the other with its velocity into both; so a vertex put back on a face that leaves it under a
plane slides along the face onto the plane (``slide_off_planes``), out of both.
"""

from __future__ import annotations

import math

import numpy as np

from slime.obstacle_kinds import KINDS, Ball, Box, Cylinder, ObstacleKind, Plane, rotation_from_degrees
from slime.obstacle_kinds.base import number as _number
from slime.obstacle_kinds.base import vector3 as _vector
from slime.physics.compiled import kernel
from slime.physics.slime3d.adhesion import adhere_to_surfaces
from slime.physics.slime3d.obstacle_contacts import narrow_phase, ray_of, surface_of
from slime.physics.planes import BOUNCE_THRESHOLD, Planes, contact_response, friction_shares

__all__ = [
    "Ball",
    "Box",
    "Cylinder",
    "FramePairs",
    "ObstacleSet",
    "Plane",
    "collide_obstacles",
    "ray_hit",
    "rotation_from_degrees",
    "signed_distance",
]

_BLOCK = 64  # vertices per broad-phase block
_ROUNDS = 3  # a vertex touching several obstacles is settled against them one after another
# Passes over every kind: a vertex one obstacle put back may now be inside another (two boxes
# meeting in a crease); only the vertices the last pass moved are tested again.
_PASSES = 4
_ON_SURFACE = 1e-9  # m: a vertex found this little inside lies on the surface it was put on (rounding)
_PARALLEL = 0.05  # 1 - cos^2 of the angle below which an obstacle's face and a plane count as parallel (13 degrees)
FRAME_SLACK = 0.01  # m a vertex may move in a frame beyond twice its fastest speed's reach (``FramePairs``)


class KindGroup:
    """A scene's obstacles of one kind, packed: ``kind`` (the class), ``packed`` (its ``pack``),
    ``low`` and ``high`` (K, 3) world bounds (None for an unbounded kind), ``friction`` (K,)."""

    def __init__(self, kind: type, obstacles: list):
        self.kind = kind
        self.packed = kind.pack(obstacles)
        bounds = kind.bounds(self.packed)
        self.low, self.high = (None, None) if bounds is None else bounds
        self.friction = np.array([o.friction for o in obstacles], dtype=np.float64)
        self.count = len(obstacles)


class ObstacleSet:
    """The obstacles packed per kind as structure-of-arrays (built once, when the scene changes):
    ``groups``, one ``KindGroup`` a kind present, in the order their contacts are settled."""

    def __init__(self, obstacles=()):
        obstacles = list(obstacles)
        for ob in obstacles:
            if not isinstance(ob, ObstacleKind) or KINDS.get(ob.name) is not type(ob):
                known = ", ".join(kind.__name__ for kind in KINDS.values())
                raise ValueError(f"an obstacle must be one of the registered kinds ({known}), got {type(ob).__name__}")
        self.obstacles = tuple(obstacles)
        kinds = sorted({type(o) for o in obstacles}, key=lambda kind: (kind.settle_order, kind.name))
        self.groups = {kind.name: KindGroup(kind, [o for o in obstacles if type(o) is kind]) for kind in kinds}

    def __len__(self) -> int:
        return len(self.obstacles)


def _as_set(obstacles) -> ObstacleSet:
    return obstacles if isinstance(obstacles, ObstacleSet) else ObstacleSet(obstacles)


# ---------------------------------------------------------------------------------- broad phase
def _chunks(count: int) -> tuple:
    """Blocks of ``_BLOCK`` consecutive vertices of ``count``, as (first, end) arrays: for points
    that no world has bounded (``FrameBlocks``), and for the substep's own broad phase."""
    start = np.arange(0, count, _BLOCK)
    return start, np.minimum(start + _BLOCK, count)


def _block_bounds(points: np.ndarray, reduce) -> np.ndarray:
    """(3, blocks) ``reduce`` (np.minimum or np.maximum) of (3, P) ``points`` over blocks of
    ``_BLOCK`` consecutive vertices (``_chunks``), the last block taking what is left
    (``reduceat``: a reduction along short rows is several times slower)."""
    return reduce.reduceat(points, _chunks(points.shape[1])[0], axis=1)


def _swept_blocks(x: np.ndarray, x_prev: np.ndarray) -> tuple:
    """(3, blocks) lower and upper bounds of each block's vertices over the substep, from four
    reductions over all vertices (no per-vertex box); ``x`` and ``x_prev`` are (3, P)."""
    low = np.minimum(_block_bounds(x, np.minimum), _block_bounds(x_prev, np.minimum))
    high = np.maximum(_block_bounds(x, np.maximum), _block_bounds(x_prev, np.maximum))
    return low, high


@kernel
def overlapping_pairs(now, before, block_low, block_high, block_start, block_end, ob_low, ob_high):
    """The (vertex, obstacle) pairs whose boxes overlap: each vertex's box spans its position in
    ``now`` and in ``before`` ((3, P); the same array for a point), each obstacle's is ``ob_low``
    .. ``ob_high`` (K, 3). Blocks first: a block of vertices ``block_start[j] .. block_end[j] - 1``
    whose box (``block_low``, ``block_high`` (3, blocks)) misses an obstacle's holds no such
    vertex. A NaN anywhere overlaps nothing. Returns (vertex, obstacle), in order of block, then
    obstacle, then vertex."""
    blocks, obstacles = block_start.shape[0], ob_low.shape[0]
    vertex = np.empty(0, dtype=np.int64)
    which = np.empty(0, dtype=np.int64)
    found = 0
    for fill in range(2):  # counted, then written
        if fill == 1:
            vertex = np.empty(found, dtype=np.int64)
            which = np.empty(found, dtype=np.int64)
            found = 0
        for j in range(blocks):
            for o in range(obstacles):
                meets = True
                for a in range(3):
                    meets = meets and ob_low[o, a] <= block_high[a, j] and ob_high[o, a] >= block_low[a, j]
                if not meets:
                    continue
                for k in range(block_start[j], block_end[j]):
                    inside = True
                    for a in range(3):
                        p, q = now[a, k], before[a, k]
                        low, high = (p, q) if p <= q else (q, p)
                        inside = inside and p == p and q == q and ob_low[o, a] <= high and ob_high[o, a] >= low
                    if inside:
                        if fill == 1:
                            vertex[found] = k
                            which[found] = o
                        found += 1
    return vertex, which


def _candidate_pairs(x: np.ndarray, x_prev: np.ndarray, ob_low: np.ndarray, ob_high: np.ndarray, blocks: tuple):
    """(vertex, obstacle) pairs whose swept boxes may overlap. ``x`` and ``x_prev`` are (3, P);
    ``blocks`` their ``_swept_blocks`` (made once a substep, for every kind of obstacle). Only the
    vertices of blocks that meet an obstacle are tested one by one (``overlapping_pairs``)."""
    start, end = _chunks(x.shape[1])
    return overlapping_pairs(np.ascontiguousarray(x), np.ascontiguousarray(x_prev), blocks[0], blocks[1], start, end,
                             np.ascontiguousarray(ob_low), np.ascontiguousarray(ob_high))


@kernel
def within(points, start, margin):
    """Whether every one of (3, P) ``points`` is within ``margin`` of its ``start`` on each axis
    (a NaN is not)."""
    # Counted, not returned at the first: a loop that may stop early is not run several at a time.
    outside = 0
    for c in range(3):
        for i in range(points.shape[1]):
            outside += 0 if abs(points[c, i] - start[c, i]) <= margin else 1
    return outside == 0


class FramePairs:
    """The broad phase done once a frame instead of once a substep. At the frame's start each
    vertex's box is its position grown by ``margin`` on every side (a bound on how far any
    vertex will move in the frame: twice the fastest speed times the frame, plus
    ``FRAME_SLACK``), and the (vertex, obstacle) pairs whose boxes meet are kept, found block by
    block as the substep's own broad phase finds them. The blocks are the world's
    (``contact.FrameBlocks``, bounded once a frame for the slimes' contacts too: each block's
    sphere, as a box), or runs of ``_BLOCK`` vertices where none are given. While no vertex is
    further than ``margin`` from where it started the frame (checked each substep on both ends of
    the swept segment: a few reductions), every pair the substep's broad phase would find is among
    them, and the narrow phase, which tests the segment exactly, finds the same contacts without
    a broad phase of its own. The moment a vertex goes further (a throw, a teleport, a
    re-layout), ``collide_obstacles`` falls back to the substep's own broad phase: never a missed
    contact."""

    def __init__(self, x: np.ndarray, v: np.ndarray, obstacle_set, frame_time: float, blocks=None,
                 film_reach: float = 0.0):
        ob = _as_set(obstacle_set)
        self.obstacles = ob
        self.start = np.array(np.asarray(x).T)  # (3, P), contiguous
        with np.errstate(invalid="ignore", over="ignore"):
            speed = max(float(v.max()), -float(v.min())) if v.size else 0.0  # NaN stays NaN
            self.margin = 2.0 * speed * float(frame_time) + FRAME_SLACK
        # A non-finite start needs no test of its own: it fails every ``holds``.
        self.valid = math.isfinite(self.margin)
        self.kinds = {}
        self.films = {}  # the pairs within ``film_reach`` more: the vertices an obstacle's film can hold
        if not self.valid or self.start.shape[1] == 0:
            return
        if blocks is None:
            start, end = _chunks(self.start.shape[1])
            bounds = _block_bounds(self.start, np.minimum), _block_bounds(self.start, np.maximum)
        else:
            start, end = blocks.start, blocks.end
            bounds = blocks.centre - blocks.radius, blocks.centre + blocks.radius
        for kind, group in ob.groups.items():
            if group.low is None:
                continue
            # A vertex's box grown by the margin meets an obstacle's box when the obstacle's, grown
            # by it, holds the vertex: the substep's broad phase, run on the grown obstacles.
            grown_low, grown_high = group.low - self.margin, group.high + self.margin
            self.kinds[kind] = overlapping_pairs(self.start, self.start, bounds[0], bounds[1], start, end, grown_low,
                                                 grown_high)
            if film_reach > 0.0:
                self.films[kind] = by_vertex(*overlapping_pairs(self.start, self.start, bounds[0], bounds[1], start,
                                                                end, grown_low - film_reach, grown_high + film_reach))

    def holds(self, x: np.ndarray, x_prev: np.ndarray, obstacle_set) -> bool:
        """Whether these pairs still cover the substep from (P, 3) ``x_prev`` to ``x``."""
        if not self.valid or obstacle_set is not self.obstacles or x.shape != self.start.T.shape:
            return False
        if not (within(x.T, self.start, self.margin) and within(x_prev.T, self.start, self.margin)):
            self.valid = False
            return False
        return True


# ---------------------------------------------------------------------------------- response
@kernel
def respond(v, vertex, normal, friction, restitution, threshold):
    """The velocity of each vertex ``vertex[k]`` ((3, P) columns of ``v``) put on a surface of
    outward ``normal[k]``, answered by the one law of every surface (``planes.contact_response``)
    with ``friction[k]``, ``restitution`` and ``threshold``."""
    for k in range(vertex.shape[0]):
        respond_at(v, vertex[k], normal[k, 0], normal[k, 1], normal[k, 2], friction[k], restitution, threshold)


@kernel
def respond_at(v, i, n0, n1, n2, friction, restitution, threshold):
    """``respond`` for one vertex ``i`` on a surface of outward normal (n0, n1, n2)."""
    vn = v[0, i] * n0 + v[1, i] * n1 + v[2, i] * n2
    t0, t1, t2 = v[0, i] - vn * n0, v[1, i] - vn * n1, v[2, i] - vn * n2
    new_vn, keep = contact_response(vn, np.sqrt(t0 * t0 + t1 * t1 + t2 * t2), restitution, friction, threshold)
    v[0, i] = t0 * keep + new_vn * n0
    v[1, i] = t1 * keep + new_vn * n1
    v[2, i] = t2 * keep + new_vn * n2


def collide_obstacles(x: np.ndarray, v: np.ndarray, x_prev: np.ndarray, obstacle_set, restitution: float = 0.0,
                      frame: FramePairs | None = None, grip: np.ndarray | None = None,
                      planes: Planes | None = None) -> int:
    """Resolve every vertex against the static obstacles, in place on (P, 3) float64 ``x`` and
    ``v`` (views allowed); ``x_prev`` are the positions before this substep's integration (for
    the swept test); ``obstacle_set`` an ``ObstacleSet`` (pack it once per scene) or a list of
    obstacles; ``frame`` this frame's ``FramePairs``, used while it holds; ``grip`` (P,) the
    share of an obstacle's friction each vertex takes (None: all of it); ``planes`` the world's
    floor and walls (``Planes``), which no vertex is pushed into (``slide_off_planes``). Returns
    the number of vertex contacts resolved."""
    ob = _as_set(obstacle_set)
    if len(ob) == 0 or x.shape[0] == 0:
        return 0
    restitution = _number("restitution", restitution, 0.0, False)
    planes = Planes.empty(3) if planes is None else planes
    # A non-finite vertex (state broken elsewhere; its body recovers it) compares false everywhere.
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if frame is not None and not frame.holds(x, x_prev, ob):
            frame = None
        return _collide(x, v, x_prev, ob, restitution, frame, friction_shares(grip, x.shape[0]), planes)


def _collide(x, v, x_prev, ob: ObstacleSet, restitution: float, frame: FramePairs | None, grip: np.ndarray,
             planes: Planes) -> int:
    blocks = None
    count = 0
    pairs = {}
    again = None  # the vertices an obstacle moved in the last pass: only they can have been moved into another
    for _ in range(_PASSES):
        moved = []
        for name, group in ob.groups.items():
            if group.low is None:  # unbounded (half-spaces): the kind picks its vertices itself
                vertex, which = group.kind.candidates(group.packed, x)
            elif frame is not None:
                vertex, which = frame.kinds[name]
            elif name in pairs:
                vertex, which = pairs[name]
            else:
                if blocks is None:
                    blocks = _swept_blocks(x.T, x_prev.T)
                vertex, which = pairs[name] = _candidate_pairs(x.T, x_prev.T, group.low, group.high, blocks)
            if again is not None:
                keep = again[vertex]
                vertex, which = vertex[keep], which[keep]
            for _ in range(_ROUNDS):
                if vertex.size == 0:
                    break
                hit, new_x, normal, depth = narrow_phase(group.kind)(group.packed, x, x_prev, vertex, which)
                if new_x is None:
                    break
                put, deep, vertex, which = settle_deepest(x.T, v.T, vertex, which, hit, new_x, normal, depth,
                                                          group.friction, grip, restitution, BOUNCE_THRESHOLD,
                                                          planes.normal, planes.point, planes.friction)
                # Counted once: a later pass finds the vertices it tests again on the surfaces they were put on.
                count += put.size if again is None else 0
                moved.append(put[deep > _ON_SURFACE])
        if not any(put.size for put in moved):
            break
        again = np.zeros(x.shape[0], dtype=np.bool_)
        for put in moved:
            again[put] = True
    return count


@kernel
def settle_deepest(x, v, vertex, which, hit, new_x, normal, depth, friction, grip, restitution, threshold,
                   plane_normal, plane_point, plane_friction):
    """One round of a kind's contacts: of the pairs (``vertex``, ``which``) that ``hit``, each
    vertex takes its deepest (the first of equals) — put at its ``new_x``, its velocity answered
    by ``respond`` with that obstacle's ``friction`` times the vertex's ``grip`` (its share of a
    surface's friction), then slid off the world's planes along the obstacle's face
    (``slide_off_planes``) — and its other hits are tested again in the next round, from where it
    is now. ``x``, ``v``: (3, P); ``new_x``, ``normal``, ``depth`` packed in the hits' order
    (``contacts``). Returns the vertices put back and how deep each was, and the pairs left for
    the next round, ordered by vertex, then depth."""
    hv, hw = vertex[hit], which[hit]
    # By vertex, the deepest first, equals in their order: two stable sorts, the second key first.
    by_depth = np.argsort(-depth, kind="mergesort")
    order = by_depth[np.argsort(hv[by_depth], kind="mergesort")]
    chosen = np.empty(order.size, dtype=np.int64)
    rest = np.empty(order.size, dtype=np.int64)
    kept = left = 0
    for i in range(order.size):
        k = order[i]
        if i == 0 or hv[k] != hv[order[i - 1]]:
            chosen[kept] = k
            kept += 1
        else:
            rest[left] = k
            left += 1
    chosen, rest = chosen[:kept], rest[:left]
    moved = hv[chosen]
    for i in range(kept):
        for a in range(3):
            x[a, moved[i]] = new_x[chosen[i], a]
    respond(v, moved, normal[chosen], friction[hw[chosen]] * grip[moved], restitution, threshold)
    for i in range(kept):
        k = chosen[i]
        slide_off_planes(x, v, moved[i], normal[k, 0], normal[k, 1], normal[k, 2], plane_normal, plane_point,
                         plane_friction, grip[moved[i]], restitution, threshold)
    return moved, depth[chosen], hv[rest], hw[rest]


@kernel
def slide_off_planes(x, v, i, n0, n1, n2, plane_normal, plane_point, plane_friction, grip, restitution, threshold):
    """Vertex ``i`` ((3, P) columns of ``x``, ``v``), just put on an obstacle's face of outward
    normal n, kept out of every plane (the floor, a wall) as well. Where the face dips into a
    plane (a wedge: a tilted box's corner in the floor) the push out of the obstacle alone would
    leave the vertex under the plane, and the plane's push the next substep would put it back
    inside the obstacle, for ever. So a vertex under a plane of normal m goes along the face, in
    the direction m - (m . n) n that rises off the plane fastest while staying on it, onto the
    plane: on the wedge's edge, out of both. Its velocity then answers the plane
    (``contact_response``: the plane's friction times the vertex's ``grip``), and whatever of it
    still goes into the face goes along the plane instead (v - (v . n) / (1 - c^2) (n - c m), c =
    m . n, which keeps v . m): a contact's velocity is what its motion can be. A face nearly
    parallel to the plane, facing it (a box's underside on the floor), has no such direction:
    the vertex goes straight up onto the plane."""
    for p in range(plane_normal.shape[0]):
        m0, m1, m2 = plane_normal[p, 0], plane_normal[p, 1], plane_normal[p, 2]
        under = ((plane_point[p, 0] - x[0, i]) * m0 + (plane_point[p, 1] - x[1, i]) * m1
                 + (plane_point[p, 2] - x[2, i]) * m2)
        if not under > 0.0:
            continue
        c = m0 * n0 + m1 * n1 + m2 * n2
        room = 1.0 - c * c  # |m - c n|^2
        along = room > _PARALLEL
        d0, d1, d2 = (m0 - c * n0, m1 - c * n1, m2 - c * n2) if along else (m0, m1, m2)
        share = under / room if along else under
        x[0, i] += share * d0
        x[1, i] += share * d1
        x[2, i] += share * d2
        respond_at(v, i, m0, m1, m2, plane_friction[p] * grip, restitution, threshold)
        vn = v[0, i] * n0 + v[1, i] * n1 + v[2, i] * n2
        if along and vn < 0.0:
            back = vn / room
            v[0, i] -= back * (n0 - c * m0)
            v[1, i] -= back * (n1 - c * m1)
            v[2, i] -= back * (n2 - c * m2)


def by_vertex(vertex: np.ndarray, which: np.ndarray) -> tuple:
    """(vertex, obstacle) pairs in order of vertex, then obstacle, whichever broad phase found
    them: the films' sums, and so the step, are then the same bit for bit either way."""
    order = np.lexsort((which, vertex))
    return vertex[order], which[order]


def hold_by_films(x: np.ndarray, v: np.ndarray, x_prev: np.ndarray, obstacle_set, model, h: float, held: int,
                  reach: float, frame: FramePairs | None = None, checked: bool = False) -> None:
    """The adhesion of every solid obstacle, after its contacts, in place on (3, P) ``v``: each
    vertex within ``reach`` (the largest film of the ``model``'s bodies, ``adhesion.py``) of an
    obstacle's bounds is measured against its surface (the kind's ``surface``: its height above
    it and the outward normal there) and held back by the film there as by the floor's
    (``adhesion.adhere_to_surfaces``), every body but ``held`` (-1 for none). ``frame`` this
    frame's ``FramePairs`` (made with the same ``reach``), used while it holds: ``checked`` when
    this substep's ``collide_obstacles`` has checked it already (a world's films run right after
    it), else checked here from ``x_prev``, the substep's start."""
    ob = _as_set(obstacle_set)
    if len(ob) == 0 or x.shape[1] == 0 or not reach > 0.0:
        return
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if frame is not None and not (frame.valid if checked else frame.holds(x.T, x_prev.T, ob)):
            frame = None
        vertices, normals, heights = [], [], []
        blocks = None
        for name, group in ob.groups.items():
            if group.low is None:
                continue  # a half-space of the set: the world's planes have their films in its floor stage
            pairs = None if frame is None else frame.films.get(name)
            if pairs is not None:
                vertex, which = pairs
            else:
                if blocks is None:
                    blocks = _swept_blocks(x, x)
                vertex, which = _candidate_pairs(x, x, group.low - reach, group.high + reach, blocks)
                vertex, which = by_vertex(vertex, which)
            if vertex.size == 0:
                continue
            height, normal = surface_of(group.kind)(group.packed, x, vertex, which)
            vertices.append(vertex)  # those beyond the film take no impulse (film_impulse)
            normals.append(normal)
            heights.append(height)
        if not vertices:
            return
        one = len(vertices) == 1
        adhere_to_surfaces(model, x, v, vertices[0] if one else np.concatenate(vertices),
                           np.ascontiguousarray(normals[0] if one else np.concatenate(normals)),
                           heights[0] if one else np.concatenate(heights), float(h), np.int64(held))


# ---------------------------------------------------------------------------------- queries
def signed_distance(points, obstacle_set) -> np.ndarray:
    """(P,) distance of each point to the nearest obstacle surface, negative inside one; inf when
    there are no obstacles. Dense over points x obstacles (for picking and tests)."""
    ob = _as_set(obstacle_set)
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    best = np.full(pts.shape[0], np.inf)
    for group in ob.groups.values():
        best = np.minimum(best, group.kind.distance(group.packed, pts).min(axis=1))
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
    for group in ob.groups.values():
        best = min(best, float(ray_of(group.kind)(group.packed, o, d).min()))
    return best
