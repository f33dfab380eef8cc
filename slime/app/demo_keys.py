"""The slime window's input, as one table: what each mouse gesture and key does (the help
overlay's rows, README's key table) and which of the window's methods a key calls (the
dispatch). A row's keys are moderngl-window key names (``wnd.keys.<NAME>``), each with the
window method it calls and that method's arguments."""

from __future__ import annotations

import os

import numpy as np

from slime import limits
from slime.app.gesture import HOLD_DELAY
from slime.app.window_common import KeyRow

HELP_MARGIN = 10  # window points kept free round the help window
HELP_TWO_UP = 600  # window points wide from which the help has two rows to a line
HELP_OPACITY = 0.8  # the help's background: it reads over the sky and the floor, and the slime shows through


def event_log(message: str) -> None:
    """The window's event log, for the window tests (SLIME_DEMO_LOG=1); silent otherwise."""
    if os.environ.get("SLIME_DEMO_LOG"):
        print(message, flush=True)


# Short lines: the help sits beside the slime and must leave it in sight (README says more).
INPUT = (
    KeyRow("left click", "poke the slime"),
    KeyRow(f"left hold ({HOLD_DELAY:g} s)", "press a finger in"),
    KeyRow("left drag", "pull; let go to throw"),
    KeyRow("right drag", "orbit (middle drag too)"),
    KeyRow("wheel", "zoom"),
    KeyRow("N", f"drop a slime (up to {limits.WINDOW_SLIMES[1]})", {"N": ("drop_slime",)}),
    KeyRow("Del / Backspace", "take that slime away",
        {"DELETE": ("remove_slime",), "BACKSPACE": ("remove_slime",)}),
    KeyRow("Q", "squash every slime", {"Q": ("squash",)}),
    KeyRow("R", "reset the world", {"R": ("reset",)}),
    KeyRow("S", "spike every slime", {"S": ("spike",)}),
    KeyRow("Space", "pause / resume", {"SPACE": ("toggle_pause",)}),
    KeyRow("W", "wireframe", {"W": ("toggle_wireframe",)}),
    KeyRow("G", "gravity on / off", {"G": ("toggle_gravity",)}),
    KeyRow("Up / Down", "volume stiffness up / down",
        {"UP": ("scale_stiffness", "volume_stiffness", 1.25), "DOWN": ("scale_stiffness", "volume_stiffness", 0.8)}),
    KeyRow("Left / Right", "shape stiffness down / up",
        {"LEFT": ("scale_stiffness", "shape_stiffness", 0.8), "RIGHT": ("scale_stiffness", "shape_stiffness", 1.25)}),
    KeyRow("H", "this help", {"H": ("toggle_help",)}),
    KeyRow("P", "screenshot PNG in out/", {"P": ("save_screenshot",)}),
    KeyRow("F5", "reload the shaders", {"F5": ("reload_shaders",)}),
    KeyRow("Esc", "quit", {"ESCAPE": ("quit",)}),
)

HELP = tuple((row.label, row.help) for row in INPUT)  # the help overlay's rows


def key_actions(keys) -> dict:
    """moderngl-window key constant -> (window method, *arguments), for the window's ``keys``."""
    return {getattr(keys, name): action for row in INPUT for name, action in row.keys.items()}


def dispatch(window, key) -> bool:
    """Call the window's method for ``key``; False for a key the table does not name."""
    action = window.key_actions.get(key)
    if action is None:
        return False
    getattr(window, action[0])(*action[1:])
    return True


class KeyActions:
    """The slime window's side of the table: its key handler and the methods the keys call, and
    the help overlay (a mixin of DemoWindow: they act on its world, camera and gesture)."""

    def on_key_event(self, key, action, modifiers):
        if self.imgui is not None:
            self.imgui.key(key, action)
            if self.imgui.wants_text:
                return
        if action == self.wnd.keys.ACTION_PRESS:
            dispatch(self, key)  # INPUT: what each key does

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
        event_log("squash")

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
            event_log(f"shot at {self.world.time:.4f}")
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
        event_log(f"add {len(self.world.bodies)} {centre[0]:.3f} {centre[1]:.3f} {centre[2]:.3f}")
        return index

    def remove_slime(self) -> bool:
        """Delete / Backspace: the slime under the cursor goes; nothing happens where there is none."""
        origin, direction = self._cursor_ray()
        removed = self.play.remove_under_ray(origin, direction)
        if removed:
            self.gesture.forget()
            event_log(f"remove {len(self.world.bodies)}")
        return removed

    def draw_help(self, imgui) -> None:
        """The help (H): the table's rows along the bottom of the window, two to a line where the
        window is wide enough, so that the slime in the middle stays in sight (the panel keeps
        the top-left corner); never larger than the window: it grows to fit its lines and scrolls
        where the window is too small for them."""
        w, h = self.wnd.size
        imgui.set_next_window_pos((w / 2, h - HELP_MARGIN), imgui.Cond_.always, (0.5, 1.0))
        largest = (max(w - 2 * HELP_MARGIN, 1.0), max(h - 2 * HELP_MARGIN, 1.0))
        imgui.set_next_window_size_constraints((0.0, 0.0), largest)
        imgui.set_next_window_bg_alpha(HELP_OPACITY)
        imgui.begin("keys", None, imgui.WindowFlags_.always_auto_resize)
        pairs = 2 if w >= HELP_TWO_UP else 1
        rows = -(-len(HELP) // pairs)  # the first half down the left, the rest down the right
        if imgui.begin_table("keys", 2 * pairs):
            for line in range(rows):
                imgui.table_next_row()
                for column in range(pairs):
                    index = column * rows + line
                    for text in HELP[index] if index < len(HELP) else ("", ""):
                        imgui.table_next_column()
                        imgui.text(text)
            imgui.end_table()
        rect = (*imgui.get_window_pos(), *imgui.get_window_size())
        if rect != self.help_rect:  # for the window test: where it is, and how much is scrolled out of it
            event_log(f"help window={w}x{h} rect={','.join(str(round(v)) for v in rect)} "
                      f"hidden={round(imgui.get_scroll_max_y())}")
        self.help_rect = rect
        imgui.end()


def readme_table() -> str:
    """README's table of the window's input (tests/project/test_readme.py holds README to it)."""
    lines = ["| input | does |", "|---|---|"]
    lines += [f"| {label} | {what} |" for label, what in HELP]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(readme_table(), end="")
