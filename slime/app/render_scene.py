"""`slime render NAME`: step a 2D scene headless (EGL) and write its last frame as PNG or every frame
as an animated GIF or a video, drawn exactly as the window draws it (same renderer, same HUD)."""

from __future__ import annotations

import numpy as np

from slime.app.render_common import check_frames, check_gl_size, check_render_args, check_size
from slime.render.context import create_headless_context
from slime.render.draw2d import Renderer2D, scene_view
from slime.render.images import open_frames, read_rgba
from slime.render.text import TextOverlay
from slime.scenes import load_scene
from slime.scenes.base import Scene2D, drawing_of
from slime.problems import report_problems
from slime.progress import progress_bar

STEPS_PER_SECOND = 60  # the window's fixed timestep; GIFs and videos play them in real time
HUD_MARGIN = 8


class SceneFrames:
    """Draws one scene into an offscreen framebuffer of exactly ``size`` pixels."""

    def __init__(self, ctx, size: tuple[int, int], *, shaders=None):
        self.ctx = ctx
        self.size = size
        self.fbo = ctx.simple_framebuffer(size, components=4)
        self.renderer = Renderer2D(ctx, shaders=shaders)
        self.text = TextOverlay(ctx, shaders=shaders)

    def draw(self, scene: Scene2D) -> np.ndarray:
        """The scene's current state as (H, W, 4) uint8, top row first."""
        self.fbo.use()
        self.ctx.viewport = (0, 0, *self.size)
        self.fbo.clear(*scene.background)
        w, h = self.size
        hud = scene.hud()
        # The text is sized for an 800 x 600 picture; a smaller one gets smaller text (down to 60 %).
        scale = min(1.0, max(0.6, min(w / 800.0, h / 600.0)))
        margin = round(HUD_MARGIN * scale)
        top = 0
        if hud and scene.hud_above:
            top = min(h // 2, self.text.measure(hud, scale=scale)[1] + margin)
        # GL's viewport origin is the bottom-left: this leaves the top ``top`` rows to the HUD.
        self.ctx.viewport = (0, 0, w, h - top)
        # The view drawn with, and the rows above it, so a test can find world points in the picture.
        self.view, self.world_top = scene_view(scene, (w, h - top)), top
        self.renderer.draw(drawing_of(scene), self.view, stroke_world=scene.stroke)
        self.ctx.viewport = (0, 0, w, h)
        self.hud_box = (0, 0, 0, 0)  # (x, y, w, h) of the HUD's panel, top-left origin
        if hud:
            self.hud_box = (margin, margin, *self.text.draw(hud, margin, margin, self.size, scale=scale))
        return read_rgba(self.fbo)

    def release(self) -> None:
        self.renderer.release()
        self.text.release()
        self.fbo.release()


def render_frames(scene: Scene2D, sink, *, frames: int, size: tuple[int, int], progress: bool = False,
                  shaders=None) -> None:
    """Step ``scene`` ``frames`` times, drawing the frames ``sink`` (a FrameWriter) wants into it.
    ``shaders``: the shader folder (default: the package's)."""
    frames, size = check_frames(frames), check_size(size)  # as the command checks them: a script calls this too
    ctx = create_headless_context()
    try:
        check_gl_size(ctx, size)
        painter = SceneFrames(ctx, size, shaders=shaders)
        with progress_bar(frames, progress) as bar:
            for i in range(frames):
                scene.unattended(i)
                scene.step()
                # A PNG wants only the last frame and a 50 fps GIF five in six: skip the other draws.
                if sink.wants(i, i == frames - 1):
                    sink.add(painter.draw(scene))
                bar.update(1)
        painter.release()
    finally:
        ctx.release()


class _LastFrame:
    """A frame sink that keeps only the last frame."""

    picture = None

    def wants(self, index: int, last: bool) -> bool:
        return last

    def add(self, picture) -> None:
        self.picture = picture


def render_picture(scene: Scene2D, *, frames: int, size: tuple[int, int], shaders=None) -> np.ndarray:
    """Step ``scene`` ``frames`` times and return its last frame, (H, W, 4) uint8, top row first:
    a picture of your own scene for a report, without writing a file."""
    sink = _LastFrame()
    render_frames(scene, sink, frames=frames, size=size, shaders=shaders)
    return sink.picture


def render_scene(name_or_path: str, *, output, frames: int = 120, size=(800, 600), progress: bool = True,
                 shaders=None) -> None:
    """Load a 2D scene (registry name or model file), step it ``frames`` times, and write ``output``:
    a .png of the last frame or a .gif/.mp4/.webm of every frame (streamed), exactly ``size``
    pixels, atomically."""
    output, size = check_render_args(output, frames, size)
    scene = load_scene(name_or_path)
    scene.headless()
    with open_frames(output, fps=STEPS_PER_SECOND) as sink:
        render_frames(scene, sink, frames=frames, size=size, progress=progress, shaders=shaders)
    report_problems(scene)


__all__ = ["render_scene", "render_frames", "render_picture", "SceneFrames"]
