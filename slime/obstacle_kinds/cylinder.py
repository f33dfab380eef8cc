"""A solid capped cylinder (pillars, posts, round tables, drums), upright or turned."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from slime import limits
from slime.obstacle_kinds.base import NO_CONTACT, ObstacleKind, number, rotation, rotation_from_degrees, stacked, vector3

SEGMENTS = 48  # around the drawn cylinder


def _radial_interval(p0, p2, d0, d2, radius):
    """The t interval in which the line ``p + t d`` (local x and z) is within ``radius`` of the
    axis: a quadratic's roots; a line along the axis is inside for every t or for none, and a
    tangent or missing line for none."""
    a = d0 * d0 + d2 * d2
    b = p0 * d0 + p2 * d2
    c = p0 * p0 + p2 * p2 - radius * radius
    disc = b * b - a * c
    along = a == 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        low, high = (-b - root) / a, (-b + root) / a
    missed = ~along & (disc <= 0.0)
    low = np.where(along, np.where(c < 0.0, -np.inf, np.inf), np.where(missed, np.inf, low))
    high = np.where(along, np.where(c < 0.0, np.inf, -np.inf), np.where(missed, -np.inf, high))
    return low, high


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
        """A segment enters the cylinder where its interval inside the caps' slab and its interval
        within the radius (a quadratic) overlap, starting inside the substep: the later of the two
        entries says whether it came through a cap or the side. Through a cap it goes back to the
        cap's plane along the axis; through the side back onto the side along the radius of its
        entry point, keeping its motion around and along the cylinder. One that started inside
        (spawned there) leaves by the surface nearest its start."""
        rot, center, radius, half = p.rotation[which], p.center[which], p.radius[which], p.half[which]
        now = x[vertex]
        ends = np.stack((now, xp[vertex]))
        ends -= center
        local, prev = np.einsum("kji,skj->ski", rot, ends)  # R^T (x - c) at the substep's end and start
        r2_now = local[:, 0] ** 2 + local[:, 2] ** 2
        r2_prev = prev[:, 0] ** 2 + prev[:, 2] ** 2
        inside_now = (r2_now < radius * radius) & (np.abs(local[:, 1]) < half)
        inside_before = (r2_prev < radius * radius) & (np.abs(prev[:, 1]) < half)
        d = local - prev
        # As a box's slab: a NaN (a segment lying on a cap's plane) fails every comparison below.
        inv = 1.0 / d[:, 1]
        t_a, t_b = (-half - prev[:, 1]) * inv, (half - prev[:, 1]) * inv
        slab_in, slab_out = np.minimum(t_a, t_b), np.maximum(t_a, t_b)
        side_in, side_out = _radial_interval(prev[:, 0], prev[:, 2], d[:, 0], d[:, 2], radius)
        enter = np.maximum(slab_in, side_in)
        leave = np.minimum(slab_out, side_out)
        crossed = (enter <= leave) & (enter >= 0.0) & (enter <= 1.0) & (leave > 0.0) & ~inside_before
        hit = crossed | (inside_before & inside_now)
        if not hit.any():
            return (hit, *NO_CONTACT)
        idx = np.flatnonzero(hit)
        loc, before, rad, h, r_now = local[idx], prev[idx], radius[idx], half[idx], np.sqrt(r2_now[idx])
        use_entry = crossed[idx]
        # A vertex inside at the start leaves by the surface nearest where it started: one put on
        # the surface last substep may measure inside by a rounding error, and its nearest
        # surface then is the one it lies on (not the far cap of a thin disc it is moving into).
        through_side = np.where(use_entry, side_in[idx] > slab_in[idx],
                                rad - np.sqrt(r2_prev[idx]) < h - np.abs(before[:, 1]))
        # Cap: the axial coordinate to the cap's, on the side the vertex came from.
        cap_side = np.sign(before[:, 1])
        cap_side = np.where(cap_side == 0.0, 1.0, cap_side)
        cap_delta = cap_side * h - loc[:, 1]
        # Side: the end point moved onto the surface on its entry point's side.
        entry = np.where(use_entry[:, None], before + enter[idx, None] * d[idx], before)
        entry_r = np.hypot(entry[:, 0], entry[:, 2])
        safe = np.where(entry_r > 1e-12, entry_r, 1.0)
        n0 = np.where(entry_r > 1e-12, entry[:, 0] / safe, 1.0)
        n2 = np.where(entry_r > 1e-12, entry[:, 2] / safe, 0.0)
        radial = loc[:, 0] * n0 + loc[:, 2] * n2
        on0, on2 = rad * n0 + (loc[:, 0] - radial * n0), rad * n2 + (loc[:, 2] - radial * n2)
        on_r = np.hypot(on0, on2)
        on_r = np.where(on_r > 1e-12, on_r, 1.0)
        out0, out2 = on0 / on_r, on2 / on_r
        zero = np.zeros(idx.size)
        normal_local = np.where(through_side[:, None], np.stack((out0, zero, out2), axis=1),
                                np.stack((zero, cap_side, zero), axis=1))
        move_local = np.where(through_side[:, None], np.stack((rad * out0 - loc[:, 0], zero, rad * out2 - loc[:, 2]), axis=1),
                              np.stack((zero, cap_delta, zero), axis=1))
        r = rot[idx]
        normal = np.einsum("kij,kj->ki", r, normal_local)
        new_x = now[idx] + np.einsum("kij,kj->ki", r, move_local)
        depth = np.where(through_side, np.maximum(rad - r_now, 0.0), np.abs(cap_delta))
        return hit, new_x, normal, depth

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
        side_in, side_out = _radial_interval(lo[:, 0], lo[:, 2], ld[:, 0], ld[:, 2], p.radius)
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
