"""The interactive sandbox: click masses in, chain them with fragile springs.

Part of the Computer Seminar chapter's scenes (see the package's docstring)."""

from __future__ import annotations

import numpy as np

from slime.physics.mass_spring.collide2d import BOX_FLOOR, box_planes
from slime.physics.mass_spring.particles import Particles
from slime.physics.mass_spring.springs import Springs
from slime.scenes.sandbox.base import SpringMassScene


class Sandbox(SpringMassScene):
    """The Computer Seminar chapter's interactive program: click masses into a box, chain them with fragile springs."""

    name = "sandbox"
    title = "spring-mass sandbox (the Computer Seminar chapter)"
    help_lines = [
        "left click: add a mass",
        "right click: add a fixed mass",
        "hold space while clicking: chain each new mass to the previous one with a spring",
        "springs break when pulled past their strength",
        "backspace: clear everything",
    ]
    keys = ("space", "backspace")

    # The Computer Seminar chapter's factory numbers.
    SPRING_CONSTANT, NATURAL_LENGTH, BREAK_THRESHOLD = 0.01, 20.0, 5.0

    def __init__(self, demo: bool = True, seed: int = 3):
        walls = box_planes(600.0, 400.0, y_down=True)
        super().__init__(size=(600.0, 400.0), gravity=(0.0, 0.1), walls=walls, sink_fix=BOX_FLOOR, seed=seed)
        self.space_held = False
        self.previous: int | None = None  # the last mass clicked while space was held
        if demo:
            self._demo()

    def _demo(self) -> None:
        """Something to watch headless: two fragile chains hanging from fixed masses and a crowd of
        loose masses thrown into the box."""
        for top, step in (((300.0, 40.0), (25.0, 15.0)), ((160.0, 60.0), (-18.0, 20.0))):
            self.key("space")
            self.mouse_press(top, "right")
            for k in range(1, 6):
                self.mouse_press((top[0] + step[0] * k, top[1] + step[1] * k), "left")
            self.key_up("space")
        for k in range(20):
            self.mouse_press((60.0 + 52.0 * (k % 10), 240.0 + 60.0 * (k // 10)), "left")

    def create_mass(self, pos, fixed: bool) -> int:
        # The Computer Seminar chapter throws each new mass with a random velocity, mostly upward (y down).
        vel = (self.rng.uniform(-10.0, 10.0), self.rng.uniform(-10.0, 0.0))
        return self.add_mass(pos, vel, fixed=fixed)

    def mouse_press(self, xy, button: str) -> None:
        if button not in ("left", "right"):
            return
        new = self.create_mass(np.asarray(xy, float).reshape(2), fixed=(button == "right"))
        if self.previous is not None:
            self.add_spring(new, self.previous, self.SPRING_CONSTANT, self.NATURAL_LENGTH, self.BREAK_THRESHOLD)
        if self.space_held:
            self.previous = new

    def key(self, name: str) -> None:
        if name == "space":
            self.space_held = True
        elif name == "backspace":
            self.world.particles = Particles.create(np.zeros((0, 2)))
            self.world.springs = Springs.empty()
            self.previous = None

    def key_up(self, name: str) -> None:
        if name == "space":
            self.space_held = False
            self.previous = None  # releasing space ends the chain

    def hud(self) -> list[str]:
        p = self.world.particles
        return [f"masses: {p.count}  springs: {int(self.world.springs.alive.sum())}"]


def make_sandbox(demo: bool = True, seed: int = 3) -> Sandbox:
    return Sandbox(demo=demo, seed=seed)


# --- the slinky drop --------------------------------------------------------------------------
