"""The orbit camera: pyrr matrices, pixel projection and rays (slime/render/camera.py)."""

import numpy as np

from slime.render.camera import OrbitCamera


def test_target_projects_to_the_image_centre_and_eye_is_at_distance():
    cam = OrbitCamera(azimuth=120.0, elevation=30.0, distance=7.0, target=[1.0, 2.0, 3.0])
    assert np.isclose(np.linalg.norm(cam.eye() - cam.target), 7.0)
    assert np.isclose(cam.eye()[1] - 2.0, 7.0 * np.sin(np.radians(30.0)))
    assert np.allclose(cam.project(cam.target, (640, 480)), [320.0, 240.0])


def test_up_is_up_and_right_is_right_on_screen():
    cam = OrbitCamera(azimuth=0.0, elevation=0.0, distance=5.0, target=[0, 0, 0])  # looking down -z
    above = cam.project([0.0, 1.0, 0.0], (400, 400))
    right = cam.project([1.0, 0.0, 0.0], (400, 400))
    assert above[1] < 200.0 and np.isclose(above[0], 200.0)
    assert right[0] > 200.0 and np.isclose(right[1], 200.0)


def test_ray_round_trip_and_starts_on_the_near_plane():
    cam = OrbitCamera(azimuth=33.0, elevation=12.0, distance=4.0)
    size = (1280, 720)
    point = np.array([0.3, 0.9, -0.4])
    origin, direction = cam.ray(*cam.project(point, size), size)
    assert np.isclose(np.linalg.norm(direction), 1.0)
    to_point = point - origin
    # The point lies on the ray.
    assert np.linalg.norm(to_point - np.dot(to_point, direction) * direction) < 1e-9
    assert np.isclose(np.dot(origin - cam.eye(), cam.forward()), cam.near, rtol=1e-6)


def test_gl_matrices_are_float32_copies_of_the_row_vector_transform():
    cam = OrbitCamera()
    view, proj = cam.gl_matrices(1.5)
    assert view.dtype == np.float32 and proj.dtype == np.float32
    # GLSL reads the bytes column-major and computes proj * view * p: the same as p @ view @ proj.
    p = np.array([0.2, 0.5, -0.1, 1.0])
    glsl = (proj.T.astype(float) @ (view.T.astype(float) @ p))
    assert np.allclose(glsl, p @ cam.view_projection(1.5), atol=1e-5)


def test_orbit_clamps_elevation_and_zoom_clamps_distance():
    cam = OrbitCamera(distance=4.0, min_distance=2.0, max_distance=10.0)
    cam.orbit(370.0, 200.0)
    assert cam.elevation == 85.0 and np.isclose(cam.azimuth, (35.0 + 370.0) % 360.0)
    cam.zoom(100)
    assert cam.distance == 2.0
    cam.zoom(-100)
    assert cam.distance == 10.0
    cam.home()
    assert cam.distance == 4.0
