"""How a scene is framed: the one home of the view a scene opens on and of how a camera keeps its
slimes in the picture, for every reader: the window, ``slime render``, the glTF camera ``slime
simulate`` writes (which the web page, examples/view_in_browser.html, opens on), a picture's
(``render_world_picture``), a scene file camera's defaults and the lone slime's view, and the one
check of an (azimuth, elevation, distance) view. Numpy only, importing no layer: any may import it.

An orbit view is an azimuth and an elevation (degrees; azimuth 0 looks from +z toward the target,
as ``slime render --camera``), a distance, a target point and a vertical field of view.
``OrbitCamera`` (slime/render/camera.py) is one; ``View`` here is the same as plain data. The
functions take anything with those fields.

- ``framing``: the target and distance at which a view, its angles kept, holds a set of points.
- ``scene_view``: the view a scene opens on: its file's camera, or the scene framed from
  ``YAW`` / ``ELEVATION``; a caller's (azimuth, elevation, distance) overrides. Every camera a
  scene opens on is one (``OrbitCamera.of_view``, zoomable from MIN_DISTANCE to MAX_DISTANCE):
  the window's, ``slime render``'s, a picture's (``render_world_picture``) and the glTF's.
- ``Framer``: the camera of a running scene, eased toward the framing (``FRAME``: a scene without
  a camera of its own), held still until one of its slimes would leave the picture and then
  eased toward the framing as far as holds them all (``KEEP``: a scene's own camera, the window's
  lone slime), or left alone (``FREE``: once the user orbits or zooms); ``reset`` (the window's
  R) comes back to where it started. Time is passed in: the window's frames and a
  headless render's ticks ease alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from slime.limits import CAMERA_DISTANCE, CAMERA_ELEVATION, range_text
from slime.obstacle_mesh import framing_points

# The orbit a scene without a camera is framed from: a three-quarter view high enough to see into
# a walled box (pile's walls hide the slimes inside from a file camera's 17 degrees).
YAW, ELEVATION = 35.0, 30.0
# The lone slime's view, and a scene file camera's defaults (world_format.CameraSpec), in metres
# per metre of the slime's radius: a three-quarter view from a little above, 4.6 radii out,
# looking at 0.7 radii over the floor.
LONE_ELEVATION, LONE_DISTANCE, LONE_TARGET_HEIGHT = 17.0, 4.6, 0.7
FOV_Y = 40.0  # degrees, every picture's
NEAR = 0.05  # metres: the near plane, which a framed point keeps clear of
# Metres from its target an orbit camera may be zoomed to: near enough to fill the picture with a
# small slime, far enough to hold the largest scene.
MIN_DISTANCE, MAX_DISTANCE = 0.1, 1000.0
MARGIN = 0.06  # of the picture's half-size left free on each side by a framing
# What a Framer holds to, in the window and in a headless render alike: a slime that moved is
# followed within PAN_TIME (seconds, the easing's time constant), the picture widens as fast where
# a slime would leave it and narrows over ZOOM_IN_TIME (a slow glide in: two slimes flying into
# each other do not pull the camera in with them). Within SLACK (of the distance) of its goal the
# camera holds still: a wobbling slime does not rock it (and the renderer keeps its backdrop).
PAN_TIME = 0.35
ZOOM_IN_TIME = 0.8
SLACK = 0.01

FRAME, KEEP, FREE = "frame", "keep", "free"


@dataclass
class View:
    """An orbit view as plain data (see the module's docstring)."""

    azimuth: float = YAW
    elevation: float = ELEVATION
    distance: float = LONE_DISTANCE
    target: np.ndarray = field(default_factory=lambda: np.array([0.0, LONE_TARGET_HEIGHT, 0.0]))
    fov_y: float = FOV_Y
    near: float = NEAR

    def eye(self) -> np.ndarray:
        return orbit_eye(self.azimuth, self.elevation, self.distance, self.target)


def orbit_offset(azimuth: float, elevation: float) -> np.ndarray:
    """The unit vector from an orbit's target to its eye."""
    az, el = math.radians(azimuth), math.radians(elevation)
    return np.array([math.cos(el) * math.sin(az), math.sin(el), math.cos(el) * math.cos(az)])


def orbit_eye(azimuth: float, elevation: float, distance: float, target) -> np.ndarray:
    return np.asarray(target, dtype=np.float64) + float(distance) * orbit_offset(azimuth, elevation)


def _view_axes(view, aspect: float, margin: float):
    forward = -orbit_offset(view.azimuth, view.elevation)
    right = np.cross(forward, np.array([0.0, 1.0, 0.0]))
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    tan_y = math.tan(math.radians(view.fov_y) / 2.0) * (1.0 - 2.0 * margin)
    return forward, right, up, tan_y * max(aspect, 1e-6), tan_y


def fitting_distance(view, points, aspect: float, target=None, *, margin: float = MARGIN) -> float:
    """The least distance at which ``view`` (its angles kept), looking at ``target`` (default its
    own), sees every one of ``points`` (N, 3) inside the picture with ``margin`` of each side free."""
    forward, right, up, tan_x, tan_y = _view_axes(view, aspect, margin)
    q = np.asarray(points, dtype=np.float64).reshape(-1, 3) - (view.target if target is None else target)
    x, y, z = q @ right, q @ up, q @ forward
    # A point at depth (distance + z) is inside where |x| <= tan_x * depth and |y| <= tan_y * depth.
    return max(float(np.max(np.maximum(np.abs(x) / tan_x, np.abs(y) / tan_y) - z)),
               float(np.max(-z)) + 2.0 * view.near)


def framing(view, points, aspect: float, *, margin: float = MARGIN) -> tuple[np.ndarray, float]:
    """(target, distance) at which ``view``, its azimuth, elevation and field of view kept, sees
    every one of ``points`` (N, 3) inside the picture with ``margin`` of each side free, centred.
    Pure geometry: the caller moves the camera (at once, or eased over frames)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    forward, right, up, tan_x, tan_y = _view_axes(view, aspect, margin)
    target = 0.5 * (pts.min(axis=0) + pts.max(axis=0))
    # The distance that fits every point for a target, then the target moved to centre the points'
    # picture; three rounds settle both to well under a pixel.
    for _ in range(3):
        distance = fitting_distance(view, pts, aspect, target, margin=margin)
        q = pts - target
        x, y, depth = q @ right, q @ up, distance + q @ forward
        sx, sy = x / (depth * tan_x), y / (depth * tan_y)
        target = target + right * 0.5 * (sx.max() + sx.min()) * tan_x * distance \
            + up * 0.5 * (sy.max() + sy.min()) * tan_y * distance
    return target, fitting_distance(view, pts, aspect, target, margin=margin)


def world_points(positions, obstacles=()) -> np.ndarray:
    """(N, 3) points a framing keeps in the picture: every slime's vertices as they are now, and
    each obstacle's ``obstacle_mesh.framing_points`` (a plane by its given point)."""
    points = [np.asarray(positions, dtype=np.float64).reshape(-1, 3)]
    points += [framing_points(obstacle) for obstacle in obstacles or ()]
    return np.concatenate(points)


def scene_points(scene) -> np.ndarray:
    """``world_points`` of a WorldScene: its world's slimes and its drawn obstacles."""
    return world_points(scene.world.positions, scene.drawn_obstacles)


def scene_view(points, aspect: float = 4.0 / 3.0, camera=None, view=None) -> View:
    """The view a scene opens on. ``camera``: its file's (``yaw, elevation, distance, target``), as
    it is; without one, ``points`` (``scene_points``) framed from YAW and ELEVATION (or ``view``'s
    angles) in a picture of ``aspect``. ``view`` (azimuth_deg, elevation_deg, distance) then
    overrides the angles and the distance."""
    if view is not None:
        view = check_view(view)
    out = View()
    if camera is not None:
        out.azimuth, out.elevation, out.distance = float(camera.yaw), float(camera.elevation), float(camera.distance)
        out.target = np.asarray(camera.target, dtype=np.float64).copy()
    else:
        if view is not None:
            out.azimuth, out.elevation = float(view[0]), float(view[1])
        points = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        out.target, out.distance = framing(out, points if len(points) else np.zeros((1, 3)), aspect)
    if view is not None:
        out.azimuth, out.elevation, out.distance = (float(v) for v in view)
    return out


def check_view(view, name: str = "camera") -> tuple[float, float, float]:
    """(azimuth, elevation, distance) as floats: any finite azimuth, the elevation within
    ``limits.CAMERA_ELEVATION`` (the camera stays above the floor), the distance within
    ``limits.CAMERA_DISTANCE``, as a scene file's camera; one ValueError naming ``name`` otherwise."""
    try:
        az, el, dist = (float(v) for v in view)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be three numbers (azimuth, elevation, distance), got {view!r}") from None
    if not all(math.isfinite(v) for v in (az, el, dist)):
        raise ValueError(f"{name} must be finite numbers, got {view!r}")
    if dist <= 0:
        raise ValueError(f"{name} distance must be positive, got {dist}")
    if not CAMERA_DISTANCE[0] <= dist <= CAMERA_DISTANCE[1]:
        raise ValueError(f"{name} distance must be from {range_text(CAMERA_DISTANCE, 'm')}, got {dist:g}")
    low, high = CAMERA_ELEVATION
    if not low <= el <= high:
        raise ValueError(f"{name} elevation must be from {range_text(CAMERA_ELEVATION, 'degrees')} (the camera stays "
                         f"above the floor), got {el:g}")
    return az, el, dist


def _eased(seconds: float, time_constant: float) -> float:
    """The share of the way to its goal an exponential easing covers in ``seconds``."""
    return 1.0 - math.exp(-max(float(seconds), 0.0) / time_constant)


class Framer:
    """Keeps ``camera`` (an OrbitCamera) on a scene's slimes: ``mode`` FRAME, KEEP or FREE (see
    the module's docstring). ``update(points, aspect, seconds)`` after each step of the scene;
    ``user_moved()`` when the user orbits or zooms; ``reset()`` back to the start."""

    def __init__(self, camera, mode: str = FRAME):
        if mode not in (FRAME, KEEP, FREE):
            raise ValueError(f"a framer's mode is {FRAME}, {KEEP} or {FREE}, got {mode!r}")
        self.camera = camera
        self.start_mode = self.mode = mode
        self._start = (camera.azimuth, camera.elevation, camera.distance, np.array(camera.target, dtype=np.float64))

    def user_moved(self) -> None:
        self.mode = FREE

    def reset(self) -> None:
        """The camera where it started, framing again as it did then."""
        cam = self.camera
        cam.azimuth, cam.elevation, cam.distance, target = self._start
        cam.target = target.copy()
        self.mode = self.start_mode

    def update(self, points, aspect: float, seconds: float) -> None:
        """``seconds`` after the last update, the camera eased toward holding ``points``."""
        if self.mode == FREE:
            return
        points = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        if not len(points):
            return
        cam = self.camera
        needed = fitting_distance(cam, points, aspect, margin=0.5 * MARGIN)
        if self.mode == KEEP and needed <= cam.distance:
            return  # every slime in the picture: the camera as it was put
        goal_target, goal_distance = framing(cam, points, aspect)
        slack = SLACK * cam.distance
        step = goal_target - cam.target
        if float(np.linalg.norm(step)) > slack:
            cam.target = cam.target + _eased(seconds, PAN_TIME) * step
        distance = cam.distance
        if abs(goal_distance - distance) > slack:
            time_constant = PAN_TIME if goal_distance > distance else ZOOM_IN_TIME
            distance += _eased(seconds, time_constant) * (goal_distance - distance)
        # Never so close that a point leaves the picture (half the margin may be taken).
        distance = max(distance, fitting_distance(cam, points, aspect, margin=0.5 * MARGIN))
        if abs(distance - cam.distance) > 1e-9 * cam.distance:
            cam.distance = float(distance)
