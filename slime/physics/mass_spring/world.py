"""The mass-spring engine of the 2D scenes: particles, springs, planes, gravity and extra force
functions, stepped with symplectic Euler in any dimension (the scenes are 2D; the tests run it in 3D
too). The 3D slime is not stepped here: it has its own compiled step (slime3d/step.py), which
shares only the particles' arrays and the integrator with this one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from slime.physics.mass_spring.forces import set_gravity_and_damping
from slime.physics.integrate import symplectic_euler
from slime.physics.mass_spring.particles import Particles
from slime.physics.planes import Planes, collide_planes
from slime.physics.mass_spring.springs import Springs, add_spring_forces, break_overloaded

# An extra force: called as fn(world, forces) and adds into forces (N, D).
ForceFn = Callable[["MassSpringWorld", np.ndarray], None]


@dataclass
class MassSpringWorld:
    particles: Particles
    springs: Springs = field(default_factory=Springs.empty)
    planes: Planes | None = None
    gravity: np.ndarray | None = None
    dt: float = 1.0 / 60.0
    substeps: int = 1
    extra_forces: list[ForceFn] = field(default_factory=list)
    # Position fixes run after each substep's integration and planes, as fn(world)
    # (the Computer Seminar chapter's floor-sink fix puts particles back on the floor here, every substep).
    after_integrate: list[Callable[["MassSpringWorld"], None]] = field(default_factory=list)
    # Rest lengths used this substep (muscles change them); None means springs.rest_length.
    spring_rest_length: np.ndarray | None = None
    time: float = 0.0

    def __post_init__(self):
        d = self.particles.dim
        if self.gravity is None:
            self.gravity = np.zeros(d)
        self.gravity = np.asarray(self.gravity, dtype=np.float64)
        if self.planes is None:
            self.planes = Planes.empty(d)

    def compute_forces(self, out: np.ndarray | None = None) -> np.ndarray:
        """The total force on every particle (N, D); written into ``out`` when given (same shape)."""
        p = self.particles
        forces = np.empty_like(p.positions) if out is None else out
        set_gravity_and_damping(forces, p.inv_mass, self.gravity, p.velocities, p.damping)
        per_spring = add_spring_forces(forces, p.positions, self.springs, self.spring_rest_length)
        break_overloaded(self.springs, per_spring)
        for fn in self.extra_forces:
            fn(self, forces)
        return forces

    def substep(self, h: float) -> None:
        p = self.particles
        # One force array reused step after step (reallocated when particles come or go).
        forces = self.__dict__.get("_forces")
        if forces is None or forces.shape != p.positions.shape:
            forces = np.empty_like(p.positions)
            self.__dict__["_forces"] = forces
        self.compute_forces(out=forces)
        symplectic_euler(p.positions, p.velocities, forces, p.inv_mass, h, p.velocity_scale)
        if self.planes.count:
            collide_planes(p.positions, p.velocities, p.inv_mass, self.planes, p.radius)
        for fn in self.after_integrate:
            fn(self)
        self.time += h

    def step(self) -> None:
        h = self.dt / self.substeps
        for _ in range(self.substeps):
            self.substep(h)
