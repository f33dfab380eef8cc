"""The interactive 3D slime window (moderngl-window 3.x): a world of slimes (``World3D``), drawn by
``WorldRenderer``. By default the world holds the one demo slime; ``slime scene pile`` (or a 3D
scene file) opens the same window on that scene's world (slime/scenes/world_scene.py builds it).

Mouse: left click pokes the slime the cursor's ray meets first, where it meets it; left drag grabs
that point and pulls it after the cursor (release throws with the mouse's velocity); right or
middle drag orbits the camera; the wheel zooms. N drops a new slime from above the point under the
cursor (a slime, an obstacle or the floor), Delete takes away the slime under it, Q squashes them
all. What these do to the world, without the window, is ``world_play.WorldPlay``; the left
button's gesture is ``gesture.Gesture`` (the mouse's wiring ``demo_mouse.py``). Every input is a
row of ``demo_keys.INPUT``, which the help (H), README's table and the key dispatch are made from.
The panel's sliders, and its material list (the named materials of
slime/physics/slime3d/materials.py), change every slime of the world at once. What the window
opens with is a ``demo_start.DemoOptions``; ``demo_bench.py`` is its frame-rate mode.

The camera follows the slime while the world holds exactly one (the demo's); with several it stays
where the user or the scene put it.

Coordinates: mouse events arrive in window points, the viewport is in framebuffer pixels (they
differ on HiDPI screens), so rays are cast with ``wnd.size`` and drawing uses ``wnd.buffer_size``.
Physics runs at a fixed dt from an accumulator, independent of the frame rate.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

import numpy as np

import moderngl_window as mglw

from slime.app.panel import draw_sliders, shown_value
from slime.app.demo_bench import FrameRateBench
from slime.app.demo_keys import HELP, KeyActions, key_actions  # noqa: F401 (HELP: the help overlay's rows)
from slime.app.demo_keys import event_log as _log
from slime.app.demo_mouse import MouseInput
from slime.app.demo_start import DemoOptions, open_window, start_world
from slime.app.gesture import FixedSteps, Gesture
from slime.app.quality import LEVEL_NAMES, LEVELS, TARGET_FPS, QualityController
from slime.app.render_common import held_to_limits
from slime.app.render_world import keep_camera_outside as _keep_camera_outside
from slime.app.window_common import (FpsCounter, FramePacer, draw_shader_errors, no_display, open_panel, save_screenshot,
                                     shader_failure, window_failed)
from slime.app.world_play import POKE_IMPULSE  # noqa: F401 (the window's click, N s per kg: tests read it here)
from slime.app.world_view import WorldView
from slime.framing import Framer, world_points
from slime.physics.slime3d.materials import MATERIALS
from slime.render.context import has_display
from slime.look import RANGES, SlimeLook
from slime.render.shader_files import ShaderError, ShaderWatch, shader_folder
from slime.render.text import TextOverlay

NOTICE_SECONDS = 3.0  # how long a notice (no more slimes) stays on screen
__all__ = ["DemoWindow", "HELP", "POKE_IMPULSE", "run_demo"]


class DemoWindow(KeyActions, MouseInput, mglw.WindowConfig):
    title = "slime"
    gl_version = (3, 3)
    window_size = (1280, 720)
    aspect_ratio = None  # follow the window; a fixed ratio letterboxes
    resizable = True
    samples = 0  # multisampling is the quality level's (drawn offscreen, see _draw_scene)
    vsync = True
    clear_color = None  # the renderer clears (sky colour)
    log_level = logging.WARNING  # no context banner on every start

    options = DemoOptions()  # what it opens with (demo_start.open_window makes a subclass with the asked-for ones)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        options = self.options
        self.max_frames = int(options.frames)
        self.shaders = shader_folder(options.shaders)
        width, height = self.wnd.size
        self.play, self.camera, obstacles, mode = start_world(
            options.scene, options.stacks, options.slices, options.look(), options.seed, options.material,
            aspect=width / max(height, 1), settings=options.settings)
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

        quality = options.quality
        self._pacer = FramePacer()
        # Paced below the quality's 60 FPS, the frames' budget is the pace's: a paced frame is not a slow one.
        target = min(TARGET_FPS, self._pacer.max_fps or TARGET_FPS)
        self.quality = QualityController(target_fps=target, pinned=None if quality == "adaptive" else LEVEL_NAMES.index(quality))
        self.bench = FrameRateBench(options.bench_seconds) if options.bench_seconds > 0.0 else None

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
        if self.bench is not None:
            self.bench.frame(self)
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
        # A slider per declared parameter that has one (slime/app/panel.py). Gravity shows the one
        # in force: 0 while G has it off; moving the slider turns it back on.
        draw_sliders(imgui, lambda param: self.shown_gravity() if param.name == "gravity" else shown_value(param, getattr(p, param.name)),
                     self._slider_moved,
                     lambda param: "gravity (off: G)" if param.name == "gravity" and not self.gravity_on else param.label)
        imgui.set_next_item_open(self.look_open, imgui.Cond_.once)
        if imgui.collapsing_header("look (SlimeLook)"):
            self._draw_look_widgets(imgui)
        imgui.pop_item_width()
        imgui.text("H: help   R: reset   Space: pause")
        imgui.end()
        if self.show_help:
            self.draw_help(imgui)
        self.panel.draw()

    def _slider_moved(self, param, value) -> None:
        """A panel slider moved: gravity turns back on at its value, a mesh's remakes every slime,
        any other sets its parameter on every slime."""
        if param.name == "gravity":
            self.gravity = np.array(value)
            self.gravity_on = True
            self._set_gravity(value)
        elif param.slider.rebuilds:
            self._rebuild(**{param.name: value})
        else:
            self._set(**{param.name: value})

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

    def on_unicode_char_entered(self, char):
        if self.imgui is not None:
            self.imgui.char(char)

    # --- keys -------------------------------------------------------------------------------
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


def run_demo(*, size=(1280, 720), window=None, **options) -> int:
    """Open the demo window and run until it closes; returns an exit status (2: no display, or
    shaders that do not compile). ``size`` in window points, ``window`` the backend (None: pyglet;
    "headless" draws offscreen); ``options``: DemoOptions' fields. Options no window can open with
    (an unknown material, a scene that cannot be read or does not fit the window): ValueError, one
    line, before any window opens."""
    options = DemoOptions(**options)
    options.check()
    if window != "headless" and not has_display():
        scene = options.scene
        return no_display("slime", f"render to a file instead: slime render{'' if scene is None else f' {scene}'}")
    try:
        config = open_window(DemoWindow, options, size, window)
    except ShaderError as exc:
        return shader_failure("slime", exc)
    except Exception as exc:
        return window_failed("slime", exc, window)
    mglw.run_window_config_instance(config)
    return 0
