"""3D scene files: the bundled scenes load and are physically possible, files round-trip exactly,
and every kind of broken file is refused with one WorldFileError line naming the file."""

from __future__ import annotations

import copy
import json
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slime import limits
from slime.look import SlimeLook
from slime.physics.slime3d.slime_params import SlimeParams
from slime.scenes import SceneError, world_scene_names
from slime.scenes.soda_format import DAINTY_WALKER
from slime.scenes.world_format import (
    PARAM_KEYS,
    ObstacleSpec,
    WorldFileError,
    WorldSpec,
    dumps_world,
    is_world_file,
    load_world_scene,
    load_world_spec,
    save_world_spec,
    spec_to_dict,
    start_overlap,
    world_scene_path,
    world_spec_from_dict,
)

# A small scene that uses every key: two slimes well apart, one of each obstacle.
GOOD = {
    "name": "test",
    "description": "every key",
    "gravity": [0.0, -9.81, 0.0],
    "floor_height": 0.0,
    "camera": {"yaw": 20.0, "elevation": 15.0, "distance": 6.0, "target": [0.0, 0.5, 0.0]},
    "slimes": [
        {"center": [-1.5, 1.0, 0.0], "radius": 0.5, "stacks": 12, "slices": 14, "velocity": [2.0, 0.0, 0.0],
         "color": "#33cc66", "look": {"glow": 0.5, "absorption": [1.0, 0.2, 0.4]},
         "params": {"mass": 2.0, "viscosity": 10.0}},
        {"center": [1.5, 0.6, 0.0], "radius": 0.4, "look": {"color": [0.9, 0.2, 0.1], "rim": 1.0}},
    ],
    "obstacles": [
        {"kind": "box", "center": [0.0, 0.1, 2.0], "size": [2.0, 0.2, 1.0], "rotation": [10.0, 0.0, 5.0],
         "friction": 0.7, "color": [0.5, 0.5, 0.5]},
        {"kind": "ball", "center": [0.0, 0.0, -2.0], "radius": 0.5},
        {"kind": "plane", "point": [4.0, 0.0, 0.0], "normal": [-2.0, 0.0, 0.0]},
    ],
}


def _write(tmp_path, data, name="scene.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def _refused(path) -> str:
    """The one line a broken file gives: it names the file, then the problem."""
    with pytest.raises(WorldFileError) as caught:
        load_world_spec(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and len(message) > len(str(path)) + 5, message
    assert "\n" not in message and "Traceback" not in message
    assert isinstance(caught.value, SceneError) and isinstance(caught.value, ValueError)  # the CLI's one line
    return message[len(str(path)) + 2:]


# --- the bundled scenes ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pile", "ramp", "duel"])
def test_bundled_scenes_load_and_start_free(name):
    assert name in world_scene_names()
    spec = load_world_scene(name)
    assert spec == load_world_spec(world_scene_path(name)) and is_world_file(world_scene_path(name))
    assert spec.name and spec.description
    # duel has no camera: it frames itself and follows the throw (tests/render/test_scene_framing.py).
    assert (spec.camera is None) == (name == "duel")
    assert start_overlap(spec) is None
    for slime in spec.slimes:  # real time: a few hundred vertices each
        assert 16 <= slime.stacks <= 24 and 16 <= slime.slices <= 24
    assert spec.vertex_count < 5000
    for params, slime in zip(spec.slime_params(), spec.slimes):
        assert params.center == slime.center and params.gravity == spec.gravity
        slime.slime_look()


def test_pile_is_many_coloured_slimes_over_a_walled_floor():
    spec = load_world_scene("pile")
    assert len(spec.slimes) >= 8
    assert len({s.color for s in spec.slimes}) == len(spec.slimes) and len({s.radius for s in spec.slimes}) >= 4
    walls = [o for o in spec.obstacles if o.kind == "box"]
    assert len(walls) >= 4
    # Each slime lies inside the walls' footprint: between the inner faces on x and on z.
    inner = min(abs(w.center[a]) - w.half_size[a] for w in walls for a in (0, 2) if abs(w.center[a]) > 0.5)
    for s in spec.slimes:
        assert abs(s.center[0]) + s.radius < inner and abs(s.center[2]) + s.radius < inner
        assert s.center[1] - s.radius > spec.floor_height  # dropped, not resting


def test_ramp_slime_rests_on_a_board_that_runs_down_to_the_other():
    spec = load_world_scene("ramp")
    rolling, resting = spec.slimes
    board = next(o for o in spec.obstacles if o.kind == "box")
    R = board.rotation_matrix()
    local = R.T @ (np.array(rolling.center) - board.center)
    gap = local[1] - board.half_size[1] - rolling.radius
    assert 0.0 <= gap < 0.05 and abs(local[0]) < board.half_size[0]  # just above the top face
    downhill = R[:, 0] if R[1, 0] < 0 else -R[:, 0]
    assert downhill[1] < -0.2 and np.sign(downhill[0]) == np.sign(resting.center[0] - rolling.center[0])
    assert resting.center[1] - resting.radius == pytest.approx(spec.floor_height)  # on the floor
    assert resting.velocity == (0.0, 0.0, 0.0)


def test_duel_slimes_meet_in_the_air():
    spec = load_world_scene("duel")
    a, b = spec.slimes
    g = np.array(spec.gravity)
    # Ballistic centres (both fall alike, so gravity cancels in the gap) close within r_a + r_b
    # while both are still above the floor.
    t = np.linspace(0.0, 1.0, 2001)[:, None]
    ca = np.array(a.center) + np.array(a.velocity) * t + 0.5 * g * t * t
    cb = np.array(b.center) + np.array(b.velocity) * t + 0.5 * g * t * t
    touching = np.flatnonzero(np.linalg.norm(ca - cb, axis=1) <= a.radius + b.radius)
    assert touching.size
    first = touching[0]
    assert ca[first, 1] - a.radius > spec.floor_height + 0.3 and cb[first, 1] - b.radius > spec.floor_height + 0.3


def test_slimes_listed_after_the_2d_scenes_marked_3d(capsys):
    from slime.cli import main

    assert main(["scenes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in lines]
    at = [names.index(n) for n in ("soda", "boxes", "pile", "ramp", "duel")]
    assert at == sorted(at)
    for name in ("pile", "ramp", "duel"):
        line = lines[names.index(name)]
        assert "[3D]" in line and load_world_scene(name).description in line


# --- what the specs mean ------------------------------------------------------------------------


def test_good_dict_reads_as_written():
    spec = world_spec_from_dict(GOOD)
    one, two = spec.slimes
    assert (one.stacks, one.slices, two.stacks, two.slices) == (12, 14, 20, 20)  # default 20
    assert one.color == pytest.approx((0x33 / 255, 0xCC / 255, 0x66 / 255)) and two.color is None
    box, ball, plane = spec.obstacles
    assert box.half_size == (1.0, 0.1, 0.5)  # size is the full edge lengths
    assert plane.normal == (-1.0, 0.0, 0.0) and plane.friction == 0.5 and ball.color is None
    params = one.slime_params(spec.gravity, spec.floor_height)
    assert (params.mass, params.viscosity, params.radius, params.stacks) == (2.0, 10.0, 0.5, 12)
    assert params.shape_stiffness == SlimeParams().shape_stiffness  # what the file leaves, the default
    assert two.slime_params(floor_height=None).floor_height == SlimeParams().floor_height


def test_look_is_colour_then_fields():
    spec = world_spec_from_dict(GOOD)
    one, two = spec.slimes
    look = one.slime_look()
    coloured = SlimeLook().with_color(one.color)
    assert look.deep_color == coloured.deep_color and look.glow_color == coloured.glow_color
    assert look.absorption == (1.0, 0.2, 0.4) and look.glow == 0.5  # the fields win over the colour's
    assert two.slime_look().deep_color == SlimeLook().with_color((0.9, 0.2, 0.1)).deep_color
    assert two.slime_look().rim == 1.0 and two.slime_look().glow == SlimeLook().glow
    # The colour turns the jelly red: its scattered colour is reddest, and red passes least absorbed.
    red = two.slime_look()
    assert red.deep_color[0] > 2 * red.deep_color[1] and red.absorption[0] < red.absorption[1]


def test_rotation_is_roll_then_pitch_then_yaw():
    turn = lambda yaw=0.0, pitch=0.0, roll=0.0: ObstacleSpec("box", {"center": (0, 0, 0), "half_size": (1, 1, 1), "rotation": (yaw, pitch, roll)}).rotation_matrix()  # noqa: E731
    for angles in [(90, 0, 0), (30, 40, 50), (-200, 10, 359)]:
        R = turn(*angles)
        assert np.allclose(R.T @ R, np.eye(3)) and np.linalg.det(R) == pytest.approx(1.0)
    x, y, z = np.eye(3)
    assert np.allclose(turn(yaw=90) @ x, -z)  # right-handed about +y
    assert np.allclose(turn(pitch=90) @ y, z)  # about +x
    assert np.allclose(turn(roll=90) @ x, y)  # about +z
    assert np.allclose(turn(yaw=90, roll=90) @ x, turn(yaw=90) @ y)  # roll first, then yaw
    assert np.allclose(turn(yaw=90, pitch=90) @ y, turn(yaw=90) @ z)


def test_overlap_follows_the_box_rotation():
    # A long thin board along x, turned 90 degrees about y: it now runs along z.
    board = {"kind": "box", "center": [0.0, 1.0, 0.0], "half_size": [2.0, 0.1, 0.1], "rotation": [90.0, 0.0, 0.0]}
    scene = {"slimes": [{"center": [1.5, 1.0, 0.0], "radius": 0.3}], "obstacles": [board]}
    world_spec_from_dict(scene)  # where the board was before it turned: free
    scene["slimes"][0]["center"] = [0.0, 1.0, 1.5]
    with pytest.raises(WorldFileError, match=r"slimes\[0\] starts inside obstacles\[0\] \(a box\)"):
        world_spec_from_dict(scene)


@pytest.mark.parametrize("change, problem", [
    (lambda d: d["slimes"][1].update(center=[-1.2, 1.0, 0.0]), r"slimes\[0\] and slimes\[1\] start overlapping by 0.6 m"),
    (lambda d: d["slimes"][1].update(center=[1.5, 0.3, 0.0]), r"slimes\[1\] starts below the floor"),
    (lambda d: d["slimes"][1].update(center=[0.0, 0.6, -2.0]), r"slimes\[1\] starts inside obstacles\[1\] \(a ball\)"),
    (lambda d: d["slimes"][1].update(center=[3.8, 0.6, 0.0]), r"slimes\[1\] starts inside obstacles\[2\] \(a plane\)"),
    (lambda d: d["slimes"][1].update(center=[0.0, 0.6, 2.0]), r"slimes\[1\] starts inside obstacles\[0\] \(a box\)"),
])
def test_a_start_that_overlaps_is_refused(change, problem):
    data = copy.deepcopy(GOOD)
    change(data)
    with pytest.raises(WorldFileError, match=problem):
        world_spec_from_dict(data)


def test_touching_is_allowed_and_no_floor_lets_a_slime_hang_below_zero():
    data = copy.deepcopy(GOOD)
    data["slimes"][1]["center"] = [1.5, 0.4, 0.0]  # resting exactly on the floor
    world_spec_from_dict(data)
    data["slimes"][1]["center"] = [1.5, -3.0, 0.0]
    data["floor_height"] = None
    assert world_spec_from_dict(data).floor_height is None


# --- round trips ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pile", "ramp", "duel"])
def test_bundled_scenes_round_trip(name, tmp_path):
    spec = load_world_scene(name)
    assert world_spec_from_dict(spec_to_dict(spec)) == spec
    saved = save_world_spec(spec, tmp_path / f"{name}.json")
    assert load_world_spec(saved) == spec
    again = save_world_spec(load_world_spec(saved), tmp_path / "again.json")
    assert again.read_bytes() == saved.read_bytes()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left behind


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    count=st.integers(1, 6),
    radius=st.floats(limits.SLIME_RADIUS[0], 0.45),
    lift=st.floats(0.0, 5.0),
    yaw=st.floats(*limits.ANGLE),
    glow=st.floats(0.0, 4.0),
    friction=st.floats(*limits.FRICTION),
    stacks=st.integers(*limits.RESOLUTION),
)
def test_hypothesis_good_scenes_round_trip_exactly(tmp_path, count, radius, lift, yaw, glow, friction, stacks):
    data = {
        "slimes": [{"center": [float(i), radius + lift, 0.0], "radius": radius, "stacks": stacks,
                    "look": {"glow": glow}} for i in range(count)],
        "obstacles": [{"kind": "box", "center": [0.0, -1.0, 5.0], "half_size": [1.0, 0.5, 0.5],
                       "rotation": [yaw, 0.0, 0.0], "friction": friction}],
        "camera": {"yaw": yaw},
    }
    spec = load_world_spec(_write(tmp_path, data))
    assert load_world_spec(save_world_spec(spec, tmp_path / "out.json")) == spec
    assert spec_to_dict(world_spec_from_dict(spec_to_dict(spec))) == spec_to_dict(spec)


def test_written_files_keep_vectors_on_one_line():
    text = dumps_world(spec_to_dict(world_spec_from_dict(GOOD)))
    assert '"gravity": [0.0, -9.81, 0.0],' in text and json.loads(text)["name"] == "test"
    assert max(len(line) for line in text.splitlines()) <= 100


def test_the_tutorial_shows_the_example_file_and_it_loads():
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "5-write-a-3d-scene-file.md").read_text()
    shown = re.findall(r"```json\n(.*?)```", page, flags=re.S)
    example = root / "examples" / "two_slimes.json"
    assert len(shown) == 1 and json.loads(shown[0]) == json.loads(example.read_text())
    spec = load_world_spec(example)
    assert spec.slimes[1].slime_look().glow == 1.5 and spec.slimes[1].slime_params().mass == 0.5


# --- telling files apart --------------------------------------------------------------------------


def test_is_world_file(tmp_path):
    assert is_world_file(GOOD) and not is_world_file({"nodes": []}) and not is_world_file([1])
    assert is_world_file(_write(tmp_path, GOOD))
    assert not is_world_file(DAINTY_WALKER)
    assert not is_world_file(tmp_path / "missing.json") and not is_world_file(tmp_path)
    assert not is_world_file(_write(tmp_path, "{not json", "bad.json"))


# --- broken files -----------------------------------------------------------------------------------


def test_unusable_files_are_one_line(tmp_path):
    assert "cannot read" in _refused(tmp_path / "missing.json")
    assert "not a regular file: a folder" in _refused(tmp_path)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    assert "a FIFO" in _refused(fifo)  # refused before it is opened: nothing blocks
    assert "empty file" in _refused(_write(tmp_path, ""))
    assert "empty file" in _refused(_write(tmp_path, " \n\t"))
    assert "not valid JSON" in _refused(_write(tmp_path, '{"slimes": [}'))
    assert "not valid JSON" in _refused(_write(tmp_path, '{"slimes": [{"center": [NaN, 1, 0], "radius": 1}]}'))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00junk")
    assert "not UTF-8" in _refused(binary)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(limits.SCENE_FILE_BYTES + 1)
    assert "more than" in _refused(big)
    assert "the scene must be an object, got a list of 2" == _refused(_write(tmp_path, "[1, 2]"))
    soda = _refused(_write(tmp_path, DAINTY_WALKER.read_text()))
    assert soda == "the scene is missing the key 'slimes' (this is a Soda model: open it with slime scene FILE)"
    assert "must be finite" in _refused(_write(tmp_path, '{"slimes": [{"center": [1e400, 1, 0], "radius": 1}]}'))


@pytest.mark.parametrize("change, problem", [
    (lambda d: d.pop("slimes"), "the scene is missing the key 'slimes'"),
    (lambda d: d.update(slimes=[]), "slimes must have 1 to 64 entries, got 0"),
    (lambda d: d.update(colour="red"), "the scene has an unknown key 'colour'; known: name,"),
    (lambda d: d["slimes"][0].pop("radius"), "slimes[0] is missing the key 'radius'"),
    (lambda d: d["slimes"][0].update(radius=-0.5), "slimes[0].radius must be from 0.02 to 50 m, got -0.5"),
    (lambda d: d["slimes"][0].update(radius="big"), "slimes[0].radius must be a number, got string 'big'"),
    (lambda d: d["slimes"][0].update(stacks=2), "slimes[0].stacks must be from 3 to 512, got number 2"),
    (lambda d: d["slimes"][0].update(slices=2.5), "slimes[0].slices must be an integer, got number 2.5"),
    (lambda d: d["slimes"][0].update(center=[1, 2]), "slimes[0].center must be a 3-vector [x, y, z], got a list of 2"),
    (lambda d: d["slimes"][0].update(velocity=[200, 0, 0]), "slimes[0].velocity must be at most 100 m/s"),
    (lambda d: d["slimes"][0].update(color="#12345"), "slimes[0].color string '#12345' is not a colour"),
    (lambda d: d["slimes"][0].update(color=[1.5, 0, 0]), "slimes[0].color[0] must be from 0 to 1, got 1.5"),
    (lambda d: d["slimes"][0]["look"].update(shine=1), "slimes[0].look: unknown look field 'shine'"),
    (lambda d: d["slimes"][0]["look"].update(glow=9), "slimes[0].look: look glow must be from 0 to 4, got 9"),
    (lambda d: d["slimes"][0]["look"].update(color="#ff0000"), "slimes[0].look.color and the slime's color both"),
    (lambda d: d["slimes"][0]["look"].update(glow={"a": 1}), "slimes[0].look.glow must be a number, got an object"),
    (lambda d: d["slimes"][0]["look"].update(glow="0.5"), "slimes[0].look.glow must be a number, got string '0.5'"),
    (lambda d: d["slimes"][0]["params"].update(mass=-1), "slimes[0].params: mass must be 1e-06 to 1e+12 kg, got -1"),
    (lambda d: d["slimes"][0]["params"].update(radius=1), "slimes[0].params.radius is the slime's own key"),
    (lambda d: d["slimes"][0]["params"].update(gravity=[0, 0, 0]), "slimes[0].params.gravity is the world's"),
    # Every world setting, not only gravity: a slime's own floor friction would be overwritten by the world's.
    (lambda d: d["slimes"][0]["params"].update(floor_friction=0.1), "slimes[0].params.floor_friction is the world's"),
    (lambda d: d["slimes"][0]["params"].update(max_speed=10), "slimes[0].params.max_speed is the world's"),
    (lambda d: d["slimes"][0]["params"].update(stiffness=1), "slimes[0].params: unknown parameter 'stiffness'; known (nearest first): shear_stiffness, "),
    (lambda d: d["slimes"][0]["params"].update(shape_stiffness=1e10), "slimes[0].params: too stiff for dt"),
    (lambda d: d["slimes"][0]["params"].update(viscosity=True), "slimes[0].params.viscosity must be a number"),
    (lambda d: d["slimes"][1].update(material="honey"),
     "slimes[1].material: unknown material 'honey': choose one of jelly, goo, rubber"),
    (lambda d: d["slimes"][0].update(material=3), "slimes[0].material: unknown material 3: choose one of"),
    (lambda d: d.update(gravity=[0, -40, 0]), "gravity must be at most 30 m/s^2 long, got 40"),
    (lambda d: d.update(floor_height="low"), "floor_height must be a number, got string 'low'"),
    (lambda d: d["camera"].update(elevation=-5), "camera.elevation must be from 0 to 85 degrees, got -5"),
    (lambda d: d["camera"].update(distance=0), "camera.distance must be from 0.1 to 1000 m, got 0"),
    (lambda d: d["camera"].update(zoom=2), "camera has an unknown key 'zoom'"),
    (lambda d: d["obstacles"][0].pop("kind"), "obstacles[0] is missing the key 'kind'"),
    (lambda d: d["obstacles"][0].update(kind="cone"), "obstacles[0].kind must be one of box, ball, plane, cylinder, got string 'cone'"),
    (lambda d: d["obstacles"][0].update(half_size=[1, 1, 1]), "obstacles[0] (a box) needs one of 'half_size' or 'size', got both"),
    (lambda d: d["obstacles"][0].pop("size"), "got neither"),
    (lambda d: d["obstacles"][0].update(radius=1), "obstacles[0] (a box) has an unknown key 'radius'"),
    (lambda d: d["obstacles"][0].update(rotation=[0, 400, 0]), "obstacles[0].rotation[1] must be from -360 to 360 degrees"),
    (lambda d: d["obstacles"][0].update(friction=-0.1), "obstacles[0].friction must be from 0 to 10, got -0.1"),
    (lambda d: d["obstacles"][1].update(radius=0), "obstacles[1].radius must be from 0.001 to 1000 m, got 0"),
    (lambda d: d["obstacles"][2].update(normal=[0, 0, 0]), "obstacles[2].normal must not be the zero vector"),
    (lambda d: d["obstacles"][2].pop("normal"), "obstacles[2] (a plane) is missing the key 'normal'"),
    (lambda d: d.update(obstacles={}), "obstacles must be a list, got an object"),
])
def test_each_problem_is_named(tmp_path, change, problem):
    data = copy.deepcopy(GOOD)
    change(data)
    assert problem in _refused(_write(tmp_path, data))


def test_a_slime_starts_from_its_material_and_its_params_go_on_top(tmp_path):
    from slime.physics.slime3d.materials import MATERIALS
    from slime.scenes.world_scene import build_world, load_world

    data = copy.deepcopy(GOOD)
    data["slimes"][0]["material"] = "goo"  # its params set mass and viscosity
    path = _write(tmp_path, data)
    spec = load_world_spec(path)
    assert [s.material for s in spec.slimes] == ["goo", None]
    goo, unnamed = spec.slime_params()
    for name, value in MATERIALS["goo"].values.items():
        assert getattr(goo, name) == (10.0 if name == "viscosity" else value), name  # the file's viscosity wins
    assert goo.mass == 2.0 and goo.radius == 0.5
    assert unnamed.material == SlimeParams().material  # no name: jelly, SlimeParams' defaults
    # A material asked for by the run (--material) is for the slimes that name none.
    goo, unnamed = spec.slime_params("rubber")
    assert goo.shape_stiffness == MATERIALS["goo"].values["shape_stiffness"] and goo.viscosity == 10.0
    assert unnamed.material == SlimeParams.of_material("rubber").material
    world = load_world(path, material="rubber").world
    assert sorted(b.params.shape_stiffness for b in world.bodies) == sorted(
        MATERIALS[n].values["shape_stiffness"] for n in ("goo", "rubber"))
    assert {b.params.shape_stiffness for b in build_world(spec).world.bodies} == {
        MATERIALS[n].values["shape_stiffness"] for n in ("goo", "jelly")}
    # Written back, the name stays (and only where the file gave one).
    assert world_spec_from_dict(spec_to_dict(spec)) == spec
    assert [s.get("material") for s in spec_to_dict(spec)["slimes"]] == ["goo", None]


def test_counts_and_vertices_stop_at_their_limits():
    low, high = limits.SCENE_SLIMES
    grid = lambda n: {"slimes": [{"center": [float(i % 20), 0.2, float(i // 20)], "radius": 0.1, "stacks": 3,  # noqa: E731
                                  "slices": 3} for i in range(n)]}
    assert len(world_spec_from_dict(grid(high)).slimes) == high
    with pytest.raises(WorldFileError, match=f"slimes must have {low} to {high} entries, got {high + 1}"):
        world_spec_from_dict(grid(high + 1))
    big = lambda n: {"slimes": [{"center": [5.0 * i, 1.0, 0.0], "radius": 1.0, "stacks": 512, "slices": 512}  # noqa: E731
                                for i in range(n)]}
    world_spec_from_dict(big(4))  # four of the finest slime: the most a scene may hold
    with pytest.raises(WorldFileError, match=f"more than the {limits.MAX_SCENE_VERTICES}"):
        world_spec_from_dict(big(5))
    plane = {"kind": "plane", "point": [0.0, -1.0, 0.0], "normal": [0.0, 1.0, 0.0]}
    one = {"slimes": [{"center": [0.0, 1.0, 0.0], "radius": 0.5}]}
    world_spec_from_dict(dict(one, obstacles=[plane] * limits.SCENE_OBSTACLES[1]))
    with pytest.raises(WorldFileError, match="obstacles must have 0 to 1024 entries"):
        world_spec_from_dict(dict(one, obstacles=[plane] * (limits.SCENE_OBSTACLES[1] + 1)))


def test_every_params_key_is_a_slime_params_field_it_accepts():
    fields = set(SlimeParams.__dataclass_fields__)
    assert set(PARAM_KEYS) < fields and not {"radius", "center", "gravity", "dt", "substeps"} & set(PARAM_KEYS)
    defaults = SlimeParams()
    params = {k: getattr(defaults, k) for k in PARAM_KEYS}
    data = {"slimes": [{"center": [0.0, 1.0, 0.0], "radius": 0.5, "params": params}]}
    assert world_spec_from_dict(data).slime_params()[0] == SlimeParams(radius=0.5, stacks=20, slices=20, center=(0, 1, 0))


# Paths (keys and indices) into GOOD of every number and vector, and of the tables.
_VALUE_PATHS = [
    ("gravity",), ("floor_height",), ("camera", "yaw"), ("camera", "elevation"), ("camera", "distance"),
    ("camera", "target"), ("slimes", 0, "center"), ("slimes", 0, "radius"), ("slimes", 0, "stacks"),
    ("slimes", 0, "slices"), ("slimes", 0, "velocity"), ("slimes", 0, "color"), ("slimes", 0, "look", "glow"),
    ("slimes", 0, "look", "absorption"), ("slimes", 0, "params", "mass"), ("slimes", 0, "params", "viscosity"),
    ("slimes", 1, "center"), ("slimes", 1, "radius"), ("slimes", 1, "look", "color"), ("slimes", 1, "look", "rim"),
    ("obstacles", 0, "center"), ("obstacles", 0, "size"), ("obstacles", 0, "rotation"), ("obstacles", 0, "friction"),
    ("obstacles", 0, "color"), ("obstacles", 1, "center"), ("obstacles", 1, "radius"), ("obstacles", 2, "point"),
    ("obstacles", 2, "normal"),
]
_TABLES = [(), ("camera",), ("slimes", 0), ("slimes", 1), ("slimes", 0, "look"), ("slimes", 0, "params"),
           ("obstacles", 0), ("obstacles", 1), ("obstacles", 2)]
_REQUIRED = [("slimes",), ("slimes", 0, "center"), ("slimes", 1, "radius"), ("obstacles", 0, "kind"),
             ("obstacles", 0, "center"), ("obstacles", 0, "size"), ("obstacles", 1, "radius"), ("obstacles", 2, "normal")]
_KNOWN = {"center", "radius", "stacks", "slices", "velocity", "color", "look", "params", "name", "description",
          "gravity", "floor_height", "camera", "slimes", "obstacles", "yaw", "elevation", "distance", "target", "kind",
          "half_size", "size", "rotation", "friction", "point", "normal", *SlimeParams.__dataclass_fields__,
          *SlimeLook.__dataclass_fields__}


def _get(data, path):
    for key in path:
        data = data[key]
    return data


@st.composite
def broken_scene_files(draw):
    data = copy.deepcopy(GOOD)
    kind = draw(st.sampled_from(["wrong type", "missing", "unknown key", "not finite", "negative radius",
                                 "stacks", "colour", "look", "overlap", "truncated"]))
    if kind == "wrong type":
        path = draw(st.sampled_from(_VALUE_PATHS))
        _get(data, path[:-1])[path[-1]] = draw(st.sampled_from(["abc", {}, True, [1.0, 2.0], [[0.0]]]))
    elif kind == "missing":
        path = draw(st.sampled_from(_REQUIRED))
        del _get(data, path[:-1])[path[-1]]
    elif kind == "unknown key":
        table = _get(data, draw(st.sampled_from(_TABLES)))
        table[draw(st.text(min_size=1, max_size=40).filter(lambda k: k not in _KNOWN))] = 1.0
    elif kind == "not finite":
        path = draw(st.sampled_from(_VALUE_PATHS))
        value = draw(st.sampled_from([math.nan, math.inf, -math.inf]))
        target = _get(data, path[:-1])
        if isinstance(target[path[-1]], list):
            target[path[-1]][draw(st.integers(0, len(target[path[-1]]) - 1))] = value
        else:
            target[path[-1]] = value
        text = json.dumps(data)
        if draw(st.booleans()):  # or the overflowing literal Python would read as inf
            text = text.replace("-Infinity", "-1e400").replace("Infinity", "1e400").replace("NaN", "1e999")
        return text
    elif kind == "negative radius":
        where = draw(st.sampled_from([("slimes", 0), ("slimes", 1), ("obstacles", 1)]))
        _get(data, where)["radius"] = draw(st.floats(max_value=0.0, allow_nan=False, allow_infinity=False))
    elif kind == "stacks":
        key = draw(st.sampled_from(["stacks", "slices"]))
        data["slimes"][0][key] = draw(st.one_of(st.integers(max_value=limits.RESOLUTION[0] - 1),
                                                st.integers(min_value=limits.RESOLUTION[1] + 1),
                                                st.floats(3.1, 500.9).filter(lambda v: not v.is_integer())))
    elif kind == "colour":
        where = draw(st.sampled_from([("slimes", 0), ("obstacles", 0)]))
        _get(data, where)["color"] = draw(st.one_of(
            st.text(max_size=12).filter(lambda t: not _is_colour(t)),
            st.lists(st.floats(1.0001, 1e6), min_size=3, max_size=3),
            st.lists(st.floats(-1e6, -1e-4), min_size=3, max_size=3),
            st.lists(st.floats(0.0, 1.0), min_size=0, max_size=5).filter(lambda v: len(v) != 3)))
    elif kind == "look":
        look = data["slimes"][draw(st.integers(0, 1))]["look"]
        if draw(st.booleans()):
            look[draw(st.text(min_size=1, max_size=20).filter(lambda k: k not in _KNOWN))] = 1.0
        else:
            name = draw(st.sampled_from(["glow", "rim", "fresnel", "shininess", "refraction"]))
            look[name] = draw(st.one_of(st.floats(-1e6, -1e-3), st.floats(3000.0, 1e9)))
    elif kind == "overlap":
        i, j = draw(st.permutations([0, 1]))
        data["slimes"][i]["center"] = [c + draw(st.floats(-0.5, 0.5)) for c in data["slimes"][j]["center"]]
    else:
        good = json.dumps(data)
        cut = draw(st.integers(0, len(good) - 1))  # a truncated file, maybe with junk after
        return good[:cut] + draw(st.sampled_from(["", "{{", "\x00", ",]"]))
    return json.dumps(data)


def _is_colour(text: str) -> bool:
    try:
        SlimeLook().with_color(text)
    except ValueError:
        return False
    return True


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=broken_scene_files())
def test_hypothesis_broken_files_always_give_one_line(tmp_path, text):
    _refused(_write(tmp_path, text))


def test_the_good_dict_is_good(tmp_path):
    # The broken files above are broken by their change alone.
    assert isinstance(load_world_spec(_write(tmp_path, GOOD)), WorldSpec)


@pytest.mark.parametrize("command", [["simulate", "--ticks", "1", "--output", "run.npz"],
                                     ["render", "--output", "one.png", "--size", "32x24"]])
def test_a_scene_one_command_refuses_every_command_refuses_naming_the_file(tmp_path, monkeypatch, capsys, command):
    from slime.cli import main

    high = limits.SCENE_SLIMES[1]
    crowd = {"slimes": [{"center": [float(i % 20), 0.2, float(i // 20)], "radius": 0.1, "stacks": 3, "slices": 3}
                        for i in range(high + 1)]}
    (tmp_path / "crowd.json").write_text(json.dumps(crowd))
    monkeypatch.chdir(tmp_path)
    assert main([command[0], "crowd.json", *command[1:], "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "crowd.json" in err[0] and f"1 to {high} entries" in err[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crowd.json"]
