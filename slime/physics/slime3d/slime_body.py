"""The 3D slime (the PhysicalSlime C++ program, done physically): a UV sphere of point masses held
together by its internal forces, each substep, each one function in its own module of
``slime3d/`` (compiled; ``NUMBA_DISABLE_JIT=1`` runs the same source as plain Python):

1. volume preservation (``pressure.py``): a pressure proportional to the relative volume error
   pushes every vertex along its area-weighted normal, which is exactly the volume gradient
   (``surface.py``), so the force is the gradient of an energy and sums to zero. The volume is the
   mesh's own, and the ideal volume is the *rest mesh's* volume, not 4/3 pi r^3 (the PhysicalSlime
   program's permanent pressure bias);
2. surface tension (``tension.py``): minus the gradient of the surface area;
3. shape restoring (``shape_matching.py``): each vertex is pulled toward the rest sphere placed at
   the current centre of mass and turned by the best-fit rotation, so the body can roll and tumble;
4. viscosity (``viscosity.py``, ``shear.py``): damps velocity relative to the body's own rigid
   motion (centre velocity plus angular velocity), so wobbles die out while falling and rolling
   stay free, and velocity differences between neighbours, so creases never open; plus a small air
   drag (``drag.py``) and gravity (``gravity.py``).

Then the floor (``planes.py``) and symplectic Euler (``integrate.py``), both shared with the 2D
engine.

Where each part lives: ``slime_shape.py`` (the constants a body's parameters fix: mesh, masses,
rest shape, ideal volume, pressure and tension scales), ``slime3d/step.py`` (the forces in order,
for every body), ``hand.py`` (poke, grab, drag, throw, press, spike), ``world3d.py`` (bodies,
obstacles, contacts, stepping and recovery). A ``SlimeBody`` is the world with one body, with the
measurements a single slime is asked for.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from slime.limits import SPIKE
from slime.mesh import mesh_volume
from slime.physics.slime3d.hand import wendland
from slime.physics.mass_spring.particles import Particles
from slime.physics.slime3d.moments import body_moments, centre_of_mass
from slime.physics.slime3d.shape_matching import best_rotation
from slime.physics.slime3d.surface import surface_gradients
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.slime_shape import SlimeShape
from slime.physics.slime3d.world3d import MAX_SPREAD, World3D

__all__ = ["SlimeBody", "SlimeParams", "wendland", "MAX_SPIKE", "MAX_SPREAD"]

MAX_SPIKE = SPIKE[1]  # spike(amount): the largest scatter, in radii (slime.limits.SPIKE)


class SlimeBody:
    """A soft slime sphere: the world of one body (``world3d.World3D``), with its settings taken
    from the slime's own parameters. See the module docstring for the physics."""

    def __init__(self, params: SlimeParams | None = None):
        self._build(params if params is not None else SlimeParams())

    def _build(self, params: SlimeParams) -> None:
        world = World3D.for_slime(params)
        world.add_slime(params)  # a mesh too fine for these stiffnesses is refused here, before the swap
        self.world = world
        self._bind()
        self.reset()

    def _bind(self) -> None:
        """Name the one body's arrays and constants (after any change to the world's layout)."""
        world = self.world
        body = world.bodies[0]
        shape = body.shape
        self.params = body.params
        self.shape = shape
        for name in ("grid", "triangles", "strip", "mass", "rest_offsets", "ideal_volume", "rest_area",
                     "pressure_scale", "tension", "rest_pressure", "inertia_floor"):
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

    def reset(self) -> None:
        """Back to the rest sphere at the initial centre, at rest, time 0, nothing grabbed."""
        self.world.reset_body(0)
        self.world.time = 0.0
        self.world.recoveries = 0

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
        # Built aside and swapped in whole: a change the new world refuses (too stiff for the
        # mesh) leaves the slime as it was.
        old = self.world
        states = old.body_states()
        world = World3D.for_slime(new)
        params = world.settle_params(new)
        states[0] = replace(states[0], params=params, shape=SlimeShape(params))
        world.lay_out(states)
        world.time, world.recoveries = old.time, old.recoveries
        self.world = world
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
        return float(self.world.volumes()[0])

    @property
    def grabbed(self) -> int | None:
        return self.world.hand.index

    @property
    def pressing(self) -> bool:
        return self.world.hand.pressing

    # ------------------------------------------------------------------ measurements
    def centroid(self) -> np.ndarray:
        """The centre of mass."""
        return centre_of_mass(self.world.x, self.world.mass, 0, self.shape.count)

    def momentum(self) -> np.ndarray:
        return self.world.momentum()

    def kinetic_energy(self) -> float:
        return self.world.kinetic_energy()

    def _moments(self):
        world = self.world
        return body_moments(world.x, world.v, world.mass, world.model.rest, 0, self.shape.count)[3:]

    def angular_momentum(self) -> np.ndarray:
        """About the centre of mass."""
        return self._moments()[2]

    def surface_gradients(self) -> tuple[np.ndarray, np.ndarray]:
        """(P, 3) each: the gradients dV/dx of the enclosed volume and dA/dx of the surface area at
        every vertex, as the pressure and the tension read them (``slime3d.surface``)."""
        grad_volume, grad_area = np.zeros((2, 3, self.shape.count))
        surface_gradients(self.world.x, 0, self.shape.stacks, self.shape.slices, grad_volume, grad_area)
        return grad_volume.T, grad_area.T

    def volume(self) -> float:
        """The enclosed volume, as the pressure measures it (``slime3d.surface``)."""
        return float(self.world.enclosed_volumes()[0])

    def mesh_volume(self) -> float:
        """Exact enclosed volume by the divergence theorem over ``triangles`` (independent check)."""
        return mesh_volume(self.positions, self.triangles)

    def vertex_normals(self) -> np.ndarray:
        """(P, 3) unit area-weighted normals of the current surface (the pressure's directions)."""
        out, _ = self.surface_gradients()
        length = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(length > 0.0, length, 1.0)

    def orientation(self) -> np.ndarray:
        """(3, 3) best-fit rotation of the current shape against the rest shape (shape matching)."""
        return best_rotation(self._moments()[0], self.world.rotation[0])

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
        acc = self._accelerations(self.substep_length, internal_only=True)
        return self.mass[:, None] * acc.T

    # ------------------------------------------------------------------ stepping
    @property
    def substep_length(self) -> float:
        """h (s): the frame over its substeps, as many as the world takes (``stability.py``)."""
        return self.world.dt / self.world.substeps

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
