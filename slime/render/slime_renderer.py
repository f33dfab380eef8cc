"""The slime scene: sky, checker floor with a contact shadow, and the translucent jelly body.

Works on any framebuffer (a window's screen or an offscreen one). Per frame: ``update(positions)``
recomputes the smooth normals and writes positions + normals into one preallocated float32
buffer (``buffer.write``, never reallocated), then ``render(fbo, camera)`` draws the body as one
indexed triangle strip whose latitude bands are separated by the primitive-restart index
0xFFFFFFFF (primitive restart is on in moderngl's contexts; tests/test_render_slime.py checks on
screen that the strip covers exactly the pixels of the triangle list, no bridges between bands).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import moderngl
import numpy as np

from slime.render.camera import OrbitCamera
from slime.render.normals import VertexNormals
from slime.render.shader_files import load_program

# Blend factors for dual-source blending (GL 3.3 core); moderngl has no names for them.
GL_SRC1_COLOR = 0x88F9


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v)


@dataclass
class SlimeLook:
    """Colours and lights; the defaults make a green-teal jelly on a pale floor."""

    absorb: tuple = (4.0, 1.0, 1.7)  # red absorbed most: the floor shows through green-teal
    deep_color: tuple = (0.06, 0.50, 0.34)
    glow_color: tuple = (0.50, 1.00, 0.66)
    shadow_tint: tuple = (0.35, 0.48, 0.42)
    key_dir: np.ndarray = field(default_factory=lambda: _unit([-0.45, 1.0, 0.55]))
    fill_dir: np.ndarray = field(default_factory=lambda: _unit([0.6, 0.35, -0.9]))
    sky_top: tuple = (0.62, 0.76, 0.90)
    sky_horizon: tuple = (0.93, 0.94, 0.93)
    checker_cell: float = 0.4
    fog_distance: float = 14.0


class SlimeRenderer:
    def __init__(self, ctx: moderngl.Context, triangles, strip, vertex_count: int, *, floor_height: float = 0.0,
                 look: SlimeLook | None = None):
        self.ctx = ctx
        self.look = look or SlimeLook()
        self.floor_height = float(floor_height)
        self.slime_prog = load_program(ctx, "slime")
        self.backdrop_prog = load_program(ctx, "backdrop")
        self._backdrop_vao = ctx.vertex_array(self.backdrop_prog, [])  # a full-screen triangle from gl_VertexID
        self.shadow_prog = load_program(ctx, "shadow")
        corners = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], dtype="f4")
        self._shadow_vbo = ctx.buffer(corners.tobytes())
        self._shadow_vao = ctx.vertex_array(self.shadow_prog, [(self._shadow_vbo, "2f", "in_xz")])
        # The backdrop without the shadow, kept while the camera and framebuffer stay the same.
        self._cache = None  # (key, framebuffer)

        self._vbo = self._ibo = self._vao = None
        self.set_mesh(triangles, strip, vertex_count)
        self._set_static_uniforms()

    # --- mesh ---------------------------------------------------------------------------------
    def set_mesh(self, triangles, strip, vertex_count: int) -> None:
        """(Re)build the GPU buffers for a topology; call again when the resolution changes."""
        for obj in (self._vao, self._vbo, self._ibo):
            if obj is not None:
                obj.release()
        self.vertex_count = int(vertex_count)
        self.normals = VertexNormals(triangles, self.vertex_count)
        self._vertex_data = np.zeros((self.vertex_count, 6), dtype="f4")  # position | normal
        self._normal_scratch = np.empty((self.vertex_count, 3), dtype=np.float64)
        self._vbo = self.ctx.buffer(reserve=self._vertex_data.nbytes, dynamic=True)
        self._ibo = self.ctx.buffer(np.ascontiguousarray(strip, dtype="u4").tobytes())
        self.index_count = len(strip)
        self._vao = self.ctx.vertex_array(
            self.slime_prog,
            [(self._vbo, "3f 3f", "in_position", "in_normal")],
            index_buffer=self._ibo,
            index_element_size=4,
        )
        self._shadow = (0.0, 0.0, 1.0, 1.0)
        self._shadow_lift = 0.0

    def update(self, positions: np.ndarray) -> None:
        """Upload this frame's surface: positions, fresh normals, and the shadow's footprint."""
        positions = np.asarray(positions)
        normals = self.normals(positions, out=self._normal_scratch)
        self._vertex_data[:, :3] = positions
        self._vertex_data[:, 3:] = normals
        self._vbo.write(self._vertex_data)

        lo = positions.min(axis=0)
        hi = positions.max(axis=0)
        centre = positions.mean(axis=0)
        half = np.maximum(0.5 * (hi - lo), 1e-3)
        # The key light comes from above and slightly in front: shift the shadow away from it by
        # the centroid's height, a little (a long hard offset looks wrong on a soft blob).
        height = centre[1] - self.floor_height
        offset = -self.look.key_dir[[0, 2]] / self.look.key_dir[1] * 0.15 * height
        self._shadow = (centre[0] + offset[0], centre[2] + offset[1], half[0] * 1.05, half[2] * 1.05)
        self._shadow_lift = float(lo[1] - self.floor_height)

    # --- drawing ------------------------------------------------------------------------------
    def _set_static_uniforms(self) -> None:
        look = self.look
        sp = self.slime_prog
        sp["u_key_dir"].value = tuple(look.key_dir)
        sp["u_fill_dir"].value = tuple(look.fill_dir)
        sp["u_absorb"].value = look.absorb
        sp["u_deep_color"].value = look.deep_color
        sp["u_glow_color"].value = look.glow_color
        bp = self.backdrop_prog
        bp["u_cell"].value = look.checker_cell
        bp["u_shadow_tint"].value = look.shadow_tint
        bp["u_sky_top"].value = look.sky_top
        bp["u_horizon"].value = look.sky_horizon
        bp["u_fog_distance"].value = look.fog_distance
        shp = self.shadow_prog
        shp["u_shadow_tint"].value = look.shadow_tint
        shp["u_fog_distance"].value = look.fog_distance

    def render(self, fbo: moderngl.Framebuffer, camera: OrbitCamera, *, viewport=None, wireframe: bool = False,
               cache_backdrop: bool = False) -> None:
        """Draw the whole scene into ``fbo`` (viewport defaults to the whole framebuffer).

        ``cache_backdrop``: keep the sky and floor in an offscreen framebuffer while the camera
        does not move, copy it in each frame and multiply only the shadow's patch of floor. On a
        software rasteriser the full-screen backdrop is most of a frame (11 ms of 17 at 800x600 on
        llvmpipe) and the copy is 0.2 ms. For offscreen framebuffers; the copy needs the same
        size and sample count, so a window's own framebuffer draws it directly.

        No depth buffer is needed: the backdrop covers every pixel, and the camera never goes
        below the floor (OrbitCamera keeps its elevation >= 0 above a target over the floor), so
        the floor never hides any of the slime, which always lies above it.
        """
        ctx = self.ctx
        fbo.use()
        viewport = viewport or (0, 0, *fbo.size)
        ctx.viewport = viewport
        aspect = viewport[2] / max(viewport[3], 1)
        view, proj = camera.gl_matrices(aspect)
        eye = tuple(camera.eye())

        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE | moderngl.BLEND)
        ctx.wireframe = False
        whole = tuple(viewport) == (0, 0, *fbo.size)
        if cache_backdrop and whole:
            self._cached_backdrop(fbo, camera, aspect)
            fbo.use()
            ctx.viewport = viewport
            shp = self.shadow_prog
            shp["u_view"].write(view)
            shp["u_proj"].write(proj)
            shp["u_eye"].value = eye
            shp["u_floor_height"].value = self.floor_height
            shp["u_shadow"].value = self._shadow
            shp["u_shadow_lift"].value = self._shadow_lift
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = moderngl.DST_COLOR, moderngl.ZERO
            self._shadow_vao.render(moderngl.TRIANGLE_STRIP)
            ctx.disable(moderngl.BLEND)
        else:
            self._draw_backdrop(camera, aspect, shadow=True)

        sp = self.slime_prog
        sp["u_view"].write(view)
        sp["u_proj"].write(proj)
        sp["u_eye"].value = eye
        if wireframe:
            sp["u_wireframe"].value = 1
            ctx.wireframe = True
            self._vao.render(moderngl.TRIANGLE_STRIP)
            ctx.wireframe = False
            return

        # Jelly: the front surface multiplies what is behind by its transmittance and adds its glow.
        sp["u_wireframe"].value = 0
        ctx.enable(moderngl.BLEND | moderngl.CULL_FACE)
        ctx.cull_face = "back"
        ctx.blend_func = moderngl.ONE, GL_SRC1_COLOR
        try:
            self._vao.render(moderngl.TRIANGLE_STRIP)
        finally:
            ctx.blend_func = moderngl.DEFAULT_BLENDING
            ctx.disable(moderngl.BLEND | moderngl.CULL_FACE)

    def _draw_backdrop(self, camera: OrbitCamera, aspect: float, *, shadow: bool) -> None:
        bp = self.backdrop_prog
        bp["u_inv_view_proj"].write(np.linalg.inv(camera.view_projection(aspect)).astype("f4"))
        bp["u_eye"].value = tuple(camera.eye())
        bp["u_floor_height"].value = self.floor_height
        bp["u_shadow"].value = self._shadow
        bp["u_shadow_lift"].value = self._shadow_lift
        bp["u_shadow_strength"].value = 1.0 if shadow else 0.0
        self._backdrop_vao.render(moderngl.TRIANGLES, vertices=3)

    def _cached_backdrop(self, fbo: moderngl.Framebuffer, camera: OrbitCamera, aspect: float) -> None:
        samples = fbo.color_attachments[0].samples
        key = (tuple(fbo.size), samples, tuple(np.round(camera.eye(), 9)), tuple(np.round(camera.target, 9)),
               camera.fov_y, self.floor_height)
        if self._cache is None or self._cache[0] != key:
            if self._cache is None or self._cache[0][:2] != key[:2]:
                self._release_cache()
                color = self.ctx.renderbuffer(fbo.size, 4, samples=samples)
                self._cache = (key, self.ctx.framebuffer(color_attachments=[color]))
            cache_fbo = self._cache[1]
            self._cache = (key, cache_fbo)
            cache_fbo.use()
            self.ctx.viewport = (0, 0, *fbo.size)
            self._draw_backdrop(camera, aspect, shadow=False)
        self.ctx.copy_framebuffer(fbo, self._cache[1])

    def _release_cache(self) -> None:
        if self._cache is not None:
            fbo = self._cache[1]
            for att in fbo.color_attachments:
                att.release()
            fbo.release()
            self._cache = None

    def release(self) -> None:
        self._release_cache()
        for obj in (self._vao, self._vbo, self._ibo, self._backdrop_vao, self._shadow_vao, self._shadow_vbo,
                    self.slime_prog, self.backdrop_prog, self.shadow_prog):
            obj.release()


class OffscreenTarget:
    """A framebuffer to render into headless, resolved to a plain one for reading.

    Multisampled renderbuffers read back black; with ``samples > 0`` the scene is drawn into the
    multisampled framebuffer and ``copy_framebuffer`` resolves it before ``read``.
    """

    def __init__(self, ctx: moderngl.Context, size, samples: int = 4):
        self.ctx = ctx
        self.size = (int(size[0]), int(size[1]))
        self.samples = int(samples)
        # Colour only: the scene needs no depth buffer (see SlimeRenderer.render).
        self.resolved = ctx.framebuffer(color_attachments=[ctx.renderbuffer(self.size, 4)])
        if self.samples > 0:
            self.draw = ctx.framebuffer(color_attachments=[ctx.renderbuffer(self.size, 4, samples=self.samples)])
        else:
            self.draw = self.resolved

    def resolve(self) -> moderngl.Framebuffer:
        if self.draw is not self.resolved:
            self.ctx.copy_framebuffer(self.resolved, self.draw)
        return self.resolved

    def release(self) -> None:
        fbos = {id(self.draw): self.draw, id(self.resolved): self.resolved}
        for fbo in fbos.values():
            for att in fbo.color_attachments:
                att.release()
            if fbo.depth_attachment is not None:
                fbo.depth_attachment.release()
            fbo.release()
