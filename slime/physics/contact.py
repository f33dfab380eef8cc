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

Why not test each vertex against the other body's triangles. That was tried first (a ray from
the body's centroid through the vertex, the UV cell it falls in, the current triangle's plane,
barycentric distribution of the reaction): it catches every penetration, but it transmits a
slime's weight through the few vertices that touch first. A slime resting on another meets it
pole on pole; the two pole vertices carry the whole load, the shape restoring force on one vertex
is tiny (its mass times the stiffness), so they sink a dent 20 cm deep into each other and bounce
on it, barely damped, for seconds. The plane acts like the floor: a flat face on which the
contact disc grows until it carries the load, as on the floor.

Response (per pair, vectorised over all pairs' contact vertices with bincounts): the plane moves
at u, the mass-weighted mean normal velocity of the pair's contact vertices; each contact vertex
approaching it is stopped relative to it. The two sides' total impulses are made equal and
opposite by scaling the larger side down to the smaller (so the momentum of the pair is exactly
conserved and no vertex is ever pushed away faster than the plane). Friction: each contact
vertex's tangential velocity is moved toward the pair's mass-weighted mean tangential velocity by
at most ``friction`` times its normal velocity change (Coulomb, never reversing), and whatever
net tangential impulse remains is spread back over the pair's contact vertices by mass, so it sums
to zero as well. The pair's friction is the geometric mean of the two bodies'.

Cost. ``broad_phase`` runs once per frame: it bounds each body by a sphere about its centroid (its
farthest vertex plus how far its vertices can move relative to it within ``horizon``), pairs the
bodies whose swept spheres meet (B x B, a k-d tree past ``_DENSE_BODIES`` bodies) and keeps, per
pair and side, the vertices that can reach that pair's plane within the frame: the candidates,
sorted by pair and side. Per substep ``collide_slimes`` only measures the candidates against
their pair's current plane: a few array operations on the vertices near a contact face, nothing
when the bodies are apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slime.physics.sphere import vertex_count

__all__ = ["BodyTable", "Candidates", "body_centroids", "broad_phase", "collide_slimes"]

_DENSE_BODIES = 512  # up to this many bodies the body pairs come from a dense B x B test
CONTACT_DAMPING = 20.0  # 1/s: the dashpot between touching slimes' centroids (see _dashpot)
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

    @property
    def empty(self) -> bool:
        return self.vertex.size == 0

    @classmethod
    def none(cls) -> "Candidates":
        z = np.zeros(0, dtype=np.int64)
        return cls(z, z, z, z, np.zeros(0))


def body_centroids(table: BodyTable, x: np.ndarray) -> np.ndarray:
    """(B, 3) mass centroids."""
    if table.count == 0:
        return np.zeros((0, 3))
    return np.add.reduceat(table.mass[:, None] * x, table.start, axis=0) / table.body_mass[:, None]


def _body_pairs(centroid: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    b = centroid.shape[0]
    if b < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if b <= _DENSE_BODIES:
        d = centroid[:, None, :] - centroid[None, :, :]
        near = np.einsum("abk,abk->ab", d, d) < (reach[:, None] + reach[None, :]) ** 2
        first, second = np.nonzero(np.triu(near, 1))
        return first, second
    from scipy.spatial import cKDTree

    pairs = cKDTree(centroid).query_pairs(2.0 * float(reach.max()), output_type="ndarray")
    first, second = pairs[:, 0], pairs[:, 1]
    d = centroid[first] - centroid[second]
    keep = np.einsum("ij,ij->i", d, d) < (reach[first] + reach[second]) ** 2
    return first[keep], second[keep]


def _planes(table: BodyTable, x, c, first, second, vertex, pair, side):
    """Per pair: unit normal n (first -> second), the plane's offset along n from c_first, and
    the overlap; per candidate: its signed depth beyond its side of the plane."""
    axis = c[second] - c[first]
    gap = np.sqrt(np.einsum("ij,ij->i", axis, axis))
    normal = axis / np.where(gap > 0.0, gap, 1.0)[:, None]
    own = np.where(side > 0.0, first[pair], second[pair])
    n = normal[pair]
    reach = side * np.einsum("ij,ij->i", x[vertex] - c[own], n)  # how far toward the other body
    # The outermost candidate of each (pair, side): candidates are sorted by pair, then side.
    group = pair * 2 + (side < 0.0)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    extent = np.full(2 * first.size, -np.inf)
    extent[group[starts]] = np.maximum.reduceat(reach, starts)
    extent = extent.reshape(-1, 2)
    overlap = extent[:, 0] + extent[:, 1] - gap
    offset = extent[:, 0] - 0.5 * overlap  # from c_first along n
    along = np.einsum("ij,ij->i", x[vertex] - c[first[pair]], n)
    depth = side * (along - offset[pair])
    valid = gap > 0.0
    return normal, offset, overlap, depth, valid


def broad_phase(table: BodyTable, x: np.ndarray, v: np.ndarray, horizon: float, centroids=None) -> Candidates:
    """Candidates for the next ``horizon`` seconds (one frame): the pairs of bodies that can touch
    by then and, per pair, the vertices that can reach the pair's plane by then, at the current
    speeds."""
    if table.count < 2:
        return Candidates.none()
    horizon = float(horizon)
    c = body_centroids(table, x) if centroids is None else np.asarray(centroids, dtype=np.float64)
    owner = table.body_of_vertex
    rel = x - c[owner]
    reach = np.sqrt(np.maximum.reduceat(np.einsum("ij,ij->i", rel, rel), table.start))
    vc = np.add.reduceat(table.mass[:, None] * v, table.start, axis=0) / table.body_mass[:, None]
    dv = v - vc[owner]
    wobble = np.sqrt(np.maximum.reduceat(np.einsum("ij,ij->i", dv, dv), table.start))
    if not (np.all(np.isfinite(reach)) and np.all(np.isfinite(wobble)) and np.all(np.isfinite(vc))):
        return Candidates.none()
    slack = _SLACK * table.radius
    bound = reach + wobble * horizon + slack
    speed = np.sqrt(np.einsum("ij,ij->i", vc, vc))
    first, second = _body_pairs(c, bound + speed * horizon)
    if first.size == 0:
        return Candidates.none()
    # Every vertex of both bodies of each pair, pair by pair, first's then second's.
    body = np.stack([first, second], axis=1).reshape(-1)
    lengths = table.stop[body] - table.start[body]
    offsets = np.cumsum(lengths) - lengths
    entry = np.repeat(np.arange(body.size), lengths)
    vertex = table.start[body][entry] + (np.arange(entry.size) - offsets[entry])
    pair = entry // 2
    side = np.where(entry % 2 == 0, 1.0, -1.0)
    # Keep the vertices that can reach the plane within the horizon: the plane moves with the
    # centroids and its offset with the bodies' extents, both bounded by the pair's speeds.
    _, _, _, depth, valid = _planes(table, x, c, first, second, vertex, pair, side)
    closing = np.linalg.norm(vc[first] - vc[second], axis=1) + wobble[first] + wobble[second]
    margin = 2.0 * closing * horizon + slack[first] + slack[second]
    keep = valid[pair] & (depth > -margin[pair])
    used = np.zeros(first.size, dtype=bool)
    used[pair[keep]] = True
    # Renumber the pairs that kept candidates (order, and so the sorting, unchanged).
    renumber = np.cumsum(used) - 1
    return Candidates(first[used], second[used], vertex[keep], renumber[pair[keep]], side[keep])


def collide_slimes(
    table: BodyTable,
    candidates: Candidates,
    x: np.ndarray,
    v: np.ndarray,
    centroids: np.ndarray,
    substep: float,
    damping: float = CONTACT_DAMPING,
) -> int:
    """One substep of slime-slime contact, in place on (P, 3) float64 ``x`` and ``v`` (views
    allowed), after the substep's integration: ``candidates`` from this frame's ``broad_phase``,
    ``centroids`` (B, 3) the bodies' current mass centroids, ``substep`` its length (s),
    ``damping`` the contact dashpot's rate (1/s). Returns the number of vertices put back on a
    contact plane."""
    if candidates.empty:
        return 0
    c = np.asarray(centroids, dtype=np.float64)
    first, second = candidates.first, candidates.second
    vertex, pair, side = candidates.vertex, candidates.pair, candidates.side
    normal, _, overlap, depth, valid = _planes(table, x, c, first, second, vertex, pair, side)
    hit = np.flatnonzero(valid[pair] & (overlap[pair] > 0.0) & (depth > 0.0))
    if hit.size == 0:
        return 0
    vertex, pair, side, depth = vertex[hit], pair[hit], side[hit], depth[hit]
    n = normal[pair]
    x[vertex] -= (side * depth)[:, None] * n
    # The plane's velocity: the mass-weighted mean of its contact vertices'.
    npairs = first.size
    m = table.mass[vertex]
    vel = v[vertex]
    vn = np.einsum("ij,ij->i", vel, n)
    pair_mass = np.bincount(pair, m, minlength=npairs)
    plane_speed = np.bincount(pair, m * vn, minlength=npairs) / np.where(pair_mass > 0.0, pair_mass, 1.0)
    approach = np.maximum(side * (vn - plane_speed[pair]), 0.0)  # toward the other body
    # Each side's total impulse, then the larger one scaled down to the smaller: equal, opposite.
    group = pair * 2 + (side < 0.0)
    side_impulse = np.bincount(group, m * approach, minlength=2 * npairs).reshape(-1, 2)
    common = side_impulse.min(axis=1)
    scale = common[:, None] / np.where(side_impulse > 0.0, side_impulse, 1.0)
    dvn = -side * approach * scale.reshape(-1)[group]  # the normal velocity change
    # Friction toward the pair's mean tangential velocity, Coulomb-limited.
    tangent = vel - vn[:, None] * n
    mean_t = np.stack([np.bincount(pair, m * tangent[:, a], minlength=npairs) for a in range(3)], axis=1)
    mean_t /= np.where(pair_mass > 0.0, pair_mass, 1.0)[:, None]
    slip = mean_t[pair] - tangent
    slip_speed = np.sqrt(np.einsum("ij,ij->i", slip, slip))
    mu = np.sqrt(table.friction[first] * table.friction[second])[pair]
    keep = np.minimum(1.0, mu * np.abs(dvn) / np.where(slip_speed > 0.0, slip_speed, 1.0))
    dvt = slip * keep[:, None]
    net = np.stack([np.bincount(pair, m * dvt[:, a], minlength=npairs) for a in range(3)], axis=1)
    dvt -= net[pair] / pair_mass[pair][:, None]
    v[vertex] = vel + dvn[:, None] * n + dvt
    _dashpot(table, v, first, second, overlap, normal, float(substep), float(damping))
    return hit.size


def _dashpot(table: BodyTable, v, first, second, overlap, normal, substep: float, damping: float) -> None:
    """Damp the normal relative velocity of the centroids of touching pairs at ``damping`` per
    second (exactly exponential, so any rate is stable), as equal and opposite velocity changes of
    every vertex of the two bodies (no torque, no deformation).

    Why: a slime carries a load through the few vertices that touch, each held to its place in
    the body only by the shape restoring pull on its own mass, so the stack's bounce is a soft,
    slow spring (about 1.5 s a period for three 0.5 m slimes) that the slime's viscosity, which
    only acts on the touching vertices' motion relative to their body, hardly damps: a stack rocks
    for tens of seconds. Slime on slime is an inelastic contact; the dashpot stands for the
    squeezing of the two skins between the bodies."""
    touching = np.flatnonzero(overlap > 0.0)
    if touching.size == 0 or damping <= 0.0:
        return
    a, b = first[touching], second[touching]
    n = normal[touching]
    mass = table.body_mass
    vc = np.add.reduceat(table.mass[:, None] * v, table.start, axis=0) / mass[:, None]
    closing = np.einsum("ij,ij->i", vc[b] - vc[a], n)
    change = -np.expm1(-damping * substep) * closing / (mass[a] + mass[b])  # times the other's mass
    dv = np.zeros((table.count, 3))
    for axis in range(3):
        dv[:, axis] += np.bincount(a, change * mass[b] * n[:, axis], minlength=table.count)
        dv[:, axis] -= np.bincount(b, change * mass[a] * n[:, axis], minlength=table.count)
    v += dv[table.body_of_vertex]
