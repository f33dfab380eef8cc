"""slime.framing's camera policy without a window: a Framer fed points and the seconds since its
last update, checked against where the points land in the picture."""

from __future__ import annotations

import numpy as np
import pytest

from slime.framing import FRAME, FREE, KEEP, ZOOM_IN_TIME, Framer, scene_view
from slime.render.camera import OrbitCamera

SIZE = (400, 300)
ASPECT = SIZE[0] / SIZE[1]


def ball(centre, radius=0.5) -> np.ndarray:
    """Points of a sphere's surface: what a framing holds of a slime."""
    u, v = np.meshgrid(np.linspace(0, np.pi, 9), np.linspace(0, 2 * np.pi, 17))
    return np.asarray(centre) + radius * np.stack([np.sin(u) * np.cos(v), np.cos(u), np.sin(u) * np.sin(v)], -1).reshape(-1, 3)


def framed(points) -> OrbitCamera:
    return OrbitCamera.of_view(scene_view(points, ASPECT), min_distance=0.1, max_distance=1000.0)


def inside(camera, points) -> bool:
    x, y = camera.project(points, SIZE).T
    return bool(x.min() >= 0 and y.min() >= 0 and x.max() <= SIZE[0] and y.max() <= SIZE[1])


def test_a_slime_flung_away_stays_in_the_picture_every_frame():
    pair = [np.array([-1.0, 0.5, 0.0]), np.array([1.0, 0.5, 0.0])]
    camera = framed(np.concatenate([ball(c) for c in pair]))
    framer = Framer(camera, FRAME)
    for frame in range(120):  # the second one thrown off at 6 m/s, up and sideways
        pair[1] = pair[1] + np.array([6.0, 3.0, -2.0]) / 60.0
        points = np.concatenate([ball(c) for c in pair])
        framer.update(points, ASPECT, 1.0 / 60.0)
        assert inside(camera, points), frame


def test_the_camera_glides_in_at_the_same_pace_at_any_frame_rate():
    wide = np.concatenate([ball((-3.0, 0.5, 0.0)), ball((3.0, 0.5, 0.0))])
    close = np.concatenate([ball((-0.5, 0.5, 0.0)), ball((0.5, 0.5, 0.0))])
    far = framed(wide).distance
    distances = []
    for fps in (30, 60, 144):
        camera = framed(wide)
        framer = Framer(camera, FRAME)
        steps = [camera.distance]
        for _ in range(fps):  # one second after the two met in the middle
            framer.update(close, ASPECT, 1.0 / fps)
            steps.append(camera.distance)
        assert min(b / a for a, b in zip(steps, steps[1:])) > 1.0 - 2.0 / (fps * ZOOM_IN_TIME), fps  # no lunge
        distances.append(camera.distance)
    goal = framed(close).distance
    assert goal < 0.6 * far
    # A second is most of the way in (ZOOM_IN_TIME's easing), and the frame rate changes that by little.
    assert all(goal < d < goal + 0.5 * (far - goal) for d in distances), (goal, distances, far)
    assert max(distances) - min(distances) < 0.03 * goal


def test_a_wobble_does_not_rock_the_camera():
    camera = framed(ball((0.0, 1.0, 0.0), 1.0))
    framer = Framer(camera, FRAME)
    pose = (camera.distance, camera.target.copy())
    for frame in range(60):
        wobble = 1.0 + 0.004 * np.sin(frame)
        framer.update(ball((0.0, 1.0, 0.0), wobble), ASPECT, 1.0 / 60.0)
    assert camera.distance == pose[0] and np.array_equal(camera.target, pose[1])


@pytest.mark.parametrize("mode", [KEEP, FREE])
def test_a_kept_camera_never_zooms_in_and_a_free_one_never_moves(mode):
    slime = np.array([0.0, 0.5, 0.0])
    camera = framed(ball(slime))
    camera.distance *= 2.0  # set further out by the scene's file or the user
    framer = Framer(camera, mode)
    start = (camera.distance, camera.target.copy())
    for _ in range(60):
        framer.update(ball(slime), ASPECT, 1.0 / 60.0)
    assert camera.distance == start[0]
    for _ in range(120):  # rolled far off to the side
        slime = slime + np.array([0.1, 0.0, 0.0])
        framer.update(ball(slime), ASPECT, 1.0 / 60.0)
    if mode == KEEP:
        assert inside(camera, ball(slime)) and camera.distance > start[0]
    else:
        assert camera.distance == start[0] and np.array_equal(camera.target, start[1])
        assert not inside(camera, ball(slime))


def test_the_user_takes_the_camera_and_reset_gives_it_back():
    points = ball((0.0, 0.5, 0.0))
    camera = framed(points)
    framer = Framer(camera, FRAME)
    start = (camera.azimuth, camera.elevation, camera.distance, camera.target.copy())
    camera.orbit(40.0, 10.0)
    camera.zoom(3.0)
    framer.user_moved()
    moved = (camera.azimuth, camera.elevation, camera.distance, camera.target.copy())
    moving = ball((2.0, 0.5, 0.0))
    framer.update(moving, ASPECT, 1.0)
    assert framer.mode == FREE and (camera.azimuth, camera.elevation, camera.distance) == moved[:3]
    framer.reset()  # the window's R
    assert framer.mode == FRAME
    assert (camera.azimuth, camera.elevation, camera.distance) == start[:3] and np.array_equal(camera.target, start[3])
    for _ in range(90):
        framer.update(moving, ASPECT, 1.0 / 60.0)
    assert inside(camera, moving)


def test_a_framer_takes_only_its_modes():
    with pytest.raises(ValueError, match="frame, keep or free"):
        Framer(framed(ball((0.0, 0.5, 0.0))), "follow")
