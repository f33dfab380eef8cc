"""A 2D scene written outside the package: a weight on a spring hanging from a hook.

Tutorial 4 (docs/4-write-a-2d-scene.md) builds this file. Run it:

    python examples/spring_pendulum_scene.py              # a window (needs a display)
    python examples/spring_pendulum_scene.py --render out/pendulum.png   # headless picture

In the window: drag with the left button to move the hook, G toggles gravity, R resets,
and the panel's sliders change the stiffness and the damping.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from slime.scenes.base import DrawList, Param, Scene2D


class SpringPendulum(Scene2D):
    name = "pendulum"
    title = "A weight on a spring"
    bounds = (-2.0, -3.0, 2.0, 0.5)  # world rectangle shown (metres), y up
    y_down = False
    background = (1.0, 1.0, 1.0, 1.0)
    help_lines = ["left drag: move the hook", "g: gravity on / off", "r: reset"]
    dt = 1.0 / 60.0  # one step() is one frame at 60 Hz

    def __init__(self):
        self.stiffness = 40.0  # N/m per kg
        self.damping = 0.3  # 1/s
        self.rest_length = 1.0  # m
        self.gravity_on = True
        self.reset()

    def reset(self) -> None:
        self.hook = np.array([0.0, 0.0])
        self.weight = np.array([0.8, -1.2])
        self.velocity = np.zeros(2)

    # --- time ---------------------------------------------------------------------------------
    def step(self) -> None:
        substeps = 8
        h = self.dt / substeps
        for _ in range(substeps):  # symplectic Euler: new velocity first, then the position with it
            offset = self.weight - self.hook
            length = max(float(np.linalg.norm(offset)), 1e-9)
            spring = -self.stiffness * (length - self.rest_length) * offset / length  # Hooke, per kg
            gravity = np.array([0.0, -9.81]) if self.gravity_on else np.zeros(2)
            acceleration = spring + gravity - self.damping * self.velocity
            self.velocity += h * acceleration
            self.weight += h * self.velocity

    # --- recording and drawing ----------------------------------------------------------------
    def positions(self) -> np.ndarray:
        return np.array([self.hook, self.weight])

    def springs(self) -> np.ndarray:
        return np.array([[0, 1]])

    def draw_list(self) -> DrawList:
        draw = DrawList()
        draw.add_lines([self.hook], [self.weight], (0.2, 0.2, 0.25, 1.0))
        draw.add_circles([self.hook], 0.05, (0.4, 0.4, 0.4, 1.0), filled=True)
        draw.add_circles([self.weight], 0.15, (0.1, 0.6, 0.4, 1.0), filled=True)
        return draw

    def hud(self) -> list[str]:
        speed = float(np.linalg.norm(self.velocity))
        return [f"speed {speed:.2f} m/s   gravity {'on' if self.gravity_on else 'off'}"]

    def parameters(self) -> list[Param]:
        return [
            Param("stiffness", lambda: self.stiffness, lambda v: setattr(self, "stiffness", v), 5.0, 200.0),
            Param("damping", lambda: self.damping, lambda v: setattr(self, "damping", v), 0.0, 5.0),
        ]

    # --- input --------------------------------------------------------------------------------
    def key(self, name: str) -> None:
        if name == "g":
            self.gravity_on = not self.gravity_on
        elif name == "r":
            self.reset()

    def mouse_drag(self, xy, button: str) -> None:
        if button == "left":
            self.hook = np.asarray(xy, dtype=np.float64)

    def unattended(self, frame: int) -> None:
        """Headless runs have no mouse: swing the hook sideways once, at the start."""
        if frame == 0:
            self.hook = np.array([0.5, 0.0])


def make_scene() -> SpringPendulum:
    return SpringPendulum()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--render", metavar="OUT.png", help="draw 90 frames headless into a PNG instead of a window")
    parser.add_argument("--frames", type=int, default=90)
    args = parser.parse_args(argv)
    scene = make_scene()
    if args.render:
        from slime.app.render_scene import render_picture
        from slime.render.images import save_png

        picture = render_picture(scene, frames=args.frames, size=(480, 420))
        Path(args.render).parent.mkdir(parents=True, exist_ok=True)
        save_png(args.render, picture[..., :3])
        print(f"wrote {args.render}")
        return 0
    from slime.app.scene_window import run_scene_instance
    from slime.render.context import has_display

    if not has_display():
        print("no display to open a window on; try --render out/pendulum.png", file=sys.stderr)
        return 2
    return run_scene_instance(scene, size=(800, 700))


if __name__ == "__main__":
    sys.exit(main())
