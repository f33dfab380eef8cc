"""Render the 3D slime without a window (EGL): a PNG of the last frame, or an animated GIF or a video
(.mp4, .webm) of every frame."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import numpy as np

from slime.app.render_common import check_render_args, progress_bar
from slime.limits import CAMERA_ELEVATION, RESOLUTION, span
from slime.render.camera import OrbitCamera
from slime.render.context import create_headless_context
from slime.render.images import open_frames, read_rgba
from slime.simulate import apply_pokes, make_body, poke_schedule


def default_camera(body, view: Sequence[float] | None = None) -> OrbitCamera:
    """A three-quarter view from slightly above, framed on the resting body; ``view`` overrides
    (azimuth_deg, elevation_deg, distance)."""
    params = body.params
    radius = float(params.radius)
    floor = float(params.floor_height)
    centre = np.asarray(params.center, dtype=np.float64)
    cam = OrbitCamera(
        distance=4.6 * radius,
        target=np.array([centre[0], floor + 0.7 * radius, centre[2]]),
        min_distance=1.05 * radius,
        max_distance=40.0 * radius,
    )
    if view is not None:
        cam.azimuth, cam.elevation, cam.distance = (float(v) for v in view)
    return cam


def follow(camera: OrbitCamera, body, rate: float = 0.08) -> None:
    """Ease the camera's target toward the body over the floor (x, z), so a slime that was pushed
    away stays in view; the height stays put, which keeps the floor steady on screen."""
    offset = body.centroid()[[0, 2]] - camera.target[[0, 2]]
    # A dead zone of a millimetre-scale: a camera that holds still keeps the cached backdrop valid.
    if np.max(np.abs(offset)) > 1e-3 * float(body.params.radius):
        camera.target[[0, 2]] += rate * offset


def _check_args(output, frames, size, pokes, camera, stacks, slices) -> tuple[Path, tuple[int, int]]:
    path, (width, height) = check_render_args(output, frames, size)
    for poke in pokes:
        tick, point, force = getattr(poke, "tick", None), getattr(poke, "point", None), getattr(poke, "force", None)
        if isinstance(tick, bool) or not isinstance(tick, (int, np.integer)) or not 0 <= tick < frames:
            raise ValueError(f"poke tick must be a frame number from 0 to {frames - 1}, got {tick!r}")
        for name, vec in (("point", point), ("force", force)):
            arr = np.asarray(vec, dtype=np.float64) if vec is not None else None
            if arr is None or arr.shape != (3,) or not np.all(np.isfinite(arr)):
                raise ValueError(f"poke {name} must be 3 finite numbers, got {vec!r}")
    if camera is not None:
        try:
            az, el, dist = (float(v) for v in camera)
        except (TypeError, ValueError):
            raise ValueError(f"camera must be (azimuth_deg, elevation_deg, distance), got {camera!r}") from None
        low, high = CAMERA_ELEVATION
        if not all(math.isfinite(v) for v in (az, el, dist)) or dist <= 0 or not low <= el <= high:
            raise ValueError(f"camera needs a distance > 0 and an elevation from {span(CAMERA_ELEVATION, 'degrees')}, got {camera!r}")
    low, high = RESOLUTION
    for name, value in (("stacks", stacks), ("slices", slices)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
            raise ValueError(f"{name} must be a whole number from {span(RESOLUTION)}, got {value!r}")
    return path, (width, height)


class HeadlessSlime:
    """Body + renderer + offscreen target: one ``frame()`` steps the physics and returns pixels.

    Shared by ``render_slime``, the render benchmark and the picture tests.
    """

    def __init__(self, *, size=(800, 600), stacks=None, slices=None, camera=None, samples: int = 4, body=None,
                 ctx=None, plain_forces: bool = False, shaders=None):
        from slime.render.slime_renderer import OffscreenTarget, SlimeRenderer

        self._owns_ctx = ctx is None
        self.ctx = ctx or create_headless_context()
        self.body = body if body is not None else make_body(stacks, slices, plain_forces)
        self.camera = default_camera(self.body, camera)
        self.size = (int(size[0]), int(size[1]))
        self.renderer = SlimeRenderer(
            self.ctx, self.body.triangles, self.body.strip, len(self.body.positions),
            floor_height=float(self.body.params.floor_height), shaders=shaders,
        )
        self.target = OffscreenTarget(self.ctx, self.size, samples=samples)

    def draw(self, *, wireframe: bool = False) -> np.ndarray:
        """Render the body as it is now; (H, W, 3) uint8, top row first."""
        self.renderer.update(self.body.positions)
        self.renderer.render(self.target.draw, self.camera, wireframe=wireframe, cache_backdrop=True)
        # RGBA reads straight from the framebuffer's layout; asking GL for RGB costs ~10x more on llvmpipe.
        return read_rgba(self.target.resolve(), components=4)[..., :3]

    def frame(self) -> np.ndarray:
        self.body.step()
        follow(self.camera, self.body)
        return self.draw()

    def release(self) -> None:
        self.renderer.release()
        self.target.release()
        if self._owns_ctx:
            self.ctx.release()


def render_slime(*, output, frames: int = 1, size=(800, 600), pokes=(), camera=None, stacks=None, slices=None,
                 progress: bool = True, samples: int = 4, plain_forces: bool = False, shaders=None) -> None:
    """Simulate ``frames`` frames (pokes applied at their tick, before that frame's step) and write
    the last frame (``.png``) or every frame (``.gif``, ``.mp4``, ``.webm``, streamed: memory does not
    grow with the frame count), atomically. Bad arguments raise ValueError with a one-line
    message; a missing OpenGL raises ``GLUnavailable``; shaders (from the folder ``shaders``,
    default the package's) that do not compile raise ``ShaderError``."""
    pokes = list(pokes or ())
    path, size = _check_args(output, frames, size, pokes, camera, stacks, slices)
    scene = HeadlessSlime(size=size, stacks=stacks, slices=slices, camera=camera, samples=samples,
                          plain_forces=plain_forces, shaders=shaders)
    try:
        schedule = poke_schedule(pokes)
        with open_frames(path, fps=1.0 / float(scene.body.params.dt)) as sink, \
                progress_bar(frames, progress, f"rendering {path.name}") as bar:
            for tick in range(frames):
                apply_pokes(scene.body, schedule, tick)
                scene.body.step()
                follow(scene.camera, scene.body)
                if sink.wants(tick, tick == frames - 1):
                    sink.add(scene.draw())
                bar.update(1)
    finally:
        scene.release()
