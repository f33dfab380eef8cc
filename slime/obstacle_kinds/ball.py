"""A solid ball."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from slime import limits
from slime.obstacle_kinds.base import ObstacleKind, number, pair_contacts, stacked, vector3
from slime.physics.compiled import kernel

STACKS, SLICES = 24, 32  # of the drawn sphere


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


@dataclass(frozen=True)
class Ball(ObstacleKind):
    """A solid ball."""

    center: tuple = (0.0, 0.0, 0.0)
    radius: float = 0.5
    friction: float = 0.6

    name = "ball"
    file_keys = ("center", "radius")
    required = ("center", "radius")
    settle_order = 1

    def __post_init__(self):
        object.__setattr__(self, "center", vector3("ball center", self.center))
        object.__setattr__(self, "radius", number("ball radius", self.radius, 0.0, True))
        object.__setattr__(self, "friction", number("ball friction", self.friction, 0.0, False))

    @classmethod
    def read(cls, check, data, where):
        return {"center": check.vector(data["center"], f"{where}.center"),
                "radius": check.number(data["radius"], f"{where}.radius", limits.OBSTACLE_SIZE, "m")}

    @classmethod
    def pack(cls, obstacles):
        radius = np.array([b.radius for b in obstacles], dtype=np.float64)
        return SimpleNamespace(center=stacked(obstacles, "center"), radius=radius, extent=radius[:, None])

    @staticmethod
    def distance(p, points):
        return np.linalg.norm(points[:, None, :] - p.center[None], axis=2) - p.radius[None]

    @staticmethod
    def contacts(p, x, xp, vertex, ball):
        """``ball_contacts`` on the pairs; (hit mask, and for the hits: new position, normal, depth)."""
        return pair_contacts(ball_contacts, (p.center, p.radius), x, xp, vertex, ball)

    @staticmethod
    def ray(p, o, d):
        rel = o - p.center
        b = rel @ d
        disc = b * b - (np.einsum("ij,ij->i", rel, rel) - p.radius**2)
        t = -b - np.sqrt(np.maximum(disc, 0.0))
        return np.where((disc >= 0.0) & (t >= 0.0), t, np.inf)

    def triangles(self):
        theta = np.linspace(0.0, np.pi, STACKS + 1)
        phi = np.linspace(0.0, 2.0 * np.pi, SLICES + 1)
        t, q = np.meshgrid(theta, phi, indexing="ij")
        unit = np.stack([np.sin(t) * np.sin(q), np.cos(t), np.sin(t) * np.cos(q)], axis=-1)
        a, b, c, d = unit[:-1, :-1], unit[1:, :-1], unit[1:, 1:], unit[:-1, 1:]
        normals = np.stack([a, b, c, a, c, d], axis=2).reshape(-1, 3)
        return self.center + self.radius * normals, normals
