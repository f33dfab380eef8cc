"""Render the 3D slime without a window (EGL): a PNG of the last frame, or an animated GIF or a video
(.mp4, .webm) of every frame."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Sequence

import numpy as np

from slime.app.render_common import check_render_args, headless_context
from slime.arguments import check_camera
from slime.limits import RESOLUTION, span
from slime.render.camera import OrbitCamera
from slime.progress import progress_bar
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
        cam.azimuth, cam.elevation, cam.distance = check_camera(view)
    return cam


FOLLOW_HEIGHT_SLACK = 0.5  # radii the body's centre may rise or sink before the camera follows in y


def follow(camera: OrbitCamera, body, rate: float = 0.08) -> None:
    """Ease the camera's target toward the body, so a slime that was pushed away stays in view:
    over the floor (x, z) always; in height only past a slack of FOLLOW_HEIGHT_SLACK radii around
    the resting framing (the target sits 0.3 radii under the centre), so a body wobbling on the
    floor leaves the floor steady on screen while one that flies off (gravity off) stays framed."""
    radius = float(body.params.radius)
    centre = body.centroid()
    offset = centre[[0, 2]] - camera.target[[0, 2]]
    # A dead zone of a millimetre-scale: a camera that holds still keeps the cached backdrop valid.
    if np.max(np.abs(offset)) > 1e-3 * radius:
        camera.target[[0, 2]] += rate * offset
    rise = (centre[1] - 0.3 * radius) - camera.target[1]
    excess = np.sign(rise) * max(abs(rise) - FOLLOW_HEIGHT_SLACK * radius, 0.0)
    if abs(excess) > 1e-3 * radius:
        floor = float(body.params.floor_height)
        # Eased, but never trailing by more than half a radius: a slime thrown up fast stays in frame.
        step = rate * excess + np.sign(excess) * max(abs(excess) * (1.0 - rate) - 0.5 * radius, 0.0)
        camera.target[1] = max(camera.target[1] + step, floor)  # never below the floor


def keep_camera_outside(camera: OrbitCamera, body, *, within: float = 1.02, to: float | None = None) -> bool:
    """Where the camera is closer to the slime's centre than ``within`` times its radius (a
    ball around its centroid through its farthest vertex), move it out along its orbit to ``to``
    radii (default: ``within``); True when it moved. Inside, the picture would be all jelly."""
    positions = body.positions
    centre = positions.mean(axis=0)
    radius = float(np.sqrt(((positions - centre) ** 2).sum(axis=1).max()))
    return camera.keep_outside(centre, within * radius, to_radius=(to if to is not None else within) * radius)


# A render's camera closer to the slime's centre than this many radii (its surface a fraction of a
# radius away, filling the picture) is moved out to where the whole body fits in the view.
RENDER_CAMERA_WITHIN = 1.5


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
        check_camera(camera)
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
                 ctx=None, shaders=None, look=None, material=None):
        from slime.render.slime_renderer import OffscreenTarget, SlimeRenderer

        self.ctx, self._owns_ctx, self.size = headless_context(ctx, size)
        self.body = body if body is not None else make_body(stacks, slices, material)
        self.camera = default_camera(self.body, camera)
        #: A camera asked for stays where it was put; the default one follows the slime.
        self.follows = camera is None
        start = self.camera.distance
        #: Where a requested camera was inside the slime: (asked distance, distance moved out to).
        fits = 1.0 / math.sin(math.radians(self.camera.fov_y / 2.0))  # radii at which the body fills the height
        moved = keep_camera_outside(self.camera, self.body, within=RENDER_CAMERA_WITHIN, to=fits)
        self.camera_moved = (start, self.camera.distance) if moved else None
        self.renderer = SlimeRenderer(
            self.ctx, self.body.triangles, self.body.strip, len(self.body.positions),
            floor_height=float(self.body.params.floor_height), shaders=shaders, look=look,
        )
        self.target = OffscreenTarget(self.ctx, self.size, samples=samples)

    def draw(self, *, wireframe: bool = False) -> np.ndarray:
        """Render the body as it is now; (H, W, 3) uint8, top row first."""
        keep_camera_outside(self.camera, self.body)
        self.renderer.update(self.body.positions)
        self.renderer.render(self.target.draw, self.camera, wireframe=wireframe, cache_backdrop=True)
        # RGBA reads straight from the framebuffer's layout; asking GL for RGB costs ~10x more on llvmpipe.
        return read_rgba(self.target.resolve(), components=4)[..., :3]

    def frame(self) -> np.ndarray:
        self.body.step()
        self.follow()
        return self.draw()

    def follow(self) -> None:
        if self.follows:
            follow(self.camera, self.body)

    def release(self) -> None:
        self.renderer.release()
        self.target.release()
        if self._owns_ctx:
            self.ctx.release()


def render_slime(*, output, frames: int = 1, size=(800, 600), pokes=(), camera=None, stacks=None, slices=None,
                 progress: bool = True, samples: int = 4, shaders=None,
                 color=None, material=None) -> None:
    """Simulate ``frames`` frames (pokes applied at their tick, before that frame's step) and write
    the last frame (``.png``) or every frame (``.gif``, ``.mp4``, ``.webm``, streamed: memory does not
    grow with the frame count), atomically. ``color``: the jelly's colour (RGB 0..1 or ``#rrggbb``,
    see SlimeLook.with_color); ``material``: what the slime is made of (a name of ``materials.py``,
    default jelly). Bad arguments raise ValueError with a one-line message; a missing
    OpenGL raises ``GLUnavailable``; shaders (from the folder ``shaders``, default the package's)
    that do not compile raise ``ShaderError``. A camera inside the slime is moved out along its
    orbit, with one line on stderr."""
    from slime.look import slime_look
    from slime.physics.slime3d.materials import find_material

    pokes = list(pokes or ())
    path, size = _check_args(output, frames, size, pokes, camera, stacks, slices)
    if material is not None:
        find_material(material)  # an unknown name: one line, before any GL
    look = slime_look(color)
    scene = HeadlessSlime(size=size, stacks=stacks, slices=slices, camera=camera, samples=samples,
                          shaders=shaders, look=look, material=material)
    if scene.camera_moved is not None:
        asked, moved = scene.camera_moved
        print(f"slime: a camera distance of {asked:g} is inside the slime; moved out to {moved:.2f}",
              file=sys.stderr)
    try:
        schedule = poke_schedule(pokes)
        with open_frames(path, fps=1.0 / float(scene.body.params.dt)) as sink, \
                progress_bar(frames, progress, f"rendering {path.name}") as bar:
            for tick in range(frames):
                apply_pokes(scene.body, schedule, tick)
                scene.body.step()
                scene.follow()
                if sink.wants(tick, tick == frames - 1):
                    sink.add(scene.draw())
                bar.update(1)
    finally:
        scene.release()
