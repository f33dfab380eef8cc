"""Contact impulses applied as forces (the Computer Seminar chapter's CollisionResolver and Boundary), vectorised.

The Computer Seminar chapter resolves a contact in one step: it computes the force that, acting for one step ``dt``,
changes the velocities exactly as an impact with restitution ``e`` would, and adds it to the
particles like any other force. Two rules:

* point-point: the pair's relative normal velocity is reversed and scaled by ``e = e1 * e2``
  while the total momentum is kept; only for overlapping pairs (distance <= r1 + r2) that are
  approaching. Along the unit normal n from 1 to 2, with normal speeds v1, v2:
  ``f1 = n * (e + 1) * (v2 - v1) / (1/m1 + 1/m2) / dt`` and ``f2 = -f1``.
  A pinned particle (inv_mass 0) is the limit m -> inf, so it simply drops out of the sum.
* point-plane: the plane is the limit of an infinitely heavy partner at rest:
  ``f = n * (-(e + 1) * v_n) * m / dt`` with the particle's own restitution, when the particle
  penetrates (its surface is past the plane) and still moves into it.

Planes here use the engine's convention (:class:`~slime.physics.planes.Planes`: the normal points
into the free side, the Computer Seminar chapter's points into the wall); the impact is the same either way.

Pairs are found with a k-d tree (scipy's cKDTree.query_pairs), never an all-pairs loop.

The forces are computed from the velocities at the start of the step, as the Computer Seminar chapter does, so they
must be added before the integrator runs; gravity and springs added in the same step are not
cancelled, which is why the Computer Seminar chapter needs its floor-sink fix
(:meth:`PlaneImpactForces.after_integrate`).

Two world force functions are the whole of it, and the scenes (``scenes/sandbox/``) and the
benchmark (``bench/grid2d.py``) run them: :class:`ContactForces` (point-point) and
:class:`PlaneImpactForces` (point-plane and the sink fix).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from slime.physics.planes import Planes


def box_planes(width: float, height: float, y_down: bool = True) -> Planes:
    """The four walls of a ``width`` x ``height`` window (top, bottom, left, right), normals inward.

    With ``y_down`` (pixel coordinates, as the Computer Seminar chapter) the floor is the line y = height.
    """
    if y_down:
        normals = [(0.0, 1.0), (0.0, -1.0), (1.0, 0.0), (-1.0, 0.0)]
        points = [(0.0, 0.0), (0.0, height), (0.0, 0.0), (width, 0.0)]
    else:
        normals = [(0.0, -1.0), (0.0, 1.0), (1.0, 0.0), (-1.0, 0.0)]
        points = [(0.0, height), (0.0, 0.0), (0.0, 0.0), (width, 0.0)]
    return Planes.create(normals, points, restitution=0.0, friction=0.0)


# Which of box_planes' planes is the floor (the Computer Seminar chapter fixes sinking there only).
BOX_FLOOR = np.array([False, True, False, False])


class ContactForces:
    """A MassSpringWorld force function (``world.extra_forces``) for point-point impacts.

    ``count`` accumulates how many pair impulses were applied (exercise 7-3's collision counter);
    ``last_count`` is this step's.

    The pairs are those whose discs touch or overlap, |x_i - x_j| <= r_i + r_j, found through a
    Verlet list: the k-d tree is asked for every pair within the contact reach (twice the largest
    radius) plus ``margin``, and that candidate list is kept while no particle has moved more
    than ``margin / 2`` since (two particles closing in can then have gained at most ``margin``
    on each other, so no pair within reach is missed). Each step only measures the candidates,
    each against its own radii sum, so mixed sizes are exact. ``margin`` defaults to the largest
    radius.
    """

    def __init__(self, margin: float | None = None):
        self.count = 0
        self.last_count = 0
        self.margin = margin
        self.rebuilds = 0  # how many times the candidate list was rebuilt (for benchmarks)
        self._anchor: np.ndarray | None = None  # positions when the candidates were found
        self._reach = 0.0  # contact reach (twice the largest radius) the candidates were found for
        self._skin = 0.0
        self._i = self._j = np.zeros(0, dtype=np.intp)

    def _candidates_valid(self, positions: np.ndarray, reach: float) -> bool:
        anchor = self._anchor
        if anchor is None or anchor.shape != positions.shape or reach > self._reach:
            return False
        moved = positions - anchor
        moved *= moved
        farthest = np.maximum.reduce(np.add.reduce(moved, axis=1)) if moved.shape[1] != 2 else np.maximum.reduce(
            np.add(moved[:, 0], moved[:, 1])
        )
        return bool(farthest <= 0.25 * self._skin * self._skin)

    def _find_candidates(self, positions: np.ndarray, reach: float) -> None:
        skin = self.margin if self.margin is not None else 0.5 * reach
        pairs = cKDTree(positions).query_pairs(reach + skin, output_type="ndarray")
        self._i = np.ascontiguousarray(pairs[:, 0], dtype=np.intp)
        self._j = np.ascontiguousarray(pairs[:, 1], dtype=np.intp)
        self._anchor = positions.copy()
        self._reach, self._skin = reach, skin
        self.rebuilds += 1

    def __call__(self, world, forces: np.ndarray) -> None:
        p = world.particles
        h = world.dt / world.substeps
        self.last_count = self.add_forces(forces, p.positions, p.velocities, p.inv_mass, p.restitution, p.radius, h)
        self.count += self.last_count

    def add_forces(self, forces, positions, velocities, inv_mass, restitution, radius, dt) -> int:
        """Add the impact forces of every touching, approaching pair into ``forces``; returns how
        many pairs received an impulse (exercise 7-3 counts these)."""
        if positions.shape[0] < 2:
            return 0
        reach = 2.0 * float(np.maximum.reduce(radius))
        if not np.isfinite(reach) or reach <= 0.0:
            return 0
        if not self._candidates_valid(positions, reach):
            self._find_candidates(positions, reach)
        i, j = self._i, self._j
        if i.size == 0:
            return 0
        gap = positions.take(j, axis=0)
        gap -= positions.take(i, axis=0)
        squared = _row_dot(gap, gap)
        # Nobody is within reach unless within the largest reach (a hair wider: squared vs root).
        near = (squared <= reach * reach * (1.0 + 1e-9)).nonzero()[0]
        if near.size == 0:
            return 0
        i, j, gap = i[near], j[near], gap[near]
        distance = np.sqrt(squared[near])
        touching = distance <= radius[i] + radius[j]
        if not touching.all():
            i, j, gap, distance = i[touching], j[touching], gap[touching], distance[touching]
            if i.size == 0:
                return 0
        f, active = _impact_forces(gap, distance, velocities, inv_mass, restitution, i, j, dt)
        count = int(np.count_nonzero(active))
        if count:
            # Inactive pairs carry a zero force: scatter them anyway rather than compress.
            n = forces.shape[0]
            both = np.concatenate((i, j))
            for axis in range(forces.shape[1]):
                column = f[:, axis]
                forces[:, axis] += np.bincount(both, weights=np.concatenate((column, -column)), minlength=n)
        return count


def _row_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise a.b: in 2D two multiplies and an add (the bits einsum gives, without its
    small-inner-loop overhead)."""
    if a.shape[1] == 2:
        return a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1]
    return np.einsum("ij,ij->i", a, b)


def _impact_forces(gap, distance, velocities, inv_mass, restitution, i, j, dt):
    """Force on particle ``i[k]`` from its impact with ``j[k]`` (``j[k]`` gets the opposite), from
    the measured ``gap`` x_j - x_i and ``distance``; returns ``(force (K, D), active (K,) bool)``.
    Inactive pairs get a zero force: coincident centres (no direction: the Computer Seminar chapter skips
    them too), separating pairs (v1 < v2, so one contact is not resolved twice) and pairs of two
    pinned particles. (K, D) arrays are worked column by column, numpy's fast direction."""
    safe_distance = np.where(distance > 0.0, distance, 1.0)
    normal = np.empty_like(gap)
    for axis in range(gap.shape[1]):
        np.divide(gap[:, axis], safe_distance, out=normal[:, axis])
    v1 = _row_dot(velocities.take(i, axis=0), normal)
    v2 = _row_dot(velocities.take(j, axis=0), normal)
    inv_mass_sum = inv_mass[i] + inv_mass[j]
    active = (distance > 0.0) & (v1 >= v2) & (inv_mass_sum > 0.0)
    e = restitution[i] * restitution[j]
    magnitude = (e + 1.0) * (v2 - v1) / np.where(inv_mass_sum > 0.0, inv_mass_sum, 1.0) / dt
    magnitude = np.where(active, magnitude, 0.0)
    for axis in range(gap.shape[1]):
        normal[:, axis] *= magnitude
    return normal, active


class PlaneImpactForces:
    """A MassSpringWorld force function for the Computer Seminar chapter's boundaries, plus the floor-sink fix.

    Register :meth:`after_integrate` in ``MassSpringWorld.after_integrate`` so the fix runs every substep.

    A particle is hit by a plane when its disc crosses it (strictly: touching exactly is not a
    hit, as in the Computer Seminar chapter) while it moves into it; ``hits`` (K, N) says which plane
    hit which particle this step. All planes are measured at once, as a (K, N) matrix of heights
    and normal speeds, and forces are computed only for the particles actually hit.

    The sink fix (``after_integrate``): the impact force only reverses the velocity the particle
    had; gravity and springs acting in the same step can still carry it into the floor, and it
    would sink a little every bounce. So a particle that was hit by a plane this step and still
    moves into it is put back with its surface on the plane (its velocity is left alone, as the
    Computer Seminar chapter does). ``sink_fix`` selects the planes this applies to (the
    chapter's: the floor only, ``BOX_FLOOR``); None means all of them.
    """

    def __init__(self, planes: Planes, sink_fix: np.ndarray | None = None):
        self.planes = planes
        self.sink_fix = sink_fix
        self.hits = np.zeros((planes.count, 0), dtype=bool)
        self._hit_particle = np.zeros(0, dtype=np.intp)  # (H,) who was hit this step ...
        self._hit_plane = np.zeros(0, dtype=np.intp)  # (H,) ... by which plane

    def __call__(self, world, forces: np.ndarray) -> None:
        p = world.particles
        h = world.dt / world.substeps
        planes = self.planes
        x, v, inv_mass = p.positions, p.velocities, p.inv_mass
        normal = planes.normal
        n = x.shape[0]
        # Height of every particle above every plane, (K, N) so each row is one long loop: x.n - p.n.
        height = normal @ x.T
        height -= np.einsum("ij,ij->i", planes.point, normal)[:, None]
        hit = height < p.radius  # the disc crosses the plane (radius - height > 0)
        if not hit.any():  # the usual case for most particles: nothing else to measure
            self.hits = hit
            self._hit_particle = self._hit_plane = np.zeros(0, dtype=np.intp)
            return
        vn = normal @ v.T  # < 0: moving into the plane
        hit &= vn < 0.0
        if np.minimum.reduce(inv_mass, initial=1.0) <= 0.0:  # pinned particles are never pushed
            hit &= inv_mass > 0.0
        self.hits = hit
        flat = hit.ravel().nonzero()[0]  # plane-major: each particle's planes in order, as the loop adds them
        which, who = np.divmod(flat, n)
        self._hit_particle, self._hit_plane = who, which
        if who.size == 0:
            return
        mass = 1.0 / inv_mass[who]
        magnitude = -(p.restitution[who] + 1.0) * vn.ravel()[flat] * mass / h
        if who.size <= 64:  # a few hits: add.at beats full-length bincounts
            np.add.at(forces, who, magnitude[:, None] * normal[which])
        else:
            for axis in range(forces.shape[1]):
                forces[:, axis] += np.bincount(who, weights=magnitude * normal[which, axis], minlength=n)

    def after_integrate(self, world) -> None:
        p = world.particles
        if self.hits.shape[1] != p.count:  # particles were added since the forces were taken
            return
        if self._hit_particle.size == 0:
            return
        x, v = p.positions, p.velocities
        planes = self.planes
        for k in range(planes.count):  # plane after plane: a particle in a corner is put back on each
            if self.sink_fix is not None and not self.sink_fix[k]:
                continue
            who = self._hit_particle[self._hit_plane == k]
            if who.size == 0:
                continue
            normal = planes.normal[k]
            who = who[v.take(who, axis=0) @ normal < 0.0]  # still moving into the plane: put back on it
            if who.size == 0:
                continue
            height = (x.take(who, axis=0) - planes.point[k]) @ normal
            x[who] += (p.radius[who] - height)[:, None] * normal
