"""Scenes from outside the package: a scene file run by its path, and a scene another installed
package adds through the ``slime.scenes`` entry-point group."""

from __future__ import annotations

import os
import textwrap

import numpy as np
import pytest
from PIL import Image

from helpers import run_cli
from slime.cli import main
from slime.scenes import SceneError, load_scene

BALL = textwrap.dedent('''
    import numpy as np

    from slime.scenes.base import DrawList, Scene2D


    class Ball(Scene2D):
        """A red ball dropped onto the floor of a 10 m box."""

        name = "ball"
        title = "a dropped ball"
        bounds = (0.0, 0.0, 10.0, 10.0)
        dt = 1.0 / 60.0

        def __init__(self):
            self.y, self.v = 8.0, 0.0

        def step(self):
            self.v -= 9.81 * self.dt
            self.y = max(1.0, self.y + self.v * self.dt)

        def positions(self):
            return np.array([[5.0, self.y]])

        def draw_list(self):
            drawing = DrawList()
            drawing.add_circles([[5.0, self.y]], 1.0, (0.9, 0.1, 0.1, 1.0), filled=True)
            return drawing
''')


@pytest.fixture
def ball_file(tmp_path):
    path = tmp_path / "my_scene.py"
    path.write_text(BALL)
    return path


def test_scene_file_loads_and_simulates(ball_file, tmp_path):
    scene = load_scene(str(ball_file))
    assert scene.title == "a dropped ball"
    out = tmp_path / "ball.npz"
    assert main(["simulate", str(ball_file), "--ticks", "30", "--output", str(out)]) == 0
    y = np.load(out)["positions"][:, 0, 1]
    assert y[0] == 8.0 and y[-1] < 7.0 and np.all(np.diff(y) < 0), "the ball falls"
    # Read, not imported into the user's folder: no __pycache__ beside their file (this suite
    # lets Python write bytecode, as a user's Python does).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ball.npz", "my_scene.py"]


def test_scene_file_renders_where_it_draws(ball_file, tmp_path, ctx):
    out = tmp_path / "ball.png"
    assert main(["render", str(ball_file), "--frames", "1", "--size", "100x100", "--output", str(out), "--no-progress"]) == 0
    pixels = np.asarray(Image.open(out).convert("RGB")).astype(int)
    red = (pixels[..., 0] > 180) & (pixels[..., 1] < 80)
    rows, cols = np.nonzero(red)
    # The ball (radius 1 of a 10 m box drawn 100 px wide) sits at x = 5 m, near y = 8 m (top is y = 10).
    assert 150 < red.sum() < 450
    assert abs(cols.mean() - 50) < 2 and abs(rows.mean() - 20) < 3


def test_scene_file_with_several_scenes_names_its_own(tmp_path):
    path = tmp_path / "two.py"
    path.write_text(BALL + "\n\nclass Other(Ball):\n    title = 'other'\n\n\nclass Third(Ball):\n    title = 'third'\n")
    with pytest.raises(SceneError, match=r"several scenes \(Other, Third\).*SCENE = ClassName"):
        load_scene(str(path))
    path.write_text(path.read_text() + "\nSCENE = Third\n")
    assert load_scene(str(path)).title == "third"
    # A subclass of a scene in the same file is the scene: its base is not a second one.
    path.write_text(BALL + "\n\nclass Heavier(Ball):\n    title = 'heavier'\n")
    assert load_scene(str(path)).title == "heavier"


@pytest.mark.parametrize(
    "text, words",
    [
        ("x = 1\n", "defines no Scene2D subclass"),
        ("def broken(:\n", "(line 1): SyntaxError"),
        (BALL.replace("self.y, self.v = 8.0, 0.0", "self.y = 1 / 0"), "ZeroDivisionError"),
    ],
    ids=["no-scene", "syntax-error", "raises"],
)
def test_broken_scene_file_is_one_line(tmp_path, capsys, text, words):
    path = tmp_path / "bad_scene.py"
    path.write_text(text)
    assert main(["simulate", str(path), "--ticks", "3", "--output", str(tmp_path / "x.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err and str(path) in err
    if words == "ZeroDivisionError":
        line = BALL.splitlines().index("        self.y, self.v = 8.0, 0.0") + 1
        assert f"(line {line})" in err, "the line of the student's file that failed"
    assert not (tmp_path / "x.npz").exists()


@pytest.mark.slow
def test_installed_package_adds_a_scene_by_entry_point(tmp_path):
    # An installed distribution as importlib.metadata finds it: a module and a dist-info folder
    # with its entry points, on the path.
    site = tmp_path / "site"
    (site / "ballscenes-1.0.dist-info").mkdir(parents=True)
    (site / "ballscenes.py").write_text(BALL)
    (site / "ballscenes-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: ballscenes\nVersion: 1.0\n")
    (site / "ballscenes-1.0.dist-info" / "entry_points.txt").write_text("[slime.scenes]\nball = ballscenes:Ball\n")
    # Before the path this run has, not instead of it: a checkout on PYTHONPATH stays the slime
    # that runs (another copy would first compile its physics for itself).
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}

    def slime(*args):
        return run_cli(*args, cwd=tmp_path, env=env)

    listing = slime("scenes")
    assert listing.returncode == 0, listing.stderr
    assert "ball       a dropped ball  [ballscenes:Ball]" in listing.stdout.splitlines()
    run = slime("simulate", "ball", "--ticks", "5", "--output", "ball.npz")
    assert run.returncode == 0, run.stderr
    assert np.load(tmp_path / "ball.npz")["positions"].shape == (6, 1, 2)


def test_entry_point_that_is_not_a_scene_is_one_line(monkeypatch):
    import slime.scenes as scenes
    from importlib.metadata import EntryPoint

    fake = [EntryPoint("wrong", "builtins:dict", scenes.ENTRY_POINT_GROUP),
            EntryPoint("soda", "builtins:dict", scenes.ENTRY_POINT_GROUP)]  # a built-in name is never replaced
    monkeypatch.setattr(scenes, "entry_points", lambda group: [ep for ep in fake if ep.group == group])
    assert scenes.scene_names()[-1] == "wrong" and scenes.scene_names().count("soda") == 1
    with pytest.raises(SceneError, match=r"scene 'wrong' \(builtins:dict\) gave dict, not a Scene2D"):
        load_scene("wrong")
    assert load_scene("soda").title.startswith("Soda")
