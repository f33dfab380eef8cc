"""Obstacle kinds: each one module implementing ``ObstacleKind`` (base.py: its parameters,
bounds, signed distance, the contact of a vertex moving along a segment, a ray's hit, its
triangles and its scene-file keys), and ``KINDS``, the one registry that the physics
(slime/physics/slime3d/obstacles.py), the 3D scene format, the world renderer's and the glTF export's
meshes (slime/obstacle_mesh.py) read. A new kind is a new module here and one line in ``KINDS``
(or ``register(MyKind)`` from outside the package).

Neutral package (numpy only; it imports no layer): the physics packs and resolves these kinds,
the renderer draws them. A kind's ``contacts`` may be plain numpy, as the protocol states; the
built-in kinds' are compiled loops over the candidate pairs, and live with the physics
(slime/physics/slime3d/obstacle_contacts.py).
"""

from __future__ import annotations

from slime.obstacle_kinds.ball import Ball
from slime.obstacle_kinds.base import ObstacleKind, rotation_from_degrees
from slime.obstacle_kinds.box import Box
from slime.obstacle_kinds.cylinder import Cylinder
from slime.obstacle_kinds.plane import Plane

# The order is the scene format's ("kind must be one of box, ball, plane, cylinder").
KINDS: dict[str, type] = {
    "box": Box,
    "ball": Ball,
    "plane": Plane,
    "cylinder": Cylinder,
}


def register(kind: type) -> type:
    """Add (or replace) a kind under its ``name``; returns it, so it may decorate the class."""
    if not (isinstance(kind, type) and issubclass(kind, ObstacleKind)):
        raise ValueError(f"an obstacle kind must be an ObstacleKind subclass, got {kind!r}")
    KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    KINDS.pop(name, None)


__all__ = ["KINDS", "Ball", "Box", "Cylinder", "ObstacleKind", "Plane", "register", "rotation_from_degrees", "unregister"]
