"""Independent truths about closed triangle meshes for the contact tests: whether points are
inside (winding number, exact for any closed mesh, star-shaped or not) and how far they are from
the surface (exact point-triangle distance), by brute force over all triangles, compiled (the
contact tests ask this of every frame)."""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from slime.physics.compiled import kernel


@kernel
def _solid_angle_sums(points, a, b, c, out):
    """out[q] = the sum over the triangles (corners a, b, c: (3, T) each) of their solid angles
    seen from points[q], over 2 pi: tan(Omega / 2) = det / den (Van Oosterom and Strackee), so the
    winding number sum(Omega) / 4 pi is sum(atan2(det, den)) / 2 pi."""
    for q in range(points.shape[0]):
        px, py, pz = points[q, 0], points[q, 1], points[q, 2]
        total = 0.0
        for t in range(a.shape[1]):
            ax, ay, az = a[0, t] - px, a[1, t] - py, a[2, t] - pz
            bx, by, bz = b[0, t] - px, b[1, t] - py, b[2, t] - pz
            cx, cy, cz = c[0, t] - px, c[1, t] - py, c[2, t] - pz
            la = math.sqrt(ax * ax + ay * ay + az * az)
            lb = math.sqrt(bx * bx + by * by + bz * bz)
            lc = math.sqrt(cx * cx + cy * cy + cz * cz)
            det = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)
            den = (la * lb * lc + (ax * bx + ay * by + az * bz) * lc + (bx * cx + by * cy + bz * cz) * la
                   + (cx * ax + cy * ay + cz * az) * lb)
            total += math.atan2(det, den)
        out[q] = total / (2.0 * math.pi)


def winding_numbers(points: np.ndarray, vertices: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """(Q,) winding number of each point about the closed, outward-wound mesh (1 inside, 0 out):
    the sum of the triangles' solid angles, over every triangle."""
    out = np.zeros(len(points))
    corners = [np.ascontiguousarray(vertices[triangles[:, k]].T) for k in range(3)]
    _solid_angle_sums(np.ascontiguousarray(points, dtype=np.float64), *corners, out)
    return out


@kernel
def _segment_distance(px, py, pz, ax, ay, az, bx, by, bz):
    """Distance from p to the segment a-b."""
    ex, ey, ez = bx - ax, by - ay, bz - az
    t = ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / max(ex * ex + ey * ey + ez * ez, 1e-300)
    t = min(max(t, 0.0), 1.0)
    dx, dy, dz = px - (ax + t * ex), py - (ay + t * ey), pz - (az + t * ez)
    return math.sqrt(dx * dx + dy * dy + dz * dz)


@kernel
def _nearest_distances(points, a, b, c, out):
    """out[q] = the distance from points[q] to the nearest triangle (corners a, b, c: (T, 3)
    each): to the plane where the foot of the perpendicular falls inside the triangle, else to its
    nearest edge. A triangle wholly farther than the nearest found so far (its centroid's distance
    less the centroid's reach to its corners) cannot be nearer, and is passed over."""
    count = a.shape[0]
    centre = (a + b + c) / 3.0
    reach = np.empty(count)
    for t in range(count):
        reach[t] = 0.0
        for corner in (a, b, c):
            d2 = 0.0
            for k in range(3):
                d2 += (corner[t, k] - centre[t, k]) ** 2
            reach[t] = max(reach[t], math.sqrt(d2))
    for q in range(points.shape[0]):
        px, py, pz = points[q, 0], points[q, 1], points[q, 2]
        best = np.inf
        for t in range(count):
            dx, dy, dz = px - centre[t, 0], py - centre[t, 1], pz - centre[t, 2]
            if math.sqrt(dx * dx + dy * dy + dz * dz) - reach[t] > best:
                continue
            ax, ay, az = a[t, 0], a[t, 1], a[t, 2]
            bx, by, bz = b[t, 0], b[t, 1], b[t, 2]
            cx, cy, cz = c[t, 0], c[t, 1], c[t, 2]
            # The unit normal.
            nx = (by - ay) * (cz - az) - (bz - az) * (cy - ay)
            ny = (bz - az) * (cx - ax) - (bx - ax) * (cz - az)
            nz = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
            size = max(math.sqrt(nx * nx + ny * ny + nz * nz), 1e-300)
            nx, ny, nz = nx / size, ny / size, nz / size
            h = (px - ax) * nx + (py - ay) * ny + (pz - az) * nz
            fx, fy, fz = px - h * nx, py - h * ny, pz - h * nz  # the foot on the plane
            inside = True
            for ux, uy, uz, wx, wy, wz in ((ax, ay, az, bx, by, bz), (bx, by, bz, cx, cy, cz), (cx, cy, cz, ax, ay, az)):
                ex, ey, ez = wx - ux, wy - uy, wz - uz
                gx, gy, gz = fx - ux, fy - uy, fz - uz
                if (ey * gz - ez * gy) * nx + (ez * gx - ex * gz) * ny + (ex * gy - ey * gx) * nz < 0.0:
                    inside = False
            if inside:
                distance = abs(h)
            else:
                distance = min(_segment_distance(px, py, pz, ax, ay, az, bx, by, bz),
                               _segment_distance(px, py, pz, bx, by, bz, cx, cy, cz),
                               _segment_distance(px, py, pz, cx, cy, cz, ax, ay, az))
            best = min(best, distance)
        out[q] = best


def surface_distance(points: np.ndarray, vertices: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """(Q,) exact distance of each point to the nearest triangle."""
    out = np.empty(len(points))
    corners = [np.ascontiguousarray(vertices[triangles[:, k]], dtype=np.float64) for k in range(3)]
    _nearest_distances(np.ascontiguousarray(points, dtype=np.float64), *corners, out)
    return out


def hull_planes(vertices: np.ndarray) -> np.ndarray | None:
    """The planes (n, d) of the convex hull of ``vertices`` (n . x + d <= 0 inside); None for a flat
    or degenerate cloud."""
    try:
        return ConvexHull(vertices).equations
    except QhullError:
        return None


def in_hull(points: np.ndarray, planes: np.ndarray | None) -> np.ndarray:
    """(Q,) whether each point lies in the convex hull with ``planes`` (``hull_planes``; or within
    1e-9 of it; every point where there is no hull). A closed mesh lies inside its vertices' hull,
    so a point outside it is outside the mesh: a filter that leaves the winding numbers to the few
    points it keeps."""
    if planes is None:
        return np.ones(len(points), dtype=bool)
    return (points @ planes[:, :3].T + planes[:, 3]).max(axis=1) <= 1e-9


def deepest_inside(bodies_vertices: list, triangles: list, centroids, reach) -> float:
    """Largest depth of any body's vertex inside any other body (0 when none is inside)."""
    worst = 0.0
    hulls = {}  # a body's hull, for every other body's points
    for i, xi in enumerate(bodies_vertices):
        for j, (xj, tj) in enumerate(zip(bodies_vertices, triangles)):
            if i == j:
                continue
            near = np.linalg.norm(xi - centroids[j], axis=1) < reach[j]
            if not near.any():
                continue
            if j not in hulls:
                hulls[j] = hull_planes(xj)
            near[near] = in_hull(xi[near], hulls[j])
            if not near.any():
                continue
            pts = xi[near]
            inside = winding_numbers(pts, xj, tj) > 0.5
            if inside.any():
                worst = max(worst, float(surface_distance(pts[inside], xj, tj).max()))
    return worst


def world_penetration(world) -> float:
    """The deepest any body's vertex lies inside another body (exact winding numbers)."""
    xs = [world.body_positions(i).copy() for i in range(len(world.bodies))]
    tris = [b.triangles for b in world.bodies]
    reach = [1.5 * b.params.radius for b in world.bodies]
    return deepest_inside(xs, tris, world.centroids(), reach)
