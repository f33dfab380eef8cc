"""Drawing a 2D scene's DrawList with moderngl: instanced anti-aliased discs/rings for masses, thick
(optionally dashed) segments for springs, filled and outlined boxes.

The world-to-screen map fits the scene's ``bounds`` inside the viewport with the aspect preserved,
centred, flipping y for ``y_down`` scenes. The window converts mouse positions with the same
``View2D`` so a click lands where it is drawn. All sizes that are not world sizes (stroke widths,
dash length) are in pixels and scale with ``pixel_ratio`` on HiDPI screens.
"""

from __future__ import annotations

from dataclasses import dataclass

import moderngl
import numpy as np

from slime import theme
from slime.draw_list import DrawList
from slime.render.shader_files import shader_folder


@dataclass(frozen=True)
class View2D:
    """The fit of the world rectangle ``bounds`` into a ``size`` (w, h) pixel viewport.

    ``scale`` is pixels per world unit (the same in x and y, so circles stay round); the bounds are
    centred, and the leftover space on the longer side stays background.
    """

    bounds: tuple[float, float, float, float]
    y_down: bool
    size: tuple[float, float]

    @property
    def scale(self) -> float:
        xmin, ymin, xmax, ymax = self.bounds
        w, h = self.size
        return min(w / max(xmax - xmin, 1e-12), h / max(ymax - ymin, 1e-12))

    def _gl_affine(self) -> tuple[np.ndarray, np.ndarray]:
        """pixel_gl = world * scale_xy + offset, with GL's pixel origin at the bottom-left."""
        xmin, ymin, xmax, ymax = self.bounds
        w, h = self.size
        s = self.scale
        cx, cy = 0.5 * (xmin + xmax), 0.5 * (ymin + ymax)
        sy = -s if self.y_down else s
        scale_xy = np.array([s, sy])
        offset = np.array([0.5 * w - cx * s, 0.5 * h - cy * sy])
        return scale_xy, offset

    def world_to_pixel(self, xy) -> np.ndarray:
        """World points (..., 2) -> window pixels (..., 2), origin top-left, y down (mouse convention)."""
        scale_xy, offset = self._gl_affine()
        gl = np.asarray(xy, dtype=np.float64) * scale_xy + offset
        return np.stack([gl[..., 0], self.size[1] - gl[..., 1]], axis=-1)

    def pixel_to_world(self, px) -> np.ndarray:
        """Window pixels (..., 2), origin top-left, y down -> world points (..., 2)."""
        scale_xy, offset = self._gl_affine()
        px = np.asarray(px, dtype=np.float64)
        gl = np.stack([px[..., 0], self.size[1] - px[..., 1]], axis=-1)
        return (gl - offset) / scale_xy


def scene_view(scene, size) -> View2D:
    """How ``scene`` is shown in a ``size`` (w, h) pixel viewport this frame: the window and the
    headless pictures draw with it, and the window maps the mouse back with it."""
    return View2D(tuple(float(v) for v in scene.view_bounds()), bool(scene.y_down), (float(size[0]), float(size[1])))


class _Instanced:
    """One program drawn as instanced quads; the per-instance buffer grows (doubling) as needed."""

    def __init__(self, ctx: moderngl.Context, program: moderngl.Program, corners: np.ndarray, layout: str, names):
        self.ctx = ctx
        self.program = program
        self.corners = ctx.buffer(np.asarray(corners, dtype="f4").tobytes())
        self.layout = layout
        self.names = list(names)
        self.floats_per_instance = sum(int(part.split("f")[0]) for part in layout.split())
        self.capacity = 0
        self.instances = None
        self.vao = None

    def _reserve(self, count: int) -> None:
        if count <= self.capacity:
            return
        self.capacity = max(64, 1 << (count - 1).bit_length())
        if self.vao is not None:
            self.vao.release()
            self.instances.release()
        self.instances = self.ctx.buffer(reserve=self.capacity * self.floats_per_instance * 4, dynamic=True)
        self.vao = self.ctx.vertex_array(
            self.program,
            [(self.corners, "2f", "in_corner"), (self.instances, self.layout, *self.names)],
            skip_errors=True,  # an edited shader may stop using an input (the compiler drops it)
        )

    def use_program(self, program: moderngl.Program) -> None:
        """Draw with ``program`` from now on (a recompiled shader); the old one is released."""
        if self.vao is not None:
            self.vao.release()
            self.instances.release()
        self.program.release()
        self.program, self.vao, self.instances, self.capacity = program, None, None, 0

    def draw(self, data: np.ndarray) -> None:
        count = data.shape[0]
        if count == 0:
            return
        self._reserve(count)
        # Clipped into float32's range first (Renderer2D.draw already pulls world coordinates near
        # the view): a 1e200 would warn on the cast.
        limit = np.finfo(np.float32).max
        self.instances.write(np.clip(data, -limit, limit).astype("f4").tobytes())
        self.vao.render(moderngl.TRIANGLE_STRIP, vertices=4, instances=count)

    def release(self) -> None:
        for obj in (self.vao, self.instances, self.corners):
            if obj is not None:
                obj.release()


# How far outside the view (in view extents) a drawn point may lie before it is pulled in. The
# shaders work in float32 pixels and square a segment's length: a point 1e3 views away is ~1e6
# pixels off (its square 1e12, far inside float32) yet plainly off screen, so nothing visible
# changes, while a runaway scene's 1e222 neither overflows on the CPU nor turns to inf/NaN on the GPU.
_FAR = 1e3


def _extent(view: View2D) -> float:
    xmin, ymin, xmax, ymax = view.bounds
    return max(xmax - xmin, ymax - ymin, 1e-12)


def _near_view(view: View2D):
    """A function clipping world points (..., 2) into the view's bounds grown by ``_FAR`` extents
    on every side (NaN goes to the view's centre), without any floating-point warning."""
    xmin, ymin, xmax, ymax = view.bounds
    reach = _FAR * _extent(view)
    low = np.array([xmin - reach, ymin - reach])
    high = np.array([xmax + reach, ymax + reach])
    centre = 0.5 * (low + high)

    def near(points: np.ndarray) -> np.ndarray:
        if np.isfinite(points).all() and (points >= low).all() and (points <= high).all():
            return points  # the usual case: nothing to do
        points = np.where(np.isnan(points), centre, points)
        return np.clip(points, low, high)

    return near


class Renderer2D:
    """Draws DrawLists into the currently bound framebuffer's viewport.

    ``line_width`` and ``stroke`` (ring/outline thickness) and ``dash`` are in pixels at
    ``pixel_ratio`` 1. ``shaders``: the folder of the draw2d_* programs (default: the package's).
    """

    shader_names = ("draw2d_circle", "draw2d_line", "draw2d_box")

    def __init__(self, ctx: moderngl.Context, *, line_width: float = theme.LINE_PX, stroke: float = theme.STROKE_PX,
                 dash: float = theme.DASH_PX, shaders=None):
        self.ctx = ctx
        self.line_width = line_width
        self.stroke = stroke
        self.dash = dash
        circle, line, box = (shader_folder(shaders).programs(ctx, self.shader_names)[n] for n in self.shader_names)
        square = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
        self._circles = _Instanced(
            ctx, circle, square, "2f 1f 4f 1f/i", ("in_center", "in_radius", "in_color", "in_filled"),
        )
        self._lines = _Instanced(
            ctx, line, [(0, -1), (1, -1), (0, 1), (1, 1)], "2f 2f 4f 1f/i", ("in_start", "in_end", "in_color", "in_dashed"),
        )
        self._boxes = _Instanced(
            ctx, box, square, "2f 2f 4f 1f/i", ("in_min", "in_max", "in_color", "in_filled"),
        )

    def use_programs(self, programs: dict) -> None:
        """Draw with these recompiled programs (name -> program); the old ones are released."""
        for part, name in zip((self._circles, self._lines, self._boxes), self.shader_names):
            part.use_program(programs[name])

    def draw(self, draw_list: DrawList, view: View2D, *, pixel_ratio: float = 1.0, stroke_world: float = 0.0) -> None:
        """Draw boxes, then springs, then masses (masses on top), with straight-alpha blending.
        Springs are ``line_width`` pixels wide, or ``stroke_world`` world units where that is wider."""
        scale_xy, offset = view._gl_affine()
        uniforms = {
            "u_world_scale": tuple(float(v) for v in scale_xy),
            "u_world_offset": tuple(float(v) for v in offset),
            "u_viewport": (float(view.size[0]), float(view.size[1])),
            "u_width": max(self.line_width * pixel_ratio, float(stroke_world) * view.scale),
            "u_stroke": self.stroke * pixel_ratio,
            "u_dash": self.dash * pixel_ratio,
            "u_min_radius": 1.5 * pixel_ratio,
        }
        for part in (self._circles, self._lines, self._boxes):
            for name, value in uniforms.items():
                member = part.program.get(name, None)
                if member is not None:
                    member.value = value

        self.ctx.enable_only(moderngl.BLEND)
        self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self.ctx.blend_equation = moderngl.FUNC_ADD

        dl = draw_list
        near = _near_view(view)
        nb = len(dl.box_corners)
        if nb:
            corners = near(np.asarray(dl.box_corners, dtype=np.float64).reshape(nb, 2, 2)).reshape(nb, 4)
            filled = np.asarray(dl.box_filled, dtype=bool).reshape(nb, 1)
            boxes = np.hstack([corners, np.asarray(dl.box_colors).reshape(nb, 4), filled])
            # Filled boxes first so outlines drawn over them stay visible.
            order = np.argsort(~filled[:, 0], kind="stable")
            self._boxes.draw(boxes[order])
        nl = len(dl.line_segments)
        if nl:
            segments = near(np.asarray(dl.line_segments, dtype=np.float64).reshape(nl, 2, 2)).reshape(nl, 4)
            dashed = np.asarray(dl.line_dashed, dtype=bool).reshape(nl, 1) if len(dl.line_dashed) == nl else np.zeros((nl, 1))
            self._lines.draw(np.hstack([segments, np.asarray(dl.line_colors).reshape(nl, 4), dashed]))
        nc = len(dl.circle_centers)
        if nc:
            centers = near(np.asarray(dl.circle_centers, dtype=np.float64).reshape(nc, 2))
            radii = np.asarray(dl.circle_radii, dtype=np.float64).reshape(nc, 1)
            radii = np.clip(np.nan_to_num(radii, nan=0.0), 0.0, _FAR * _extent(view))
            filled = np.asarray(dl.circle_filled, dtype=bool).reshape(nc, 1)
            self._circles.draw(np.hstack([centers, radii, np.asarray(dl.circle_colors).reshape(nc, 4), filled]))

    def release(self) -> None:
        for part in (self._circles, self._lines, self._boxes):
            part.release()
            part.program.release()


__all__ = ["View2D", "Renderer2D", "scene_view"]
