"""The 3D slime (the PhysicalSlime C++ program, done physically): a UV sphere of point masses held
together by three internal forces, each substep (``slime_forces.py`` writes each one plainly as
its own function; this module computes the same numbers faster, and a test holds them equal;
``SlimeParams(plain_forces=True)`` makes the body run on those functions, edits included):

1. volume preservation: a pressure proportional to the relative volume error pushes every vertex
   along its area-weighted normal, which is exactly the volume gradient, so the force is the
   gradient of an energy and sums to zero. The volume is the mesh's own, integrated band by band on
   the ring grid (``volume.py``), and the ideal volume is the *rest mesh's* volume, not 4/3 pi r^3
   (the PhysicalSlime program's permanent pressure bias);
2. shape restoring: each vertex is pulled toward the rest sphere placed at the current centroid and
   turned by the best-fit rotation (shape matching), so the body can roll and tumble;
3. viscosity: damps velocity relative to the body's own rigid motion (centroid velocity plus
   angular velocity), so wobbles die out while falling and rolling stay free; plus a small air drag
   on absolute velocity.

Then gravity, the floor (engine ``Planes``/``collide_planes`` with Coulomb friction), and the
engine's symplectic Euler.

Where each part lives: ``slime_shape.py`` (the constants a body's parameters fix: mesh, masses,
rest shape, ideal volume, pressure and tension scales), ``slime_batch.py`` (these forces, fast, for
every body of one resolution at once), ``hand.py`` (poke, grab, drag, throw, press, spike),
``world3d.py`` (bodies, obstacles, contacts, stepping and recovery). A ``SlimeBody`` is the world
with one body, with the measurements a single slime is asked for.
"""

from __future__ import annotations

import numpy as np

from slime.limits import SPIKE
from slime.physics.hand import wendland
from slime.physics.particles import Particles
from slime.physics.shape_matching import best_rotation
from slime.physics.slime_params import SlimeParams
from slime.physics.sphere import vertex_count
from slime.physics.volume import GridVolume, fill_grid, mesh_volume
from slime.physics.slime_shape import SlimeShape
from slime.physics.world3d import MAX_SPREAD, World3D, collide_floor

__all__ = ["SlimeBody", "SlimeParams", "wendland", "collide_floor", "MAX_SPIKE", "MAX_SPREAD"]

MAX_SPIKE = SPIKE[1]  # spike(amount): the largest scatter, in radii (slime.limits.SPIKE)


class SlimeBody:
    """A soft slime sphere: the world of one body (``world3d.World3D``), with its settings taken
    from the slime's own parameters. See the module docstring for the physics."""

    def __init__(self, params: SlimeParams | None = None):
        self._build(params if params is not None else SlimeParams())

    def _build(self, params: SlimeParams) -> None:
        self.world = World3D.for_slime(params)
        self.world.add_slime(params)
        self._bind()
        self.reset()

    def _bind(self) -> None:
        """Name the one body's arrays and constants (after any change to the world's layout)."""
        world = self.world
        body = world.bodies[0]
        shape = body.shape
        self.params = body.params
        self.shape = shape
        for name in ("grid", "triangles", "strip", "grid_edges", "mass", "rest_offsets", "ideal_volume", "rest_area",
                     "pressure_scale", "rest_spread", "tension", "rest_pressure", "edge_weights", "inertia_floor"):
            setattr(self, name, getattr(shape, name))
        self.planes = world.floor
        self.particles = Particles(
            positions=world.x.T,
            velocities=world.v.T,
            inv_mass=1.0 / shape.mass,
            damping=np.zeros(shape.count),
            velocity_scale=np.ones(shape.count),
            radius=np.zeros(shape.count),
            restitution=np.zeros(shape.count),
        )
        s, n = shape.stacks, shape.slices
        self._volume64 = GridVolume(s, n, np.float64)
        self._x5_64 = np.zeros((5, s + 1, n + 1))

    def reset(self) -> None:
        """Back to the rest sphere at the initial centre, at rest, time 0, nothing grabbed."""
        self.world.reset_body(0)
        self.world.time = 0.0
        self.world.recoveries = 0
        self.world.batches[0].last_volume[:] = self.ideal_volume

    def set_params(self, **changes) -> None:
        """Live parameter change. Stiffnesses, damping, gravity, floor, mass, radius, dt and substeps
        apply at once and keep the current state (a new radius makes the body grow or shrink toward
        it); a new stacks/slices rebuilds the mesh and resets."""
        new = self.params.with_(**changes)
        if (new.stacks, new.slices) != (self.params.stacks, self.params.slices):
            self._build(new)
            return
        # A new world (its settings are the slime's: gravity, floor, dt may have changed) laid out
        # from the old one's body state, which carries everything a body has (pose, velocities,
        # tracking, its last good pose, a squash lid) through the world's own re-layout.
        old = self.world
        states = old._states()
        self.world = World3D.for_slime(new)
        params = self.world.settle_params(new)
        states[0].update(params=params, shape=SlimeShape(params))
        self.world._assemble(states)
        self.world.time, self.world.recoveries = old.time, old.recoveries
        self._bind()

    # ------------------------------------------------------------------ views
    @property
    def positions(self) -> np.ndarray:
        """(P, 3) float64 view of the vertex positions (the particles' array)."""
        return self.particles.positions

    @property
    def velocities(self) -> np.ndarray:
        return self.particles.velocities

    @property
    def time(self) -> float:
        return self.world.time

    @property
    def recoveries(self) -> int:
        return self.world.recoveries

    @property
    def last_volume(self) -> float:
        return float(self.world.batches[0].last_volume[0])

    @property
    def grabbed(self) -> int | None:
        return self.world.hand.index

    @property
    def pressing(self) -> bool:
        return self.world.hand.pressing

    # ------------------------------------------------------------------ measurements
    def centroid(self) -> np.ndarray:
        return self.mass @ self.positions / self.params.mass

    def momentum(self) -> np.ndarray:
        return self.world.momentum()

    def kinetic_energy(self) -> float:
        return self.world.kinetic_energy()

    def angular_momentum(self) -> np.ndarray:
        """About the centroid."""
        r = self.positions - self.centroid()
        return (self.mass[:, None] * np.cross(r, self.velocities)).sum(axis=0)

    def _grid64(self) -> np.ndarray:
        fill_grid(self._x5_64, self.positions, origin=self.centroid())
        return self._x5_64

    def volume(self) -> float:
        """The engine's band-integrated volume (float64): the sum of ``band_volumes``."""
        return float(self.band_volumes().sum())

    def band_volumes(self) -> np.ndarray:
        """(stacks,) signed volume of each latitude band, cones from the centroid."""
        x5 = self._grid64()
        self._volume64.compute(x5)
        return self._volume64.band_volumes(x5)

    def mesh_volume(self) -> float:
        """Exact enclosed volume by the divergence theorem over ``triangles`` (independent check)."""
        return mesh_volume(self.positions, self.triangles)

    def vertex_normals(self) -> np.ndarray:
        """(P, 3) unit area-weighted normals of the current surface (the pressure's directions)."""
        g = self._volume64.compute(self._grid64())
        s, n = self.params.stacks, self.params.slices
        out = np.empty((vertex_count(s, n), 3))
        out[1:-1] = g[:, 1:s, :n].reshape(3, -1).T
        out[0] = g[:, 0, :n].sum(axis=1)
        out[-1] = g[:, s, :n].sum(axis=1)
        length = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(length > 0.0, length, 1.0)

    def orientation(self) -> np.ndarray:
        """(3, 3) best-fit rotation of the current shape against the rest shape (shape matching)."""
        r = self.positions - self.centroid()
        covariance = (self.mass[:, None] * r).T @ self.rest_offsets
        return best_rotation(covariance, self.world.batches[0].rotation[0])

    def shape_error(self) -> float:
        """Largest distance of a vertex from the best-fit placed rest shape, in radii."""
        goal = self.centroid() + self.rest_offsets @ self.orientation().T
        return float(np.max(np.linalg.norm(self.positions - goal, axis=1))) / self.params.radius

    def _accelerations(self, h: float, internal_only: bool = False) -> np.ndarray:
        """The (3, P) acceleration of every vertex for a substep of length h (the world's)."""
        return self.world.accelerations(h, internal_only)

    def internal_forces(self) -> np.ndarray:
        """(P, 3) forces of the internal terms alone (volume, tension, shape, viscosity) at the
        current state: no gravity, drag, grab or floor. They sum to zero (momentum is conserved)."""
        acc = self._accelerations(self.params.substep_dt, internal_only=True)
        return self.mass[:, None] * acc.T

    # ------------------------------------------------------------------ stepping
    def substep(self, h: float) -> None:
        self.world.substep(h)

    def step(self) -> None:
        """One frame: ``substeps`` substeps of ``dt / substeps``; a broken result is recovered."""
        self.world.step()

    # ------------------------------------------------------------------ interaction
    def poke(self, point, force, radius: float | None = None) -> int:
        """``hand.poke`` on this slime: push the surface near ``point`` with ``force`` (N) for one
        frame, spread over ``poke_spread`` radii. Returns the nearest vertex."""
        return self.world.poke(0, point, force, radius)

    def grab(self, index_or_point, reach: float | None = None) -> int:
        """``Hand.grab``: a vertex (an index, or the one nearest to a point) and its neighbourhood
        follow ``drag_to`` until ``release``. Returns the vertex."""
        return self.world.grab(0, index_or_point, reach)

    def drag_to(self, target) -> None:
        self.world.drag_to(target)

    def release(self, velocity=None) -> None:
        """Let go (of a grab or a press); with ``velocity`` (the mouse's) the slime is thrown."""
        self.world.release(velocity)

    def press(self, point, direction) -> int:
        """``Hand.press``: a finger pushed in at ``point`` along ``direction`` (the view ray)."""
        return self.world.press(0, point, direction)

    def unpress(self) -> None:
        """Take the finger away (nothing happens when none is pressing)."""
        self.world.unpress()

    def spike(self, amount: float = 0.5, seed=None) -> None:
        """The PhysicalSlime program's scatter (``hand.spike``)."""
        self.world.spike(0, amount, seed)

    def squash(self, factor: float = 0.25) -> None:
        """Flattened to ``factor`` of its height under a rising lid (``World3D.squash``; the Q key)."""
        self.world.squash(factor)
