"""A 3D scene file made into a world: ``WorldSpec`` (slime/scenes/world_format.py) in, a stepping
``World3D`` out, with each slime's look and each obstacle as the renderer draws it.

UI-free and numpy only, so the window (``slime scene pile``), ``slime render`` and ``slime
simulate`` all build the same world from the same file.

World3D lays its bodies out grouped by mesh resolution, so the order of ``world.bodies`` need not
be the file's; each body's look is its ``tag`` (which follows it through every re-layout), and the
looks returned are in the world's order.
"""

from __future__ import annotations

import numpy as np

from slime.look import SlimeLook
from slime.physics.world3d import World3D
from slime.scenes.world_format import ObstacleSpec, WorldSpec

__all__ = ["build_world", "obstacle_of_spec", "obstacle_drawing", "place_drop"]


def obstacle_of_spec(spec: ObstacleSpec):
    """The physics' obstacle (slime.physics.obstacles Box, Ball or Plane) for one ObstacleSpec."""
    try:
        from slime.physics.obstacles import Ball, Box, Plane
    except ImportError:  # a build from before the obstacles' physics
        raise ValueError("this slime has no obstacle physics (slime.physics.obstacles): "
                         "a scene with obstacles cannot be built") from None

    if spec.kind == "box":
        return Box(center=spec.center, half_size=spec.half_size, rotation=spec.rotation_matrix(),
                   friction=spec.friction)
    if spec.kind == "ball":
        return Ball(center=spec.center, radius=spec.radius, friction=spec.friction)
    if spec.kind == "plane":
        return Plane(point=spec.point if spec.point is not None else (0.0, 0.0, 0.0), normal=spec.normal,
                     friction=spec.friction)
    raise ValueError(f"unknown obstacle kind {spec.kind!r}; choose box, ball or plane")


def obstacle_drawing(spec: ObstacleSpec) -> dict:
    """One obstacle as slime.render.world_renderer draws it (a box with its rotation matrix, a
    ball, or a plane), with its colour (None: the renderer's grey)."""
    if spec.kind == "box":
        return {"center": spec.center, "half_size": spec.half_size, "rotation": spec.rotation_matrix(),
                "color": spec.color}
    if spec.kind == "ball":
        return {"center": spec.center, "radius": spec.radius, "color": spec.color}
    if spec.kind == "plane":
        return {"point": spec.point if spec.point is not None else (0.0, 0.0, 0.0), "normal": spec.normal,
                "color": spec.color}
    raise ValueError(f"unknown obstacle kind {spec.kind!r}; choose box, ball or plane")


def build_world(spec: WorldSpec, base_look: SlimeLook | None = None, params_changes: dict | None = None):
    """``(world, looks)``: the World3D of ``spec`` (its gravity and floor, every slime with its
    parameters and starting velocity, every obstacle) and each body's SlimeLook in the world's
    body order (``SlimeSpec.slime_look(base_look)``, also each body's ``tag``). ``params_changes``: SlimeParams fields set
    on every slime (a panel's settings carried over a reset)."""
    first = spec.slime_params()[0]
    world = World3D(gravity=spec.gravity, floor_height=spec.floor_height, floor_friction=first.floor_friction,
                    floor_restitution=first.floor_restitution, dt=first.dt, substeps=first.substeps,
                    max_speed=first.max_speed, max_acceleration=first.max_acceleration)
    for obstacle in spec.obstacles:
        world.add_obstacle(obstacle_of_spec(obstacle))
    for slime, params in zip(spec.slimes, spec.slime_params()):
        if params_changes:
            params = params.with_(**params_changes)
        world.add_slime(params, velocity=slime.velocity, tag=slime.slime_look(base_look))
    return world, [body.tag for body in world.bodies]


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
        from slime.physics.obstacles import ObstacleSet, signed_distance

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

