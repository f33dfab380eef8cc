"""Exercise 7-2: forced resonance.

Part of the Computer Seminar chapter's scenes (see the package's docstring)."""

from __future__ import annotations

import math

import numpy as np

from slime.physics.mass_spring.particles import Particles
from slime.physics.mass_spring.springs import Springs
from slime import theme
from slime.scenes.base import DrawList
from slime.scenes.sandbox.base import SpringMassScene, coil


class Resonance(SpringMassScene):
    """Exercise 7-2: no gravity; masses on springs from fixed points, each pushed by F0 cos(w n dt).

    Three rows share k and m (resonance w0 = sqrt(k/m)) and differ in the driving w: half of w0,
    ``ratio`` x w0 (adjustable, starts at resonance) and twice w0. Near resonance the swing grows
    to F0 / (d w0) (d the viscous coefficient); far from it, it stays near F0 / |k - m w^2|.
    """

    name = "resonance"
    title = "forced oscillation (exercise 7-2)"
    hud_above = True
    # The camera on the three rows (their springs, masses and swings), not the whole window.
    bounds = (110.0, 100.0, 430.0, 300.0)
    MASS_RADIUS = 18.0  # drawn size: nothing collides here
    COIL_WIDTH, COIL_TURNS = 22.0, 7
    help_lines = ["left/right: the middle row's driving frequency -/+ 0.05 w0", "r: restart"]
    keys = ("left", "right", "r")

    STIFFNESS, MASS, VISCOUS, FORCE_AMPLITUDE, NATURAL_LENGTH = 0.04, 1.0, 0.01, 0.1, 150.0

    def __init__(self, ratio: float = 1.0):
        super().__init__(gravity=(0.0, 0.0), collide=False, walls=None)
        self.bounds = type(self).bounds
        self.ratio = ratio
        self._build()
        self.world.extra_forces.append(self._drive)

    @property
    def omega0(self) -> float:
        return math.sqrt(self.STIFFNESS / self.MASS)

    def ratios(self) -> np.ndarray:
        return np.array([0.5, self.ratio, 2.0])

    def _build(self) -> None:
        self.world.particles = Particles.create(np.zeros((0, 2)))
        self.world.springs = Springs.empty()
        self.frame = 0
        rows = np.array([130.0, 200.0, 270.0])
        self.anchor_x, self.rest_x = 150.0, 150.0 + self.NATURAL_LENGTH
        self.movers = []
        for y in rows:
            a = self.add_mass((self.anchor_x, y), fixed=True)
            b = self.add_mass((self.rest_x, y), mass=self.MASS, viscous=self.VISCOUS, radius=self.MASS_RADIUS)
            self.add_spring(a, b, self.STIFFNESS, self.NATURAL_LENGTH)
            self.movers.append(b)
        self.movers = np.array(self.movers)
        self.peak = np.zeros(len(rows))  # largest swing seen over the last window

    def _drive(self, world, forces: np.ndarray) -> None:
        # Frame n's force is F0 cos(w n dt), n counted from the start.
        omega = self.ratios() * self.omega0
        forces[self.movers, 0] += self.FORCE_AMPLITUDE * np.cos(omega * self.frame * world.dt)

    def step(self) -> None:
        super().step()
        swing = np.abs(self.world.particles.positions[self.movers, 0] - self.rest_x)
        # A slowly forgetting maximum, so the HUD follows a changing amplitude.
        self.peak = np.maximum(swing, self.peak * 0.995)

    def key(self, name: str) -> None:
        if name in ("left", "right"):
            self.ratio = max(0.05, self.ratio + (-0.05 if name == "left" else 0.05))
        elif name == "r":
            self._build()

    def reset(self) -> None:
        self._build()

    def hud(self) -> list[str]:
        lines = [f"resonance w0 = sqrt(k/m) = {self.omega0:.4f} rad/frame"]
        for r, amp in zip(self.ratios(), self.peak):
            lines.append(f"w = {r:.2f} w0: swing {amp:7.2f} px")
        return lines

    def draw_springs(self, d: DrawList) -> None:
        starts, ends = self.spring_segments()
        if len(starts):
            d.add_lines(*coil(starts, ends, self.COIL_WIDTH, self.COIL_TURNS), theme.INK)

    def draw_list(self) -> DrawList:
        d = super().draw_list()
        x = self.world.particles.positions[self.movers]
        # An arrow-like tick showing the driving force now.
        push = self.FORCE_AMPLITUDE * np.cos(self.ratios() * self.omega0 * self.frame) * 300.0
        d.add_lines(x, x + np.stack([push, np.zeros_like(push)], axis=1), theme.ACCENT)
        return d


def make_resonance(ratio: float = 1.0) -> Resonance:
    return Resonance(ratio)


# --- exercise 7-3: the collision counter ------------------------------------------------------
