"""Render a world of slimes (a 3D scene file) without a window (EGL): a PNG of the last frame, or
an animated GIF or a video (.mp4, .webm) of every frame."""

from __future__ import annotations

import numpy as np

from slime.app.render_common import check_render_args, headless_context, progress_bar
from slime.framing import FRAME, FREE, Framer, scene_points, scene_view
from slime.render.camera import OrbitCamera
from slime.render.images import open_frames, read_rgba
from slime.scenes.world_scene import WorldScene, load_world


LID_COLOR = (0.80, 0.83, 0.86)
LID_THICKNESS = 0.05  # radii of the squashed slime: a plate, thin beside the body it holds down
LID_OVERHANG = 0.15  # radii the plate reaches past the body's footprint on every side


def world_lids(world) -> list[dict]:
    """Each lid a squash holds a slime under (World3D.squash), as a box obstacle for
    ``WorldRenderer.set_moving_obstacles``: a thin plate lying on the lid's height over its body's
    footprint. Read from the world's ``_lid`` rows (height, rise speed, end height) per body; none
    once every lid has gone."""
    lids = getattr(world, "_lid", None)
    if lids is None:
        return []
    plates = []
    positions = world.positions
    for index, body in enumerate(world.bodies):
        height = float(lids[0, index])
        if not np.isfinite(height):
            continue
        points = positions[body.start:body.stop]
        lo, hi = points.min(axis=0), points.max(axis=0)
        radius = float(body.params.radius)
        thick = 0.5 * LID_THICKNESS * radius
        half = 0.5 * (hi - lo) + LID_OVERHANG * radius
        plates.append({"center": (0.5 * (lo[0] + hi[0]), height + thick, 0.5 * (lo[2] + hi[2])),
                       "half_size": (float(half[0]), thick, float(half[2])), "color": LID_COLOR})
    return plates


def scene_camera(scene: WorldScene, view=None, aspect: float = 4.0 / 3.0) -> OrbitCamera:
    """The camera a scene opens on (``slime.framing.scene_view``), its home there."""
    return OrbitCamera.of_view(scene_view(scene_points(scene), aspect, scene.spec.camera, view),
                               min_distance=0.1, max_distance=1000.0)


class HeadlessWorld:
    """A world scene + the world renderer + an offscreen target: ``draw()`` returns pixels."""

    def __init__(self, scene: WorldScene, *, size=(800, 600), camera=None, samples: int = 4, ctx=None, shaders=None):
        from slime.render.world_renderer import WorldRenderer, bodies_of_world

        self._bodies_of_world = bodies_of_world
        self.ctx, self._owns_ctx, self.size = headless_context(ctx, size)
        self.scene = scene
        self.camera = camera if isinstance(camera, OrbitCamera) else scene_camera(scene, camera, self.size[0] / self.size[1])
        #: A scene without a camera (and none asked for) keeps itself framed as its slimes move.
        self.framer = Framer(self.camera, FRAME if camera is None and scene.spec.camera is None else FREE)
        self.renderer = WorldRenderer(self.ctx, floor_height=scene.spec.floor_height, samples=samples, shaders=shaders)
        self.renderer.set_obstacles(scene.drawn_obstacles)
        self.texture = self.ctx.texture(self.size, 4)
        self.fbo = self.ctx.framebuffer(color_attachments=[self.texture])

    def follow(self) -> None:
        """After a step: the camera eased toward the scene's new framing, where it frames itself."""
        self.framer.update(scene_points(self.scene), self.size[0] / self.size[1], self.scene.world.dt)

    def draw(self) -> np.ndarray:
        """The world as it is now; (H, W, 3) uint8, top row first."""
        self.renderer.update(self._bodies_of_world(self.scene.world, self.scene.looks()))
        self.renderer.set_moving_obstacles(world_lids(self.scene.world))
        self.renderer.render(self.fbo, self.camera)
        return np.ascontiguousarray(read_rgba(self.fbo, components=4)[..., :3])

    def release(self) -> None:
        for obj in (self.renderer, self.fbo, self.texture):
            obj.release()
        if self._owns_ctx:
            self.ctx.release()


def render_world(name_or_path, *, output, frames: int = 120, size=(800, 600), camera=None, progress: bool = True,
                 samples: int = 4, shaders=None, material: str | None = None) -> None:
    """Simulate a 3D scene for ``frames`` frames and write the last frame (``.png``) or every frame
    (``.gif``, ``.mp4``, ``.webm``, streamed), atomically. ``material``: what its slimes that name
    none are made of (default jelly). Bad arguments or scene files: a one-line ValueError
    (``WorldFileError`` for the file)."""
    path, size = check_render_args(output, frames, size)
    scene = load_world(name_or_path, material=material)
    headless = HeadlessWorld(scene, size=size, camera=camera, samples=samples, shaders=shaders)
    try:
        with open_frames(path, fps=1.0 / scene.world.dt) as sink, \
                progress_bar(frames, progress, f"rendering {path.name}") as bar:
            for tick in range(frames):
                scene.world.step()
                headless.follow()
                if sink.wants(tick, tick == frames - 1):
                    sink.add(headless.draw())
                bar.update(1)
    finally:
        headless.release()
