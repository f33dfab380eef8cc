"""Render a world of slimes (a 3D scene file) without a window (EGL): a PNG of the last frame, or
an animated GIF or a video (.mp4, .webm) of every frame."""

from __future__ import annotations

import numpy as np

from slime.app.render_common import check_render_args, headless_context, progress_bar
from slime.render.camera import OrbitCamera
from slime.render.images import open_frames, read_rgba
from slime.scenes.world_scene import WorldScene, load_world


def scene_camera(scene: WorldScene, view=None) -> OrbitCamera:
    """The camera the scene file asks for; ``view`` (azimuth_deg, elevation_deg, distance) overrides."""
    spec = scene.spec.camera
    cam = OrbitCamera(distance=4.6, target=np.array([0.0, 0.7, 0.0]), min_distance=0.1, max_distance=1000.0)
    if spec is not None:
        cam.azimuth, cam.elevation, cam.distance = float(spec.yaw), float(spec.elevation), float(spec.distance)
        cam.target = np.asarray(spec.target, dtype=np.float64).copy()
    if view is not None:
        cam.azimuth, cam.elevation, cam.distance = (float(v) for v in view)
    return cam


class HeadlessWorld:
    """A world scene + the world renderer + an offscreen target: ``draw()`` returns pixels."""

    def __init__(self, scene: WorldScene, *, size=(800, 600), camera=None, samples: int = 4, ctx=None, shaders=None):
        from slime.render.world_renderer import WorldRenderer, bodies_of_world

        self._bodies_of_world = bodies_of_world
        self.ctx, self._owns_ctx, self.size = headless_context(ctx, size)
        self.scene = scene
        self.camera = camera if isinstance(camera, OrbitCamera) else scene_camera(scene, camera)
        self.renderer = WorldRenderer(self.ctx, floor_height=scene.spec.floor_height, samples=samples, shaders=shaders)
        self.renderer.set_obstacles(scene.drawn_obstacles)
        self.texture = self.ctx.texture(self.size, 4)
        self.fbo = self.ctx.framebuffer(color_attachments=[self.texture])

    def draw(self) -> np.ndarray:
        """The world as it is now; (H, W, 3) uint8, top row first."""
        self.renderer.update(self._bodies_of_world(self.scene.world, self.scene.looks()))
        self.renderer.render(self.fbo, self.camera)
        return np.ascontiguousarray(read_rgba(self.fbo, components=4)[..., :3])

    def release(self) -> None:
        for obj in (self.renderer, self.fbo, self.texture):
            obj.release()
        if self._owns_ctx:
            self.ctx.release()


def render_world(name_or_path, *, output, frames: int = 120, size=(800, 600), camera=None, progress: bool = True,
                 samples: int = 4, shaders=None) -> None:
    """Simulate a 3D scene for ``frames`` frames and write the last frame (``.png``) or every frame
    (``.gif``, ``.mp4``, ``.webm``, streamed), atomically. Bad arguments or scene files: a one-line
    ValueError (``WorldFileError`` for the file)."""
    path, size = check_render_args(output, frames, size)
    scene = load_world(name_or_path)
    headless = HeadlessWorld(scene, size=size, camera=camera, samples=samples, shaders=shaders)
    try:
        with open_frames(path, fps=1.0 / scene.world.dt) as sink, \
                progress_bar(frames, progress, f"rendering {path.name}") as bar:
            for tick in range(frames):
                scene.world.step()
                if sink.wants(tick, tick == frames - 1):
                    sink.add(headless.draw())
                bar.update(1)
    finally:
        headless.release()
