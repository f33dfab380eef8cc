"""`slime render NAME`: step a 2D scene headless (EGL) and write its last frame as PNG or every frame
as an animated GIF, drawn exactly as the window draws it (same renderer, same HUD)."""

from __future__ import annotations

import numpy as np

from slime.app.render_common import ProgressBar, check_gl_size, check_output
from slime.render.context import create_headless_context
from slime.render.draw2d import Renderer2D, View2D
from slime.render.images import read_rgba, save_gif, save_png
from slime.render.text import TextOverlay
from slime.scenes import load_scene
from slime.scenes.base import Scene2D
from slime.simulate import report_problems

STEPS_PER_SECOND = 60  # the window's fixed timestep; a GIF plays them in real time (save_gif)
HUD_MARGIN = 8


class SceneFrames:
    """Draws one scene into an offscreen framebuffer of exactly ``size`` pixels."""

    def __init__(self, ctx, size: tuple[int, int]):
        self.ctx = ctx
        self.size = size
        self.fbo = ctx.simple_framebuffer(size, components=4)
        self.renderer = Renderer2D(ctx)
        self.text = TextOverlay(ctx)

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
        self.renderer.draw(scene.draw_list(), View2D(tuple(scene.bounds), bool(scene.y_down), (w, h - top)))
        self.ctx.viewport = (0, 0, w, h)
        if hud:
            self.text.draw(hud, margin, margin, self.size, scale=scale)
        return read_rgba(self.fbo)

    def release(self) -> None:
        self.renderer.release()
        self.text.release()
        self.fbo.release()


def render_frames(scene: Scene2D, *, frames: int, size: tuple[int, int], every_frame: bool, progress: bool = False):
    """Step ``scene`` ``frames`` times and draw it; returns every frame (RGB) or just the last."""
    ctx = create_headless_context()
    try:
        check_gl_size(ctx, size)
        painter = SceneFrames(ctx, size)
        bar = ProgressBar(frames, progress)
        images = []
        last = None
        for i in range(frames):
            scene.unattended(i)
            scene.step()
            # A GIF needs every frame; a PNG only the last, so skip the draws in between.
            if every_frame or i == frames - 1:
                last = painter.draw(scene)
                if every_frame:
                    images.append(last[..., :3].copy())
            bar.update(i + 1)
        painter.release()
        return images if every_frame else last
    finally:
        ctx.release()


def render_scene(name_or_path: str, *, output, frames: int = 120, size=(800, 600), progress: bool = True) -> None:
    """Load a 2D scene (registry name or model file), step it ``frames`` times, and write ``output``:
    a .png of the last frame or a .gif of every frame, exactly ``size`` pixels, atomically."""
    output, size = check_output(output, frames, size)
    scene = load_scene(name_or_path)
    if output.suffix.lower() == ".gif":
        save_gif(output, render_frames(scene, frames=frames, size=size, every_frame=True, progress=progress), fps=STEPS_PER_SECOND)
    else:
        save_png(output, render_frames(scene, frames=frames, size=size, every_frame=False, progress=progress))
    report_problems(scene)


__all__ = ["render_scene", "render_frames", "SceneFrames"]
