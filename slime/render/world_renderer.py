"""A world of translucent slimes among opaque obstacles, drawn correctly from every camera.

Every pass that reads the key light's maps draws with a variant of its program compiled for the
maps it reads this frame (``_light_defines``; a software rasteriser pays for both sides of a
branch), and a map that no pass reads is not drawn (a lone slime's own maps are its optical depth's).

A frame, into the renderer's own framebuffer (colour and depth, with the target's multisampling):

0. **The key light's shadow maps** (``light`` program): the finite obstacles (boxes, balls, a
   squash's lid; not planes, which have no edge to hold), then the slimes, seen from the key light
   (an orthographic view along ``SlimeLook.key_dir`` fitted to them and the floor under them) into
   two depth textures, the slimes' with a colour texture of the nearest one's shadow tint and
   number; and the jelly's optical depth along the light, every slime's faces added up
   (``optical_depth`` program: Beer-Lambert's exponent of the light's path through the jelly, which
   fades to nothing at a slime's rim, so its shadow has no hard edge). Its texels are ``LIGHT_TEXEL`` metres where the scene is small enough (a sub-square of
   the ``LIGHT_MAP_SIZE`` textures), so shadow edges are a few centimetres soft at every scene
   size. ``shaders/light_shadow.glsl`` reads them for every receiver below: an obstacle blocks the
   light, a slime lets through what its jelly on the way absorbs not (on a slime behind it, its
   tint, ``JELLY_PASS``), a point behind both is behind both; a slime's own surface does not
   shadow it.
1. **Backdrop**: the sky and checker floor (``backdrop`` program, analytic to the horizon), kept in
   a copy while the camera holds still (on a software rasteriser it is most of a frame), with a
   cleared depth: blitting it in starts the frame, colour and depth, with no clear.
2. **Obstacles** (``obstacle`` program): boxes, balls and planes, opaque, depth-tested (and cut
   where sunk into the floor: the camera stays above it), lit by the look's key and fill lights
   and the sky's in linear light on their colour decoded from sRGB (a scene's ``#rrggbb`` keeps
   its hue, as Blender shows it from the glTF); the key light as the shadow map lets it through. Then the moving ones
   (``set_moving_obstacles``: a squash's lid), the same way.
3. **Shadows on the floor** (``floor_shadow`` program): one quad on the floor where the map's square
   meets it and around every slime, multiplied in: ``FLOOR_SHADE`` (the sky's light alone) behind
   an obstacle, the key light's share as the jelly lets it through behind a slime, and under each
   slime on the floor a soft contact shadow (``CONTACT_SHADE``: the sky it hides). Depth-tested against the obstacles, so a wall hides the floor
   behind it with whatever shadow lies there (and those pixels cost nothing).
4. **The slimes, back to front** by the eye's distance to each one's ellipsoid centre, re-sorted
   every frame (the order flips as the camera orbits). Each is drawn with the single-slime jelly
   (``slime`` program: Beer-Lambert through its ellipsoid, screen-space refraction, per-slime
   ``SlimeLook``), reading as "what is behind" a single-sampled texture of the frame so far: the
   backdrop, the shadows, the obstacles and every slime behind it. A slime seen through another is
   therefore absorbed and refracted by the front one, and so are obstacles.

The texture is refreshed from the frame (a resolving blit) only where needed: once after the
obstacles over where any slime will read (every slime's screen rectangle, widened by what
refraction may reach, ``REFRACTION_MARGIN``), then before a slime only where its widened rectangle
overlaps a slime drawn since the last refresh, and only over the rectangles involved (a
scissored blit). Slimes apart on screen cost one copy of their reach in all; a row of slimes one
behind another, one small copy each. ``stats`` counts them per frame. On a software
rasteriser a full resolving copy of a multisampled frame is a large part of drawing a slime, so
copying only where needed matters most with many slimes (tests/render/test_world_render.py prints both
ways for 16 slimes).

The floor's shadows seen through the jelly are those already in the texture it reads.

The jelly (``slime`` program) takes its key light through the shadow map too: a slime behind
another, or under a board or a lid, is lit only by what gets through.

Plain data in, pixels out: a slime is ``(positions (P, 3), strip (uint32, restart-separated, local
indices), SlimeLook or None)``; an obstacle is an object of a kind in ``slime.obstacle_kinds.KINDS``
or a mapping of one (``slime.obstacle_mesh``): ``center, half_size, rotation`` (a box;
``rotation``'s columns are the box's axes in the world), ``center, radius`` (a ball), ``point,
normal`` (a plane, drawn as a large square), ``kind: "cylinder", center, radius, half_height,
rotation``..., each with an optional ``color`` (RGB 0..1 or ``#rrggbb``). No physics here.
"""

from __future__ import annotations

import math

import moderngl
import numpy as np
from pyrr import Matrix44

from slime.limits import DRAWN_SLIMES, range_text
from slime.look import SlimeLook
from slime.mesh import VertexNormals
from slime.framing import scene_view, world_points
from slime.obstacle_mesh import is_plane, obstacle_mesh
from slime.render.camera import OrbitCamera
from slime.render.shader_files import ShaderError, set_uniform, shader_folder

__all__ = ["WorldRenderer", "bodies_of_world", "obstacle_mesh", "render_world_picture", "strip_triangles"]

RESTART = 0xFFFFFFFF
LIGHT_MAP_SIZE = 1024  # texels a side of the key light's shadow map textures
# Metres a texel of the map covers, where the scene is small enough: the shadows' edges are some
# six centimetres soft whatever the scene's size (a larger one gets the whole map, sharper per
# metre). The maps are drawn every frame: at 8 mm a lone slime's took a software rasteriser as
# long as its jelly.
LIGHT_TEXEL = 0.016
FLOOR_SHADE = 0.55  # what of its brightness the floor keeps behind an obstacle: the sky's share of its light
# Of the sky's light on the floor right under a slime at rest on it, the share its body hides
# (floor_shadow.frag's contact shadow): most, not all, as light scatters in through the jelly.
CONTACT_SHADE = 0.8
# Half-extents from a slime's centre where its contact shadow has faded out (from its box's side
# at 1): a little past the body, so that a wall beside it, which the shadow does not see, is seldom
# between the body and that floor.
CONTACT_REACH = 1.6
# How fast a slime's contact shadow fades as it lifts off the floor, per half-width of lift: gone
# to a twelfth at one half-width.
CONTACT_LIFT = 2.5
# The key light through a slime, on what it shades (another slime, an obstacle): its shadow tint
# taken this far toward white. Jelly is translucent: a slime behind another stays a lit jelly.
JELLY_PASS = 0.5
# How far, as a share of its screen rectangle's larger side, a slime's refracted rays may land
# outside that rectangle (SlimeLook.refraction_depth 1.2 at index 1.33 bends a ray by well under this).
REFRACTION_MARGIN = 0.25


def set_jelly_look(program, look) -> None:
    """The jelly's look (SlimeLook) as the slime program's uniforms: lights, colours, optics."""
    set_uniform(program, "u_key_dir", tuple(look.key_dir))
    set_uniform(program, "u_fill_dir", tuple(look.fill_dir))
    set_uniform(program, "u_absorption", tuple(look.absorption))
    set_uniform(program, "u_deep_color", tuple(look.deep_color))
    set_uniform(program, "u_glow_color", tuple(look.glow_color))
    set_uniform(program, "u_glow", look.glow)
    set_uniform(program, "u_rim", look.rim)
    set_uniform(program, "u_fresnel", look.fresnel)
    set_uniform(program, "u_highlight", look.highlight)
    set_uniform(program, "u_shininess", look.shininess)
    set_uniform(program, "u_ior", look.refraction)
    set_uniform(program, "u_refraction_depth", look.refraction_depth)


def set_backdrop_look(program, look) -> None:
    """The sky's and the floor's look (SlimeLook) as the backdrop program's uniforms."""
    set_uniform(program, "u_cell", look.checker_cell)
    set_uniform(program, "u_floor_light", tuple(look.floor_light))
    set_uniform(program, "u_floor_dark", tuple(look.floor_dark))
    set_uniform(program, "u_sky_top", tuple(look.sky_top))
    set_uniform(program, "u_horizon", tuple(look.sky_horizon))
    set_uniform(program, "u_fog_distance", look.fog_distance)


# light_shadow.glsl's texture units (0: the jelly's u_behind). GL refuses a draw with a 2D and a
# shadow sampler on one unit, so each sampler has a unit of its own whether or not a map is drawn.
LIGHT_DEPTH_UNIT, LIGHT_PASS_UNIT, JELLY_DEPTH_UNIT, LIGHT_OPTICS_UNIT = 1, 2, 3, 4


def fit_ellipsoid(positions: np.ndarray, centre: np.ndarray) -> tuple:
    """The body's bounding ellipsoid for the jelly's thickness, (centre, axes, radii): axes along
    the principal directions of the vertices, centred on their extent along each axis and sized to
    hold them all."""
    offsets = positions.T - centre[:, None]  # (3, N): numpy is fast along long rows, slow on (N, 3)
    _, axes = np.linalg.eigh(offsets @ offsets.T)
    along = axes.T @ offsets
    lo, hi = along.min(axis=1), along.max(axis=1)
    radii = np.maximum(0.5 * (hi - lo), 1e-4)
    middle = 0.5 * (hi + lo)
    # Grown until every vertex is inside (a flat-bottomed body pokes out of the ellipsoid
    # through its box's faces): a point of the surface outside would read as no thickness.
    scaled = (along - middle[:, None]) / radii[:, None]
    scaled *= scaled
    radii *= max(float(np.sqrt(scaled.sum(axis=0).max())), 1.0)
    return centre + axes @ middle, axes, radii


def ellipsoid_inverse(ellipsoid) -> np.ndarray:
    """The map from world offsets to the ellipsoid's unit sphere, diag(1 / radii) @ axes.T, laid
    out for a GLSL mat3 (column-major)."""
    _, axes, radii = ellipsoid
    inverse = (axes / radii).T
    return np.ascontiguousarray(inverse.T, dtype="f4")


def strip_triangles(strip) -> np.ndarray:
    """The triangles (M, 3) a restart-separated strip draws, wound as GL draws them (every other
    one swapped), degenerate ones dropped."""
    s = np.asarray(strip, dtype=np.int64).reshape(-1)
    n = s.size
    index = np.arange(n)
    last_restart = np.maximum.accumulate(np.where(s == RESTART, index, -1))
    place = index - last_restart - 1  # position within its run; -1 on a restart
    k = index[place >= 2]
    odd = (place[k] % 2) == 1
    a = np.where(odd, s[k - 1], s[k - 2])
    b = np.where(odd, s[k - 2], s[k - 1])
    tris = np.stack([a, b, s[k]], axis=1)
    keep = (tris[:, 0] != tris[:, 1]) & (tris[:, 1] != tris[:, 2]) & (tris[:, 0] != tris[:, 2])
    return tris[keep]


def light_view_projection(key_dir, lo, hi) -> tuple[np.ndarray, float]:
    """The key light's view of the box ``lo``..``hi`` (row-vector, float64, as pyrr's): an
    orthographic view along ``-key_dir`` that just holds the box, nearest the light at depth 0;
    and the metres across the square it sees."""
    key = np.asarray(key_dir, dtype=np.float64)
    key = key / np.linalg.norm(key)
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    centre = 0.5 * (lo + hi)
    reach = max(float(np.linalg.norm(hi - lo)), 1e-3)
    up = np.array([0.0, 0.0, 1.0]) if abs(key[1]) > 0.99 else np.array([0.0, 1.0, 0.0])
    view = np.asarray(Matrix44.look_at(centre + key * reach, centre, up))
    corners = np.array([[x, y, z, 1.0] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    seen = corners @ view
    (x0, y0, z0), (x1, y1, z1) = seen[:, :3].min(axis=0), seen[:, :3].max(axis=0)
    pad = 0.02 * reach
    # Depths along -z in the light's view: near at the box's top toward the light, far past its bottom.
    proj = np.asarray(Matrix44.orthogonal_projection(x0 - pad, x1 + pad, y0 - pad, y1 + pad, -z1 - pad, -z0 + pad))
    return view @ proj, float(max(x1 - x0, y1 - y0) + 2.0 * pad)


class _ProgramArrays:
    """One buffer's vertex arrays, one per program that draws it (each variant of a program,
    ``WorldRenderer._program``, is a program of its own), made when first drawn."""

    def __init__(self, ctx, content, index_buffer=None):
        self.ctx, self.content, self.index_buffer = ctx, content, index_buffer
        self._arrays = {}

    def __call__(self, program):
        vao = self._arrays.get(program.glo)
        if vao is None:
            vao = self.ctx.vertex_array(program, self.content, index_buffer=self.index_buffer, index_element_size=4,
                                        skip_errors=True)
            self._arrays[program.glo] = vao
        return vao

    def release(self) -> None:
        """Every array released (before their programs or their buffer are)."""
        for vao in self._arrays.values():
            vao.release()
        self._arrays.clear()


# --- one slime's buffers ----------------------------------------------------------------------------
class _SlimeBuffers:
    """A slime's vertex buffer (position | normal), its strip and vertex array; rebuilt only when
    its strip or vertex count changes."""

    def __init__(self, ctx, light_program, optics_program, strip: np.ndarray, vertex_count: int):
        self.strip = strip
        self.vertex_count = vertex_count
        self.normals = VertexNormals(strip_triangles(strip), vertex_count)
        self.vertex_data = np.zeros((vertex_count, 6), dtype="f4")
        self.scratch = np.empty((vertex_count, 3), dtype=np.float64)
        self.vbo = ctx.buffer(reserve=self.vertex_data.nbytes, dynamic=True)
        self.ibo = ctx.buffer(np.ascontiguousarray(strip, dtype="u4").tobytes())
        #: The jelly's vertex arrays, by program.
        self.drawn = _ProgramArrays(ctx, [(self.vbo, "3f 3f", "in_position", "in_normal")], self.ibo)
        self.light_vao = self.optics_vao = None
        self.bind(ctx, light_program, optics_program)

    def bind(self, ctx, light_program, optics_program) -> None:
        """Vertex arrays for the key light's maps (the jelly's are made as drawn)."""
        self.drawn.release()
        for vao in (self.light_vao, self.optics_vao):
            if vao is not None:
                vao.release()
        self.light_vao = ctx.vertex_array(light_program, [(self.vbo, "3f 12x", "in_position")],
                                          index_buffer=self.ibo, index_element_size=4, skip_errors=True)
        self.optics_vao = ctx.vertex_array(optics_program, [(self.vbo, "3f 12x", "in_position")],
                                           index_buffer=self.ibo, index_element_size=4, skip_errors=True)

    def fits(self, strip: np.ndarray, vertex_count: int) -> bool:
        return vertex_count == self.vertex_count and (strip is self.strip or np.array_equal(strip, self.strip))

    def upload(self, positions: np.ndarray) -> None:
        self.vertex_data[:, :3] = positions
        self.vertex_data[:, 3:] = self.normals(positions, out=self.scratch)
        self.vbo.write(self.vertex_data)

    def release(self) -> None:
        self.drawn.release()
        for obj in (self.light_vao, self.optics_vao, self.vbo, self.ibo):
            obj.release()


def _check_bodies(bodies) -> list:
    bodies = list(bodies)
    low, high = DRAWN_SLIMES
    if not low <= len(bodies) <= high:
        raise ValueError(f"a world draws {range_text(DRAWN_SLIMES)} slimes, got {len(bodies)}")
    checked = []
    for number, body in enumerate(bodies):
        try:
            positions, strip, look = body
        except (TypeError, ValueError):
            raise ValueError(f"slime {number} must be (positions, strip, look), got {type(body).__name__}") from None
        positions = np.asarray(positions, dtype=np.float64)
        if positions.ndim != 2 or positions.shape[1] != 3 or len(positions) < 4 or not np.all(np.isfinite(positions)):
            raise ValueError(f"slime {number}: positions must be (P, 3) finite numbers with P >= 4, "
                             f"got shape {positions.shape}")
        strip = np.asarray(strip)
        used = strip[strip != RESTART].astype(np.int64) if strip.size else strip
        if strip.ndim != 1 or strip.size < 3 or used.min() < 0 or used.max() >= len(positions):
            raise ValueError(f"slime {number}: strip must be a 1-D index strip into its {len(positions)} vertices")
        if look is not None and not isinstance(look, SlimeLook):
            raise ValueError(f"slime {number}: look must be a SlimeLook or None, got {type(look).__name__}")
        checked.append((positions, strip, look))
    return checked


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class WorldRenderer:
    """Draws N slimes and static obstacles over the sky and floor into any framebuffer; see the
    module's docstring for the passes. ``set_obstacles`` once (or when they change), ``update``
    with the slimes every frame, then ``render``."""

    shader_names = ("slime", "backdrop", "present", "obstacle", "floor_shadow", "light", "optical_depth")

    def __init__(self, ctx: moderngl.Context, *, floor_height: float | None = 0.0, look: SlimeLook | None = None,
                 samples: int = 4, shaders=None):
        """``look``: the scene's sky, floor and lights, and the jelly of a slime given without its
        own; ``samples``: the multisampling where the target does not say (a window's screen);
        ``floor_height`` None: no floor (sky all round, no floor shadows)."""
        self.ctx = ctx
        self.floor_height = None if floor_height is None else float(floor_height)
        self.look = look or SlimeLook()
        self.samples = int(samples)
        self.cache_backdrop = True
        #: Refresh the "behind" texture only where a slime needs it (False: a full copy before every slime).
        self.copy_only_where_needed = True
        #: Draw the slimes back to front from the eye (False: in the order given; for comparisons).
        self.sort_back_to_front = True
        #: Soft shadow edges (False: one tap of the light's map, a harder edge; the window's lowest quality).
        self.shadow_halo = True
        #: The slimes as their triangles' edges (the window's W key).
        self.wireframe = False
        #: Draw with a variant of each program compiled for what it reads this frame (False: the
        #: programs as the files give them, which read what the uniforms say; for comparisons).
        self.compile_variants = True
        self.stats = {"copies": 0, "copied_pixels": 0}
        self.shaders = shader_folder(shaders)
        self._bodies: list[_SlimeBuffers] = []
        self._fits: list[tuple] = []
        self._looks: list[SlimeLook] = []
        self._targets = None
        self._behind_filled = False  # the texture the jelly reads has had a whole frame copied in
        self._backdrop_key = None
        self._obstacle_rows = np.zeros((0, 9), dtype="f4")
        self._obstacle_vbo = self._obstacle_vao = self._obstacle_light_vao = None  # the vao: _ProgramArrays
        self._casting_vertices = 0
        self._obstacle_bounds = None
        self._moving_rows = np.zeros((0, 9), dtype="f4")
        self._moving_vbo = self._moving_vao = self._moving_light_vao = None
        # The key light's shadow maps: the obstacles' depth; the slimes' depth, and the nearest one's tint.
        self._light_depth, self._jelly_depth = (self._shadow_texture(), self._shadow_texture())
        self._light_pass = ctx.texture((LIGHT_MAP_SIZE, LIGHT_MAP_SIZE), 4)
        self._light_pass.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self._light_pass.repeat_x = self._light_pass.repeat_y = False
        self._light_fbo = ctx.framebuffer(depth_attachment=self._light_depth)
        self._jelly_fbo = ctx.framebuffer(color_attachments=[self._light_pass], depth_attachment=self._jelly_depth)
        # The jelly's optical depth along the light, summed (optical_depth.frag): float, as the
        # faces' signed terms cancel to the path's length.
        self._light_optics = ctx.texture((LIGHT_MAP_SIZE, LIGHT_MAP_SIZE), 4, dtype="f4")
        self._light_optics.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self._light_optics.repeat_x = self._light_optics.repeat_y = False
        self._optics_fbo = ctx.framebuffer(color_attachments=[self._light_optics])
        self._light_matrix = np.eye(4)
        self._floor_quad = ctx.buffer(reserve=4 * 3 * 4, dynamic=True)  # where the map's square meets the floor
        self._light_offset = 0.0
        self._light_scale = 1.0
        self._light_on = False
        self._vaos = []
        self._variants = {}  # (program name, defines) -> that variant of the program (_program)
        self._variant_failed = False  # one did not compile: its program, which reads every map, stands in
        self.slime_prog = self.backdrop_prog = self.present_prog = self.obstacle_prog = None
        self.floor_shadow_prog = self.light_prog = self.optics_prog = None
        self.use_programs(self.shaders.programs(ctx, self.shader_names))

    # --- programs ---------------------------------------------------------------------------------
    def use_programs(self, programs: dict) -> None:
        """Draw with these programs (name -> program) from now on; the old ones are released (and
        their variants, compiled again from the files as they are now when next drawn)."""
        for obj in self._vaos + [body.drawn for body in self._bodies] + self._programs() + self._own_variants():
            if obj is not None:
                obj.release()
        self._variants = {}
        self._variant_failed = False
        (self.slime_prog, self.backdrop_prog, self.present_prog, self.obstacle_prog, self.floor_shadow_prog,
         self.light_prog, self.optics_prog) = (programs[n] for n in self.shader_names)
        ctx = self.ctx
        self._backdrop_vao = ctx.vertex_array(self.backdrop_prog, [])
        self._present_vao = ctx.vertex_array(self.present_prog, [])
        self._floor_shadow_vao = _ProgramArrays(ctx, [(self._floor_quad, "3f", "in_position")])
        self._vaos = [self._backdrop_vao, self._present_vao, self._floor_shadow_vao]
        self._obstacle_vao = self._obstacle_light_vao = self._moving_vao = self._moving_light_vao = None
        if self._obstacle_vbo is not None:
            self._obstacle_vao, self._obstacle_light_vao = self._obstacle_arrays(self._obstacle_vbo)
        if self._moving_vbo is not None:
            self._moving_vao, self._moving_light_vao = self._obstacle_arrays(self._moving_vbo)
        for body in self._bodies:
            body.bind(ctx, self.light_prog, self.optics_prog)
        self._backdrop_key = None

    def _shadow_texture(self):
        """A depth texture the shaders compare against (sampler2DShadow), filtered: 2 x 2 taps each."""
        texture = self.ctx.depth_texture((LIGHT_MAP_SIZE, LIGHT_MAP_SIZE))
        texture.compare_func = "<="
        texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
        texture.repeat_x = texture.repeat_y = False
        return texture

    def _program(self, name: str, defines) -> moderngl.Program:
        """Program ``name`` compiled with ``defines`` (light_shadow.glsl's switches), made once;
        where that variant does not compile (a shader being edited), the program itself, which
        reads what the uniforms say."""
        if not self.compile_variants:
            return getattr(self, f"{name}_prog")
        key = (name, tuple(defines))
        program = self._variants.get(key)
        if program is None:
            try:
                program = self.shaders.program(self.ctx, name, key[1])
            except ShaderError:
                program = getattr(self, f"{name}_prog")
                self._variant_failed = True
            self._variants[key] = program
        return program

    def _own_variants(self) -> list:
        own = {p.glo: p for p in self._programs() if p is not None}
        return [p for p in self._variants.values() if p.glo not in own]

    def _light_defines(self, receiver: str) -> tuple:
        """What light_shadow.glsl reads for ``receiver`` ("slime", "obstacle", "floor") this frame:
        the obstacles' map where one casts, the slimes' where another slime may shade it, and the
        taps the quality asks for (see the file)."""
        solid = self._solid_casts()
        jelly = {"slime": len(self._bodies) > 1, "obstacle": bool(self._bodies), "floor": False}[receiver]
        taps = (4 if self.shadow_halo else 1) if solid or jelly else 1
        return (("LIGHT_SOLID", solid), ("LIGHT_JELLY", jelly), ("LIGHT_TAP_COUNT", taps))

    def _programs(self) -> list:
        return [self.slime_prog, self.backdrop_prog, self.present_prog, self.obstacle_prog, self.floor_shadow_prog,
                self.light_prog, self.optics_prog]

    def _obstacle_arrays(self, vbo) -> tuple:
        """(drawn: by program, seen from the light) vertex arrays of an obstacle buffer, kept in ``_vaos``."""
        drawn = _ProgramArrays(self.ctx, [(vbo, "3f 3f 3f", "in_position", "in_normal", "in_color")])
        light = self.ctx.vertex_array(self.light_prog, [(vbo, "3f 24x", "in_position")], skip_errors=True)
        self._vaos += [drawn, light]
        return drawn, light

    # --- scene data -------------------------------------------------------------------------------
    def set_obstacles(self, obstacles) -> None:
        """The static obstacles (see the module's docstring for their form); uploaded once."""
        obstacles = list(obstacles or ())
        # Finite ones first: they alone cast shadows (a plane has no edge for the light's map to hold).
        finite = [obstacle_mesh(o) for o in obstacles if not is_plane(o)]
        planes = [obstacle_mesh(o) for o in obstacles if is_plane(o)]
        rows = finite + planes
        self._obstacle_rows = np.concatenate(rows) if rows else np.zeros((0, 9), dtype="f4")
        self._casting_vertices = sum(len(r) for r in finite)
        finite_points = [r[:, :3] for r in finite]
        self._obstacle_bounds = ((np.min([q.min(axis=0) for q in finite_points], axis=0),
                                  np.max([q.max(axis=0) for q in finite_points], axis=0)) if finite_points else None)
        self._obstacle_vbo, self._obstacle_vao, self._obstacle_light_vao = self._upload_obstacles(
            self._obstacle_rows, self._obstacle_vbo, self._obstacle_vao, self._obstacle_light_vao)

    def set_moving_obstacles(self, obstacles) -> None:
        """Obstacles that change from frame to frame (a squashing lid), drawn and casting shadows as
        the static ones; boxes and balls. Re-uploaded only when they change."""
        rows = [obstacle_mesh(o) for o in (obstacles or ())]
        rows = np.concatenate(rows) if rows else np.zeros((0, 9), dtype="f4")
        if rows.shape == self._moving_rows.shape and np.array_equal(rows, self._moving_rows):
            return
        self._moving_rows = rows
        self._moving_vbo, self._moving_vao, self._moving_light_vao = self._upload_obstacles(
            rows, self._moving_vbo, self._moving_vao, self._moving_light_vao)

    def _upload_obstacles(self, rows, vbo, drawn, light) -> tuple:
        """(buffer, drawn array, light's array) for ``rows``, the old ones released; Nones for no rows."""
        for vao in (drawn, light):
            if vao is not None:
                self._vaos.remove(vao)
                vao.release()
        if vbo is not None:
            vbo.release()
        if not len(rows):
            return None, None, None
        vbo = self.ctx.buffer(rows.tobytes())
        return (vbo, *self._obstacle_arrays(vbo))

    def update(self, bodies) -> None:
        """This frame's slimes: a sequence of (positions (P, 3), strip, SlimeLook or None)."""
        bodies = _check_bodies(bodies)
        while len(self._bodies) > len(bodies):
            self._bodies.pop().release()
        self._fits, self._looks = [], []
        for number, (positions, strip, look) in enumerate(bodies):
            if number < len(self._bodies) and not self._bodies[number].fits(strip, len(positions)):
                self._bodies[number].release()
                self._bodies[number] = _SlimeBuffers(self.ctx, self.light_prog, self.optics_prog, strip, len(positions))
            elif number >= len(self._bodies):
                self._bodies.append(_SlimeBuffers(self.ctx, self.light_prog, self.optics_prog, strip, len(positions)))
            self._bodies[number].upload(positions)
            look = look or self.look
            # Measured along (3, P) rows: numpy's reductions over the long axis of an (P, 3) array
            # cost several times more (a 128 x 128 slime's box and centre took 2 ms a frame).
            rows = np.ascontiguousarray(positions.T)
            centre = rows.mean(axis=1)
            self._fits.append((fit_ellipsoid(rows.T, centre), rows.min(axis=1), rows.max(axis=1)))
            self._looks.append(look)

    # --- drawing ----------------------------------------------------------------------------------
    def render(self, fbo: moderngl.Framebuffer, camera: OrbitCamera, *, viewport=None) -> None:
        """Draw the world as last ``update``d into ``fbo``'s ``viewport`` (default: all of it)."""
        ctx = self.ctx
        viewport = tuple(int(v) for v in (viewport or (0, 0, *fbo.size)))
        size = (max(viewport[2], 1), max(viewport[3], 1))
        attachments = getattr(fbo, "color_attachments", ())
        target_samples = int(getattr(attachments[0], "samples", 0)) if attachments else -1
        # A multisampled target sets the sampling; a plain one (or a screen) gets ``samples``,
        # resolved by the last blit.
        samples = target_samples if target_samples > 0 else self.samples
        targets = self._frame_targets(size, samples)
        view, proj = camera.gl_matrices(size[0] / size[1])
        view_proj = camera.view_projection(size[0] / size[1])
        eye = tuple(float(v) for v in camera.eye())
        draw = targets["draw"]
        self.stats = {"copies": 0, "copied_pixels": 0}

        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE | moderngl.BLEND)
        ctx.wireframe = False
        draw.use()
        ctx.viewport = (0, 0, *size)
        self._backdrop(camera, size, targets)
        for name, receiver in (("floor_shadow", "floor"), ("obstacle", "obstacle"), ("slime", "slime")):
            self._program(name, self._light_defines(receiver))  # compiled before the maps ask which failed
        lit = self._light_map()
        draw.use()
        ctx.viewport = (0, 0, *size)
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.depth_func = "<="
        self._obstacles(view, proj, eye)
        if self.floor_height is not None and lit:
            # After the obstacles, depth-tested: floor hidden behind a wall costs nothing and keeps
            # whatever shadow falls there out of the picture.
            self._floor_shadows(camera, size, eye)

        distances = [float(np.linalg.norm(fit[0][0] - eye)) for fit in self._fits]
        order = range(len(self._bodies))
        if self.sort_back_to_front:
            order = sorted(order, key=lambda i: -distances[i])
        rects = {number: self._screen_rect(number, view_proj, size, camera.near) for number in order}
        # The jelly reads the frame only within its reach: the first copy is of where some slime
        # will read (none without slimes; a lone slime's, a fraction of the frame).
        reaches = [self._widen(rect, size) for rect in rects.values()]
        if reaches and self.copy_only_where_needed and self._behind_filled:
            self._copy_behind(targets, (min(r[0] for r in reaches), min(r[1] for r in reaches),
                                        max(r[2] for r in reaches), max(r[3] for r in reaches)))
        elif reaches:
            # All of it on a new target's first frame: past a slime's reach it holds a picture
            # of the scene, not whatever the new texture's memory held.
            self._copy_behind(targets, None)
            self._behind_filled = True
        dirty = []
        for number in order:
            drawn = rects[number]
            reach = self._widen(drawn, size)
            if not self.copy_only_where_needed or any(_overlaps(reach, other) for other in dirty):
                box = reach if self.copy_only_where_needed else None
                for other in dirty:
                    box = (min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]),
                           max(box[3], other[3])) if box is not None else None
                self._copy_behind(targets, box)
                dirty = []
            self._draw_slime(number, targets, view, proj, view_proj, eye, size)
            dirty.append(drawn)
        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.depth_func = "<"

        # Into the target: a blit where the sizes match (it resolves multisampling), else through
        # the single-sampled texture and a textured pass.
        if viewport == (0, 0, *fbo.size) and target_samples in (0, samples):
            ctx.copy_framebuffer(fbo, draw)
        else:
            self._copy_behind(targets, None)
            self._present(targets["texture"], fbo, viewport)

    def _frame_targets(self, size, samples: int) -> dict:
        if self._targets is not None and self._targets["key"] == (size, samples):
            return self._targets
        self._release_targets()
        ctx = self.ctx
        texture = ctx.texture(size, 4)
        texture.repeat_x = texture.repeat_y = False  # a refracted ray past the edge reads the edge
        texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
        color = ctx.renderbuffer(size, 4, samples=samples)
        depth = ctx.depth_renderbuffer(size, samples=samples)
        backdrop = ctx.renderbuffer(size, 4, samples=samples)
        # With a depth of its own, cleared once: blitting it in clears the frame's depth too (a
        # software rasteriser's clear of a multisampled frame costs more than that blit).
        backdrop_depth = ctx.depth_renderbuffer(size, samples=samples)
        self._targets = {
            "key": (size, samples), "texture": texture,
            "behind": ctx.framebuffer(color_attachments=[texture]),
            "draw": ctx.framebuffer(color_attachments=[color], depth_attachment=depth),
            "backdrop": ctx.framebuffer(color_attachments=[backdrop], depth_attachment=backdrop_depth),
        }
        self._backdrop_key = None
        self._behind_filled = False
        return self._targets

    def _release_targets(self) -> None:
        if self._targets is None:
            return
        for name in ("behind", "draw", "backdrop"):
            fbo = self._targets[name]
            for att in list(fbo.color_attachments) + ([fbo.depth_attachment] if fbo.depth_attachment else []):
                att.release()
            fbo.release()
        self._targets = None

    def _backdrop(self, camera: OrbitCamera, size, targets) -> None:
        """The sky and floor into the frame: drawn into a kept copy when the camera, the size or
        the look changed (or always, without ``cache_backdrop``), and copied in from there."""
        ctx = self.ctx
        key = (tuple(np.round(camera.eye(), 9)), tuple(np.round(camera.target, 9)), camera.fov_y, self.floor_height,
               id(self.look), tuple(size))
        if not self.cache_backdrop or key != self._backdrop_key:
            targets["backdrop"].use()
            ctx.viewport = (0, 0, *size)
            targets["backdrop"].clear(depth=1.0)
            bp = self.backdrop_prog
            look = self.look
            set_uniform(bp, "u_inv_view_proj", np.linalg.inv(camera.view_projection(size[0] / size[1])).astype("f4"))
            set_uniform(bp, "u_eye", tuple(camera.eye()))
            # No floor: one far below the horizon's haze reads as sky all round.
            set_uniform(bp, "u_floor_height", self.floor_height if self.floor_height is not None else -1e6)
            set_backdrop_look(bp, look)
            self._backdrop_vao.render(moderngl.TRIANGLES, vertices=3)
            self._backdrop_key = key
        ctx.copy_framebuffer(targets["draw"], targets["backdrop"])  # colour and depth

    def _light_map(self) -> bool:
        """Draw every slime and finite obstacle as the key light sees them into its shadow map;
        False where nothing casts (the map is then off)."""
        boxes = [(lo, hi) for _e, lo, hi in self._fits]
        if self._obstacle_bounds is not None:
            boxes.append(self._obstacle_bounds)
        if len(self._moving_rows):
            boxes.append((self._moving_rows[:, :3].min(axis=0), self._moving_rows[:, :3].max(axis=0)))
        if not boxes:
            self._light_on = False
            return False
        lo = np.min([b[0] for b in boxes], axis=0).astype(np.float64)
        hi = np.max([b[1] for b in boxes], axis=0).astype(np.float64)
        if self.floor_height is not None:
            lo[1] = min(lo[1], self.floor_height)  # the floor under them receives
        self._light_matrix, across = light_view_projection(self.look.key_dir, lo, hi)
        if self.floor_height is not None:
            self._floor_quad.write(self._floor_rectangle().astype("f4").tobytes())
        texels = int(np.clip(math.ceil(across / LIGHT_TEXEL), 64, LIGHT_MAP_SIZE))
        self._light_scale = texels / LIGHT_MAP_SIZE
        # Receivers step off their surface by two and a half texels: past the reach of the soft taps,
        # so no surface shadows itself.
        self._light_offset = 2.5 * across / texels
        ctx = self.ctx
        # A few texels more than drawn are cleared: the filtered taps at the edge read "nothing here".
        edge = min(texels + 3, LIGHT_MAP_SIZE)
        lp = self.light_prog
        set_uniform(lp, "u_light_view_proj", self._light_matrix.astype("f4"))
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.depth_func = "<"
        # Casters pushed back by their slope: a surface lit at a grazing angle does not shade itself.
        ctx.polygon_offset = (2.0, 2.0)
        # A map no pass reads this frame is not drawn (_light_defines leaves it out of the programs;
        # the programs themselves, where a variant did not compile, read them all).
        every = self._variant_failed
        if self._solid_casts() or every:
            self._light_fbo.use()
            self._light_fbo.clear(depth=1.0, viewport=(0, 0, edge, edge))
            ctx.viewport = (0, 0, texels, texels)
            if self._obstacle_light_vao is not None and self._casting_vertices:
                self._obstacle_light_vao.render(moderngl.TRIANGLES, vertices=self._casting_vertices)
            if self._moving_light_vao is not None:
                self._moving_light_vao.render(moderngl.TRIANGLES)
        if len(self._bodies) > 1 or (self._bodies and (len(self._obstacle_rows) or len(self._moving_rows))) or every:
            self._jelly_fbo.use()
            self._jelly_fbo.clear(1.0, 1.0, 1.0, 0.0, depth=1.0, viewport=(0, 0, edge, edge))
            ctx.viewport = (0, 0, texels, texels)
            for number, (body, look) in enumerate(zip(self._bodies, self._looks)):
                set_uniform(lp, "u_pass", (*(float(v) for v in look.shadow_tint), (number + 1) / 255.0))
                body.light_vao.render(moderngl.TRIANGLE_STRIP)
        ctx.polygon_offset = (0.0, 0.0)
        ctx.disable(moderngl.DEPTH_TEST)
        # The jelly's optical depth: every face of every slime, added up (no depth test, no culling).
        self._optics_fbo.use()
        self._optics_fbo.clear(0.0, 0.0, 0.0, 0.0, viewport=(0, 0, edge, edge))
        ctx.viewport = (0, 0, texels, texels)
        op = self.optics_prog
        set_uniform(op, "u_light_view_proj", self._light_matrix.astype("f4"))
        set_uniform(op, "u_key_dir", tuple(float(v) for v in self.look.key_dir))
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.ONE, moderngl.ONE
        for body, look, fit in zip(self._bodies, self._looks, self._fits):
            set_uniform(op, "u_body_center", tuple(float(v) for v in fit[0][0]))
            set_uniform(op, "u_absorption", tuple(float(v) for v in look.absorption))
            body.optics_vao.render(moderngl.TRIANGLE_STRIP)
        ctx.blend_func = moderngl.DEFAULT_BLENDING
        ctx.disable(moderngl.BLEND)
        self._light_on = True
        return True

    def _floor_rectangle(self) -> np.ndarray:
        """The four corners (strip order) of the floor's rectangle that shadows may fall on: where
        the map's square meets the floor, slid along the light, when an obstacle casts; else only
        where each slime's box casts (its corners slid along the light onto the floor) and, round
        it, the reach of its contact shadow (CONTACT_REACH half-extents). The floor's shadow pass
        pays for every pixel of it."""
        key = np.asarray(self.look.key_dir, dtype=np.float64)
        key = key / np.linalg.norm(key)
        if self._solid_casts():
            corners = np.array([[x, y, -1.0, 1.0] for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1))]) @ np.linalg.inv(
                self._light_matrix)
            points = [corners[:, :3] / corners[:, 3:]]
        else:
            points = []
        for _ellipsoid, lo, hi in self._fits:
            box = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
            middle, half = 0.5 * (lo + hi), 0.5 * (hi - lo)
            points += [box, np.array([middle - CONTACT_REACH * half, middle + CONTACT_REACH * half])]
        points = np.concatenate(points)
        points = points - key * ((points[:, 1:2] - self.floor_height) / max(key[1], 1e-3))
        (x0, z0), (x1, z1) = points[:, [0, 2]].min(axis=0), points[:, [0, 2]].max(axis=0)
        y = self.floor_height
        return np.array([[x0, y, z0], [x1, y, z0], [x0, y, z1], [x1, y, z1]])

    def _solid_casts(self) -> bool:
        """Whether an obstacle stands in the obstacles' map (a plane casts none)."""
        return bool(self._casting_vertices or len(self._moving_rows))

    def _set_light(self, program) -> None:
        """light_shadow.glsl's uniforms, the map bound to its units."""
        set_uniform(program, "u_light_on", 1 if self._light_on else 0)
        set_uniform(program, "u_light_depth", LIGHT_DEPTH_UNIT)
        set_uniform(program, "u_light_pass", LIGHT_PASS_UNIT)
        set_uniform(program, "u_jelly_depth", JELLY_DEPTH_UNIT)
        set_uniform(program, "u_light_optics", LIGHT_OPTICS_UNIT)
        if not self._light_on:
            return
        set_uniform(program, "u_light_view_proj", self._light_matrix.astype("f4"))
        set_uniform(program, "u_light_texel", (1.0 / LIGHT_MAP_SIZE, 1.0 / LIGHT_MAP_SIZE))
        set_uniform(program, "u_light_scale", self._light_scale)
        set_uniform(program, "u_jelly_pass", JELLY_PASS)
        set_uniform(program, "u_light_offset", self._light_offset)
        set_uniform(program, "u_light_solid", 1 if self._solid_casts() else 0)
        set_uniform(program, "u_light_soft", 1.0 if self.shadow_halo else 0.0)
        self._light_depth.use(location=LIGHT_DEPTH_UNIT)
        self._light_pass.use(location=LIGHT_PASS_UNIT)
        self._jelly_depth.use(location=JELLY_DEPTH_UNIT)
        self._light_optics.use(location=LIGHT_OPTICS_UNIT)

    def _floor_shadows(self, camera: OrbitCamera, size, eye) -> None:
        """The key light's shadows multiplied into the floor, over the quad where the map meets the floor."""
        ctx = self.ctx
        fp = self._program("floor_shadow", self._light_defines("floor"))
        self._set_light(fp)
        view, proj = camera.gl_matrices(size[0] / size[1])
        set_uniform(fp, "u_view", view)
        set_uniform(fp, "u_proj", proj)
        set_uniform(fp, "u_eye", eye)
        set_uniform(fp, "u_fog_distance", self.look.fog_distance)
        set_uniform(fp, "u_floor_shade", FLOOR_SHADE)
        set_uniform(fp, "u_contact", CONTACT_SHADE)
        set_uniform(fp, "u_contact_reach", CONTACT_REACH)
        count = min(len(self._fits), DRAWN_SLIMES[1])
        set_uniform(fp, "u_occluders", count)
        if count:
            centres = np.zeros((DRAWN_SLIMES[1], 4), dtype="f4")  # GL takes a uniform array whole
            halves = np.ones((DRAWN_SLIMES[1], 3), dtype="f4")
            for number, (_e, lo, hi) in enumerate(self._fits[:count]):
                halves[number] = half = np.maximum(0.5 * (hi - lo), 1e-3)
                lift = max(float(lo[1]) - self.floor_height, 0.0) / max(float(half[0]), float(half[2]))
                centres[number] = (*(0.5 * (lo + hi)), math.exp(-CONTACT_LIFT * lift))
            set_uniform(fp, "u_occluder_center", centres)
            set_uniform(fp, "u_occluder_half", halves)
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.DST_COLOR, moderngl.ZERO
        ctx.depth_func = "<"
        ctx.depth_mask = False  # the floor is the backdrop's: no depth of its own
        self._floor_shadow_vao(fp).render(moderngl.TRIANGLE_STRIP)
        ctx.depth_mask = True
        ctx.depth_func = "<="
        ctx.blend_func = moderngl.DEFAULT_BLENDING
        ctx.disable(moderngl.BLEND)

    def _obstacles(self, view, proj, eye) -> None:
        op = self._program("obstacle", self._light_defines("obstacle"))
        look = self.look
        set_uniform(op, "u_view", view)
        set_uniform(op, "u_proj", proj)
        set_uniform(op, "u_eye", eye)
        set_uniform(op, "u_key_dir", tuple(look.key_dir))
        set_uniform(op, "u_fill_dir", tuple(look.fill_dir))
        set_uniform(op, "u_horizon", tuple(look.sky_horizon))
        set_uniform(op, "u_fog_distance", look.fog_distance)
        # Cut where sunk into the floor (the camera is above it: what is below is hidden).
        set_uniform(op, "u_floor_height", self.floor_height if self.floor_height is not None else -1e30)
        self._set_light(op)
        for arrays in (self._obstacle_vao, self._moving_vao):
            if arrays is not None:
                arrays(op).render(moderngl.TRIANGLES)

    def _screen_rect(self, number: int, view_proj, size, near: float) -> tuple:
        """The slime's box on screen in pixels (x0, y0, x1, y1), GL's bottom-up rows; all of the
        screen where part of it is behind the eye."""
        _ellipsoid, lo, hi = self._fits[number]
        corners = np.array([[x, y, z, 1.0] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
        clip = corners @ view_proj
        if np.any(clip[:, 3] <= near):
            return (0, 0, size[0], size[1])
        ndc = clip[:, :2] / clip[:, 3:4]
        x = (ndc[:, 0] + 1.0) * 0.5 * size[0]
        y = (ndc[:, 1] + 1.0) * 0.5 * size[1]
        rect = (math.floor(x.min()) - 1, math.floor(y.min()) - 1, math.ceil(x.max()) + 1, math.ceil(y.max()) + 1)
        return (max(rect[0], 0), max(rect[1], 0), min(rect[2], size[0]), min(rect[3], size[1]))

    @staticmethod
    def _widen(rect, size) -> tuple:
        margin = int(REFRACTION_MARGIN * max(rect[2] - rect[0], rect[3] - rect[1])) + 2
        return (max(rect[0] - margin, 0), max(rect[1] - margin, 0), min(rect[2] + margin, size[0]),
                min(rect[3] + margin, size[1]))

    def _copy_behind(self, targets, box) -> None:
        """The frame so far into the texture the jelly reads (resolving multisampling), over
        ``box`` (x0, y0, x1, y1) only, or all of it."""
        behind = targets["behind"]
        width, height = targets["key"][0]
        if box is None:
            box = (0, 0, width, height)
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        behind.scissor = None if box == (0, 0, width, height) else (box[0], box[1], box[2] - box[0], box[3] - box[1])
        behind.use()  # the scissor applies to the blit
        self.ctx.copy_framebuffer(behind, targets["draw"])
        behind.scissor = None
        targets["draw"].use()  # back to drawing the frame
        self.ctx.viewport = (0, 0, width, height)
        self.stats["copies"] += 1
        self.stats["copied_pixels"] += (box[2] - box[0]) * (box[3] - box[1])

    def _draw_slime(self, number: int, targets, view, proj, view_proj, eye, size) -> None:
        ctx = self.ctx
        look = self._looks[number]
        ellipsoid = self._fits[number][0]
        sp = self._program("slime", self._light_defines("slime"))
        set_jelly_look(sp, look)
        set_uniform(sp, "u_behind", 0)
        set_uniform(sp, "u_wireframe", 1 if self.wireframe else 0)
        set_uniform(sp, "u_view", view)
        set_uniform(sp, "u_proj", proj)
        set_uniform(sp, "u_view_proj", view_proj.astype("f4"))
        set_uniform(sp, "u_eye", eye)
        set_uniform(sp, "u_floor_height", self.floor_height if self.floor_height is not None else -1e6)
        set_uniform(sp, "u_viewport", (0.0, 0.0, float(size[0]), float(size[1])))
        set_uniform(sp, "u_body_center", tuple(float(v) for v in ellipsoid[0]))
        set_uniform(sp, "u_body_inverse", ellipsoid_inverse(ellipsoid))
        set_uniform(sp, "u_self_id", float(number + 1))
        self._set_light(sp)
        if len(self._bodies) == 1 and not self._solid_casts():
            set_uniform(sp, "u_light_on", 0)  # nothing else to stand in its light: no map to read
        targets["texture"].use(location=0)
        vao = self._bodies[number].drawn(sp)
        if self.wireframe:  # every edge, the far side's too
            ctx.wireframe = True
            vao.render(moderngl.TRIANGLE_STRIP)
            ctx.wireframe = False
            return
        ctx.enable(moderngl.CULL_FACE | moderngl.DEPTH_TEST)
        ctx.cull_face = "back"
        vao.render(moderngl.TRIANGLE_STRIP)
        ctx.disable(moderngl.CULL_FACE)

    def present(self, texture, fbo, viewport) -> None:
        """Draw ``texture`` over ``fbo``'s ``viewport``, linearly filtered where the sizes differ
        (a window's frame drawn at a reduced scale)."""
        self._present(texture, fbo, tuple(int(v) for v in viewport))

    def _present(self, texture, fbo, viewport) -> None:
        ctx = self.ctx
        fbo.use()
        ctx.viewport = viewport
        ctx.disable(moderngl.BLEND | moderngl.CULL_FACE | moderngl.DEPTH_TEST)
        texture.use(location=0)
        set_uniform(self.present_prog, "u_image", 0)
        set_uniform(self.present_prog, "u_viewport", tuple(float(v) for v in viewport))
        self._present_vao.render(moderngl.TRIANGLES, vertices=3)

    def release(self) -> None:
        self._release_targets()
        while self._bodies:
            self._bodies.pop().release()
        for obj in self._vaos + self._programs() + self._own_variants() + [self._obstacle_vbo, self._moving_vbo, self._floor_quad, self._light_fbo,
                                                     self._jelly_fbo, self._light_depth, self._jelly_depth,
                                                     self._light_pass, self._optics_fbo, self._light_optics]:
            if obj is not None:
                obj.release()


def bodies_of_world(world, looks=None) -> list:
    """A world's slimes as WorldRenderer takes them, read from its fields only (``positions``,
    ``bodies[i].start, .stop, .strip``): ``looks`` a SlimeLook per body, one for all, or None."""
    positions = world.positions
    count = len(world.bodies)
    if looks is None or isinstance(looks, SlimeLook):
        looks = [looks] * count
    if len(looks) != count:
        raise ValueError(f"{len(looks)} looks for {count} slimes")
    return [(positions[body.start:body.stop], body.strip, look) for body, look in zip(world.bodies, looks)]


# --- headless -----------------------------------------------------------------------------------------
def render_world_picture(ctx, bodies, obstacles=(), camera=None, size=(640, 480), *, samples: int = 4,
                         floor_height: float | None = 0.0, look: SlimeLook | None = None, shaders=None) -> np.ndarray:
    """One picture of a world, (H, W, 3) uint8, top row first. ``ctx`` None: a headless (EGL)
    context made and released here. ``bodies``: (positions, strip, SlimeLook or None) per slime;
    ``obstacles``: see the module's docstring; ``camera``: an OrbitCamera as it is, or the view
    the world opens on (``slime.framing.scene_view``: every slime and obstacle framed, from
    (azimuth_deg, elevation_deg, distance) where given)."""
    from slime.render.context import create_headless_context
    from slime.render.images import read_rgba

    width, height = (int(v) for v in size)
    if width < 1 or height < 1:
        raise ValueError(f"size must be at least 1x1 pixels, got {size!r}")
    bodies = _check_bodies(bodies)
    if isinstance(camera, OrbitCamera):
        cam = camera
    else:
        points = world_points(np.concatenate([b[0] for b in bodies]) if bodies else np.zeros((0, 3)), obstacles)
        cam = OrbitCamera.of_view(scene_view(points, width / height, view=camera))
    own = ctx is None
    ctx = ctx or create_headless_context()
    renderer = texture = fbo = None
    try:
        renderer = WorldRenderer(ctx, floor_height=floor_height, look=look, samples=samples, shaders=shaders)
        renderer.set_obstacles(obstacles)
        renderer.update(bodies)
        texture = ctx.texture((width, height), 4)
        fbo = ctx.framebuffer(color_attachments=[texture])
        renderer.render(fbo, cam)
        return np.ascontiguousarray(read_rgba(fbo, components=4)[..., :3])
    finally:
        for obj in (renderer, fbo, texture):
            if obj is not None:
                obj.release()
        if own:
            ctx.release()
