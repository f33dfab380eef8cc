"""Draws imgui-bundle's draw data with moderngl, serving imgui >= 1.92's texture protocol.

imgui 1.92 no longer hands out one font atlas image up front: every frame it lists textures to
create, update or destroy (ImTextureData requests), and each draw command carries a texture
reference. moderngl-window 3.1's own integration still calls the removed
``get_tex_data_as_rgba32``, so both windows draw their panels with this class instead.
"""

from __future__ import annotations

import ctypes

import moderngl
import numpy as np

from slime.render.shader_files import set_uniform, shader_folder


class ImguiRenderer:
    """One program, a growing vertex/index buffer pair and the textures imgui asked for."""

    shader_names = ("imgui",)

    def __init__(self, ctx: moderngl.Context, imgui, *, shaders=None):
        self.ctx, self.imgui = ctx, imgui
        io = imgui.get_io()
        io.backend_flags |= imgui.BackendFlags_.renderer_has_textures
        pio = imgui.get_platform_io()
        limit = int(ctx.info["GL_MAX_TEXTURE_SIZE"])
        pio.renderer_texture_max_width = pio.renderer_texture_max_height = limit
        self.prog = self._vao = None
        self.use_programs(shader_folder(shaders).programs(ctx, self.shader_names))
        self._vbo = ctx.buffer(reserve=imgui.VERTEX_SIZE * 4096, dynamic=True)
        self._ibo = ctx.buffer(reserve=imgui.INDEX_SIZE * 8192, dynamic=True)
        self._vao = None
        self._textures: dict[int, moderngl.Texture] = {}
        self._next_id = 1  # 0 is imgui's "no texture"

    def use_programs(self, programs: dict) -> None:
        """Draw with this recompiled program ({"imgui": program}); the old one is released."""
        for obj in (self._vao, self.prog):
            if obj is not None:
                obj.release()
        self.prog, self._vao = programs["imgui"], None  # the vertex array is rebuilt on the next draw
        set_uniform(self.prog, "u_texture", 0)

    def _ensure(self, vertices: int, indices: int) -> None:
        """Buffers of at least these many bytes (doubling), and a vertex array over them."""
        if self._vao is not None and self._vbo.size >= vertices and self._ibo.size >= indices:
            return
        if self._vbo.size < vertices:
            self._vbo.orphan(max(vertices, 2 * self._vbo.size))
        if self._ibo.size < indices:
            self._ibo.orphan(max(indices, 2 * self._ibo.size))
        if self._vao is not None:
            self._vao.release()
        self._vao = self.ctx.vertex_array(
            self.prog, [(self._vbo, "2f 2f 4f1", "in_pos", "in_uv", "in_color")],
            index_buffer=self._ibo, index_element_size=self.imgui.INDEX_SIZE, skip_errors=True,
        )

    def _update_textures(self) -> None:
        status = self.imgui.ImTextureStatus
        for tex in self.imgui.get_platform_io().textures:
            if tex.status == status.want_updates and tex.tex_id not in self._textures:
                # Made by an earlier window's renderer in this process (imgui keeps its font
                # atlas across contexts): this renderer has no copy of it yet, so it takes it whole.
                tex.status = status.want_create
            if tex.status == status.want_create:
                pixels = np.asarray(tex.get_pixels_array()).reshape(tex.height, tex.width, 4)
                gl_tex = self.ctx.texture((tex.width, tex.height), 4, np.ascontiguousarray(pixels).tobytes())
                key = self._next_id
                self._next_id += 1
                self._textures[key] = gl_tex
                tex.set_tex_id(key)
                tex.status = status.ok
            elif tex.status == status.want_updates:
                # Only the rectangles imgui changed (a glyph rasterised on first use) are uploaded.
                gl_tex = self._textures[tex.tex_id]
                pixels = np.asarray(tex.get_pixels_array()).reshape(tex.height, tex.width, 4)
                for r in tex.updates:
                    block = np.ascontiguousarray(pixels[r.y:r.y + r.h, r.x:r.x + r.w])
                    gl_tex.write(block.tobytes(), viewport=(r.x, r.y, r.w, r.h))
                tex.status = status.ok
            elif tex.status == status.want_destroy:
                gl_tex = self._textures.pop(tex.tex_id, None)
                if gl_tex is not None:
                    gl_tex.release()
                tex.set_tex_id(0)
                tex.status = status.destroyed

    def render(self, draw_data, buffer_size, window_size) -> None:
        """Draw over the current framebuffer: imgui lays out in window points (``window_size``),
        the framebuffer has ``buffer_size`` pixels (more on HiDPI screens)."""
        imgui, ctx = self.imgui, self.ctx
        self._update_textures()
        width, height = window_size
        fb_w, fb_h = buffer_size
        if width <= 0 or height <= 0:
            return
        sx, sy = fb_w / width, fb_h / height
        proj = np.array([[2.0 / width, 0, 0, 0], [0, -2.0 / height, 0, 0], [0, 0, -1, 0], [-1, 1, 0, 1]], "f4")
        set_uniform(self.prog, "u_proj", proj)
        ctx.viewport = (0, 0, fb_w, fb_h)
        ctx.enable(moderngl.BLEND)
        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.blend_equation = moderngl.FUNC_ADD
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        ctx.wireframe = False
        for commands in draw_data.cmd_lists:
            vsize = commands.vtx_buffer.size() * imgui.VERTEX_SIZE
            isize = commands.idx_buffer.size() * imgui.INDEX_SIZE
            self._ensure(vsize, isize)
            self._vbo.write(ctypes.string_at(commands.vtx_buffer.data_address(), vsize))
            self._ibo.write(ctypes.string_at(commands.idx_buffer.data_address(), isize))
            for command in commands.cmd_buffer:
                texture = self._textures.get(command.tex_ref.get_tex_id())
                if texture is None:
                    continue
                texture.use(0)
                x0, y0, x1, y1 = command.clip_rect
                ctx.scissor = (int(x0 * sx), int(fb_h - y1 * sy), int((x1 - x0) * sx), int((y1 - y0) * sy))
                self._vao.render(moderngl.TRIANGLES, vertices=command.elem_count, first=command.idx_offset)
        ctx.scissor = None
        ctx.disable(moderngl.BLEND)

    def release(self) -> None:
        for tex in self._textures.values():
            tex.release()
        self._textures.clear()
        for obj in (self._vao, self._vbo, self._ibo, self.prog):
            if obj is not None:
                obj.release()
