"""Seed 003's spring-mass programs as scenes: the interactive sandbox, the slinky drop, and the
chapter's exercises 7-1..7-4 (dotted springs, forced resonance, collision counter, inverse-square
attractor).

All of them run on the shared engine (:class:`~slime.physics.world.World`) in the seed's units:
pixels, one time unit per frame (dt = 1), y down with gravity +y. Point-point impacts and the
walls are seed 003's impulse-as-force rules from :mod:`slime.physics.collide2d`.

One difference from the seed, on purpose: the seed lets each actor update in list order, so a
mass moves before the springs created after it push on it (their force then waits a frame).
The engine takes every force from the same state and then moves everything at once.
"""

from __future__ import annotations

import math

import numpy as np

from slime.physics.collide2d import BOX_FLOOR, ContactForces, PlaneImpactForces, box_planes
from slime.physics.particles import Particles
from slime.physics.planes import Planes
from slime.physics.scatter import scatter_add
from slime.physics.springs import Springs
from slime.physics.world import World
from slime.scenes.base import DrawList, Param, Scene2D

WHITE = (1.0, 1.0, 1.0, 1.0)
GREEN = (0.2, 0.85, 0.3, 1.0)
GRAY = (0.6, 0.6, 0.6, 1.0)
RED = (1.0, 0.35, 0.3, 1.0)

# Seed 003's PointMass defaults.
RADIUS, MASS, VISCOUS, RESTITUTION = 10.0, 10.0, 0.01, 0.95


class SpringMassScene(Scene2D):
    """A World of point masses and springs, with optional contacts and seed-003 walls."""

    y_down = True
    background = (0.0, 0.0, 0.0, 1.0)
    dt = 1.0

    def __init__(self, size=(600.0, 400.0), gravity=(0.0, 0.1), collide: bool = True,
                 walls: Planes | None = None, sink_fix=None, seed: int = 3):
        self.size = (float(size[0]), float(size[1]))
        self.bounds = (0.0, 0.0, self.size[0], self.size[1])
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
        d.add_lines(starts, ends, WHITE)

    def draw_masses(self, d: DrawList) -> None:
        p = self.world.particles
        fixed = p.inv_mass == 0.0
        d.add_circles(p.positions[~fixed], p.radius[~fixed], GREEN, filled=True)
        d.add_circles(p.positions[fixed], p.radius[fixed], GRAY, filled=True)

    def draw_list(self) -> DrawList:
        d = DrawList()
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
    """Seed 003's interactive program: click masses into a box, chain them with fragile springs."""

    name = "sandbox"
    title = "spring-mass sandbox (seed 003)"
    help_lines = [
        "left click: add a mass",
        "right click: add a fixed mass",
        "hold space while clicking: chain each new mass to the previous one with a spring",
        "springs break when pulled past their strength",
        "backspace: clear everything",
    ]
    keys = ("space", "backspace")

    # Seed 003's factory numbers.
    SPRING_CONSTANT, NATURAL_LENGTH, BREAK_THRESHOLD = 0.01, 20.0, 5.0

    def __init__(self, demo: bool = True, seed: int = 3):
        walls = box_planes(600.0, 400.0, y_down=True)
        super().__init__(size=(600.0, 400.0), gravity=(0.0, 0.1), walls=walls, sink_fix=BOX_FLOOR, seed=seed)
        self.space_held = False
        self.previous: int | None = None  # the last mass clicked while space was held
        if demo:
            self._demo()

    def _demo(self) -> None:
        """Something to watch headless: a fragile chain hanging from a fixed mass and a few loose masses."""
        self.key("space")
        self.mouse_press((300.0, 40.0), "right")
        for k in range(1, 6):
            self.mouse_press((300.0 + 25.0 * k, 40.0 + 15.0 * k), "left")
        self.key_up("space")
        for x in (80.0, 140.0, 200.0, 420.0, 480.0, 540.0):
            self.mouse_press((x, 300.0), "left")

    def create_mass(self, pos, fixed: bool) -> int:
        # Seed 003 throws each new mass with a random velocity, mostly upward (y down).
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
    """Seed 003's slinky drop: 14 masses hanging in a chain from a fixed top point; space lets go.

    The seed's numbers: masses 0.1 (radius 10, viscous 0.01), springs k = 0.02 with natural
    length 5, spacing 30, gravity 0.5 px/frame^2. No walls and no contacts.
    """

    name = "slinky"
    title = "slinky drop (seed 003)"
    help_lines = ["space: let go of the top (break the first spring)", "r: hang it up again"]
    keys = ("space", "r")

    COUNT, SPACING, MASS, STIFFNESS, NATURAL_LENGTH, GRAVITY = 14, 30.0, 0.1, 0.02, 5.0, 0.5

    def __init__(self, settled: bool = False, release_frame: int | None = None):
        super().__init__(size=(600.0, 400.0), gravity=(0.0, self.GRAVITY), collide=False, walls=None)
        # The seed hangs the top at y = 0, the window's edge; show a margin above it so the fixed
        # point is seen whole (the coordinates stay the seed's).
        self.bounds = (0.0, -30.0, self.size[0], self.size[1])
        self.settled = settled
        self.release_frame = release_frame
        self._build()

    def _build(self) -> None:
        self.world.particles = Particles.create(np.zeros((0, 2)))
        self.world.springs = Springs.empty()
        self.frame = 0
        top_x = self.size[0] / 2
        if self.settled:
            # Hanging at rest: the spring above mass j carries the weight of masses j..COUNT, so
            # it is stretched by (COUNT - j + 1) m g / k beyond its natural length.
            carried = np.arange(self.COUNT, 0, -1) * self.MASS * self.GRAVITY
            y = np.concatenate([[0.0], np.cumsum(self.NATURAL_LENGTH + carried / self.STIFFNESS)])
        else:
            y = self.SPACING * np.arange(self.COUNT + 1)  # the seed's evenly spaced start
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
        return ["released" if self.released else "hanging (space lets go)", f"centre of mass y: {com[1]:.1f}"]


def make_slinky(settled: bool = False, release_frame: int | None = None) -> Slinky:
    return Slinky(settled=settled, release_frame=release_frame)


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

    def draw_springs(self, d: DrawList) -> None:
        starts, ends = self.spring_segments()
        if len(starts):
            d.add_circles(dots_along(starts, ends, self.dot_spacing), 1.5, WHITE, filled=True)

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
    help_lines = ["left/right: the middle row's driving frequency -/+ 0.05 w0", "r: restart"]
    keys = ("left", "right", "r")

    STIFFNESS, MASS, VISCOUS, FORCE_AMPLITUDE, NATURAL_LENGTH = 0.04, 1.0, 0.01, 0.1, 150.0

    def __init__(self, ratio: float = 1.0):
        super().__init__(gravity=(0.0, 0.0), collide=False, walls=None)
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
        rows = np.array([100.0, 200.0, 300.0])
        self.anchor_x, self.rest_x = 150.0, 150.0 + self.NATURAL_LENGTH
        self.movers = []
        for y in rows:
            a = self.add_mass((self.anchor_x, y), fixed=True)
            b = self.add_mass((self.rest_x, y), mass=self.MASS, viscous=self.VISCOUS)
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

    def draw_list(self) -> DrawList:
        d = super().draw_list()
        x = self.world.particles.positions[self.movers]
        # An arrow-like tick showing the driving force now.
        push = self.FORCE_AMPLITUDE * np.cos(self.ratios() * self.omega0 * self.frame) * 300.0
        d.add_lines(x, x + np.stack([push, np.zeros_like(push)], axis=1), RED)
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
            for k in range(24):
                self.create_mass((60.0 + 22.0 * k, 120.0 + 60.0 * (k % 3)), fixed=False)

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
        self.sun = self.add_mass((300.0, 200.0), fixed=True, radius=15.0)
        self.pair_a = np.zeros(0, dtype=np.int64)
        self.pair_b = np.zeros(0, dtype=np.int64)
        for radius, angle in ((60.0, 0.0), (100.0, 2.0), (140.0, 4.0), (170.0, 1.0)):
            self.add_planet(np.array([300.0, 200.0]) + radius * np.array([math.cos(angle), math.sin(angle)]))
        self.world.extra_forces.append(self._attract)

    def add_planet(self, pos) -> int:
        sun = self.world.particles.positions[self.sun]
        offset = np.asarray(pos, float) - sun
        r = float(np.hypot(*offset))
        if r == 0.0:
            return -1
        speed = math.sqrt(self.STRENGTH / (self.PLANET_MASS * r))
        tangent = np.array([-offset[1], offset[0]]) / r
        k = self.add_mass(pos, speed * tangent, mass=self.PLANET_MASS, viscous=0.0, radius=6.0, restitution=0.9)
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
        d = super().draw_list()
        x = self.world.particles.positions
        d.add_lines(x[self.pair_a], x[self.pair_b], (0.4, 0.4, 0.8, 0.5), dashed=True)
        return d


def make_attractor(seed: int = 4) -> Attractor:
    return Attractor(seed)
