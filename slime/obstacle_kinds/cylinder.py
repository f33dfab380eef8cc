"""A solid capped cylinder (pillars, posts, round tables, drums), upright or turned."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from slime import limits
from slime.obstacle_kinds.base import ObstacleKind, number, rotation, rotation_from_degrees, stacked, vector3

SEGMENTS = 48  # around the drawn cylinder


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
