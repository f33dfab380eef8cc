"""Test-only harness until World3D: several SlimeBody objects stepped together, their vertices
gathered into one array for the slime-slime contact and the obstacles, then written back."""

from __future__ import annotations

import numpy as np

from slime.physics.slime3d.contact import BodyTable, broad_phase, collide_slimes, damp_contacts
from slime.physics.slime3d.obstacles import ObstacleSet, collide_obstacles
from slime.physics.slime3d.slime_body import SlimeBody


class SlimePile:
    def __init__(self, params_list, velocities=None, obstacles=(), friction=0.5, contact=True):
        self.bodies = [SlimeBody(p) for p in params_list]
        for body, vel in zip(self.bodies, velocities or [None] * len(self.bodies)):
            if vel is not None:
                body.velocities[:] = np.asarray(vel, dtype=np.float64)
        self.table = BodyTable.from_bodies(self.bodies, friction=friction)
        self.obstacles = ObstacleSet(obstacles)
        self.contact = contact
        self.start, self.stop = self.table.start, self.table.stop
        p = int(self.stop[-1])
        self.x = np.zeros((p, 3))
        self.v = np.zeros((p, 3))
        self.contact_seconds = []  # per substep, for the cost measurement
        self._gather()

    def _gather(self):
        for body, a, b in zip(self.bodies, self.start, self.stop):
            self.x[a:b] = body.positions
            self.v[a:b] = body.velocities

    def _scatter(self):
        for body, a, b in zip(self.bodies, self.start, self.stop):
            body.positions[:] = self.x[a:b]
            body.velocities[:] = self.v[a:b]

    def step(self, timer=None):
        prm = self.bodies[0].params
        world = self.bodies[0].world
        h = world.dt / world.substeps
        candidates = broad_phase(self.table, self.x, self.v, prm.dt) if self.contact else None
        for _ in range(world.substeps):
            x_prev = self.x.copy()
            for body in self.bodies:
                body.substep(h)
            self._gather()
            if self.contact:
                centroids = np.array([b.centroid() for b in self.bodies])
                t0 = timer() if timer else 0.0
                collide_slimes(self.table, candidates, self.x, self.v, centroids)
                if timer:
                    self.contact_seconds.append(timer() - t0)
            if len(self.obstacles):
                collide_obstacles(self.x, self.v, x_prev, self.obstacles)
            self._scatter()
        if self.contact:
            centroids = np.array([b.centroid() for b in self.bodies])
            damp_contacts(self.table, candidates, self.x, self.v, centroids, prm.dt)
            self._scatter()

    def momentum(self):
        return self.table.mass @ self.v

    def kinetic_energy(self):
        return 0.5 * float(self.table.mass @ np.einsum("ij,ij->i", self.v, self.v))
