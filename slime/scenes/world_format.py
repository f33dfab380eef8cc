"""3D scene files: several slimes, the obstacles they land on, gravity, the floor and the camera,
as JSON. This module reads, checks and writes them; it simulates nothing (the world is
``slime.physics.slime3d.world3d.World3D``, the specs here are what it is built from).

A file is a 3D scene, and not a Soda model (slime/scenes/soda_format.py), because its top level
has the key ``"slimes"``. Units: metres, kilograms, seconds, degrees; +y is up. Every range below
is in slime/limits.py. Keys not listed are refused (a typo is an error, not a silently ignored
setting). ``assets/pile.json``, ``ramp.json``, ``duel.json``, ``pillars.json`` and ``drop.json`` are examples.

Top level::

    slimes        required  list of 1 to 64 slimes (limits.SCENE_SLIMES, what a picture draws), below
    obstacles     optional  list of 0 to 1024 obstacles (limits.SCENE_OBSTACLES), below; default []
    gravity       optional  [gx, gy, gz] in m/s^2, length at most 30 (limits.GRAVITY); default [0, -9.81, 0]
    floor_height  optional  y of the floor plane in m; default 0; null: no floor
    camera        optional  the view to open on, below; it stays put. Default null: the scene frames
                            itself, from 35 degrees round and 30 up, with every slime and obstacle
                            (a plane by its ``point``) in the picture, and keeps them there as the
                            slimes move (slime.app.render_world.follow_framing; in the window until
                            you orbit or zoom)
    events        optional  list of 0 to 4096 timed events (limits.SCENE_EVENTS), below; default []
    dt, substeps, floor_friction, floor_restitution, max_speed, max_acceleration
                  optional  the rest of the world's settings (the world group of
                            slime/physics/parameters.py, ``slime params`` lists each with its
                            range); default the declared ones
    name          optional  a title (string); default ""
    description   optional  one line saying what happens (string); default ""

A slime (a UV sphere of ``stacks`` x ``slices``, see slime/physics/slime3d/sphere.py)::

    center        required  [x, y, z] in m: the centre of its rest sphere
    radius        required  m, 0.02 to 50 (limits.SLIME_RADIUS)
    stacks        optional  latitude divisions, an integer 3 to 512 (limits.RESOLUTION); default 20
    slices        optional  longitude divisions, likewise; default 20
    velocity      optional  [vx, vy, vz] in m/s, the starting velocity of every vertex, at most
                            100 m/s (limits.LAUNCH_SPEED); default [0, 0, 0]
    color         optional  the jelly's colour, "#rrggbb" or [r, g, b] each 0 to 1 (SlimeLook.with_color);
                            default: the look's own colours
    look          optional  {field: value} of slime.look.SlimeLook (glow, absorption, rim, fresnel,
                            highlight, shininess, refraction, deep_color, glow_color...), applied after
                            ``color``; checked by SlimeLook.from_dict; default {}
    material      optional  what it is made of: a name of slime.physics.slime3d.materials.MATERIALS
                            ("jelly", "goo", "rubber"); its parameters start from that material's,
                            and ``params`` go on top. Default null: the material the scene is run
                            with (``--material`` of slime render, simulate and scene; jelly unless
                            asked)
    params        optional  {name: value} of the declared parameters (slime/physics/parameters.py,
                            ``slime params`` lists them: mass, volume_stiffness, shape_stiffness,
                            viscosity, surface_tension, air_drag, the hand's...), set over the
                            material's; checked by building SlimeParams; default {} (the material's
                            and the declared defaults). Not radius, stacks, slices or center (the
                            slime's own keys), nor gravity, floor_height, dt or substeps (the world's).

An obstacle (fixed: it pushes the slimes and never moves)::

    kind          required  "box", "ball", "plane" or "cylinder" (the kinds in slime.obstacle_kinds.KINDS)
    friction      optional  Coulomb coefficient, 0 to 10 (limits.FRICTION); default 0.5
    color         optional  "#rrggbb" or [r, g, b] each 0 to 1; default null (the renderer's grey)
    box:   center     required  [x, y, z] in m
           half_size  required, or size (the full edge lengths; give one of the two): [hx, hy, hz]
                      in m, each 0.001 to 1000 (limits.OBSTACLE_SIZE)
           rotation   optional  [yaw, pitch, roll] in degrees, each -360 to 360 (limits.ANGLE);
                      default [0, 0, 0]. The box is turned by roll about z, then pitch about x,
                      then yaw about y (all right-handed, about its centre):
                      ``ObstacleSpec.rotation_matrix()``
    ball:  center     required  [x, y, z] in m
           radius     required  m, 0.001 to 1000
    plane: normal     required  [nx, ny, nz] pointing out of the solid side; any length but zero (made unit)
           point      optional  [x, y, z], a point of the plane; default [0, 0, 0]
    cylinder: center       required  [x, y, z] in m
              radius       required  m, 0.001 to 1000
              half_height  required  m, 0.001 to 1000: half the length along its axis
              rotation     optional  [yaw, pitch, roll] in degrees, as a box's; default [0, 0, 0]
                           (upright: its axis along +y; [0, 90, 0] lays it along z)

The camera (an orbit around ``target``, as ``slime render --camera``)::

    yaw           optional  degrees around +y, -360 to 360; 0 looks from +z toward the target; default 35
    elevation     optional  degrees above the horizon, 0 to 85 (limits.CAMERA_ELEVATION); default 17
    distance      optional  m from the target, 0.1 to 1000 (limits.CAMERA_DISTANCE); default 4.6
    target        optional  [x, y, z]; default [0, 0.7, 0]

A timed event (what ``slime render --poke`` and ``slime simulate --poke`` add to any scene; the
hand of the window, scripted), acted out at the start of frame ``tick``, before that frame's step::

    kind          required  "poke", "grab", "drag", "release", "press" or "unpress"
    tick          required  the frame, a whole number 0 to 99 999 (below the run's frames)
    poke:    point [x, y, z] and force [fx, fy, fz] (N), both required: a push for one frame on
             the slime whose surface is nearest the point (slime.physics.slime3d.hand.poke)
    grab:    point, required: the vertex nearest it, of the slime whose surface is nearest, is
             held and follows each drag until a release
    drag:    target [x, y, z], required: where the held vertex is pulled to from now on
    release: velocity [vx, vy, vz] in m/s, optional (a throw, at most 100 m/s); default none
    press:   point and direction (any length but zero), both required: a finger pushed in at
             the point along the direction, into the slime nearest it, until an unpress
    unpress: nothing more
A poke, grab or press meets the slime whose surface is nearest its point at that frame, and only
one within that slime's radius of it (``slime.scenes.world_run``): one that meets no slime stops
the run with a one-line error. A drag or a release needs a grab before it, an unpress a press.

Every position lies within +-10 000 m (limits.SCENE_EXTENT) and all slimes together have at most
limits.MAX_SCENE_VERTICES vertices. A scene must start physically possible: no slime may start
below the floor, inside an obstacle or overlapping another slime (touching is allowed), because a
soft body started inside a solid is pushed out violently in the first step.

Anything wrong (not JSON, a missing or unknown key, a wrong type, NaN or infinity, a value out of
range, a bad look field, a start that overlaps, a folder, a FIFO, an oversized file) raises
``WorldFileError`` with one line naming the file and the problem.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import numpy as np

from slime import framing, limits
from slime.fileio import atomic_write
from slime.look import COLOR_FIELDS, SlimeLook, parse_color
from slime.obstacle_kinds import KINDS, rotation_from_degrees
from slime.paths import ASSETS
from slime.physics import parameters
from slime.physics.slime3d.obstacles import signed_distance
from slime.physics.slime3d.materials import DEFAULT_MATERIAL, find_material
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.sphere import vertex_count
from slime.scenes import SceneError
from slime.scenes.json_input import JsonChecker, describe, read_json

# The bundled scenes, by the name `slime scenes` lists them under: assets/NAME.json.
WORLD_SCENES = ("pile", "ramp", "duel", "pillars", "drop")
# The lone slime's scene, built from the command line's flags (``lone_slime_spec``), not a file.
LONE_SLIME = "slime"

DEFAULT_GRAVITY = (0.0, -9.81, 0.0)
DEFAULT_RESOLUTION = 20
DEFAULT_FRICTION = 0.5
# SlimeParams fields a slime's "params" may not set: its own keys, and the world's.
OWN_KEYS = ("radius", "stacks", "slices", "center")
WORLD_KEYS = tuple(p.name for p in parameters.group("world"))
PARAM_KEYS = tuple(f.name for f in fields(SlimeParams) if f.name not in OWN_KEYS + WORLD_KEYS)
# The world's settings a file sets at its top besides gravity and floor_height (``WorldSpec.world``).
WORLD_SETTINGS = tuple(p.name for p in parameters.group("world") if p.name not in ("gravity", "floor_height"))
# A start "overlaps" only past this depth (m): spheres that exactly touch, written to a few
# decimals, do not count.
OVERLAP_TOLERANCE = 1e-6


class WorldFileError(SceneError):
    """A 3D scene file (or dict) that cannot be used; the message is one line: '<origin>: <problem>'."""


# --- the specs ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CameraSpec:
    """The view a scene opens on: an orbit camera (see slime/render/camera.py's OrbitCamera); its
    defaults are the lone slime's view of a slime of radius 1 m (``lone_slime_spec``)."""

    yaw: float = framing.YAW  # degrees around +y
    elevation: float = framing.LONE_ELEVATION  # degrees above the horizon
    distance: float = framing.LONE_DISTANCE  # m
    target: tuple = (0.0, framing.LONE_TARGET_HEIGHT, 0.0)


@dataclass(frozen=True)
class SlimeSpec:
    """One slime as the file gives it; ``look`` and ``params`` hold only the keys the file sets
    (JSON-ready values), already checked."""

    center: tuple
    radius: float
    stacks: int = DEFAULT_RESOLUTION
    slices: int = DEFAULT_RESOLUTION
    color: tuple | None = None  # linear RGB 0..1
    look: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    velocity: tuple = (0.0, 0.0, 0.0)
    material: str | None = None  # a name of materials.MATERIALS; None: the one the scene is run with

    @property
    def vertex_count(self) -> int:
        return vertex_count(self.stacks, self.slices)

    def slime_params(self, gravity=DEFAULT_GRAVITY, floor_height: float | None = 0.0,
                     material: str | None = None) -> SlimeParams:
        """The SlimeParams to build this slime with in a world of that gravity and floor (None: no
        floor; SlimeParams then keeps its own floor height, which the world does not use): its
        own material's, else ``material``'s (default jelly), with its ``params`` on top."""
        floor = {} if floor_height is None else {"floor_height": floor_height}
        return SlimeParams.of_material(self.material or material or DEFAULT_MATERIAL, radius=self.radius,
                                       stacks=self.stacks, slices=self.slices, center=self.center,
                                       gravity=gravity, **floor, **self.params)

    def slime_look(self, base: SlimeLook | None = None) -> SlimeLook:
        """Its look: ``base`` (default SlimeLook()) recoloured by ``color``, then ``look``'s fields."""
        look = base if base is not None else SlimeLook()
        if self.color is not None:
            look = look.with_color(self.color)
        return SlimeLook.from_dict(dict(self.look), base=look)


@dataclass(frozen=True)
class ObstacleSpec:
    """A fixed obstacle as the file gives it: its ``kind`` (a key of ``slime.obstacle_kinds.KINDS``),
    the kind's checked file values (``ObstacleKind.read``: JSON-ready, every default filled in),
    read as attributes (``spec.center``; a parameter of another kind is None)."""

    kind: str
    values: dict = field(default_factory=dict)
    friction: float = DEFAULT_FRICTION
    color: tuple | None = None

    def __getattr__(self, name):
        if name.startswith("_") or name == "values":
            raise AttributeError(name)
        values = self.__dict__.get("values", {})
        if name in values:
            return values[name]
        if any(name in kind.file_keys for kind in KINDS.values()):
            return None
        raise AttributeError(f"ObstacleSpec has no attribute {name!r}")

    def __hash__(self):
        return hash((self.kind, tuple(self.values.items()), self.friction, self.color))

    def rotation_matrix(self) -> np.ndarray:
        """(3, 3) R with world = center + R @ local: its columns are the obstacle's axes in world
        coordinates. R = Ry(yaw) @ Rx(pitch) @ Rz(roll) (``obstacle_kinds.rotation_from_degrees``);
        the identity for a kind without a rotation."""
        return rotation_from_degrees(*(self.values.get("rotation") or (0.0, 0.0, 0.0)))

    def obstacle(self):
        """The obstacle itself (a ``KINDS[kind]`` object), for the physics and the renderer."""
        return KINDS[self.kind].build(self.values, self.friction)


@dataclass(frozen=True)
class Event:
    """A timed event of the scene (the module docstring): at frame ``tick``, the hand does
    ``kind`` with ``values`` (JSON-ready, checked: ``point``, ``force``, ``target``, ``velocity``,
    ``direction`` as the kind takes them). ``where`` names it in errors (``events[2]``, ``--poke
    '20:0,2,0:0,-150,0'``)."""

    kind: str
    tick: int
    values: dict = field(default_factory=dict)
    where: str = field(default="", compare=False)

    def __hash__(self):
        return hash((self.kind, self.tick, tuple(self.values.items())))

    def __getattr__(self, name):
        # ``event.point``, ``event.force``...: a value of its kind, None for one it does not take
        # (a release has no point: it acts on what the hand holds).
        if name.startswith("_") or name == "values":
            raise AttributeError(name)
        if any(name in keys for pair in EVENT_KEYS.values() for keys in pair):
            return self.__dict__.get("values", {}).get(name)
        raise AttributeError(f"Event has no attribute {name!r}")


# Each event kind: its required keys, its optional ones.
EVENT_KEYS = {
    "poke": (("point", "force"), ()),
    "grab": (("point",), ()),
    "drag": (("target",), ()),
    "release": ((), ("velocity",)),
    "press": (("point", "direction"), ()),
    "unpress": ((), ()),
}
# What a held event needs before it: a drag or release a grab, an unpress a press.
EVENT_NEEDS = {"drag": "grab", "release": "grab", "unpress": "press"}


def poke(tick: int, point, force, where: str = "") -> Event:
    """The poke event: at frame ``tick``, push the slime nearest ``point`` with ``force`` (N)."""
    return Event("poke", int(tick), {"point": tuple(float(v) for v in point), "force": tuple(float(v) for v in force)},
                 where)


@dataclass(frozen=True)
class WorldSpec:
    """A whole 3D scene file, checked."""

    slimes: tuple  # of SlimeSpec
    obstacles: tuple = ()  # of ObstacleSpec
    gravity: tuple = DEFAULT_GRAVITY
    floor_height: float | None = 0.0
    camera: CameraSpec | None = None
    name: str = ""
    description: str = ""
    events: tuple = ()  # of Event, in the order they act (by tick, then as given)
    world: dict = field(default_factory=dict)  # the file's other world settings (WORLD_SETTINGS), checked

    @property
    def vertex_count(self) -> int:
        return sum(s.vertex_count for s in self.slimes)

    def with_settings(self, settings: dict, origin="<scene>") -> "WorldSpec":
        """This scene with ``settings`` ({name: value} of declared parameters, a command line's
        ``--set``) over its own: the world's on the world, a slime's own keys (radius, stacks,
        slices) and its params on every slime; checked as a file's values are (WorldFileError, one
        line)."""
        if not settings:
            return self
        data = spec_to_dict(self)
        for name, value in settings.items():
            value = list(value) if isinstance(value, tuple) else value
            if name in ("gravity", "floor_height") + WORLD_SETTINGS:
                data[name] = value
            else:
                for slime in data["slimes"]:
                    if name in OWN_KEYS:
                        slime[name] = value
                    else:
                        slime.setdefault("params", {})[name] = value
        return world_spec_from_dict(data, origin)

    def with_events(self, events, origin="<scene>") -> "WorldSpec":
        """This scene with ``events`` (Event objects, or dicts in the file format) after its own,
        each checked as a file's are; WorldFileError in one line naming the first bad one."""
        check = _Checker(origin)
        events = list(events)
        if len(self.events) + len(events) > limits.SCENE_EVENTS[1]:
            raise check.fail(f"a scene may have at most {limits.SCENE_EVENTS[1]} events, got "
                             f"{len(self.events) + len(events)}")
        added = []
        for i, event in enumerate(events):
            where = f"events[{len(self.events) + i}]"
            if isinstance(event, Event):
                event, where = {"kind": event.kind, "tick": event.tick, **event.values}, event.where or where
            added.append(_event(check, event, where))
        return replace(self, events=_ordered(check, self.events + tuple(added)))

    def slime_params(self, material: str | None = None) -> tuple:
        """Every slime's SlimeParams, in file order; ``material`` for those that name none (default
        jelly)."""
        return tuple(s.slime_params(self.gravity, self.floor_height, material) for s in self.slimes)


# --- reading ------------------------------------------------------------------------------------


class _Checker(JsonChecker):
    """Typed access into parsed JSON that reports the first problem as a WorldFileError."""

    error = WorldFileError

    def table(self, value, where: str, known: tuple, required: tuple = ()) -> dict:
        if not isinstance(value, dict):
            raise self.fail(f"{where} must be an object, got {describe(value)}")
        unknown = [k for k in value if k not in known]
        if unknown:
            shown = unknown[0] if len(unknown[0]) <= 30 else unknown[0][:27] + "..."
            raise self.fail(f"{where} has an unknown key {shown!r}; known: {', '.join(known)}")
        for key in required:
            if key not in value:
                raise self.fail(f"{where} is missing the key {key!r}")
        return value

    def kind(self, value, where: str, kinds) -> str:
        """The ``"kind"`` of an object that is one of ``kinds`` (an obstacle's, an event's)."""
        if not isinstance(value, dict):
            raise self.fail(f"{where} must be an object, got {describe(value)}")
        kind = value.get("kind")
        if not isinstance(kind, str) or kind not in kinds:
            if "kind" not in value:
                raise self.fail(f"{where} is missing the key 'kind' (one of {', '.join(kinds)})")
            raise self.fail(f"{where}.kind must be one of {', '.join(kinds)}, got {describe(kind)}")
        return kind

    def items(self, value, where: str, limits_: tuple) -> list:
        if not isinstance(value, list):
            raise self.fail(f"{where} must be a list, got {describe(value)}")
        low, high = limits_
        if not low <= len(value) <= high:
            raise self.fail(f"{where} must have {low} to {high} entries, got {len(value)}")
        return value

    def integer(self, value, where: str, within: tuple) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # 20.0 is 20 (a writer that keeps every number a float)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where} must be an integer, got {describe(value)}")
        if not within[0] <= value <= within[1]:
            raise self.fail(f"{where} must be from {limits.range_text(within)}, got {describe(value)}")
        return value

    def vector(self, value, where: str, within: tuple | None = limits.SCENE_EXTENT, unit: str = "m") -> tuple:
        if not isinstance(value, (list, tuple)) or len(value) != 3:
            raise self.fail(f"{where} must be a 3-vector [x, y, z], got {describe(value)}")
        return tuple(self.number(c, f"{where}[{i}]", within, unit) for i, c in enumerate(value))

    def color(self, value, where: str) -> tuple:
        if isinstance(value, str):
            try:
                return tuple(float(c) for c in parse_color(value))
            except ValueError:
                raise self.fail(f"{where} {describe(value)} is not a colour: give \"#rrggbb\" or [r, g, b] "
                                "each 0 to 1") from None
        return self.vector(value, where, (0.0, 1.0), "")


def _parse_json(path: Path):
    return read_json(path, WorldFileError, "scene file", limits.SCENE_FILE_BYTES,
                     empty='a scene file is a JSON object with a "slimes" list')


def load_world_spec(path) -> WorldSpec:
    """Read and check a 3D scene file (see the module docstring); WorldFileError in one line otherwise."""
    path = Path(path)
    return world_spec_from_dict(_parse_json(path), path)


def is_world_file(path_or_dict) -> bool:
    """Whether this parsed JSON, or the JSON file at this path, is a 3D scene (an object with
    "slimes"), not a Soda model. A file that cannot be read or parsed is not one (False): its
    loader says what is wrong with it."""
    data = path_or_dict
    if not isinstance(data, dict):
        try:
            data = _parse_json(Path(path_or_dict))
        except (WorldFileError, TypeError):
            return False
    return isinstance(data, dict) and "slimes" in data


TOP_KEYS = ("name", "description", "gravity", "floor_height", *WORLD_SETTINGS, "camera", "slimes", "obstacles", "events")
SLIME_KEYS = ("center", "radius", "stacks", "slices", "velocity", "color", "look", "material", "params")
CAMERA_KEYS = ("yaw", "elevation", "distance", "target")


def world_spec_from_dict(data, origin="<scene>") -> WorldSpec:
    """Check and convert a parsed scene file; ``origin`` only names the source in errors."""
    check = _Checker(origin)
    if isinstance(data, dict) and "slimes" not in data:
        soda = " (this is a Soda model: open it with slime scene FILE)" if "nodes" in data or "masses" in data else ""
        raise check.fail(f"the scene is missing the key 'slimes'{soda}")
    data = check.table(data, "the scene", TOP_KEYS, ("slimes",))
    name = check.text(data.get("name", ""), "name")
    description = check.text(data.get("description", ""), "description")
    gravity = check.vector(data.get("gravity", list(DEFAULT_GRAVITY)), "gravity", None)
    if math.hypot(*gravity) > limits.GRAVITY[1]:
        raise check.fail(f"gravity must be at most {limits.GRAVITY[1]:g} m/s^2 long, got {math.hypot(*gravity):g}")
    floor = data.get("floor_height", 0.0)
    floor_height = None if floor is None else check.number(floor, "floor_height", limits.SCENE_EXTENT, "m")
    camera = None if data.get("camera") is None else _camera(check, data["camera"])
    slimes = tuple(_slime(check, item, f"slimes[{i}]", gravity)
                   for i, item in enumerate(check.items(data["slimes"], "slimes", limits.SCENE_SLIMES)))
    vertices = sum(s.vertex_count for s in slimes)
    if vertices > limits.MAX_SCENE_VERTICES:
        raise check.fail(f"the slimes have {vertices} vertices together, more than the "
                         f"{limits.MAX_SCENE_VERTICES} a scene may have (fewer stacks and slices)")
    obstacles = tuple(_obstacle(check, item, f"obstacles[{i}]")
                      for i, item in enumerate(check.items(data.get("obstacles", []), "obstacles", limits.SCENE_OBSTACLES)))
    events = tuple(_event(check, item, f"events[{i}]")
                   for i, item in enumerate(check.items(data.get("events", []), "events", limits.SCENE_EVENTS)))
    world = {}
    for key in WORLD_SETTINGS:
        if key in data:
            try:
                world[key] = parameters.PARAMETERS[key].check(data[key])
            except ValueError as error:
                raise check.fail(str(error)) from None
    spec = WorldSpec(slimes=slimes, obstacles=obstacles, gravity=gravity, floor_height=floor_height, camera=camera,
                     name=name, description=description, events=_ordered(check, events), world=world)
    problem = start_overlap(spec)
    if problem:
        raise check.fail(problem)
    return spec


def _camera(check: _Checker, data) -> CameraSpec:
    data = check.table(data, "camera", CAMERA_KEYS)
    default = CameraSpec()
    return CameraSpec(
        yaw=check.number(data.get("yaw", default.yaw), "camera.yaw", limits.ANGLE, "degrees"),
        elevation=check.number(data.get("elevation", default.elevation), "camera.elevation", limits.CAMERA_ELEVATION, "degrees"),
        distance=check.number(data.get("distance", default.distance), "camera.distance", limits.CAMERA_DISTANCE, "m"),
        target=check.vector(data.get("target", list(default.target)), "camera.target"),
    )


def _slime(check: _Checker, data, where: str, gravity: tuple) -> SlimeSpec:
    data = check.table(data, where, SLIME_KEYS, ("center", "radius"))
    center = check.vector(data["center"], f"{where}.center")
    radius = check.number(data["radius"], f"{where}.radius", limits.SLIME_RADIUS, "m")
    stacks = check.integer(data.get("stacks", DEFAULT_RESOLUTION), f"{where}.stacks", limits.RESOLUTION)
    slices = check.integer(data.get("slices", DEFAULT_RESOLUTION), f"{where}.slices", limits.RESOLUTION)
    velocity = check.vector(data.get("velocity", [0.0, 0.0, 0.0]), f"{where}.velocity", None)
    if math.hypot(*velocity) > limits.LAUNCH_SPEED[1]:
        raise check.fail(f"{where}.velocity must be at most {limits.LAUNCH_SPEED[1]:g} m/s, got {math.hypot(*velocity):g}")
    color = None if data.get("color") is None else check.color(data["color"], f"{where}.color")
    look = _look(check, data.get("look", {}), f"{where}.look", color is not None)
    material = None if data.get("material") is None else _material(check, data["material"], f"{where}.material")
    params = _params(check, data.get("params", {}), f"{where}.params")
    spec = SlimeSpec(center=center, radius=radius, stacks=stacks, slices=slices, color=color, look=look,
                     params=params, velocity=velocity, material=material)
    try:
        spec.slime_params(gravity)  # SlimeParams' own checks: signs, ranges, the stiffness bound
    except ValueError as error:
        raise check.fail(f"{where}.params: {error}") from None
    return spec


def _look(check: _Checker, data, where: str, has_color: bool) -> dict:
    if not isinstance(data, dict):
        raise check.fail(f"{where} must be an object of SlimeLook fields, got {describe(data)}")
    if has_color and "color" in data:
        raise check.fail(f"{where}.color and the slime's color both set its colour: give one")
    look = {}
    for key, value in data.items():
        # JSON-ready values only (SlimeLook would take a dict's keys as a triple's numbers).
        if isinstance(value, (list, tuple)):
            look[key] = [check.number(v, f"{where}.{key}[{i}]") for i, v in enumerate(value)]
        elif isinstance(value, str) and key in ("color", *COLOR_FIELDS):
            look[key] = value  # "#rrggbb"
        else:
            look[key] = check.number(value, f"{where}.{key}")
    try:
        SlimeLook.from_dict(look)
    except ValueError as error:
        raise check.fail(f"{where}: {' '.join(str(error).split())}") from None
    return look


def _material(check: _Checker, data, where: str) -> str:
    try:
        return find_material(data).name
    except ValueError as error:
        raise check.fail(f"{where}: {error}") from None


def _params(check: _Checker, data, where: str) -> dict:
    if not isinstance(data, dict):
        raise check.fail(f"{where} must be an object of SlimeParams fields, got {describe(data)}")
    params = {}
    for key, value in data.items():
        if key in OWN_KEYS:
            raise check.fail(f"{where}.{key} is the slime's own key: set it beside params, not in it")
        if key in WORLD_KEYS:
            raise check.fail(f"{where}.{key} is the world's, the same for every slime: set it at the top of the file")
        try:
            param, note = parameters.find(key, PARAM_KEYS)  # an older name is read as the new one
        except ValueError as error:
            raise check.fail(f"{where}: {error}") from None
        if note:
            print(f"slime: note: {where}.{key}: {note}", file=sys.stderr)
        params[param.name] = check.number(value, f"{where}.{key}")
    return params


def _obstacle(check: _Checker, data, where: str) -> ObstacleSpec:
    kind = check.kind(data, where, KINDS)
    cls = KINDS[kind]
    data = check.table(data, f"{where} (a {kind})", ("kind", *cls.file_keys, "friction", "color"), cls.required)
    friction = check.number(data.get("friction", DEFAULT_FRICTION), f"{where}.friction", limits.FRICTION)
    color = None if data.get("color") is None else check.color(data["color"], f"{where}.color")
    return ObstacleSpec(kind, cls.read(check, data, where), friction=friction, color=color)


def _event(check: _Checker, data, where: str) -> Event:
    kind = check.kind(data, where, EVENT_KEYS)
    required, optional = EVENT_KEYS[kind]
    data = check.table(data, f"{where} (a {kind})", ("kind", "tick", *required, *optional), ("tick", *required))
    tick = check.integer(data["tick"], f"{where}.tick", (0, limits.FRAMES[1] - 1))
    values = {}
    for key in (*required, *optional):
        if key not in data:
            continue
        # Points and targets are places in the scene; a force, velocity or direction is not.
        vector = check.vector(data[key], f"{where}.{key}", limits.SCENE_EXTENT if key in ("point", "target") else None,
                              "m" if key in ("point", "target") else "")
        if key == "direction" and not any(vector):
            raise check.fail(f"{where}.direction must not be zero")
        if key == "force" and math.hypot(*vector) > limits.POKE_FORCE[1]:
            raise check.fail(f"{where}.force must be at most {limits.POKE_FORCE[1]:g} N long, got {math.hypot(*vector):g}")
        if key == "velocity" and math.hypot(*vector) > limits.LAUNCH_SPEED[1]:
            raise check.fail(f"{where}.velocity must be at most {limits.LAUNCH_SPEED[1]:g} m/s, got {math.hypot(*vector):g}")
        values[key] = vector
    return Event(kind, tick, values, where)


def _ordered(check: _Checker, events) -> tuple:
    """``events`` in the order they act (by tick, then as given), each drag or release after a
    grab and each unpress after a press."""
    ordered = tuple(sorted(events, key=lambda e: e.tick))
    holding = {"grab": False, "press": False}
    for event in ordered:
        need = EVENT_NEEDS.get(event.kind)
        if need is not None and not holding[need]:
            raise check.fail(f"{event.where or 'an event'}: a {event.kind} at tick {event.tick} has no {need} before it")
        if event.kind in holding:
            holding[event.kind] = True
        elif event.kind == "release":
            holding["grab"] = False
        elif event.kind == "unpress":
            holding["press"] = False
    return ordered


# --- a possible start -----------------------------------------------------------------------------


def start_overlap(spec: WorldSpec) -> str | None:
    """The first way the scene's rest spheres start where they cannot be (below the floor, inside
    an obstacle, inside each other), as one line; None when they all start free."""
    centers = np.array([s.center for s in spec.slimes], dtype=np.float64).reshape(-1, 3)
    radii = np.array([s.radius for s in spec.slimes], dtype=np.float64)
    depth_limit = radii - OVERLAP_TOLERANCE
    if spec.floor_height is not None:
        below = np.flatnonzero(centers[:, 1] - spec.floor_height < depth_limit)
        if below.size:
            i = int(below[0])
            return (f"slimes[{i}] starts below the floor: its bottom is at y = {centers[i, 1] - radii[i]:g}, "
                    f"the floor at {spec.floor_height:g}")
    gaps = np.linalg.norm(centers[:, None, :] - centers[None, :, :], axis=-1) - radii[:, None] - radii[None, :]
    gaps[np.tril_indices(len(radii))] = np.inf  # each pair once, no slime against itself
    pair = np.argwhere(gaps < -OVERLAP_TOLERANCE)
    if pair.size:
        i, j = (int(k) for k in pair[0])
        return f"slimes[{i}] and slimes[{j}] start overlapping by {-gaps[i, j]:.3g} m"
    for k, obstacle in enumerate(spec.obstacles):
        # The distance from each slime's centre to the obstacle's solid (0 inside it).
        distance = np.maximum(signed_distance(centers, [obstacle.obstacle()]), 0.0)
        inside = np.flatnonzero(distance < depth_limit)
        if inside.size:
            i = int(inside[0])
            return f"slimes[{i}] starts inside obstacles[{k}] (a {obstacle.kind}) by {radii[i] - distance[i]:.3g} m"
    return None


# --- writing ------------------------------------------------------------------------------------


def _floats(values) -> list:
    return [float(v) for v in values]


def spec_to_dict(spec: WorldSpec) -> dict:
    """The scene as JSON-ready values, in the file format (world_spec_from_dict reads it back equal)."""
    out = {"name": spec.name, "description": spec.description, "gravity": _floats(spec.gravity),
           "floor_height": spec.floor_height, **spec.world}
    if spec.camera is not None:
        c = spec.camera
        out["camera"] = {"yaw": c.yaw, "elevation": c.elevation, "distance": c.distance, "target": _floats(c.target)}
    slimes = []
    for s in spec.slimes:
        item = {"center": _floats(s.center), "radius": s.radius, "stacks": s.stacks, "slices": s.slices,
                "velocity": _floats(s.velocity)}
        if s.color is not None:
            item["color"] = _floats(s.color)
        if s.look:
            item["look"] = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in s.look.items()}
        if s.material is not None:
            item["material"] = s.material
        if s.params:
            item["params"] = dict(s.params)
        slimes.append(item)
    out["slimes"] = slimes
    obstacles = []
    for o in spec.obstacles:
        item = {"kind": o.kind}
        item.update((k, _floats(v) if isinstance(v, (tuple, list)) else v) for k, v in o.values.items())
        item["friction"] = o.friction
        if o.color is not None:
            item["color"] = _floats(o.color)
        obstacles.append(item)
    out["obstacles"] = obstacles
    if spec.events:
        out["events"] = [{"kind": e.kind, "tick": e.tick, **{k: _floats(v) for k, v in e.values.items()}}
                         for e in spec.events]
    return out


def dumps_world(data: dict) -> str:
    """JSON a person reads and edits: each vector on one line, each slime or obstacle on one
    line where it fits in 100 characters."""
    return _dumps(data, 0) + "\n"


def _dumps(value, depth: int) -> str:
    flat = json.dumps(value, allow_nan=False, separators=(", ", ": "))
    nested = isinstance(value, (dict, list)) and any(
        isinstance(v, (dict, list)) and (isinstance(v, dict) or any(isinstance(w, (dict, list)) for w in v))
        for v in (value.values() if isinstance(value, dict) else value))
    if not isinstance(value, (dict, list)) or (not nested and len(flat) + 2 * depth <= 100):
        return flat
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        body = [f"{inner}{json.dumps(k)}: {_dumps(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(body) + f"\n{pad}}}"
    return "[\n" + ",\n".join(f"{inner}{_dumps(v, depth + 1)}" for v in value) + f"\n{pad}]"


def save_world_spec(spec: WorldSpec, path) -> Path:
    """Write the scene file, atomically (a temp file beside it, then rename)."""
    path = Path(path)
    text = dumps_world(spec_to_dict(spec))
    atomic_write(path, lambda out: out.write(text.encode("utf-8")))
    return path


# --- the bundled scenes ---------------------------------------------------------------------------


def world_scene_names() -> list[str]:
    """The bundled 3D scenes, in the order `slime scenes` lists them."""
    return list(WORLD_SCENES)


def world_scene_path(name: str) -> Path:
    if name not in WORLD_SCENES:
        raise SceneError(f"unknown 3D scene {name!r}; choose one of: {', '.join(WORLD_SCENES)}")
    return ASSETS / f"{name}.json"


def lone_slime_spec(stacks: int | None = None, slices: int | None = None, color=None, settings=None) -> WorldSpec:
    """``slime``, the scene of ``slime render`` and ``slime simulate slime``: SlimeParams' own
    slime (radius 1 m, resting on the floor at y = 0) at ``stacks`` x
    ``slices`` (default SlimeParams'), coloured ``color`` (RGB 0..1 or "#rrggbb"; default the
    look's), seen from ``CameraSpec``'s view of it: a three-quarter view from a little above, 4.6
    radii out, that stays put (a slime pushed away is seen going); ``settings`` ({name: value} of
    declared parameters, ``--set``) on it and its world, its centre and the view following its
    radius and floor. Checked as a file's slimes are, with the same one-line errors (WorldFileError)."""
    settings = dict(settings or {})
    try:
        default = SlimeParams(**settings)
    except ValueError as error:
        raise WorldFileError(f"{LONE_SLIME}: {error}") from None
    radius, floor, (x, _, z) = default.radius, default.floor_height, default.center
    slime = {"center": list(default.center), "radius": radius,
             "stacks": default.stacks if stacks is None else stacks,
             "slices": default.slices if slices is None else slices}
    if color is not None:
        slime["color"] = color if isinstance(color, str) else list(color)
    view = CameraSpec()
    camera = {"yaw": view.yaw, "elevation": view.elevation, "distance": view.distance * radius,
              "target": [x, floor + view.target[1] * radius, z]}
    spec = world_spec_from_dict({"name": LONE_SLIME, "gravity": list(default.gravity), "camera": camera,
                                 "floor_height": default.floor_height, "slimes": [slime]}, LONE_SLIME)
    return spec.with_settings(settings, LONE_SLIME)


def load_world_scene(name_or_path) -> WorldSpec:
    """A bundled 3D scene by name (``pile``; ``slime``: ``lone_slime_spec()``), or a 3D scene file
    by its path."""
    if isinstance(name_or_path, str) and name_or_path == LONE_SLIME:
        return lone_slime_spec()
    if isinstance(name_or_path, str) and name_or_path in WORLD_SCENES:
        return load_world_spec(world_scene_path(name_or_path))
    return load_world_spec(name_or_path)


__all__ = ["CameraSpec", "Event", "ObstacleSpec", "SlimeSpec", "WorldFileError", "WorldSpec", "WORLD_SCENES", "is_world_file",
           "LONE_SLIME", "load_world_scene", "load_world_spec", "lone_slime_spec", "save_world_spec", "spec_to_dict", "start_overlap",
           "world_scene_names", "world_scene_path", "world_spec_from_dict"]
