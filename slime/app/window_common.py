"""What both windows (the 3D slime demo and the 2D scene window) do the same way: the imgui
parameter panel (input adapter + renderer), the FPS readout, screenshot files named by the time,
live shaders (watched files, F5, compiler messages on screen), and the message when there is no
display.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

from slime.fileio import OUTPUT_FOLDER, resolved, write_error
from slime.window_backends import WINDOW_BACKENDS
from slime.render.images import save_png

@dataclass(frozen=True)
class KeyRow:
    """A row of a window's input table: the input as its help shows it, what it does, and the
    key names it answers to, each with the window method it calls and that method's arguments
    (none for the mouse). Both windows' help and dispatch are made from their tables."""

    label: str
    help: str
    keys: dict = field(default_factory=dict)  # key name -> (window method, *arguments)


NO_DISPLAY_STATUS = 2  # the exit status of a window command where no window can open
WINDOW_FAILED_STATUS = 3  # a display is there, but no OpenGL window opened on it (as GLUnavailable in the CLI)
SHADER_FAILED_STATUS = 2  # the shaders do not compile (bad input, as every other one-line error)

MAX_FPS_VARIABLE = "SLIME_MAX_FPS"


class FramePacer:
    """At most ``max_fps`` frames a second (``$SLIME_MAX_FPS``; unpaced by default): a frame that
    finished early sleeps out the rest of its time. A display's vsync paces a window already;
    where the swap does not wait (Xvfb, vsync off in the driver) the window otherwise draws the
    same picture again and again as fast as it can, on every core (software GL renders on all
    of them). The physics follows the clock, so pacing changes no motion, only how often it is
    drawn."""

    def __init__(self, max_fps: float | None = None):
        if max_fps is None:
            text = os.environ.get(MAX_FPS_VARIABLE, "").strip()
            try:
                max_fps = float(text) if text else None
            except ValueError:
                max_fps = None
            if text and not (max_fps and 1.0 <= max_fps < float("inf")):
                print(f"slime: warning: {MAX_FPS_VARIABLE}={text!r} is not a number of frames a second (1 or more); "
                      "frames are not paced", file=sys.stderr)
                max_fps = None
        self.max_fps = max_fps
        self.period = 1.0 / max_fps if max_fps else 0.0
        self._last = None

    def wait(self) -> None:
        """Call once a frame, at its end."""
        if not self.period:
            return
        now = time.perf_counter()
        if self._last is not None and now - self._last < self.period:
            time.sleep(self.period - (now - self._last))
            now = time.perf_counter()
        self._last = now


def typed_command() -> str:
    """How to type this slime again: ``slime`` where PATH finds this one, else the path it was
    started by (``.venv/bin/slime`` before the venv is activated)."""
    started = Path(sys.argv[0])
    if started.name != "slime":  # python -m slime, or a test
        return "slime"
    on_path = shutil.which("slime")
    if on_path and resolved(on_path) == resolved(started):
        return "slime"
    try:
        return str(resolved(started).relative_to(resolved(Path.cwd())))
    except ValueError:
        return str(started)


def no_display(who: str, instead: str) -> int:
    """One line on stderr saying no window can open here and what to do ``instead`` (its ``slime``
    commands as the user can type them); returns the exit status for it."""
    instead = re.sub(r"\bslime render\b", f"{typed_command()} render", instead)
    print(f"{who}: error: no display to open a window on (DISPLAY is not set); {instead}", file=sys.stderr)
    return NO_DISPLAY_STATUS


def window_failed(who: str, exc: BaseException, backend: str | None) -> int:
    """One line on stderr saying why no window opened and what to do about it; returns the exit
    status for it. The causes seen in practice: the backend's package is not installed, the X
    display named by DISPLAY cannot be reached, or the driver offers no OpenGL 3.3."""
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    backend = backend or "pyglet"
    if isinstance(exc, ImportError):
        package = WINDOW_BACKENDS.get(backend, backend)
        hint = f"the {backend} window backend needs `pip install {package}`"
        if backend != "pyglet":
            hint += ", or leave out --window to use pyglet"
    elif any(word in reason.lower() for word in ("connect", "display")):
        hint = (f"the display {os.environ.get('DISPLAY', '')!r} cannot be reached: start an X server "
                "(or run under xvfb-run), or render pictures without one with `slime render`")
    else:
        hint = ("update the graphics driver or install Mesa (apt-get install libgl1-mesa-dri libegl1), "
                "or render pictures without a window with `slime render`")
    print(f"{who}: error: could not open an OpenGL 3.3 window ({reason}); {hint}", file=sys.stderr)
    return WINDOW_FAILED_STATUS


def shader_failure(who: str, exc) -> int:
    """A window's shaders do not compile at start (there is no last good program to keep): one
    line per compiler message on stderr, then the exit status for bad input."""
    for line in exc.lines:
        print(line, file=sys.stderr)
    print(f"{who}: error: the shaders above do not compile; fix them and start again "
          "(a running window reloads them as they are saved)", file=sys.stderr, flush=True)
    return SHADER_FAILED_STATUS


def draw_shader_errors(text, errors, size, scale: float = 1.0) -> None:
    """The compiler's messages in a box along the bottom of the window (over everything), while
    the last good programs keep drawing; lines too long for the window are wrapped."""
    if not errors:
        return
    lines = ["shader error: still drawing with the last good shaders (save a fix or press F5)", *errors[:12]]
    if len(errors) > 12:
        lines.append(f"... and {len(errors) - 12} more (all of them are on the terminal)")
    margin = 8 * scale
    width = text.measure(lines, scale=scale, background=0.92)[0]
    room = size[0] - 2 * margin
    if width > room:  # wrap at the characters that fit (the font's mean width), continuations indented
        fit = max(16, int(max(len(line) for line in lines) * room / width) - 1)
        lines = [part for line in lines for part in textwrap.wrap(line, fit, subsequent_indent="    ")]
    w, h = text.measure(lines, scale=scale, background=0.92)
    text.draw(lines, margin, max(0.0, size[1] - h - margin), size, scale=scale, background=0.92)


def setup_problem(exc: BaseException) -> bool:
    """True for a failure no window setting can fix (a missing package, an unreachable display),
    so trying again without multisampling is pointless."""
    reason = str(exc).lower()
    return isinstance(exc, ImportError) or "connect" in reason or "display" in reason


class FpsCounter:
    """Frames per second, recomputed every half second (a readout that flickers every frame cannot
    be read, and a label that changes twice a second is re-rasterised only then)."""

    PERIOD = 0.5

    def __init__(self):
        self.fps = 0.0
        self._frames, self._since = 0, time.perf_counter()

    def tick(self) -> float:
        """Count one frame; the current rate."""
        self._frames += 1
        now = time.perf_counter()
        if now - self._since >= self.PERIOD:
            self.fps = self._frames / (now - self._since)
            self._frames, self._since = 0, now
        return self.fps


def screenshot_path(stem: str, folder) -> Path:
    """``folder/<stem>-<date>-<time>.png``, with ``-1``, ``-2``... when a shot in the same second
    already took the name (never overwrites)."""
    folder = resolved(folder)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stem}-{stamp}.png"
    n = 1
    while path.exists():
        path = folder / f"{stem}-{stamp}-{n}.png"
        n += 1
    return path


def save_screenshot(pixels, stem: str, folder=None) -> Path | None:
    """Write an (H, W, 3) picture to a fresh ``screenshot_path`` in ``folder`` (default: the output
    folder, ``out/``); None, after one line on stderr, where the folder cannot take it (a
    screenshot is not worth the window)."""
    folder = OUTPUT_FOLDER if folder is None else folder
    try:
        path = screenshot_path(stem, folder)
        save_png(path, pixels)
    except OSError as exc:
        # The writers' errors are one line naming the file already; a bare system error is not.
        said = write_error(exc.filename, exc) if exc.filename and exc.strerror else exc
        print(f"slime: screenshot not saved: {said}", file=sys.stderr, flush=True)
        return None
    return path


class ImguiInput:
    """Window events into imgui's IO through its event API (io.mouse_down is read-only in 1.92).

    Mouse positions stay in window points, as imgui lays out; the renderer scales to pixels.
    """

    def __init__(self, wnd, imgui):
        self.wnd, self.imgui, self.io = wnd, imgui, imgui.get_io()
        keys, k = wnd.keys, imgui.Key
        self.keymap = {
            keys.TAB: k.tab, keys.LEFT: k.left_arrow, keys.RIGHT: k.right_arrow, keys.UP: k.up_arrow,
            keys.DOWN: k.down_arrow, keys.PAGE_UP: k.page_up, keys.PAGE_DOWN: k.page_down, keys.HOME: k.home,
            keys.END: k.end, keys.DELETE: k.delete, keys.SPACE: k.space, keys.BACKSPACE: k.backspace,
            keys.ENTER: k.enter, keys.ESCAPE: k.escape,
        }
        self.buttons = {wnd.mouse.left: 0, wnd.mouse.right: 1, wnd.mouse.middle: 2}

    def frame(self, frametime: float) -> None:
        """Per frame: the window may have been resized or moved to another screen."""
        width, height = (float(v) for v in self.wnd.size)
        self.io.display_size = (width, height)
        if width > 0 and height > 0:
            fb_w, fb_h = self.wnd.buffer_size
            self.io.display_framebuffer_scale = (fb_w / width, fb_h / height)
        self.io.delta_time = max(float(frametime), 1e-4)

    def position(self, x, y) -> None:
        self.io.add_mouse_pos_event(float(x), float(y))

    def button(self, x, y, button, down: bool) -> None:
        self.position(x, y)
        if button in self.buttons:
            self.io.add_mouse_button_event(self.buttons[button], down)

    def scroll(self, dx, dy) -> None:
        self.io.add_mouse_wheel_event(float(dx), float(dy))

    def key(self, key, action) -> None:
        if key in self.keymap:
            self.io.add_key_event(self.keymap[key], action == self.wnd.keys.ACTION_PRESS)

    def char(self, char: str) -> None:
        self.io.add_input_character(ord(char))

    @property
    def wants_mouse(self) -> bool:
        """The cursor is over a panel or dragging one of its widgets."""
        return bool(self.io.want_capture_mouse)

    @property
    def wants_keyboard(self) -> bool:
        """A panel has keyboard focus (imgui's own notion)."""
        return bool(self.io.want_capture_keyboard)

    @property
    def wants_text(self) -> bool:
        """A text field is being edited (ctrl+click on a slider types a value)."""
        return bool(self.io.want_text_input)


class ImguiPanel:
    """imgui-bundle for one window: a context of its own, the input adapter and the renderer.

    A frame is ``new_frame(frametime)``, the widgets (``panel.imgui.*``), then ``draw()``. imgui
    works on one current context per process; each frame makes this panel's own current first, so
    that two windows alive in one process (a test run's) never lay out, or take the mouse, in each
    other's context.
    """

    def __init__(self, wnd, ctx, *, light: bool = False, shaders=None):
        from imgui_bundle import imgui

        from slime.render.imgui_renderer import ImguiRenderer

        # A new context is made current only where none was: a second window's must be set so.
        self.context = imgui.create_context()
        imgui.set_current_context(self.context)
        imgui.get_io().set_ini_filename("")  # no imgui.ini left in the user's folder
        if light:
            imgui.style_colors_light()
        self.wnd, self.imgui = wnd, imgui
        self.renderer = ImguiRenderer(ctx, imgui, shaders=shaders)
        self.input = ImguiInput(wnd, imgui)

    def new_frame(self, frametime: float) -> None:
        self.imgui.set_current_context(self.context)
        self.input.frame(frametime)
        self.imgui.new_frame()

    def draw(self) -> None:
        self.imgui.set_current_context(self.context)
        self.imgui.render()
        self.renderer.render(self.imgui.get_draw_data(), self.wnd.buffer_size, self.wnd.size)


def open_panel(wnd, ctx, *, light: bool = False, unavailable: str, shaders=None) -> ImguiPanel | None:
    """The panel, or None after printing ``unavailable`` (with ``{exc}`` filled in): a missing or
    broken imgui-bundle costs the sliders, never the window (a shader of the panel's own that does
    not compile is an error, as for the other shaders)."""
    from slime.render.shader_files import ShaderError

    try:
        return ImguiPanel(wnd, ctx, light=light, shaders=shaders)
    except ShaderError:
        raise
    except Exception as exc:
        print(unavailable.format(exc=exc), file=sys.stderr)
        return None
