"""The 2D scene window: key naming, help text, the no-display message, and a real window under Xvfb
(pyglet backend) driven with xdotool: a click adds a mass where it lands, P saves a screenshot, a
scene key resets, Esc quits. In CI (env CI set) a missing Xvfb/xdotool or GL fails instead of skipping.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from moderngl_window.context.base.keys import BaseKeys
from PIL import Image

from fakes import DemoScene
from helpers import new_screenshot, xdotool

from slime.app.scene_window import (
    help_text, protocol_key_names, reserved_keys, run_scene, window_key_names, with_modifiers,
)
from slime.render.draw2d import View2D
from slime.scenes import SCENES, load_scene

ROOT = Path(__file__).resolve().parents[2]


class FakeKeys:
    """BaseKeys' names with distinct values (a real backend's constants need a display to import)."""


for _i, _name in enumerate(n for n in dir(BaseKeys) if n.isupper()):
    setattr(FakeKeys, _name, 1000 + _i)


def test_protocol_key_names_cover_the_protocol():
    names = protocol_key_names(FakeKeys)
    expected = set("abcdefghijklmnopqrstuvwxyz0123456789") | {
        "left", "right", "up", "down", "space", "enter", "backspace", "tab", "escape",
    }
    assert set(names.values()) == expected
    assert names[FakeKeys.NUMBER_7] == names[FakeKeys.NUMPAD_7] == "7"
    # The window's own keys never collide with scene keys.
    assert not set(window_key_names(FakeKeys)) & set(names)


def test_modifiers_prefix_the_name():
    mods = SimpleNamespace(ctrl=True, alt=False, shift=False)
    assert with_modifiers("s", mods) == "ctrl+s"
    assert with_modifiers("left", SimpleNamespace(ctrl=False, alt=False, shift=True)) == "shift+left"
    assert with_modifiers("z", SimpleNamespace(ctrl=False, alt=False, shift=False)) == "z"


def test_help_lists_window_and_scene_keys():
    scene = DemoScene()
    text = "\n".join(help_text(scene))
    for expected in ("H / F1", "P / F12", "Esc", "[ / ]", "left click\tadd a mass", "r\treset"):
        assert expected in text
    assert reserved_keys(scene) == set()
    scene.keys = ("h", "p", "r")  # a scene that needs h and p: only F1 and F12 serve the window
    text = "\n".join(help_text(scene))
    assert "H / F1" not in text and "F1\tthis help" in text and "F12\tscreenshot" in text


def test_declared_keys_not_help_text_reserve_letters():
    scene = DemoScene()
    scene.help_lines = ["h/l: gravity y -/+ 0.1", "left click: add a mass", "  p: (indented: not a key line)"]
    assert reserved_keys(scene) == set(), "help text is for reading; it decides nothing"
    scene.keys = ("h", "l")
    assert reserved_keys(scene) == {"h"}
    lines = help_text(scene)
    assert "F1\tthis help" in lines and "P / F12\tscreenshot (PNG in out/)" in lines
    assert "h/l\tgravity y -/+ 0.1" in lines and "\tp: (indented: not a key line)" in lines


@pytest.mark.parametrize("name", SCENES)
def test_built_in_scenes_declare_protocol_keys(name):
    scene = load_scene(name)
    names = set(protocol_key_names(FakeKeys).values())
    for key in scene.keys:
        assert key.rpartition("+")[2] in names, f"{name} declares {key!r}, not a protocol key name"
    assert scene.keys, f"{name} declares no keys"
    assert reserved_keys(scene) == ({"h"} if name == "springs" else set())  # springs: h/l move gravity


def test_no_display_prints_one_line_and_returns_2(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert run_scene("sandbox") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "slime render sandbox" in err


# ---- a real window under Xvfb ----

WINDOW_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from fakes import DemoScene
from slime.app.scene_window import run_scene_instance
scene = DemoScene()
scene.hud_above = {hud_above}
sys.exit(run_scene_instance(scene, size=(600, 400), window="pyglet"))
"""


@pytest.mark.slow
@pytest.mark.parametrize("hud_above", [False, True], ids=["hud-over-world", "hud-strip-above"])
def test_window_click_screenshot_key_and_quit(xvfb, tmp_path, hud_above):
    env = {**os.environ, "DISPLAY": xvfb}
    env.pop("WAYLAND_DISPLAY", None)
    app = subprocess.Popen(
        [sys.executable, "-c", WINDOW_SCRIPT.format(tests=str(Path(__file__).resolve().parents[1] / "support"), hud_above=hud_above)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        found = xdotool(xvfb, "search", "--sync", "--onlyvisible", "--name", "slime demo scene")
        assert found.returncode == 0, app.stderr.read() if app.poll() is not None else found.stderr
        wid = found.stdout.split()[0]
        # A click at window pixel (300, 100): world (5, 7.5) in the demo's 10x10 y-up bounds, empty space.
        # With a HUD strip above the world (as tall as the panel) the mapping shifts and squeezes;
        # a click lower down must still put the mass under the cursor.
        target = (300, 330) if hud_above else (300, 100)
        if not hud_above:
            world = View2D(DemoScene.bounds, False, (600, 400)).pixel_to_world(target)
            np.testing.assert_allclose(world, (5.0, 7.5))
        xdotool(xvfb, "mousemove", "--window", wid, *map(str, target))  # keyboard focus follows the pointer
        time.sleep(0.5)
        shots: set = set()

        def screenshot() -> np.ndarray:
            xdotool(xvfb, "key", "p")
            path = new_screenshot(tmp_path / "out", shots)
            shots.add(path)
            with Image.open(path) as image:
                assert image.size == (600, 400)
                return np.asarray(image.convert("RGB")).astype(int)

        before = screenshot()
        xdotool(xvfb, "click", "1")
        time.sleep(0.5)
        after = screenshot()
        xdotool(xvfb, "key", "r")  # the demo scene's reset: forgets the clicked masses
        time.sleep(0.5)
        reset = screenshot()

        x, y = target
        assert np.all(before[y, x] > 240), "empty space is background before the click"
        assert after[y, x, 0] > 180 and after[y, x, 1] < 80, "the click put a red mass where it landed"
        assert np.all(reset[y, x] > 240), "the scene key reached the scene"

        xdotool(xvfb, "key", "Escape")
        out, err = app.communicate(timeout=15)
        assert app.returncode == 0, err
        assert out.count("saved ") == 3
        assert not (tmp_path / "imgui.ini").exists()
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()


def test_the_window_keys_act_through_their_table():
    # [ ] select a parameter, - = move it by 5 % of its range within its ends, H toggles the help:
    # the rows of scene_keys' tables, dispatched on a window without a display.
    from slime.app.scene_keys import PARAMETER_KEYS, WINDOW_KEYS, SceneKeys

    scene = load_scene("springs")
    params = scene.parameters()
    window = SimpleNamespace(scene=scene, selected=0, show_help=False)
    for name in ("select_parameter", "nudge_parameter", "toggle_help", "_window_key"):
        setattr(window, name, getattr(SceneKeys, name).__get__(window))
    window._window_key("]")
    window._window_key("]")
    assert window.selected == 2 % len(params)
    p = params[window.selected]
    start = float(p.get())
    window._window_key("=")
    assert float(p.get()) == pytest.approx(min(start + 0.05 * (p.hi - p.lo), p.hi))
    for _ in range(40):
        window._window_key("-")
    assert float(p.get()) == p.lo
    window._window_key("f1")
    assert window.show_help
    names = [name for row in WINDOW_KEYS + PARAMETER_KEYS for name in row.keys]
    assert len(names) == len(set(names))
    assert all(callable(getattr(SceneKeys, action[0], None)) for row in WINDOW_KEYS + PARAMETER_KEYS
               for action in row.keys.values())
