"""A text overlay: lines rasterised with Pillow's scalable default font into an RGBA texture, drawn
as a screen-space quad with alpha. Used for the 2D scenes' HUD and help, and the 3D demo's help.

Rasterising costs far more than drawing, so textures are cached by content (lines, size,
background): a HUD whose text does not change is uploaded once.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache

import moderngl
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from slime.render.shader_files import load_program

TEXT_COLOR = (25, 25, 30, 255)
BACKGROUND_COLOR = (255, 255, 255, 200)
BASE_FONT_PX = 15
PADDING_PX = 6
LINE_GAP = 1.25  # line height as a multiple of the font size


@lru_cache(maxsize=16)
def _font(size_px: int):
    return ImageFont.load_default(size=size_px)


def rasterize(lines: tuple[str, ...], size_px: int, background: bool | float) -> np.ndarray:
    """The lines as an (H, W, 4) uint8 straight-alpha image, top row first; dark text, optionally on
    a translucent white panel so it stays readable over the scene (``background`` True for the
    default opacity, or an opacity in 0..1).

    Tabs split a line into columns aligned across all lines (the font is proportional, so spaces
    cannot line up a key list)."""
    font = _font(size_px)
    pad = max(2, round(PADDING_PX * size_px / BASE_FONT_PX))
    gap = round(size_px * 0.8)
    step = max(1, round(size_px * LINE_GAP))
    cells = [line.split("\t") for line in lines]
    ncols = max(len(c) for c in cells)
    # A column is as wide as its widest cell among lines that continue past it.
    col_w = [
        max((font.getlength(c[k]) for c in cells if len(c) > k + 1), default=0.0) for k in range(ncols - 1)
    ]
    col_x = np.concatenate([[0.0], np.cumsum(np.asarray(col_w) + gap)]) if ncols > 1 else np.zeros(1)
    width = max((col_x[len(c) - 1] + font.getlength(c[-1]) for c in cells), default=0.0)
    w = int(np.ceil(width)) + 2 * pad
    h = step * len(lines) + 2 * pad
    if background is True:
        fill = BACKGROUND_COLOR
    elif background:
        fill = BACKGROUND_COLOR[:3] + (round(255 * min(max(float(background), 0.0), 1.0)),)
    else:
        fill = (0, 0, 0, 0)
    image = Image.new("RGBA", (max(w, 1), max(h, 1)), fill)
    draw = ImageDraw.Draw(image)
    for i, row in enumerate(cells):
        for k, cell in enumerate(row):
            draw.text((pad + col_x[k], pad + i * step), cell, font=font, fill=TEXT_COLOR)
    return np.asarray(image)


class TextOverlay:
    """``draw(lines, x, y, viewport_size)`` puts the text's top-left corner at pixel (x, y) from the
    viewport's top-left; returns the drawn (width, height) in pixels so callers can stack panels.
    ``scale`` multiplies the font size (pass the window's pixel ratio on HiDPI screens); tabs in
    lines align columns; ``background`` is a translucent white panel (True) or its opacity."""

    def __init__(self, ctx: moderngl.Context, *, cache_size: int = 32):
        self.ctx = ctx
        self.program = load_program(ctx, "text")
        self.program["u_image"].value = 0
        corners = np.array([(0, 0), (1, 0), (0, 1), (1, 1)], dtype="f4")
        self._corners = ctx.buffer(corners.tobytes())
        self._vao = ctx.vertex_array(self.program, [(self._corners, "2f", "in_corner")])
        self._cache: OrderedDict[tuple, moderngl.Texture] = OrderedDict()
        self._cache_size = cache_size
        self.rasterized = 0  # how many textures were made; lets tests see the cache working

    def _texture(self, lines: tuple[str, ...], size_px: int, background: bool) -> moderngl.Texture:
        key = (lines, size_px, background)
        texture = self._cache.get(key)
        if texture is not None:
            self._cache.move_to_end(key)
            return texture
        pixels = rasterize(lines, size_px, background)
        texture = self.ctx.texture((pixels.shape[1], pixels.shape[0]), 4, pixels.tobytes())
        # Drawn at exactly one texel per pixel, so nearest filtering keeps glyphs crisp.
        texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.rasterized += 1
        self._cache[key] = texture
        while len(self._cache) > self._cache_size:
            _, old = self._cache.popitem(last=False)
            old.release()
        return texture

    def draw(self, lines, x: float, y: float, viewport_size, scale: float = 1.0, background: bool | float = True):
        lines = tuple(str(line) for line in lines)
        if not lines:
            return (0, 0)
        size_px = max(6, round(BASE_FONT_PX * scale))
        texture = self._texture(lines, size_px, background)
        w, h = texture.size
        self.program["u_viewport"].value = (float(viewport_size[0]), float(viewport_size[1]))
        # Whole pixels, so texels land on pixels.
        self.program["u_origin"].value = (float(round(x)), float(round(y)))
        self.program["u_size"].value = (float(w), float(h))
        self.ctx.enable_only(moderngl.BLEND)
        self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        texture.use(0)
        self._vao.render(moderngl.TRIANGLE_STRIP)
        return (w, h)

    def measure(self, lines, scale: float = 1.0, background: bool | float = True) -> tuple[int, int]:
        """The (width, height) in pixels ``draw`` would cover, e.g. to right-align a panel."""
        lines = tuple(str(line) for line in lines)
        if not lines:
            return (0, 0)
        return self._texture(lines, max(6, round(BASE_FONT_PX * scale)), background).size

    def release(self) -> None:
        for texture in self._cache.values():
            texture.release()
        self._cache.clear()
        self._vao.release()
        self._corners.release()
        self.program.release()


__all__ = ["TextOverlay", "rasterize"]
