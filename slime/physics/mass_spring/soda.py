"""Soda Constructor's world and its tick, as numpy arrays with D = 2.

A Soda model is point masses (location, velocity, acceleration) joined by springs; springs
with a non-zero ``amplitude`` are muscles whose rest length breathes with one global wave:
``L = L0 * (1 - sin(phase + wave_phase) * amplitude * wave_amplitude)``. The phase offsets
between muscles, against the floor's friction, are what make a model walk.

``tick`` reproduces Soda Constructor's ``Model.tick`` exactly, including its quirks:

- the wave phase advances once per tick by ``wave_speed * wave_direction``, before the substeps;
- each tick is 10 frames x 10 oversampling substeps of ``dt / 10`` (Soda Constructor's window ticks with
  dt = 1/60, so one tick covers 10/60 s of model time);
- every mass has unit mass: gravity is added as a force as it is, friction is ``-friction * v``,
  and one ``stiffness`` (Soda's "springiness") serves every spring;
- the integrator is Soda Constructor's: position with the old velocity, velocity with the *previous*
  substep's force, then the acceleration becomes this substep's force (a one-substep lag);
- collisions: below the floor (y < 0) a mass is put on it and its velocity scaled by
  (1 - surface_friction, surface_reflection); outside the walls (x < 0 or x > width) it is put
  on the wall and its velocity scaled by (surface_reflection, 1 - surface_friction). Each wall
  hit whose side differs from the last wall hit flips the wave direction. Soda Constructor checks the
  masses one after another, so within a substep the hits are taken in mass order: several masses
  on the same wall flip once, and a left hit followed by a right hit flips twice.

A tick's substeps are one compiled kernel (``soda_substeps``): plain loops over the masses and
the springs, in the order above, with slime's one Hooke law (``springs.hooke_scale``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.mass_spring.particles import Particles
from slime.physics.mass_spring.springs import Springs, hooke_scale, muscle_rest_length

FRAMESKIP = 10
OVERSAMPLING = 10
SUBSTEPS_PER_TICK = FRAMESKIP * OVERSAMPLING
SODA_DT = 1.0 / 60.0  # what Soda Constructor's window passes to Model.tick every frame

# Which wall a mass hit last (Soda Constructor's :unknown, :left, :right).
WALL_UNKNOWN, WALL_LEFT, WALL_RIGHT = 0, -1, 1
WALL_NAMES = {WALL_UNKNOWN: "unknown", WALL_LEFT: "left", WALL_RIGHT: "right"}



@dataclass
class SodaModel:
    """A Soda Constructor model: the masses, the springs and the world's constants.

    ``particles.positions`` / ``particles.velocities`` are Soda Constructor's location / velocity (N, 2);
    ``acceleration`` (N, 2) is the force of the previous substep (the integrator's lag state).
    ``springs`` holds a, b, rest_length, amplitude, phase; the tick uses the model's one
    ``stiffness`` (Springs.stiffness is kept equal to it for other readers).
    """

    particles: Particles
    springs: Springs
    acceleration: np.ndarray
    gravity: np.ndarray  # (2,), added to every mass's force (unit masses)
    friction: float  # viscous: force -= friction * v
    stiffness: float  # Hooke constant of every spring
    surface_friction: float  # fraction of tangential velocity lost on touching floor or wall
    surface_reflection: float  # normal velocity factor on contact (negative = bounce back)
    width: float  # walls at x = 0 and x = width, floor at y = 0
    height: float
    wave_amplitude: float
    wave_phase: float
    wave_speed: float
    wave_direction: float  # +1 or -1
    last_wall: int = WALL_UNKNOWN
    # Walls flip the wave (Soda Constructor always does; OpenConstructor's other wave modes do not).
    auto_reverse: bool = True
    name: str = ""
    author: str = ""
    # Ticks undone because they produced non-finite numbers or a runaway (``tick``), and what the
    # first of them measured as the cause (``blowup_cause``).
    blowups: int = field(default=0, compare=False)
    blowup_cause: str = field(default="", compare=False)

    @classmethod
    def create(
        cls,
        locations,
        springs_ab,
        rest_length,
        amplitude=0.0,
        phase=0.0,
        velocities=None,
        accelerations=None,
        *,
        gravity=(0.0, -0.02),
        friction=0.137,
        stiffness=6.25,
        surface_friction=0.7,
        surface_reflection=-0.75,
        width=4.0,
        height=2.0,
        wave_amplitude=0.15,
        wave_phase=0.0,
        wave_speed=0.06,
        wave_direction=1.0,
        last_wall=WALL_UNKNOWN,
        auto_reverse=True,
        name="",
        author="",
    ) -> "SodaModel":
        locations = np.array(locations, dtype=np.float64).reshape(-1, 2)
        particles = Particles.create(locations, velocities)
        springs = Springs.create(springs_ab, rest_length, stiffness=stiffness, amplitude=amplitude, phase=phase)
        if accelerations is None:
            accelerations = np.zeros_like(locations)
        return cls(
            particles=particles,
            springs=springs,
            acceleration=np.array(accelerations, dtype=np.float64).reshape(locations.shape),
            gravity=np.array(gravity, dtype=np.float64).reshape(2),
            friction=float(friction),
            stiffness=float(stiffness),
            surface_friction=float(surface_friction),
            surface_reflection=float(surface_reflection),
            width=float(width),
            height=float(height),
            wave_amplitude=float(wave_amplitude),
            wave_phase=float(wave_phase),
            wave_speed=float(wave_speed),
            wave_direction=float(wave_direction),
            last_wall=int(last_wall),
            auto_reverse=bool(auto_reverse),
            name=name,
            author=author,
        )

    # --- reading -------------------------------------------------------------------------------

    @property
    def locations(self) -> np.ndarray:
        return self.particles.positions

    @property
    def velocities(self) -> np.ndarray:
        return self.particles.velocities

    @property
    def mass_count(self) -> int:
        return self.particles.count

    @property
    def spring_count(self) -> int:
        return self.springs.count

    def centroid(self) -> np.ndarray:
        return self.particles.positions.mean(axis=0)

    def dynamic_rest_length(self) -> np.ndarray:
        """Every spring's rest length now (muscles breathe with the wave)."""
        return muscle_rest_length(self.springs, self.wave_phase, self.wave_amplitude)

    def copy(self) -> "SodaModel":
        p, s = self.particles, self.springs
        return SodaModel(
            particles=Particles(**{k: np.array(getattr(p, k)) for k in p.__dataclass_fields__}),
            springs=Springs(**{k: np.array(getattr(s, k)) for k in s.__dataclass_fields__}),
            acceleration=self.acceleration.copy(),
            gravity=self.gravity.copy(),
            friction=self.friction,
            stiffness=self.stiffness,
            surface_friction=self.surface_friction,
            surface_reflection=self.surface_reflection,
            width=self.width,
            height=self.height,
            wave_amplitude=self.wave_amplitude,
            wave_phase=self.wave_phase,
            wave_speed=self.wave_speed,
            wave_direction=self.wave_direction,
            last_wall=self.last_wall,
            auto_reverse=self.auto_reverse,
            name=self.name,
            author=self.author,
            blowups=self.blowups,
            blowup_cause=self.blowup_cause,
        )

    # --- editing (construct mode) ---------------------------------------------------------------

    def set_stiffness(self, value: float) -> None:
        self.stiffness = float(value)
        self.springs.stiffness[:] = self.stiffness

    def add_mass(self, location) -> int:
        """A new mass at rest at ``location``; returns its index."""
        new = Particles.create(np.asarray(location, dtype=np.float64).reshape(1, 2))
        index = int(self.particles.append(new)[0])
        self.acceleration = np.concatenate([self.acceleration, np.zeros((1, 2))])
        return index

    def has_spring(self, i: int, j: int) -> bool:
        s = self.springs
        return bool(np.any(((s.a == i) & (s.b == j)) | ((s.a == j) & (s.b == i))))

    def add_spring(self, i: int, j: int, rest_length: float | None = None, amplitude=0.0, phase=0.0) -> int | None:
        """A spring from mass i to mass j (rest length = their distance unless given).

        Like Soda Constructor's ``spring_add``, a second spring between the same two masses (either
        way round) is refused; so is a spring from a mass to itself. Returns the new index or None.
        """
        n = self.particles.count
        if i == j or not (0 <= i < n and 0 <= j < n) or self.has_spring(i, j):
            return None
        if rest_length is None:
            rest_length = float(np.linalg.norm(self.particles.positions[j] - self.particles.positions[i]))
        self.springs.append(Springs.create([[i, j]], rest_length, self.stiffness, amplitude, phase))
        return self.springs.count - 1

    def remove_spring(self, k: int) -> None:
        keep = np.ones(self.springs.count, dtype=bool)
        keep[k] = False
        self.springs.keep(keep)

    def remove_mass(self, i: int) -> None:
        """Delete mass i and every spring attached to it; later masses shift down by one."""
        s = self.springs
        self.springs.keep((s.a != i) & (s.b != i))
        keep = np.ones(self.particles.count, dtype=bool)
        keep[i] = False
        self.particles.remove(keep)
        self.acceleration = self.acceleration[keep]
        # Renumber the springs' ends past the hole.
        self.springs.a = self.springs.a - (self.springs.a > i)
        self.springs.b = self.springs.b - (self.springs.b > i)

    # --- time ----------------------------------------------------------------------------------

    def tick(self, dt: float = SODA_DT, held=None) -> None:
        tick(self, dt, held)


@kernel
def next_wall(last_wall, side):
    """Soda Constructor's wall bookkeeping for one hit on ``side``: (1 if it flips the wave, else 0;
    the new last wall). A hit on another side than the last wall's flips it."""
    if side != last_wall:
        return 1, side
    return 0, last_wall


def count_wave_flips(last_wall: int, sides: np.ndarray) -> tuple[int, int]:
    """``next_wall`` over a substep's hits ``sides`` (in mass order): (number of flips, new last wall)."""
    flips = 0
    for side in sides:
        flip, last_wall = next_wall(last_wall, int(side))
        flips += flip
    return flips, int(last_wall)


def tick(model: SodaModel, dt: float = SODA_DT, held=None) -> None:
    """One Model.tick: advance the wave, then 10 x 10 substeps of dt / 10 (see module docstring).

    ``held`` = (mass indices, (K, 2) locations) pins those masses there at rest for the whole
    tick (a mass dragged by the mouse); None for Soda Constructor's free run.

    If the tick blows up (non-finite numbers, or a mass crossing the world in one substep: a
    stiffness far past what the lagged explicit integrator can take), the model goes back to
    where the tick began with its masses at rest, and ``model.blowups`` counts it, so no NaN and
    no runaway number ever leaves.
    """
    model.wave_phase += model.wave_speed * model.wave_direction
    p = model.particles
    n = p.count
    if n == 0:
        return
    saved = (p.positions.copy(), p.velocities.copy(), model.acceleration.copy(), model.wave_direction, model.last_wall)
    with np.errstate(all="ignore"):
        _substeps(model, dt / OVERSAMPLING, held)
    if _blew_up(model, dt / OVERSAMPLING):
        p.positions[...], p.velocities[...], model.acceleration[...] = saved[:3]
        model.wave_direction, model.last_wall = saved[3], saved[4]
        if not model.blowups:
            model.blowup_cause = blowup_cause(model, dt, held)  # from where the tick began
        p.velocities[...] = 0.0
        model.acceleration[...] = 0.0
        model.blowups += 1


@dataclass(frozen=True)
class Suspect:
    """A setting a blow-up may come from: ``tame`` sets it to a value that runs (Soda Constructor's
    defaults, the walker's), and ``advice`` says, with the model's own value, what to change."""

    name: str
    tame: Callable[["SodaModel"], object]
    advice: Callable[["SodaModel"], str]


SUSPECTS = (
    Suspect("stiffness", lambda m: m.set_stiffness(6.25),
            lambda m: f"stiffness {m.stiffness:g} is too stiff for Soda Constructor's integrator "
                      "(lower it, e.g. the walker's 6.25)"),
    Suspect("the wave amplitude", lambda m: setattr(m, "wave_amplitude", 0.15),
            lambda m: f"the wave amplitude {m.wave_amplitude:g} tears the muscles apart (the walker's is 0.15)"),
    Suspect("the muscles' amplitudes", lambda m: m.springs.amplitude.clip(-1.0, 1.0, out=m.springs.amplitude),
            lambda m: f"a muscle amplitude of {float(abs(m.springs.amplitude).max()):g} tears it apart "
                      "(within -1 to 1 a muscle keeps a length)"),
    Suspect("gravity", lambda m: m.gravity.clip(-1.0, 1.0, out=m.gravity),
            lambda m: f"gravity {float(abs(m.gravity).max()):g} throws the masses through the world (Soda's is 0.02)"),
    Suspect("a launch speed", lambda m: (m.particles.velocities.fill(0.0), m.acceleration.fill(0.0)),
            lambda m: "a mass's starting speed throws it through the world in one substep (start it slower)"),
)
UNKNOWN_CAUSE = "the springs ran away (lower the stiffness, the wave amplitude or gravity)"


def blowup_cause(model: SodaModel, dt: float = SODA_DT, held=None) -> str:
    """What made a tick from ``model``'s state blow up, measured: the tick tried again from that
    state with one suspect at a tame value (``SUSPECTS``), and the first whose taming lets it pass
    named; "" when none alone does."""
    for suspect in SUSPECTS:
        trial = model.copy()
        suspect.tame(trial)
        with np.errstate(all="ignore"):
            _substeps(trial, dt / OVERSAMPLING, held)
        if not _blew_up(trial, dt / OVERSAMPLING):
            return suspect.name
    return ""


def blowup_advice(model: SodaModel) -> str:
    """The measured cause of ``model``'s last blow-up in a user's words, with its value and a value
    that runs."""
    for suspect in SUSPECTS:
        if suspect.name == model.blowup_cause:
            return suspect.advice(model)
    return UNKNOWN_CAUSE


def _blew_up(model: SodaModel, h: float) -> bool:
    """Non-finite numbers, or a mass fast enough to cross the whole world in one substep.

    The second is the explicit integrator diverging while the numbers are still finite (a
    stiffness of 1e9 reached 1e222 without an inf): no motion of a Soda model comes near it (a
    walker moves a few units per second, a stable spring's swing at most ~2 / h), and the wall
    and floor tests, done once per substep, assume it never happens."""
    p = model.particles
    if not (np.isfinite(p.positions).all() and np.isfinite(p.velocities).all() and np.isfinite(model.acceleration).all()):
        return True
    world = max(model.width, model.height, 1.0)
    return bool(p.velocities.size and np.abs(p.velocities).max() * h > world)


def _substeps(model: SodaModel, h: float, held=None) -> None:
    """The 100 substeps of one tick, in place on the model's arrays (``soda_substeps``)."""
    p, springs = model.particles, model.springs
    live = springs.alive
    # The wave phase is fixed within a tick, so the muscles' rest lengths are too.
    rest = model.dynamic_rest_length()[live]
    if held is not None:
        held_index = np.asarray(held[0], dtype=np.int64).reshape(-1)
        held_location = np.asarray(held[1], dtype=np.float64).reshape(-1, 2)
    else:
        held_index, held_location = np.zeros(0, dtype=np.int64), np.zeros((0, 2))
    model.last_wall, model.wave_direction = soda_substeps(
        p.positions, p.velocities, model.acceleration, springs.a[live], springs.b[live], rest, float(model.stiffness),
        np.asarray(model.gravity, dtype=np.float64), float(model.friction), h, float(model.width),
        1.0 - model.surface_friction, float(model.surface_reflection), held_index, held_location,
        bool(model.auto_reverse), int(model.last_wall), float(model.wave_direction))


@kernel
def soda_substeps(x, v, acceleration, a, b, rest_length, stiffness, gravity, friction, h, width, grip, reflection,
                  held_index, held_location, auto_reverse, last_wall, wave_direction):
    """Soda Constructor's ``SUBSTEPS_PER_TICK`` substeps of length h (the module docstring), on
    unit masses: each substep the force is g - friction v plus every spring's Hooke pull
    (``springs.hooke_scale``: +f on a, -f on b); the position moves with the old velocity, the
    velocity with the last substep's force, which this one's replaces; held masses stay put; then
    the floor (y < 0: put on it, velocity times (grip, reflection)) and the walls (x outside
    [0, width]: put on the wall, velocity times (reflection, grip)), the wall hits taken in mass
    order, each one on another side than the last flipping the wave. Returns (last wall, wave
    direction)."""
    n = x.shape[0]
    force = np.empty_like(x)
    for _ in range(SUBSTEPS_PER_TICK):
        for i in range(n):
            force[i, 0] = v[i, 0] * -friction + gravity[0]
            force[i, 1] = v[i, 1] * -friction + gravity[1]
        for s in range(a.shape[0]):
            dx = x[b[s], 0] - x[a[s], 0]
            dy = x[b[s], 1] - x[a[s], 1]
            scale = hooke_scale(math.sqrt(dx * dx + dy * dy), rest_length[s], stiffness)
            force[a[s], 0] += dx * scale
            force[a[s], 1] += dy * scale
            force[b[s], 0] -= dx * scale
            force[b[s], 1] -= dy * scale
        for i in range(n):
            for d in range(2):
                x[i, d] += v[i, d] * h
                v[i, d] += acceleration[i, d] * h
                acceleration[i, d] = force[i, d]
        for m in range(held_index.shape[0]):  # the hand wins over every force
            i = held_index[m]
            for d in range(2):
                x[i, d] = held_location[m, d]
                v[i, d] = 0.0
                acceleration[i, d] = 0.0
        flips = 0
        for i in range(n):
            if x[i, 1] < 0.0:
                x[i, 1] = 0.0
                v[i, 0] *= grip
                v[i, 1] *= reflection
            if x[i, 0] < 0.0 or x[i, 0] > width:
                x[i, 0] = min(max(x[i, 0], 0.0), width)
                v[i, 0] *= reflection
                v[i, 1] *= grip
                if auto_reverse:
                    flip, last_wall = next_wall(last_wall, WALL_LEFT if x[i, 0] <= 0.0 else WALL_RIGHT)
                    flips += flip
        if flips % 2:
            wave_direction = -wave_direction
    return last_wall, wave_direction
