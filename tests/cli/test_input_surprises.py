"""Inputs a user gets wrong, or a machine gets in the way of: each gives one line that names the
user's own file or argument, a non-zero exit, no traceback, no hang and no file left behind."""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest

from slime import cli
from slime.limits import FRAMES
from slime.interrupts import Terminated
from slime.paths import ASSETS


def _cli_error(capsys, *args) -> str:
    """Run the command in this process, numpy's RuntimeWarnings made errors; its one stderr line."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            status = cli.main([str(a) for a in args])
        except SystemExit as exit:  # argparse's own complaints
            status = exit.code
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert status != 0, captured
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def _no_files_but(folder, *names) -> None:
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)


# --- Soda model files: numbers that overflow the physics or the drawing ------------------------------

def _walker(change) -> dict:
    data = json.loads((ASSETS / "dainty_walker.json").read_text())
    change(data)
    return data


@pytest.mark.parametrize("change, field", [
    (lambda d: d["nodes"][0].update(location=[1e300, 1e300]), "nodes[0].location[0]"),
    (lambda d: d["nodes"][3].update(velocity=[0.0, -1e300]), "nodes[3].velocity[1]"),
    (lambda d: d.update(width=1e308), "width"),
    (lambda d: d.update(height=1e308), "height"),
    (lambda d: d.update(friction=-1e308), "friction"),
    (lambda d: d.update(friction=-0.5), "friction"),
    (lambda d: d.update(stiffness=1e300), "stiffness"),
    (lambda d: d.update(gravity=[0.0, -1e300]), "gravity[1]"),
], ids=["mass", "velocity", "width", "height", "friction", "negative friction", "stiffness", "gravity"])
def test_soda_model_with_absurd_numbers_is_refused_naming_the_field(tmp_path, capsys, change, field):
    model = tmp_path / "model.json"
    model.write_text(json.dumps(_walker(change)))
    line = _cli_error(capsys, "simulate", model, "--ticks", "2", "--output", tmp_path / "out.npz")
    assert line.startswith(f"slime: error: {model}: {field} must be from "), line
    _no_files_but(tmp_path, "model.json")


def _numbers(data, path=()) -> list[tuple]:
    """The path of every number in parsed JSON."""
    if isinstance(data, (dict, list)):
        items = data.items() if isinstance(data, dict) else enumerate(data)
        return [found for key, value in items for found in _numbers(value, (*path, key))]
    return [path] if isinstance(data, (int, float)) and not isinstance(data, bool) else []


def _field(path) -> str:
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text


@pytest.mark.parametrize("seed", range(12))
def test_any_number_of_a_model_past_the_bounds_is_refused_naming_it(tmp_path, capsys, seed):
    import random

    rng = random.Random(seed)
    data = _walker(lambda d: None)
    paths = [p for p in _numbers(data) if p[-1] not in ("node_a", "node_b", "wave_direction")]
    path = rng.choice(paths)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = rng.choice([1, -1]) * 10.0 ** rng.uniform(12.5, 308)
    model = tmp_path / "model.json"
    model.write_text(json.dumps(data))
    line = _cli_error(capsys, "simulate", model, "--ticks", "2", "--output", tmp_path / "out.npz")
    assert line.startswith(f"slime: error: {model}: {_field(path)} must be"), (path, line)
    _no_files_but(tmp_path, "model.json")


# --- counts that would run for days, windows past the picture limits --------------------------------

@pytest.mark.parametrize("args, words", [
    (["render", "--poke", "99999999999:0,1,0:0,-1,0"], "--poke '99999999999:0,1,0:0,-1,0'"),
    (["render", "--poke", f"{FRAMES[1]}:0,1,0:0,-1,0"], f"less than {FRAMES[1]}"),
    (["render", "--frames", "1000000000"], "--frames"),
    (["render", "pile", "--frames", str(FRAMES[1] + 1)], f"at most {FRAMES[1]}"),
    (["simulate", "slime", "--ticks", "1000000000", "--output", "x.npz"], "--ticks"),
    (["simulate", "slime", "--ticks", "5", "--poke", "99999999999:0,1,0:0,-1,0", "--output", "x.npz"], "--poke"),
])
def test_counts_past_the_frame_limit_are_refused_before_anything_runs(tmp_path, monkeypatch, capsys, args, words):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("slime.app.render_slime.render_slime", _must_not_run)
    monkeypatch.setattr("slime.app.render_world.render_world", _must_not_run)
    monkeypatch.setattr("slime.simulate.simulate_slime", _must_not_run)
    assert words in _cli_error(capsys, *args)
    _no_files_but(tmp_path)


def test_a_poke_near_the_limit_draws_no_more_than_the_limit(monkeypatch, tmp_path):
    frames = []
    monkeypatch.setattr("slime.app.render_world.render_world", lambda spec, **kw: frames.append(kw["frames"]))
    assert cli.main(["render", "--poke", f"{FRAMES[1] - 1}:0,1,0:0,-1,0", "--output", str(tmp_path / "a.png"), "--yes"]) == 0  # minutes: --yes
    assert frames == [FRAMES[1]]


def _must_not_run(*args, **kwargs):
    raise AssertionError("a run started")


@pytest.mark.parametrize("window", [(8000, 8000), (8192, 600), (5000, 4000), (800, 600), (4096, 4096)])
def test_a_window_resized_past_the_picture_limits_draws_and_saves_within_them(tmp_path, window):
    import numpy as np
    from types import SimpleNamespace

    from slime.app.demo import DemoWindow
    from slime.app.quality import LEVELS
    from slime.limits import MAX_PIXELS, SIZE

    asked = []

    def draw(camera, size, **kw):
        asked.append(tuple(size))
        return SimpleNamespace(texture=None, resolved=None)

    def picture(camera, size, **kw):
        asked.append(tuple(size))
        return np.zeros((2, 2, 3), np.uint8)

    demo = DemoWindow.__new__(DemoWindow)
    demo.wnd = SimpleNamespace(buffer_size=window, fbo=None, use=lambda: None)
    demo.ctx = SimpleNamespace(copy_framebuffer=lambda *a: None)
    demo.view = SimpleNamespace(draw=draw, picture=picture, present=lambda *a: None)
    demo.quality = SimpleNamespace(level=LEVELS[0])
    demo.play = SimpleNamespace(world=SimpleNamespace(bodies=[]))
    demo.camera, demo.wireframe = None, False
    demo._draw_scene()
    assert demo.screenshot(tmp_path) is not None
    for width, height in asked:
        assert width <= SIZE[1] and height <= SIZE[1] and width * height <= MAX_PIXELS
        assert abs(width / height - window[0] / window[1]) < 0.01
    if window[0] * window[1] <= MAX_PIXELS:
        assert asked[-1] == window


# --- SIGTERM ----------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("signum, status, word", [(signal.SIGTERM, 143, "terminated"),
                                                  (signal.SIGINT, 130, "interrupted")])
def test_sigterm_is_handled_like_sigint(tmp_path, signum, status, word):
    run = subprocess.Popen([sys.executable, "-m", "slime", "render", "--frames", "5000", "--size", "64x48",
                            "--output", "film.gif", "--no-progress"], cwd=tmp_path, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob(".film.gif.slime-*")):  # the film is being written
            assert run.poll() is None and time.monotonic() < deadline, run.communicate()
            time.sleep(0.05)
        run.send_signal(signum)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == status, err
    assert err.strip() == f"slime: {word}"
    _no_files_but(tmp_path)


HALF_BUILT = """
import os, signal
from slime.interrupts import Terminated, interruptible

class HalfBuilt:  # a library object whose finaliser needs what its constructor sets last
    def __init__(self):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10**8):  # the handler runs here, between two bytecodes
            pass
        self.handle = 1

    def __del__(self):
        del self.handle

try:
    with interruptible():
        HalfBuilt()
except Terminated:
    print("terminated")
"""


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, Terminated])
def test_an_interrupt_set_while_a_compiled_call_returned_is_that_interrupt(interrupt):
    # numba's dispatcher, handed a signal as a kernel's result is boxed, returns the result with
    # the interrupt set: Python raises a SystemError from it, and the command must still stop as
    # the signal says, in one line.
    from slime.interrupts import interruptible

    with pytest.raises(interrupt) as caught:
        with interruptible():
            try:
                raise interrupt()
            except KeyboardInterrupt as inner:
                raise SystemError("CPUDispatcher(<function settle_deepest>) returned a result with an "
                                  "exception set") from inner
    assert type(caught.value) is interrupt
    with pytest.raises(SystemError):  # a SystemError of its own stays one
        with interruptible():
            raise SystemError("something else")


# The command as its entry point runs it, with a signal sent to itself after DELAY seconds from
# another thread: after Python's own start-up (a signal there is Python's, not slime's to answer).
SIGNALLED = """
import os, sys, threading
threading.Timer({delay}, lambda: os.kill(os.getpid(), {signum})).start()
sys.argv = ["slime", "simulate", "pile", "--ticks", "1500", "--output", "p.npz", "--no-progress"]
from slime.command import main
raise SystemExit(main())
"""


@pytest.mark.slow
def test_seeded_signals_from_the_first_import_to_the_last_tick_are_one_line(tmp_path):
    # Seed 777: Ctrl-C or SIGTERM while the modules import (their first 0.3 s) and during a pile's
    # run (its contacts and obstacles are compiled calls a signal can land in).
    rng = np.random.default_rng(777)
    for trial in range(10):
        signum = (signal.SIGINT, signal.SIGTERM)[rng.integers(2)]
        delay = rng.uniform(0.0, 0.3) if trial < 5 else rng.uniform(1.5, 3.5)
        run = subprocess.run([sys.executable, "-c", SIGNALLED.format(delay=delay, signum=int(signum))], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
        status, word = (130, "interrupted") if signum == signal.SIGINT else (143, "terminated")
        lines = run.stderr.strip().splitlines()
        assert run.returncode == status and len(lines) == 1, (trial, delay, run.stderr)
        assert lines[0] in (f"slime: {word}", f"slime: {word}: p.npz not written"), (trial, delay, run.stderr)
        _no_files_but(tmp_path)


def test_an_object_the_interrupt_cut_off_halfway_says_nothing_as_it_goes():
    run = subprocess.run([sys.executable, "-c", HALF_BUILT], capture_output=True, text=True, timeout=60)
    assert (run.stdout, run.stderr) == ("terminated\n", "")


@pytest.mark.parametrize("interrupt, status, word", [(Terminated, 143, "terminated"),
                                                     (KeyboardInterrupt, 130, "interrupted")])
def test_an_interrupt_the_moment_a_temporary_exists_leaves_nothing(tmp_path, monkeypatch, capsys, interrupt, status,
                                                                  word):
    # The signal is handled between any two bytecodes: here, as the temporary is made and before
    # the code that would remove it has started. The command still leaves nothing on its way out.
    import tempfile

    from slime import fileio

    made = tempfile.mkstemp

    def made_then_interrupted(*args, **kwargs):
        made(*args, **kwargs)
        raise interrupt

    monkeypatch.setattr(fileio.tempfile, "mkstemp", made_then_interrupted)
    assert cli.main(["render", "--frames", "1", "--size", "32x24", "--output", str(tmp_path / "x.png")]) == status
    assert capsys.readouterr().err.strip() == f"slime: {word}"
    _no_files_but(tmp_path)


@pytest.mark.parametrize("signum, status, word", [(signal.SIGTERM, 143, "terminated"),
                                                  (signal.SIGINT, 130, "interrupted")])
@pytest.mark.parametrize("command", [["render", "--frames", "500", "--size", "32x24", "--output", "film.gif"],
                                     ["simulate", "slime", "--ticks", "500", "--output", "run.npz"]])
def test_a_signal_whose_exception_is_swallowed_still_stops_the_command(tmp_path, monkeypatch, capsys, signum, status,
                                                                       word, command):
    # Code under a C extension may catch and clear the exception a signal handler raises: the
    # signal must not be lost there, or the render runs on to its last frame.
    from slime.physics.slime3d.world3d import World3D

    stepped, step = [], World3D.step

    def step_then_signal_swallowed(world):
        step(world)
        stepped.append(1)
        if len(stepped) == 3:
            try:
                signal.getsignal(signum)(signum, None)
            except KeyboardInterrupt:
                pass

    monkeypatch.setattr(World3D, "step", step_then_signal_swallowed)
    monkeypatch.chdir(tmp_path)
    assert cli.main(command) == status
    assert capsys.readouterr().err.strip().startswith(f"slime: {word}")
    assert len(stepped) <= 4  # stopped at the frame after the signal
    _no_files_but(tmp_path)


# --- scene names and scene files ----------------------------------------------------------------------

def test_an_unknown_scene_lists_every_name_and_how_files_are_given(tmp_path, capsys):
    from slime.scenes import SCENES, world_scene_names

    line = _cli_error(capsys, "render", "pilee", "--output", tmp_path / "x.png")
    assert line.startswith("slime: error: unknown scene 'pilee'")
    for name in ["slime", *SCENES, *world_scene_names()]:
        assert f" {name}," in line or f" {name};" in line, name
    assert {"pile", "ramp", "duel"} <= set(world_scene_names())
    assert '3D scene .json (with "slimes")' in line and "scene file .py" in line and "Soda model .json" in line
    _no_files_but(tmp_path)


@pytest.mark.parametrize("scene, words", [
    ({"slime": [{"center": [0, 1, 0], "radius": 0.5}]}, "it has 'slime', not 'slimes'"),
    ({"slimez": [], "obstacles": []}, "it has 'slimez', not 'slimes'"),
    ({"obstacles": [], "camera": None}, "it has 3D scene keys but no 'slimes'"),
])
@pytest.mark.parametrize("command", ["render", "simulate"])
def test_a_3d_scene_file_without_slimes_is_told_about_the_3d_format(tmp_path, capsys, scene, words, command):
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(scene))
    extra = ["--ticks", "2"] if command == "simulate" else []
    line = _cli_error(capsys, command, path, *extra, "--output", tmp_path / "x.npz" if extra else tmp_path / "x.png")
    assert line.startswith(f"slime: error: {path}: not a 3D scene: {words}"), line
    assert "Soda" in line
    _no_files_but(tmp_path, "scene.json")


def test_a_3d_scene_over_the_size_limit_says_too_big(tmp_path, capsys):
    from slime.limits import SCENE_FILE_BYTES

    data = json.loads((ASSETS / "pile.json").read_text())
    data["description"] = "x" * (SCENE_FILE_BYTES + 1024)
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    line = _cli_error(capsys, "simulate", path, "--ticks", "2", "--output", tmp_path / "x.npz")
    assert line.startswith(f"slime: error: {path}: a 3D scene file too big: 8 MiB, more than the 8 MiB"), line
    _no_files_but(tmp_path, "huge.json")


@pytest.mark.parametrize("code", ["sys.exit(0)", "sys.exit(3)", "raise SystemExit", "exit()"])
def test_a_scene_file_that_exits_while_loading_fails_in_one_line(tmp_path, capsys, code):
    path = tmp_path / "runs.py"
    path.write_text(f"import sys\n\n{code}\n")
    line = _cli_error(capsys, "simulate", path, "--ticks", "3", "--output", tmp_path / "x.npz")
    assert line.startswith(f"slime: error: {path} (line 3): called sys.exit("), line
    _no_files_but(tmp_path, "runs.py")


_RUNNING_SCENE = """import numpy as np
from slime.scenes.base import DrawList, Scene2D


class Breaks(Scene2D):
    name, title = "breaks", "breaks"
    bounds = (-1.0, 0.0, 1.0, 2.0)

    def __init__(self):
        self.ticks = 0

    def step(self):
        self.ticks += 1
        if self.ticks > 3:
            self.ticks / 0

    def positions(self):
        return np.array([[0.0, 1.0]])

    def draw_list(self):
        {draw}
"""


@pytest.mark.parametrize("command", ["render", "simulate"])
def test_a_scene_file_that_fails_while_running_fails_in_one_line_naming_its_line(tmp_path, capsys, command):
    """A bug in a student's ``step`` (the fourth tick divides by zero) is told as a bug while
    loading is: the file, its line, the error; no traceback, no output left."""
    path = tmp_path / "breaks.py"
    path.write_text(_RUNNING_SCENE.format(draw="return DrawList()"))
    output = ["--frames", "10", "--output", tmp_path / "x.png"] if command == "render" else \
        ["--ticks", "10", "--output", tmp_path / "x.npz"]
    line = _cli_error(capsys, command, path, *output)
    assert line == (f"slime: error: {path} (line 15): ZeroDivisionError: division by zero "
                    "(SLIME_DEBUG=1 shows the traceback)"), line
    _no_files_but(tmp_path, "breaks.py")


def test_a_scene_whose_draw_list_is_not_one_is_told_so(tmp_path, capsys):
    path = tmp_path / "breaks.py"
    path.write_text(_RUNNING_SCENE.format(draw="return None").replace("self.ticks > 3", "False"))
    line = _cli_error(capsys, "render", path, "--frames", "3", "--output", tmp_path / "x.png")
    assert line.startswith("slime: error: scene 'breaks': draw_list() gave NoneType, not a DrawList"), line
    _no_files_but(tmp_path, "breaks.py")


# --- outputs that cannot be written -------------------------------------------------------------------

class _FullDisk:
    """A binary file whose writes fail with ENOSPC once ``room`` bytes are in it, as on a full disk."""

    def __init__(self, path, mode, room):
        self.file, self.room = builtins.open(path, mode), room

    def write(self, data):
        self.room -= len(data)
        if self.room < 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.file.write(data)

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()


def _fill_disk(monkeypatch, room: int = 100) -> None:
    from slime import fileio

    monkeypatch.setattr(fileio, "open", lambda path, mode="r": _FullDisk(path, mode, room), raising=False)


FULL = f"cannot write it ({os.strerror(errno.ENOSPC)})"


@pytest.mark.parametrize("args, name", [
    (["simulate", "slime", "--ticks", "3", "--stacks", "6", "--slices", "6"], "run.npz"),
    (["simulate", "springs", "--ticks", "3"], "run.npz"),
    (["render", "--size", "64x48"], "still.png"),
])
def test_a_full_disk_names_the_output_and_leaves_nothing(tmp_path, monkeypatch, capsys, args, name):
    _fill_disk(monkeypatch)
    out = tmp_path / name
    line = _cli_error(capsys, *args, "--output", out)
    assert line == f"slime: error: {out}: {FULL}"
    _no_files_but(tmp_path)


def test_a_full_disk_while_a_film_streams_names_the_film_and_leaves_nothing(tmp_path, monkeypatch, capsys):
    from slime.render.images import GifWriter

    frames = []

    def add(self, rgb):
        frames.append(rgb)
        if len(frames) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(GifWriter, "_add", add)
    out = tmp_path / "film.gif"
    line = _cli_error(capsys, "render", "--frames", "4", "--size", "64x48", "--output", out, "--no-progress")
    assert line == f"slime: error: {out}: {FULL}"
    _no_files_but(tmp_path)


def test_an_unwritable_folder_names_the_output_not_the_temporary(tmp_path, monkeypatch, capsys):
    from slime import fileio

    def refuse(prefix, suffix, dir):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.path.join(dir, prefix + "abc" + suffix))

    monkeypatch.setattr(fileio.tempfile, "mkstemp", refuse)
    out = tmp_path / "run.npz"
    line = _cli_error(capsys, "simulate", "springs", "--ticks", "2", "--output", out)
    assert line == f"slime: error: {out}: cannot write it ({os.strerror(errno.EACCES)})"
    assert ".tmp" not in line
    _no_files_but(tmp_path)


@pytest.mark.parametrize("room", [0, 3000])
@pytest.mark.parametrize("before", ["absent", "empty", "forced"])
def test_shaders_export_onto_a_full_disk_leaves_nothing_behind(tmp_path, monkeypatch, capsys, room, before):
    folder = tmp_path / "mine"
    if before != "absent":
        folder.mkdir()
    if before == "forced":
        (folder / "notes.txt").write_text("mine\n")
    _fill_disk(monkeypatch, room)
    args = ["shaders", "export", folder] + (["--force"] if before == "forced" else [])
    line = _cli_error(capsys, *args)
    assert line.startswith(f"slime: error: {folder}/") and line.endswith(FULL), line
    if before == "absent":
        _no_files_but(tmp_path)
    else:
        _no_files_but(folder, *(["notes.txt"] if before == "forced" else []))


# --- one prefix, and what to do instead ---------------------------------------------------------------

@pytest.mark.parametrize("scene, instead", [("pile", "slime render pile"), ("soda", "slime render soda"),
                                            ("slime", "slime render")])
def test_a_scene_without_a_display_says_how_to_render_it_instead(monkeypatch, capsys, scene, instead):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    line = _cli_error(capsys, "scene", scene)
    assert line.startswith("slime: error: no display")
    assert line.endswith(f"render to a file instead: {instead}"), line


@pytest.mark.parametrize("args", [
    ["render", "--frames", "0"],
    ["render", "--size", "9000x9000"],
    ["simulate", "slime", "--ticks", "2"],
    ["frobnicate"],
    ["shaders", "export"],
    ["shaders", "export", "{tmp}/no/such"],
    ["shaders", "export", "{tmp}/file.txt"],
    ["render", "--shaders", "{tmp}/nodir"],
    ["scenes", "--what"],
])
def test_every_error_has_the_same_prefix(tmp_path, monkeypatch, capsys, args):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("x\n")
    line = _cli_error(capsys, *(a.format(tmp=tmp_path) for a in args))
    assert line.startswith("slime: error: "), line
    _no_files_but(tmp_path, "file.txt")


def test_a_camera_moved_out_of_the_slime_says_so_with_the_same_prefix(tmp_path, capsys):
    assert cli.main(["render", "--camera", "0,10,0.1", "--size", "64x48", "--output", str(tmp_path / "x.png")]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("slime: a camera distance of 0.1 is inside the slime"), err


# --- simulate's progress bar --------------------------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("scene", ["springs", "slime", "duel"])
@pytest.mark.parametrize("terminal, quiet", [(True, False), (True, True), (False, False)])
def test_simulate_shows_a_progress_bar_on_a_terminal_unless_asked_not_to(tmp_path, monkeypatch, scene, terminal, quiet):
    err = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    ticks = "40" if scene != "duel" else "30"
    args = ["simulate", scene, "--ticks", ticks, "--output", str(tmp_path / "run.npz")]
    if scene == "slime":
        args += ["--stacks", "6", "--slices", "6"]
    assert cli.main(args + (["--no-progress"] if quiet else [])) == 0
    if terminal and not quiet:
        assert f"simulating {scene}" in err.getvalue() and f"{ticks}/{ticks}" in err.getvalue(), err.getvalue()
    else:
        assert err.getvalue() == ""


HALF_WRITTEN = """
import numpy as np
from slime.scenes.base import Scene2D


class Half(Scene2D):
    name = "half"

    def step(self):
        pass
"""


@pytest.mark.parametrize("command", [["simulate", "--ticks", "3", "--output", "h.npz"], ["render", "--output", "h.png"]])
def test_a_half_written_scene_file_is_one_line_naming_what_it_lacks(tmp_path, monkeypatch, capsys, command):
    (tmp_path / "half.py").write_text(HALF_WRITTEN)
    monkeypatch.chdir(tmp_path)
    status = cli.main([command[0], "half.py", *command[1:], "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1, err
    assert "Half lacks positions(), draw_list()" in err[0], err
    _no_files_but(tmp_path, "half.py")


@pytest.mark.parametrize("name", ["myscene", "sc.npz", "duel.txt"])
def test_a_scene_file_is_known_by_what_it_holds_not_its_name(tmp_path, monkeypatch, capsys, name):
    (tmp_path / name).write_bytes((ASSETS / "duel.json").read_bytes())
    monkeypatch.chdir(tmp_path)
    assert cli.main(["simulate", name, "--ticks", "2", "--output", "run.npz", "--no-progress"]) == 0
    import numpy as np

    assert len(np.unique(np.load(tmp_path / "run.npz")["body"])) == 2  # duel's two slimes
