"""The slime window's input, as one table: what each mouse gesture and key does (the help
overlay's rows, README's key table) and which of the window's methods a key calls (the
dispatch). A row's keys are moderngl-window key names (``wnd.keys.<NAME>``), each with the
window method it calls and that method's arguments."""

from __future__ import annotations

from dataclasses import dataclass, field

from slime import limits
from slime.app.gesture import HOLD_DELAY


@dataclass(frozen=True)
class Row:
    label: str  # the input as the help and README show it
    help: str  # what it does
    keys: dict = field(default_factory=dict)  # key name -> (window method, *arguments); none for the mouse


INPUT = (
    Row("left click", "poke the slime the cursor's ray hits first, toward its centre"),
    Row(f"left hold (still, {HOLD_DELAY:g} s)", "press a finger in; it springs back on release"),
    Row("left drag", "grab that point and pull; release to throw"),
    Row("right / middle drag", "orbit the camera"),
    Row("wheel", "zoom"),
    Row("N", f"drop a new slime above the cursor (up to {limits.WINDOW_SLIMES[1]})", {"N": ("drop_slime",)}),
    Row("Delete / Backspace", "take away the slime under the cursor",
        {"DELETE": ("remove_slime",), "BACKSPACE": ("remove_slime",)}),
    Row("Q", "squash every slime flat (they grow back under a rising lid)", {"Q": ("squash",)}),
    Row("R", "reset the world to how it started", {"R": ("reset",)}),
    Row("S", "spike: jolt every vertex of every slime", {"S": ("spike",)}),
    Row("Space", "pause / resume", {"SPACE": ("toggle_pause",)}),
    Row("W", "wireframe", {"W": ("toggle_wireframe",)}),
    Row("G", "gravity on / off", {"G": ("toggle_gravity",)}),
    Row("Up / Down", "volume stiffness x1.25 / /1.25",
        {"UP": ("scale_stiffness", "volume_stiffness", 1.25), "DOWN": ("scale_stiffness", "volume_stiffness", 0.8)}),
    Row("Left / Right", "shape stiffness /1.25 / x1.25",
        {"LEFT": ("scale_stiffness", "shape_stiffness", 0.8), "RIGHT": ("scale_stiffness", "shape_stiffness", 1.25)}),
    Row("H", "this help", {"H": ("toggle_help",)}),
    Row("P", "save a screenshot PNG in out/", {"P": ("save_screenshot",)}),
    Row("F5", "reload the shaders (saving one reloads it too)", {"F5": ("reload_shaders",)}),
    Row("Esc", "quit", {"ESCAPE": ("quit",)}),
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


def readme_table() -> str:
    """README's table of the window's input (tests/project/test_readme.py holds README to it)."""
    lines = ["| input | does |", "|---|---|"]
    lines += [f"| {label} | {what} |" for label, what in HELP]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(readme_table(), end="")
