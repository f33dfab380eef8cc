"""An obstacle as triangles: the one place the world renderer and the glTF export get its
surface, from its kind's ``triangles`` (slime/obstacle_kinds, the registry ``KINDS``).

An obstacle is an obstacle kind's object (``Box``, ``Ball``, ``Plane``, ``Cylinder``...) or a
mapping of one kind's parameters: with ``"kind"`` (what ``ObstacleKind.drawn`` makes), or without
it, the kind whose parameters it names (``center, half_size[, rotation]`` a box; ``center, radius``
a ball; ``point, normal`` a plane: the mappings older callers pass). Either may carry a
``color`` (RGB 0..1 or ``#rrggbb``); other keys (a ``name``) are ignored.

Neutral module (numpy only, imports no layer).
"""

from __future__ import annotations

import numpy as np

from slime.look import parse_color
from slime.obstacle_kinds import KINDS, ObstacleKind

DEFAULT_OBSTACLE_COLOR = (0.72, 0.66, 0.58)


def _get(obstacle, name):
    if isinstance(obstacle, dict):
        return obstacle.get(name)
    return getattr(obstacle, name, None)


def _parameters(kind: type) -> tuple:
    return tuple(f for f in kind.__dataclass_fields__ if f != "friction")


def _kind_of(mapping: dict) -> type:
    """The kind a mapping names, or the one whose required parameters it gives (the most of
    them: a cylinder's center, radius and half_height before a ball's center and radius)."""
    if "kind" in mapping:
        if mapping["kind"] not in KINDS:
            raise ValueError(f"obstacle kind must be one of {', '.join(KINDS)}, got {mapping['kind']!r}")
        return KINDS[mapping["kind"]]
    fits = [kind for kind in KINDS.values() if all(mapping.get(k) is not None for k in kind.drawn_keys)]
    if not fits:
        needs = "; ".join(f"{' + '.join(kind.drawn_keys)} (a {kind.name})" for kind in KINDS.values())
        raise ValueError(f"an obstacle needs {needs}, got {mapping!r}")
    return max(fits, key=lambda kind: len(kind.drawn_keys))


def as_obstacle(obstacle) -> ObstacleKind:
    """The kind's object a drawn obstacle describes; ValueError (one line) when it describes none."""
    if isinstance(obstacle, ObstacleKind):
        return obstacle
    if not isinstance(obstacle, dict):
        raise ValueError(f"an obstacle must be an obstacle kind's object or a mapping, got {type(obstacle).__name__}")
    kind = _kind_of(obstacle)
    values = {k: obstacle[k] for k in _parameters(kind) if obstacle.get(k) is not None}
    try:
        return kind(**values)
    except ValueError as error:
        raise ValueError(f"obstacle {' '.join(str(error).split())}") from None


def is_plane(obstacle) -> bool:
    """Whether an obstacle (or its drawn mapping) has no far end (a plane): drawn apart."""
    return not as_obstacle(obstacle).bounded


def framing_points(obstacle) -> np.ndarray:
    """(K, 3) the points of an obstacle (or its drawn mapping) a camera keeps in the picture."""
    return as_obstacle(obstacle).framing_points()


def obstacle_mesh(obstacle) -> np.ndarray:
    """(T * 3, 9) float32 rows of position | normal | colour, three per triangle; ValueError (one
    line) for something that is not an obstacle of a registered kind."""
    color = _get(obstacle, "color")
    color = DEFAULT_OBSTACLE_COLOR if color is None else (parse_color(color) if isinstance(color, str) else color)
    try:
        color = np.asarray(color, dtype=np.float64)
    except (TypeError, ValueError):
        color = None
    if color is None or color.shape != (3,) or not np.all((color >= 0) & (color <= 1)):
        raise ValueError(f"obstacle color must be 3 numbers from 0 to 1, got {_get(obstacle, 'color')!r}")
    positions, normals = as_obstacle(obstacle).triangles()
    rows = np.empty((len(positions), 9), dtype="f4")
    rows[:, :3], rows[:, 3:6], rows[:, 6:] = positions, normals, color
    return rows
