"""Ray casts against the slime's triangles (slime/render/picking.py) and the camera's rays."""

import numpy as np

from slime.physics.slime3d.sphere import sphere_triangles, uv_sphere
from slime.render.camera import OrbitCamera
from slime.mesh import triangle_area_vectors
from slime.render.picking import intersect_plane, pick


def test_ray_hits_single_triangle_at_the_analytic_point():
    pos = np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0]], dtype=float)
    hit = pick([0.5, 0.25, 5.0], [0, 0, -2.0], pos, np.array([[0, 1, 2]]))
    assert hit is not None and hit.triangle == 0
    assert np.allclose(hit.point, [0.5, 0.25, 0.0]) and np.isclose(hit.distance, 5.0)
    assert np.allclose(hit.barycentric, [0.625, 0.25, 0.125])


def test_ray_misses_outside_and_behind():
    pos = np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0]], dtype=float)
    tris = np.array([[0, 1, 2]])
    assert pick([1.5, 1.5, 5.0], [0, 0, -1.0], pos, tris) is None  # outside the hypotenuse
    assert pick([0.5, 0.5, 5.0], [0, 0, 1.0], pos, tris) is None  # triangle behind the origin
    assert pick([0.5, 0.5, 5.0], [1.0, 0, 0], pos, tris) is None  # parallel


def test_nearest_surface_of_a_sphere_wins():
    pos = uv_sphere(24, 24, 1.0, center=(0.0, 1.0, 0.0))
    tris = sphere_triangles(24, 24)
    hit = pick([0.0, 1.0, 5.0], [0.0, 0.0, -1.0], pos, tris)
    # The front of the (faceted) sphere: z just under 1, distance just over 4.
    assert hit is not None and 0.98 < hit.point[2] <= 1.0 + 1e-12
    assert np.isclose(hit.distance, 5.0 - hit.point[2])
    # From inside, the ray still finds the wall it leaves through.
    inside = pick([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], pos, tris)
    assert inside is not None and 0.98 < inside.point[0] <= 1.0 + 1e-12


def test_ray_through_a_projected_pixel_hits_the_surface_point_under_it():
    pos = uv_sphere(32, 32, 1.0, center=(0.0, 1.0, 0.0)) * [1.3, 0.8, 1.1]
    tris = sphere_triangles(32, 32)
    cam = OrbitCamera(azimuth=50.0, elevation=25.0, distance=4.5)
    size = (800, 600)
    eye = cam.eye()
    # Points inside triangles that face the camera (the body is convex: nothing is in front).
    weights = np.array([0.2, 0.5, 0.3])
    points = np.einsum("k,mkd->md", weights, pos[tris])
    normal = triangle_area_vectors(pos, tris)
    normal /= np.linalg.norm(normal, axis=1, keepdims=True) + 1e-300
    view = (eye - points) / np.linalg.norm(eye - points, axis=1, keepdims=True)
    facing = np.flatnonzero(np.einsum("ij,ij->i", normal, view) > 0.3)[::37]
    assert len(facing) > 5
    for triangle in facing:
        x, y = cam.project(points[triangle], size)
        origin, direction = cam.ray(x, y, size)
        hit = pick(origin, direction, pos, tris)
        assert hit is not None and hit.triangle == triangle
        assert np.linalg.norm(hit.point - points[triangle]) < 1e-6
        assert np.allclose(hit.barycentric, weights, atol=1e-6)
    # Through a vertex (on the edge of six triangles) the ray must not slip through a crack.
    vertex = facing[0]
    corner = pos[tris[vertex, 0]]
    hit = pick(*cam.ray(*cam.project(corner, size), size), pos, tris)
    assert hit is not None and np.linalg.norm(hit.point - corner) < 1e-6


def test_plane_intersection():
    p = intersect_plane([0, 5, 0], [0, -1, 0], [0, 1, 0], [0, 1, 0])
    assert np.allclose(p, [0, 1, 0])
    assert intersect_plane([0, 5, 0], [1, 0, 0], [0, 1, 0], [0, 1, 0]) is None
    assert intersect_plane([0, 5, 0], [0, 1, 0], [0, 1, 0], [0, 1, 0]) is None
