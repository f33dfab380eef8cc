"""Measure (print, never assert) what slime-slime contact costs in a pile: 16 slimes of 32 x 32
dropped into a box of four walls in the scenes' world (``World3D``), then, once they are piled,
each contact function timed on the same state (the best of several runs, as the machine is
shared). Run: python tests/support/contact_pile_cost.py"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import contact_table, slime_world  # noqa: E402
from slime.physics.slime3d.contact import body_centroids, broad_phase, collide_slimes, damp_contacts, pair_axes  # noqa: E402
from slime.physics.slime3d.obstacles import ObstacleSet, Plane, collide_obstacles  # noqa: E402
from slime.physics.slime3d.slime_params import SlimeParams  # noqa: E402


def main(frames: int = 100) -> None:
    rng = np.random.default_rng(0)
    params = []
    for layer in range(4):
        for i in range(2):
            for j in range(2):
                c = (i * 1.05 - 0.525 + rng.uniform(-0.1, 0.1), 0.55 + layer * 1.1, j * 1.05 - 0.525 + rng.uniform(-0.1, 0.1))
                params.append(SlimeParams(radius=0.5, stacks=32, slices=32, center=c))
    walls = [Plane((-1.1, 0, 0), (1, 0, 0)), Plane((1.1, 0, 0), (-1, 0, 0)), Plane((0, 0, -1.1), (0, 0, 1)), Plane((0, 0, 1.1), (0, 0, -1))]
    world = slime_world(params, obstacles=walls)
    for _ in range(frames):
        world.step()
    x, v, table = world.positions, world.velocities, contact_table(world)
    dt, substeps = world.dt, world.substeps
    centroids = body_centroids(table, x)
    candidates = broad_phase(table, x, v, dt, centroids)
    # Each pair's face for the frame, as the world holds it (a new pair's: the line of centres);
    # then each substep's planes need no centroids.
    candidates.normals = pair_axes(centroids, candidates.first, candidates.second)[0]
    walls_set = ObstacleSet(walls)
    hits = collide_slimes(table, candidates, x.copy(), v.copy())
    print(f"{len(world.bodies)} slimes, {x.shape[0]} vertices, {candidates.first.size} touching pairs, "
          f"{candidates.vertex.size} candidates, {hits} vertices on a contact plane, "
          f"kinetic energy {world.kinetic_energy():.3f} J")

    def best(stmt) -> float:
        return min(timeit.repeat(stmt, number=10, repeat=7)) / 10 * 1e3

    copy = best(lambda: (x.copy(), v.copy()))
    per_frame = best(lambda: broad_phase(table, x, v, dt, centroids))
    per_substep = best(lambda: collide_slimes(table, candidates, x.copy(), v.copy())) - copy
    damping = best(lambda: damp_contacts(table, candidates, x, v.copy(), centroids, dt))
    walls_cost = best(lambda: collide_obstacles(x.copy(), v.copy(), x, walls_set)) - copy
    print(f"collide_slimes {per_substep:.3f} ms a substep; broad_phase {per_frame:.3f} ms a frame "
          f"({per_frame / substeps:.3f} ms a substep); damp_contacts {damping:.3f} ms a frame; "
          f"total {per_substep + (per_frame + damping) / substeps:.3f} ms a substep")
    print(f"collide_obstacles (four walls) {walls_cost:.3f} ms a substep")


if __name__ == "__main__":
    main()
