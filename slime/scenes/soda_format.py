"""Soda Constructor model files: load, check and save (no simulation; the scene is slime/scenes/soda.py).

Two file formats are read, told apart by their keys; models are always written in the first.

Soda Constructor format (Soda Constructor's model hash as JSON; ``assets/dainty_walker.json``)::

    name, author                  strings (optional)
    gravity                       [gx, gy], added to every mass's force (unit masses)
    friction                      viscous friction: force -= friction * velocity
    stiffness                     Hooke constant of every spring
    width, height                 the box: floor y = 0, walls x = 0 and x = width (> 0)
    surface_friction              fraction of the along-surface velocity lost on contact
    surface_reflection            factor on the into-surface velocity (-0.75 = bounce at 3/4)
    wave_amplitude, wave_phase, wave_speed (radians per tick), wave_direction (-1, 0 or 1)
    nodes    [{location: [x, y], velocity: [x, y], acceleration: [x, y]}, ...]
    springs  [{node_a: i, node_b: j, rest_length, amplitude, phase}, ...]
    last_wall ("unknown" | "left" | "right"), auto_reverse (bool)   -- optional, ours

OpenConstructor's export (``model.exportModel()``, version 0)::

    version, name, author
    g                             gravity along y (negative = down) ...
    gravityDirection              ... as "gravity on" (g), "gravity off" (0) or "gravity reverse" (-g)
    f, k                          friction and springiness (stiffness)
    width, height, surfaceFriction, surfaceReflection
    waveAmplitude, wavePhase, waveSpeed, waveDirection
    waveMode                      "auto reverse" (walls flip the wave; Soda Constructor's only mode),
                                  "forward", "reverse", "manual" (walls do not flip it)
    masses   [{s: {x, y}, v: {x, y}, a: {x, y}}, ...]   (s/v/a: location, velocity, acceleration;
                                                        [x, y] lists are accepted too)
    springs  [{m1: i, m2: j, restlength, amplitude, phase}, ...]  (isBar etc. are ignored)

In both, a mass's velocity and acceleration default to zero, and a spring's rest length to the
distance between its masses and its amplitude and phase to zero, as Soda Constructor's constructors do.
A second spring between the same two masses is dropped, as Soda Constructor's ``spring_add`` drops it.
Anything else wrong (not JSON, a missing key, a wrong type, NaN or infinity, a spring index out
of range, a spring from a mass to itself, a negative rest length, a box that is not positive)
raises ``ModelError`` with one line naming the file and the problem.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import numpy as np

from slime import limits
from slime.fileio import atomic_write
from slime.paths import ASSETS
from slime.physics.mass_spring.soda import WALL_NAMES, WALL_UNKNOWN, SodaModel
from slime.scenes.json_input import JsonChecker, describe, read_json

DAINTY_WALKER = ASSETS / "dainty_walker.json"

SODA_KEYS = (
    "gravity",
    "friction",
    "stiffness",
    "width",
    "height",
    "surface_friction",
    "surface_reflection",
    "wave_amplitude",
    "wave_phase",
    "wave_speed",
    "wave_direction",
    "nodes",
    "springs",
)
OPEN_CONSTRUCTOR_KEYS = (
    "g",
    "f",
    "k",
    "width",
    "height",
    "surfaceFriction",
    "surfaceReflection",
    "waveAmplitude",
    "wavePhase",
    "waveSpeed",
    "waveDirection",
    "masses",
    "springs",
)
# Keys only a 3D scene file has (slime/scenes/world_format.py): a file with them meant to be one.
SCENE_ONLY_KEYS = ("obstacles", "floor_height", "camera")
GRAVITY_SIGN = {"gravity on": 1.0, "gravity off": 0.0, "gravity reverse": -1.0}
WAVE_MODES = ("auto reverse", "auto-reverse", "forward", "reverse", "backward", "manual")
WALL_BY_NAME = {name: side for side, name in WALL_NAMES.items()}


class ModelError(ValueError):
    """A model file that cannot be used; the message is one line: '<path>: <problem>'."""


# --- reading ------------------------------------------------------------------------------------


class _Checker(JsonChecker):
    """Typed access into parsed JSON that reports the first problem as a ModelError."""

    error = ModelError

    def number(self, value, where: str, within: tuple | None = limits.SODA_NUMBER, unit: str = "") -> float:
        return super().number(value, where, within, unit)

    def _typed(self, value, where: str, kind: type, what: str):
        if not isinstance(value, kind):
            raise self.fail(f"{where} must be {what}, got {describe(value)}")
        return value

    def table(self, value, where: str) -> dict:
        return self._typed(value, where, dict, "an object")

    def items(self, value, where: str) -> list:
        return self._typed(value, where, list, "a list")

    def key(self, table: dict, key: str, where: str):
        if key not in table:
            raise self.fail(f"{where} is missing the key {key!r}")
        return table[key]

    def vector(self, value, where: str) -> list[float]:
        """[x, y], or OpenConstructor's {"x": .., "y": ..}."""
        if isinstance(value, dict):
            return [self.number(self.key(value, axis, where), f"{where}.{axis}") for axis in ("x", "y")]
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(f"{where} must be a 2-vector [x, y], got {describe(value)}")
        return [self.number(c, f"{where}[{i}]") for i, c in enumerate(value)]

    def index(self, value, where: str, count: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where} must be a mass index (an integer), got {describe(value)}")
        if not 0 <= value < count:
            raise self.fail(f"{where} = {value} is out of range (the model has {count} masses)")
        return value


def load_model(path) -> SodaModel:
    """Read a Soda model file (Soda Constructor format or OpenConstructor export); see the module docstring."""
    path = Path(path)
    data = read_json(path, ModelError, "model file")
    if isinstance(data, dict) and "slimes" in data and "nodes" not in data and "masses" not in data:
        # A 3D scene file that the scene reader refused; size is the one thing it reads differently.
        raise ModelError(f"{path}: a 3D scene file too big: {path.stat().st_size / 2**20:.0f} MiB, more than the "
                         f"{limits.SCENE_FILE_BYTES // 2**20} MiB a scene file may have")
    return model_from_dict(data, path)


def model_from_dict(data, path="<model>") -> SodaModel:
    """Check and convert parsed JSON in either format; ``path`` only names the source in errors."""
    check = _Checker(path)
    data = check.table(data, "the model")
    if "nodes" in data:
        return _from_soda_format(data, check)
    if "masses" in data:
        return _from_open_constructor(data, check)
    near = difflib.get_close_matches("slimes", [str(key) for key in data], n=1, cutoff=0.6)
    if near or any(key in data for key in SCENE_ONLY_KEYS):
        found = f"it has {near[0]!r}, not " if near else "it has 3D scene keys but no "
        raise check.fail(f"not a 3D scene: {found}'slimes', the list of slimes a 3D scene file needs "
                         "(see slime/scenes/world_format.py); nor a Soda model ('nodes' or 'masses')")
    raise check.fail("not a Soda model: no 'nodes' (Soda Constructor format) or 'masses' (OpenConstructor) key")


def _meta(data: dict, check: _Checker) -> tuple[str, str]:
    name = check.text(data.get("name", ""), "name")
    author = check.text(data.get("author", ""), "author")
    return name, author


def _from_soda_format(data: dict, check: _Checker) -> SodaModel:
    for key in SODA_KEYS:
        check.key(data, key, "the model")
    params = {key: check.number(data[key], key, _range(key)) for key in SODA_KEYS[1:11]}
    gravity = check.vector(data["gravity"], "gravity")
    last_wall = data.get("last_wall", "unknown")
    if last_wall not in WALL_BY_NAME:
        raise check.fail(f"last_wall must be one of 'unknown', 'left', 'right', got {describe(last_wall)}")
    auto_reverse = data.get("auto_reverse", True)
    if not isinstance(auto_reverse, bool):
        raise check.fail(f"auto_reverse must be true or false, got {describe(auto_reverse)}")
    masses = _masses(check, data["nodes"], "nodes", ("location", "velocity", "acceleration"))
    springs = _springs(check, data["springs"], "springs", ("node_a", "node_b", "rest_length"), masses[0])
    name, author = _meta(data, check)
    return _build(check, masses, springs, gravity, params, WALL_BY_NAME[last_wall], auto_reverse, name, author)


def _from_open_constructor(data: dict, check: _Checker) -> SodaModel:
    for key in OPEN_CONSTRUCTOR_KEYS:
        check.key(data, key, "the model")
    g = check.number(data["g"], "g")
    direction = data.get("gravityDirection", "gravity on")
    if direction not in GRAVITY_SIGN:
        raise check.fail(f"gravityDirection must be one of {', '.join(map(repr, GRAVITY_SIGN))}, got {describe(direction)}")
    wave_mode = data.get("waveMode", "auto reverse")
    if wave_mode not in WAVE_MODES:
        raise check.fail(f"waveMode must be one of 'auto reverse', 'forward', 'reverse', 'manual', got {describe(wave_mode)}")
    names = dict(
        friction="f",
        stiffness="k",
        width="width",
        height="height",
        surface_friction="surfaceFriction",
        surface_reflection="surfaceReflection",
        wave_amplitude="waveAmplitude",
        wave_phase="wavePhase",
        wave_speed="waveSpeed",
        wave_direction="waveDirection",
    )
    params = {ours: check.number(data[theirs], theirs, _range(ours)) for ours, theirs in names.items()}
    masses = _masses(check, data["masses"], "masses", ("s", "v", "a"))
    springs = _springs(check, data["springs"], "springs", ("m1", "m2", "restlength"), masses[0])
    name, author = _meta(data, check)
    gravity = [0.0, g * GRAVITY_SIGN[direction]]
    auto_reverse = wave_mode in ("auto reverse", "auto-reverse")
    return _build(check, masses, springs, gravity, params, WALL_UNKNOWN, auto_reverse, name, author)


def _range(key: str) -> tuple:
    return limits.SODA_FRICTION if key == "friction" else limits.SODA_NUMBER


def _masses(check: _Checker, items, where: str, keys: tuple[str, str, str]):
    location_key, velocity_key, acceleration_key = keys
    locations, velocities, accelerations = [], [], []
    for i, item in enumerate(check.items(items, where)):
        at = f"{where}[{i}]"
        item = check.table(item, at)
        locations.append(check.vector(check.key(item, location_key, at), f"{at}.{location_key}"))
        velocities.append(check.vector(item.get(velocity_key, [0.0, 0.0]), f"{at}.{velocity_key}"))
        accelerations.append(check.vector(item.get(acceleration_key, [0.0, 0.0]), f"{at}.{acceleration_key}"))
    shape = (len(locations), 2)
    return (
        np.array(locations, dtype=np.float64).reshape(shape),
        np.array(velocities, dtype=np.float64).reshape(shape),
        np.array(accelerations, dtype=np.float64).reshape(shape),
    )


def _springs(check: _Checker, items, where: str, keys: tuple[str, str, str], locations: np.ndarray):
    a_key, b_key, rest_key = keys
    count = locations.shape[0]
    pairs, rest, amplitude, phase = [], [], [], []
    seen = set()
    for k, item in enumerate(check.items(items, where)):
        at = f"{where}[{k}]"
        item = check.table(item, at)
        i = check.index(check.key(item, a_key, at), f"{at}.{a_key}", count)
        j = check.index(check.key(item, b_key, at), f"{at}.{b_key}", count)
        if i == j:
            raise check.fail(f"{at} joins mass {i} to itself")
        # Missing or null take Soda Constructor's Spring defaults: the current distance, no muscle.
        length = item.get(rest_key)
        if length is None:
            length = float(np.linalg.norm(locations[j] - locations[i]))
        length = check.number(length, f"{at}.{rest_key}")
        if length < 0.0:
            raise check.fail(f"{at}.{rest_key} must not be negative, got {length!r}")
        amp = check.number(_or_zero(item.get("amplitude")), f"{at}.amplitude")
        ph = check.number(_or_zero(item.get("phase")), f"{at}.phase")
        if (min(i, j), max(i, j)) in seen:  # Soda Constructor's spring_add keeps the first
            continue
        seen.add((min(i, j), max(i, j)))
        pairs.append((i, j))
        rest.append(length)
        amplitude.append(amp)
        phase.append(ph)
    return np.array(pairs, dtype=np.int64).reshape(-1, 2), rest, amplitude, phase


def _or_zero(value):
    return 0.0 if value is None else value


def _build(check, masses, springs, gravity, params, last_wall, auto_reverse, name, author) -> SodaModel:
    for side in ("width", "height"):
        if params[side] <= 0.0:
            raise check.fail(f"{side} must be positive, got {params[side]!r}")
    if params["wave_direction"] not in (-1.0, 0.0, 1.0):
        raise check.fail(f"wave direction must be -1, 0 or 1, got {params['wave_direction']!r}")
    locations, velocities, accelerations = masses
    pairs, rest, amplitude, phase = springs
    return SodaModel.create(
        locations,
        pairs,
        rest,
        amplitude,
        phase,
        velocities,
        accelerations,
        gravity=gravity,
        last_wall=last_wall,
        auto_reverse=auto_reverse,
        name=name,
        author=author,
        **params,
    )


# --- writing ------------------------------------------------------------------------------------


def model_to_dict(model: SodaModel) -> dict:
    """The model in Soda Constructor's format (plus our optional last_wall / auto_reverse)."""
    s = model.springs
    live = np.flatnonzero(s.alive)

    def vec(row) -> list[float]:
        return [float(row[0]), float(row[1])]

    return {
        "name": model.name,
        "author": model.author,
        "gravity": vec(model.gravity),
        "friction": model.friction,
        "stiffness": model.stiffness,
        "width": model.width,
        "height": model.height,
        "surface_friction": model.surface_friction,
        "surface_reflection": model.surface_reflection,
        "wave_amplitude": model.wave_amplitude,
        "wave_phase": model.wave_phase,
        "wave_speed": model.wave_speed,
        "wave_direction": int(model.wave_direction),
        "last_wall": WALL_NAMES[model.last_wall],
        "auto_reverse": model.auto_reverse,
        "nodes": [
            {"location": vec(x), "velocity": vec(v), "acceleration": vec(a)}
            for x, v, a in zip(model.locations, model.velocities, model.acceleration)
        ],
        "springs": [
            {
                "node_a": int(s.a[k]),
                "node_b": int(s.b[k]),
                "rest_length": float(s.rest_length[k]),
                "amplitude": float(s.amplitude[k]),
                "phase": float(s.phase[k]),
            }
            for k in live
        ],
    }


def save_model(model: SodaModel, path) -> Path:
    """Write the model in Soda Constructor's format, atomically (a temp file beside it, then rename)."""
    path = Path(path)
    text = json.dumps(model_to_dict(model), indent=2, allow_nan=False) + "\n"
    atomic_write(path, lambda out: out.write(text.encode("utf-8")))
    return path


# --- the scene ----------------------------------------------------------------------------------


__all__ = ["DAINTY_WALKER", "ModelError", "load_model", "model_from_dict", "model_to_dict", "save_model"]
