"""The slinky drop: the top let go, the bottom hangs still while the rest falls onto it.

Part of the Computer Seminar chapter's scenes (see the package's docstring)."""

from __future__ import annotations

import numpy as np

from slime.physics.mass_spring.particles import Particles
from slime.physics.mass_spring.springs import Springs
from slime import theme
from slime.scenes.base import DrawList, Follow, extent
from slime.scenes.sandbox.base import SpringMassScene, coil


class Slinky(SpringMassScene):
    """The Computer Seminar chapter's slinky drop: 14 masses hanging in a chain from a fixed top point; space lets go.

    The Computer Seminar chapter's numbers: masses 0.1 (radius 10, viscous 0.01), springs k = 0.02 with natural
    length 5, spacing 30, gravity 0.5 px/frame^2. No walls and no contacts.
    """

    name = "slinky"
    title = "slinky drop (the Computer Seminar chapter)"
    help_lines = ["space: let go of the top (break the first spring)", "r: hang it up again"]
    keys = ("space", "r")

    COUNT, SPACING, MASS, STIFFNESS, NATURAL_LENGTH, GRAVITY = 14, 30.0, 0.1, 0.02, 5.0, 0.5

    def __init__(self, settled: bool = False, release_frame: int | None = None):
        super().__init__(size=(600.0, 400.0), gravity=(0.0, self.GRAVITY), collide=False, walls=None)
        # The Computer Seminar chapter hangs the top at y = 0, the window's edge; show a margin above it so the fixed
        # point is seen whole (the coordinates stay the Computer Seminar chapter's).
        self.bounds = (0.0, -30.0, self.size[0], self.size[1])
        self.settled = settled
        self.release_frame = release_frame
        self._build()

    def _build(self) -> None:
        self.world.particles = Particles.create(np.zeros((0, 2)))
        self.world.springs = Springs.empty()
        self.frame = 0
        # The camera: the Computer Seminar chapter's window; once let go, it follows the slinky
        # down and closes in as the slinky gathers itself up.
        self.camera = Follow(self.bounds, grow=1.3, smallest=0.25)
        top_x = self.size[0] / 2
        if self.settled:
            # Hanging at rest: the spring above mass j carries the weight of masses j..COUNT, so
            # it is stretched by (COUNT - j + 1) m g / k beyond its natural length.
            carried = np.arange(self.COUNT, 0, -1) * self.MASS * self.GRAVITY
            y = np.concatenate([[0.0], np.cumsum(self.NATURAL_LENGTH + carried / self.STIFFNESS)])
        else:
            y = self.SPACING * np.arange(self.COUNT + 1)  # the Computer Seminar chapter's evenly spaced start
        self.add_mass((top_x, 0.0), fixed=True, mass=self.MASS)
        for k in range(1, self.COUNT + 1):
            self.add_mass((top_x, y[k]), mass=self.MASS)
            self.add_spring(k - 1, k, self.STIFFNESS, self.NATURAL_LENGTH)

    def release(self) -> None:
        self.world.springs.alive[0] = False

    @property
    def released(self) -> bool:
        return not bool(self.world.springs.alive[0])

    def step(self) -> None:
        if self.release_frame is not None and self.frame == self.release_frame:
            self.release()
        super().step()
        # Once let go, the camera keeps the falling masses in the picture (the fixed top goes).
        p = self.world.particles
        shown = p.inv_mass > 0 if self.released else np.ones(p.count, dtype=bool)
        self.camera.update(extent(p.positions[shown], self.COIL_WIDTH / 2))

    def view_bounds(self) -> tuple[float, float, float, float]:
        return self.camera.view

    def unattended(self, frame: int) -> None:
        # Headless (slime render / simulate slinky) no one presses space: let go after half a
        # second of hanging, so the picture is the drop.
        if frame == self.UNATTENDED_RELEASE and self.release_frame is None and not self.released:
            self.release()

    UNATTENDED_RELEASE = 30  # frames
    RULER_STEP = 50.0  # world units between the ruler's marks
    # How it is drawn: each spring a turn of a slinky's coil, the masses small beads on it (the
    # Computer Seminar chapter's radius 10 never touches anything here: no walls, no contacts).
    COIL_WIDTH, COIL_TURNS, BEAD = 60.0, 1, 3.5
    stroke = 1.5  # the coil's wire, in world units: it widens as the camera closes in

    def draw_springs(self, d: DrawList) -> None:
        starts, ends = self.spring_segments()
        if len(starts):
            d.add_lines(*coil(starts, ends, self.COIL_WIDTH, self.COIL_TURNS), theme.INK)

    def draw_masses(self, d: DrawList) -> None:
        p = self.world.particles
        fixed = p.inv_mass == 0.0
        d.add_circles(p.positions[~fixed], self.BEAD, theme.BODY, filled=True)
        d.add_circles(p.positions[fixed], 2 * self.BEAD, theme.FIXED, filled=True)

    def draw_list(self) -> DrawList:
        # A ruler down the left edge: when the camera follows the fall, its marks stream upward,
        # so the picture shows the drop even while the slinky stays in the middle of it.
        d = super().draw_list()
        xmin, ymin, _, ymax = self.camera.view
        marks = np.arange(np.ceil(ymin / self.RULER_STEP), np.floor(ymax / self.RULER_STEP) + 1) * self.RULER_STEP
        long = np.isclose(np.mod(marks, 2 * self.RULER_STEP), 0.0)
        starts = np.stack([np.full(marks.shape, xmin + 12.0), marks], axis=1)
        ends = starts + np.stack([np.where(long, 40.0, 20.0), np.zeros(marks.shape)], axis=1)
        d.add_lines(starts, ends, theme.FAINT)
        return d

    def key(self, name: str) -> None:
        if name == "space":
            self.release()
        elif name == "r":
            self._build()

    def reset(self) -> None:
        self._build()

    def hud(self) -> list[str]:
        p = self.world.particles
        free = p.inv_mass > 0
        com = p.positions[free].mean(axis=0)
        return ["falling (r hangs it up again)" if self.released else "hanging (space lets go)",
                f"centre of mass: {com[1]:.0f} px below the top"]


def make_slinky(settled: bool = False, release_frame: int | None = None) -> Slinky:
    return Slinky(settled=settled, release_frame=release_frame)
