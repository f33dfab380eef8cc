"""The interactive 3D slime window (moderngl-window 3.x): a world of slimes (``World3D``), drawn by
``WorldRenderer``. By default the world holds the one demo slime; ``slime scene pile`` (or a 3D
scene file) opens the same window on that scene's world (slime/scenes/world_scene.py builds it).

Mouse: left click pokes the slime the cursor's ray meets first, where it meets it; left drag grabs
that point and pulls it after the cursor (release throws with the mouse's velocity); right or
middle drag orbits the camera; the wheel zooms. N drops a new slime from above the point under the
cursor (a slime, an obstacle or the floor), Delete takes away the slime under it, Q squashes them
all. What these do to the world, without the window, is ``world_play.WorldPlay``; the left
button's gesture is ``gesture.Gesture``. Every input is a row of ``demo_keys.INPUT``, which the
help (H), README's table and the key dispatch are made from. The panel's sliders, and its material list (the named
materials of slime/physics/slime3d/materials.py), change every slime of the world at once.

The camera follows the slime while the world holds exactly one (the demo's); with several it stays
where the user or the scene put it.

Coordinates: mouse events arrive in window points, the viewport is in framebuffer pixels (they
differ on HiDPI screens), so rays are cast with ``wnd.size`` and drawing uses ``wnd.buffer_size``.
Physics runs at a fixed dt from an accumulator, independent of the frame rate.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

import numpy as np

import moderngl_window as mglw

from slime import limits
from slime.app.demo_keys import HELP, dispatch, key_actions
from slime.app.gesture import FixedSteps, Gesture
from slime.app.quality import LEVEL_NAMES, LEVELS, TARGET_FPS, QualityController
from slime.app.render_common import held_to_limits
from slime.app.render_slime import default_camera
from slime.app.render_world import keep_camera_outside as _keep_camera_outside
from slime.app.window_common import (FpsCounter, FramePacer, draw_shader_errors, no_display, open_panel, save_screenshot,
                                     shader_failure, window_failed)
from slime.app.world_play import POKE_IMPULSE, WorldPlay, single_slime_world
from slime.app.world_view import WorldView
from slime.framing import FRAME, KEEP, Framer, world_points
from slime.physics.slime3d.materials import DEFAULT_MATERIAL, MATERIALS, find_material
from slime.physics.slime3d.slime_params import SlimeParams
from slime.render.context import has_display
from slime.look import RANGES, SlimeLook, parse_color
from slime.render.shader_files import ShaderError, ShaderWatch, shader_folder
from slime.render.text import TextOverlay

HELP_MARGIN = 10  # window points kept free around the help window
NOTICE_SECONDS = 3.0  # how long a notice (no more slimes) stays on screen
__all__ = ["DemoWindow", "HELP", "POKE_IMPULSE", "demo_args", "run_demo"]


def _log(message: str) -> None:
    """Event log for the window test (SLIME_DEMO_LOG=1); silent otherwise."""
    if os.environ.get("SLIME_DEMO_LOG"):
        print(message, flush=True)


class DemoWindow(mglw.WindowConfig):
    title = "slime"
    gl_version = (3, 3)
    window_size = (1280, 720)
    aspect_ratio = None  # follow the window; a fixed ratio letterboxes
    resizable = True
    samples = 0  # multisampling is the quality level's (drawn offscreen, see _draw_scene)
    vsync = True
    clear_color = None  # the renderer clears (sky colour)
    log_level = logging.WARNING  # no context banner on every start

    @classmethod
    def add_arguments(cls, parser):
        parser.add_argument("--stacks", type=int, default=None)
        parser.add_argument("--slices", type=int, default=None)
        parser.add_argument("--frames", type=int, default=0, help="close after this many frames (0: never)")
        parser.add_argument("--shaders", default=None, help="shader folder (default: the package's)")
        parser.add_argument("--color", default=None, help="the jelly's colour, R,G,B or #rrggbb")
        parser.add_argument("--material", default=None, choices=tuple(MATERIALS),
                            help="what the slime is made of (a scene's slimes that name none); default jelly")
        parser.add_argument("--quality", default="adaptive", choices=("adaptive",) + LEVEL_NAMES,
                            help="adapt the quality to keep 60 FPS, or pin one level")
        parser.add_argument("--bench-seconds", type=float, default=0.0,
                            help="measure the frame rate for this long after a warm-up, print it as JSON, and close")
        parser.add_argument("--scene", default=None, help="a bundled 3D scene's name or a 3D scene file (.json)")
        parser.add_argument("--seed", type=int, default=None, help="the sizes and colours of dropped slimes")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        argv = self.argv
        self.max_frames = int(getattr(argv, "frames", 0) or 0)
        self.shaders = shader_folder(getattr(argv, "shaders", None))
        color = getattr(argv, "color", None)
        look = SlimeLook().with_color(parse_color(color)) if color else SlimeLook()
        width, height = self.wnd.size
        self.play, self.camera, obstacles, mode = _start_world(
            getattr(argv, "scene", None), getattr(argv, "stacks", None), getattr(argv, "slices", None),
            look, getattr(argv, "seed", None), getattr(argv, "material", None), aspect=width / max(height, 1))
        self.framed_obstacles = obstacles  # kept in the picture with the slimes
        self.framer = Framer(self.camera, mode)
        world = self.play.world
        self.view = WorldView(self.ctx, floor_height=world.floor_height, look=self.play.base_look,
                              obstacles=obstacles, shaders=self.shaders)
        self.text = TextOverlay(self.ctx, shaders=self.shaders)  # the shader error box and the notices
        self.view.update(world, self.play.base_look)
        self.gravity = np.asarray(world.gravity, dtype=np.float64).copy()
        self.gravity_on = bool(np.any(self.gravity))
        self.jelly_color = list(self.play.base_look.deep_color)  # the panel's one-colour picker (SlimeLook.with_color)
        self.look_open = False  # the panel's look section starts folded

        quality = getattr(argv, "quality", "adaptive") or "adaptive"
        self._pacer = FramePacer()
        # Paced below the quality's 60 FPS, the frames' budget is the pace's: a paced frame is not a slow one.
        target = min(TARGET_FPS, self._pacer.max_fps or TARGET_FPS)
        self.quality = QualityController(target_fps=target, pinned=None if quality == "adaptive" else LEVEL_NAMES.index(quality))
        self.bench_seconds = float(getattr(argv, "bench_seconds", 0.0) or 0.0)
        self._bench = None  # (start time, frame count at start) once the warm-up is over

        self.paused = False
        self.wireframe = False
        self.show_help = False
        self.help_rect = None  # (x, y, w, h) window points of the keys window, while shown
        self.frame_count = 0
        self.fps = 0.0
        self._fps = FpsCounter()
        self.cursor = None  # (x, y) window points of the mouse, once it has moved over the window
        self.notice = None  # (text, shown until) on screen, e.g. that no more slimes fit

        # The left button's press, hold, drag and throw, on the wall clock of the events.
        self.gesture = Gesture(self.play, self._ray, lambda: -self.camera.forward(), _log)
        self.steps = FixedSteps()
        self.key_actions = key_actions(self.wnd.keys)

        # The panel is a convenience; the keys still work without it.
        self.panel = open_panel(
            self.wnd, self.ctx,
            unavailable="slime: parameter panel unavailable ({exc}); keys still work, H lists them",
            shaders=self.shaders,
        )
        self.imgui = self.panel.input if self.panel is not None else None  # the panel's input adapter
        # Live shaders: every file these read is watched; a save (or F5) recompiles them.
        owners = [self.view, self.text] + ([self.panel.renderer] if self.panel is not None else [])
        self.shader_watch = ShaderWatch(self.shaders, owners)

    @property
    def world(self):
        return self.play.world

    # --- simulation -------------------------------------------------------------------------
    def _advance(self, frametime: float) -> None:
        if self.paused:
            self.steps.stop()
            self.gesture.finish()
            return
        dt = float(self.world.dt)
        for _ in range(self.steps.count(frametime, dt)):
            self.gesture.steer(dt)  # the hand's motion, one step of the physics' time at a time
            self.play.step()
            if not self.gesture.dragging:
                # Every slime stays in the picture until the user orbits or zooms (slime.framing);
                # not while one is dragged: a moving camera would fight the cursor.
                width, height = self.wnd.size
                self.framer.update(world_points(self.world.positions, self.framed_obstacles), width / max(height, 1), dt)

    def _rebuild(self, **changes) -> None:
        """Every slime at another resolution (remade in its rest shape where it is)."""
        self._set(**changes)
        self.gesture.forget()

    def _set(self, **changes) -> None:
        try:
            self.play.set_params(**changes)
        except ValueError as exc:  # e.g. too stiff for the substeps: keep the old value, say why
            print(f"slime: {exc}", file=sys.stderr)

    def choose_material(self, name: str) -> None:
        """The panel's material list: every slime made of ``name`` (``SlimeParams.with_material``;
        the sliders then show its values); kept by R, and what N drops."""
        try:
            self.play.set_material(name)
        except ValueError as exc:
            print(f"slime: {exc}", file=sys.stderr)
            return
        _log(f"material {name}")

    def _draw_material_list(self, imgui) -> None:
        """The material list: it shows what the slimes are made of as it is (a name, "custom" once
        a slider or key has changed a material value, "mixed" where the slimes differ)."""
        shown = self.play.material_name()
        if imgui.begin_combo("material", shown):
            for name, material in MATERIALS.items():
                clicked, _ = imgui.selectable(name, name == shown)
                imgui.set_item_tooltip(material.about)
                if clicked:
                    self.choose_material(name)
            imgui.end_combo()

    def _say(self, text: str) -> None:
        """A line on screen for a few seconds (and on the event log)."""
        self.notice = (text, time.perf_counter() + NOTICE_SECONDS)
        _log(f"notice {text}")

    # --- drawing ----------------------------------------------------------------------------
    def on_render(self, time_s: float, frametime: float) -> None:
        self.gesture.tick(time.perf_counter())
        self.shader_watch.check()
        self._advance(frametime)
        if self.frame_count > 2:  # the first frames carry the window's start-up
            self.quality.frame(frametime)
        self.view.update(self.world, self.play.base_look)
        self._draw_scene()
        self.fps = self._fps.tick()
        if self.panel is not None:
            self._draw_panel(frametime)
        self._draw_notice()
        draw_shader_errors(self.text, self.shader_watch.errors, tuple(self.wnd.buffer_size), self.wnd.pixel_ratio)
        self.frame_count += 1
        if self.bench_seconds > 0.0:
            self._bench_tick()
        if self.max_frames and self.frame_count >= self.max_frames:
            self.wnd.close()
        self._pacer.wait()

    def _draw_notice(self) -> None:
        if self.notice is None:
            return
        text, until = self.notice
        if time.perf_counter() > until:
            self.notice = None
            return
        size = tuple(int(v) for v in self.wnd.buffer_size)
        scale = self.wnd.pixel_ratio
        width, _ = self.text.measure([text], scale=scale, background=0.92)
        self.text.draw([text], max(0.0, (size[0] - width) / 2), 8 * scale, size, scale=scale, background=0.92)

    def _draw_scene(self) -> None:
        """The world at the quality level's sampling and scale, drawn offscreen (on llvmpipe a
        window's own framebuffer is slower to draw into than a texture: one copy out is cheaper)
        and then copied, or scaled, onto the window (see world_view.py for which renderer)."""
        level = self.quality.level
        width, height = (int(v) for v in self.wnd.buffer_size)
        _keep_camera_outside(self.camera, self.world)
        size = held_to_limits((max(1, round(width * level.scale)), max(1, round(height * level.scale))))
        target = self.view.draw(self.camera, size, samples=level.samples, shadow_halo=level.shadow_halo,
                                wireframe=self.wireframe)
        if size == (width, height):
            self.ctx.copy_framebuffer(self.wnd.fbo, target.resolved)
        else:
            self.view.present(target.texture, self.wnd.fbo, (0, 0, width, height))
        self.wnd.use()

    @property
    def _target(self):
        """The offscreen target of the last frame (tests read its size and sampling)."""
        return self.view._target

    def _bench_tick(self) -> None:
        """``--bench-seconds``: after a warm-up (the quality controller's first decisions), count
        frames for that long, print one JSON line and close."""
        import json

        warm_up = 4.0
        now = time.perf_counter()
        if self._bench is None:
            self._bench = (now, self.frame_count, None)
            return
        start, _, measure = self._bench
        if measure is None:
            if now - start >= warm_up:
                self._bench = (start, self.frame_count, now)
            return
        if now - measure >= self.bench_seconds:
            frames = self.frame_count - self._bench[1]
            width, height = (int(v) for v in self.wnd.buffer_size)
            print(json.dumps({"benchmark": "window", "width": width, "height": height, "fps": frames / (now - measure),
                              "quality": self.quality.level.name, "adaptive": self.quality.adaptive}), flush=True)
            self.wnd.close()

    def toggle_gravity(self) -> None:
        """G: gravity off, or back on at the panel's last value."""
        self.gravity_on = not self.gravity_on
        self._set_gravity(tuple(self.gravity) if self.gravity_on else (0.0, 0.0, 0.0))

    def _set_gravity(self, gravity) -> None:
        try:
            self.play.set_gravity(gravity)
        except ValueError as exc:
            print(f"slime: {exc}", file=sys.stderr)
        self.gesture.forget()

    def shown_gravity(self) -> float:
        """The gravity the panel shows: the one in force (0 while G has it off), m/s^2 downward."""
        return float(-np.asarray(self.world.gravity, dtype=np.float64)[1]) + 0.0  # + 0.0: never "-0.00"

    def _set_look(self, **changes) -> None:
        """The panel's look fields, on every slime (and the scene's lights, sky and floor)."""
        try:
            SlimeLook.from_dict(changes, base=self.play.base_look)  # checked once, before any slime takes it
        except ValueError as exc:
            print(f"slime: {exc}", file=sys.stderr)
            return
        self._change_looks(lambda look: SlimeLook.from_dict(changes, base=look))

    def _change_looks(self, change) -> None:
        self.play.set_looks(change)

    def _draw_panel(self, frametime: float) -> None:
        imgui = self.panel.imgui
        p = self.play.template  # what every slime was last set to (and what N drops)
        self.panel.new_frame(frametime)
        imgui.set_next_window_pos((10, 10), imgui.Cond_.first_use_ever)
        imgui.begin("slime", None, imgui.WindowFlags_.always_auto_resize)
        imgui.push_item_width(150)  # compact: the window grows to fit the labels beside the sliders
        imgui.text(f"{self.fps:5.1f} FPS   {len(self.world.positions)} vertices" + ("   PAUSED" if self.paused else ""))
        count = len(self.world.bodies)
        # Short lines: the panel is as wide as its widest, and it must leave the slime free to click.
        imgui.text(f"{count} slime{'' if count == 1 else 's'}   N: add   Q: squash")
        level = self.quality.level
        # Two short lines: at the lowest level one line grew the panel over the middle of a 640-wide window.
        imgui.text(f"quality {level.name}: {level.samples}x MSAA")
        imgui.text(f"scale {level.scale:g}" + ("" if level.shadow_halo else ", hard shadow"))
        choices = ("adaptive",) + LEVEL_NAMES
        current = 0 if self.quality.adaptive else 1 + self.quality.index
        changed, value = imgui.combo("quality", current, choices)
        if changed:
            self.quality.pin(None if value == 0 else value - 1)
        self._draw_material_list(imgui)
        changed, value = imgui.slider_float("viscosity", float(p.viscosity), *limits.VISCOSITY, "%.2f")
        if changed:
            self._set(viscosity=value)
        changed, value = imgui.slider_float("surface tension", float(p.surface_tension), *limits.SURFACE_TENSION,
                                            "%.2f N/m")
        if changed:
            self._set(surface_tension=value)
        changed, value = imgui.slider_float("volume stiffness", float(p.volume_stiffness), *limits.VOLUME_STIFFNESS,
                                            "%.0f", imgui.SliderFlags_.logarithmic)
        if changed:
            self._set(volume_stiffness=value)
        changed, value = imgui.slider_float("shape stiffness", float(p.shape_stiffness), *limits.SHAPE_STIFFNESS,
                                            "%.0f", imgui.SliderFlags_.logarithmic)
        if changed:
            self._set(shape_stiffness=value)
        # The gravity in force: 0 while G has it off; moving the slider turns it back on.
        changed, value = imgui.slider_float("gravity" if self.gravity_on else "gravity (off: G)",
                                            self.shown_gravity(), *limits.GRAVITY, "%.2f m/s2")
        if changed:
            self.gravity = np.array([0.0, -value, 0.0])
            self.gravity_on = True
            self._set_gravity(tuple(self.gravity))
        # Logarithmic: the usual 8..64 get most of the slider; the top of the range is slow to simulate.
        changed, value = imgui.slider_int("stacks", int(p.stacks), *limits.RESOLUTION, "%d", imgui.SliderFlags_.logarithmic)
        if changed:
            self._rebuild(stacks=value)
        changed, value = imgui.slider_int("slices", int(p.slices), *limits.RESOLUTION, "%d", imgui.SliderFlags_.logarithmic)
        if changed:
            self._rebuild(slices=value)
        imgui.set_next_item_open(self.look_open, imgui.Cond_.once)
        if imgui.collapsing_header("look (SlimeLook)"):
            self._draw_look_widgets(imgui)
        imgui.pop_item_width()
        imgui.text("H: help   R: reset   Space: pause")
        imgui.end()
        if self.show_help:
            # Centred over everything (the panel too) and never larger than the window: it grows
            # to fit its lines and scrolls where the window is too small for them.
            w, h = self.wnd.size
            imgui.set_next_window_pos((w / 2, h / 2), imgui.Cond_.always, (0.5, 0.5))
            largest = (max(w - 2 * HELP_MARGIN, 1.0), max(h - 2 * HELP_MARGIN, 1.0))
            imgui.set_next_window_size_constraints((0.0, 0.0), largest)
            imgui.set_next_window_bg_alpha(0.95)  # over the slime: the keys must read, not mix with it
            imgui.begin("keys", None, imgui.WindowFlags_.always_auto_resize)
            if imgui.begin_table("keys", 2):
                for key, what in HELP:
                    imgui.table_next_row()
                    imgui.table_next_column()
                    imgui.text(key)
                    imgui.table_next_column()
                    imgui.text(what)
                imgui.end_table()
            rect = (*imgui.get_window_pos(), *imgui.get_window_size())
            if rect != self.help_rect:  # for the window test: where it is, and how much is scrolled out of it
                _log(f"help window={w}x{h} rect={','.join(str(round(v)) for v in rect)} "
                     f"hidden={round(imgui.get_scroll_max_y())}")
            self.help_rect = rect
            imgui.end()
        self.panel.draw()

    def _draw_look_widgets(self, imgui) -> None:
        look = self.play.base_look
        changed, value = imgui.color_edit3("jelly colour", self.jelly_color)
        if changed:
            self.jelly_color = list(value)
            self._change_looks(lambda old: old.with_color(value))
            return
        for name, label in (("deep_color", "deep colour"), ("glow_color", "glow colour")):
            changed, value = imgui.color_edit3(label, list(getattr(look, name)))
            if changed:
                self._set_look(**{name: tuple(value)})
        changed, value = imgui.slider_float3("absorption /m", list(look.absorption), 0.0, 6.0, "%.2f")
        if changed:
            self._set_look(absorption=tuple(max(v, 0.0) for v in value))
        for name, top in (("glow", 2.0), ("refraction", 2.0), ("refraction_depth", 3.0), ("fresnel", 0.2),
                          ("highlight", 5.0), ("rim", 2.0)):
            low = RANGES[name][0]
            changed, value = imgui.slider_float(name.replace("_", " "), float(getattr(look, name)), low, top, "%.2f")
            if changed:
                self._set_look(**{name: min(max(value, low), RANGES[name][1])})

    def on_resize(self, width: int, height: int) -> None:
        pass  # the viewport and imgui's display size are read from the window every frame

    # --- mouse ------------------------------------------------------------------------------
    def _ui_wants_mouse(self) -> bool:
        return self.imgui is not None and self.imgui.wants_mouse

    def _ray(self, x: float, y: float):
        return self.camera.ray(x, y, self.wnd.size)

    def on_mouse_position_event(self, x, y, dx, dy):
        self.cursor = (x, y)
        if self.imgui is not None:
            self.imgui.position(x, y)

    def on_mouse_press_event(self, x, y, button):
        if self.imgui is not None:
            self.imgui.button(x, y, button, True)
            if self._ui_wants_mouse():
                return
        self.cursor = (x, y)
        if button == self.wnd.mouse.left:
            self.gesture.down(x, y, time.perf_counter())

    def on_mouse_drag_event(self, x, y, dx, dy):
        self.cursor = (x, y)
        if self.imgui is not None:
            self.imgui.position(x, y)
            if self._ui_wants_mouse():
                return
        states = self.wnd.mouse_states
        if states.right or states.middle:
            self.camera.orbit(-0.35 * dx, 0.35 * dy)
            self.framer.user_moved()  # the user's camera from now on
            return
        if states.left:
            self.gesture.move(x, y, time.perf_counter())

    def on_mouse_release_event(self, x, y, button):
        if self.imgui is not None:
            self.imgui.button(x, y, button, False)
        if button == self.wnd.mouse.left:
            self.gesture.up(x, y, time.perf_counter())

    def on_mouse_scroll_event(self, x_offset, y_offset):
        if self.imgui is not None:
            self.imgui.scroll(x_offset, y_offset)
            if self._ui_wants_mouse():
                return
        self.camera.zoom(y_offset)
        self.framer.user_moved()

    def on_unicode_char_entered(self, char):
        if self.imgui is not None:
            self.imgui.char(char)

    # --- keys -------------------------------------------------------------------------------
    def on_key_event(self, key, action, modifiers):
        if self.imgui is not None:
            self.imgui.key(key, action)
            if self.imgui.wants_text:
                return
        if action == self.wnd.keys.ACTION_PRESS:
            dispatch(self, key)  # demo_keys.INPUT: what each key does

    def quit(self) -> None:
        self.wnd.close()

    def reset(self) -> None:
        self.play.reset()
        self.framer.reset()  # and the camera where it started, framing again
        self.gesture.forget()

    def spike(self) -> None:
        self.play.spike()

    def squash(self) -> None:
        self.play.squash()
        _log("squash")

    def toggle_pause(self) -> None:
        self.paused = not self.paused

    def toggle_wireframe(self) -> None:
        self.wireframe = not self.wireframe

    def scale_stiffness(self, name: str, factor: float) -> None:
        """A stiffness times ``factor``, within the panel's range: no number of presses can step
        past what the sliders offer."""
        low, high = {"volume_stiffness": limits.VOLUME_STIFFNESS, "shape_stiffness": limits.SHAPE_STIFFNESS}[name]
        self._set(**{name: float(np.clip(float(getattr(self.play.template, name)) * factor, low, high))})

    def toggle_help(self) -> None:
        self.show_help = not self.show_help
        if self.imgui is None:
            for name, what in HELP:
                print(f"{name:>18}  {what}")

    def reload_shaders(self) -> None:
        self.shader_watch.check(force=True)

    def save_screenshot(self) -> None:
        path = self.screenshot()
        if path is not None:
            _log(f"shot at {self.world.time:.4f}")
            print(path, flush=True)

    def _cursor_ray(self):
        """The ray under the cursor (the window's centre before the mouse has moved over it)."""
        w, h = self.wnd.size
        x, y = self.cursor if self.cursor is not None else (w / 2, h / 2)
        return self._ray(x, y)

    def drop_slime(self) -> int | None:
        """N: a new slime dropped from above the point under the cursor; None (and a notice) when
        the window holds as many as it may."""
        origin, direction = self._cursor_ray()
        index = self.play.drop_under_ray(origin, direction, reach=self.camera.distance)
        self.gesture.forget()
        if index is None:
            self._say(f"{self.play.limit} slimes is the most this window holds (limits.WINDOW_SLIMES)")
            return None
        centre = self.world.bodies[index].params.center
        _log(f"add {len(self.world.bodies)} {centre[0]:.3f} {centre[1]:.3f} {centre[2]:.3f}")
        return index

    def remove_slime(self) -> bool:
        """Delete / Backspace: the slime under the cursor goes; nothing happens where there is none."""
        origin, direction = self._cursor_ray()
        removed = self.play.remove_under_ray(origin, direction)
        if removed:
            self.gesture.forget()
            _log(f"remove {len(self.world.bodies)}")
        return removed

    def screenshot(self, folder=None) -> Path | None:
        """Render the scene (no panel) at the framebuffer's size, at the best quality, into a PNG
        named by the time; None where the folder cannot take it."""
        size = held_to_limits(self.wnd.buffer_size)
        try:
            pixels = self.view.picture(self.camera, size, samples=LEVELS[0].samples,
                                       shadow_halo=LEVELS[0].shadow_halo, wireframe=self.wireframe)
        finally:
            self.wnd.use()
        return save_screenshot(pixels, "slime", folder)


def _start_world(scene, stacks, slices, look: SlimeLook, seed, material=None, aspect: float = 16.0 / 9.0):
    """(WorldPlay, camera, obstacles to draw, the Framer's mode) for the demo's one slime, or for a
    3D scene (a bundled name or a file), the camera framed for a window of ``aspect`` (framed at
    another shape, the first frames would zoom to this one). A scene without a camera is framed as
    its slimes move (FRAME); the one slime's view (as ``slime render`` draws it) and a scene's own
    camera are kept, moved only where a slime would leave the picture (KEEP).
    ``material``: the one slime's, or that of a scene's slimes that name none (default jelly)."""
    changes = {}
    if stacks is not None:
        changes["stacks"] = stacks
    if slices is not None:
        changes["slices"] = slices
    if scene is None:
        params = SlimeParams.of_material(material or DEFAULT_MATERIAL, **changes)
        play = WorldPlay(single_slime_world(params), params, base_look=look, seed=seed)
        return play, default_camera(play.world.bodies[0]), [], KEEP
    from slime.app.render_world import scene_camera
    from slime.scenes.world_format import load_world_scene
    from slime.scenes.world_scene import build_world

    spec = load_world_scene(scene)
    check_window_scene(spec)
    first = build_world(spec, material)  # its camera and obstacles as drawn, too

    def make_world(more: dict) -> tuple:
        """The scene's world as it starts, with the command line's resolution and ``more`` (the
        panel's changes since) on every slime."""
        world = build_world(spec, material).world
        settings = {**changes, **more}
        if settings:
            world.set_slimes_params({i: b.params.with_(**settings) for i, b in enumerate(world.bodies)})
        return world, [b.tag for b in world.bodies]

    # Dropped slimes: the scene's first slime's size and settings, with the command line's resolution.
    template = spec.slime_params(material)[0].with_(center=None, **changes)
    play = WorldPlay(make_world, template, base_look=look, seed=seed)
    return play, scene_camera(first, aspect=aspect), first.drawn_obstacles, FRAME if spec.camera is None else KEEP


def check_window_scene(spec) -> None:
    """ValueError (one line) for a 3D scene the window cannot hold (more slimes than it draws)."""
    high = limits.WINDOW_SLIMES[1]
    if len(spec.slimes) > high:
        raise ValueError(f"the window holds at most {high} slimes (limits.WINDOW_SLIMES), the scene has "
                         f"{len(spec.slimes)}")


def demo_args(*, stacks=None, slices=None, size=(1280, 720), window=None, frames: int = 0, shaders=None, color=None, quality: str = "adaptive", bench_seconds: float = 0.0, scene=None,
              seed=None, material=None) -> list[str]:
    """The demo window's own command line (moderngl-window parses it)."""
    args = ["--size", f"{int(size[0])}x{int(size[1])}", "--frames", str(int(frames)), "--quality", quality]
    if window:
        args += ["--window", window]
        if window == "headless" and not has_display():
            args += ["--backend", "egl"]
    if stacks is not None:
        args += ["--stacks", str(int(stacks))]
    if slices is not None:
        args += ["--slices", str(int(slices))]
    if shaders is not None:
        args += ["--shaders", str(shader_folder(shaders).path)]
    if color is not None:
        args += ["--color", color if isinstance(color, str) else ",".join(f"{float(c):.6g}" for c in color)]
    if bench_seconds:
        args += ["--bench-seconds", str(float(bench_seconds))]
    if scene is not None:
        args += ["--scene", str(scene)]
    if seed is not None:
        args += ["--seed", str(int(seed))]
    if material is not None:
        args += ["--material", str(material)]
    return args


def run_demo(*, stacks=None, slices=None, size=(1280, 720), window=None, frames: int = 0, shaders=None, color=None, quality: str = "adaptive", bench_seconds: float = 0.0, scene=None,
             seed=None, material=None) -> int:
    """Open the demo window and run until it closes; returns an exit status (2: no display, or
    shaders that do not compile). ``shaders``: a shader folder to draw with (and watch);
    ``quality``: "adaptive" or a level name to pin (see slime/app/quality.py); ``scene``: a
    bundled 3D scene's name or a 3D scene file to open instead of the one slime (a scene that
    cannot be read or does not fit the window: ValueError, one line, before any window opens);
    ``seed``: the sizes and colours of the slimes N drops; ``material``: what the slime is made of
    (for a scene, its slimes that name none; default jelly; an unknown name: ValueError)."""
    if material is not None:
        find_material(material)
    if scene is not None:
        from slime.scenes.world_format import load_world_scene

        check_window_scene(load_world_scene(scene))
    if window != "headless" and not has_display():
        return no_display("slime", f"render to a file instead: slime render{'' if scene is None else f' {scene}'}")
    # Explicit arguments only: moderngl-window would otherwise parse sys.argv (pytest's, the CLI's).
    args = demo_args(stacks=stacks, slices=slices, size=size, window=window, frames=frames, shaders=shaders, color=color, quality=quality, bench_seconds=bench_seconds, scene=scene, seed=seed,
                     material=material)
    try:
        config = mglw.create_window_config_instance(DemoWindow, args=args)
    except ShaderError as exc:
        return shader_failure("slime", exc)
    except Exception as exc:
        return window_failed("slime", exc, window)
    mglw.run_window_config_instance(config)
    return 0
