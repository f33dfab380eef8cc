"""Exercise 7-4: an inverse-square attractor.

Part of the Computer Seminar chapter's scenes (see the package's docstring)."""

from __future__ import annotations

import math

import numpy as np

from slime.physics.mass_spring.collide2d import box_planes
from slime.physics.mass_spring.scatter import scatter_add
from slime import theme
from slime.scenes.base import DrawList
from slime.scenes.sandbox.base import SpringMassScene


def inverse_square_forces(positions: np.ndarray, a: np.ndarray, b: np.ndarray, strength: np.ndarray,
                          min_distance: float = 1.0) -> np.ndarray:
    """Force on ``a[k]`` toward ``b[k]`` of size strength / r^2 (negative strength repels); b gets the opposite.

    Like a spring, it acts along the line between the two masses. Coincident masses have no
    direction and get nothing; closer than ``min_distance`` the force stops growing so a close
    pass cannot fling the masses off with an enormous kick.
    """
    gap = positions[b] - positions[a]
    distance = np.sqrt(np.einsum("ij,ij->i", gap, gap))
    safe = np.where(distance > 0.0, distance, 1.0)
    r = np.maximum(safe, min_distance)
    scale = np.where(distance > 0.0, strength / (r * r) / safe, 0.0)
    return gap * scale[:, None]


class Attractor(SpringMassScene):
    """Exercise 7-4: an actor pulling (or pushing) pairs of masses with a force ~ 1 / r^2.

    A fixed sun attracts planets thrown on circular orbits (v = sqrt(G / (m r))); left click adds
    a planet on a circular orbit around it, 'i' turns attraction into repulsion and back.
    Planets collide with each other and with the walls.
    """

    name = "attractor"
    title = "inverse-square attractor (exercise 7-4)"
    help_lines = ["i: attract / repel", "left click: add a planet on a circular orbit"]
    keys = ("i",)

    STRENGTH, PLANET_MASS = 500.0, 1.0

    def __init__(self, seed: int = 4):
        walls = box_planes(600.0, 400.0, y_down=True)
        super().__init__(gravity=(0.0, 0.0), walls=walls, sink_fix=None, seed=seed)
        self.sign = 1.0
        self.trail = np.zeros((0, 0, 2))  # (frames, planets, 2): the last TRAIL positions
        self.sun = self.add_mass((300.0, 200.0), fixed=True, radius=24.0)
        self.pair_a = np.zeros(0, dtype=np.int64)
        self.pair_b = np.zeros(0, dtype=np.int64)
        # Eight planets on circles 17 apart (wider than two planets), spread by the golden angle.
        for k, radius in enumerate(np.linspace(60.0, 180.0, 8)):
            angle = 2.39996 * k
            self.add_planet(np.array([300.0, 200.0]) + radius * np.array([math.cos(angle), math.sin(angle)]))
        self.world.extra_forces.append(self._attract)

    TRAIL = 400  # frames of each planet's path drawn behind it

    def step(self) -> None:
        super().step()
        x = self.world.particles.positions[self.pair_a]
        if self.trail.shape[1] != len(x):  # a planet was added: start the paths afresh
            self.trail = np.zeros((0, len(x), 2))
        self.trail = np.concatenate([self.trail[-(self.TRAIL - 1):], x[None]])

    def add_planet(self, pos) -> int:
        sun = self.world.particles.positions[self.sun]
        offset = np.asarray(pos, float) - sun
        r = float(np.hypot(*offset))
        if r == 0.0:
            return -1
        speed = math.sqrt(self.STRENGTH / (self.PLANET_MASS * r))
        tangent = np.array([-offset[1], offset[0]]) / r
        k = self.add_mass(pos, speed * tangent, mass=self.PLANET_MASS, viscous=0.0, radius=7.0, restitution=0.9)
        self.pair_a = np.append(self.pair_a, k)
        self.pair_b = np.append(self.pair_b, self.sun)
        return k

    def _attract(self, world, forces: np.ndarray) -> None:
        if self.pair_a.size == 0:
            return
        f = inverse_square_forces(world.particles.positions, self.pair_a, self.pair_b, self.sign * self.STRENGTH)
        scatter_add(forces, self.pair_a, f)
        scatter_add(forces, self.pair_b, -f)

    def mouse_press(self, xy, button: str) -> None:
        if button == "left":
            self.add_planet(np.asarray(xy, float).reshape(2))

    def key(self, name: str) -> None:
        if name == "i":
            self.sign = -self.sign

    def hud(self) -> list[str]:
        return ["attracting" if self.sign > 0 else "repelling", f"planets: {self.pair_a.size}"]

    def draw_list(self) -> DrawList:
        d = DrawList()
        n = len(self.trail)
        if n > 1:  # each planet's path, fading toward its oldest end
            fade = np.repeat(np.linspace(0.25, 0.8, n - 1), self.trail.shape[1])
            colors = np.tile(np.array(theme.FIELD), (len(fade), 1))
            colors[:, 3] *= fade
            d.add_lines(self.trail[:-1].reshape(-1, 2), self.trail[1:].reshape(-1, 2), colors)
        x = self.world.particles.positions
        d.add_lines(x[self.pair_a], x[self.pair_b], theme.faded(theme.FIELD, 0.8), dashed=True)
        sun, radius = x[self.sun], self.world.particles.radius[self.sun]
        d.add_circles(sun, 1.7 * radius, theme.faded(theme.GOLD, 0.25), filled=True)  # its glow
        d.extend(super().draw_list())
        d.add_circles(sun, radius, theme.GOLD, filled=True)
        return d


def make_attractor(seed: int = 4) -> Attractor:
    return Attractor(seed)
