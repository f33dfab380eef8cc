"""The lone slime drawn by the slime renderer (``HeadlessSlime``: the render benchmark, the picture
tests, scripts), its camera (``default_camera``, ``follow``), and ``render_slime``: `slime render`'s
picture of it, which is ``render_world``'s of its scene."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from slime.app.render_common import headless_context
from slime.app.render_world import RENDER_CAMERA_WITHIN, keep_camera_outside
from slime.arguments import check_camera
from slime.render.camera import OrbitCamera
from slime.render.images import read_rgba
from slime.simulate import make_body


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
        moved = keep_camera_outside(self.camera, self.body.world, within=RENDER_CAMERA_WITHIN, to=fits)
        self.camera_moved = (start, self.camera.distance) if moved else None
        self.renderer = SlimeRenderer(
            self.ctx, self.body.triangles, self.body.strip, len(self.body.positions),
            floor_height=float(self.body.params.floor_height), shaders=shaders, look=look,
        )
        self.target = OffscreenTarget(self.ctx, self.size, samples=samples)

    def draw(self, *, wireframe: bool = False) -> np.ndarray:
        """Render the body as it is now; (H, W, 3) uint8, top row first."""
        keep_camera_outside(self.camera, self.body.world)
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
                 progress: bool = True, samples: int = 4, shaders=None, color=None, material=None) -> None:
    """``render_world`` of the lone slime's scene (``world_format.lone_slime_spec``) at ``stacks`` x
    ``slices``, coloured ``color`` (RGB 0..1 or ``#rrggbb``, see SlimeLook.with_color), made of
    ``material`` (a name of ``materials.py``, default jelly), poked by ``pokes`` (``Poke`` events,
    each at its tick, before that frame's step): the same run and picture as `slime render`'s."""
    from slime.app.render_world import render_world
    from slime.scenes.world_format import LONE_SLIME, lone_slime_spec

    spec = lone_slime_spec(stacks, slices, color).with_events(list(pokes or ()), LONE_SLIME)
    render_world(spec, output=output, frames=frames, size=size, camera=camera, progress=progress, samples=samples,
                 shaders=shaders, material=material)
