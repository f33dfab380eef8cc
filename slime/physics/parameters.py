"""Every parameter of the 3D slime a user sets, each declared once: its name, what it is, its
unit, its default, its range and its group (``GROUPS``). Everything else is made from these
declarations: ``SlimeParams`` and its groups' records (``slime3d/slime_params.py``) and their
checks, the compiled model's per-body and per-vertex columns (``slime3d/step.py``'s
``build_model``), the named materials (``slime3d/materials.py``, data over the material group),
the scene file's ``"params"`` keys, every command's ``--set NAME=VALUE``, the window panel's
sliders (a declaration's ``slider``), README's parameter table and ``slime params``.

The slime's own parameters are declared below, one table per group. A force of its own module
declares its parameter there, beside its kernel (``declare``; docs/2-add-a-force.md): the module
is imported by ``step.py``, whose loop adds its part, and with that the parameter is everywhere
the others are.

Units: metres, kilograms, seconds. The two stiffnesses are per unit mass (1/s^2) so they read as
squared angular frequencies and do not change with the mesh resolution (``slime_params.py`` says
what each term does).
"""

from __future__ import annotations

import difflib
import math
import sys
from dataclasses import dataclass, field

from slime import limits

# The groups, in the order they are listed: the body's size and mesh; what it is made of; the
# world every slime of it shares (gravity, the floor, the time step and the bounds every substep
# holds); the hand (the grab, the poke, the finger).
GROUPS = ("body", "material", "world", "hand")
INF = math.inf


@dataclass(frozen=True)
class Slider:
    """A declaration's slider in the slime window's panel: its range (within the parameter's own),
    its printf format and whether it moves logarithmically. A vector's slider moves its downward
    (-y) part."""

    low: float
    high: float
    format: str = "%.2f"
    logarithmic: bool = False
    rebuilds: bool = False  # moving it remakes every slime (a new mesh), letting go of what the hand holds


@dataclass(frozen=True)
class Param:
    """One parameter, as declared (``declare``)."""

    name: str
    group: str
    default: object
    unit: str
    low: float
    high: float
    about: str
    kind: str = "number"  # "number", "integer" or "vector" (a 3-vector; the range bounds its length)
    above: bool = False  # ``low`` itself is refused: the value must be more than it (a positive quantity)
    column: str | None = None  # what the compiled model holds of it: "body" (B,), "vertex" (P,) or None
    slider: Slider | None = None
    renamed_from: tuple = ()  # older names, still read with a one-line note
    home: str = field(default="", compare=False)  # the module that declares it

    @property
    def label(self) -> str:
        """How the panel and tables say it: ``surface tension``."""
        return self.name.replace("_", " ")

    def range_text(self) -> str:
        """Its range as help and errors say it: ``0 to 1e+06 1/s``, ``more than 0 m/s``, ``3 to 512``."""
        unit = f" {self.unit}" if self.unit else ""
        if self.kind == "vector":
            return f"at most {self.high:g}{unit} long"
        if self.high == INF:
            return (f"more than {self.low:g}" if self.above else f"{self.low:g} or more") + unit
        if self.above:
            return f"more than {self.low:g} and at most {self.high:g}{unit}"
        return f"{self.low:g} to {self.high:g}{unit}"

    def check(self, value):
        """``value`` as this parameter holds it (a float, an int, a tuple of 3 floats), or one
        ValueError of one line naming it, the value, the range and the unit."""
        if self.kind == "integer":
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
                raise ValueError(f"{self.name} must be an integer, got {value!r}")
            value = int(value)
            if not self.low <= value <= self.high:
                raise ValueError(f"{self.name} must be {self.range_text()}, got {value}")
            return value
        if self.kind == "vector":
            vector = tuple(float(v) for v in limits.vector3(self.name, value))
            if math.hypot(*vector) > self.high:
                raise ValueError(f"{self.name} must be {self.range_text()}, got {math.hypot(*vector):g}")
            return vector
        if isinstance(value, bool):
            raise ValueError(f"{self.name} must be a number, got {value!r}")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{self.name} must be a number, got {value!r}") from None
        if not math.isfinite(number):
            raise ValueError(f"{self.name} must be finite, got {value!r}")
        if number < self.low or (self.above and number <= self.low) or number > self.high:
            raise ValueError(f"{self.name} must be {self.range_text()}, got {number:g}")
        return number

    def parse(self, text: str):
        """The value a command line's text says (``0.8``, ``12``, ``0,-9.81,0``), checked."""
        if self.kind == "vector":
            parts = text.split(",")
            try:
                value = [float(p) for p in parts]
            except ValueError:
                raise ValueError(f"{self.name} must be 3 comma-separated numbers in {self.unit or 'no unit'}, "
                                 f"got {text!r}") from None
        elif self.kind == "integer":
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{self.name} must be a whole number ({self.range_text()}), got {text!r}") from None
        else:
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{self.name} must be a number ({self.range_text()}), got {text!r}") from None
        return self.check(value)


PARAMETERS: dict[str, Param] = {}
_RENAMED: dict[str, str] = {}


def declare(name: str, group: str, default, unit: str, low: float, high: float, about: str, **more) -> Param:
    """Declare a parameter (the fields of ``Param``); a material parameter is a per-body column of
    the compiled model unless ``column`` says otherwise. Declared once: a second declaration of the
    same name is refused unless it is the same."""
    if group not in GROUPS:
        raise ValueError(f"parameter {name}: unknown group {group!r}; choose one of {', '.join(GROUPS)}")
    more.setdefault("column", "body" if group == "material" else None)
    more.setdefault("home", sys._getframe(1).f_globals.get("__name__", ""))
    param = Param(name, group, default, unit, float(low), float(high), about, **more)
    if name in PARAMETERS and PARAMETERS[name] != param:
        raise ValueError(f"parameter {name} is declared twice")
    param.check(default)
    PARAMETERS[name] = param
    for old in param.renamed_from:
        _RENAMED[old] = name
    return param


def group(name: str) -> tuple:
    """The declarations of one group, in the order they were declared."""
    return tuple(p for p in PARAMETERS.values() if p.group == name)


def ordered() -> tuple:
    """Every declaration, group by group (``GROUPS``)."""
    return tuple(p for g in GROUPS for p in group(g))


def find(name: str, known=None) -> tuple[Param, str | None]:
    """(the declaration called ``name``, a one-line note when it is an older name, else None); a
    ValueError of one line listing the known names, nearest first, for a name that is none."""
    known = list(PARAMETERS) if known is None else list(known)
    if name in _RENAMED and _RENAMED[name] in known:
        new = _RENAMED[name]
        return PARAMETERS[new], f"{name} is now called {new}"
    if name in known:
        return PARAMETERS[name], None
    near = difflib.get_close_matches(name, known, n=len(known), cutoff=0.0)
    raise ValueError(f"unknown parameter {name[:40]!r}; known (nearest first): {', '.join(near)}")


def parse_setting(text: str, known=None) -> tuple[str, object, str | None]:
    """``NAME=VALUE`` (a ``--set``) -> (name, checked value, the note of an older name or None)."""
    name, equals, value = text.partition("=")
    name = name.strip()
    if not equals or not name:
        raise ValueError(f"--set {text!r}: expected NAME=VALUE, e.g. viscosity=8")
    param, note = find(name, known)
    return param.name, param.parse(value.strip()), note


PANEL_ORDER = ("material", "world", "body", "hand")  # the panel's sliders: what a slime is made of first


def sliders() -> tuple:
    """The declarations with a panel slider, in the panel's order (``PANEL_ORDER``)."""
    return tuple(p for g in PANEL_ORDER for p in group(g) if p.slider is not None)


def as_dict(param: Param) -> dict:
    """A declaration as JSON-ready values (``slime params --json``)."""
    number = lambda v: v if math.isfinite(v) else None  # noqa: E731 (JSON has no infinity)
    default = list(param.default) if isinstance(param.default, tuple) else param.default
    return {"name": param.name, "group": param.group, "default": default, "unit": param.unit,
            "low": number(param.low), "high": number(param.high), "above_low": param.above, "kind": param.kind,
            "range": param.range_text(), "about": param.about,
            "slider": None if param.slider is None else [param.slider.low, param.slider.high]}


def markdown_table() -> str:
    """README's parameter table: every declaration, group by group."""
    rows = ["| parameter | group | default | range | what it is |", "|---|---|---|---|---|"]
    for p in ordered():
        default = ", ".join(f"{v:g}" for v in p.default) if isinstance(p.default, tuple) else f"{p.default:g}"
        rows.append(f"| `{p.name}` | {p.group} | {default} | {p.range_text()} | {p.about} |")
    return "\n".join(rows)


# --- the body: its size and mesh ------------------------------------------------------------------
_B = "body"
declare("radius", _B, 1.0, "m", *limits.SLIME_RADIUS, "the rest sphere's radius")
declare("stacks", _B, 32, "", *limits.RESOLUTION, "latitude divisions of the mesh, pole to pole", kind="integer",
        slider=Slider(*limits.RESOLUTION, "%d", logarithmic=True, rebuilds=True))
declare("slices", _B, 32, "", *limits.RESOLUTION, "longitude divisions of the mesh, around", kind="integer",
        slider=Slider(*limits.RESOLUTION, "%d", logarithmic=True, rebuilds=True))
declare("mass", _B, 1.0, "kg", *limits.SLIME_MASS,
        "the total mass, spread over the vertices by their share of the rest surface")

# --- the material: what a slime is made of (materials.py names sets of these) -------------------------
# Jelly's values are the defaults. The stiffnesses have no top of their own: how stiff a slime may
# be depends on its mesh and the time step, and past what the substeps can carry it is refused
# as "too stiff" (slime3d/stability.py). The kernels read the volume stiffness and the surface
# tension through what ``SlimeShape`` derives from them, and the contact friction through the
# contacts' body table: no column of their own (each a column is one more array every call of
# the compiled step unpacks).
_M = "material"
declare("viscosity", _M, 4.0, "1/s", *limits.DAMPING_RATE,
        "decay rate of motion relative to the body's own rigid motion", slider=Slider(*limits.VISCOSITY))
declare("surface_tension", _M, 2.0, "N/m", 0.0, INF, "the skin's pull toward less area (rounds dents and folds)",
        slider=Slider(*limits.SURFACE_TENSION, "%.2f N/m"), column=None)
declare("volume_stiffness", _M, 10000.0, "1/s^2", 0.0, INF,
        "the breathing mode's omega^2: how hard the pressure holds the volume",
        slider=Slider(*limits.VOLUME_STIFFNESS, "%.0f", logarithmic=True), column=None)
declare("shape_stiffness", _M, 450.0, "1/s^2", 0.0, INF,
        "the pull toward the best-fit turned rest sphere (the surface wobbles at about its square root, rad/s)",
        slider=Slider(*limits.SHAPE_STIFFNESS, "%.0f", logarithmic=True))
declare("shear_viscosity", _M, 0.12, "m^2/s", 0.0, INF,
        "kinematic viscosity on velocity differences between neighbours (no creases)")
declare("shear_stiffness", _M, 2.0, "m^2/s^2", 0.0, INF, "G / rho: how hard neighbours spring back into place")
declare("air_drag", _M, 0.05, "1/s", *limits.DAMPING_RATE, "decay rate of the absolute velocity")
declare("contact_friction", _M, 0.5, "", *limits.FRICTION,
        "Coulomb coefficient against other slimes (a pair takes the geometric mean)", column=None)
declare("grip", _M, 1.0, "", *limits.FRICTION,
        "the share of the floor's and obstacles' friction its skin takes: 1 dry, less where a wet film slips",
        column="vertex")
declare("adhesion", _M, 400.0, "m/s^2", 0.0, INF, "how hard a surface leaving the floor or a wall is held back")

# --- the world: what every slime of it shares ------------------------------------------------------------
_W = "world"
declare("gravity", _W, (0.0, -9.81, 0.0), "m/s^2", *limits.GRAVITY, "the acceleration of gravity", kind="vector",
        slider=Slider(*limits.GRAVITY, "%.2f m/s2"))
declare("floor_height", _W, 0.0, "m", *limits.SCENE_EXTENT, "y of the floor plane (its normal is +y)")
declare("floor_friction", _W, 0.8, "", *limits.FRICTION, "Coulomb coefficient of the floor")
declare("floor_restitution", _W, 0.0, "", 0.0, 1.0,
        "how much of its speed into the floor a surface keeps, bouncing off (0: none; the body still rebounds)")
declare("dt", _W, 1.0 / 60.0, "s", 0.0, 1.0, "one frame", above=True)
declare("substeps", _W, 8, "", *limits.SUBSTEPS,
        "symplectic Euler substeps a frame, at least (stiff terms take more: slime3d/stability.py)", kind="integer")
declare("max_speed", _W, 40.0, "m/s", 0.0, INF, "each velocity component is held within this, every substep",
        above=True)
declare("max_acceleration", _W, 1.0e4, "m/s^2", 0.0, INF,
        "each component of the internal and drag acceleration is held within this", above=True, column="vertex")

# --- the hand: the grab, the poke and the finger ----------------------------------------------------------
_H = "hand"
declare("grab_rate", _H, 40.0, "1/s", 0.0, INF, "a grab closes the gap to its target at this rate (critically damped)",
        above=True)
declare("grab_falloff", _H, 0.8, "radii", 0.0, INF, "the grabbed neighbourhood's radius", above=True)
declare("poke_spread", _H, 2.0, "radii", 0.0, INF, "a poke's falloff radius (broad: a round dent)", above=True)
declare("finger_radius", _H, 0.3, "radii", 0.0, INF, "the fingertip ball's radius", above=True)
declare("finger_spread", _H, 1.75, "radii", 0.0, INF,
        "how far round the fingertip the surface sinks with it (Wendland falloff)", above=True)
declare("finger_depth", _H, 1.25, "radii", 0.0, INF, "how deep a held press pushes in", above=True)
declare("finger_speed", _H, 3.0, "radii/s", 0.0, INF, "how fast the finger moves in while held", above=True)
declare("finger_rate", _H, 200.0, "1/s", 0.0, INF, "as grab_rate, for the finger (firmer than the shape, so the dent forms)",
        above=True)
