"""A 3D scene file made into a running world: ``build_world(spec)`` turns a ``WorldSpec``
(``world_format.py``) into a ``World3D`` with its slimes and obstacles, each slime tagged with its
``SlimeLook``, and the obstacles as the renderer draws them. Numpy only: the windows, ``slime
render`` and ``slime simulate`` all start from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from slime.physics.obstacles import Ball, Box, Plane
from slime.physics.world3d import World3D
from slime.scenes.world_format import ObstacleSpec, WorldSpec, load_world_scene


@dataclass
class WorldScene:
    """A world built from a scene file, with what drawing it needs beside the physics."""

    spec: WorldSpec
    world: World3D
    drawn_obstacles: list  # plain dicts the WorldRenderer reads (centre, size, rotation, colour)

    def looks(self) -> list:
        """Each body's SlimeLook, in the world's body order (the tag each slime was added with)."""
        return [body.tag for body in self.world.bodies]


def obstacle(spec: ObstacleSpec):
    """The physics obstacle of one obstacle entry."""
    if spec.kind == "box":
        return Box(center=spec.center, half_size=spec.half_size, rotation=spec.rotation_matrix(), friction=spec.friction)
    if spec.kind == "ball":
        return Ball(center=spec.center, radius=spec.radius, friction=spec.friction)
    return Plane(point=spec.point, normal=spec.normal, friction=spec.friction)


def drawn_obstacle(spec: ObstacleSpec) -> dict:
    """What the renderer needs of one obstacle entry (a missing colour is the renderer's grey)."""
    out = {} if spec.color is None else {"color": tuple(spec.color)}
    if spec.kind == "box":
        out.update(center=spec.center, half_size=spec.half_size, rotation=spec.rotation_matrix())
    elif spec.kind == "ball":
        out.update(center=spec.center, radius=spec.radius)
    else:
        out.update(point=spec.point, normal=spec.normal)
    return out


def build_world(spec: WorldSpec, plain_forces: bool = False) -> WorldScene:
    """The world a scene file describes, at rest except for the slimes' initial velocities."""
    world = World3D(gravity=spec.gravity, floor_height=spec.floor_height)
    for slime in spec.slimes:
        params = slime.slime_params(spec.gravity, spec.floor_height)
        if plain_forces:
            params = params.with_(plain_forces=True)
        world.add_slime(params, velocity=slime.velocity, tag=slime.slime_look())
    for entry in spec.obstacles:
        world.add_obstacle(obstacle(entry))
    return WorldScene(spec, world, [drawn_obstacle(entry) for entry in spec.obstacles])


def load_world(name_or_path, plain_forces: bool = False) -> WorldScene:
    """``build_world`` of a bundled scene's name or a scene file's path (bad files: one-line error)."""
    return build_world(load_world_scene(name_or_path), plain_forces)
