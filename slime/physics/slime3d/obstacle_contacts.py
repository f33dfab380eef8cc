"""The contacts of the built-in solid obstacle kinds (slime/obstacle_kinds: their parameters,
packing, distances, triangles and file keys): each kind's compiled narrow phase, a vertex's
segment ``x_prev -> x`` in the substep against the solid; its surface, where a vertex is above it
and which way it faces there (for the adhesion's film); and the cylinder's ray. The physics reads
them through ``narrow_phase``, ``surface_of`` and ``ray_of``, which fall back to a kind's own
``contacts``, ``surface`` and ``ray`` methods for a kind of your own (``obstacle_kinds.register``):
a registry by kind, as Box2D keeps its shape-pair functions beside the shapes.
"""

from __future__ import annotations

import math

import numpy as np

from slime.obstacle_kinds import Ball, Box, Cylinder
from slime.obstacle_kinds.base import NO_CONTACT
from slime.physics.compiled import kernel


def pair_contacts(compiled, packed: tuple, x, xp, vertex, which):
    """Run a kind's compiled contact kernel on the candidate pairs and answer as ``contacts``
    does: (hit mask, and for the hits their new positions, normals and depths), or (hit, None,
    None, None). ``compiled(*packed, x, xp, vertex, which, hit, new_x, normal, depth)`` reads the
    positions as (3, P) columns (the world's own layout: ``x`` comes as their (P, 3) transpose),
    writes the hits packed in order and returns their count."""
    pairs = len(vertex)
    hit = np.zeros(pairs, dtype=np.bool_)
    new_x, normal, depth = np.empty((pairs, 3)), np.empty((pairs, 3)), np.empty(pairs)
    count = compiled(*packed, np.ascontiguousarray(x.T), np.ascontiguousarray(xp.T),
                     np.ascontiguousarray(vertex, dtype=np.int64), np.ascontiguousarray(which, dtype=np.int64),
                     hit, new_x, normal, depth) if pairs else 0
    if count == 0:
        return (hit, *NO_CONTACT)
    return hit, new_x[:count], normal[:count], depth[:count]


@kernel
def to_local(rotation, center, o, points, i, out):
    """Write into ``out`` (3,) column ``i`` of (3, P) ``points`` in the frame of turned obstacle
    ``o`` (``rotation`` (K, 3, 3), whose columns are its axes, and ``center`` (K, 3)):
    R^T (p - c)."""
    for a in range(3):
        out[a] = ((points[0, i] - center[o, 0]) * rotation[o, 0, a] + (points[1, i] - center[o, 1]) * rotation[o, 1, a]
                  + (points[2, i] - center[o, 2]) * rotation[o, 2, a])


@kernel
def box_contacts(rotation, center, half, x, xp, vertex, box, hit, new_x, normal, depth):
    """Each pair k's segment ``xp -> x`` of vertex ``vertex[k]`` ((3, P) columns) against box
    ``box[k]``, in the box's frame: local = R^T (x - c). The segment enters when its slab interval
    (the latest entry t over the three axes, the earliest exit) is not empty and starts inside the
    substep, t in [0, 1]. It goes back to the face it entered by, along that face's normal only
    (its tangential motion kept); one that started inside (spawned there) leaves by the nearest
    face. An axis the segment does not move along divides by zero: its interval is (-inf, inf)
    inside the slab, empty outside, NaN on its boundary, and a NaN interval is no entry (a
    segment that only grazes a face). Writes ``hit`` (pairs,) and, packed in the hits' order, the
    position put back on the surface, the outward normal and the depth; returns how many hit."""
    hits = 0
    end = np.empty(3)
    start = np.empty(3)
    for k in range(vertex.shape[0]):
        i, o = vertex[k], box[k]
        to_local(rotation, center, o, x, i, end)
        to_local(rotation, center, o, xp, i, start)
        inside_now = inside_before = True
        enter, leave, entry_axis, graze = -np.inf, np.inf, 0, False
        for a in range(3):
            h = half[o, a]
            inside_now = inside_now and abs(end[a]) < h
            inside_before = inside_before and abs(start[a]) < h
            inv = 1.0 / (end[a] - start[a])
            t_a, t_b = (-h - start[a]) * inv, (h - start[a]) * inv
            graze = graze or t_a != t_a or t_b != t_b
            near, far = min(t_a, t_b), max(t_a, t_b)
            if near > enter or a == 0:
                enter, entry_axis = near, a
            leave = min(leave, far)
        crossed = not graze and not inside_before and enter <= leave and 0.0 <= enter <= 1.0 and leave > 0.0
        hit[k] = crossed or (inside_before and inside_now)
        if not hit[k]:
            continue
        nearest_axis = 0
        for a in range(1, 3):
            if half[o, a] - abs(end[a]) < half[o, nearest_axis] - abs(end[nearest_axis]):
                nearest_axis = a
        axis = entry_axis if crossed else nearest_axis
        side = 1.0 if end[nearest_axis] >= 0.0 else -1.0
        if crossed and start[entry_axis] != 0.0:
            side = 1.0 if start[entry_axis] > 0.0 else -1.0
        # Along the face's normal only: from the local coordinate to the face's, in world terms.
        delta = side * half[o, axis] - end[axis]
        for c in range(3):
            normal[hits, c] = rotation[o, c, axis] * side  # the box's axis, outward
            new_x[hits, c] = x[c, i] + normal[hits, c] * side * delta
        depth[hits] = abs(delta)
        hits += 1
    return hits


@kernel
def ball_contacts(center, radius, x, xp, vertex, ball, hit, new_x, normal, depth):
    """Each pair k's segment ``xp -> x`` of vertex ``vertex[k]`` ((3, P) columns) against ball
    ``ball[k]``, relative to its centre c: p(t) = (xp - c) + t d, d = x - xp. It enters where
    |p(t)|^2 = r^2, the quadratic a t^2 + 2 b t + (|xp - c|^2 - r^2) = 0 with a = d.d and
    b = (xp - c).d: the first root t = (-b - sqrt(b^2 - a (|xp - c|^2 - r^2))) / a, when it is in
    [0, 1], the segment moves (a > 0) and the line cuts the sphere (discriminant > 0: a tangent
    one only grazes it). One that started inside (spawned there) and is still inside is a hit too,
    its "entry point" its end. The entry point's direction n from the centre (+y when it is the
    centre) says the side: the end point keeps its motion along the surface (its part across n)
    and is put back onto the sphere on that side, the outward normal its direction. NaN or inf
    positions fail every test (no hit). Writes ``hit`` (pairs,) and, packed in the hits' order,
    the position put back on the surface, the outward normal and the depth (r - |x - c|, at
    least 0); returns how many hit."""
    hits = 0
    for k in range(vertex.shape[0]):
        i, o = vertex[k], ball[k]
        r = radius[o]
        r2 = r * r
        e0, e1, e2 = x[0, i] - center[o, 0], x[1, i] - center[o, 1], x[2, i] - center[o, 2]
        s0, s1, s2 = xp[0, i] - center[o, 0], xp[1, i] - center[o, 1], xp[2, i] - center[o, 2]
        dist2 = e0 * e0 + e1 * e1 + e2 * e2
        prev2 = s0 * s0 + s1 * s1 + s2 * s2
        inside_before = prev2 < r2
        d0, d1, d2 = e0 - s0, e1 - s1, e2 - s2
        a = d0 * d0 + d1 * d1 + d2 * d2
        b = s0 * d0 + s1 * d1 + s2 * d2
        disc = b * b - a * (prev2 - r2)
        crossed = False
        enter = 1.0
        if not inside_before and a > 0.0 and disc > 0.0:
            enter = (-b - np.sqrt(disc)) / a
            crossed = 0.0 <= enter <= 1.0
        hit[k] = crossed or (inside_before and dist2 < r2)
        if not hit[k]:
            continue
        t = enter if crossed else 1.0
        p0, p1, p2 = s0 + t * d0, s1 + t * d1, s2 + t * d2
        length = np.sqrt(p0 * p0 + p1 * p1 + p2 * p2)
        n0, n1, n2 = 0.0, 1.0, 0.0
        if length > 1e-12:
            n0, n1, n2 = p0 / length, p1 / length, p2 / length
        # The end point's motion along the surface (its part across n), on the sphere's side n.
        along = e0 * n0 + e1 * n1 + e2 * n2
        on0, on1, on2 = r * n0 + (e0 - along * n0), r * n1 + (e1 - along * n1), r * n2 + (e2 - along * n2)
        on_length = np.sqrt(on0 * on0 + on1 * on1 + on2 * on2)
        if not on_length > 1e-12:
            on_length = 1.0
        normal[hits, 0], normal[hits, 1], normal[hits, 2] = on0 / on_length, on1 / on_length, on2 / on_length
        for c in range(3):
            new_x[hits, c] = center[o, c] + r * normal[hits, c]
        gap = r - np.sqrt(dist2)
        depth[hits] = gap if gap > 0.0 or gap != gap else 0.0  # np.maximum's: NaN stays NaN
        hits += 1
    return hits


@kernel
def radial_interval(p0, p2, d0, d2, radius):
    """The t interval in which the line ``p + t d`` (local x and z) is within ``radius`` of the
    axis: the roots of a t^2 + 2 b t + c = 0 (a = d.d, b = p.d, c = p.p - radius^2 over x and z);
    a line along the axis (a = 0) is inside for every t or for none, and a tangent or missing
    line (discriminant <= 0) for none. A NaN discriminant gives a NaN interval."""
    a = d0 * d0 + d2 * d2
    b = p0 * d0 + p2 * d2
    c = p0 * p0 + p2 * p2 - radius * radius
    if a == 0.0:
        return (-np.inf, np.inf) if c < 0.0 else (np.inf, -np.inf)
    disc = b * b - a * c
    if disc <= 0.0:
        return np.inf, -np.inf
    root = np.sqrt(disc)
    return (-b - root) / a, (-b + root) / a


@kernel
def cylinder_contacts(rotation, center, radius, half, x, xp, vertex, which, hit, new_x, normal, depth):
    """Each pair k's segment ``xp -> x`` of vertex ``vertex[k]`` ((3, P) columns) against cylinder
    ``which[k]``, in its frame: local = R^T (x - c), the axis local y. The segment is inside the
    solid where its interval inside the caps' slab (|y| <= h) and its interval within the radius
    (``radial_interval``) overlap; it enters when that overlap is not empty and starts inside
    the substep, t in [0, 1], and the later of the two entries says whether through a cap or the
    side. Through a cap it goes back to the cap's plane along the axis; through the side onto the
    side along the radius of its entry point (+x when that is on the axis), keeping its motion
    around and along the cylinder. One that started inside (spawned there) leaves by the surface
    nearest its start: one put on the surface last substep may measure inside by a rounding
    error, and its nearest surface then is the one it lies on (not the far cap of a thin disc it
    is moving into). A segment not moving along the axis divides by zero: its slab interval is
    (-inf, inf) between the caps, empty outside, NaN on a cap's plane; a NaN interval (that
    grazing, or NaN or inf positions) is no entry. Writes ``hit`` (pairs,) and, packed in the
    hits' order, the position put back on the surface, the outward normal and the depth;
    returns how many hit."""
    hits = 0
    end = np.empty(3)
    start = np.empty(3)
    for k in range(vertex.shape[0]):
        i, o = vertex[k], which[k]
        r, h = radius[o], half[o]
        to_local(rotation, center, o, x, i, end)
        to_local(rotation, center, o, xp, i, start)
        r2_now = end[0] * end[0] + end[2] * end[2]
        r2_prev = start[0] * start[0] + start[2] * start[2]
        inside_now = r2_now < r * r and abs(end[1]) < h
        inside_before = r2_prev < r * r and abs(start[1]) < h
        d0, d1, d2 = end[0] - start[0], end[1] - start[1], end[2] - start[2]
        inv = 1.0 / d1
        t_a, t_b = (-h - start[1]) * inv, (h - start[1]) * inv
        slab_in, slab_out = min(t_a, t_b), max(t_a, t_b)
        side_in, side_out = radial_interval(start[0], start[2], d0, d2, r)
        enter, leave = max(slab_in, side_in), min(slab_out, side_out)
        graze = t_a != t_a or t_b != t_b or side_in != side_in or side_out != side_out
        crossed = not graze and not inside_before and enter <= leave and 0.0 <= enter <= 1.0 and leave > 0.0
        hit[k] = crossed or (inside_before and inside_now)
        if not hit[k]:
            continue
        if crossed:
            through_side = side_in > slab_in
        else:
            through_side = r - np.sqrt(r2_prev) < h - abs(start[1])
        n0, n1, n2 = 0.0, 1.0 if start[1] >= 0.0 else -1.0, 0.0  # the cap's side: where it came from
        m0, m1, m2 = 0.0, n1 * h - end[1], 0.0
        if through_side:
            # The end point moved onto the surface on its entry point's side.
            p0, p2 = start[0], start[2]
            if crossed:
                p0, p2 = p0 + enter * d0, p2 + enter * d2
            entry_r = math.hypot(p0, p2)
            u0, u2 = 1.0, 0.0
            if entry_r > 1e-12:
                u0, u2 = p0 / entry_r, p2 / entry_r
            radial = end[0] * u0 + end[2] * u2
            on0, on2 = r * u0 + (end[0] - radial * u0), r * u2 + (end[2] - radial * u2)
            on_r = math.hypot(on0, on2)
            if not on_r > 1e-12:
                on_r = 1.0
            n0, n1, n2 = on0 / on_r, 0.0, on2 / on_r
            m0, m1, m2 = r * n0 - end[0], 0.0, r * n2 - end[2]
            gap = r - np.sqrt(r2_now)
            depth[hits] = gap if gap > 0.0 or gap != gap else 0.0  # np.maximum's: NaN stays NaN
        else:
            depth[hits] = abs(m1)
        for c in range(3):
            normal[hits, c] = rotation[o, c, 0] * n0 + rotation[o, c, 1] * n1 + rotation[o, c, 2] * n2
            new_x[hits, c] = x[c, i] + (rotation[o, c, 0] * m0 + rotation[o, c, 1] * m1 + rotation[o, c, 2] * m2)
        hits += 1
    return hits


@kernel
def box_surface(rotation, center, half, x, vertex, box, height, normal):
    """Each pair k's vertex ``vertex[k]`` ((3, P) columns) against box ``box[k]``: its signed
    distance to the surface (negative inside) into ``height[k]`` and the outward normal at the
    nearest surface point into ``normal[k]``. In the box's frame, local = R^T (x - c) and
    q = |local| - half: outside (some q_a > 0) the nearest point is local clamped to the box, the
    distance and direction those of local from it; inside, the face of the largest q_a."""
    local = np.empty(3)
    for k in range(vertex.shape[0]):
        i, o = vertex[k], box[k]
        to_local(rotation, center, o, x, i, local)
        out0 = out1 = out2 = 0.0
        deepest, axis = -np.inf, 0
        for a in range(3):
            q = abs(local[a]) - half[o, a]
            if q > deepest:
                deepest, axis = q, a
        d0 = local[0] - min(max(local[0], -half[o, 0]), half[o, 0])
        d1 = local[1] - min(max(local[1], -half[o, 1]), half[o, 1])
        d2 = local[2] - min(max(local[2], -half[o, 2]), half[o, 2])
        gap = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        if gap > 0.0:
            out0, out1, out2 = d0 / gap, d1 / gap, d2 / gap
            height[k] = gap
        else:
            side = 1.0 if local[axis] >= 0.0 else -1.0
            out0, out1, out2 = (side if axis == 0 else 0.0), (side if axis == 1 else 0.0), (side if axis == 2 else 0.0)
            height[k] = deepest
        for c in range(3):
            normal[k, c] = rotation[o, c, 0] * out0 + rotation[o, c, 1] * out1 + rotation[o, c, 2] * out2


@kernel
def ball_surface(center, radius, x, vertex, ball, height, normal):
    """Each pair k's vertex against ball ``ball[k]``: height |x - c| - r and the outward normal
    (x - c) / |x - c| (+y at the centre)."""
    for k in range(vertex.shape[0]):
        i, o = vertex[k], ball[k]
        e0, e1, e2 = x[0, i] - center[o, 0], x[1, i] - center[o, 1], x[2, i] - center[o, 2]
        length = math.sqrt(e0 * e0 + e1 * e1 + e2 * e2)
        height[k] = length - radius[o]
        if length > 1e-12:
            normal[k, 0], normal[k, 1], normal[k, 2] = e0 / length, e1 / length, e2 / length
        else:
            normal[k, 0], normal[k, 1], normal[k, 2] = 0.0, 1.0, 0.0


@kernel
def cylinder_surface(rotation, center, radius, half, x, vertex, which, height, normal):
    """Each pair k's vertex against cylinder ``which[k]``, in its frame (the axis local y): with
    q_r = sqrt(x^2 + z^2) - r and q_y = |y| - h, outside (either > 0) the distance and direction
    from the nearest point of the solid (the rim's, a cap's or the side's), inside the nearer of
    the side (along the radius; +x on the axis) and the cap."""
    local = np.empty(3)
    for k in range(vertex.shape[0]):
        i, o = vertex[k], which[k]
        to_local(rotation, center, o, x, i, local)
        rho = math.hypot(local[0], local[2])
        u0, u2 = (local[0] / rho, local[2] / rho) if rho > 1e-12 else (1.0, 0.0)
        cap = 1.0 if local[1] >= 0.0 else -1.0
        q_r, q_y = rho - radius[o], abs(local[1]) - half[o]
        out_r, out_y = max(q_r, 0.0), max(q_y, 0.0)
        gap = math.hypot(out_r, out_y)
        if gap > 0.0:
            n0, n1, n2 = u0 * out_r / gap, cap * out_y / gap, u2 * out_r / gap
            height[k] = gap
        elif q_r > q_y:
            n0, n1, n2 = u0, 0.0, u2
            height[k] = q_r
        else:
            n0, n1, n2 = 0.0, cap, 0.0
            height[k] = q_y
        for c in range(3):
            normal[k, c] = rotation[o, c, 0] * n0 + rotation[o, c, 1] * n1 + rotation[o, c, 2] * n2


def pair_surfaces(compiled, packed: tuple, x, vertex, which):
    """Run a kind's compiled surface kernel on the pairs and answer as ``surface`` does: (n,)
    heights and (n, 3) outward normals; ``x`` (3, P), the world's columns."""
    pairs = len(vertex)
    height, normal = np.empty(pairs), np.empty((pairs, 3))
    if pairs:
        compiled(*packed, x, np.ascontiguousarray(vertex, dtype=np.int64), np.ascontiguousarray(which, dtype=np.int64),
                 height, normal)
    return height, normal


def cylinder_ray(p, o, d):
    """(K,) distance along the unit ray ``o + t d`` to each packed cylinder's surface, inf where it
    misses: the overlap of its caps' slab and the contact kernel's ``radial_interval``."""
    lo = np.einsum("kji,kj->ki", p.rotation, o - p.center)
    ld = np.einsum("kji,j->ki", p.rotation, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        t_a, t_b = (-p.half - lo[:, 1]) / ld[:, 1], (p.half - lo[:, 1]) / ld[:, 1]
    parallel = ld[:, 1] == 0.0
    inside = np.abs(lo[:, 1]) <= p.half
    slab_in = np.where(parallel, np.where(inside, -np.inf, np.inf), np.minimum(t_a, t_b))
    slab_out = np.where(parallel, np.where(inside, np.inf, -np.inf), np.maximum(t_a, t_b))
    # One obstacle at a time: a ray meets a few.
    side = [radial_interval(lo[k, 0], lo[k, 2], ld[k, 0], ld[k, 2], p.radius[k]) for k in range(len(p.radius))]
    side_in, side_out = np.array(side, dtype=np.float64).reshape(-1, 2).T
    t_near, t_far = np.maximum(slab_in, side_in), np.minimum(slab_out, side_out)
    return np.where((t_near <= t_far) & (t_near >= 0.0), t_near, np.inf)


# Each built-in kind's narrow phase over its packing (``ObstacleKind.contacts``' form).
NARROW_PHASES = {
    Box: lambda p, x, xp, vertex, which: pair_contacts(box_contacts, (p.rotation, p.center, p.half), x, xp, vertex,
                                                       which),
    Ball: lambda p, x, xp, vertex, which: pair_contacts(ball_contacts, (p.center, p.radius), x, xp, vertex, which),
    Cylinder: lambda p, x, xp, vertex, which: pair_contacts(cylinder_contacts, (p.rotation, p.center, p.radius, p.half),
                                                            x, xp, vertex, which),
}
RAYS = {Cylinder: cylinder_ray}
# Each built-in kind's surface over its packing (``ObstacleKind.surface``' form).
SURFACES = {
    Box: lambda p, x, vertex, which: pair_surfaces(box_surface, (p.rotation, p.center, p.half), x, vertex, which),
    Ball: lambda p, x, vertex, which: pair_surfaces(ball_surface, (p.center, p.radius), x, vertex, which),
    Cylinder: lambda p, x, vertex, which: pair_surfaces(cylinder_surface, (p.rotation, p.center, p.radius, p.half),
                                                        x, vertex, which),
}


def _nearest(kind: type, table: dict, method: str):
    """A kind's ``method``: its own where it (or a class between it and a built-in kind) gives
    one, else the nearest built-in ancestor's from ``table`` (a subclass of ``Ball`` collides as a
    ball), else what the protocol says."""
    for cls in kind.__mro__:
        if cls in table:
            return table[cls]
        if method in cls.__dict__:
            return getattr(kind, method)
    return getattr(kind, method)


def narrow_phase(kind: type):
    """``contacts(packed, x, x_prev, vertex, which)`` of an obstacle kind: the built-in kinds'
    compiled ones here, a kind of your own its own method."""
    return _nearest(kind, NARROW_PHASES, "contacts")


def surface_of(kind: type):
    """``surface(packed, x, vertex, which)`` of an obstacle kind (see ``narrow_phase``)."""
    return _nearest(kind, SURFACES, "surface")


def ray_of(kind: type):
    """``ray(packed, origin, direction)`` of an obstacle kind (see ``narrow_phase``)."""
    return _nearest(kind, RAYS, "ray")
