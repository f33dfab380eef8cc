"""A solid half-space: everything behind a plane."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from slime.obstacle_kinds.base import NO_CONTACT, ObstacleKind, number, stacked, vector3

# Half-size, metres, of the square a plane is drawn as: far past the camera's far plane, so what
# ends it is the far plane, inside the haze (fog_distance 14 m: at 100 m the haze is whole).
EXTENT = 1000.0


@dataclass(frozen=True)
class Plane(ObstacleKind):
    """A solid half-space: everything behind the plane through ``point`` with outward ``normal``
    (normalised here; it must not be zero). It has no far side, so nothing passes through it: the
    end of a vertex's segment is the whole test, and every vertex is tested (no bounds)."""

    point: tuple = (0.0, 0.0, 0.0)
    normal: tuple = (0.0, 1.0, 0.0)
    friction: float = 0.6

    name = "plane"
    file_keys = ("point", "normal")
    required = ("normal",)
    settle_order = 0
    bounded = False

    def __post_init__(self):
        object.__setattr__(self, "point", vector3("plane point", self.point))
        normal = vector3("plane normal", self.normal)
        length = float(np.linalg.norm(normal))
        if not length > 1e-12:
            raise ValueError("plane normal must not be zero (the zero vector has no direction)")
        normal = normal / length
        normal.setflags(write=False)
        object.__setattr__(self, "normal", normal)
        object.__setattr__(self, "friction", number("plane friction", self.friction, 0.0, False))

    @classmethod
    def read(cls, check, data, where):
        normal = check.vector(data["normal"], f"{where}.normal", None)
        length = math.hypot(*normal)
        if length < 1e-9:
            raise check.fail(f"{where}.normal must not be the zero vector")
        return {"point": check.vector(data.get("point", [0.0, 0.0, 0.0]), f"{where}.point"),
                "normal": tuple(c / length for c in normal)}

    @classmethod
    def pack(cls, obstacles):
        return SimpleNamespace(point=stacked(obstacles, "point"), normal=stacked(obstacles, "normal"))

    @staticmethod
    def candidates(p, x):
        """The vertices below each plane (a few planes, each testing every vertex)."""
        # Contiguous columns: numpy is several times faster on them than on the rows of (P, 3) views.
        columns = [np.ascontiguousarray(x[:, a]) for a in range(3)]
        found = []
        for plane, (n, level) in enumerate(zip(p.normal, (p.point * p.normal).sum(axis=1))):
            height = columns[0] * n[0]
            height += columns[1] * n[1]
            height += columns[2] * n[2]
            below = np.flatnonzero(height < level)
            found.append((below, np.full(below.size, plane)))
        return np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])

    @staticmethod
    def distance(p, points):
        return np.einsum("pkj,kj->pk", points[:, None, :] - p.point[None], p.normal)

    @staticmethod
    def contacts(p, x, xp, vertex, plane):
        normal = p.normal[plane]
        depth = np.einsum("ij,ij->i", p.point[plane] - x[vertex], normal)
        hit = depth > 0.0
        if not hit.any():
            return (hit, *NO_CONTACT)
        idx = np.flatnonzero(hit)
        return hit, x[vertex[idx]] + depth[idx, None] * normal[idx], normal[idx], depth[idx]

    @staticmethod
    def ray(p, o, d):
        towards = p.normal @ d
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.einsum("kj,kj->k", p.point - o, p.normal) / towards
        return np.where((towards < 0.0) & (t >= 0.0), t, np.inf)

    def framing_points(self) -> np.ndarray:
        """Its given point: a plane has no end to frame."""
        return np.asarray(self.point, dtype=np.float64)[None]

    def triangles(self):
        n = self.normal
        helper = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.9 else np.array([0.0, 0.0, 1.0])
        u = np.cross(n, helper)
        u /= np.linalg.norm(u)
        v = np.cross(n, u)
        square = np.array([[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]], dtype=np.float64) * EXTENT
        return self.point + square[:, :1] * u + square[:, 1:] * v, np.repeat(n[None], 6, axis=0)

