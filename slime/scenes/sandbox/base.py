"""The scenes' common part: a MassSpringWorld of point masses and springs in the Computer Seminar chapter's units,
with its contacts and walls, and the coil the springs are drawn as.

Part of the Computer Seminar chapter's scenes (see the package's docstring)."""

from __future__ import annotations

import numpy as np

from slime.physics.mass_spring.collide2d import ContactForces, PlaneImpactForces
from slime.physics.mass_spring.particles import Particles
from slime.physics.planes import Planes
from slime.physics.mass_spring.springs import Springs
from slime.physics.mass_spring.world import MassSpringWorld
from slime import theme
from slime.scenes.base import DrawList, Param, Scene2D

# The Computer Seminar chapter's PointMass defaults.
RADIUS, MASS, VISCOUS, RESTITUTION = 10.0, 10.0, 0.01, 0.95


class SpringMassScene(Scene2D):
    """A MassSpringWorld of point masses and springs, with optional contacts and the Computer Seminar chapter's walls."""

    y_down = True
    dt = 1.0
    WALL_MARGIN = 8.0  # world units shown beyond the walls, so their outline is seen whole

    def __init__(self, size=(600.0, 400.0), gravity=(0.0, 0.1), collide: bool = True,
                 walls: Planes | None = None, sink_fix=None, seed: int = 3):
        self.size = (float(size[0]), float(size[1]))
        m = self.WALL_MARGIN if walls is not None else 0.0
        self.bounds = (-m, -m, self.size[0] + m, self.size[1] + m)
        self.rng = np.random.default_rng(seed)
        self.world = MassSpringWorld(Particles.create(np.zeros((0, 2))), gravity=np.asarray(gravity, float), dt=1.0)
        self.contacts = ContactForces() if collide else None
        self.walls = PlaneImpactForces(walls, sink_fix) if walls is not None else None
        if self.contacts is not None:
            self.world.extra_forces.append(self.contacts)
        if self.walls is not None:
            self.world.extra_forces.append(self.walls)
            self.world.after_integrate.append(self.walls.after_integrate)
        self.frame = 0

    # --- building ---------------------------------------------------------------------------

    def add_mass(self, pos, vel=(0.0, 0.0), fixed=False, radius=RADIUS, mass=MASS, viscous=VISCOUS,
                 restitution=RESTITUTION) -> int:
        """A point mass (a fixed one has infinite mass and no velocity); returns its index."""
        new = Particles.create(
            [pos],
            velocities=[(0.0, 0.0) if fixed else vel],
            mass=np.inf if fixed else mass,
            damping=viscous,
            radius=radius,
            restitution=restitution,
        )
        return int(self.world.particles.append(new)[0])

    def add_spring(self, a: int, b: int, stiffness=0.01, natural_length=0.0, break_force=np.inf) -> int:
        self.world.springs.append(Springs.create([[a, b]], natural_length, stiffness, break_force=break_force))
        return self.world.springs.count - 1

    # --- time -------------------------------------------------------------------------------

    def step(self) -> None:
        w = self.world
        w.step()
        self.frame += 1
        p = w.particles
        bad = ~np.all(np.isfinite(p.positions), axis=1) | ~np.all(np.isfinite(p.velocities), axis=1)
        if np.any(bad):  # never let a NaN spread through the springs: park the bad ones at rest
            p.positions[bad] = np.array(self.size) / 2
            p.velocities[bad] = 0.0

    # --- recording --------------------------------------------------------------------------

    def positions(self) -> np.ndarray:
        return self.world.particles.positions

    def springs(self) -> np.ndarray:
        return self.world.springs.pairs

    def alive(self) -> np.ndarray:
        return self.world.springs.alive.copy()

    # --- drawing ----------------------------------------------------------------------------

    def spring_segments(self):
        s = self.world.springs
        x = self.world.particles.positions
        live = s.alive
        return x[s.a[live]], x[s.b[live]]

    def draw_springs(self, d: DrawList) -> None:
        starts, ends = self.spring_segments()
        d.add_lines(starts, ends, theme.INK)

    def draw_masses(self, d: DrawList) -> None:
        p = self.world.particles
        fixed = p.inv_mass == 0.0
        d.add_circles(p.positions[~fixed], p.radius[~fixed], theme.BODY, filled=True)
        d.add_circles(p.positions[fixed], p.radius[fixed], theme.FIXED, filled=True)

    def draw_list(self) -> DrawList:
        d = DrawList()
        if self.walls is not None:
            d.add_boxes([0.0, 0.0], self.size, theme.WALL, filled=False)
        self.draw_springs(d)
        self.draw_masses(d)
        return d

    def parameters(self) -> list[Param]:
        w = self.world

        def set_gravity_y(value):
            w.gravity = np.array([w.gravity[0], float(value)])

        return [Param("gravity y", lambda: float(w.gravity[1]), set_gravity_y, -1.0, 1.0)]


# --- the interactive program ------------------------------------------------------------------




def coil(starts: np.ndarray, ends: np.ndarray, width: float, turns: int) -> tuple[np.ndarray, np.ndarray]:
    """Each spring (start -> end) drawn as a coil seen from the side: ``turns`` turns, each a tooth
    out to one side and one to the other, ``width`` across. Returns the zigzag's segments
    (starts, ends), ``2 * turns + 1`` per spring, vectorised."""
    gap = ends - starts
    length = np.sqrt(np.einsum("ij,ij->i", gap, gap))
    safe = np.where(length > 0, length, 1.0)
    across = np.stack([-gap[:, 1], gap[:, 0]], axis=1) / safe[:, None] * (0.5 * width)
    teeth = 2 * turns
    t = np.concatenate([[0.0], (np.arange(teeth) + 0.5) / teeth, [1.0]])
    side = np.concatenate([[0.0], np.where(np.arange(teeth) % 2 == 0, 1.0, -1.0), [0.0]])
    points = starts[:, None, :] + t[None, :, None] * gap[:, None, :] + side[None, :, None] * across[:, None, :]
    return points[:, :-1].reshape(-1, 2), points[:, 1:].reshape(-1, 2)


# --- exercise 7-1: dotted springs -------------------------------------------------------------
