"""`slime scene NAME`: a resizable window that plays any Scene2D through the protocol alone.

The window owns a few keys (help, screenshot, shaders, quit, and the parameters' [ ] - =), each a
row of ``scene_keys.WINDOW_KEYS`` / ``PARAMETER_KEYS``, which the help and the dispatch are made
from. A scene that needs 'h' or 'p' itself (the springs scene: h/l change gravity) names them in
its ``keys``; those letters then go to the scene and only F1 / F12 serve the window.

The scene steps at a fixed 60 Hz from an accumulator, whatever the frame rate. Mouse positions come
in window pixels and are mapped to world coordinates with the renderer's own View2D, so they agree
on HiDPI screens too (the window size and the framebuffer size share one aspect).
"""

from __future__ import annotations

import logging
import os
import sys

import moderngl_window as mglw

from slime.app.scene_keys import (SceneKeys, help_text, protocol_key_names, reserved_keys, window_key_names,
                                   with_modifiers)
from slime.app.window_common import (FpsCounter, FramePacer, draw_shader_errors, no_display, open_panel, save_screenshot,
                                     setup_problem, shader_failure, window_failed)
from slime.render.context import has_display
from slime.render.draw2d import Renderer2D, scene_view
from slime.render.images import read_rgba
from slime.render.shader_files import ShaderError, ShaderWatch, shader_folder
from slime.render.text import TextOverlay
from slime.scenes import load_scene
from slime.scenes.base import Scene2D, drawing_of, pointer

STEP_DT = 1.0 / 60.0
MAX_STEPS_PER_FRAME = 8  # after a stall, drop the backlog instead of spiralling
MARGIN = 8
HUD_MIN_SCALE = 0.6  # a HUD wider than its room is drawn smaller, down to this share of its size
PANEL_ITEM_WIDTH = (90, 180)  # slider width in points: 30 % of the window, within these
HELP_OPACITY = 0.95  # the help sits over the scene: nearly opaque so both do not mix


class SceneWindow(SceneKeys, mglw.WindowConfig):
    """Runs ``scene`` (set on a subclass by ``run_scene``)."""

    gl_version = (3, 3)
    title = "slime"
    window_size = (1200, 800)
    resizable = True
    aspect_ratio = None
    samples = 4
    vsync = True
    clear_color = None  # cleared with the scene's own background
    log_level = logging.WARNING
    scene: Scene2D | None = None
    shaders = None  # a shader folder (None: the package's)
    opened = False  # set once a window exists, so a failure after that is not retried

    def __init__(self, **kwargs):
        type(self).opened = True
        super().__init__(**kwargs)
        if self.scene is None:
            raise RuntimeError("SceneWindow needs a scene; use run_scene()")
        folder = shader_folder(self.shaders)
        self.renderer = Renderer2D(self.ctx, shaders=folder)
        self.text = TextOverlay(self.ctx, shaders=folder)
        self.key_names = protocol_key_names(self.wnd.keys)
        self.own_keys = window_key_names(self.wnd.keys)
        self.reserved = reserved_keys(self.scene)
        self.accumulator = 0.0
        self.show_help = False
        self.screenshot_pending = False
        self.scene_buttons: list[str] = []  # buttons whose press went to the scene (not the panel)
        self._hud_top = 0  # framebuffer rows above the world kept for the HUD (scene.hud_above)
        self._last_world = (0.0, 0.0)  # the last pointer the view mapped (``world``)
        self._panel_size = (0.0, 0.0)  # window points, from the last frame; 0 until drawn
        self._panel_rect = None  # (x, y, w, h) window points, as drawn last frame
        self._logged = None  # the last layout printed (SLIME_SCENE_LOG=1)
        self.selected = 0
        self.fps = 0.0
        self.fps_label = ""
        self._fps = FpsCounter()
        self._pacer = FramePacer()
        # Optional: without it the parameters are HUD text driven by [ ] - =.
        self.panel = None
        if self.scene.parameters():
            self.panel = open_panel(
                self.wnd, self.ctx,  # imgui's dark style, as the scenes' dark theme (slime.theme)
                unavailable="slime: parameter panel unavailable ({exc}); use [ ] - = instead",
                shaders=folder,
            )
        self.imgui = self.panel.input if self.panel is not None else None  # the panel's input adapter
        # Live shaders: every file these read is watched; a save (or F5) recompiles them.
        owners = [self.renderer, self.text] + ([self.panel.renderer] if self.panel is not None else [])
        self.shader_watch = ShaderWatch(folder, owners)

    # ---- imgui panel ----

    def _panel_wants(self, what: str) -> bool:
        if self.imgui is None:
            return False
        return self.imgui.wants_mouse if what == "mouse" else self.imgui.wants_keyboard

    def _draw_panel(self, top: float, bottom: float, frame_time: float) -> None:
        """The sliders, their top-right corner pinned ``top`` points down the window's right edge
        (every frame, so a resize keeps it there), no lower than ``bottom`` (it scrolls)."""
        imgui = self.panel.imgui
        params = self.scene.parameters()
        self.panel.new_frame(frame_time)
        w = self.wnd.size[0]
        imgui.set_next_window_pos((w - MARGIN, top), imgui.Cond_.always, (1.0, 0.0))
        imgui.set_next_window_size_constraints((0.0, 0.0), (max(w - 2 * MARGIN, 1.0), max(bottom - top, 40.0)))
        imgui.set_next_window_bg_alpha(0.85)
        imgui.begin("parameters", None, imgui.WindowFlags_.always_auto_resize)
        imgui.push_item_width(min(max(0.3 * w, PANEL_ITEM_WIDTH[0]), PANEL_ITEM_WIDTH[1]))
        for i, p in enumerate(params):
            label = ("> " if i == self.selected else "  ") + p.name
            changed, value = imgui.slider_float(label, float(p.get()), float(p.lo), float(p.hi))
            if changed:  # ctrl+click lets a value be typed past the slider's ends: the ends hold
                p.set(min(max(float(value), p.lo), p.hi))
        imgui.pop_item_width()
        # Its size (window points), so the next frame's layout keeps it off the HUD and a scene
        # that keeps a HUD strip keeps the panel in it too; from the last frame, like every imgui
        # measurement.
        pos, extent = imgui.get_window_pos(), imgui.get_window_size()
        self._panel_size = (extent.x, extent.y)
        self._panel_rect = (pos.x, pos.y, extent.x, extent.y)
        imgui.end()
        self.panel.draw()

    # ---- coordinates ----

    def world(self, x: float, y: float):
        """Window pixels (top-left origin) -> world coordinates, with the renderer's own fit."""
        # The world is drawn below the HUD strip when the scene keeps one (hud_above); the strip's
        # height is last frame's, in framebuffer pixels, and the mouse is in window points.
        top = self._hud_top / max(self.wnd.pixel_ratio, 1e-6)
        w, h = self.wnd.size
        wx, wy = scene_view(self.scene, (w, h - top)).pixel_to_world((x, y - top))
        try:
            self._last_world = pointer((wx, wy))
        except ValueError:
            pass  # a window squeezed to nothing maps no point: the last good one stands in
        return self._last_world

    # ---- frame ----

    def on_render(self, time_s: float, frame_time: float) -> None:
        self.shader_watch.check()
        self.accumulator += min(max(frame_time, 0.0), MAX_STEPS_PER_FRAME * STEP_DT)
        steps = 0
        while self.accumulator >= STEP_DT and steps < MAX_STEPS_PER_FRAME:
            self.scene.step()
            self.accumulator -= STEP_DT
            steps += 1
        if steps == MAX_STEPS_PER_FRAME:
            self.accumulator = 0.0
        self.fps = self._fps.tick()
        self.fps_label = f"{self.fps:.0f} fps"  # the text overlay caches it between changes

        size = tuple(self.wnd.buffer_size)
        ratio = self.wnd.pixel_ratio
        self.ctx.viewport = (0, 0, *size)
        self.ctx.clear(*self.scene.background)
        margin = MARGIN * ratio
        hud = list(self.scene.hud())
        if self.imgui is None and self.scene.parameters():
            hud += [""] + self._parameter_lines()
        layout = self._layout(size, ratio, hud)
        self._hud_top = 0
        if hud and self.scene.hud_above:
            strip = max(layout["hud"][3], layout["panel_bottom"]) + margin
            self._hud_top = min(size[1] // 2, int(strip))
        # GL's viewport origin is the bottom-left: the world gets all but the top strip.
        world_size = (size[0], size[1] - self._hud_top)
        self.ctx.viewport = (0, 0, *world_size)
        self.renderer.draw(drawing_of(self.scene), scene_view(self.scene, world_size), pixel_ratio=ratio,
                           stroke_world=self.scene.stroke)
        self.ctx.viewport = (0, 0, *size)
        if hud:
            self.text.draw(hud, margin, margin, size, scale=layout["hud_scale"])
        self.text.draw([self.fps_label], *layout["fps"][:2], size, scale=ratio)
        hint = ["F1 help" if "h" in self.reserved else "H help"]
        hw, hh = self.text.measure(hint, scale=ratio)
        self.text.draw(hint, margin, size[1] - hh - margin, size, scale=ratio)

        if self.screenshot_pending:  # before help and panel, so the picture is the scene and its HUD
            self.screenshot_pending = False
            self._save_screenshot()

        if self.imgui is not None:
            self._draw_panel(top=layout["panel_top"] / ratio, bottom=(size[1] - hh - 2 * margin) / ratio,
                             frame_time=frame_time)
        help_box = None
        if self.show_help:  # last, over the panel too
            lines = help_text(self.scene)
            scale = 1.2 * ratio
            w, h = self.text.measure(lines, scale=scale, background=HELP_OPACITY)
            fit = min(1.0, (size[0] - 2 * margin) / w, (size[1] - 2 * margin) / h)
            if fit < 1.0:  # a small window still shows the whole help, smaller
                scale *= fit
                w, h = self.text.measure(lines, scale=scale, background=HELP_OPACITY)
            help_box = ((size[0] - w) / 2, (size[1] - h) / 2, w, h)
            self.text.draw(lines, help_box[0], help_box[1], size, scale=scale, background=HELP_OPACITY)
        draw_shader_errors(self.text, self.shader_watch.errors, size, ratio)
        if os.environ.get("SLIME_SCENE_LOG"):
            self._log_layout(ratio, layout["hud"] if hud else None, layout["fps"], help_box)
        self._pacer.wait()

    def _layout(self, size, ratio: float, hud: list[str]) -> dict:
        """Where this frame's HUD (top-left), FPS readout (top-right) and panel (top-right, under
        the readout) go, in framebuffer pixels, so that none covers another at any window size: a
        HUD too wide for its room is drawn smaller; a panel that would reach over the HUD moves
        down below it."""
        margin = MARGIN * ratio
        fw, fh = self.text.measure([self.fps_label], scale=ratio)
        hud_scale, hud_box = ratio, (margin, margin, 0, 0)
        room = size[0] - 3 * margin - fw
        if hud:
            w, h = self.text.measure(hud, scale=ratio)
            # Text does not shrink quite in proportion to its size (hinting): a few tries.
            for _ in range(4):
                if w <= room or hud_scale <= HUD_MIN_SCALE * ratio:
                    break
                hud_scale = max(HUD_MIN_SCALE * ratio, hud_scale * room / w)
                w, h = self.text.measure(hud, scale=hud_scale)
            hud_box = (margin, margin, w, h)
        below_hud = hud_box[1] + hud_box[3] + margin
        # The readout beside the HUD, or under it where even the smallest HUD leaves no room.
        fps_y = margin if hud_box[2] <= room else below_hud
        panel_top = fps_y + fh + margin
        panel_w, panel_h = (v * ratio for v in self._panel_size)
        # A panel not drawn yet has no width: it goes below the HUD until its first frame says
        # it fits beside it, rather than over the HUD for a frame.
        if hud and (not panel_w or size[0] - margin - panel_w < hud_box[0] + hud_box[2] + margin):
            panel_top = max(panel_top, below_hud)
        return {"hud": hud_box, "hud_scale": hud_scale, "fps": (size[0] - fw - margin, fps_y, fw, fh),
                "panel_top": panel_top, "panel_bottom": panel_top + panel_h if panel_w else 0.0}

    def _log_layout(self, ratio: float, hud, fps, help_box) -> None:
        """One line (window points) each time the layout changes, for the window tests."""
        def rect(box, scale):
            return "-" if box is None else ",".join(str(round(v / scale)) for v in box)

        w, h = self.wnd.size
        line = (f"layout window={w}x{h} hud={rect(hud, ratio)} fps={rect(fps, ratio)} "
                f"panel={rect(self._panel_rect, 1.0)} help={rect(help_box, ratio)}")
        if line != self._logged:
            self._logged = line
            print(line, flush=True)

    def _parameter_lines(self) -> list[str]:
        lines = ["parameters ([ ] select, - = change)"]
        for i, p in enumerate(self.scene.parameters()):
            mark = ">" if i == self.selected else " "
            lines.append(f"{mark} {p.name}: {p.get():.4g}  ({p.lo:g}..{p.hi:g})")
        return lines

    def _save_screenshot(self) -> None:
        path = save_screenshot(read_rgba(self.wnd.fbo, size=self.wnd.buffer_size)[..., :3], f"slime-{self.scene.name}")
        if path is not None:
            print(f"saved {path}", flush=True)

    def on_resize(self, width: int, height: int) -> None:
        pass  # the viewport and imgui's display size are read from the window every frame

    def on_unicode_char_entered(self, char: str) -> None:
        if self.imgui is not None:
            self.imgui.char(char)

    # ---- mouse ----

    def _button(self, button) -> str | None:
        mouse = self.wnd.mouse
        return {mouse.left: "left", mouse.right: "right", mouse.middle: "middle"}.get(button)

    def on_mouse_position_event(self, x, y, dx, dy) -> None:
        if self.imgui is not None:
            self.imgui.position(x, y)
            if self._panel_wants("mouse"):
                return
        self.scene.mouse_move(self.world(x, y))

    def on_mouse_press_event(self, x, y, button) -> None:
        if self.imgui is not None:
            self.imgui.button(x, y, button, True)
            if self._panel_wants("mouse"):
                return
        name = self._button(button)
        if name is None:
            return
        if name not in self.scene_buttons:
            self.scene_buttons.append(name)
        self.scene.mouse_press(self.world(x, y), name)

    def on_mouse_drag_event(self, x, y, dx, dy) -> None:
        if self.imgui is not None:
            self.imgui.position(x, y)
        xy = self.world(x, y)
        for name in self.scene_buttons:
            self.scene.mouse_drag(xy, name)

    def on_mouse_release_event(self, x, y, button) -> None:
        if self.imgui is not None:
            self.imgui.button(x, y, button, False)
        name = self._button(button)
        if name in self.scene_buttons:  # only presses the scene saw are released to it
            self.scene_buttons.remove(name)
            self.scene.mouse_release(self.world(x, y), name)

    def on_mouse_scroll_event(self, x_offset, y_offset) -> None:
        if self.imgui is not None:
            self.imgui.scroll(x_offset, y_offset)


def run_scene_instance(scene: Scene2D, *, size=(1200, 800), window: str | None = None, shaders=None) -> int:
    """Open the window on an already-built scene and block until it closes. ``shaders``: a shader
    folder to draw with (and watch); shaders that do not compile at start return 2."""
    w, h = (int(v) for v in size)
    config = type(
        f"SceneWindow_{scene.name}",
        (SceneWindow,),
        {"scene": scene, "title": f"slime - {scene.title}", "window_size": (w, h),
         "shaders": shader_folder(shaders)},
    )
    # Explicit arguments: moderngl-window must never parse the caller's sys.argv.
    args = ["--window", window or "pyglet", "--size", f"{w}x{h}"]
    try:
        mglw.run_window_config(config, args=args)
    except ShaderError as exc:
        return shader_failure("slime", exc)
    except Exception as exc:
        if config.opened:
            raise
        if setup_problem(exc):
            return window_failed("slime", exc, window)
        # Some servers (remote X, old drivers) offer no multisampled config: open without MSAA;
        # the shaders' own smoothstep edges keep the drawing anti-aliased.
        print(f"slime: no 4x multisampled window ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); "
              "opening without multisampling", file=sys.stderr)
        try:
            mglw.run_window_config(config, args=args + ["--samples", "0"])
        except ShaderError as again:
            return shader_failure("slime", again)
        except Exception as again:
            if config.opened:
                raise
            return window_failed("slime", again, window)
    return 0


def run_scene(name_or_path: str, *, size=(1200, 800), window: str | None = None, shaders=None) -> int:
    """Play a 2D scene (registry name or model file) in a window; 0 on a normal quit, 2 with no
    display. A bad name raises slime.scenes.SceneError (a ValueError with a one-line message)."""
    if not has_display():
        return no_display("slime", f"render to a file instead: slime render {name_or_path}")
    return run_scene_instance(load_scene(name_or_path), size=size, window=window, shaders=shaders)


__all__ = ["SceneWindow", "run_scene", "run_scene_instance", "help_text", "protocol_key_names", "reserved_keys",
           "window_key_names", "with_modifiers"]
