"""Soda model files: Soda Constructor's format and OpenConstructor's export in, Soda Constructor's format out,
and one clear ModelError line for every kind of broken file."""

from __future__ import annotations

import copy
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slime.scenes import load_scene
from slime.scenes.soda import make_scene
from slime.scenes.soda_format import DAINTY_WALKER, ModelError, load_model, model_to_dict, save_model

SODA_DICT = json.loads(DAINTY_WALKER.read_text())


def _open_constructor(soda: dict) -> dict:
    """Dainty Walker as OpenConstructor's exportModel() would write it."""
    return {
        "version": 0,
        "name": soda["name"],
        "author": soda["author"],
        "g": soda["gravity"][1],
        "f": soda["friction"],
        "k": soda["stiffness"],
        "width": soda["width"],
        "height": soda["height"],
        "gravityDirection": "gravity on",
        "surfaceFriction": soda["surface_friction"],
        "surfaceReflection": soda["surface_reflection"],
        "waveAmplitude": soda["wave_amplitude"],
        "wavePhase": soda["wave_phase"],
        "waveSpeed": soda["wave_speed"],
        "waveMode": "auto reverse",
        "waveDirection": soda["wave_direction"],
        "masses": [
            {"s": dict(zip("xy", n["location"])), "v": dict(zip("xy", n["velocity"])), "a": dict(zip("xy", n["acceleration"]))}
            for n in soda["nodes"]
        ],
        "springs": [
            {"m1": s["node_a"], "m2": s["node_b"], "restlength": s["rest_length"], "amplitude": s["amplitude"], "phase": s["phase"], "isBar": False}
            for s in soda["springs"]
        ],
    }


def _write(tmp_path: Path, data, name="model.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def _same_model(a, b):
    np.testing.assert_array_equal(a.locations, b.locations)
    np.testing.assert_array_equal(a.velocities, b.velocities)
    np.testing.assert_array_equal(a.acceleration, b.acceleration)
    np.testing.assert_array_equal(a.springs.pairs, b.springs.pairs)
    for name in ("rest_length", "amplitude", "phase"):
        np.testing.assert_array_equal(getattr(a.springs, name), getattr(b.springs, name))
    np.testing.assert_array_equal(a.gravity, b.gravity)
    for name in ("friction", "stiffness", "surface_friction", "surface_reflection", "width", "height",
                 "wave_amplitude", "wave_phase", "wave_speed", "wave_direction", "last_wall", "auto_reverse"):
        assert getattr(a, name) == getattr(b, name), name


# --- reading good files ---------------------------------------------------------------------


def test_dainty_walker_loads_with_soda_constructors_values():
    model = load_model(DAINTY_WALKER)
    assert (model.name, model.author) == ("Dainty Walker", "ed")
    assert model.mass_count == 10 and model.spring_count == 22
    assert model.locations[3].tolist() == SODA_DICT["nodes"][3]["location"]
    assert model.acceleration[9].tolist() == SODA_DICT["nodes"][9]["acceleration"]
    assert model.springs.pairs[21].tolist() == [3, 1]
    assert model.springs.phase[21] == 3.39292
    assert (model.springs.amplitude > 0).sum() == 8  # eight muscles
    assert model.gravity.tolist() == [0.0, -0.02] and model.stiffness == 6.25 and model.wave_direction == 1


def test_open_constructor_export_loads_to_the_same_model(tmp_path):
    soda = load_model(DAINTY_WALKER)
    oc = load_model(_write(tmp_path, _open_constructor(SODA_DICT)))
    _same_model(soda, oc)
    for _ in range(3):
        soda.tick()
        oc.tick()
    np.testing.assert_array_equal(soda.locations, oc.locations)


def test_open_constructor_gravity_direction_and_wave_mode(tmp_path):
    data = _open_constructor(SODA_DICT)
    data["gravityDirection"], data["waveMode"] = "gravity reverse", "manual"
    data["masses"][0]["s"] = [1.0, 0.5]  # plain lists are accepted as vectors too
    del data["masses"][1]["v"], data["masses"][1]["a"]  # velocity and acceleration default to zero
    model = load_model(_write(tmp_path, data))
    assert model.gravity.tolist() == [0.0, 0.02]
    assert model.auto_reverse is False
    assert model.locations[0].tolist() == [1.0, 0.5]
    assert model.velocities[1].tolist() == [0.0, 0.0] and model.acceleration[1].tolist() == [0.0, 0.0]
    data["gravityDirection"] = "gravity off"
    assert load_model(_write(tmp_path, data)).gravity.tolist() == [0.0, 0.0]


def test_spring_defaults_and_duplicates_follow_soda_constructor(tmp_path):
    data = copy.deepcopy(SODA_DICT)
    del data["springs"][0]["rest_length"]  # Soda Constructor's Spring takes the current distance
    data["springs"][1]["amplitude"] = None  # and no muscle
    data["springs"].append({"node_a": 0, "node_b": 9, "rest_length": 9.0})  # 9-0 exists: dropped
    model = load_model(_write(tmp_path, data))
    assert model.spring_count == 22
    a = np.array(SODA_DICT["nodes"][9]["location"])
    b = np.array(SODA_DICT["nodes"][0]["location"])
    assert model.springs.rest_length[0] == pytest.approx(np.linalg.norm(a - b))
    assert model.springs.amplitude[1] == 0.0


# --- saving ---------------------------------------------------------------------------------


def test_save_then_load_gives_the_same_model_and_the_same_future(tmp_path):
    model = load_model(DAINTY_WALKER)
    for _ in range(50):
        model.tick()
    path = save_model(model, tmp_path / "walker.json")
    again = load_model(path)
    _same_model(model, again)
    for _ in range(20):
        model.tick()
        again.tick()
    np.testing.assert_array_equal(model.locations, again.locations)
    data = json.loads(path.read_text())
    assert set(SODA_DICT) <= set(data)  # Soda Constructor's format, every key of it
    assert data["nodes"][0].keys() == SODA_DICT["nodes"][0].keys()
    assert data["springs"][0].keys() == SODA_DICT["springs"][0].keys()


def test_save_keeps_wall_memory(tmp_path):
    model = load_model(DAINTY_WALKER)
    model.last_wall, model.wave_direction = -1, -1.0
    again = load_model(save_model(model, tmp_path / "m.json"))
    assert again.last_wall == -1 and again.wave_direction == -1.0


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "walker.json"
    path.write_text("old contents")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_model(load_model(DAINTY_WALKER), path)
    assert path.read_text() == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["walker.json"]  # no temp file left


# --- bad files ------------------------------------------------------------------------------


def _error_line(path: Path) -> str:
    with pytest.raises(ModelError) as caught:
        load_model(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ") and len(message) > len(f"{path}: ") + 5
    return message


def _variant(change) -> dict:
    data = copy.deepcopy(SODA_DICT)
    change(data)
    return data


BAD = [
    ("not json", "{ nodes: [", "not valid JSON"),
    ("binary", b"\x89PNG\r\n\x1a\n\xff\xfe", "not UTF-8"),
    ("a list", "[1, 2, 3]", "must be an object"),
    ("no model keys", '{"name": "x"}', "not a Soda model"),
    ("missing key", _variant(lambda d: d.pop("stiffness")), "missing the key 'stiffness'"),
    ("missing location", _variant(lambda d: d["nodes"][2].pop("location")), "nodes[2] is missing the key 'location'"),
    ("missing node_b", _variant(lambda d: d["springs"][5].pop("node_b")), "springs[5] is missing the key 'node_b'"),
    ("string number", _variant(lambda d: d.update(friction="0.1")), "friction must be a number"),
    ("bool number", _variant(lambda d: d.update(stiffness=True)), "stiffness must be a number"),
    ("short vector", _variant(lambda d: d["nodes"][0].update(location=[1.0])), "nodes[0].location must be a 2-vector"),
    ("NaN literal", json.dumps(_variant(lambda d: d.update(friction=float("nan")))), "not valid JSON"),
    ("overflowing float", json.dumps(SODA_DICT).replace('"friction": 0.137', '"friction": 1e999'), "friction must be finite"),
    ("huge integer", json.dumps(SODA_DICT).replace('"friction": 0.137', '"friction": ' + "9" * 400), "friction must be finite"),
    ("index too big", _variant(lambda d: d["springs"][3].update(node_a=10)), "springs[3].node_a = 10 is out of range"),
    ("negative index", _variant(lambda d: d["springs"][3].update(node_b=-1)), "springs[3].node_b = -1 is out of range"),
    ("float index", _variant(lambda d: d["springs"][3].update(node_b=1.0)), "must be a mass index"),
    ("self spring", _variant(lambda d: d["springs"][0].update(node_b=9)), "springs[0] joins mass 9 to itself"),
    ("negative rest", _variant(lambda d: d["springs"][7].update(rest_length=-0.5)), "springs[7].rest_length must not be negative"),
    ("zero width", _variant(lambda d: d.update(width=0)), "width must be positive"),
    ("odd direction", _variant(lambda d: d.update(wave_direction=2)), "wave direction must be -1, 0 or 1"),
    ("springs not list", _variant(lambda d: d.update(springs={})), "springs must be a list"),
    ("oc bad mode", dict(_open_constructor(SODA_DICT), waveMode="sideways"), "waveMode must be one of"),
    ("oc missing k", {k: v for k, v in _open_constructor(SODA_DICT).items() if k != "k"}, "missing the key 'k'"),
    ("oc bad vector", _open_constructor(SODA_DICT) | {"masses": [{"s": {"x": 1}}]}, "masses[0].s is missing the key 'y'"),
]


@pytest.mark.parametrize("content, expected", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_model_files_raise_one_clear_line(tmp_path, content, expected):
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    assert expected in _error_line(path)


def test_missing_file_is_a_model_error(tmp_path):
    assert "cannot read" in _error_line(tmp_path / "absent.json")
    with pytest.raises(ModelError):
        make_scene(tmp_path / "absent.json")


def test_model_error_is_a_value_error():
    assert issubclass(ModelError, ValueError)


# Hypothesis: break a good file in one of the ways a file gets broken; loading must say so in one line.

_NUMBER_PATHS = [("friction",), ("stiffness",), ("width",), ("wave_speed",), ("gravity", 1),
                 ("nodes", 4, "location", 0), ("nodes", 7, "velocity", 1), ("springs", 12, "rest_length"),
                 ("springs", 15, "phase")]
_REQUIRED_PATHS = [(k,) for k in ("gravity", "friction", "stiffness", "width", "height", "surface_friction",
                                  "surface_reflection", "wave_amplitude", "wave_phase", "wave_speed",
                                  "wave_direction", "nodes", "springs")] + [("nodes", 0, "location"),
                                                                            ("springs", 3, "node_a"), ("springs", 21, "node_b")]
_WRONG_TYPES = st.one_of(st.text(max_size=5), st.booleans(), st.none(), st.lists(st.integers(), max_size=3),
                         st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _set(data, path, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _delete(data, path):
    for key in path[:-1]:
        data = data[key]
    del data[path[-1]]


@st.composite
def broken_model_files(draw):
    data = copy.deepcopy(SODA_DICT)
    kind = draw(st.sampled_from(["missing", "wrong type", "non-finite", "index", "negative rest", "garbage"]))
    if kind == "missing":
        _delete(data, draw(st.sampled_from(_REQUIRED_PATHS)))
    elif kind == "wrong type":
        path = draw(st.sampled_from(_NUMBER_PATHS))
        wrong = draw(_WRONG_TYPES)
        if wrong is None and path[-1] in ("rest_length", "phase"):
            wrong = "0.5"  # null is Soda Constructor's "use the default" there, so not broken
        _set(data, path, wrong)
    elif kind == "non-finite":
        value = draw(st.sampled_from([math.nan, math.inf, -math.inf]))
        _set(data, draw(st.sampled_from(_NUMBER_PATHS)), value)
        text = json.dumps(data)  # writes NaN / Infinity, which JSON does not allow
        if draw(st.booleans()):  # or the overflowing literal that Python would read as inf
            text = text.replace("-Infinity", "-1e400").replace("Infinity", "1e400").replace("NaN", "1e999")
        return text
    elif kind == "index":
        spring = draw(st.integers(0, 21))
        end = draw(st.sampled_from(["node_a", "node_b"]))
        index = draw(st.one_of(st.integers(10, 10**6), st.integers(-(10**6), -1)))
        data["springs"][spring][end] = index
    elif kind == "negative rest":
        spring = draw(st.integers(0, 21))
        data["springs"][spring]["rest_length"] = draw(st.floats(max_value=-1e-300, allow_infinity=False))
    else:
        good = json.dumps(data)
        cut = draw(st.integers(0, len(good) - 1))  # a truncated file, maybe with junk after
        return good[:cut] + draw(st.sampled_from(["", "{{", "\x00", ",]"]))
    return json.dumps(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=broken_model_files())
def test_hypothesis_broken_files_always_give_one_model_error_line(tmp_path, text):
    path = tmp_path / "broken.json"
    path.write_text(text)
    _error_line(path)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    shift=st.floats(-1.0, 1.0),
    friction=st.floats(0.0, 1.0),
    phase=st.floats(-10.0, 10.0),
)
def test_hypothesis_good_files_round_trip_exactly(tmp_path, shift, friction, phase):
    data = copy.deepcopy(SODA_DICT)
    data["friction"] = friction
    data["springs"][14]["phase"] = phase
    for node in data["nodes"]:
        node["location"][1] += shift
    model = load_model(_write(tmp_path, data))
    again = load_model(save_model(model, tmp_path / "out.json"))
    _same_model(model, again)
    assert model_to_dict(again) == model_to_dict(model)


def test_scene_registry_and_path_loading(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_scene("soda").model.name == "Dainty Walker"
    path = save_model(load_model(DAINTY_WALKER), tmp_path / "mine.json")
    scene = load_scene(str(path))
    assert scene.model.mass_count == 10
    assert scene.save_path == path  # a user's file saves back to itself
    shipped = make_scene()  # the shipped asset is never overwritten: its changes go to out/
    assert shipped.save_path == tmp_path / "out" / "dainty_walker.json"
    shipped.save()
    assert load_model(tmp_path / "out" / "dainty_walker.json").mass_count == 10
