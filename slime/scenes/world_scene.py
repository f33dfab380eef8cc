"""A 3D scene file made into a running world: ``build_world(spec)`` turns a ``WorldSpec``
(``world_format.py``) into a ``World3D`` with its slimes and obstacles, each slime tagged with its
``SlimeLook``, and the obstacles as the renderer draws them. Numpy only: the windows, ``slime
render`` and ``slime simulate`` all start from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from slime.physics.slime3d.obstacles import ObstacleSet, signed_distance
from slime.physics.slime3d.world3d import World3D
from slime.scenes.world_format import ObstacleSpec, WorldSpec, load_world_scene


@dataclass
class WorldScene:
    """A world built from a scene file, with what drawing it needs beside the physics."""

    spec: WorldSpec
    world: World3D
    drawn_obstacles: list  # plain dicts the WorldRenderer reads (kind, parameters, colour)
    # Each slime's SlimeLook in the file's order: the world orders its bodies by resolution, and a
    # body's tag is one of these very objects, so ``file_index`` finds where it came from.
    file_looks: list = field(default_factory=list)

    def looks(self) -> list:
        """Each body's SlimeLook, in the world's body order (the tag each slime was added with)."""
        return [body.tag for body in self.world.bodies]

    def file_index(self, body_index: int) -> int:
        """Where the world's body ``body_index`` is in the file's list of slimes (0-based); the body's
        own index when its tag has been replaced since."""
        tag = self.world.bodies[body_index].tag
        return next((i for i, look in enumerate(self.file_looks) if look is tag), body_index)


def obstacle(spec: ObstacleSpec):
    """The physics obstacle of one obstacle entry."""
    return spec.obstacle()


def drawn_obstacle(spec: ObstacleSpec) -> dict:
    """What the renderer needs of one obstacle entry (a missing colour is the renderer's grey)."""
    out = spec.obstacle().drawn()
    if spec.color is not None:
        out["color"] = tuple(spec.color)
    return out


def build_world(spec: WorldSpec, material: str | None = None) -> WorldScene:
    """The world a scene file describes, at rest except for the slimes' initial velocities;
    ``material``: what the slimes that name no material of their own are made of (default jelly)."""
    world = World3D(gravity=spec.gravity, floor_height=spec.floor_height, **spec.world)
    looks = [slime.slime_look() for slime in spec.slimes]
    for slime, look in zip(spec.slimes, looks):
        params = slime.slime_params(spec.gravity, spec.floor_height, material)
        world.add_slime(params, velocity=slime.velocity, tag=look)
    for entry in spec.obstacles:
        world.add_obstacle(obstacle(entry))
    return WorldScene(spec, world, [drawn_obstacle(entry) for entry in spec.obstacles], looks)


def load_world(name_or_path, material: str | None = None) -> WorldScene:
    """``build_world`` of a bundled scene's name or a scene file's path (bad files: one-line error),
    ``material`` for its slimes that name none."""
    return build_world(load_world_scene(name_or_path), material)


def place_drop(world: World3D, point, radius: float, *, lift: float = 1.0, clearance: float = 0.05) -> np.ndarray:
    """Where to start a slime of ``radius`` dropped onto ``point``: above it, ``lift`` radii
    higher than the lowest centre at which its rest sphere (widened by ``clearance`` radii) is
    clear of the floor, of every slime below it (their vertices within its reach across the
    floor) and of the obstacles. Never inside anything, so the first step has nothing to push out."""
    point = np.asarray(point, dtype=np.float64)
    reach = radius * (1.0 + clearance)
    floor = world.floor_height if world.floor_height is not None else -np.inf
    low = max(float(point[1]), floor) + reach
    if len(world.bodies):
        positions = world.positions
        across = np.hypot(positions[:, 0] - point[0], positions[:, 2] - point[2])
        under = across < reach
        if under.any():
            # The sphere's lowest point over each such vertex sits a chord height above its centre.
            chord = np.sqrt(np.maximum(reach * reach - across[under] ** 2, 0.0))
            low = max(low, float(np.max(positions[under, 1] + chord)))
    centre = np.array([point[0], low, point[2]])
    if world.obstacles:
        obstacles = ObstacleSet(world.obstacles)
        # Up in steps of a tenth of a radius until clear (a scene's obstacles are finite: a few
        # thousand steps at most reach over the tallest one the file format allows).
        heights = centre[1] + reach * 0.1 * np.arange(4096)
        candidates = np.repeat(centre[None], len(heights), axis=0)
        candidates[:, 1] = heights
        clear = np.flatnonzero(signed_distance(candidates, obstacles) >= reach)
        if clear.size:
            centre[1] = heights[clear[0]]
    centre[1] += lift * radius
    return centre

