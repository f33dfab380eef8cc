"""Slime-slime contact: soft UV-sphere bodies whose vertices live in one set of arrays, body after
body, pushed apart by equal and opposite, mass-weighted impulses with Coulomb friction.

The contact surface of a pair. Shape matching keeps a slime near its rest sphere, so two touching
slimes meet in a lens, and two pressed together flatten against each other along a face that is
close to a plane across the line of their centroids (for equal bodies of one material it is that
plane; Hertz: each body yields half of the overlap). Each touching pair (a, b) therefore gets one
plane per substep, with normal n along c_b - c_a, placed halfway through the overlap of the two
bodies' extents along that line: r_a = max over a's vertices of (x - c_a) . n, r_b the same for b
along -n, overlap o = r_a + r_b - |c_b - c_a|. Every vertex of a beyond the plane, and every
vertex of b before it, is put back on it: neither body can enter the other, at any resolution or
mix of resolutions (the plane does not look at the triangles), and no vertex is ever "inside"
after the contact. The plane is placed from the bodies' outermost vertices, not from their dents,
so a vertex pushed into its own body does not drag the other body's surface after it.

Why not test each vertex against the other body's triangles (a ray from the body's centroid
through the vertex, the UV cell it falls in, the current triangle's plane, barycentric
distribution of the reaction): it catches every penetration, but it transmits a slime's weight
through the few vertices that touch first. A slime resting on another meets it
pole on pole; the two pole vertices carry the whole load, the shape restoring force on one vertex
is tiny (its mass times the stiffness), so they sink a dent 20 cm deep into each other and bounce
on it, barely damped, for seconds. The plane acts like the floor: a flat face on which the
contact disc grows until it carries the load, as on the floor.

Response (per pair, one compiled pass over all pairs' contact vertices, ``contact_planes``): the plane moves
at u, and each contact vertex approaching it is stopped on it, moving on at u along n (a perfectly
inelastic contact). u is the one speed at which the two sides' impulses are equal and opposite
(``balanced_speed``), so the pair's momentum is exactly conserved and every vertex stopped on the
plane moves on with it: none keeps a speed into the other body that its position, put back every
substep, never follows (scaling the larger side's impulse down to the smaller's, as this did
before, left the heavier side's vertices so: kinetic energy a pile at rest held for good).
Friction: each contact
vertex's tangential velocity is moved toward the pair's mass-weighted mean tangential velocity by
at most ``friction`` times its normal velocity change (Coulomb, never reversing), and whatever
net tangential impulse remains is spread back over the pair's contact vertices by mass, so it sums
to zero as well. The pair's friction is the geometric mean of the two bodies'.

Cost. ``broad_phase`` runs once per frame: it bounds each body by a sphere about its centroid
and pairs the bodies whose spheres, grown by how far they can move within ``horizon``, meet (B x
B, a k-d tree past ``_DENSE_BODIES`` bodies). Per pair it then bounds runs of ``_BLOCK``
consecutive vertices (short arcs of a ring) by spheres: the blocks that can hold a side's
outermost vertex give the exact plane, and only the blocks, then the vertices, that can reach
that plane within the frame (relative speed and wobble times ``horizon``, plus a small slack)
become candidates, sorted by pair and side (the blocks and vertices in compiled passes,
``block_bounds`` and ``plane_candidates``; the pairs of bodies in numpy). Per substep
``collide_slimes`` measures only the candidates against their pair's current plane
(``contact_planes``, a compiled pass over the candidates), so bodies that are apart cost nothing
per substep. ``damp_contacts`` runs once per frame. tests/support/contact_pile_cost.py measures each
part in a pile of 16 slimes of 32 x 32 in a box.

How a world calls it: ``table = BodyTable(...)`` when bodies are added or removed; each frame
``blocks = frame_blocks(table, x, v)`` (which the obstacles' ``FramePairs`` reads too),
``candidates = broad_phase(table, x, v, dt, blocks=blocks)`` and the pairs' normals for the frame
(``candidates.normals``, see ``World3D``), then per substep, after the integrator,
``collide_slimes(table, candidates, x, v)`` (with held normals the planes need no centroids;
without, pass the substep's), and after the substeps ``damp_contacts(table, candidates, x, v,
centroids, dt)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.slime3d.moments import centres_of_mass, mass_centroids

from slime.physics.slime3d.sphere import vertex_count

__all__ = ["BodyTable", "Candidates", "FrameBlocks", "body_centroids", "broad_phase", "collide_slimes", "damp_contacts",
           "frame_blocks", "pair_axes"]

_DENSE_BODIES = 512  # up to this many bodies the body pairs come from a dense B x B test
CONTACT_DAMPING = 10.0  # 1/s: the dashpot between touching slimes' centroids (see _dashpot)
_BLOCK = 4  # vertices per broad-phase block (an eighth of a ring at 32 slices)
_TOUCH = 0.01  # radii: pairs this close count as touching for the dashpot
_SLACK = 0.02  # radii: candidates are kept this far from their plane even between still bodies


@dataclass
class BodyTable:
    """The bodies' layout in the shared arrays (fixed while the set of bodies is unchanged):
    body ``k`` owns vertices ``start[k]:stop[k]``, a UV sphere of ``stacks[k] x slices[k]``
    (``sphere.py``'s order), rest radius ``radius[k]``; ``mass`` (P,) per vertex; Coulomb
    ``friction`` (B,) per body (or one for all)."""

    start: np.ndarray
    stop: np.ndarray
    stacks: np.ndarray
    slices: np.ndarray
    radius: np.ndarray
    mass: np.ndarray
    friction: np.ndarray

    def __post_init__(self):
        self.start = np.asarray(self.start, dtype=np.int64).reshape(-1)
        self.stop = np.asarray(self.stop, dtype=np.int64).reshape(-1)
        self.stacks = np.asarray(self.stacks, dtype=np.int64).reshape(-1)
        self.slices = np.asarray(self.slices, dtype=np.int64).reshape(-1)
        self.radius = np.asarray(self.radius, dtype=np.float64).reshape(-1)
        self.mass = np.asarray(self.mass, dtype=np.float64).reshape(-1)
        b = self.start.size
        try:
            self.friction = np.broadcast_to(np.asarray(self.friction, dtype=np.float64), (b,)).copy()
        except ValueError:
            raise ValueError(f"body table: friction must be one number or one per body ({b})") from None
        for name in ("stop", "stacks", "slices", "radius"):
            if getattr(self, name).shape != (b,):
                raise ValueError(f"body table: {name} must have one entry per body ({b})")
        if b and (np.any(self.stacks < 3) or np.any(self.slices < 3)):
            raise ValueError("body table: stacks and slices must be at least 3")
        if b and not np.array_equal(self.stop - self.start, vertex_count(self.stacks, self.slices)):
            raise ValueError("body table: each body's vertex range must hold (stacks - 1) * slices + 2 vertices")
        if b and (self.start[0] != 0 or np.any(self.start[1:] != self.stop[:-1])):
            raise ValueError("body table: bodies must be stored one after another from vertex 0")
        total = int(self.stop[-1]) if b else 0
        if self.mass.shape != (total,) or not np.all(self.mass > 0.0) or not np.all(np.isfinite(self.mass)):
            raise ValueError(f"body table: mass must be ({total},) positive finite vertex masses")
        if not (np.all(self.radius > 0.0) and np.all(np.isfinite(self.radius))):
            raise ValueError("body table: radii must be positive and finite")
        if not (np.all(self.friction >= 0.0) and np.all(np.isfinite(self.friction))):
            raise ValueError("body table: friction must be finite and >= 0")
        self.body_of_vertex = np.repeat(np.arange(b), self.stop - self.start)
        self.body_mass = np.add.reduceat(self.mass, self.start) if b else np.zeros(0)
        self.blocks = None  # broad-phase blocks, made on first use

    @classmethod
    def from_bodies(cls, bodies, friction=0.5) -> "BodyTable":
        """The table for ``SlimeBody``-like objects (``params.stacks/slices/radius``, ``mass``)
        stored one after another in that order."""
        sizes = np.array([vertex_count(b.params.stacks, b.params.slices) for b in bodies], dtype=np.int64)
        stop = np.cumsum(sizes)
        return cls(
            start=stop - sizes,
            stop=stop,
            stacks=[b.params.stacks for b in bodies],
            slices=[b.params.slices for b in bodies],
            radius=[b.params.radius for b in bodies],
            mass=np.concatenate([b.mass for b in bodies]) if bodies else np.zeros(0),
            friction=friction,
        )

    @property
    def count(self) -> int:
        return self.start.size


@dataclass
class Candidates:
    """The broad phase's answer for one frame: the touching-or-soon pairs of bodies
    (``first[p]``, ``second[p]``) and the vertices that may meet their plane: ``vertex[k]`` of
    pair ``pair[k]`` on side ``side[k]`` (+1: a vertex of ``first``, -1: of ``second``), sorted
    by pair, then side."""

    first: np.ndarray
    second: np.ndarray
    vertex: np.ndarray
    pair: np.ndarray
    side: np.ndarray
    # Each pair's plane normal for this frame, where the caller holds it (a pair that does not
    # slide keeps its contact face: see World3D); None: the line of centres, substep by substep.
    normals: np.ndarray | None = None
    velocity: np.ndarray | None = None  # (B, 3) every body's centroid velocity when they were found

    @property
    def empty(self) -> bool:
        return self.vertex.size == 0

    @classmethod
    def none(cls) -> "Candidates":
        z = np.zeros(0, dtype=np.int64)
        return cls(z, z, z, z, np.zeros(0))


@dataclass
class FrameBlocks:
    """The world's broad-phase blocks, bounded once at a frame's start and shared by both broad
    phases: the slimes' (which pairs of bodies, and which of their vertices, can meet a pair's
    plane: ``broad_phase``) and the obstacles' (which vertices can reach which obstacle:
    ``obstacles.FramePairs``). A block is a run of ``_BLOCK`` consecutive vertices of one body
    (an arc of a ring: compact), the last of a body taking what is left."""

    start: np.ndarray  # (blocks,) each block's first vertex
    end: np.ndarray  # (blocks,) one past its last
    body_blocks: np.ndarray  # (B + 1,) each body's first block, then the number of blocks
    centre: np.ndarray  # (3, blocks) the mean of the block's vertices
    radius: np.ndarray  # (blocks,) its farthest vertex from that mean
    centroids: np.ndarray  # (B, 3) the bodies' centres of mass
    velocity: np.ndarray  # (B, 3) and their velocities
    reach: np.ndarray  # (B,) how far from its centroid a body's blocks go
    wobble: np.ndarray  # (B,) the fastest any vertex moves relative to its body's centroid


def frame_blocks(table: BodyTable, x: np.ndarray, v: np.ndarray, centroids=None) -> FrameBlocks:
    """The table's blocks and their bounds for positions ``x`` and velocities ``v`` (P, 3) (best
    the transposes of (3, P) C-contiguous arrays, read without a copy): ``block_bounds``."""
    c = body_centroids(table, x) if centroids is None else centroids
    c = np.ascontiguousarray(c, dtype=np.float64)
    if table.blocks is None:
        table.blocks = _blocks(table)
    block_start, body_blocks = table.blocks
    vc = mass_centroids(v, table.mass, table.start)
    centre, radius, reach, wobble = block_bounds(
        np.ascontiguousarray(np.asarray(x, dtype=np.float64).T), np.ascontiguousarray(np.asarray(v, dtype=np.float64).T),
        c, vc, table.stop, block_start, body_blocks)
    end = np.append(block_start[1:], table.stop[-1] if table.count else 0)
    return FrameBlocks(block_start, end, body_blocks, centre, radius, c, vc, reach, wobble)


def body_centroids(table: BodyTable, x: np.ndarray) -> np.ndarray:
    """(B, 3) mass centroids of the table's bodies."""
    return mass_centroids(x, table.mass, table.start)


def _body_pairs(centroid: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    b = centroid.shape[0]
    if b < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if b <= _DENSE_BODIES:
        d = centroid[:, None, :] - centroid[None, :, :]
        near = np.einsum("abk,abk->ab", d, d) < (reach[:, None] + reach[None, :]) ** 2
        first, second = np.nonzero(np.triu(near, 1))
        # nonzero gives strided views of one (pairs, 2) array: contiguous copies, so that the
        # kernels they go to are compiled for one layout.
        return np.ascontiguousarray(first), np.ascontiguousarray(second)
    from scipy.spatial import cKDTree

    pairs = cKDTree(centroid).query_pairs(2.0 * float(reach.max()), output_type="ndarray")
    first, second = pairs[:, 0], pairs[:, 1]
    d = centroid[first] - centroid[second]
    keep = np.einsum("ij,ij->i", d, d) < (reach[first] + reach[second]) ** 2
    return first[keep], second[keep]


def pair_axes(c, first, second, normals=None):
    """Each pair's plane normal (from ``first`` toward ``second``) and the distance between the
    two centroids along it: the line of centres, or the frame's held ``normals`` (see
    ``Candidates.normals``)."""
    axis = c[second] - c[first]
    if normals is not None:
        return normals, np.einsum("ij,ij->i", axis, normals)
    gap = np.sqrt(np.einsum("ij,ij->i", axis, axis))
    normal = axis / np.where(gap > 0.0, gap, 1.0)[:, None]
    return normal, gap


def _blocks(table: BodyTable):
    """Broad-phase blocks: runs of ``_BLOCK`` consecutive vertices of one body (an arc of a ring:
    compact), as (B_blocks,) start indices and the first block of each body."""
    starts = [np.arange(a, b, _BLOCK) for a, b in zip(table.start.tolist(), table.stop.tolist())]
    counts = np.array([s.size for s in starts], dtype=np.int64)
    return np.concatenate(starts), np.concatenate([[0], np.cumsum(counts)])


@kernel
def _larger(a, b):
    """The larger of ``a`` and ``b``, NaN where either is (numpy's ``maximum``): a broken body's
    bound stays NaN, and the broad phase sees it."""
    if a != a or b != b:
        return a + b
    return a if a >= b else b


@kernel
def block_bounds(x, v, c, vc, stop, block_start, body_blocks):
    """Bounds of every block and body, from (3, P) positions ``x`` and velocities ``v``, the
    bodies' (B, 3) centroids ``c`` and centroid velocities ``vc``: each block's centre (3, blocks),
    the mean of its vertices, and radius, its farthest vertex from that centre; each body's reach,
    how far from its centroid any of its blocks' spheres goes (a sphere about the centroid that
    holds the body); each body's wobble, the fastest any vertex moves relative to its centroid
    (how fast the body can change shape, so how far a vertex can stray from where the bounds put
    it). The sums run in the order numpy's ``reduceat`` and ``einsum`` take them (a block's first
    vertex plus the rest left to right; x, z, then y for a dot product with a centre), so these are
    the bounds that numpy would compute, to a fused multiply-add's last bit."""
    bodies = stop.shape[0]
    blocks = block_start.shape[0]
    centre = np.empty((3, blocks))
    radius = np.empty(blocks)
    reach = np.empty(bodies)
    wobble = np.empty(bodies)
    for b in range(bodies):
        first_block, end_block = body_blocks[b], body_blocks[b + 1]
        c0, c1, c2 = c[b, 0], c[b, 1], c[b, 2]
        far = -np.inf
        for j in range(first_block, end_block):
            begin = block_start[j]
            end = block_start[j + 1] if j + 1 < end_block else stop[b]
            s0 = s1 = s2 = 0.0
            for k in range(begin + 1, end):
                s0 += x[0, k]
                s1 += x[1, k]
                s2 += x[2, k]
            n = end - begin
            m0 = (x[0, begin] + s0) / n
            m1 = (x[1, begin] + s1) / n
            m2 = (x[2, begin] + s2) / n
            spread = -np.inf
            for k in range(begin, end):
                d0 = x[0, k] - m0
                d1 = x[1, k] - m1
                d2 = x[2, k] - m2
                spread = _larger(spread, d0 * d0 + d1 * d1 + d2 * d2)
            r = np.sqrt(spread)
            centre[0, j] = m0
            centre[1, j] = m1
            centre[2, j] = m2
            radius[j] = r
            t0 = (m0 - c0) * (m0 - c0)
            t1 = (m1 - c1) * (m1 - c1)
            t2 = (m2 - c2) * (m2 - c2)
            far = _larger(far, np.sqrt((t0 + t2) + t1) + r)
        reach[b] = far
        u0, u1, u2 = vc[b, 0], vc[b, 1], vc[b, 2]
        fastest = -np.inf
        for k in range(block_start[first_block], stop[b]):
            d0 = v[0, k] - u0
            d1 = v[1, k] - u1
            d2 = v[2, k] - u2
            fastest = _larger(fastest, d0 * d0 + d1 * d1 + d2 * d2)
        wobble[b] = np.sqrt(fastest)
    return centre, radius, reach, wobble


@kernel
def _block_end(block_start, body_blocks, stop, body, j):
    """One past the last vertex of block ``j`` of ``body``."""
    return block_start[j + 1] if j + 1 < body_blocks[body + 1] else stop[body]


@kernel
def _block_along(centre, j, o0, o1, o2, n0, n1, n2):
    """(centre of block ``j`` - o) . n, summed x, z, then y (numpy's ``einsum`` order)."""
    t0 = (centre[0, j] - o0) * n0
    t1 = (centre[1, j] - o1) * n1
    t2 = (centre[2, j] - o2) * n2
    return (t0 + t2) + t1


@kernel
def _vertex_along(x, k, o0, o1, o2, n0, n1, n2):
    """(x_k - o) . n for column ``k`` of (3, P) ``x``, summed x, y, then z."""
    return (x[0, k] - o0) * n0 + (x[1, k] - o1) * n1 + (x[2, k] - o2) * n2


@kernel
def _side_extent(x, centre, radius, block_start, body_blocks, stop, body, sign, o0, o1, o2, n0, n1, n2, gap):
    """How far ``body``'s outermost vertex reaches toward the other body of its pair, along the
    pair's normal n from the first body's centroid o (``sign`` +1: ``body`` is the first, measured
    along n; -1: the second, measured back from the other centroid, ``gap`` away, along -n). Only
    the blocks whose spheres reach past every block's near end can hold that vertex: their
    vertices are measured, the others skipped."""
    floor = -np.inf
    for j in range(body_blocks[body], body_blocks[body + 1]):
        along = _block_along(centre, j, o0, o1, o2, n0, n1, n2)
        toward = along if sign > 0.0 else gap - along
        floor = _larger(floor, toward - radius[j])
    extent = -np.inf
    for j in range(body_blocks[body], body_blocks[body + 1]):
        along = _block_along(centre, j, o0, o1, o2, n0, n1, n2)
        toward = along if sign > 0.0 else gap - along
        if toward + radius[j] >= floor:
            for k in range(block_start[j], _block_end(block_start, body_blocks, stop, body, j)):
                along = _vertex_along(x, k, o0, o1, o2, n0, n1, n2)
                extent = _larger(extent, along if sign > 0.0 else gap - along)
    return extent


@kernel
def plane_candidates(x, c, centre, radius, block_start, body_blocks, stop, first, second, normal, gap, margin):
    """The vertices of each pair (``first[p]``, ``second[p]``) that can reach the pair's plane
    within ``margin[p]``: the plane crosses the pair's unit ``normal[p]`` (first toward second)
    halfway through the overlap of the two bodies' extents along it (``_side_extent``), and a
    vertex is kept when it lies within ``margin[p]`` of that plane or beyond it. Blocks first
    (a block whose sphere, ``centre`` and ``radius``, stays farther than the margin holds no such
    vertex), then the kept blocks' vertices. A pair whose centroids coincide (``gap[p]`` 0) has no
    plane and keeps nothing. ``x`` (3, P), ``c`` (B, 3) centroids. Returns (vertex, pair, side),
    sorted by pair, then side (+1.0 the first body's vertices, -1.0 the second's), then vertex."""
    pairs = first.shape[0]
    bound = 0
    for p in range(pairs):
        bound += body_blocks[first[p] + 1] - body_blocks[first[p]]
        bound += body_blocks[second[p] + 1] - body_blocks[second[p]]
    kept_block = np.empty(bound, dtype=np.int64)
    kept_pair = np.empty(bound, dtype=np.int64)
    kept_side = np.empty(bound)
    kept_body = np.empty(bound, dtype=np.int64)
    offset = np.empty(pairs)
    blocks = 0
    vertices = 0
    for p in range(pairs):
        a, b, g = first[p], second[p], gap[p]
        o0, o1, o2 = c[a, 0], c[a, 1], c[a, 2]
        n0, n1, n2 = normal[p, 0], normal[p, 1], normal[p, 2]
        near = _side_extent(x, centre, radius, block_start, body_blocks, stop, a, 1.0, o0, o1, o2, n0, n1, n2, g)
        far = _side_extent(x, centre, radius, block_start, body_blocks, stop, b, -1.0, o0, o1, o2, n0, n1, n2, g)
        # The plane's distance from c_first along n.
        plane = 0.5 * ((near - far) + g)
        offset[p] = plane
        if not g > 0.0:
            continue
        for body, sign in ((a, 1.0), (b, -1.0)):
            for j in range(body_blocks[body], body_blocks[body + 1]):
                along = _block_along(centre, j, o0, o1, o2, n0, n1, n2)
                if sign * (along - plane) + radius[j] > -margin[p]:
                    kept_block[blocks] = j
                    kept_pair[blocks] = p
                    kept_side[blocks] = sign
                    kept_body[blocks] = body
                    blocks += 1
                    vertices += _block_end(block_start, body_blocks, stop, body, j) - block_start[j]
    vertex = np.empty(vertices, dtype=np.int64)
    pair = np.empty(vertices, dtype=np.int64)
    side = np.empty(vertices)
    count = 0
    for i in range(blocks):
        j, p, sign = kept_block[i], kept_pair[i], kept_side[i]
        a = first[p]
        o0, o1, o2 = c[a, 0], c[a, 1], c[a, 2]
        n0, n1, n2 = normal[p, 0], normal[p, 1], normal[p, 2]
        for k in range(block_start[j], _block_end(block_start, body_blocks, stop, kept_body[i], j)):
            along = _vertex_along(x, k, o0, o1, o2, n0, n1, n2)
            if sign * (along - offset[p]) > -margin[p]:
                vertex[count] = k
                pair[count] = p
                side[count] = sign
                count += 1
    return vertex[:count], pair[:count], side[:count]


def broad_phase(table: BodyTable, x: np.ndarray, v: np.ndarray, horizon: float, centroids=None,
                blocks: FrameBlocks | None = None, faces=None) -> Candidates:
    """Candidates for the next ``horizon`` seconds (one frame): the pairs of bodies that can touch
    by then and, per pair, the vertices that can reach the pair's plane by then, at the current
    speeds. Bounds first: each body's sphere, then blocks of ``_BLOCK`` vertices against the
    pair's plane (placed within bounds from the blocks' extents), then the blocks' vertices
    (``frame_blocks``, which a world makes once a frame for its obstacles too, and
    ``plane_candidates``, compiled; the pairs of bodies in numpy). ``x``, ``v``: (P, 3), best
    the transpose of a (3, P) C-contiguous array (the world's), which the kernels read without a
    copy. ``faces``: None for planes across the lines of centres, or a function
    ``faces(first, second, centroids, velocities)`` giving the frame's normal of each pair (a held
    contact face, ``Candidates.normals``): the candidates are the vertices near the plane the
    substeps will use, so a vertex lying on a held face is one of them wherever the line of
    centres has turned."""
    if table.count < 2:
        return Candidates.none()
    horizon = float(horizon)
    if blocks is None:
        blocks = frame_blocks(table, x, v, centroids)
    c, vc, reach, wobble = blocks.centroids, blocks.velocity, blocks.reach, blocks.wobble
    columns = np.ascontiguousarray(np.asarray(x, dtype=np.float64).T)
    if not (np.all(np.isfinite(reach)) and np.all(np.isfinite(wobble)) and np.all(np.isfinite(vc))):
        return Candidates.none()
    slack = _SLACK * table.radius
    speed = np.sqrt(np.einsum("ij,ij->i", vc, vc))
    first, second = _body_pairs(c, reach + wobble * horizon + slack + speed * horizon)
    if first.size == 0:
        return Candidates.none()
    normal, gap = pair_axes(c, first, second, None if faces is None else faces(first, second, c, vc))
    closing = np.linalg.norm(vc[first] - vc[second], axis=1) + wobble[first] + wobble[second]
    margin = 2.0 * closing * horizon + slack[first] + slack[second]
    vertex, pair, side = plane_candidates(columns, c, blocks.centre, blocks.radius, blocks.start, blocks.body_blocks,
                                          table.stop, first, second, np.ascontiguousarray(normal), gap, margin)
    used = np.zeros(first.size, dtype=bool)
    used[pair] = True
    # Renumber the pairs that kept candidates (order, and so the sorting, unchanged).
    renumber = np.cumsum(used) - 1
    return Candidates(first[used], second[used], vertex, renumber[pair], side,
                      normals=None if faces is None else normal[used], velocity=vc)


def collide_slimes(
    table: BodyTable,
    candidates: Candidates,
    x: np.ndarray,
    v: np.ndarray,
    centroids: np.ndarray | None = None,
) -> int:
    """One substep of slime-slime contact, in place on (P, 3) float64 ``x`` and ``v`` (views
    allowed), after the substep's integration: ``candidates`` from this frame's ``broad_phase``,
    ``centroids`` (B, 3) the bodies' current mass centroids, whose lines give the pairs' normals
    where the candidates hold none (``Candidates.normals``). Where they do, the centroids are
    not needed: the plane lies halfway between the two bodies' outermost vertices along the
    normal, wherever the centroids are. Returns the number of vertices put back on a contact
    plane (``contact_planes``, compiled)."""
    if candidates.empty:
        return 0
    if candidates.normals is None and centroids is None:
        raise ValueError("collide_slimes needs the centroids when the candidates hold no normals")
    # A body broken within the frame (non-finite; its own step recovers it) compares false.
    with np.errstate(invalid="ignore", over="ignore"):
        return _collide(table, candidates, x, v, centroids)


def _collide(table: BodyTable, candidates: Candidates, x, v, centroids) -> int:
    if candidates.normals is not None:
        normal = candidates.normals
    else:
        normal, _ = pair_axes(np.asarray(centroids, dtype=np.float64), candidates.first, candidates.second)
    friction = np.sqrt(table.friction[candidates.first] * table.friction[candidates.second])
    return contact_planes(x, v, table.mass, np.ascontiguousarray(normal, dtype=np.float64), friction,
                          candidates.vertex, candidates.pair, candidates.side)


@kernel
def contact_planes(x, v, mass, normal, friction, vertex, pair, side):
    """Each candidate pair's contact plane, and what it does to the vertices that crossed it.

    Per pair, along its normal n: the plane lies halfway between the two bodies' outermost
    candidates toward each other (side +1 the first body's vertices, -1 the second's; a side
    without candidates means no contact). A vertex past it is put back on it (a vertex in a crevice
    meets two planes, and both act). Its velocity then changes:

    - along n: a vertex approaching the other body faster than the plane moves is stopped on it,
      moving on at the plane's speed u, the one at which the two sides' impulses are equal and
      opposite (``balanced_speed``); one leaving it keeps its speed;
    - across n: toward the pair's mass-weighted mean tangential velocity, by at most the friction
      coefficient (the pair's geometric mean) times the normal change, with the change's own mean
      taken out so that friction moves no momentum either.

    ``x``, ``v``: (P, 3) views; the candidates sorted by pair, then side. Returns the number of
    vertices put back."""
    pairs = normal.shape[0]
    count = vertex.shape[0]
    # The outermost candidate of each (pair, side) toward the other body.
    extent = np.full((pairs, 2), -np.inf)
    along = np.empty(count)
    for c in range(count):
        k, p = vertex[c], pair[c]
        along[c] = x[k, 0] * normal[p, 0] + x[k, 1] * normal[p, 1] + x[k, 2] * normal[p, 2]
        g = 0 if side[c] > 0.0 else 1
        extent[p, g] = max(extent[p, g], side[c] * along[c])
    # The vertices past their pair's plane, put back on it.
    hit = np.empty(count, dtype=np.int64)
    depth = np.empty(count)
    hits = 0
    for c in range(count):
        p = pair[c]
        offset = 0.5 * (extent[p, 0] - extent[p, 1])  # NaN for a side without candidates: no contact
        d = side[c] * along[c] - side[c] * offset
        if d > 0.0:
            hit[hits] = c
            depth[hits] = d
            hits += 1
    if hits == 0:
        return 0
    # Velocities as they were before any change, and the pairs' masses; the hits of a pair are
    # consecutive (the candidates are sorted by pair).
    vn = np.empty(hits)
    hit_mass = np.empty(hits)
    hit_side = np.empty(hits)
    pair_mass = np.zeros(pairs)
    pair_hits = np.zeros(pairs + 1, dtype=np.int64)
    for h in range(hits):
        c = hit[h]
        k, p = vertex[c], pair[c]
        vn[h] = v[k, 0] * normal[p, 0] + v[k, 1] * normal[p, 1] + v[k, 2] * normal[p, 2]
        hit_mass[h] = mass[k]
        hit_side[h] = side[c]
        pair_mass[p] += mass[k]
        pair_hits[p + 1] = h + 1
    for p in range(pairs):
        pair_hits[p + 1] = max(pair_hits[p + 1], pair_hits[p])
        if not pair_mass[p] > 0.0:
            pair_mass[p] = 1.0
    for h in range(hits):
        c = hit[h]
        k, p = vertex[c], pair[c]
        push = side[c] * depth[h]
        for a in range(3):
            x[k, a] -= push * normal[p, a]
    # Each vertex approaching the plane is stopped on it: the normal change u - v_n.
    speed = np.empty(pairs)
    for p in range(pairs):
        begin, end = pair_hits[p], pair_hits[p + 1]
        speed[p] = balanced_speed(vn[begin:end], hit_mass[begin:end], hit_side[begin:end]) if end > begin else 0.0
    approach = np.empty(hits)
    for h in range(hits):
        c = hit[h]
        approach[h] = max(side[c] * (vn[h] - speed[pair[c]]), 0.0)
    # Friction toward the pair's mean tangential velocity.
    tangent = np.empty((hits, 3))
    pair_tangent = np.zeros((pairs, 3))
    for h in range(hits):
        c = hit[h]
        k, p = vertex[c], pair[c]
        for a in range(3):
            tangent[h, a] = v[k, a] - vn[h] * normal[p, a]
            pair_tangent[p, a] += mass[k] * tangent[h, a]
    dvn = np.empty(hits)
    dvt = np.empty((hits, 3))
    pair_dvt = np.zeros((pairs, 3))
    for h in range(hits):
        c = hit[h]
        k, p = vertex[c], pair[c]
        dvn[h] = -side[c] * approach[h]
        s0 = pair_tangent[p, 0] / pair_mass[p] - tangent[h, 0]
        s1 = pair_tangent[p, 1] / pair_mass[p] - tangent[h, 1]
        s2 = pair_tangent[p, 2] / pair_mass[p] - tangent[h, 2]
        slip = math.sqrt(s0 * s0 + s1 * s1 + s2 * s2)
        keep = min(1.0, friction[p] * abs(dvn[h]) / (slip if slip > 0.0 else 1.0))
        dvt[h, 0], dvt[h, 1], dvt[h, 2] = s0 * keep, s1 * keep, s2 * keep
        for a in range(3):
            pair_dvt[p, a] += mass[k] * dvt[h, a]
    for h in range(hits):
        c = hit[h]
        k, p = vertex[c], pair[c]
        for a in range(3):
            v[k, a] += dvn[h] * normal[p, a] + dvt[h, a] - pair_dvt[p, a] / pair_mass[p]
    return hits


@kernel
def balanced_speed(vn, mass, side):
    """The speed u along a pair's normal at which its plane, stopping every contact vertex that
    approaches it (normal speeds ``vn``, ``mass``, ``side`` +1 for the first body's vertices, -1
    for the second's), takes as much momentum from one side as it gives the other:

        f(u) = sum over side +1 of m max(v_n - u, 0) - sum over side -1 of m max(u - v_n, 0) = 0.

    f falls monotonically from >= 0 at the slowest v_n to <= 0 at the fastest and is linear
    between neighbouring speeds, so the root is found exactly: the speeds in order, walking the
    intervals between them with the masses on each side of u summed as it goes, the first
    interval that holds its own linear root. With no vertex on one side or a NaN, the
    mass-weighted mean."""
    count = vn.shape[0]
    total = weighted = 0.0
    for i in range(count):
        total += mass[i]
        weighted += mass[i] * vn[i]
    mean = weighted / total if total > 0.0 else 0.0
    order = np.argsort(vn)
    # Below every v_n: each side +1 vertex approaches, no side -1 vertex does.
    sum_mv = mass_in = 0.0
    for i in range(count):
        if side[i] > 0.0:
            sum_mv += mass[i] * vn[i]
            mass_in += mass[i]
    low = -np.inf
    for j in range(count + 1):
        high = vn[order[j]] if j < count else np.inf
        if mass_in > 0.0:
            u = sum_mv / mass_in
            if low <= u <= high:
                return u
        if j < count:
            # Past v_n of this vertex: a side +1 one no longer approaches, a side -1 one now does.
            k = order[j]
            if side[k] > 0.0:
                sum_mv -= mass[k] * vn[k]
                mass_in -= mass[k]
            else:
                sum_mv += mass[k] * vn[k]
                mass_in += mass[k]
            low = high
    return mean


def damp_contacts(
    table: BodyTable, candidates: Candidates, x: np.ndarray, v: np.ndarray, centroids: np.ndarray, dt: float,
    rate: float = CONTACT_DAMPING,
) -> None:
    """Once per frame (``dt``), after its substeps: damp the normal relative velocity of the
    centroids of the touching pairs at ``rate`` per second (exactly exponential, so any rate is
    stable), as equal and opposite velocity changes of every vertex of the two bodies (no torque,
    no deformation; momentum kept).

    Why: a slime carries a load through the vertices that touch, each held to its place in the
    body only by the shape restoring pull on its own mass, so a stack's bounce is a soft, slow
    spring (about 1.5 s a period for three 0.5 m slimes) that the slime's viscosity, which acts on
    motion relative to the body, hardly damps: a stack rocks for tens of seconds. Slime on slime is
    an inelastic contact; the dashpot stands for the squeezing of the skins between the bodies."""
    if candidates.empty or rate <= 0.0:
        return
    c = np.ascontiguousarray(centroids, dtype=np.float64)
    normal, _ = pair_axes(c, candidates.first, candidates.second, candidates.normals)
    columns = np.ascontiguousarray(np.asarray(x, dtype=np.float64).T)
    velocities = np.asarray(v).T
    own = velocities if velocities.flags.c_contiguous and velocities.dtype == np.float64 else velocities.copy()
    contact_dashpot(columns, own, table.mass, table.start, table.stop - table.start, table.body_mass, table.radius, c,
                    candidates.first, candidates.second, np.ascontiguousarray(normal),
                    candidates.vertex, candidates.pair, candidates.side, -math.expm1(-float(rate) * float(dt)))
    if own is not velocities:
        velocities[...] = own


@kernel
def contact_dashpot(x, v, mass, start, count, body_mass, radius, c, first, second, normal, vertex, pair, side,
                    decay):
    """``damp_contacts``' dashpot on (3, P) positions ``x`` and velocities ``v`` (changed in
    place): the pairs (``first``, ``second``) whose candidates (``vertex``, ``pair``, ``side``)
    overlap along ``normal``, or are apart by less than ``_TOUCH`` of their radii (``c`` the
    centroids), lose the fraction ``decay`` of their centroids' closing speed v_n along n, as
    equal and opposite changes of every vertex of the two bodies:
    Delta v_a = decay v_n M_b / (M_a + M_b) n, Delta v_b = -decay v_n M_a / (M_a + M_b) n."""
    pairs = first.shape[0]
    bodies = start.shape[0]
    # How far each side reaches toward the other along n, both from the first body's centroid:
    # the first side's farthest vertex toward the second, and minus the second side's nearest to
    # the first (its own extent toward the first less the gap), so that their sum is the overlap.
    reach = np.full((pairs, 2), -np.inf)
    for k in range(vertex.shape[0]):
        p, a = pair[k], first[pair[k]]
        along = _vertex_along(x, vertex[k], c[a, 0], c[a, 1], c[a, 2], normal[p, 0], normal[p, 1], normal[p, 2])
        g = 0 if side[k] > 0.0 else 1
        reach[p, g] = _larger(reach[p, g], side[k] * along)
    velocity = centres_of_mass(v, mass, start, count)
    # The first bodies' changes and the second bodies', summed apart (pair by pair, in order).
    gained = np.zeros((bodies, 3))
    lost = np.zeros((bodies, 3))
    for p in range(pairs):
        a, b = first[p], second[p]
        if not (reach[p, 0] + reach[p, 1] >= -_TOUCH * (radius[a] + radius[b])):
            continue
        closing = ((velocity[b, 0] - velocity[a, 0]) * normal[p, 0] + (velocity[b, 1] - velocity[a, 1]) * normal[p, 1]
                   + (velocity[b, 2] - velocity[a, 2]) * normal[p, 2])
        change = decay * closing / (body_mass[a] + body_mass[b])
        if not math.isfinite(change):
            continue  # a body broken within the frame (its recovery follows) leaves its partner alone
        for d in range(3):
            gained[a, d] += change * body_mass[b] * normal[p, d]
            lost[b, d] += change * body_mass[a] * normal[p, d]
    for body in range(bodies):
        for d in range(3):
            dv = gained[body, d] - lost[body, d]
            row = v[d, start[body]:start[body] + count[body]]
            for k in range(count[body]):
                row[k] += dv
