"""A pure-Python, object-per-particle mass-spring engine: the baseline the numpy engine is timed against.

It is built the way the Computer Seminar chapter's ``spring_mass.py`` is built (one object per point mass, per
spring, per wall and one collision resolver; every actor generates forces, then every point mass
integrates itself), and computes the same physics as the shared engine with
:mod:`slime.physics.mass_spring.collide2d`, so the two can be compared step for step:

* gravity ``m g`` and viscous damping ``-d v`` on every point mass;
* Hooke springs ``k (|d| - L) d / |d|`` (no force at zero length);
* point-point impacts as a force: for touching discs that approach,
  ``f1 = n (e + 1) (v2 - v1) / (1/m1 + 1/m2) / dt``, ``e = e1 e2``;
* walls as the limit of an infinitely heavy partner: ``f = n (-(e + 1) v_n) m / dt`` when the
  disc is past the wall and still moves into it, with the normal pointing into the wall (the
  Computer Seminar chapter's convention), and the floor's sink fix after moving;
* symplectic Euler: ``v += F / m dt`` then ``x += v dt``.

One deliberate difference from the Computer Seminar chapter: forces are all gathered before any point mass
moves (the Computer Seminar chapter updates actors one after another in list order, which mixes old and new
positions), so the result equals the vectorised engine's. The collision resolver tests every
pair, as the Computer Seminar chapter does (``pair_search="all"``, O(N^2)), or only pairs in neighbouring cells of a
uniform grid (``pair_search="cells"``, O(N)), the fair pure-Python baseline. Plain floats instead
of a vector class keep it as fast as pure Python allows.
"""

from __future__ import annotations

import math


class World:
    def __init__(self, size, dt, gravity_acc):
        self.size = size
        self.dt = dt
        self.gravity_x, self.gravity_y = gravity_acc
        self.actors = []

    def add(self, *actors):
        self.actors.extend(actors)

    def step(self):
        for actor in self.actors:
            actor.generate_force()
        for actor in self.actors:
            actor.move()


class PointMass:
    __slots__ = ("world", "x", "y", "vx", "vy", "radius", "mass", "viscous_damping", "restitution", "fx", "fy", "floor_y")

    def __init__(self, pos, vel, world, radius=10.0, mass=10.0, viscous_damping=0.01, restitution=0.95):
        self.world = world
        self.x, self.y = float(pos[0]), float(pos[1])
        self.vx, self.vy = float(vel[0]), float(vel[1])
        self.radius = radius
        self.mass = mass
        self.viscous_damping = viscous_damping
        self.restitution = restitution
        self.fx = 0.0
        self.fy = 0.0
        self.floor_y = None  # set by a floor this step: the Computer Seminar chapter's "floor_hit" message

    def receive_force(self, fx, fy):
        self.fx += fx
        self.fy += fy

    def generate_force(self):
        w = self.world
        self.fx += self.mass * w.gravity_x - self.viscous_damping * self.vx
        self.fy += self.mass * w.gravity_y - self.viscous_damping * self.vy

    def move(self):
        dt = self.world.dt
        inv_mass = 1.0 / self.mass
        self.vx += self.fx * (inv_mass * dt)
        self.vy += self.fy * (inv_mass * dt)
        self.x += self.vx * dt
        self.y += self.vy * dt
        # Floor-sink fix: gravity in the same step can carry a bounced mass on into the floor.
        if self.floor_y is not None and self.vy > 0.0:
            self.y = self.floor_y - self.radius
        self.fx = self.fy = 0.0
        self.floor_y = None


class Spring:
    __slots__ = ("p1", "p2", "spring_const", "natural_len")

    def __init__(self, p1, p2, spring_const=0.01, natural_len=0.0):
        self.p1 = p1
        self.p2 = p2
        self.spring_const = spring_const
        self.natural_len = natural_len

    def generate_force(self):
        p1, p2 = self.p1, self.p2
        dx = p2.x - p1.x
        dy = p2.y - p1.y
        distance = math.sqrt(dx * dx + dy * dy)
        if distance == 0.0:
            return
        scale = self.spring_const * (distance - self.natural_len) / distance
        p1.fx += dx * scale
        p1.fy += dy * scale
        p2.fx -= dx * scale
        p2.fy -= dy * scale

    def move(self):
        pass


def impact_force_between_points(p1, p2, dt):
    """Force on p1 (p2 gets the opposite) for touching, approaching discs; None otherwise."""
    dx = p2.x - p1.x
    dy = p2.y - p1.y
    distance = math.sqrt(dx * dx + dy * dy)
    if distance > p1.radius + p2.radius or distance == 0.0:
        return None
    nx, ny = dx / distance, dy / distance
    v1 = p1.vx * nx + p1.vy * ny
    v2 = p2.vx * nx + p2.vy * ny
    if v1 < v2:
        return None
    e = p1.restitution * p2.restitution
    magnitude = (e + 1.0) * (v2 - v1) / (1.0 / p1.mass + 1.0 / p2.mass) / dt
    return nx * magnitude, ny * magnitude


class CollisionResolver:
    """Impacts between every touching pair of point masses.

    ``pair_search``: "all" tests every pair (the Computer Seminar chapter's double loop); "cells" hashes the masses
    into square cells one contact diameter wide and tests only neighbouring cells.
    """

    def __init__(self, world, point_masses, pair_search="cells"):
        if pair_search not in ("all", "cells"):
            raise ValueError(f"pair_search must be 'all' or 'cells', not {pair_search!r}")
        self.world = world
        self.point_masses = point_masses
        self.pair_search = pair_search

    def generate_force(self):
        masses = self.point_masses
        if not masses:
            return
        if self.pair_search == "all":
            dt = self.world.dt
            resolve = self._resolve
            for i in range(len(masses)):
                p1 = masses[i]
                for j in range(i + 1, len(masses)):
                    resolve(p1, masses[j], dt)
            return
        cell = 2.0 * max(p.radius for p in masses)
        cells = {}
        for p in masses:
            key = (math.floor(p.x / cell), math.floor(p.y / cell))
            bucket = cells.get(key)
            if bucket is None:
                cells[key] = [p]
            else:
                bucket.append(p)
        dt = self.world.dt
        # Each pair once: within a cell, and towards four of the eight neighbour cells.
        for (cx, cy), bucket in cells.items():
            for a in range(len(bucket)):
                p1 = bucket[a]
                for b in range(a + 1, len(bucket)):
                    self._resolve(p1, bucket[b], dt)
            for ox, oy in ((1, 0), (-1, 1), (0, 1), (1, 1)):
                other = cells.get((cx + ox, cy + oy))
                if other is None:
                    continue
                for p1 in bucket:
                    for p2 in other:
                        self._resolve(p1, p2, dt)

    @staticmethod
    def _resolve(p1, p2, dt):
        f = impact_force_between_points(p1, p2, dt)
        if f is None:
            return
        p1.fx += f[0]
        p1.fy += f[1]
        p2.fx -= f[0]
        p2.fy -= f[1]

    def move(self):
        pass


class Boundary:
    """A straight wall; ``normal`` points into the wall (out of the free side), as in the Computer Seminar chapter."""

    def __init__(self, normal, point_included, world, point_masses, is_floor=False):
        length = math.hypot(normal[0], normal[1])
        self.nx, self.ny = normal[0] / length, normal[1] / length
        self.px, self.py = float(point_included[0]), float(point_included[1])
        self.world = world
        self.point_masses = point_masses
        self.is_floor = is_floor

    def generate_force(self):
        nx, ny, px, py = self.nx, self.ny, self.px, self.py
        dt = self.world.dt
        for p in self.point_masses:
            invasion = nx * (p.x - px) + ny * (p.y - py)
            vn = nx * p.vx + ny * p.vy
            if invasion + p.radius > 0.0 and vn > 0.0:
                magnitude = -(p.restitution + 1.0) * vn * p.mass / dt
                p.fx += nx * magnitude
                p.fy += ny * magnitude
                if self.is_floor:
                    p.floor_y = py

    def move(self):
        pass


def box_boundaries(world, point_masses, width, height):
    """The four walls of a width x height window in pixel coordinates (y down): top, floor, left, right."""
    return [
        Boundary((0.0, -1.0), (0.0, 0.0), world, point_masses),
        Boundary((0.0, 1.0), (0.0, height), world, point_masses, is_floor=True),
        Boundary((-1.0, 0.0), (0.0, 0.0), world, point_masses),
        Boundary((1.0, 0.0), (width, 0.0), world, point_masses),
    ]
