"""A world of translucent slimes among opaque obstacles, drawn correctly from every camera.

A frame, into the renderer's own framebuffer (colour and depth, with the target's multisampling):

1. **Backdrop**: the sky and checker floor (``backdrop`` program), kept in a copy while the camera
   holds still (on a software rasteriser it is most of a frame).
2. **Contact shadows on the floor**: each slime's soft shadow (``shadow`` program, the single-slime
   renderer's), multiplied into its patch of floor; overlapping patches multiply, so two slimes
   side by side darken the floor between them more than one.
3. **Obstacles** (``obstacle`` program): boxes, balls and planes, opaque, depth-tested (and cut
   where sunk into the floor: the camera stays above it), lit by the look's
   key and fill lights and a sky ambient. Each slime shades them: a soft shadow of its fitted
   ellipsoid along the key light (the ray from the surface toward the light, in the ellipsoid's
   unit-sphere space, passes within a band around radius 1: darker the closer to the centre) and a
   contact darkening where the surface is within a few tenths of a radius of the ellipsoid, both
   tinted by the slime's shadow colour. The ellipsoids of all slimes (up to 64) sit in one uniform
   block, looped over per obstacle pixel.
4. **The slimes, back to front** by the eye's distance to each one's ellipsoid centre, re-sorted
   every frame (the order flips as the camera orbits). Each is drawn with the single-slime jelly
   (``slime`` program: Beer-Lambert through its ellipsoid, screen-space refraction, per-slime
   ``SlimeLook``), reading as "what is behind" a single-sampled texture of the frame so far: the
   backdrop, the shadows, the obstacles and every slime behind it. A slime seen through another is
   therefore absorbed and refracted by the front one, and so are obstacles.

The texture is refreshed from the frame (a resolving blit) only where needed: once after the
obstacles, then before a slime only where its screen rectangle, widened by what refraction may
reach (``REFRACTION_MARGIN``), overlaps a slime drawn since the last refresh, and only over the
rectangles involved (a scissored blit). Slimes apart on screen cost one full copy in all; a row of
slimes one behind another, one small copy each. ``stats`` counts them per frame. On a software
rasteriser a full resolving copy of a multisampled frame is a large part of drawing a slime, so
copying only where needed matters most with many slimes (tests/test_world_render.py prints both
ways for 16 slimes).

The floor shadow seen through the jelly is already in the texture, so the jelly's own
shadow-at-the-landing-point term (the single-slime renderer adds it because its texture is the bare
backdrop) is switched off (``u_shadow_depth = 0``).

Slimes do not shadow one another, and obstacles cast no shadow (on the floor or each other).

Plain data in, pixels out: a slime is ``(positions (P, 3), strip (uint32, restart-separated, local
indices), SlimeLook or None)``; an obstacle is any object or mapping with ``center, half_size,
rotation`` (a box; ``rotation``'s columns are the box's axes in the world), ``center, radius`` (a
ball) or ``point, normal`` (a plane, drawn as a large square), each with an optional ``color``
(RGB 0..1 or ``#rrggbb``). No physics here.
"""

from __future__ import annotations

import math

import moderngl
import numpy as np

from slime.limits import DRAWN_SLIMES, span
from slime.look import SlimeLook, parse_color
from slime.mesh import VertexNormals
from slime.render.camera import OrbitCamera
from slime.render.shader_files import set_uniform, shader_folder
from slime.render.slime_renderer import (
    contact_shadow,
    ellipsoid_inverse,
    fit_ellipsoid,
    set_backdrop_look,
    set_jelly_look,
)

__all__ = ["WorldRenderer", "bodies_of_world", "obstacle_mesh", "render_world_picture", "strip_triangles",
           "world_camera"]

RESTART = 0xFFFFFFFF
MAX_CASTERS = 64  # the size of obstacle.frag's Casters block
PLANE_EXTENT = 60.0  # half-size, metres, of the square a plane obstacle is drawn as (lost in the haze)
DEFAULT_OBSTACLE_COLOR = (0.72, 0.66, 0.58)
BALL_STACKS, BALL_SLICES = 24, 32
# How far, as a share of its screen rectangle's larger side, a slime's refracted rays may land
# outside that rectangle (SlimeLook.refraction_depth 1.2 at index 1.33 bends a ray by well under this).
REFRACTION_MARGIN = 0.25


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


# --- obstacles as triangles -------------------------------------------------------------------------
def _get(obstacle, name):
    if isinstance(obstacle, dict):
        return obstacle.get(name)
    return getattr(obstacle, name, None)


def _vector(value, name: str, shape=(3,)) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.shape != shape or not np.all(np.isfinite(arr)):
        raise ValueError(f"obstacle {name} must be {'x'.join(map(str, shape))} finite numbers, got {value!r}")
    return arr


def _box_triangles(center, half_size, rotation):
    positions, normals = [], []
    for axis in range(3):
        u, v = (axis + 1) % 3, (axis + 2) % 3
        for sign in (-1.0, 1.0):
            quad = np.zeros((4, 3))
            quad[:, axis] = sign
            quad[:, u] = (-1, 1, 1, -1)
            quad[:, v] = (-1, -1, 1, 1)
            positions.append(quad[[0, 1, 2, 0, 2, 3]])
            normal = np.zeros(3)
            normal[axis] = sign
            normals.append(np.repeat(normal[None], 6, axis=0))
    local = np.concatenate(positions) * half_size
    return center + local @ rotation.T, np.concatenate(normals) @ rotation.T


def _ball_triangles(center, radius):
    theta = np.linspace(0.0, np.pi, BALL_STACKS + 1)
    phi = np.linspace(0.0, 2.0 * np.pi, BALL_SLICES + 1)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    unit = np.stack([np.sin(t) * np.sin(p), np.cos(t), np.sin(t) * np.cos(p)], axis=-1)
    a, b, c, d = unit[:-1, :-1], unit[1:, :-1], unit[1:, 1:], unit[:-1, 1:]
    normals = np.stack([a, b, c, a, c, d], axis=2).reshape(-1, 3)
    return center + radius * normals, normals


def _plane_triangles(point, normal):
    n = normal / np.linalg.norm(normal)
    helper = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.9 else np.array([0.0, 0.0, 1.0])
    u = np.cross(n, helper)
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]], dtype=np.float64) * PLANE_EXTENT
    positions = point + square[:, :1] * u + square[:, 1:] * v
    return positions, np.repeat(n[None], 6, axis=0)


def obstacle_mesh(obstacle) -> np.ndarray:
    """(T * 3, 9) float32 rows of position | normal | colour, three per triangle; ValueError (one
    line) for something that is not a box, a ball or a plane."""
    color = _get(obstacle, "color")
    color = DEFAULT_OBSTACLE_COLOR if color is None else (parse_color(color) if isinstance(color, str) else color)
    color = _vector(color, "color")
    if not np.all((color >= 0) & (color <= 1)):
        raise ValueError(f"obstacle color must be 3 numbers from 0 to 1, got {tuple(color)}")
    if _get(obstacle, "half_size") is not None:
        half = _vector(_get(obstacle, "half_size"), "half_size")
        rotation = _get(obstacle, "rotation")
        rotation = np.eye(3) if rotation is None else _vector(rotation, "rotation", (3, 3))
        if np.any(half <= 0):
            raise ValueError(f"obstacle half_size must be > 0 on every axis, got {tuple(half)}")
        positions, normals = _box_triangles(_vector(_get(obstacle, "center"), "center"), half, rotation)
    elif _get(obstacle, "radius") is not None:
        radius = float(_vector([_get(obstacle, "radius")] * 3, "radius")[0])
        if radius <= 0:
            raise ValueError(f"obstacle radius must be > 0, got {radius}")
        positions, normals = _ball_triangles(_vector(_get(obstacle, "center"), "center"), radius)
    elif _get(obstacle, "normal") is not None:
        normal = _vector(_get(obstacle, "normal"), "normal")
        if np.linalg.norm(normal) < 1e-12:
            raise ValueError("obstacle normal must not be the zero vector")
        positions, normals = _plane_triangles(_vector(_get(obstacle, "point"), "point"), normal)
    else:
        raise ValueError(f"an obstacle needs center + half_size (a box), center + radius (a ball) or point + normal "
                         f"(a plane), got {obstacle!r}")
    rows = np.empty((len(positions), 9), dtype="f4")
    rows[:, :3], rows[:, 3:6], rows[:, 6:] = positions, normals, color
    return rows


# --- one slime's buffers ----------------------------------------------------------------------------
class _SlimeBuffers:
    """A slime's vertex buffer (position | normal), its strip and vertex array; rebuilt only when
    its strip or vertex count changes."""

    def __init__(self, ctx, program, strip: np.ndarray, vertex_count: int):
        self.strip = strip
        self.vertex_count = vertex_count
        self.normals = VertexNormals(strip_triangles(strip), vertex_count)
        self.vertex_data = np.zeros((vertex_count, 6), dtype="f4")
        self.scratch = np.empty((vertex_count, 3), dtype=np.float64)
        self.vbo = ctx.buffer(reserve=self.vertex_data.nbytes, dynamic=True)
        self.ibo = ctx.buffer(np.ascontiguousarray(strip, dtype="u4").tobytes())
        self.vao = None
        self.bind(ctx, program)

    def bind(self, ctx, program) -> None:
        if self.vao is not None:
            self.vao.release()
        self.vao = ctx.vertex_array(program, [(self.vbo, "3f 3f", "in_position", "in_normal")],
                                    index_buffer=self.ibo, index_element_size=4, skip_errors=True)

    def fits(self, strip: np.ndarray, vertex_count: int) -> bool:
        return vertex_count == self.vertex_count and (strip is self.strip or np.array_equal(strip, self.strip))

    def upload(self, positions: np.ndarray) -> None:
        self.vertex_data[:, :3] = positions
        self.vertex_data[:, 3:] = self.normals(positions, out=self.scratch)
        self.vbo.write(self.vertex_data)

    def release(self) -> None:
        for obj in (self.vao, self.vbo, self.ibo):
            obj.release()


def _check_bodies(bodies) -> list:
    bodies = list(bodies)
    low, high = DRAWN_SLIMES
    if not low <= len(bodies) <= high:
        raise ValueError(f"a world draws {span(DRAWN_SLIMES)} slimes, got {len(bodies)}")
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

    shader_names = ("slime", "backdrop", "present", "shadow", "obstacle")

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
        #: The floor shadows' soft halo (False: a cheaper, harder shadow; the window's lowest quality).
        self.shadow_halo = True
        #: The slimes as their triangles' edges (the window's W key).
        self.wireframe = False
        self.stats = {"copies": 0, "copied_pixels": 0}
        self.shaders = shader_folder(shaders)
        self._bodies: list[_SlimeBuffers] = []
        self._fits: list[tuple] = []
        self._looks: list[SlimeLook] = []
        self._targets = None
        self._backdrop_key = None
        self._obstacle_rows = np.zeros((0, 9), dtype="f4")
        self._obstacle_vbo = self._obstacle_vao = None
        self._shadow_vbo = ctx.buffer(np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], dtype="f4").tobytes())
        self._casters = ctx.buffer(reserve=5 * MAX_CASTERS * 16, dynamic=True)
        self._vaos = []
        self.slime_prog = self.backdrop_prog = self.present_prog = self.shadow_prog = self.obstacle_prog = None
        self.use_programs(self.shaders.programs(ctx, self.shader_names))

    # --- programs ---------------------------------------------------------------------------------
    def use_programs(self, programs: dict) -> None:
        """Draw with these programs (name -> program) from now on; the old ones are released."""
        for obj in self._vaos + [self.slime_prog, self.backdrop_prog, self.present_prog, self.shadow_prog,
                                 self.obstacle_prog]:
            if obj is not None:
                obj.release()
        self.slime_prog, self.backdrop_prog, self.present_prog, self.shadow_prog, self.obstacle_prog = (
            programs[n] for n in self.shader_names)
        ctx = self.ctx
        self._backdrop_vao = ctx.vertex_array(self.backdrop_prog, [])
        self._present_vao = ctx.vertex_array(self.present_prog, [])
        self._shadow_vao = ctx.vertex_array(self.shadow_prog, [(self._shadow_vbo, "2f", "in_xz")], skip_errors=True)
        self._vaos = [self._backdrop_vao, self._present_vao, self._shadow_vao]
        self._obstacle_vao = None
        if self._obstacle_vbo is not None:
            self._obstacle_vao = self._obstacle_array(self._obstacle_vbo)
            self._vaos.append(self._obstacle_vao)
        block = self.obstacle_prog.get("Casters", None)
        if block is not None:
            block.binding = 0
        for body in self._bodies:
            body.bind(ctx, self.slime_prog)
        self._backdrop_key = None

    def _obstacle_array(self, vbo):
        return self.ctx.vertex_array(self.obstacle_prog, [(vbo, "3f 3f 3f", "in_position", "in_normal", "in_color")],
                                     skip_errors=True)

    # --- scene data -------------------------------------------------------------------------------
    def set_obstacles(self, obstacles) -> None:
        """The static obstacles (see the module's docstring for their form); uploaded once."""
        rows = [obstacle_mesh(o) for o in (obstacles or ())]
        self._obstacle_rows = np.concatenate(rows) if rows else np.zeros((0, 9), dtype="f4")
        if self._obstacle_vao is not None:
            self._vaos.remove(self._obstacle_vao)
            self._obstacle_vao.release()
            self._obstacle_vbo.release()
            self._obstacle_vao = self._obstacle_vbo = None
        if len(self._obstacle_rows):
            self._obstacle_vbo = self.ctx.buffer(self._obstacle_rows.tobytes())
            self._obstacle_vao = self._obstacle_array(self._obstacle_vbo)
            self._vaos.append(self._obstacle_vao)

    def update(self, bodies) -> None:
        """This frame's slimes: a sequence of (positions (P, 3), strip, SlimeLook or None)."""
        bodies = _check_bodies(bodies)
        while len(self._bodies) > len(bodies):
            self._bodies.pop().release()
        self._fits, self._looks = [], []
        for number, (positions, strip, look) in enumerate(bodies):
            if number < len(self._bodies) and not self._bodies[number].fits(strip, len(positions)):
                self._bodies[number].release()
                self._bodies[number] = _SlimeBuffers(self.ctx, self.slime_prog, strip, len(positions))
            elif number >= len(self._bodies):
                self._bodies.append(_SlimeBuffers(self.ctx, self.slime_prog, strip, len(positions)))
            self._bodies[number].upload(positions)
            look = look or self.look
            centre = positions.mean(axis=0)
            floor = self.floor_height if self.floor_height is not None else 0.0
            shadow = contact_shadow(positions, centre, floor, look.key_dir)
            self._fits.append((fit_ellipsoid(positions, centre), shadow, positions.min(axis=0), positions.max(axis=0)))
            self._looks.append(look)
        casters = np.zeros((5, MAX_CASTERS, 4), dtype="f4")
        for i, ((ellipsoid_centre, axes, radii), *_rest) in enumerate(self._fits[:MAX_CASTERS]):
            casters[0, i, :3] = ellipsoid_centre
            casters[1:4, i, :3] = (axes / radii).T  # rows of the map to the unit sphere
            casters[4, i, :3] = self._looks[i].shadow_tint
        self._casters.write(casters.tobytes())

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
        draw.clear(depth=1.0)
        self._backdrop(camera, size, targets)
        draw.use()
        ctx.viewport = (0, 0, *size)
        if self.floor_height is not None:
            self._floor_shadows(view, proj, eye)
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.depth_func = "<="
        self._obstacles(view, proj, eye)

        self._copy_behind(targets, None)
        dirty = []
        distances = [float(np.linalg.norm(fit[0][0] - eye)) for fit in self._fits]
        order = range(len(self._bodies))
        if self.sort_back_to_front:
            order = sorted(order, key=lambda i: -distances[i])
        for number in order:
            drawn = self._screen_rect(number, view_proj, size, camera.near)
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
        self._targets = {
            "key": (size, samples), "texture": texture,
            "behind": ctx.framebuffer(color_attachments=[texture]),
            "draw": ctx.framebuffer(color_attachments=[color], depth_attachment=depth),
            "backdrop": ctx.framebuffer(color_attachments=[backdrop]),
        }
        self._backdrop_key = None
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
            bp = self.backdrop_prog
            look = self.look
            set_uniform(bp, "u_inv_view_proj", np.linalg.inv(camera.view_projection(size[0] / size[1])).astype("f4"))
            set_uniform(bp, "u_eye", tuple(camera.eye()))
            # No floor: one far below the horizon's haze reads as sky all round.
            set_uniform(bp, "u_floor_height", self.floor_height if self.floor_height is not None else -1e6)
            set_backdrop_look(bp, look)
            self._backdrop_vao.render(moderngl.TRIANGLES, vertices=3)
            self._backdrop_key = key
        ctx.copy_framebuffer(targets["draw"], targets["backdrop"])

    def _floor_shadows(self, view, proj, eye) -> None:
        ctx = self.ctx
        shp = self.shadow_prog
        set_uniform(shp, "u_view", view)
        set_uniform(shp, "u_proj", proj)
        set_uniform(shp, "u_eye", eye)
        set_uniform(shp, "u_floor_height", self.floor_height)
        set_uniform(shp, "u_fog_distance", self.look.fog_distance)
        set_uniform(shp, "u_shadow_halo", 1.0 if self.shadow_halo else 0.0)
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.DST_COLOR, moderngl.ZERO
        for (_ellipsoid, (footprint, lift, depth), _lo, _hi), look in zip(self._fits, self._looks):
            set_uniform(shp, "u_shadow", tuple(float(v) for v in footprint))
            set_uniform(shp, "u_shadow_lift", lift)
            set_uniform(shp, "u_shadow_depth", depth)
            set_uniform(shp, "u_shadow_tint", tuple(look.shadow_tint))
            self._shadow_vao.render(moderngl.TRIANGLE_STRIP)
        ctx.blend_func = moderngl.DEFAULT_BLENDING
        ctx.disable(moderngl.BLEND)

    def _obstacles(self, view, proj, eye) -> None:
        op = self.obstacle_prog
        look = self.look
        set_uniform(op, "u_view", view)
        set_uniform(op, "u_proj", proj)
        set_uniform(op, "u_eye", eye)
        set_uniform(op, "u_key_dir", tuple(look.key_dir))
        set_uniform(op, "u_fill_dir", tuple(look.fill_dir))
        set_uniform(op, "u_sky_top", tuple(look.sky_top))
        set_uniform(op, "u_horizon", tuple(look.sky_horizon))
        set_uniform(op, "u_fog_distance", look.fog_distance)
        # Cut where sunk into the floor (the camera is above it: what is below is hidden).
        set_uniform(op, "u_floor_height", self.floor_height if self.floor_height is not None else -1e30)
        if self._obstacle_vao is not None:
            set_uniform(op, "u_casters", min(len(self._fits), MAX_CASTERS))
            self._casters.bind_to_uniform_block(0)
            self._obstacle_vao.render(moderngl.TRIANGLES)

    def _screen_rect(self, number: int, view_proj, size, near: float) -> tuple:
        """The slime's box on screen in pixels (x0, y0, x1, y1), GL's bottom-up rows; all of the
        screen where part of it is behind the eye."""
        _ellipsoid, _shadow, lo, hi = self._fits[number]
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
        sp = self.slime_prog
        set_jelly_look(sp, look)
        set_uniform(sp, "u_behind", 0)
        set_uniform(sp, "u_wireframe", 1 if self.wireframe else 0)
        # The floor's shadows are in the texture already: none added at the landing point.
        set_uniform(sp, "u_shadow_depth", 0.0)
        set_uniform(sp, "u_view", view)
        set_uniform(sp, "u_proj", proj)
        set_uniform(sp, "u_view_proj", view_proj.astype("f4"))
        set_uniform(sp, "u_eye", eye)
        set_uniform(sp, "u_floor_height", self.floor_height if self.floor_height is not None else -1e6)
        set_uniform(sp, "u_viewport", (0.0, 0.0, float(size[0]), float(size[1])))
        set_uniform(sp, "u_body_center", tuple(float(v) for v in ellipsoid[0]))
        set_uniform(sp, "u_body_inverse", ellipsoid_inverse(ellipsoid))
        targets["texture"].use(location=0)
        if self.wireframe:  # every edge, the far side's too
            ctx.wireframe = True
            self._bodies[number].vao.render(moderngl.TRIANGLE_STRIP)
            ctx.wireframe = False
            return
        ctx.enable(moderngl.CULL_FACE | moderngl.DEPTH_TEST)
        ctx.cull_face = "back"
        self._bodies[number].vao.render(moderngl.TRIANGLE_STRIP)
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
        if self._obstacle_vbo is not None:
            self._obstacle_vbo.release()
        for obj in self._vaos + [self._shadow_vbo, self._casters, self.slime_prog,
                                 self.backdrop_prog, self.present_prog, self.shadow_prog, self.obstacle_prog]:
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
def world_camera(bodies, camera=None) -> OrbitCamera:
    """``camera`` as an OrbitCamera: one as is; (azimuth_deg, elevation_deg, distance[, target]);
    or, for None, a three-quarter view framing every slime."""
    if isinstance(camera, OrbitCamera):
        return camera
    points = np.concatenate([np.asarray(b[0], dtype=np.float64) for b in bodies]) if bodies else np.zeros((1, 3))
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre = 0.5 * (lo + hi)
    reach = max(float(np.linalg.norm(hi - lo)) * 0.5, 0.25)
    cam = OrbitCamera(distance=3.2 * reach + 1.0, target=np.array([centre[0], 0.6 * centre[1], centre[2]]),
                      min_distance=0.1, max_distance=1000.0)
    if camera is not None:
        values = list(camera)
        if len(values) not in (3, 4):
            raise ValueError(f"camera must be (azimuth_deg, elevation_deg, distance[, target]), got {camera!r}")
        cam.azimuth, cam.elevation, cam.distance = (float(v) for v in values[:3])
        if len(values) == 4:
            cam.target = np.asarray(values[3], dtype=np.float64)
        if not all(math.isfinite(v) for v in (cam.azimuth, cam.elevation, cam.distance)) or cam.distance <= 0:
            raise ValueError(f"camera needs finite angles and a distance > 0, got {camera!r}")
    return cam


def render_world_picture(ctx, bodies, obstacles=(), camera=None, size=(640, 480), *, samples: int = 4,
                         floor_height: float | None = 0.0, look: SlimeLook | None = None, shaders=None) -> np.ndarray:
    """One picture of a world, (H, W, 3) uint8, top row first. ``ctx`` None: a headless (EGL)
    context made and released here. ``bodies``: (positions, strip, SlimeLook or None) per slime;
    ``obstacles``: see the module's docstring; ``camera``: see ``world_camera``."""
    from slime.render.context import create_headless_context
    from slime.render.images import read_rgba

    width, height = (int(v) for v in size)
    if width < 1 or height < 1:
        raise ValueError(f"size must be at least 1x1 pixels, got {size!r}")
    bodies = _check_bodies(bodies)
    cam = world_camera(bodies, camera)
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
