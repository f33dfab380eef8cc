"""A solid ball."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from slime import limits
from slime.obstacle_kinds.base import ObstacleKind, number, stacked, vector3

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
