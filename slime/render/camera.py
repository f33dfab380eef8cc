"""An orbit camera: azimuth/elevation/distance around a target point, built with pyrr.

pyrr's matrices are row-vector (``p_row @ M``) float64; their memory layout is exactly what GLSL
reads as a column-major ``mat4`` acting on column vectors, so they upload unchanged after
``.astype("f4")``. Pixel coordinates here are window-style: origin at the top-left, x right,
y down, in whatever unit ``size`` is given in (window points for the mouse, pixels for images).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from pyrr import Matrix44

from slime.framing import FOV_Y, MAX_DISTANCE, MIN_DISTANCE, NEAR, orbit_eye
from slime.limits import ORBIT_ELEVATION

UP = np.array([0.0, 1.0, 0.0])
# The orbit's elevation, degrees: never below the horizon (the renderer has no depth buffer and
# the floor is one-sided: from below it the slime would float in sky) and short of the pole,
# where look_at's up vector degenerates. Checked here, by the command line and by render_slime.
ELEVATION_RANGE = ORBIT_ELEVATION  # one home: slime.limits


@dataclass
class OrbitCamera:
    azimuth: float = 35.0  # degrees around +y, 0 looks from +z toward the target
    elevation: float = 17.0  # degrees above the horizon
    distance: float = 4.6
    target: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.7, 0.0]))
    fov_y: float = FOV_Y  # degrees
    near: float = NEAR
    far: float = 100.0
    min_distance: float = 1.2
    max_distance: float = 30.0

    def __post_init__(self):
        self.target = np.asarray(self.target, dtype=np.float64)
        self.set_home()

    def set_home(self) -> None:
        """``home`` comes back to the pose the camera has now."""
        self._home = (self.azimuth, self.elevation, self.distance, self.target.copy())

    # --- pose -------------------------------------------------------------------------------
    @classmethod
    def of_view(cls, view, **limits) -> "OrbitCamera":
        """The camera of an orbit view (``slime.framing.View``: azimuth, elevation, distance,
        target, fov_y), its home there; ``limits``: min_distance, max_distance (default
        framing's MIN_DISTANCE, MAX_DISTANCE)."""
        limits = {"min_distance": MIN_DISTANCE, "max_distance": MAX_DISTANCE, **limits}
        return cls(azimuth=float(view.azimuth), elevation=float(view.elevation), distance=float(view.distance),
                   target=np.array(view.target, dtype=np.float64), fov_y=float(view.fov_y), **limits)

    def eye(self) -> np.ndarray:
        return orbit_eye(self.azimuth, self.elevation, self.distance, self.target)

    def orbit(self, d_azimuth: float, d_elevation: float) -> None:
        self.azimuth = (self.azimuth + d_azimuth) % 360.0
        # Stay above the horizon (the floor must never hide the slime: the renderer has no depth
        # buffer) and short of the pole, where look_at's up vector degenerates.
        self.elevation = float(np.clip(self.elevation + d_elevation, *ORBIT_ELEVATION))

    def zoom(self, steps: float) -> None:
        """Positive steps move closer, each by a constant factor (feels even at every distance)."""
        self.distance = float(np.clip(self.distance * 0.9**steps, self.min_distance, self.max_distance))

    def keep_outside(self, centre, radius: float, *, to_radius: float | None = None) -> bool:
        """Where the eye is inside the sphere (``centre``, ``radius``) by the near plane's
        margin, move it back along its orbit to ``to_radius`` from the centre (default: to
        ``radius``); True when it moved."""
        centre = np.asarray(centre, dtype=np.float64)
        margin = 2.0 * self.near
        if np.linalg.norm(self.eye() - centre) >= float(radius) + margin:
            return False
        goal = float(to_radius if to_radius is not None else radius) + margin
        direction = (self.eye() - self.target) / max(self.distance, 1e-12)
        # |target + t * direction - centre| = goal, the far root.
        rel = self.target - centre
        b = float(rel @ direction)
        c = float(rel @ rel) - goal * goal
        t = -b + np.sqrt(max(b * b - c, 0.0))
        self.distance = float(max(t, self.distance))
        return True

    def home(self) -> None:
        self.azimuth, self.elevation, self.distance, target = self._home
        self.target = target.copy()

    # --- matrices ---------------------------------------------------------------------------
    def view(self) -> np.ndarray:
        return np.asarray(Matrix44.look_at(self.eye(), self.target, UP))

    def projection(self, aspect: float) -> np.ndarray:
        return np.asarray(Matrix44.perspective_projection(self.fov_y, max(aspect, 1e-6), self.near, self.far))

    def view_projection(self, aspect: float) -> np.ndarray:
        """Row-vector clip transform: ``clip = [x, y, z, 1] @ view_projection``."""
        return self.view() @ self.projection(aspect)

    def gl_matrices(self, aspect: float) -> tuple[np.ndarray, np.ndarray]:
        """(view, projection) as float32, ready for ``uniform.write``."""
        return self.view().astype("f4"), self.projection(aspect).astype("f4")

    # --- pixels <-> world -------------------------------------------------------------------
    def project(self, points, size) -> np.ndarray:
        """World points (..., 3) to pixel coordinates (..., 2) in a ``size = (width, height)``
        image, top-left origin; pixel (i, j) covers [i, i + 1) x [j, j + 1)."""
        w, h = size
        pts = np.asarray(points, dtype=np.float64)
        clip = np.concatenate([pts, np.ones(pts.shape[:-1] + (1,))], axis=-1) @ self.view_projection(w / h)
        ndc = clip[..., :3] / clip[..., 3:4]
        return np.stack([(ndc[..., 0] + 1.0) * 0.5 * w, (1.0 - ndc[..., 1]) * 0.5 * h], axis=-1)

    def ray(self, x: float, y: float, size) -> tuple[np.ndarray, np.ndarray]:
        """The ray (origin on the near plane, unit direction) through pixel coordinates (x, y)."""
        w, h = size
        ndc = np.array([2.0 * x / w - 1.0, 1.0 - 2.0 * y / h])
        inverse = np.linalg.inv(self.view_projection(w / h))
        near = np.array([ndc[0], ndc[1], -1.0, 1.0]) @ inverse
        far = np.array([ndc[0], ndc[1], 1.0, 1.0]) @ inverse
        near, far = near[:3] / near[3], far[:3] / far[3]
        direction = far - near
        return near, direction / np.linalg.norm(direction)

    def forward(self) -> np.ndarray:
        d = self.target - self.eye()
        return d / np.linalg.norm(d)
