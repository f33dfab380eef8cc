"""The command line: bad input gives one line and a non-zero exit; outputs are whole or absent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from slime import cli
from slime.arguments import UsageError, parse_camera, parse_poke, parse_size
from slime.simulate import save_npz_atomic

from helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "nope", "--ticks", "3", "--output", "x.npz"], "unknown scene"),
        (["simulate", "slime", "--ticks", "0", "--output", "x.npz"], "1 or more"),
        (["simulate", "slime", "--ticks", "3", "--output", "x.npz", "--stacks", "2"], "stacks must be 3 to 512, got 2"),
        (["simulate", "slime", "--ticks", "3", "--output", "x.npz", "--poke", "1:0,0"], "malformed --poke"),
        (["simulate", "slime", "--ticks", "3", "--output", "x.npz", "--poke", "1:0,0,0:nan,0,0"], "finite"),
        (["simulate", "slime", "--ticks", "3", "--output", "x.npz", "--poke", "x:0,0,0:1,0,0"], "whole number"),
        (["simulate", "slime", "--ticks", "3", "--output", "no/such/dir/x.npz"], "does not exist"),
        (["simulate", "slime", "--ticks", "3", "--output", "x.txt"], ".npz"),
        (["simulate", "missing.json", "--ticks", "3", "--output", "x.npz"], "no such file"),
        (["render", "--size", "800by600"], "malformed --size"),
        (["render", "--camera", "0,0,-1"], "distance must be positive"),
        (["render", "--camera", "0,0,1e308"], "distance must be from 0.1 to 1000 m"),
        (["render", "--camera", "0,0,1e-300"], "distance must be from 0.1 to 1000 m"),
        (["render", "--output", "x.jpg"], ".png or .gif"),
        (["frobnicate"], "invalid choice"),
        (["render", "--stacks", "-4"], "stacks must be 3 to 512, got -4"),
        (["render", "--size", "-800x600"], "out of range"),
        (["render", "--poke", "-5:0,0,0:0,0,0"], "0 or more"),
        (["render", "--frames", "3", "--poke", "5:0,2,0:0,-1,0"], "from 0 to 2"),
        (["demo", "--window", "nosuch"], "unknown window backend 'nosuch'"),
        (["scene", "soda", "--window", "headless"], "slime render"),
        (["simulate", "soda", "--ticks", "3", "--output", "x.npz", "--stacks", "8"], "slime only"),
    ],
)
def test_bad_input_is_one_line_and_nonzero(tmp_path, monkeypatch, capsys, args, words):
    # In this process (a traceback would be an exception here): `python -m slime` is run as a
    # process by the tests of the display, the closed pipe and the signals.
    monkeypatch.chdir(tmp_path)
    try:
        code = cli.main(args)
    except SystemExit as stop:  # argparse's exit
        code = stop.code
    assert code != 0
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert words in lines[0]
    assert not list(tmp_path.iterdir()), "a failed run must leave no file"


def test_links_that_lead_nowhere_are_one_line_each(tmp_path, monkeypatch, capsys):
    """A loop of symbolic links where a command reads a scene or model, writes a picture, or
    exports the shaders: one line naming the loop (Python's own resolve raises RuntimeError on
    one), and a broken link named with its target."""
    monkeypatch.chdir(tmp_path)
    for a, b in (("a.py", "b.py"), ("a.json", "b.json"), ("a", "b")):
        (tmp_path / a).symlink_to(b)
        (tmp_path / b).symlink_to(a)
    (tmp_path / "gone.json").symlink_to("never-made.json")
    cases = [
        (["render", "a.py", "--frames", "1"], "a.py: a loop of symbolic links"),
        (["render", "a.json", "--frames", "1"], "a.json: a loop of symbolic links"),
        (["simulate", "a.json", "--ticks", "2", "--output", "x.npz"], "a.json: a loop of symbolic links"),
        (["render", "a", "--frames", "1"], "a: a loop of symbolic links"),
        (["render", "gone.json", "--frames", "1"], "gone.json: a symbolic link to never-made.json, which is not there"),
        (["render", "--frames", "1", "--output", "a/x.png"], "folder a: a loop of symbolic links"),
        (["shaders", "export", "a"], "a: a loop of symbolic links"),
        (["render", "--shaders", "a", "--frames", "1"], "a: not a folder but a loop of symbolic links"),
    ]
    before = sorted(p.name for p in tmp_path.iterdir())
    for args, words in cases:
        try:
            code = cli.main(args)
        except SystemExit as stop:
            code = stop.code
        err = capsys.readouterr().err
        assert code != 0, args
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (args, err)
        assert words in err, (args, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "a failed run must leave no file"


def test_parsers():
    poke = parse_poke("12:0.5,1,-2:0,-30,0")
    assert poke.tick == 12 and poke.point == (0.5, 1.0, -2.0) and poke.force == (0.0, -30.0, 0.0)
    assert parse_size("640x480") == (640, 480)
    assert parse_camera("30,20,5") == (30.0, 20.0, 5.0)
    for bad in ["1:1,2,3", "1:1,2,3:4,5", ":1,2,3:4,5,6", "-1:1,2,3:4,5,6", "1:1,2,inf:4,5,6"]:
        with pytest.raises(UsageError):
            parse_poke(bad)


def test_simulate_slime_writes_documented_arrays(tmp_path):
    out = tmp_path / "run.npz"
    code = cli.main(["simulate", "slime", "--ticks", "5", "--output", str(out), "--stacks", "8", "--slices", "10",
                     "--poke", "2:0,1,0:0,-20,0"])
    assert code == 0
    run = np.load(out)
    p = (8 - 1) * 10 + 2
    assert run["positions"].shape == (6, p, 3)
    assert run["triangles"].shape == (2 * 10 * (8 - 1), 3)
    assert run["volume"].shape == (6,) and run["time"].shape == (6,)
    assert np.all(np.isfinite(run["positions"]))
    assert run["time"][0] == 0.0 and run["time"][-1] > 0.0
    # the poke at tick 2 moves the slime differently from an unpoked run
    calm = tmp_path / "calm.npz"
    assert cli.main(["simulate", "slime", "--ticks", "5", "--output", str(calm), "--stacks", "8", "--slices", "10"]) == 0
    assert np.array_equal(np.load(calm)["positions"][:3], run["positions"][:3])
    assert not np.allclose(np.load(calm)["positions"][-1], run["positions"][-1])
    assert [f.name for f in tmp_path.iterdir() if f.name.startswith(".")] == []


def test_simulate_2d_scene_writes_documented_arrays(tmp_path):
    out = tmp_path / "soda.npz"
    assert cli.main(["simulate", "soda", "--ticks", "4", "--output", str(out)]) == 0
    run = np.load(out)
    positions, springs, alive = run["positions"], run["springs"], run["alive"]
    assert positions.ndim == 3 and positions.shape[0] == 5 and positions.shape[2] == 2
    assert springs.ndim == 2 and springs.shape[1] == 2
    assert alive.shape == (5, springs.shape[0])
    assert springs.min() >= 0 and springs.max() < positions.shape[1]


def test_interrupted_write_leaves_no_file(tmp_path, monkeypatch):
    out = tmp_path / "run.npz"

    def explode(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "savez_compressed", explode)
    with pytest.raises(KeyboardInterrupt):
        save_npz_atomic(out, a=np.zeros(3))
    assert list(tmp_path.iterdir()) == []


def test_ci_runs_exactly_readmes_test_command():
    readme = (ROOT / "README.md").read_text()
    start, end = readme.index("<!-- test-command -->"), readme.index("<!-- /test-command -->")
    block = [l for l in readme[start:end].splitlines()[1:] if l.strip() and not l.startswith("```")]
    assert len(block) == 1 and "pytest" in block[0]
    extracted = subprocess.run(
        ["bash", "-c", "sed -n '/<!-- test-command -->/,/<!-- \\/test-command -->/p' README.md | grep -v '^<!--' "
         "| grep -v '^```' | sed '/^\\s*$/d'"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert extracted == block[0].strip()
    assert "test-command" in (ROOT / ".ci" / "run").read_text()


def test_negative_values_reach_their_option():
    join = cli._join_signed_values
    assert join(["render", "--size", "-8x6", "--poke", "-1:0,0,0:0,0,0"]) == ["render", "--size=-8x6", "--poke=-1:0,0,0:0,0,0"]
    assert join(["render", "--camera", "-30,10,5"]) == ["render", "--camera=-30,10,5"]
    assert join(["render", "--no-progress", "--size", "8x6"]) == ["render", "--no-progress", "--size", "8x6"]
    assert join(["render", "--output", "-x.png"]) == ["render", "--output", "-x.png"]  # not a signed option


def test_render_runs_past_the_last_poke_by_default(monkeypatch, tmp_path):
    import slime.app.render_world as render_world

    seen = {}
    monkeypatch.setattr(render_world, "render_world", lambda spec, **kw: seen.update(kw))
    out = str(tmp_path / "x.png")
    assert cli.main(["render", "--output", out, "--poke", "20:0,2,0:0,-400,0", "--poke", "3:0,2,0:0,-1,0"]) == 0
    assert seen["frames"] == 21  # the frame after the last poke, where its dent is deepest (docs/6)
    assert cli.main(["render", "--output", out]) == 0
    assert seen["frames"] == 120  # two seconds: the slime as it rests, not the sphere it starts as
    assert cli.main(["render", "--output", out, "--frames", "40", "--poke", "20:0,2,0:0,-400,0"]) == 0
    assert seen["frames"] == 40


def test_scene_slime_opens_the_demo(monkeypatch):
    import slime.app.demo as demo

    seen = {}
    monkeypatch.setattr(demo, "run_demo", lambda **kw: seen.update(kw) or 0)
    assert cli.main(["scene", "slime", "--size", "640x480", "--window", "glfw"]) == 0
    assert seen == {"size": (640, 480), "window": "glfw", "shaders": None, "material": None, "settings": {}}


def test_a_closed_pipe_ends_quietly():
    # `slime scenes | head -1`: the reader is gone before slime writes.
    child = subprocess.Popen([sys.executable, "-m", "slime", "scenes"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()
    _, err = child.communicate(timeout=120)
    assert err == b""
    assert child.returncode == 1


@pytest.mark.slow
@pytest.mark.parametrize("command", [["scene", "soda"], ["demo"], ["scene", "slime"]])
def test_an_unreachable_display_is_one_line(tmp_path, command):
    env = dict(os.environ, DISPLAY=":987")  # no X server there
    result = run_cli(*command, cwd=tmp_path, env=env)
    assert result.returncode == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "':987' cannot be reached" in lines[0] and "slime render" in lines[0]


def test_window_failure_messages():
    from slime.app.window_common import WINDOW_FAILED_STATUS, setup_problem, window_failed

    missing = ModuleNotFoundError("No module named 'glfw'")
    assert setup_problem(missing) and not setup_problem(RuntimeError("no 4x multisampled config"))
    assert window_failed("slime scene", missing, "glfw") == WINDOW_FAILED_STATUS


def test_window_failure_advice(capsys):
    from slime.app.window_common import window_failed

    window_failed("slime scene", ModuleNotFoundError("No module named 'sdl2'"), "sdl2")
    assert "pip install pysdl2 pysdl2-dll" in capsys.readouterr().err
    window_failed("slime demo", RuntimeError("GLXBadFBConfig"), None)
    err = capsys.readouterr().err
    assert "GLXBadFBConfig" in err and "Mesa" in err and len(err.strip().splitlines()) == 1


def test_options_without_a_command_are_the_demos(monkeypatch, capsys):
    import slime.app.demo as demo

    seen = {}
    monkeypatch.setattr(demo, "run_demo", lambda **kw: seen.update(kw) or 0)
    assert cli.main(["--stacks", "12", "--slices", "10"]) == 0
    assert seen["stacks"] == 12 and seen["slices"] == 10
    with pytest.raises(SystemExit) as stop:
        cli.main(["--stacks", "2"])
    assert stop.value.code == 2 and capsys.readouterr().err.startswith("slime: error: ")


@pytest.mark.slow
def test_bench_json_lines_carry_the_documented_keys(capsys):
    # Other programs read these lines: the keys README names must be there. In this process: the
    # lines are what the command prints, and a process of its own would only add its start-up.
    assert cli.main(["bench", "--only", "step,frame,dainty,render", "--quick", "--json"]) == 0
    import json

    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    step = [r for r in rows if r["benchmark"] == "step"]
    assert [(r["stacks"], r["slices"]) for r in step] == [(16, 16), (32, 32), (64, 64), (128, 128)]
    assert all(r["ms_per_step"] > 0 and r["vertices"] > 0 for r in step)
    # The C++ reference is built and timed in the same run wherever its sources and g++ are.
    from slime.bench import cpp

    if cpp.harness() is not None:
        assert all(r["cpp_ms"] > 0 and r["vs_cpp"] == pytest.approx(r["ms_per_step"] / r["cpp_ms"]) for r in step)
    frames = [r for r in rows if r["benchmark"] == "frame"]
    from slime.physics.slime3d.materials import MATERIALS
    from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams

    assert {(r["material"], r["stacks"]) for r in frames} == {(m, s) for m in MATERIALS for s in (16, 32, 64, 128)}
    assert all(r["ms_per_frame"] > 0 for r in frames)
    if cpp.harness() is not None:
        assert all(r["vs_cpp"] == pytest.approx(r["ms_per_frame"] / r["cpp_ms"]) for r in frames)
    else:
        assert all("cpp_ms" not in r for r in frames) and cpp.missing_reference()
    jelly = [r for r in frames if r["material"] == "jelly" and r["stacks"] == 32][0]
    # the ones it runs, not the least asked for
    assert jelly["substeps"] == SlimeBody(SlimeParams.of_material("jelly", stacks=32, slices=32)).world.substeps
    dainty = [r for r in rows if r["benchmark"] == "dainty_walker"]
    assert dainty and all(r["ticks"] == 600 and r["seconds"] > 0 for r in dainty)
    render = [r for r in rows if r["benchmark"] == "render"]
    assert {(r["stacks"], r["width"], r["height"]) for r in render} >= {(32, 800, 600), (64, 800, 600), (128, 800, 600)}
    assert all(r["fps"] > 0 for r in render)


@pytest.mark.slow
def test_a_too_stiff_model_warns_in_one_line_and_still_writes(tmp_path):
    import json

    from slime.scenes.soda_format import DAINTY_WALKER

    model = json.loads(DAINTY_WALKER.read_text())
    model["stiffness"] = 1e9
    path = tmp_path / "stiff.json"
    path.write_text(json.dumps(model))
    result = run_cli("simulate", str(path), "--ticks", "5", "--output", str(tmp_path / "run.npz"))
    assert result.returncode == 0
    assert result.stderr.strip() == (
        "slime: warning: 5 tick(s) undone, the masses held still: stiffness 1e+09 is too stiff for Soda "
        "Constructor's integrator (lower it, e.g. the walker's 6.25)"
    )
    assert np.abs(np.load(tmp_path / "run.npz")["positions"]).max() < 10.0
