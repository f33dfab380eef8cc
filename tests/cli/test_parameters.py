"""Each parameter is declared once (slime/physics/parameters.py): SlimeParams and its groups,
`slime params`, every command's --set, the scene file's keys and README's table are made from the
declarations, and a bad --set is one line, exit 2, nothing written."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

import pytest

from slime.cli import main
from slime.physics import parameters
from slime.physics.slime3d.slime_params import HandSettings, Material, SlimeParams, WorldSettings

README = Path(__file__).resolve().parents[2] / "README.md"


def _names(record) -> list[str]:
    return [f.name for f in fields(record)]


def test_the_records_are_the_declarations():
    declared = [p.name for p in parameters.ordered()]
    assert _names(SlimeParams) == declared + ["center"]
    for record, group in ((Material, "material"), (WorldSettings, "world"), (HandSettings, "hand")):
        assert _names(record) == [p.name for p in parameters.group(group)]
    defaults = SlimeParams()
    assert all(getattr(defaults, p.name) == p.default for p in parameters.ordered())
    # Each record checks each field as declared, naming the range and the unit.
    with pytest.raises(ValueError, match=r"^floor_restitution must be 0 to 1, got 2$"):
        WorldSettings(floor_restitution=2.0)
    with pytest.raises(ValueError, match=r"^air_drag must be 0 to 1e\+06 1/s, got -1$"):
        Material(air_drag=-1.0)


def test_slime_params_lists_every_declaration(capsys):
    assert main(["params", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in listed] == [p.name for p in parameters.ordered()]
    viscosity = next(p for p in listed if p["name"] == "viscosity")
    assert (viscosity["unit"], viscosity["low"], viscosity["high"], viscosity["group"]) == ("1/s", 0.0, 1e6, "material")
    assert main(["params"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows[:-1]] == [p.name for p in parameters.ordered()]


def test_readme_holds_the_declarations_table():
    """README's table is `slime params --markdown`'s: each of its rows is a declaration's as it is
    declared, every parameter the package declares (``parameters.py``) has its row, in order; a
    force added beside its own declaration (docs/2) may add its row."""
    table = README.read_text().split("<!-- parameters: slime params --markdown -->\n")[1].split("\n<!-- end")[0]
    made = parameters.markdown_table().splitlines()
    rows = table.splitlines()
    assert rows[:2] == made[:2] and set(rows) <= set(made), "README's table is stale: paste `slime params --markdown`"
    own = [row for row, p in zip(made[2:], parameters.ordered()) if p.home == parameters.__name__]
    assert [row for row in rows[2:] if row in own] == own


def test_set_reaches_the_slime_and_its_world():
    from slime.scenes.world_format import lone_slime_spec, load_world_scene
    from slime.scenes.world_scene import build_world

    spec = lone_slime_spec(8, 8, settings={"viscosity": 8.0, "dt": 0.01, "gravity": (0.0, -3.0, 0.0), "radius": 0.5})
    world = build_world(spec).world
    body = world.bodies[0]
    assert body.params.viscosity == 8.0 and body.params.radius == 0.5
    assert body.params.center == (0.0, 0.5, 0.0)  # resting on the floor at its own radius
    assert world.dt == 0.01 and tuple(world.gravity) == (0.0, -3.0, 0.0)
    assert float(world.model.viscosity[0]) == 8.0  # the column the kernels read
    pile = build_world(load_world_scene("pile").with_settings({"shape_stiffness": 900.0, "substeps": 12})).world
    assert all(b.params.shape_stiffness == 900.0 for b in pile.bodies) and pile.min_substeps == 12


@pytest.mark.parametrize("setting, said", [
    ("viscosty=3", r"unknown parameter 'viscosty'; known \(nearest first\): viscosity, "),
    ("viscosity=2e6", r"viscosity must be 0 to 1e\+06 1/s, got 2e\+06"),
    ("viscosity=thick", r"viscosity must be a number \(0 to 1e\+06 1/s\), got 'thick'"),
    ("stacks=7.5", r"stacks must be a whole number \(3 to 512\), got '7.5'"),
    ("gravity=0,-40,0", r"gravity must be at most 30 m/s\^2 long, got 40"),
    ("viscosity", r"expected NAME=VALUE"),
])
def test_a_bad_set_is_one_line_and_writes_nothing(tmp_path, capsys, setting, said):
    output = tmp_path / "run.npz"
    for command in (["simulate", "slime", "--ticks", "2", "--output", str(output)], ["render", "--output", str(tmp_path / "x.png")]):
        with pytest.raises(SystemExit) as exit_:
            main([*command, "--set", setting])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and re.search(said, err), err
    assert not list(tmp_path.iterdir())


def test_a_scene_file_takes_the_world_settings_at_its_top():
    from slime.scenes.world_format import WorldFileError, spec_to_dict, world_spec_from_dict

    scene = {"slimes": [{"center": [0, 1, 0], "radius": 0.5}], "dt": 0.02, "substeps": 10}
    spec = world_spec_from_dict(scene)
    assert spec.world == {"dt": 0.02, "substeps": 10}
    assert world_spec_from_dict(spec_to_dict(spec)) == spec
    with pytest.raises(WorldFileError, match=r"substeps must be 1 to 1000, got 0"):
        world_spec_from_dict({**scene, "substeps": 0})


def test_the_window_takes_set_on_its_slime_and_world(monkeypatch):
    import slime.app.demo as demo
    from slime.app.demo_start import DemoOptions, start_world
    from slime.look import SlimeLook

    seen = {}
    monkeypatch.setattr(demo, "run_demo", lambda **kw: seen.update(kw) or 0)
    assert main(["demo", "--set", "viscosity=8", "--set", "gravity=0,-3,0", "--set", "viscosity=9"]) == 0
    assert seen["settings"] == {"viscosity": 9.0, "gravity": (0.0, -3.0, 0.0)}  # the last of a name
    assert main(["scene", "pile", "--set", "shape_stiffness=900"]) == 0 and seen["settings"] == {"shape_stiffness": 900.0}
    play = start_world(None, 8, 8, SlimeLook(), None, settings={"viscosity": 9.0, "dt": 0.01})[0]
    assert play.world.bodies[0].params.viscosity == 9.0 and play.world.dt == 0.01
    pile = start_world("pile", None, None, SlimeLook(), None, settings={"shape_stiffness": 900.0})[0]
    assert {b.params.shape_stiffness for b in pile.world.bodies} == {900.0}
    # The window is handed them as they are (a vector stays a vector), and checks them before it opens.
    options = DemoOptions(settings={"gravity": (0.0, -5.0, 0.0), "viscosity": 8.0, "substeps": 12})
    options.check()
    assert options.settings == {"gravity": (0.0, -5.0, 0.0), "viscosity": 8.0, "substeps": 12}
    with pytest.raises(ValueError, match="viscosity"):
        DemoOptions(settings={"viscosity": -1.0}).check()


def test_an_older_name_is_still_read_with_a_one_line_note(monkeypatch, capsys):
    from slime.scenes.world_format import world_spec_from_dict

    monkeypatch.setitem(parameters._RENAMED, "damping", "viscosity")  # as `renamed_from=("damping",)` declares it
    assert parameters.parse_setting("damping=3") == ("viscosity", 3.0, "damping is now called viscosity")
    spec = world_spec_from_dict({"slimes": [{"center": [0, 1, 0], "radius": 0.5, "params": {"damping": 3}}]})
    assert spec.slimes[0].params == {"viscosity": 3.0}
    assert capsys.readouterr().err == "slime: note: slimes[0].params.damping: damping is now called viscosity\n"
    seen = {}
    import slime.app.demo as demo

    monkeypatch.setattr(demo, "run_demo", lambda **kw: seen.update(kw) or 0)
    assert main(["demo", "--set", "damping=3"]) == 0 and seen["settings"] == {"viscosity": 3.0}
    assert capsys.readouterr().err == "slime: note: damping is now called viscosity\n"
