"""The slime scene: sky, checker floor with a contact shadow, and the translucent jelly body.

Works on any framebuffer (a window's screen or an offscreen one). Per frame: ``update(positions)``
recomputes the smooth normals and writes positions + normals into one preallocated float32
buffer (``buffer.write``, never reallocated), then ``render(fbo, camera)`` draws the body as one
indexed triangle strip whose latitude bands are separated by the primitive-restart index
0xFFFFFFFF (primitive restart is on in moderngl's contexts; tests/test_render_slime.py checks on
screen that the strip covers exactly the pixels of the triangle list, no bridges between bands).
"""

from __future__ import annotations

import moderngl
import numpy as np

from slime.look import SlimeLook
from slime.mesh import VertexNormals
from slime.render.camera import OrbitCamera
from slime.render.context import OffscreenTarget
from slime.render.shader_files import set_uniform, shader_folder
from slime.render.world_renderer import (JELLY_DEPTH_UNIT, LIGHT_DEPTH_UNIT, LIGHT_OPTICS_UNIT, LIGHT_PASS_UNIT,
                                         ellipsoid_inverse, fit_ellipsoid, set_backdrop_look, set_jelly_look)

__all__ = ["OffscreenTarget", "SlimeLook", "SlimeRenderer"]


class SlimeRenderer:
    """Draws the scene into any framebuffer, in three passes:

    1. the sky and floor into a texture of the viewport's size, kept while the camera holds still,
       and from it into the target (a copy where size and sampling match, else a textured pass);
    2. the contact shadow, multiplied into its patch of floor;
    3. the jelly over its front faces, reading the sky-and-floor texture where the refracted ray
       lands (times the contact shadow there) and absorbing by the thickness of the body under
       each pixel (see ``SlimeLook`` for the model).

    The thickness comes from the body's bounding ellipsoid, refitted in ``update`` (principal axes
    of the vertices, radii from their extent): exact for a sphere, thin where the body is
    squashed, and one quadratic per pixel. A pass over the back faces into a float texture would
    follow dents too, but costs a frame's worth of float blending on a software rasteriser.
    """

    shader_names = ("slime", "backdrop", "present", "shadow")

    def __init__(self, ctx: moderngl.Context, triangles, strip, vertex_count: int, *, floor_height: float = 0.0,
                 look: SlimeLook | None = None, shaders=None):
        """``shaders``: the folder the programs come from (default: the package's; see
        slime.render.shader_files); ``use_programs`` swaps in recompiled ones (live shaders)."""
        self.ctx = ctx
        self.floor_height = float(floor_height)
        self.shadow_halo = True  # the contact shadow's soft halo (off: a cheaper shadow)
        self.shaders = shader_folder(shaders)
        corners = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], dtype="f4")
        self._shadow_vbo = ctx.buffer(corners.tobytes())
        # The backdrop without the shadow, at the viewport's size, kept while the camera stays.
        self._cache = None
        self._vbo = self._ibo = self._vao = None
        self._backdrop_vao = self._present_vao = self._shadow_vao = None
        self.slime_prog = self.backdrop_prog = self.present_prog = self.shadow_prog = None
        self._look = look or SlimeLook()
        self.use_programs(self.shaders.programs(ctx, self.shader_names))
        self.set_mesh(triangles, strip, vertex_count)
        self.look = self._look

    def use_programs(self, programs: dict) -> None:
        """Draw with these programs (name -> program) from now on; the old ones are released."""
        for obj in (self._vao, self._backdrop_vao, self._present_vao, self._shadow_vao, self.slime_prog,
                    self.backdrop_prog, self.present_prog, self.shadow_prog):
            if obj is not None:
                obj.release()
        self.slime_prog, self.backdrop_prog, self.present_prog, self.shadow_prog = (
            programs[n] for n in self.shader_names)
        ctx = self.ctx
        self._backdrop_vao = ctx.vertex_array(self.backdrop_prog, [])  # a full-screen triangle from gl_VertexID
        self._present_vao = ctx.vertex_array(self.present_prog, [])
        # skip_errors: an edited shader may stop using an input, and the compiler then drops it.
        self._shadow_vao = ctx.vertex_array(self.shadow_prog, [(self._shadow_vbo, "2f", "in_xz")], skip_errors=True)
        self._vao = None
        if self._vbo is not None:
            self._build_body_vao()
            self._set_look_uniforms()
        self._release_cache()  # the backdrop may look different now

    def _build_body_vao(self) -> None:
        self._vao = self.ctx.vertex_array(self.slime_prog, [(self._vbo, "3f 3f", "in_position", "in_normal")],
                                          index_buffer=self._ibo, index_element_size=4, skip_errors=True)

    @property
    def look(self) -> SlimeLook:
        return self._look

    @look.setter
    def look(self, look: SlimeLook) -> None:
        """A new look applies from the next frame (the cached backdrop is redrawn with it)."""
        self._look = look
        self._set_look_uniforms()
        self._release_cache()

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
        self._build_body_vao()
        self._shadow = (0.0, 0.0, 1.0, 1.0)
        self._shadow_lift = 0.0
        self._shadow_depth = 1.0

    def update(self, positions: np.ndarray) -> None:
        """Upload this frame's surface: positions, fresh normals, and the shadow's footprint."""
        positions = np.asarray(positions)
        normals = self.normals(positions, out=self._normal_scratch)
        self._vertex_data[:, :3] = positions
        self._vertex_data[:, 3:] = normals
        self._vbo.write(self._vertex_data)

        centre = positions.mean(axis=0)
        self._shadow, self._shadow_lift, self._shadow_depth = contact_shadow(positions, centre, self.floor_height,
                                                                             self.look.key_dir)
        self._fit_ellipsoid(positions, centre)

    def _fit_ellipsoid(self, positions: np.ndarray, centre: np.ndarray) -> None:
        self.ellipsoid = fit_ellipsoid(positions, centre)
        set_uniform(self.slime_prog, "u_body_center", tuple(self.ellipsoid[0]))
        set_uniform(self.slime_prog, "u_body_inverse", ellipsoid_inverse(self.ellipsoid))

    # --- drawing ------------------------------------------------------------------------------
    def _set_look_uniforms(self) -> None:
        look = self.look
        sp = self.slime_prog
        set_jelly_look(sp, look)
        set_uniform(sp, "u_behind", 0)
        light_map_off(sp)
        bp = self.backdrop_prog
        set_backdrop_look(bp, look)
        for prog in (sp, self.shadow_prog):
            set_uniform(prog, "u_shadow_tint", tuple(look.shadow_tint))
        set_uniform(self.shadow_prog, "u_fog_distance", look.fog_distance)

    def render(self, fbo: moderngl.Framebuffer, camera: OrbitCamera, *, viewport=None, wireframe: bool = False,
               cache_backdrop: bool = False) -> None:
        """Draw the whole scene into ``fbo`` (viewport defaults to the whole framebuffer).

        ``cache_backdrop``: keep the sky and floor while the camera does not move (else they are
        redrawn every frame). On a software rasteriser the full-screen backdrop is most of a frame,
        and copying it back is a small fraction of drawing it.

        No depth buffer is needed: the backdrop covers every pixel, and the camera never goes
        below the floor (OrbitCamera keeps its elevation >= 0 above a target over the floor), so
        the floor never hides any of the slime, which always lies above it.
        """
        ctx = self.ctx
        viewport = tuple(int(v) for v in (viewport or (0, 0, *fbo.size)))
        size = (max(viewport[2], 1), max(viewport[3], 1))
        aspect = size[0] / size[1]
        view, proj = camera.gl_matrices(aspect)
        eye = tuple(camera.eye())
        attachments = getattr(fbo, "color_attachments", ())
        samples = int(getattr(attachments[0], "samples", 0)) if attachments else -1
        copyable = samples >= 0 and viewport == (0, 0, *fbo.size)

        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE | moderngl.BLEND)
        ctx.wireframe = False
        # 1. The backdrop without the shadow: kept in textures while the camera stays.
        texture, sources = self._backdrop(camera, size, samples if copyable else 0, fresh=not cache_backdrop)
        # 2. Into the target: a copy where size and sampling match, else a textured pass.
        if copyable:
            ctx.copy_framebuffer(fbo, sources[samples])
        else:
            self.present(texture, fbo, viewport)
        # 3. The contact shadow, multiplied into its patch of floor.
        fbo.use()
        ctx.viewport = viewport
        halo = 1.0 if self.shadow_halo else 0.0
        shp = self.shadow_prog
        set_uniform(shp, "u_view", view)
        set_uniform(shp, "u_proj", proj)
        set_uniform(shp, "u_eye", eye)
        set_uniform(shp, "u_floor_height", self.floor_height)
        for prog in (shp, self.slime_prog):
            set_uniform(prog, "u_shadow", self._shadow)
            set_uniform(prog, "u_shadow_lift", self._shadow_lift)
            set_uniform(prog, "u_shadow_halo", halo)
            set_uniform(prog, "u_shadow_depth", self._shadow_depth)
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.DST_COLOR, moderngl.ZERO
        self._shadow_vao.render(moderngl.TRIANGLE_STRIP)
        ctx.blend_func = moderngl.DEFAULT_BLENDING
        ctx.disable(moderngl.BLEND)

        # 4. The jelly, reading the backdrop texture where its refracted rays land (the texture
        # was drawn before this frame while the camera holds still, so reading it does not make a
        # software rasteriser finish this frame's drawing halfway; the shadow it adds itself).
        sp = self.slime_prog
        set_uniform(sp, "u_view", view)
        set_uniform(sp, "u_proj", proj)
        set_uniform(sp, "u_view_proj", (view.astype(np.float64) @ proj.astype(np.float64)).astype("f4"))
        set_uniform(sp, "u_eye", eye)
        set_uniform(sp, "u_floor_height", self.floor_height)
        set_uniform(sp, "u_viewport", tuple(float(v) for v in viewport))
        if wireframe:
            set_uniform(sp, "u_wireframe", 1)
            ctx.wireframe = True
            self._vao.render(moderngl.TRIANGLE_STRIP)
            ctx.wireframe = False
            return
        set_uniform(sp, "u_wireframe", 0)
        texture.use(location=0)
        ctx.enable(moderngl.CULL_FACE)
        ctx.cull_face = "back"
        try:
            self._vao.render(moderngl.TRIANGLE_STRIP)
        finally:
            ctx.disable(moderngl.CULL_FACE)

    def present(self, texture: moderngl.Texture, fbo: moderngl.Framebuffer, viewport) -> None:
        """Draw ``texture`` over ``fbo``'s ``viewport`` (a textured full-screen triangle), linearly
        filtered where the sizes differ: a reduced-scale frame onto a window."""
        ctx = self.ctx
        viewport = tuple(int(v) for v in viewport)
        fbo.use()
        ctx.viewport = viewport
        ctx.disable(moderngl.BLEND | moderngl.CULL_FACE | moderngl.DEPTH_TEST)
        same = tuple(texture.size) == tuple(viewport[2:])
        kept = texture.filter  # the jelly reads the backdrop texture linearly filtered: put it back after
        texture.filter = (moderngl.NEAREST, moderngl.NEAREST) if same else (moderngl.LINEAR, moderngl.LINEAR)
        texture.use(location=0)
        set_uniform(self.present_prog, "u_image", 0)
        set_uniform(self.present_prog, "u_viewport", tuple(float(v) for v in viewport))
        self._present_vao.render(moderngl.TRIANGLES, vertices=3)
        texture.filter = kept

    def _draw_backdrop(self, camera: OrbitCamera, aspect: float) -> None:
        bp = self.backdrop_prog
        set_uniform(bp, "u_inv_view_proj", np.linalg.inv(camera.view_projection(aspect)).astype("f4"))
        set_uniform(bp, "u_eye", tuple(camera.eye()))
        set_uniform(bp, "u_floor_height", self.floor_height)
        self._backdrop_vao.render(moderngl.TRIANGLES, vertices=3)

    def _backdrop(self, camera: OrbitCamera, size, samples: int, *, fresh: bool):
        """The backdrop without the shadow at ``size``: (texture, {samples: framebuffer}), a
        single-sampled texture the jelly reads, and a copy with the target's sampling to copy
        from; redrawn when the camera, the size or the look changed, or when ``fresh``."""
        key = (tuple(np.round(camera.eye(), 9)), tuple(np.round(camera.target, 9)), camera.fov_y, self.floor_height)
        if self._cache is None or self._cache["size"] != tuple(size):
            self._release_cache()
            texture = self.ctx.texture(tuple(size), 4)
            texture.repeat_x = texture.repeat_y = False  # a refracted ray past the edge reads the edge
            texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
            self._cache = {"size": tuple(size), "key": None, "texture": texture,
                           "fbos": {0: self.ctx.framebuffer(color_attachments=[texture])}}
        cache = self._cache
        fbos = cache["fbos"]
        if samples not in fbos:
            color = self.ctx.renderbuffer(tuple(size), 4, samples=samples)
            fbos[samples] = self.ctx.framebuffer(color_attachments=[color])
            cache["key"] = None
        if fresh or cache["key"] != key:
            fbos[0].use()
            self.ctx.viewport = (0, 0, *size)
            self._draw_backdrop(camera, size[0] / size[1])
            for n, fbo in fbos.items():
                if n:
                    # Multisampled copies are plain copies of the same pixels (every sample alike):
                    # the backdrop is box-filtered already and needs no multisampling.
                    self.present(cache["texture"], fbo, (0, 0, *size))
            cache["key"] = key
        return cache["texture"], fbos

    def _release_cache(self) -> None:
        if self._cache is not None:
            for n, fbo in self._cache["fbos"].items():
                if n:
                    for att in fbo.color_attachments:
                        att.release()
                fbo.release()
            self._cache["texture"].release()
            self._cache = None

    def release(self) -> None:
        self._release_cache()
        for obj in (self._vao, self._vbo, self._ibo, self._backdrop_vao, self._present_vao, self._shadow_vao,
                    self._shadow_vbo, self.slime_prog, self.backdrop_prog, self.present_prog, self.shadow_prog):
            obj.release()


def light_map_off(program) -> None:
    """No shadow map: light_shadow.glsl lights everything. Its samplers still get units of their
    own, as GL refuses a draw with a 2D and a shadow sampler on one unit (u_behind's 0)."""
    set_uniform(program, "u_light_on", 0)
    set_uniform(program, "u_light_depth", LIGHT_DEPTH_UNIT)
    set_uniform(program, "u_light_pass", LIGHT_PASS_UNIT)
    set_uniform(program, "u_jelly_depth", JELLY_DEPTH_UNIT)
    set_uniform(program, "u_light_optics", LIGHT_OPTICS_UNIT)


def contact_shadow(positions: np.ndarray, centre: np.ndarray, floor_height: float, key_dir) -> tuple:
    """The contact shadow's footprint for shadow.glsl: ((x, z, half_x, half_z), lift, depth)."""
    lo = positions.min(axis=0)
    hi = positions.max(axis=0)
    half = np.maximum(0.5 * (hi - lo), 1e-3)
    # The key light comes from above and slightly in front: shift the shadow away from it by
    # the centroid's height, a little (a long hard offset looks wrong on a soft blob).
    height = centre[1] - floor_height
    key_dir = np.asarray(key_dir)
    offset = -key_dir[[0, 2]] / max(key_dir[1], 0.05) * 0.15 * height
    footprint = (centre[0] + offset[0], centre[2] + offset[1], half[0] * 1.05, half[2] * 1.05)
    lift = float(lo[1] - floor_height)
    depth = float(np.clip((hi[1] - lo[1]) / max(hi[0] - lo[0], hi[2] - lo[2], 1e-6), 0.0, 1.0))
    return footprint, lift, depth
