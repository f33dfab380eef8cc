"""A solid box, axis-aligned or turned (ramps, stairs, walls, bowls)."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from slime import limits
from slime.obstacle_kinds.base import ObstacleKind, number, rotation, rotation_from_degrees, stacked, vector3


@dataclass(frozen=True)
class Box(ObstacleKind):
    """A solid box: ``center``, ``half_size`` along its own axes (all > 0), ``rotation`` whose
    columns are those axes in the world (world = center + rotation @ local)."""

    center: tuple = (0.0, 0.0, 0.0)
    half_size: tuple = (0.5, 0.5, 0.5)
    rotation: tuple = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    friction: float = 0.6

    name = "box"
    file_keys = ("center", "half_size", "size", "rotation")
    required = ("center",)  # and one of half_size or size
    drawn_keys = ("center", "half_size")
    settle_order = 2

    def __post_init__(self):
        object.__setattr__(self, "center", vector3("box center", self.center))
        half = vector3("box half_size", self.half_size)
        if not np.all(half > 0.0):
            raise ValueError(f"box half_size must be positive, got {self.half_size!r}")
        object.__setattr__(self, "half_size", half)
        object.__setattr__(self, "rotation", rotation(self.rotation))
        object.__setattr__(self, "friction", number("box friction", self.friction, 0.0, False))

    # ------------------------------------------------------------------------------ file
    @classmethod
    def read(cls, check, data, where):
        sizes = [k for k in ("half_size", "size") if k in data]
        if len(sizes) != 1:
            raise check.fail(f"{where} (a box) needs one of 'half_size' or 'size', got "
                             + ("both" if sizes else "neither"))
        scale = 0.5 if sizes[0] == "size" else 1.0
        low, high = limits.OBSTACLE_SIZE
        half_size = tuple(scale * v for v in check.vector(data[sizes[0]], f"{where}.{sizes[0]}",
                                                          (low / scale, high / scale)))
        return {"center": check.vector(data["center"], f"{where}.center"), "half_size": half_size,
                "rotation": check.vector(data.get("rotation", [0.0, 0.0, 0.0]), f"{where}.rotation", limits.ANGLE,
                                         "degrees")}

    @classmethod
    def build(cls, values, friction):
        return cls(center=values["center"], half_size=values["half_size"],
                   rotation=rotation_from_degrees(*values["rotation"]), friction=friction)

    # ------------------------------------------------------------------------------ geometry
    @classmethod
    def pack(cls, obstacles):
        packed = SimpleNamespace(center=stacked(obstacles, "center"), half=stacked(obstacles, "half_size"),
                                 rotation=stacked(obstacles, "rotation", (3, 3)))
        # World AABB half extents: |R| @ half.
        packed.extent = np.einsum("kij,kj->ki", np.abs(packed.rotation), packed.half)
        return packed

    @staticmethod
    def distance(p, points):
        local = np.einsum("kji,pkj->pki", p.rotation, points[:, None, :] - p.center[None])
        q = np.abs(local) - p.half[None]
        outside = np.linalg.norm(np.maximum(q, 0.0), axis=2)
        inside = np.minimum(q.max(axis=2), 0.0)
        return outside + inside

    @staticmethod
    def ray(p, o, d):
        lo = np.einsum("kji,kj->ki", p.rotation, o - p.center)
        ld = np.einsum("kji,j->ki", p.rotation, d)
        with np.errstate(divide="ignore", invalid="ignore"):
            t_a = (-p.half - lo) / ld
            t_b = (p.half - lo) / ld
        parallel = ld == 0.0
        inside = np.abs(lo) <= p.half
        t_near = np.where(parallel, np.where(inside, -np.inf, np.inf), np.minimum(t_a, t_b)).max(axis=1)
        t_far = np.where(parallel, np.where(inside, np.inf, -np.inf), np.maximum(t_a, t_b)).min(axis=1)
        return np.where((t_near <= t_far) & (t_near >= 0.0), t_near, np.inf)

    # ------------------------------------------------------------------------------ drawing
    def triangles(self):
        positions, normals = [], []
        for axis in range(3):
            u, v = (axis + 1) % 3, (axis + 2) % 3
            for sign in (-1.0, 1.0):
                quad = np.zeros((4, 3))
                quad[:, axis] = sign
                quad[:, u] = (-1, 1, 1, -1)
                quad[:, v] = (-1, -1, 1, 1)
                positions.append(quad[[0, 1, 2, 0, 2, 3]])
                normal = np.zeros(3)
                normal[axis] = sign
                normals.append(np.repeat(normal[None], 6, axis=0))
        local = np.concatenate(positions) * self.half_size
        return self.center + local @ self.rotation.T, np.concatenate(normals) @ self.rotation.T
