"""The 2D scene window's keys, as one table: the window's own (help, screenshot, shaders, quit)
and the parameter keys, each row the keys as shown, what they do and the window method each key
name calls; the help and the dispatch are made from it. The scene gets every other key by its
protocol name (``protocol_key_names``); a scene that declares h or p in its ``keys`` keeps that
letter, and only F1 / F12 serve the window then."""

from __future__ import annotations

from slime.app.window_common import KeyRow
from slime.scenes.base import Scene2D

PARAM_STEP = 0.05  # '-' / '=' move the selected parameter by this fraction of its range

WINDOW_KEYS = (
    KeyRow("H / F1", "this help", {"h": ("toggle_help",), "f1": ("toggle_help",)}),
    KeyRow("P / F12", "screenshot (PNG in out/)", {"p": ("take_screenshot",), "f12": ("take_screenshot",)}),
    KeyRow("F5", "reload the shaders (saving one reloads it too)", {"f5": ("reload_shaders",)}),
    KeyRow("Esc", "quit", {"escape": ("quit",)}),
)
PARAMETER_KEYS = (  # only for a scene with parameters
    KeyRow("[ / ]", "select a parameter", {"[": ("select_parameter", -1), "]": ("select_parameter", 1)}),
    KeyRow("- / =", "lower / raise it (or drag the sliders)",
           {"-": ("nudge_parameter", -1), "=": ("nudge_parameter", 1)}),
)


def protocol_key_names(keys) -> dict:
    """moderngl-window key constants -> the Scene2D protocol's names."""
    names = {getattr(keys, c): c.lower() for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
    for i in range(10):
        names[getattr(keys, f"NUMBER_{i}")] = str(i)
        names[getattr(keys, f"NUMPAD_{i}")] = str(i)
    for const, name in [
        ("LEFT", "left"), ("RIGHT", "right"), ("UP", "up"), ("DOWN", "down"), ("SPACE", "space"),
        ("ENTER", "enter"), ("BACKSPACE", "backspace"), ("TAB", "tab"), ("ESCAPE", "escape"),
    ]:
        names[getattr(keys, const)] = name
    return names


def window_key_names(keys) -> dict:
    """Keys only the window uses (never sent to the scene)."""
    return {
        keys.F1: "f1", keys.F5: "f5", keys.F12: "f12", keys.LEFT_BRACKET: "[", keys.RIGHT_BRACKET: "]",
        keys.MINUS: "-", keys.EQUAL: "=",
    }


def with_modifiers(name: str, modifiers) -> str:
    """'s' with ctrl held -> 'ctrl+s' (ctrl, alt, shift in that order)."""
    prefix = "".join(m + "+" for m in ("ctrl", "alt", "shift") if getattr(modifiers, m, False))
    return prefix + name


SHARED_LETTERS = frozenset({"h", "p"})  # the window's help and screenshot keys, unless the scene uses them


def reserved_keys(scene: Scene2D) -> set[str]:
    """The window letters (h, p) the scene keeps for itself: those among its declared ``keys``."""
    return set(scene.keys) & SHARED_LETTERS


def shown(row: KeyRow, reserved: set[str]) -> str:
    """A row's keys as the help shows them, without the letters the scene keeps ("F1" for "H / F1")."""
    return " / ".join(part for part in row.label.split(" / ") if part.lower() not in reserved)


def help_text(scene: Scene2D) -> list[str]:
    reserved = reserved_keys(scene)
    lines = [f"{scene.title}", "", "window"] + [f"{shown(row, reserved)}\t{row.help}" for row in WINDOW_KEYS]
    if scene.parameters():
        lines += [f"{row.label}\t{row.help}" for row in PARAMETER_KEYS]
    if scene.help_lines:
        lines += ["", "scene"] + [_as_columns(line) for line in scene.help_lines]
    return lines


def _as_columns(line: str) -> str:
    """'h/l: gravity' -> 'h/l<tab>gravity' so the key column lines up; an indented line continues
    the description column; lines with a tab already, or no 'keys: ' prefix, are kept."""
    if "\t" in line:
        return line
    if line[:1].isspace():
        return "\t" + line.strip()
    head, sep, tail = line.partition(": ")
    return f"{head}\t{tail.strip()}" if sep else line


class SceneKeys:
    """The scene window's key handler and the methods its keys call (a mixin of SceneWindow)."""

    def on_key_event(self, key, action, modifiers) -> None:
        if self.imgui is not None:
            self.imgui.key(key, action)
            if self._panel_wants("keyboard"):
                return
        keys = self.wnd.keys
        pressed = action == keys.ACTION_PRESS
        if key in self.own_keys:
            if pressed:
                self._window_key(self.own_keys[key])
            return
        name = self.key_names.get(key)
        if name is None:
            return
        plain = not (modifiers.ctrl or modifiers.alt)
        if pressed and plain:
            if name == "escape":
                self.quit()
                return
            if name in SHARED_LETTERS and name not in self.reserved:
                self._window_key(name)
                return
        if name == "escape":
            return
        if pressed:
            self.scene.key(with_modifiers(name, modifiers))
        elif action == keys.ACTION_RELEASE:
            # Releases carry the bare name: a scene tracking held keys must not miss a release
            # because a modifier changed while the key was down.
            self.scene.key_up(name)

    def _window_key(self, name: str) -> None:
        """The window's own key ``name`` (a protocol name): the method its row names."""
        rows = WINDOW_KEYS + (PARAMETER_KEYS if self.scene.parameters() else ())
        action = next((row.keys[name] for row in rows if name in row.keys), None)
        if action is not None:
            getattr(self, action[0])(*action[1:])

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def take_screenshot(self) -> None:
        self.screenshot_pending = True  # saved after the next frame's scene and HUD, before the help

    def reload_shaders(self) -> None:
        self.shader_watch.check(force=True)

    def quit(self) -> None:
        self.wnd.close()

    def select_parameter(self, step: int) -> None:
        self.selected = (self.selected + step) % len(self.scene.parameters())

    def nudge_parameter(self, sign: int) -> None:
        params = self.scene.parameters()
        p = params[min(self.selected, len(params) - 1)]
        value = float(p.get()) + sign * PARAM_STEP * (p.hi - p.lo)
        p.set(min(max(value, p.lo), p.hi))
