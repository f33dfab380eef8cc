"""One home for every limit: the command line's help and checks, the slime window's panel, the
render functions, SlimeParams and README all state and apply slime/limits.py's ranges."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from slime import limits
from slime.cli import build_parser, main
from slime.physics.slime3d.slime_params import SlimeParams

README = Path(__file__).resolve().parents[2] / "README.md"


def _option_help(command: str, option: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    return next(a for a in sub._actions if option in a.option_strings).help


def _numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text)]


class _RecordingImgui:
    """Stands in for imgui: records every slider's range, changes nothing."""

    def __init__(self):
        self.sliders: dict[str, tuple] = {}

    def __getattr__(self, name):
        if name.startswith("slider_"):
            def slider(label, value, low, high, *rest):
                self.sliders[label] = (low, high)
                return False, value
            return slider
        if name == "checkbox":
            return lambda label, value: (False, value)
        if name in ("combo", "collapsing_header", "tree_node"):
            return lambda label, value=False, *rest: (False, value)
        if name.endswith("_"):  # enum namespaces: Cond_, WindowFlags_, SliderFlags_
            return SimpleNamespace(first_use_ever=0, always_auto_resize=0, logarithmic=0, once=0, always=0)
        return lambda *args, **kwargs: None


def _panel_ranges() -> dict[str, tuple]:
    from slime.app.demo import DemoWindow
    from slime.app.quality import LEVELS

    imgui = _RecordingImgui()
    window = SimpleNamespace(
        panel=SimpleNamespace(imgui=imgui, new_frame=lambda t: None, draw=lambda: None),
        play=SimpleNamespace(template=SlimeParams()),
        world=SimpleNamespace(bodies=[None], positions=np.zeros((10, 3))),
        fps=60.0, paused=False, gravity=np.array([0.0, -9.81, 0.0]), show_help=False, gravity_on=True,
        quality=SimpleNamespace(level=LEVELS[0], adaptive=True, index=0), look_open=False,
        shown_gravity=lambda: 9.81, _draw_look_widgets=lambda imgui: None, _draw_material_list=lambda imgui: None,
        _slider_moved=lambda param, value: None,
        wnd=SimpleNamespace(buffer_size=(1280, 720), size=(1280, 720), pixel_ratio=1.0),
        help_rect=lambda *a, **k: (0, 0, 100, 100),
    )
    DemoWindow._draw_panel(window, 1 / 60)
    return imgui.sliders


def test_resolution_is_one_range_everywhere(tmp_path, monkeypatch, capsys):
    low, high = limits.RESOLUTION
    # SlimeParams
    for name in ("stacks", "slices"):
        SlimeParams(**{name: low})
        SlimeParams(**{name: high})
        for bad in (low - 1, high + 1):
            with pytest.raises(ValueError, match=f"{low} to {high}"):
                SlimeParams(**{name: bad})
    # the command line: help and checks, for every command that takes a resolution
    for command in ("demo", "simulate", "render"):
        for option in ("--stacks", "--slices"):
            assert _numbers(_option_help(command, option)) == [low, high]
    monkeypatch.chdir(tmp_path)
    for bad in (low - 1, high + 1):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["render", "--stacks", str(bad)])
        assert f"{low} to {high}" in capsys.readouterr().err
    # the render function (called from Python, not the CLI) refuses the same values
    from slime.app.render_slime import render_slime

    for bad in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"from {low} to {high}"):
            render_slime(output=tmp_path / "x.png", stacks=bad)
    # the panel
    ranges = _panel_ranges()
    assert ranges["stacks"] == ranges["slices"] == (low, high)
    # README
    assert f"mesh resolution, {low} to {high}" in README.read_text()


def test_panel_sliders_are_the_declarations_and_their_ranges_come_from_limits():
    from slime.physics.parameters import sliders

    ranges = _panel_ranges()
    # One slider per declaration that has one, drawn by the panel's one loop, in its order...
    assert list(ranges.items()) == [(p.label, (p.slider.low, p.slider.high)) for p in sliders()]
    # ...and the slime's own have the ranges of limits.py.
    assert {name: ranges[name] for name in ("viscosity", "surface tension", "volume stiffness", "shape stiffness",
                                            "gravity", "stacks", "slices")} == {
        "viscosity": limits.VISCOSITY, "surface tension": limits.SURFACE_TENSION, "volume stiffness": limits.VOLUME_STIFFNESS,
        "shape stiffness": limits.SHAPE_STIFFNESS, "gravity": limits.GRAVITY,
        "stacks": limits.RESOLUTION, "slices": limits.RESOLUTION,
    }
    # Every slider's ends are values its declaration accepts...
    for p in sliders():
        for end in (p.slider.low, p.slider.high):
            p.check((0.0, -end, 0.0) if p.kind == "vector" else end)
    # ...and every corner of the stiffness sliders is a body SlimeParams accepts (stable at the default substeps).
    SlimeParams(volume_stiffness=limits.VOLUME_STIFFNESS[1], shape_stiffness=limits.SHAPE_STIFFNESS[1])


def test_camera_elevation_and_size_are_one_range(tmp_path, monkeypatch, capsys):
    low, high = limits.CAMERA_ELEVATION
    assert _numbers(_option_help("render", "--camera"))[:2] == [low, high]
    monkeypatch.chdir(tmp_path)
    from slime.app.render_slime import render_slime
    from slime.arguments import UsageError, check_camera, parse_camera

    assert parse_camera(f"0,{high},5")[1] == high
    for bad in (low - 0.5, high + 0.5):
        with pytest.raises(UsageError, match=f"from {low:g} to {high:g} degrees"):
            parse_camera(f"0,{bad},5")
        with pytest.raises(ValueError, match=f"from {low:g} to {high:g} degrees"):
            render_slime(output="x.png", frames=1, size=(8, 8), camera=(0, bad, 5))
    assert check_camera((0, high, 5))[1] == high

    side = limits.SIZE[1]
    assert _numbers(_option_help("render", "--size"))[:2] == list(map(float, limits.SIZE))
    assert main(["render", "--size", f"{side + 1}x10"]) == 2
    assert f"{limits.SIZE[0]} to {side}" in capsys.readouterr().err
    with pytest.raises(ValueError, match=f"{limits.SIZE[0]} to {side}"):
        render_slime(output="x.png", frames=1, size=(side + 1, 8))


def test_mouse_orbit_stays_within_its_range():
    from slime.render.camera import OrbitCamera

    camera = OrbitCamera()
    camera.orbit(0.0, 1000.0)
    assert camera.elevation == limits.ORBIT_ELEVATION[1]
    camera.orbit(0.0, -1000.0)
    assert camera.elevation == limits.ORBIT_ELEVATION[0]


def test_a_scene_file_with_a_damping_rate_past_its_range_is_one_line_naming_it():
    from slime.scenes.world_format import WorldFileError, world_spec_from_dict

    scene = {"slimes": [{"center": [0, 1, 0], "radius": 0.5, "params": {"viscosity": 1e308}}]}
    with pytest.raises(WorldFileError, match=r"slimes\[0\]\.params: viscosity must be 0 to 1e\+06 1/s") as error:
        world_spec_from_dict(scene)
    assert "\n" not in str(error.value)
