"""What every obstacle kind provides (``ObstacleKind``), and the checks its parameters share.

A kind is a frozen dataclass of one obstacle's parameters, checked when it is made, plus
functions over *packed* obstacles of that kind (``pack``: the parameters of all of a scene's
obstacles of the kind as arrays), so that each test runs vectorised over every (vertex,
obstacle) pair of the kind at once.
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import ClassVar

import numpy as np

from slime.limits import vector3 as limits_vector3

ORTHONORMAL_TOLERANCE = 1e-6
NO_CONTACT = (None, None, None)


def vector3(name: str, value) -> np.ndarray:
    """A finite, read-only 3-vector, or one ValueError naming the parameter (``limits.vector3``)."""
    arr = limits_vector3(name, value)
    arr.setflags(write=False)
    return arr


def number(name: str, value, low: float, strict: bool) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(out) or out < low or (strict and out == low):
        relation = "" if low == -math.inf else (" > " if strict else " >= ") + f"{low:g} and"
        raise ValueError(f"{name} must be{relation} finite, got {value!r}")
    return out


def rotation(value) -> np.ndarray:
    """A read-only proper rotation matrix (orthonormal, determinant +1)."""
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"rotation must be a 3x3 matrix of numbers, got {value!r}") from None
    if arr.shape != (3, 3) or not np.all(np.isfinite(arr)):
        raise ValueError(f"rotation must be a finite 3x3 matrix, got {value!r}")
    if np.abs(arr @ arr.T - np.eye(3)).max() > ORTHONORMAL_TOLERANCE or np.linalg.det(arr) < 0.0:
        raise ValueError("rotation must be orthonormal with determinant +1 (use rotation_from_degrees)")
    arr.setflags(write=False)
    return arr


def rotation_from_degrees(yaw: float = 0.0, pitch: float = 0.0, roll: float = 0.0) -> np.ndarray:
    """(3, 3) rotation turning a body by ``roll`` about z, then ``pitch`` about x, then ``yaw``
    about y (degrees, right-handed): R = R_y(yaw) R_x(pitch) R_z(roll). The columns of R are the
    body's local axes in the world: ``pitch=20`` turns a flat board's top toward +z, a ramp going
    down toward +z."""
    yaw = math.radians(number("yaw", yaw, -math.inf, False))
    pitch = math.radians(number("pitch", pitch, -math.inf, False))
    roll = math.radians(number("roll", roll, -math.inf, False))
    cy, sy, cp, sp, cr, sr = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch), math.cos(roll), math.sin(roll)
    ry = np.array([[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]])
    rx = np.array([[1.0, 0.0, 0.0], [0.0, cp, -sp], [0.0, sp, cp]])
    rz = np.array([[cr, -sr, 0.0], [sr, cr, 0.0], [0.0, 0.0, 1.0]])
    return ry @ rx @ rz


def stacked(obstacles, name: str, shape=(3,)) -> np.ndarray:
    """(K, *shape) array of one parameter of K obstacles (K may be 0)."""
    return np.array([getattr(o, name) for o in obstacles], dtype=np.float64).reshape(-1, *shape)


class ObstacleKind:
    """The protocol of an obstacle kind. A subclass is a frozen dataclass whose fields are the
    obstacle's parameters (``friction`` among them, a Coulomb coefficient) and sets:

    Names and file form:
      ``name``            the scene file's ``"kind"`` (and the registry's key)
      ``file_keys``       the keys of its scene-file entry besides kind, friction and color
      ``required``        those a file must give
      ``drawn_keys``      the parameters a mapping without ``"kind"`` must give to be drawn as
                          one (slime/obstacle_mesh.py); default ``required``
      ``read(check, data, where)``  the checked file values (JSON-ready: tuples and floats, every
                          default filled in, so that writing them back reads back equal); ``check``
                          is the scene format's checker (``number``, ``vector``, ``fail``), each
                          error one line naming the key
      ``build(values, friction)``   the obstacle those values describe
    Geometry, vectorised over ``pack(obstacles)`` (the kind's K obstacles as arrays):
      ``bounds(packed)``  (K, 3) lower and upper corners of each world bounding box (by default
                          from the packing's ``center`` and ``extent``), or None for an unbounded
                          kind (a half-space), whose ``candidates`` then pick the vertices to test
      ``distance(packed, points)``  (P, K) signed distance, negative inside
      ``contacts(packed, x, x_prev, vertex, which)``  (the built-in kinds' are compiled, in
                          slime/physics/slime3d/obstacle_contacts.py; a kind of your own gives
                          its own here, numpy will do) each candidate (vertex, obstacle) pair's
                          segment ``x_prev -> x`` against the solid: (hit mask, and for the hits
                          the position put back on the surface, the outward normal, the depth
                          (which contact of a vertex is settled first)), or (hit, None, None, None)
      ``surface(packed, x, vertex, which)``  (the built-in kinds' are compiled beside their
                          contacts) each pair's vertex (columns of (3, P) ``x``) against its
                          obstacle: (n,) signed distance to the surface and (n, 3) the outward
                          normal there, for the adhesion's film; by default the distance's
                          gradient by central differences
      ``ray(packed, origin, direction)``  (the cylinder's is with its contacts) (K,) distance along a unit ray to each obstacle's
                          surface, inf where it misses (an origin inside is the caller's test)
    Drawing:
      ``triangles()``     (T * 3, 3) positions and (T * 3, 3) outward normals, three rows a triangle
      ``framing_points()``  (K, 3) the points a camera keeps in the picture (default: the
                          triangles' corners; an unbounded kind gives a point of its own)
      ``bounded``         False for a kind with no far end (a plane: drawn out to the haze, and
                          no shadow map can hold it)
      ``settle_order``    where the kind's contacts are settled in a substep, lowest first
    """

    name: ClassVar[str]
    file_keys: ClassVar[tuple]
    required: ClassVar[tuple]
    drawn_keys: ClassVar[tuple]
    settle_order: ClassVar[int] = 100
    bounded: ClassVar[bool] = True

    def framing_points(self) -> np.ndarray:
        return np.asarray(self.triangles()[0], dtype=np.float64)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "drawn_keys" not in cls.__dict__ and "required" in cls.__dict__:
            cls.drawn_keys = cls.required

    @classmethod
    def read(cls, check, data: dict, where: str) -> dict:
        raise NotImplementedError

    @classmethod
    def build(cls, values: dict, friction: float):
        return cls(**values, friction=friction)

    @classmethod
    def pack(cls, obstacles) -> SimpleNamespace:
        raise NotImplementedError

    @staticmethod
    def bounds(packed):
        """A packing with ``center`` and ``extent`` (half the world box's sides) is bounded by them."""
        if not hasattr(packed, "extent"):
            return None
        with np.errstate(over="ignore"):  # an obstacle out near the largest float is bounded by inf
            return packed.center - packed.extent, packed.center + packed.extent

    @staticmethod
    def candidates(packed, x):
        raise NotImplementedError

    @staticmethod
    def distance(packed, points):
        raise NotImplementedError

    @staticmethod
    def contacts(packed, x, xp, vertex, which):
        raise NotImplementedError

    @classmethod
    def surface(cls, packed, x, vertex, which):
        points = np.asarray(x, dtype=np.float64)[:, np.asarray(vertex, dtype=np.int64)].T
        pick = np.arange(len(points)), np.asarray(which, dtype=np.int64)
        height = cls.distance(packed, points)[pick] if len(points) else np.zeros(0)
        step = 1e-6
        gradient = np.empty_like(points)
        for axis in range(3):
            shift = np.zeros(3)
            shift[axis] = step
            gradient[:, axis] = (cls.distance(packed, points + shift)[pick]
                                 - cls.distance(packed, points - shift)[pick]) / (2.0 * step)
        length = np.linalg.norm(gradient, axis=1, keepdims=True)
        return height, np.where(length > 0.0, gradient / np.where(length > 0.0, length, 1.0), [0.0, 1.0, 0.0])

    @staticmethod
    def ray(packed, origin, direction):
        raise NotImplementedError

    def triangles(self):
        raise NotImplementedError

    def drawn(self) -> dict:
        """The obstacle as a plain mapping (its kind and parameters but friction), which
        ``slime.obstacle_mesh`` turns back into this obstacle to draw it."""
        out = {"kind": self.name}
        out.update((f, getattr(self, f)) for f in self.__dataclass_fields__ if f != "friction")
        return out
