"""A solid ball."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from slime import limits
from slime.obstacle_kinds.base import NO_CONTACT, ObstacleKind, number, stacked, vector3

STACKS, SLICES = 24, 32  # of the drawn sphere


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
        """A segment enters the ball at the first root in [0, 1] of its quadratic. The vertex is
        put on the sphere on the entry side, its motion along the surface kept."""
        center, radius = p.center[ball], p.radius[ball]
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
            return (hit, *NO_CONTACT)
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
