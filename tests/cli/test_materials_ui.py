"""Named materials reach the user: ``--material`` on demo, scene, render and simulate (refused for
2D scenes and for unknown names, each in one line), ``"material"`` in a 3D scene file, and the
slime window's material list, which sets every material field of every slime and shows what the
slimes are made of as it is."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from conftest import missing
from helpers import headless_demo, run_cli

from slime import cli
from slime.physics.slime3d.materials import MATERIALS
from slime.physics.slime3d.slime_params import Material, SlimeParams

NAMES = tuple(MATERIALS)
# A scene of two slimes: the first names rubber, the second names none.
TWO = {"slimes": [{"center": [-1.0, 0.5, 0.0], "radius": 0.5, "stacks": 8, "slices": 8, "material": "rubber"},
                  {"center": [1.0, 0.5, 0.0], "radius": 0.5, "stacks": 8, "slices": 8}]}


def made_of(name: str) -> Material:
    return Material(**MATERIALS[name].values)


def _refused(args, folder, capsys) -> str:
    """The one line ``slime ARGS`` fails with (status 2, no traceback, no file left in ``folder``)."""
    try:
        code = cli.main(args)
    except SystemExit as stop:  # argparse's exit
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert not list(folder.iterdir())
    return lines[0]


# --- the command line -------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["demo", "scene", "render", "simulate"])
def test_every_command_takes_each_material_and_defaults_to_none(command):
    parser = cli.build_parser()
    head = {"demo": ["demo"], "scene": ["scene", "pile"], "render": ["render"],
            "simulate": ["simulate", "slime", "--ticks", "1", "--output", "x.npz"]}[command]
    assert parser.parse_args(head).material is None  # None: the default material, jelly
    for name in NAMES:
        assert parser.parse_args([*head, "--material", name]).material == name


@pytest.mark.parametrize("args", [["render", "--material", "honey"], ["--material", "honey"],
                                  ["simulate", "slime", "--ticks", "1", "--output", "x.npz", "--material", "honey"]])
def test_an_unknown_material_is_one_line_listing_the_names(args, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    line = _refused(args, tmp_path, capsys)
    assert "--material" in line and "'honey'" in line and all(name in line for name in NAMES)


def test_help_lists_each_material_with_its_line():
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for command in ("demo", "scene", "render", "simulate"):
        text = " ".join(commands[command].format_help().split())
        for material in MATERIALS.values():
            assert f"{material.name}: {' '.join(material.about.split())}" in text, (command, material.name)


@pytest.mark.parametrize("args", [
    ["render", "springs", "--material", "goo", "--output", "x.png"],
    ["simulate", "springs", "--ticks", "2", "--output", "x.npz", "--material", "goo"],
    ["scene", "soda", "--material", "rubber"],
])
def test_a_2d_scene_refuses_material_in_one_line(args, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    line = _refused(args, tmp_path, capsys)
    assert line.startswith("slime: error: --material applies to the slime and 3D scenes only")


def test_a_2d_scene_refuses_material_as_a_process(tmp_path):
    result = run_cli("render", "springs", "--material", "goo", "--output", str(tmp_path / "x.png"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "--material" in result.stderr and not (tmp_path / "x.png").exists()


def test_the_demo_and_the_scene_window_get_the_material(monkeypatch):
    import slime.app.demo as demo

    seen = {}
    monkeypatch.setattr(demo, "run_demo", lambda **kw: seen.update(kw) or 0)
    assert cli.main(["--material", "goo"]) == 0 and seen["material"] == "goo"
    assert cli.main(["demo"]) == 0 and seen["material"] is None
    assert cli.main(["scene", "duel", "--material", "rubber"]) == 0
    assert (seen["scene"], seen["material"]) == ("duel", "rubber")
    from slime.app.demo_start import OPTION_NAMES

    assert set(seen) - {"size", "window"} <= set(OPTION_NAMES)  # each one reaches the window as an option


def test_simulate_material_goo_is_goo(tmp_path):
    """`slime simulate slime --material goo` runs the body goo's parameters make, step for step."""
    from slime.physics.slime3d.slime_body import SlimeBody

    out = tmp_path / "goo.npz"
    result = run_cli("simulate", "slime", "--ticks", "6", "--stacks", "8", "--slices", "8", "--material", "goo",
                     "--output", str(out), "--no-progress")
    assert result.returncode == 0, result.stderr
    positions = np.load(out)["positions"]

    def run(name):
        body = SlimeBody(SlimeParams.of_material(name, stacks=8, slices=8))
        rows = [body.positions.copy()]
        for _ in range(6):
            body.step()
            rows.append(body.positions.copy())
        return np.array(rows)

    np.testing.assert_allclose(positions, run("goo"), rtol=0, atol=1e-12)
    assert np.abs(positions - run("jelly")).max() > 1e-6  # and not what jelly does


def test_simulate_a_scene_with_a_material_sets_the_unnamed_slimes(tmp_path, monkeypatch):
    import slime.scenes.world_run as world_run

    path = tmp_path / "two.json"
    path.write_text(json.dumps(TWO))
    built = []
    real = world_run.build_world
    monkeypatch.setattr(world_run, "build_world", lambda *a, **kw: built.append(real(*a, **kw)) or built[-1])
    out = tmp_path / "two.npz"
    assert cli.main(["simulate", str(path), "--ticks", "2", "--material", "goo", "--output", str(out),
                     "--no-progress"]) == 0
    scene = built[-1]
    by_file = sorted(scene.world.bodies, key=lambda b: b.params.center[0])
    assert [b.params.material for b in by_file] == [made_of("rubber"), made_of("goo")]
    assert np.load(out)["positions"].shape[0] == 3


def test_render_material_rubber_runs(tmp_path, monkeypatch):
    from slime.render.context import GLUnavailable, create_headless_context

    try:
        create_headless_context().release()
    except GLUnavailable as exc:
        missing(f"OpenGL ({exc})")
    import slime.app.render_slime as render_slime
    import slime.scenes.world_scene as world_scene

    built = []
    real = world_scene.build_world
    monkeypatch.setattr(world_scene, "build_world", lambda *a: built.append(real(*a)) or built[-1])
    out = tmp_path / "rubber.png"
    assert cli.main(["render", "--material", "rubber", "--size", "160x120", "--stacks", "8", "--slices", "8",
                     "--output", str(out), "--no-progress"]) == 0
    assert out.stat().st_size > 0
    assert built[-1].world.bodies[0].params.material == made_of("rubber")
    with pytest.raises(ValueError, match="unknown material 'honey'"):
        render_slime.render_slime(output=tmp_path / "x.png", material="honey")
    assert not (tmp_path / "x.png").exists()


# --- the window's material list ------------------------------------------------------------------


class _ListImgui:
    """Stands in for imgui in the panel: the material list is open and ``click`` is clicked;
    records what the list shows and the sliders' values."""

    def __init__(self, click=None):
        self.click, self.shown, self.sliders = click, None, {}

    def begin_combo(self, label, preview, *rest):
        if label == "material":
            self.shown = preview
        return True

    def selectable(self, label, selected, *rest):
        return label == self.click, selected

    def __getattr__(self, name):
        if name.startswith("slider_"):
            def slider(label, value, *rest):
                self.sliders[label] = value
                return False, value
            return slider
        if name == "combo":
            return lambda label, value, *rest: (False, value)
        if name == "collapsing_header":  # the look section stays folded
            return lambda *args: False
        if name.endswith("_"):  # enum namespaces
            return SimpleNamespace(first_use_ever=0, always_auto_resize=0, logarithmic=0, once=0, always=0)
        return lambda *args, **kwargs: None


def _draw(window, click=None) -> _ListImgui:
    """One frame of the panel's widgets, with the list's ``click``; the real panel is put back."""
    imgui = _ListImgui(click)
    panel = window.panel
    window.panel = SimpleNamespace(imgui=imgui, new_frame=lambda t: None, draw=lambda: None)
    try:
        window._draw_panel(1 / 60)
    finally:
        window.panel = panel
    return imgui


@pytest.fixture(scope="module")
def window():
    """The slime window headless on EGL, made of goo from the command line; one per module."""
    with headless_demo(size=(320, 240), stacks=8, slices=8, material="goo") as config:
        yield config


def test_the_window_opens_on_the_material_asked_for_and_its_list_says_so(window):
    assert window.world.bodies[0].params.material == made_of("goo")
    window.on_render(0.0, 1 / 60)  # the real panel draws its list
    assert _draw(window).shown == "goo"


def test_choosing_from_the_list_changes_every_material_field_and_the_sliders_follow(window):
    before = window.world.bodies[0].params
    shown = _draw(window, click="rubber")
    assert shown.shown == "goo"  # this frame's list, drawn before the click took effect
    body = window.world.bodies[0].params
    assert body.material == made_of("rubber") and window.play.template.material == made_of("rubber")
    assert (body.radius, body.stacks, body.mass) == (before.radius, before.stacks, before.mass)  # the rest kept
    after = _draw(window)
    assert after.shown == "rubber"
    for label, field in (("viscosity", "viscosity"), ("surface tension", "surface_tension"),
                         ("volume stiffness", "volume_stiffness"), ("shape stiffness", "shape_stiffness")):
        assert after.sliders[label] == pytest.approx(MATERIALS["rubber"].values[field])
    window.on_render(0.0, 1 / 60)  # the slime steps and draws as rubber
    window.play.reset()  # R keeps the material chosen
    assert window.world.bodies[0].params.material == made_of("rubber")


def test_a_moved_slider_makes_the_list_say_custom(window):
    _draw(window, click="jelly")
    assert _draw(window).shown == "jelly"
    window._set(viscosity=float(MATERIALS["jelly"].values["viscosity"]) + 1.0)  # what the slider does
    assert _draw(window).shown == "custom"
    _draw(window, click="jelly")
    assert _draw(window).shown == "jelly" and window.world.bodies[0].params.material == made_of("jelly")


def test_the_list_sets_every_slime_of_a_scene(tmp_path):
    """A scene's slimes (one names rubber, one takes --material goo) show as mixed; choosing
    jelly makes all of them jelly, and the ones N drops after. No GL: the window's world and its
    list's methods, on their own."""
    from slime.app.demo import DemoWindow
    from slime.app.demo_start import start_world
    from slime.look import SlimeLook

    path = tmp_path / "two.json"
    path.write_text(json.dumps(TWO))
    play = start_world(str(path), None, None, SlimeLook(), 1, "goo")[0]
    assert sorted(b.params.shape_stiffness for b in play.world.bodies) == sorted(
        MATERIALS[name].values["shape_stiffness"] for name in ("goo", "rubber"))
    window = SimpleNamespace(play=play)
    window.choose_material = lambda name: DemoWindow.choose_material(window, name)
    imgui = _ListImgui(click="jelly")
    DemoWindow._draw_material_list(window, imgui)
    assert imgui.shown == "mixed"
    assert all(b.params.material == made_of("jelly") for b in play.world.bodies)
    assert play.material_name() == "jelly"
    play.drop((0.0, 0.0, 3.0))
    assert len(play.world.bodies) == 3 and all(b.params.material == made_of("jelly") for b in play.world.bodies)


class _RectsImgui:
    """The real imgui, recording where the material list and its entries are drawn."""

    def __init__(self, imgui):
        self._imgui, self.rects = imgui, {}

    def _record(self, name):
        low, high = self._imgui.get_item_rect_min(), self._imgui.get_item_rect_max()
        self.rects[name] = ((low.x + high.x) / 2, (low.y + high.y) / 2)

    def begin_combo(self, label, *rest):
        opened = self._imgui.begin_combo(label, *rest)
        if label == "material" and not opened:
            self._record(label)
        return opened

    def selectable(self, label, *rest):
        result = self._imgui.selectable(label, *rest)
        self._record(label)
        return result

    def __getattr__(self, name):
        return getattr(self._imgui, name)


def test_a_real_click_on_the_list_makes_the_slime_rubber(window):
    """The panel as the user has it: imgui opens the list on a click and a click on an entry
    chooses it."""
    window.choose_material("jelly")
    panel = window.panel
    real = panel.imgui
    panel.imgui = _RectsImgui(real)
    left = window.wnd.mouse.left

    def click(name):
        x, y = panel.imgui.rects[name]
        window.imgui.position(x, y)
        for pressed in (None, True, False):
            if pressed is not None:
                window.imgui.button(x, y, left, pressed)
            for _ in range(2):
                window.on_render(0.0, 1 / 60)

    try:
        window.on_render(0.0, 1 / 60)
        click("material")
        click("rubber")
    finally:
        panel.imgui = real
    assert window.world.bodies[0].params.material == made_of("rubber")
    assert window.play.material_name() == "rubber"
