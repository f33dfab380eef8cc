"""An obstacle (a box, a ball or a plane) as triangles: the one place its surface is made, for
the world renderer and the glTF export alike.

An obstacle is any object or mapping with ``center, half_size, rotation`` (a box; ``rotation``'s
columns are the box's axes in the world), ``center, radius`` (a ball) or ``point, normal`` (a
plane, made a large square), each with an optional ``color`` (RGB 0..1 or ``#rrggbb``).

Neutral module (numpy only, imports no layer).
"""

from __future__ import annotations

import numpy as np

from slime.look import parse_color

# Half-size, metres, of the square a plane obstacle is drawn as: far past the camera's far plane,
# so what ends it is the far plane, inside the haze (fog_distance 14 m: at 100 m the haze is whole).
PLANE_EXTENT = 1000.0
DEFAULT_OBSTACLE_COLOR = (0.72, 0.66, 0.58)
BALL_STACKS, BALL_SLICES = 24, 32


def _get(obstacle, name):
    if isinstance(obstacle, dict):
        return obstacle.get(name)
    return getattr(obstacle, name, None)


def _vector(value, name: str, shape=(3,)) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.shape != shape or not np.all(np.isfinite(arr)):
        raise ValueError(f"obstacle {name} must be {'x'.join(map(str, shape))} finite numbers, got {value!r}")
    return arr


def _box_triangles(center, half_size, rotation):
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
    local = np.concatenate(positions) * half_size
    return center + local @ rotation.T, np.concatenate(normals) @ rotation.T


def _ball_triangles(center, radius):
    theta = np.linspace(0.0, np.pi, BALL_STACKS + 1)
    phi = np.linspace(0.0, 2.0 * np.pi, BALL_SLICES + 1)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    unit = np.stack([np.sin(t) * np.sin(p), np.cos(t), np.sin(t) * np.cos(p)], axis=-1)
    a, b, c, d = unit[:-1, :-1], unit[1:, :-1], unit[1:, 1:], unit[:-1, 1:]
    normals = np.stack([a, b, c, a, c, d], axis=2).reshape(-1, 3)
    return center + radius * normals, normals


def _plane_triangles(point, normal):
    n = normal / np.linalg.norm(normal)
    helper = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.9 else np.array([0.0, 0.0, 1.0])
    u = np.cross(n, helper)
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]], dtype=np.float64) * PLANE_EXTENT
    positions = point + square[:, :1] * u + square[:, 1:] * v
    return positions, np.repeat(n[None], 6, axis=0)


def is_plane(obstacle) -> bool:
    """Whether an obstacle (or its drawn dict) is a plane: drawn apart, since it has no bounds."""
    return _get(obstacle, "half_size") is None and _get(obstacle, "radius") is None and _get(obstacle, "normal") is not None


def framing_points(obstacle) -> np.ndarray:
    """(K, 3) the points of an obstacle a camera keeps in the picture: a plane's given point (it has
    no end), anything else's drawn corners."""
    if is_plane(obstacle):
        return _vector(_get(obstacle, "point"), "point")[None]
    return obstacle_mesh(obstacle)[:, :3].astype(np.float64)


def obstacle_mesh(obstacle) -> np.ndarray:
    """(T * 3, 9) float32 rows of position | normal | colour, three per triangle; ValueError (one
    line) for something that is not a box, a ball or a plane."""
    color = _get(obstacle, "color")
    color = DEFAULT_OBSTACLE_COLOR if color is None else (parse_color(color) if isinstance(color, str) else color)
    color = _vector(color, "color")
    if not np.all((color >= 0) & (color <= 1)):
        raise ValueError(f"obstacle color must be 3 numbers from 0 to 1, got {tuple(color)}")
    if _get(obstacle, "half_size") is not None:
        half = _vector(_get(obstacle, "half_size"), "half_size")
        rotation = _get(obstacle, "rotation")
        rotation = np.eye(3) if rotation is None else _vector(rotation, "rotation", (3, 3))
        if np.any(half <= 0):
            raise ValueError(f"obstacle half_size must be > 0 on every axis, got {tuple(half)}")
        positions, normals = _box_triangles(_vector(_get(obstacle, "center"), "center"), half, rotation)
    elif _get(obstacle, "radius") is not None:
        radius = float(_vector([_get(obstacle, "radius")] * 3, "radius")[0])
        if radius <= 0:
            raise ValueError(f"obstacle radius must be > 0, got {radius}")
        positions, normals = _ball_triangles(_vector(_get(obstacle, "center"), "center"), radius)
    elif _get(obstacle, "normal") is not None:
        normal = _vector(_get(obstacle, "normal"), "normal")
        if np.linalg.norm(normal) < 1e-12:
            raise ValueError("obstacle normal must not be the zero vector")
        positions, normals = _plane_triangles(_vector(_get(obstacle, "point"), "point"), normal)
    else:
        raise ValueError(f"an obstacle needs center + half_size (a box), center + radius (a ball) or point + normal "
                         f"(a plane), got {obstacle!r}")
    rows = np.empty((len(positions), 9), dtype="f4")
    rows[:, :3], rows[:, 3:6], rows[:, 6:] = positions, normals, color
    return rows
