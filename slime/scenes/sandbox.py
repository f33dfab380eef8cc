"""The spring_mass module's spring-mass programs as scenes: the interactive sandbox, the slinky drop, and the
chapter's exercises 7-1..7-4 (dotted springs, forced resonance, collision counter, inverse-square
attractor).

All of them run on the shared engine (:class:`~slime.physics.mass_spring.world.World`) in the spring_mass module's units:
pixels, one time unit per frame (dt = 1), y down with gravity +y. Point-point impacts and the
walls are the spring_mass module's impulse-as-force rules from :mod:`slime.physics.mass_spring.collide2d`.

One difference from the spring_mass module, on purpose: the spring_mass module lets each actor update in list order, so a
mass moves before the springs created after it push on it (their force then waits a frame).
The engine takes every force from the same state and then moves everything at once.
"""

from __future__ import annotations

import math

import numpy as np

from slime.physics.mass_spring.collide2d import BOX_FLOOR, ContactForces, PlaneImpactForces, box_planes
from slime.physics.mass_spring.particles import Particles
from slime.physics.planes import Planes
from slime.physics.mass_spring.scatter import scatter_add
from slime.physics.mass_spring.springs import Springs
from slime.physics.mass_spring.world import World
from slime import theme
from slime.scenes.base import DrawList, Follow, Param, Scene2D, extent

# The spring_mass module's PointMass defaults.
RADIUS, MASS, VISCOUS, RESTITUTION = 10.0, 10.0, 0.01, 0.95


class SpringMassScene(Scene2D):
    """A World of point masses and springs, with optional contacts and spring_mass walls."""

    y_down = True
    dt = 1.0
    WALL_MARGIN = 8.0  # world units shown beyond the walls, so their outline is seen whole

    def __init__(self, size=(600.0, 400.0), gravity=(0.0, 0.1), collide: bool = True,
                 walls: Planes | None = None, sink_fix=None, seed: int = 3):
        self.size = (float(size[0]), float(size[1]))
        m = self.WALL_MARGIN if walls is not None else 0.0
        self.bounds = (-m, -m, self.size[0] + m, self.size[1] + m)
        self.rng = np.random.default_rng(seed)
        self.world = World(Particles.create(np.zeros((0, 2))), gravity=np.asarray(gravity, float), dt=1.0)
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


class Sandbox(SpringMassScene):
    """The spring_mass module's interactive program: click masses into a box, chain them with fragile springs."""

    name = "sandbox"
    title = "spring-mass sandbox (the spring_mass module)"
    help_lines = [
        "left click: add a mass",
        "right click: add a fixed mass",
        "hold space while clicking: chain each new mass to the previous one with a spring",
        "springs break when pulled past their strength",
        "backspace: clear everything",
    ]
    keys = ("space", "backspace")

    # The spring_mass module's factory numbers.
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
        # The spring_mass module throws each new mass with a random velocity, mostly upward (y down).
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


class Slinky(SpringMassScene):
    """The spring_mass module's slinky drop: 14 masses hanging in a chain from a fixed top point; space lets go.

    The spring_mass module's numbers: masses 0.1 (radius 10, viscous 0.01), springs k = 0.02 with natural
    length 5, spacing 30, gravity 0.5 px/frame^2. No walls and no contacts.
    """

    name = "slinky"
    title = "slinky drop (the spring_mass module)"
    help_lines = ["space: let go of the top (break the first spring)", "r: hang it up again"]
    keys = ("space", "r")

    COUNT, SPACING, MASS, STIFFNESS, NATURAL_LENGTH, GRAVITY = 14, 30.0, 0.1, 0.02, 5.0, 0.5

    def __init__(self, settled: bool = False, release_frame: int | None = None):
        super().__init__(size=(600.0, 400.0), gravity=(0.0, self.GRAVITY), collide=False, walls=None)
        # The spring_mass module hangs the top at y = 0, the window's edge; show a margin above it so the fixed
        # point is seen whole (the coordinates stay the spring_mass module's).
        self.bounds = (0.0, -30.0, self.size[0], self.size[1])
        self.settled = settled
        self.release_frame = release_frame
        self._build()

    def _build(self) -> None:
        self.world.particles = Particles.create(np.zeros((0, 2)))
        self.world.springs = Springs.empty()
        self.frame = 0
        # The camera: the spring_mass module's window; once let go, it follows the slinky
        # down and closes in as the slinky gathers itself up.
        self.camera = Follow(self.bounds, grow=1.3, smallest=0.25)
        top_x = self.size[0] / 2
        if self.settled:
            # Hanging at rest: the spring above mass j carries the weight of masses j..COUNT, so
            # it is stretched by (COUNT - j + 1) m g / k beyond its natural length.
            carried = np.arange(self.COUNT, 0, -1) * self.MASS * self.GRAVITY
            y = np.concatenate([[0.0], np.cumsum(self.NATURAL_LENGTH + carried / self.STIFFNESS)])
        else:
            y = self.SPACING * np.arange(self.COUNT + 1)  # the spring_mass module's evenly spaced start
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
    # spring_mass module's radius 10 never touches anything here: no walls, no contacts).
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


def dots_along(starts: np.ndarray, ends: np.ndarray, spacing: float) -> np.ndarray:
    """Centres of dots along each segment: the segment cut into pieces about ``spacing`` long and
    one dot in the middle of each piece (at least one per segment). Vectorised over segments."""
    gap = ends - starts
    length = np.sqrt(np.einsum("ij,ij->i", gap, gap))
    pieces = np.maximum(1, np.ceil(length / spacing).astype(np.int64))
    owner = np.repeat(np.arange(len(pieces)), pieces)
    first = np.cumsum(pieces) - pieces
    index_in_segment = np.arange(owner.size) - first[owner]
    t = (index_in_segment + 0.5) / pieces[owner]
    return starts[owner] + t[:, None] * gap[owner]


class Dotted(SpringMassScene):
    """Exercise 7-1: the chapter's first program (simple_main) with springs drawn as dotted lines."""

    name = "dotted"
    title = "dotted springs (exercise 7-1)"
    help_lines = ["left / right: dots closer / further apart"]
    keys = ("left", "right")
    DOT_SPACING = 8.0

    def __init__(self):
        # simple_main's gravity 0.5; it walls only the right and the floor, the chapter suggests
        # adding the others the same way, and here all four keep everything on screen.
        super().__init__(gravity=(0.0, 0.5), walls=box_planes(600.0, 400.0, y_down=True), sink_fix=BOX_FLOOR)
        self.dot_spacing = self.DOT_SPACING
        self.add_mass((100.0, 200.0), (10.0, -15.0))
        p1 = self.add_mass((300.0, 100.0))
        p2 = self.add_mass((400.0, 120.0))
        self.add_spring(p1, p2, 0.01, 20.0)
        p3 = self.add_mass((350.0, 50.0), fixed=True)
        p4 = self.add_mass((450.0, 80.0))
        self.add_spring(p3, p4, 0.01, 20.0)
        # And two chains of five hanging from fixed masses, so there are plenty of dots to see.
        for top, side in (((150.0, 30.0), 1.0), ((500.0, 30.0), -1.0)):
            previous = self.add_mass(top, fixed=True)
            for k in range(1, 6):
                new = self.add_mass((top[0] + side * 30.0 * k, top[1] + 20.0 * k))
                self.add_spring(previous, new, 0.02, 30.0)
                previous = new

    def draw_springs(self, d: DrawList) -> None:
        starts, ends = self.spring_segments()
        if len(starts):
            d.add_circles(dots_along(starts, ends, self.dot_spacing), 3.0, theme.INK, filled=True)

    def key(self, name: str) -> None:
        if name in ("left", "right"):
            self.dot_spacing = float(np.clip(self.dot_spacing + (-2.0 if name == "left" else 2.0), 2.0, 40.0))


def make_dotted() -> Dotted:
    return Dotted()


# --- exercise 7-2: forced oscillation near and far from resonance -----------------------------


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


class Counter(Sandbox):
    """Exercise 7-3: the sandbox with the running total of point-point impacts shown top left."""

    name = "counter"
    title = "collision counter (exercise 7-3)"

    def __init__(self, demo: bool = True, seed: int = 3):
        super().__init__(demo=False, seed=seed)
        if demo:
            # A crowd of masses thrown into the box so collisions happen from the start.
            for k in range(40):
                self.create_mass((40.0 + 13.0 * k, 100.0 + 50.0 * (k % 5)), fixed=False)

    @property
    def collisions(self) -> int:
        return self.contacts.count

    def hud(self) -> list[str]:
        return [f"collisions: {self.collisions}", *super().hud()]


def make_counter(demo: bool = True, seed: int = 3) -> Counter:
    return Counter(demo=demo, seed=seed)


# --- exercise 7-4: inverse-square attraction / repulsion --------------------------------------


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
