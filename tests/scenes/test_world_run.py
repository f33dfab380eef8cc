"""One run for every 3D scene (slime/scenes/world_run.py): the lone slime is a scene of one slime,
its timed events (a --poke, or a file's "events") act on the slime whose surface is nearest, and
`slime simulate` writes one npz layout for all of them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from slime import cli
from slime.physics.slime3d.slime_body import SlimeBody
from slime.scenes.world_format import WorldFileError, load_world_scene, lone_slime_spec, poke
from slime.scenes.world_run import act, record, run, slime_at
from slime.scenes.world_scene import build_world
from slime.simulate import slime_params


def _body_momenta(world) -> np.ndarray:
    """(B, 3) each slime's momentum."""
    return np.array([world.v[:, b.start:b.stop] @ world.mass[b.start:b.stop] for b in world.bodies])


def _cli_error(capsys, *args) -> str:
    try:
        code = cli.main(list(args))
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_the_lone_slime_through_the_scene_is_the_slime_body_step_for_step():
    # The same flags, the same physics: the scene path builds the body SlimeBody builds and steps it
    # alike, poke included (not a recording compared with itself: SlimeBody steps on its own here).
    ticks, at, point, force = 9, 3, (0.2, 2.0, 0.1), (10.0, -150.0, 0.0)
    run_ = record(lone_slime_spec(10, 12).with_events([poke(at, point, force)]), ticks, material="goo")
    body = SlimeBody(slime_params(10, 12, "goo"))
    positions, volumes = [body.positions.copy()], [body.volume()]
    for tick in range(ticks):
        if tick == at:
            body.poke(np.array(point), np.array(force))
        body.step()
        positions.append(body.positions.copy())
        volumes.append(body.volume())
    assert np.array_equal(run_["positions"], np.array(positions))
    np.testing.assert_allclose(run_["volume"], volumes, rtol=1e-12)
    assert np.max(np.abs(run_["positions"][-1] - run_["positions"][at])) > 0.01  # the poke moved it


def test_the_lone_slimes_npz_keeps_its_arrays_and_gains_body(tmp_path):
    out = tmp_path / "run.npz"
    assert cli.main(["simulate", "slime", "--ticks", "4", "--stacks", "6", "--slices", "7", "--output", str(out),
                     "--no-progress"]) == 0
    run_ = np.load(out)
    points = (6 - 1) * 7 + 2
    assert sorted(run_.files) == ["body", "positions", "recoveries", "time", "triangles", "volume"]
    assert run_["recoveries"] == 0
    assert run_["positions"].shape == (5, points, 3) and run_["volume"].shape == (5,) and run_["time"].shape == (5,)
    assert run_["triangles"].shape == (2 * 7 * (6 - 1), 3)
    assert run_["body"].shape == (points,) and not run_["body"].any()  # every vertex is slime 0's
    # Volume is the engine's, of the positions in the same row: the rest volume at row 0.
    rest = SlimeBody(slime_params(6, 7))
    assert run_["volume"][0] == pytest.approx(rest.volume(), rel=1e-12)


def test_a_poke_meets_the_slime_whose_surface_is_nearest():
    scene = build_world(load_world_scene("pile"))
    world = scene.world
    tops = [world.positions[b.start:b.stop][np.argmax(world.positions[b.start:b.stop, 1])] for b in world.bodies]
    force = np.array([0.0, -20.0, 0.0])
    for index in (0, 4, len(tops) - 1):
        point = tops[index] + np.array([0.0, 0.05, 0.0])  # just above that slime's top vertex
        event = poke(0, point, force)
        assert slime_at(scene, event) == index
        before = _body_momenta(world)
        act(scene, event)
        change = _body_momenta(world) - before
        # The whole impulse, F dt, goes into that slime; every other keeps its momentum.
        np.testing.assert_allclose(change[index], force * world.dt, rtol=1e-9)
        assert np.all(np.delete(change, index, axis=0) == 0.0)


def test_poke_works_on_a_bundled_scene_from_the_command_line(tmp_path):
    calm, poked = tmp_path / "calm.npz", tmp_path / "poked.npz"
    assert cli.main(["simulate", "pile", "--ticks", "3", "--output", str(calm), "--no-progress"]) == 0
    # pile's slimes start 0.55 m apart in height; this point is just above the top one's top.
    scene = build_world(load_world_scene("pile"))
    top = int(np.argmax(scene.world.positions[:, 1]))
    x, y, z = scene.world.positions[top] + (0.0, 0.05, 0.0)
    assert cli.main(["simulate", "pile", "--ticks", "3", "--output", str(poked), "--no-progress",
                     "--poke", f"1:{x},{y},{z}:0,-200,0"]) == 0
    a, b = np.load(calm), np.load(poked)
    assert a["volume"].shape == (4, 10) and np.array_equal(a["body"], b["body"])
    moved = np.abs(b["positions"][2] - a["positions"][2]).max(axis=1)
    hit = b["body"][top]
    assert np.array_equal(a["positions"][:2], b["positions"][:2])  # nothing before the poke's frame
    assert moved[b["body"] == hit].max() > 1e-3  # the poked slime moved differently
    assert moved[b["body"] != hit].max() < 0.1 * moved[b["body"] == hit].max()


@pytest.mark.parametrize("scene", ["pile", "slime"])
def test_a_poke_that_meets_no_slime_says_so_in_one_line(tmp_path, capsys, scene):
    out = tmp_path / "x.npz"
    line = _cli_error(capsys, "simulate", scene, "--ticks", "3", "--output", str(out), "--poke", "1:0,30,0:0,-1,0")
    assert line.startswith("slime: error: --poke '1:0,30,0:0,-1,0': the poke at tick 1 meets no slime"), line
    assert "farther than its radius" in line
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_poke_past_the_run_is_refused_before_it_starts(tmp_path, capsys):
    line = _cli_error(capsys, "simulate", "duel", "--ticks", "3", "--output", str(tmp_path / "x.npz"),
                      "--poke", "3:0,1,0:0,-1,0")
    assert "tick must be a frame number from 0 to 2, got 3" in line
    assert list(tmp_path.iterdir()) == []


def test_a_files_events_are_the_command_lines(tmp_path):
    # The same poke written into the scene file or given as --poke: the same run.
    data = {"slimes": [{"center": [0, 0.5, 0], "radius": 0.5, "stacks": 8, "slices": 8},
                       {"center": [1.5, 0.5, 0], "radius": 0.5, "stacks": 8, "slices": 8}]}
    plain, scripted = tmp_path / "plain.json", tmp_path / "scripted.json"
    plain.write_text(json.dumps(data))
    scripted.write_text(json.dumps({**data, "events": [
        {"kind": "poke", "tick": 2, "point": [1.5, 1.0, 0], "force": [0, -80, 0]}]}))
    one, two = tmp_path / "one.npz", tmp_path / "two.npz"
    assert cli.main(["simulate", str(scripted), "--ticks", "5", "--output", str(one), "--no-progress"]) == 0
    assert cli.main(["simulate", str(plain), "--ticks", "5", "--output", str(two), "--no-progress",
                     "--poke", "2:1.5,1,0:0,-80,0"]) == 0
    assert np.array_equal(np.load(one)["positions"], np.load(two)["positions"])
    unpoked = record(load_world_scene(plain), 5)
    assert not np.array_equal(unpoked["positions"][-1], np.load(one)["positions"][-1])


def test_a_grab_drags_the_nearest_slime_toward_the_target_and_a_release_lets_go():
    data = {"slimes": [{"center": [0, 0.5, 0], "radius": 0.5, "stacks": 8, "slices": 8},
                       {"center": [2.0, 0.5, 0], "radius": 0.5, "stacks": 8, "slices": 8}],
            "events": [{"kind": "grab", "tick": 0, "point": [2.0, 1.0, 0]},
                       {"kind": "drag", "tick": 0, "target": [2.0, 2.5, 0]},
                       {"kind": "release", "tick": 40}]}
    from slime.scenes.world_format import world_spec_from_dict

    scene = build_world(world_spec_from_dict(data))
    world = scene.world
    grabbed = next(i for i in range(2) if scene.file_index(i) == 1)
    for tick in run(scene, 41):
        if tick == 39:  # the frame before the release's
            heights = world.centroids()[:, 1]
            assert world.hand.body == grabbed
    assert heights[grabbed] > 1.5 and heights[1 - grabbed] < 0.55  # lifted; left slumped on the floor
    assert world.hand.body is None


@pytest.mark.parametrize("events, words", [
    ([{"kind": "shove", "tick": 0}], "events[0].kind must be one of poke, grab"),
    ([{"kind": "poke", "tick": 0, "point": [0, 1, 0]}], "events[0] (a poke) is missing the key 'force'"),
    ([{"kind": "poke", "tick": -1, "point": [0, 1, 0], "force": [0, 0, 0]}], "events[0].tick must be from 0"),
    ([{"kind": "poke", "tick": 0, "point": [0, 1, "x"], "force": [0, 0, 0]}], "events[0].point[2] must be a number"),
    ([{"kind": "release", "tick": 3}], "a release at tick 3 has no grab before it"),
    ([{"kind": "press", "tick": 0, "point": [0, 1, 0], "direction": [0, 0, 0]}], "direction must not be zero"),
    ([{"kind": "poke", "tick": 0, "point": [0, 1, 0], "force": [0, 0, 0], "where": 1}], "has an unknown key 'where'"),
    ("poke", "events must be a list"),
])
def test_bad_events_are_one_line_errors_naming_the_event(events, words):
    from slime.scenes.world_format import world_spec_from_dict

    with pytest.raises(WorldFileError) as info:
        world_spec_from_dict({"slimes": [{"center": [0, 1, 0], "radius": 1}], "events": events}, "s.json")
    assert str(info.value).startswith("s.json: ") and words in str(info.value) and "\n" not in str(info.value)


def test_the_lone_slimes_flags_are_checked_as_a_files_slime_is():
    with pytest.raises(WorldFileError, match=r"^slime: slimes\[0\]\.stacks must be from 3 to 512, got number 2$"):
        lone_slime_spec(stacks=2)
    with pytest.raises(WorldFileError, match=r"slimes\[0\]\.color .* is not a colour"):
        lone_slime_spec(color="#12345")
    assert lone_slime_spec(color="#3366ff").slimes[0].color == lone_slime_spec(color=(0.2, 0.4, 1.0)).slimes[0].color


def test_a_scenes_events_are_written_back_as_they_were_read(tmp_path):
    from slime.scenes.world_format import save_world_spec

    spec = load_world_scene("duel").with_events([
        poke(4, (0, 1, 0), (0, -50, 0), where="--poke"),
        {"kind": "press", "tick": 2, "point": [0, 1, 0], "direction": [0, -1, 0]},
        {"kind": "unpress", "tick": 9}])
    assert [e.kind for e in spec.events] == ["press", "poke", "unpress"]  # in the order they act
    again = load_world_scene(save_world_spec(spec, tmp_path / "duel.json"))
    assert again.events == spec.events and again == spec


@pytest.mark.slow
def test_render_draws_a_poke_on_a_scene_where_it_meets_its_slime(tmp_path):
    from PIL import Image

    from helpers import gl_or_missing

    gl_or_missing()
    data = {"camera": {"yaw": 0, "elevation": 20, "distance": 6, "target": [0, 0.5, 0]},
            "slimes": [{"center": [-1, 0.5, 0], "radius": 0.5, "stacks": 12, "slices": 12},
                       {"center": [1, 0.5, 0], "radius": 0.5, "stacks": 12, "slices": 12}]}
    path = tmp_path / "two.json"
    path.write_text(json.dumps(data))
    pictures = []
    for poke_ in ([], ["--poke", "1:1,1,0:0,-150,0"]):
        out = tmp_path / f"{len(pictures)}.png"
        assert cli.main(["render", str(path), "--frames", "5", "--size", "160x120", "--output", str(out),
                         "--no-progress", *poke_]) == 0
        with Image.open(out) as im:
            pictures.append(np.asarray(im.convert("RGB")).astype(int))
    changed = np.abs(pictures[0] - pictures[1]).sum(axis=2) > 30
    # The slime on the right (x = +1, right of the picture's middle from this camera) dents; the
    # left one stays as it was, but for a few pixels of the other's changed shadow, which the light
    # through the jelly tints, seen through it.
    assert changed[:, 80:].sum() > 300
    assert changed[:, :80].sum() < 0.04 * changed[:, 80:].sum()


def test_a_press_holds_the_top_down_until_the_unpress():
    spec = lone_slime_spec(12, 12).with_events([
        {"kind": "press", "tick": 0, "point": [0, 2, 0], "direction": [0, -1, 0]},
        {"kind": "unpress", "tick": 20}])
    scene = build_world(spec)
    world = scene.world
    tops = {}
    for tick in run(scene, 40):
        tops[tick] = float(world.positions[:, 1].max())
        assert world.hand.pressing == (tick < 20)
    assert tops[19] < tops[0] - 0.3  # the finger pushed the top in
    assert tops[39] > tops[19] + 0.2  # and let go, the slime fills out again


def test_a_slime_put_back_by_recovery_is_reported_once_and_counted(tmp_path, capsys):
    # A run whose slime is broken from outside every few frames: one stderr line at its end, and
    # the count in the npz.
    from slime.physics.slime3d.world3d import World3D

    step, frames = World3D.step, []

    def broken_step(world):
        frames.append(1)
        if len(frames) % 3 == 0:
            world.v[:, :5] = np.nan
        step(world)

    out = tmp_path / "run.npz"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(World3D, "step", broken_step)
        assert cli.main(["simulate", "slime", "--ticks", "9", "--stacks", "6", "--slices", "7", "--output", str(out),
                         "--no-progress"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "recovery" in line]
    assert len(err) == 1 and err[0].startswith("slime: warning: 3 recovery(ies)"), err
    assert np.load(out)["recoveries"] == 3
