"""README's Python examples run as written (the plotting one without showing a window)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from doc_blocks import README, check_command_lines, command_lines, python_blocks

def test_readme_has_python_examples():
    assert len(python_blocks()) >= 3


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_readme_python_example_runs(index, tmp_path, monkeypatch):
    code = python_blocks()[index]
    monkeypatch.chdir(tmp_path)
    if "np.load(\"run.npz\")" in code:
        from slime.cli import main

        assert main(["simulate", "slime", "--ticks", "30", "--output", "run.npz", "--stacks", "8", "--slices", "8"]) == 0
        code = re.sub(r"^import matplotlib.*$|^plt\..*$", "", code, flags=re.M)
    namespace: dict = {}
    exec(compile(code, f"README.md python block {index}", "exec"), namespace)
    for value in namespace.values():
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            assert np.all(np.isfinite(value))


def test_readme_command_lines_parse():
    # Every `slime ...` line in README's sh blocks is a valid command line (parsed, not run).
    lines = command_lines()
    assert len(lines) >= 5
    check_command_lines(lines)


def test_readme_names_things_once():
    """No name followed by itself in brackets ("Soda Constructor (Soda Constructor)", "spring_mass
    (the Computer Seminar chapter)"), and nothing shipped still announced as coming."""
    text = README.read_text()
    repeated = re.search(r"\b([\w-]+(?: [\w-]+)*) \((?:the )?\1(?: \w+)?\)", text)
    assert repeated is None, repeated
    assert "(coming)" not in text


def test_readme_lists_every_benchmark_module():
    from slime import bench

    modules = bench.PHYSICS + bench.RENDER + bench.WINDOW + bench.FUZZ + bench.FEEL
    listed = re.search(r"--only ([\w,]+)\]", README.read_text()).group(1).split(",")
    assert listed == modules
    assert all((Path(bench.__file__).parent / f"{name}.py").exists() for name in modules)


def test_readme_names_every_force_module():
    """"Changing the physics" names the module of each of the slime's forces: every module that
    step.py takes a vertex's part of a force (``*_at``) or a force of its own (``add_*``) from,
    but one added beside the declaration of its own parameter (docs/2: its declaration and its
    docstring say what it is, and `slime params` lists it)."""
    section = README.read_text().split("## Changing the physics")[1].split("\n## ")[0]
    step = (Path(__file__).resolve().parents[2] / "slime" / "physics" / "slime3d" / "step.py").read_text()
    forces = {f"{module}.py" for module, names in re.findall(r"^from slime\.physics\.slime3d\.(\w+) import (.*)$", step, flags=re.M)
              if re.search(r"\b(?:\w+_at|add_\w+)\b", names)}
    from slime.physics import parameters
    from slime.physics.slime3d import slime_params  # noqa: F401 (every force's declarations)

    added = {f"{p.home.rsplit('.', 1)[-1]}.py" for p in parameters.PARAMETERS.values() if p.home != parameters.__name__}
    named = set(re.findall(r"`(\w+\.py)`", section))
    assert forces - added and forces - added <= named, sorted(forces - added - named)


def test_readme_states_the_limits_as_limits_py_has_them():
    from slime import fileio, limits

    text = " ".join(README.read_text().split())
    stated = [
        (r"from (\d+) to (\d+) pixels a side", limits.SIZE),
        (r"and (\d+) x (\d+) pixels in all", (4096, limits.MAX_PIXELS // 4096)),
        (r"stop at (\d+ \d+)\.", (limits.FRAMES[1],)),
        (r"mesh resolution, (\d+) to (\d+),", limits.RESOLUTION),
        (r"elevation (\d+) to (\d+): the camera stays above", limits.CAMERA_ELEVATION),
        (r"a file over (\d+) MiB is one line", (limits.SHADER_FILE_BYTES // 2**20,)),
        (r"a regular file of at most (\d+) MiB", (fileio.MAX_INPUT_BYTES // 2**20,)),
    ]
    for pattern, values in stated:
        found = re.search(pattern, text)
        assert found, pattern
        assert tuple(float(g.replace(" ", "")) for g in found.groups()) == tuple(float(v) for v in values), pattern


def test_readmes_key_table_is_the_windows_own():
    # The demo's help overlay and its key dispatch are made from demo_keys.INPUT; README's table
    # of the window's input is that table as `python -m slime.app.demo_keys` prints it.
    from slime.app.demo_keys import readme_table

    table = readme_table()
    assert table in README.read_text(), f"README's key table is not demo_keys.INPUT's; it is:\n{table}"


def test_readme_states_the_slimes_defaults():
    from slime.app.gesture import HOLD_DELAY
    from slime.physics.slime3d.slime_params import SlimeParams

    text = " ".join(README.read_text().split())
    params = SlimeParams()
    mass, radius, floor = re.search(r"the slime is (\d+) kg of radius (\d+) m resting on the floor at y = (\d+)",
                                    text).groups()
    assert (float(mass), float(radius), float(floor)) == (params.mass, params.radius, params.floor_height)
    stacks, slices = re.search(r"mesh resolution, \d+ to \d+, default (\d+) x (\d+)\)", text).groups()
    assert (int(stacks), int(slices)) == (params.stacks, params.slices)
    assert float(re.search(r"left hold \(([\d.]+) s\)", text).group(1)) == HOLD_DELAY


def _agrees(written: str, value: float) -> bool:
    """``value`` rounds to ``written`` at the precision it is written with (0.4 holds 0.35 to 0.45)."""
    decimals = len(written.split(".")[1]) if "." in written else 0
    return abs(value - float(written)) <= 0.5 * 10.0 ** -decimals + 1e-9


def test_readme_states_the_pokes_dent():
    """"A poke" says how deep README's example poke dents the default slime, when, and which
    frame draws it; the pictures' commands and the Python example poke as hard."""
    from slime.simulate import Poke, simulate_slime

    text = " ".join(README.read_text().split())
    tick, force, dent, start, low, later, frames = re.search(
        r"so `--poke (\d+):0,2,0:0,(-\d+),0` dents its top by about ([\d.]+) m \(from ([\d.]+) m to ([\d.]+) m, "
        r"(\d+) frames later: `--frames (\d+)` draws it\)", text).groups()
    tick, later = int(tick), int(later)
    run = simulate_slime(tick + 20, [Poke(tick, (0.0, 2.0, 0.0), (0.0, float(force), 0.0))])
    top = run["positions"][:, :, 1].max(axis=1)  # row k: after k frames
    deepest = tick + int(top[tick:].argmin())
    assert deepest - tick == later and int(frames) == deepest
    assert _agrees(start, top[tick]) and _agrees(low, top[deepest]), (top[tick], top[deepest])
    assert _agrees(dent, top[tick] - top[deepest]), top[tick] - top[deepest]
    assert f"slime render --frames {frames} --output assets/slime.png --poke {tick}:0,2,0:0,{force},0" in text
    pushes = re.findall(r"(?:--poke \d+:[-\d.,]+:|force=\()([-\d.]+), ?([-\d.]+), ?([-\d.]+)", text)
    assert len(pushes) >= 5 and {max(abs(float(f)) for f in push) for push in pushes} == {abs(float(force))}, pushes


def test_readme_states_the_materials_as_materials_py_has_them():
    from slime.physics.slime3d.materials import DEFAULT_MATERIAL, MATERIALS

    rows = re.findall(r"^ *\| `(\w+)`( \(the default\))? \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([^|]+) \|$",
                      README.read_text(), flags=re.M)
    assert [row[0] for row in rows] == list(MATERIALS)
    for name, default, *numbers, about in rows:
        values = MATERIALS[name].values
        stated = dict(zip(("shape_stiffness", "viscosity", "surface_tension", "adhesion", "grip"), map(float, numbers)))
        assert stated == {key: values[key] for key in stated}, name
        assert about.strip() == MATERIALS[name].about and bool(default) == (name == DEFAULT_MATERIAL), name


def test_readme_states_the_long_run_marks_and_the_estimate_as_the_command_has_them():
    from slime import cli, limits
    from slime.scenes.world_format import lone_slime_spec

    text = " ".join(README.read_text().split())
    minutes, megabytes = re.search(r"estimated to take more than (\d+) minutes or write more than (\d+) MB", text).groups()
    assert (float(minutes) * 60, float(megabytes) * 1e6) == (limits.LONG_RUN_SECONDS, limits.LARGE_OUTPUT_BYTES)
    frames, about, gigabytes = re.search(r"`slime render --frames (\d+) --output x\.gif`: about (\d+) minutes and (\d+) GB",
                                         text).groups()
    seconds, size = cli.run_estimate(int(frames), lone_slime_spec(None, None, None).vertex_count, ".gif", (800, 600))
    assert abs(seconds / 60 - int(about)) <= 5 and round(size / 1e9) == int(gigabytes)


def test_readme_names_a_killed_runs_leftover_as_the_writer_makes_it(tmp_path):
    from slime.fileio import atomic_path

    text = README.read_text()
    example = re.search(r"`(\.run\.gif\.slime-\d+-\w{8}\.tmp\.gif)`", text).group(1)
    with atomic_path(tmp_path / "run.gif", suffix=".tmp.gif") as tmp:  # what a GIF or video writer asks for
        made = tmp.name
        tmp.write_bytes(b"")
    shape = lambda name: re.sub(r"-\d+-\w{8}\.", "-PID-XXXXXXXX.", name)  # noqa: E731
    assert shape(made) == shape(example) == ".run.gif.slime-PID-XXXXXXXX.tmp.gif"
    assert "`.NAME.slime-PID-XXXXXXXX.tmp`" in text


def test_the_no_display_hint_names_slime_as_it_can_be_typed(monkeypatch, tmp_path, capsys):
    from slime.app import window_common

    venv_slime = tmp_path / ".venv" / "bin" / "slime"
    venv_slime.parent.mkdir(parents=True)
    venv_slime.write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", [str(venv_slime)])
    monkeypatch.setattr(window_common.shutil, "which", lambda name: None)  # the venv not activated
    window_common.no_display("slime", "render to a file instead: slime render")
    assert capsys.readouterr().err.rstrip().endswith("instead: .venv/bin/slime render")
    monkeypatch.setattr(window_common.shutil, "which", lambda name: str(venv_slime))  # activated
    window_common.no_display("slime", "render to a file instead: slime render pile")
    assert capsys.readouterr().err.rstrip().endswith("instead: slime render pile")
    text = " ".join(README.read_text().split("## What it is")[0].split())
    assert "`.venv/bin/slime render` writes `out/slime.png`" in text


def test_readme_first_screen_is_the_two_commands_and_what_each_does():
    first = README.read_text().split("## What it is")[0]
    commands = re.findall(r"```sh\n(.*?)\n```", first, flags=re.S)
    assert len(commands) == 2 and commands[0].endswith(".venv/bin/slime") and "pytest" in commands[1]
    said = " ".join(first.split())
    assert "A window opens" in said and "About a minute the first time" in said  # the demo: what you see, how long
    assert "A few minutes" in said and "ends with `N passed`" in said  # the tests
    for machinery in ("PYTHONDONTWRITEBYTECODE", "xdist", "blender_report", "-n auto` runs"):
        assert machinery not in first, f"{machinery} belongs under Development"
    assert "blender_report" in README.read_text().split("## Development")[1]
