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

Nothing in a substep loops over masses or springs in Python. Spring gaps and the force spread
are two small matrix products with the incidence matrix (S x N, +1 at b, -1 at a), which for
Soda-sized models is much faster than fancy indexing plus np.bincount. The matrix is dense up to
``DENSE_INCIDENCE_MAX_BYTES`` and sparse (CSR, two entries a spring) past it, so a model of
200 000 masses needs a few MiB where its dense matrix would need 298 GiB.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from slime.physics.particles import Particles
from slime.physics.scatter import add_product, pair_incidence
from slime.physics.springs import Springs, hooke_forces, muscle_rest_length

FRAMESKIP = 10
OVERSAMPLING = 10
SUBSTEPS_PER_TICK = FRAMESKIP * OVERSAMPLING
SODA_DT = 1.0 / 60.0  # what Soda Constructor's window passes to Model.tick every frame

# Which wall a mass hit last (Soda Constructor's :unknown, :left, :right).
WALL_UNKNOWN, WALL_LEFT, WALL_RIGHT = 0, -1, 1
WALL_NAMES = {WALL_UNKNOWN: "unknown", WALL_LEFT: "left", WALL_RIGHT: "right"}

# The largest dense incidence matrix a tick builds (bytes); a larger model's is sparse. Dense wins
# on the few-mass models Soda is played with (1.6x at 10 masses); the two break even near 100
# masses and 200 springs (160 KB), and past that the sparse product pulls ahead (9x at 400 masses)
# while its memory grows with the springs alone.
DENSE_INCIDENCE_MAX_BYTES = 256 * 1024


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
    # Ticks undone because they produced non-finite numbers (too stiff for the lagged integrator).
    blowups: int = field(default=0, compare=False)

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


def incidence_matrix(a: np.ndarray, b: np.ndarray, n: int):
    """(S, N) matrix with +1 at (k, b_k) and -1 at (k, a_k): ``incidence @ x`` is every x_b - x_a.

    A spring from a mass to itself gets an all-zero row (no gap, no force), as in Soda Constructor.
    A dense ndarray up to ``DENSE_INCIDENCE_MAX_BYTES``, a scipy CSR matrix past it.
    """
    if a.shape[0] * n * 8 > DENSE_INCIDENCE_MAX_BYTES:
        return pair_incidence(b, a, n).T.tocsr()
    rows = np.arange(a.shape[0])
    incidence = np.zeros((a.shape[0], n))
    incidence[rows, b] += 1.0
    incidence[rows, a] -= 1.0
    return incidence


def count_wave_flips(last_wall: int, sides: np.ndarray) -> tuple[int, int]:
    """Soda Constructor's wall bookkeeping over this substep's hits ``sides`` (in mass order).

    Each hit whose side differs from the wall hit before it flips the wave direction and
    becomes the last wall. Returns (number of flips, new last wall).
    """
    sequence = np.concatenate([[last_wall], sides])
    return int(np.count_nonzero(sequence[1:] != sequence[:-1])), int(sides[-1])


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
        p.positions[...] = saved[0]
        p.velocities[...] = 0.0
        model.acceleration[...] = 0.0
        model.wave_direction, model.last_wall = saved[3], saved[4]
        model.blowups += 1


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
    """The 100 substeps of one tick, in place on the model's arrays."""
    p, springs = model.particles, model.springs
    x, v = p.positions, p.velocities
    n = x.shape[0]
    live = springs.alive
    incidence = incidence_matrix(springs.a[live], springs.b[live], n)
    dense = isinstance(incidence, np.ndarray)
    spread = -incidence.T if dense else pair_incidence(springs.a[live], springs.b[live], n)  # +f on a, -f on b
    s = incidence.shape[0]
    # The wave phase is fixed within a tick, so the muscles' rest lengths are too.
    k = model.stiffness
    rest = model.dynamic_rest_length()[live]
    gravity = model.gravity
    neg_friction = -model.friction
    width = model.width
    ground_factor = np.array([1.0 - model.surface_friction, model.surface_reflection])
    wall_factor = np.array([model.surface_reflection, 1.0 - model.surface_friction])

    # Preallocated work arrays: a substep allocates nothing big.
    acceleration = np.array(model.acceleration)
    force = np.empty_like(x)
    spread_force = np.empty_like(x)
    step = np.empty_like(x)
    gap = np.empty((s, 2))
    length = np.empty(s)
    scale = np.empty(s)
    loc_x, loc_y = x[:, 0], x[:, 1]
    has_springs = s > 0
    if held is not None:
        held_index = np.asarray(held[0], dtype=np.int64).reshape(-1)
        held_location = np.asarray(held[1], dtype=np.float64).reshape(-1, 2)

    for _ in range(SUBSTEPS_PER_TICK):
        # Forces. Soda masses weigh 1, so gravity adds as it is.
        np.multiply(v, neg_friction, out=force)
        force += gravity
        if has_springs:
            # Hooke along each spring, d = x_b - x_a (coincident ends: no force, normalize_or_zero).
            if dense:
                np.matmul(incidence, x, out=gap)
            else:
                gap[...] = 0.0
                add_product(gap, incidence, x)
            hooke_forces(gap, rest, k, out=gap, length=length, scale=scale)
            if dense:
                np.matmul(spread, gap, out=spread_force)
                force += spread_force
            else:
                add_product(force, spread, gap)
        # Soda Constructor's integrator: x with the old v, v with the last substep's force, then store this one.
        np.multiply(v, h, out=step)
        x += step
        np.multiply(acceleration, h, out=step)
        v += step
        acceleration, force = force, acceleration
        if held is not None:  # the hand wins over every force
            x[held_index] = held_location
            v[held_index] = 0.0
            acceleration[held_index] = 0.0

        # Floor. (A min() reduction is the cheapest "anything to do?" test on tiny arrays.)
        if loc_y.min() < 0.0:
            below = loc_y < 0.0
            loc_y[below] = 0.0
            v[below] *= ground_factor
        # Walls, and the wave flips they cause: rare, so tested before any masked work.
        if loc_x.min() < 0.0 or loc_x.max() > width:
            outside = (loc_x < 0.0) | (loc_x > width)
            np.clip(loc_x, 0.0, width, out=loc_x)
            v[outside] *= wall_factor
            if model.auto_reverse:
                sides = np.where(loc_x[outside] <= 0.0, WALL_LEFT, WALL_RIGHT)
                flips, model.last_wall = count_wave_flips(model.last_wall, sides)
                if flips % 2:
                    model.wave_direction = -model.wave_direction

    model.acceleration[...] = acceleration
