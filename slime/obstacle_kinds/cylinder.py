"""A solid capped cylinder (pillars, posts, round tables, drums), upright or turned."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from slime import limits
from slime.obstacle_kinds.base import (ObstacleKind, number, pair_contacts, rotation, rotation_from_degrees, stacked,
                                      to_local, vector3)
from slime.physics.compiled import kernel

SEGMENTS = 48  # around the drawn cylinder


@kernel
def _radial_interval(p0, p2, d0, d2, radius):
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
    (``_radial_interval``) overlap; it enters when that overlap is not empty and starts inside
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
        side_in, side_out = _radial_interval(start[0], start[2], d0, d2, r)
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


@dataclass(frozen=True)
class Cylinder(ObstacleKind):
    """A solid cylinder with flat caps: ``center``, ``radius`` (> 0), ``half_height`` (> 0) along
    its own y axis, ``rotation`` whose columns are its axes in the world (world = center +
    rotation @ local), so the identity stands it upright."""

    center: tuple = (0.0, 0.0, 0.0)
    radius: float = 0.5
    half_height: float = 0.5
    rotation: tuple = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    friction: float = 0.6

    name = "cylinder"
    file_keys = ("center", "radius", "half_height", "rotation")
    required = ("center", "radius", "half_height")
    settle_order = 3

    def __post_init__(self):
        object.__setattr__(self, "center", vector3("cylinder center", self.center))
        object.__setattr__(self, "radius", number("cylinder radius", self.radius, 0.0, True))
        object.__setattr__(self, "half_height", number("cylinder half_height", self.half_height, 0.0, True))
        object.__setattr__(self, "rotation", rotation(self.rotation))
        object.__setattr__(self, "friction", number("cylinder friction", self.friction, 0.0, False))

    # ------------------------------------------------------------------------------ file
    @classmethod
    def read(cls, check, data, where):
        return {"center": check.vector(data["center"], f"{where}.center"),
                "radius": check.number(data["radius"], f"{where}.radius", limits.OBSTACLE_SIZE, "m"),
                "half_height": check.number(data["half_height"], f"{where}.half_height", limits.OBSTACLE_SIZE, "m"),
                "rotation": check.vector(data.get("rotation", [0.0, 0.0, 0.0]), f"{where}.rotation", limits.ANGLE,
                                         "degrees")}

    @classmethod
    def build(cls, values, friction):
        return cls(center=values["center"], radius=values["radius"], half_height=values["half_height"],
                   rotation=rotation_from_degrees(*values["rotation"]), friction=friction)

    # ------------------------------------------------------------------------------ geometry
    @classmethod
    def pack(cls, obstacles):
        p = SimpleNamespace(center=stacked(obstacles, "center"), rotation=stacked(obstacles, "rotation", (3, 3)),
                            radius=np.array([c.radius for c in obstacles], dtype=np.float64),
                            half=np.array([c.half_height for c in obstacles], dtype=np.float64))
        # The world box around a cap of axis a reaches radius * sqrt(1 - a_i^2) along world axis i.
        axis = p.rotation[:, :, 1]
        p.extent = (p.half[:, None] * np.abs(axis)
                    + p.radius[:, None] * np.sqrt(np.maximum(1.0 - axis * axis, 0.0)))
        return p

    @staticmethod
    def distance(p, points):
        local = np.einsum("kji,pkj->pki", p.rotation, points[:, None, :] - p.center[None])
        across = np.hypot(local[..., 0], local[..., 2]) - p.radius[None]
        along = np.abs(local[..., 1]) - p.half[None]
        outside = np.hypot(np.maximum(across, 0.0), np.maximum(along, 0.0))
        return outside + np.minimum(np.maximum(across, along), 0.0)

    @staticmethod
    def contacts(p, x, xp, vertex, which):
        """``cylinder_contacts`` on the pairs; (hit mask, and for the hits: new position, normal, depth)."""
        return pair_contacts(cylinder_contacts, (p.rotation, p.center, p.radius, p.half), x, xp, vertex, which)

    @staticmethod
    def ray(p, o, d):
        lo = np.einsum("kji,kj->ki", p.rotation, o - p.center)
        ld = np.einsum("kji,j->ki", p.rotation, d)
        with np.errstate(divide="ignore", invalid="ignore"):
            t_a, t_b = (-p.half - lo[:, 1]) / ld[:, 1], (p.half - lo[:, 1]) / ld[:, 1]
        parallel = ld[:, 1] == 0.0
        inside = np.abs(lo[:, 1]) <= p.half
        slab_in = np.where(parallel, np.where(inside, -np.inf, np.inf), np.minimum(t_a, t_b))
        slab_out = np.where(parallel, np.where(inside, np.inf, -np.inf), np.maximum(t_a, t_b))
        # The contact kernel's radial interval, one obstacle at a time (a ray meets a few).
        side = [_radial_interval(lo[k, 0], lo[k, 2], ld[k, 0], ld[k, 2], p.radius[k]) for k in range(len(p.radius))]
        side_in, side_out = np.array(side, dtype=np.float64).reshape(-1, 2).T
        t_near, t_far = np.maximum(slab_in, side_in), np.minimum(slab_out, side_out)
        return np.where((t_near <= t_far) & (t_near >= 0.0), t_near, np.inf)

    # ------------------------------------------------------------------------------ drawing
    def triangles(self):
        phi = np.linspace(0.0, 2.0 * np.pi, SEGMENTS + 1)
        around = np.stack([np.sin(phi), np.zeros_like(phi), np.cos(phi)], axis=1)  # unit, local
        up = np.array([0.0, 1.0, 0.0])
        rim = self.radius * around
        top, bottom = rim + self.half_height * up, rim - self.half_height * up
        j, k = slice(None, -1), slice(1, None)
        # The side: two triangles a segment, normals along the radius (smooth shading).
        side = np.stack([bottom[j], bottom[k], top[k], bottom[j], top[k], top[j]], axis=1).reshape(-1, 3)
        side_n = np.stack([around[j], around[k], around[k], around[j], around[k], around[j]], axis=1).reshape(-1, 3)
        caps, caps_n = [], []
        for sign, ring in ((1.0, top), (-1.0, bottom)):
            middle = np.repeat((sign * self.half_height * up)[None], SEGMENTS, axis=0)
            caps.append(np.stack([middle, ring[j], ring[k]], axis=1).reshape(-1, 3))
            caps_n.append(np.repeat((sign * up)[None], 3 * SEGMENTS, axis=0))
        local = np.concatenate([side, *caps])
        normals = np.concatenate([side_n, *caps_n])
        return self.center + local @ self.rotation.T, normals @ self.rotation.T
