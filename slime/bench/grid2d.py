"""Soft-grid benchmark: an n x n grid of point masses dropped into a box.

Every mass is joined by springs to its 4 neighbours and its diagonal neighbours, every mass
collides with every other (point-point impacts between discs of radius ``radius``), four walls
hold them in and gravity pulls them down. The grid lands on the floor a few steps in, drifts into
the right wall and squashes, so the contact search and the contacts are real work.

Three engines run the same scene from the same initial state:

* ``slime``: the shared engine, ``slime.physics.MassSpringWorld`` with ``Particles`` and ``Springs``, contact
  and wall impacts from :mod:`slime.physics.mass_spring.collide2d` (k-d tree pair search kept as a Verlet
  list; its row says how many searches the timed steps made, ``pair_searches``);
* ``pure_python``: :mod:`slime.bench.baseline_objects`, one object per mass, the same formulas,
  contact candidates from a grid of cells (the fair pure-Python baseline);
* ``pure_python_all_pairs``: the same, testing every pair for contact as the Computer Seminar chapter's
  ``CollisionResolver`` does (O(N^2): what the Computer Seminar chapter's own design costs);
* ``pymunk`` (Chipmunk2D, C): circles joined by ``DampedSpring`` constraints in static segment
  walls, same gravity, dt, masses, radii and spring constants (its own contact solver, so the
  motion is alike but not identical).

Times are wall-clock per step, from one run: the engines take turns in blocks of steps and each
keeps its fastest block; the ratios compare engines measured in that run.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GridSpec:
    n: int  # masses per side
    spacing: float = 20.0  # px between neighbours at rest
    radius: float = 9.0  # contact radius: neighbours touch when squeezed to 90% of the spacing
    mass: float = 1.0
    # Hooke k, the same on edges and diagonals. With dt = 1 an explicit step needs omega dt < 2;
    # a mass with eight springs has omega^2 ~ 8 k / m, so k = 0.1 keeps a wide margin, and
    # gravity is small enough that a 40-row column squeezes its bottom springs by a few px only.
    stiffness: float = 0.1
    damping: float = 0.02  # viscous d of -d v per mass
    restitution: float = 0.5
    gravity: float = 0.01  # px / step^2, y down (pixel coordinates, as the Computer Seminar chapter)
    dt: float = 1.0  # one step, the Computer Seminar chapter's unit of time
    drift: float = 1.0  # initial sideways speed, so the grid reaches a wall
    margin: float = 3.0  # spacings of room between the grid and the side walls / ceiling
    drop: float = 4.0  # spacings between the bottom row and the floor at the start

    @property
    def side(self) -> float:
        return (self.n - 1) * self.spacing

    @property
    def width(self) -> float:
        return self.side + 2.0 * self.margin * self.spacing

    @property
    def height(self) -> float:
        return self.side + (self.margin + self.drop) * self.spacing + self.radius


def grid_state(spec: GridSpec):
    """Initial positions (N, 2), velocities (N, 2), spring pairs (S, 2) and rest lengths (S,).

    Row-major: mass ``r * n + c`` is at column c, row r (row 0 at the top).
    """
    n, s = spec.n, spec.spacing
    cols, rows = np.meshgrid(np.arange(n), np.arange(n))
    x0 = spec.margin * s
    y0 = spec.margin * s
    positions = np.stack([x0 + cols.ravel() * s, y0 + rows.ravel() * s], axis=1).astype(np.float64)
    velocities = np.zeros_like(positions)
    velocities[:, 0] = spec.drift
    index = np.arange(n * n).reshape(n, n)
    pairs = np.concatenate(
        [
            np.stack([index[:, :-1].ravel(), index[:, 1:].ravel()], axis=1),  # right
            np.stack([index[:-1, :].ravel(), index[1:, :].ravel()], axis=1),  # down
            np.stack([index[:-1, :-1].ravel(), index[1:, 1:].ravel()], axis=1),  # down-right
            np.stack([index[:-1, 1:].ravel(), index[1:, :-1].ravel()], axis=1),  # down-left
        ]
    )
    gap = positions[pairs[:, 1]] - positions[pairs[:, 0]]
    rest_length = np.sqrt(np.einsum("ij,ij->i", gap, gap))
    return positions, velocities, pairs, rest_length


class SlimeGrid:
    """The shared engine: MassSpringWorld + Particles + Springs + collide2d contact and wall impacts."""

    name = "slime"

    def __init__(self, spec: GridSpec):
        from slime.physics import MassSpringWorld, Particles, Springs
        from slime.physics.mass_spring.collide2d import BOX_FLOOR, ContactForces, PlaneImpactForces, box_planes

        positions, velocities, pairs, rest_length = grid_state(spec)
        particles = Particles.create(
            positions,
            velocities,
            mass=spec.mass,
            damping=spec.damping,
            radius=spec.radius,
            restitution=spec.restitution,
        )
        springs = Springs.create(pairs, rest_length, stiffness=spec.stiffness)
        self.walls = PlaneImpactForces(box_planes(spec.width, spec.height, y_down=True), BOX_FLOOR)
        self.contacts = ContactForces()
        self.world = MassSpringWorld(
            particles,
            springs,
            gravity=(0.0, spec.gravity),
            dt=spec.dt,
            substeps=1,
            extra_forces=[self.contacts, self.walls],
        )

    def step(self) -> None:
        self.world.step()
        # The floor-sink fix runs after integration; MassSpringWorld has no hook for it (as the sandbox scenes).
        self.walls.after_integrate(self.world)

    def set_state(self, positions, velocities) -> None:
        self.world.particles.positions[:] = positions
        self.world.particles.velocities[:] = velocities

    def positions(self) -> np.ndarray:
        return self.world.particles.positions.copy()

    def velocities(self) -> np.ndarray:
        return self.world.particles.velocities.copy()


class PurePythonGrid:
    """The object-per-mass baseline (slime.bench.baseline_objects), contact pairs from a cell grid."""

    name = "pure_python"
    pair_search = "cells"

    def __init__(self, spec: GridSpec):
        from slime.bench import baseline_objects as bo

        positions, velocities, pairs, rest_length = grid_state(spec)
        self.world = bo.World((spec.width, spec.height), spec.dt, (0.0, spec.gravity))
        self.masses = [
            bo.PointMass(p, v, self.world, spec.radius, spec.mass, spec.damping, spec.restitution)
            for p, v in zip(positions.tolist(), velocities.tolist())
        ]
        springs = [
            bo.Spring(self.masses[a], self.masses[b], spec.stiffness, length)
            for (a, b), length in zip(pairs.tolist(), rest_length.tolist())
        ]
        # Same force order as the MassSpringWorld: masses (gravity, damping), springs, contacts, walls.
        self.world.add(*self.masses)
        self.world.add(*springs)
        self.world.add(bo.CollisionResolver(self.world, self.masses, self.pair_search))
        self.world.add(*bo.box_boundaries(self.world, self.masses, spec.width, spec.height))

    def step(self) -> None:
        self.world.step()

    def set_state(self, positions, velocities) -> None:
        for mass, (x, y), (vx, vy) in zip(self.masses, np.asarray(positions).tolist(), np.asarray(velocities).tolist()):
            mass.x, mass.y, mass.vx, mass.vy = x, y, vx, vy

    def positions(self) -> np.ndarray:
        return np.array([(p.x, p.y) for p in self.masses])

    def velocities(self) -> np.ndarray:
        return np.array([(p.vx, p.vy) for p in self.masses])


class PurePythonAllPairsGrid(PurePythonGrid):
    """The same baseline testing every pair for contact, as the Computer Seminar chapter's CollisionResolver does."""

    name = "pure_python_all_pairs"
    pair_search = "all"


class PymunkGrid:
    """Chipmunk2D through pymunk: circles, DampedSpring constraints, four static segment walls."""

    name = "pymunk"

    def __init__(self, spec: GridSpec):
        import pymunk

        positions, velocities, pairs, rest_length = grid_state(spec)
        space = pymunk.Space()
        space.gravity = (0.0, spec.gravity)
        # Viscous -d v scales v by (1 - d dt / m) per step; pymunk's damping is that factor per unit time.
        space.damping = max(0.0, 1.0 - spec.damping / spec.mass) ** (1.0 / spec.dt)
        moment = pymunk.moment_for_circle(spec.mass, 0.0, spec.radius)
        self.bodies = []
        shapes = []
        for p, v in zip(positions.tolist(), velocities.tolist()):
            body = pymunk.Body(spec.mass, moment)
            body.position = p
            body.velocity = v
            shape = pymunk.Circle(body, spec.radius)
            shape.elasticity = spec.restitution
            shape.friction = 0.0
            self.bodies.append(body)
            shapes.append(body)
            shapes.append(shape)
        springs = [
            pymunk.DampedSpring(self.bodies[a], self.bodies[b], (0, 0), (0, 0), length, spec.stiffness, 0.0)
            for (a, b), length in zip(pairs.tolist(), rest_length.tolist())
        ]
        w, h = spec.width, spec.height
        corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        walls = []
        for k in range(4):
            seg = pymunk.Segment(space.static_body, corners[k], corners[(k + 1) % 4], 0.0)
            seg.elasticity = spec.restitution
            seg.friction = 0.0
            walls.append(seg)
        space.add(*shapes, *springs, *walls)
        self.space = space
        self.dt = spec.dt

    def step(self) -> None:
        self.space.step(self.dt)

    def set_state(self, positions, velocities) -> None:
        for body, xy, v in zip(self.bodies, np.asarray(positions).tolist(), np.asarray(velocities).tolist()):
            body.position = xy
            body.velocity = v

    def positions(self) -> np.ndarray:
        return np.array([tuple(b.position) for b in self.bodies])

    def velocities(self) -> np.ndarray:
        return np.array([tuple(b.velocity) for b in self.bodies])


ENGINES = {
    "slime": SlimeGrid,
    "pure_python": PurePythonGrid,
    "pure_python_all_pairs": PurePythonAllPairsGrid,
    "pymunk": PymunkGrid,
}


def seconds_per_step(engine, steps: int) -> float:
    start = time.perf_counter()
    for _ in range(steps):
        engine.step()
    return (time.perf_counter() - start) / steps


# Steps per timed block, per grid size and engine (the pure-Python baselines get fewer).
BLOCK_STEPS = {
    (20, "slime"): 100,
    (20, "pure_python"): 30,
    (20, "pure_python_all_pairs"): 3,
    (20, "pymunk"): 100,
    (40, "slime"): 60,
    (40, "pure_python"): 10,
    (40, "pure_python_all_pairs"): 1,
    (40, "pymunk"): 60,
}
# The engines take turns, one block each per round, and each keeps its fastest block: the machine
# is shared, and a burst of someone else's work should not land on one engine only.
ROUNDS = 3
QUICK_STEPS = 2
WARMUP_STEPS = 5
SETTLE_STEPS = 300  # the fall from GridSpec.drop takes about 220 steps
QUICK_SETTLE_STEPS = 5


def run(quick: bool = False, sizes=(20, 40)) -> list[dict]:
    rows: list[dict] = []
    for n in sizes:
        spec = GridSpec(n)
        engines = {}
        for name, cls in ENGINES.items():
            try:
                engines[name] = cls(spec)
            except ImportError as exc:  # pymunk is an optional (bench) dependency
                rows.append({"benchmark": "grid2d", "n": n, "engine": name, "skipped": str(exc)})
        block = {name: QUICK_STEPS if quick else BLOCK_STEPS.get((n, name), 10) for name in engines}
        # Time the landed grid, where contacts happen: our engine runs the fall (it is the
        # cheapest), then every engine starts from that same state. Then a short warm-up each.
        if "slime" in engines:
            lead = engines["slime"]
            for _ in range(QUICK_SETTLE_STEPS if quick else SETTLE_STEPS):
                lead.step()
            state = (lead.positions(), lead.velocities())
            for engine in engines.values():
                engine.set_state(*state)
        for name, engine in engines.items():
            for _ in range(1 if quick else min(WARMUP_STEPS, block[name])):
                engine.step()
        best = {name: np.inf for name in engines}
        searches_before = engines["slime"].contacts.rebuilds if "slime" in engines else 0
        for _ in range(1 if quick else ROUNDS):
            for name, engine in engines.items():
                best[name] = min(best[name], seconds_per_step(engine, block[name]))
        rounds = 1 if quick else ROUNDS
        for name, seconds in best.items():
            row = {
                "benchmark": "grid2d",
                "n": n,
                "engine": name,
                "masses": n * n,
                "steps": block[name] * rounds,
                "ms_per_step": seconds * 1e3,
                "steps_per_second": 1.0 / seconds,
            }
            if name == "slime":
                row["pair_searches"] = engines["slime"].contacts.rebuilds - searches_before
            rows.append(row)
        if "slime" in best:
            for other in ("pure_python", "pure_python_all_pairs", "pymunk"):
                if other in best:
                    rows.append(
                        {"benchmark": "grid2d_ratio", "n": n, "vs": other, "ratio": best[other] / best["slime"]}
                    )
    return rows


if __name__ == "__main__":
    from slime.bench import format_table

    print(format_table(run()))
