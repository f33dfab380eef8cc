"""The world of slimes: B slimes of 32 x 32 packed touching on the floor inside four walls
(contacts on every side), after they have settled, against one 128 x 128 slime (about as many
vertices as 16 of them) in the same run, so the two compare on one machine at one moment. The
aims: 16 slimes cost at most 1.5 times the 128 x 128 frame, and 64 stay interactive."""

from __future__ import annotations

import math

from slime.bench.step import median_ms
from slime.physics.obstacles import Box
from slime.physics.slime_body import SlimeBody
from slime.physics.slime_params import SlimeParams
from slime.physics.world3d import World3D

RADIUS = 0.5
COUNTS = (1, 4, 16, 64)


def packed_world(count: int, resolution: int = 32) -> World3D:
    """``count`` slimes in a square grid, neighbours 2 % closer than touching, walled in."""
    world = World3D()
    side = math.ceil(math.sqrt(count))
    pitch = 1.98 * RADIUS
    half = 0.5 * side * pitch
    for k in range(count):
        i, j = divmod(k, side)
        centre = (-half + (i + 0.5) * pitch, RADIUS + 0.01, -half + (j + 0.5) * pitch)
        world.add_slime(SlimeParams(radius=RADIUS, stacks=resolution, slices=resolution, center=centre))
    wall = 0.1
    for axis in (0, 2):
        for sign in (-1.0, 1.0):
            centre = [0.0, RADIUS, 0.0]
            centre[axis] = sign * (half + wall)
            size = [half + 2 * wall, RADIUS, half + 2 * wall]
            size[axis] = wall
            world.add_obstacle(Box(center=tuple(centre), half_size=tuple(size)))
    return world


def run(quick: bool = False) -> list[dict]:
    rows = []
    repeats = 3 if quick else 5
    big = SlimeBody(SlimeParams(stacks=128, slices=128))
    for _ in range(10):
        big.step()
    reference = median_ms(big.step, repeats, 5 if quick else 10)
    rows.append({"benchmark": "frame", "stacks": 128, "slices": 128, "substeps": big.params.substeps,
                 "ms_per_frame": reference})
    for count in COUNTS:
        if quick and count > 16:
            continue
        world = packed_world(count)
        for _ in range(30):  # settled on the floor and against each other
            world.step()
        frames = max(3, 60 // count) if not quick else 3
        ms = median_ms(world.step, repeats, frames)
        rows.append({"benchmark": "world", "slimes": count, "stacks": 32, "slices": 32,
                     "vertices": int(world.positions.shape[0]), "ms_per_frame": ms, "contacts": int(world.contacts),
                     "vs_128x128": ms / reference})
    return rows
