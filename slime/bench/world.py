"""The world of slimes: B slimes of 32 x 32 packed touching on the floor inside four walls
(contacts on every side), after they have settled, against the PhysicalSlime C++ program stepping
B separate 32 x 32 bodies for the same substeps, timed in the same run (``bench/cpp.py``; the C++
program has no contacts, walls or floor, so the ratio is against a floor, not a twin).

Rows: {"benchmark": "world", "slimes", "stacks", "slices", "substeps", "threads", "vertices",
"ms_per_frame", "contacts", "cpp_ms", "vs_cpp"}. The issue's targets: 16 and 64 slimes at most 1.5x
the C++ program's time, on one thread (``threads``: 1 unless ``$SLIME_THREADS`` asks for more;
the C++ program is on one thread either way)."""

from __future__ import annotations

import math

from slime.bench import cpp
from slime.bench.step import median_ms
from slime.physics.slime3d.obstacles import Box
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.world3d import World3D

RADIUS = 0.5
COUNTS = (1, 4, 16, 64)


def packed_world(count: int, resolution: int = 32, threads: int | None = None) -> World3D:
    """``count`` slimes in a square grid, neighbours 2 % closer than touching, walled in (its
    forces on ``threads`` threads; None: ``$SLIME_THREADS``)."""
    world = World3D(threads=threads)
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
    one_body = cpp.step_ms(32, 32, 200 if quick else 1000)  # one substep of one 32 x 32 body
    for count in COUNTS:
        if quick and count > 16:
            continue
        world = packed_world(count)
        for _ in range(30):  # settled on the floor and against each other
            world.step()
        frames = max(3, 60 // count) if not quick else 3
        ms = median_ms(world.step, repeats, frames)
        reference = one_body * count * world.substeps if one_body else None
        rows.append({"benchmark": "world", "slimes": count, "stacks": 32, "slices": 32, "substeps": world.substeps,
                     "threads": world.threads, "vertices": int(world.positions.shape[0]), "ms_per_frame": ms, "contacts": int(world.contacts),
                     "cpp_ms": reference, "vs_cpp": ms / reference if reference else None})
    return rows
