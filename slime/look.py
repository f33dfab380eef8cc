"""How the slime looks, as data: one dataclass, ``SlimeLook``, read by ``shaders/slime.frag`` (the
jelly), ``shaders/backdrop.frag`` and ``shaders/floor_shadow.frag`` (sky, floor, shadows).

Set it from the demo's panel (colour pickers), from the command line (``--color``), or from a
dictionary (a 3D scene file): ``SlimeLook.from_dict({"color": "#33cc66", "glow": 0.5})``.
Numbers only, no OpenGL: the command line and scene loaders import it without a context.

The jelly is drawn in one pass over its front surface; per pixel:

- **Thickness** ``d``: the distance the view ray travels inside the body (front face to back face,
  measured from a pass over the back faces), in metres.
- **Absorption** (Beer-Lambert): the light from behind is multiplied by ``exp(-absorption * d)``
  per channel, so a thick slime is deeper in colour than a squashed one.
- **Refraction**: the background is sampled where the view ray, bent at the surface by the index
  ``refraction`` and carried ``d * refraction_depth`` through the body, lands on screen.
- **Scatter**: light lost to absorption comes back as the body's own colour, from ``deep_color``
  (thin or unlit) to ``glow_color`` (lit and thick), scaled by ``glow``.
- **Fresnel** (Schlick): reflection of the sky and floor rises from ``fresnel`` at normal incidence
  to 1 at grazing angles; a back-light ``rim`` brightens the silhouette.
- **Highlights**: Blinn-Phong lobes of the key light (``highlight`` strength, ``shininess``) and a
  weaker one of the fill light.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields, replace

import numpy as np

RGB = tuple  # (r, g, b), each 0..1


def _unit(v) -> tuple:
    v = np.asarray(v, dtype=np.float64)
    return tuple(float(x) for x in v / np.linalg.norm(v))


# Ranges every field is checked against (from_dict, the panel's sliders): name -> (low, high).
RANGES = {
    "absorption": (0.0, 50.0),  # per metre, each channel
    "glow": (0.0, 4.0),
    "rim": (0.0, 4.0),
    "fresnel": (0.0, 1.0),
    "highlight": (0.0, 10.0),
    "shininess": (1.0, 2000.0),
    "refraction": (1.0, 3.0),
    "refraction_depth": (0.0, 5.0),
    "checker_cell": (0.01, 100.0),
    "fog_distance": (0.1, 10000.0),
}
COLOR_FIELDS = ("deep_color", "glow_color", "shadow_tint", "sky_top", "sky_horizon", "floor_light", "floor_dark")
DIRECTION_FIELDS = ("key_dir", "fill_dir")


@dataclass
class SlimeLook:
    """Colours, light and optics of the jelly and its backdrop; the defaults make a green-teal
    jelly on a pale checker floor. Colours are linear RGB triples 0..1."""

    # The jelly
    deep_color: RGB = (0.06, 0.50, 0.34)   # scattered colour where the body is thin or unlit
    glow_color: RGB = (0.50, 1.00, 0.66)   # scattered colour where light goes through a lot of body
    absorption: RGB = (1.9, 0.36, 0.75)    # Beer-Lambert, per metre of jelly (red absorbed most)
    glow: float = 1.0                      # strength of the light scattered out of the body
    rim: float = 0.45                      # back-light rim on the silhouette
    fresnel: float = 0.03                  # reflectance at normal incidence (water and jelly: ~0.02-0.04)
    highlight: float = 2.0                 # key light's sharp highlight
    shininess: float = 400.0               # Blinn-Phong exponent of that highlight (larger: smaller, sharper)
    refraction: float = 1.33               # index of refraction (1: no bending)
    refraction_depth: float = 1.2          # how far the bent ray runs, in body thicknesses, before it meets the background
    # Lights (unit vectors toward them)
    key_dir: tuple = field(default_factory=lambda: _unit([-0.45, 1.0, 0.55]))
    fill_dir: tuple = field(default_factory=lambda: _unit([0.6, 0.35, -0.9]))
    # The backdrop
    shadow_tint: RGB = (0.35, 0.48, 0.42)  # the contact shadow's colour at its darkest (light through jelly)
    sky_top: RGB = (0.62, 0.76, 0.90)
    sky_horizon: RGB = (0.93, 0.94, 0.93)  # also the haze the floor fades into
    floor_light: RGB = (0.95, 0.94, 0.91)
    floor_dark: RGB = (0.80, 0.83, 0.86)
    checker_cell: float = 0.4              # checker cell size, metres
    fog_distance: float = 14.0             # metres at which the floor is 63 % haze

    def __post_init__(self):
        for name in COLOR_FIELDS:
            setattr(self, name, _color(getattr(self, name), name))
        self.absorption = _triple(self.absorption, "absorption", *RANGES["absorption"])
        for name in DIRECTION_FIELDS:
            v = _triple(getattr(self, name), name, -1e6, 1e6)
            if math.hypot(*v) < 1e-9:
                raise ValueError(f"look {name} must not be the zero vector")
            setattr(self, name, _unit(v))
        for f in fields(self):
            if f.name in RANGES and f.name != "absorption":
                setattr(self, f.name, _number(getattr(self, f.name), f.name, *RANGES[f.name]))

    # --- one colour for the whole jelly ----------------------------------------------------
    def with_color(self, color) -> "SlimeLook":
        """This look with the jelly recoloured from one colour: the scatter colours are darker and
        lighter shades of it, and the absorption lets that colour through (a channel at 1 passes
        unabsorbed, one near 0 is absorbed fastest). ``color``: RGB 0..1 or ``#rrggbb``."""
        rgb = np.asarray(_color(color, "color"))
        peak = max(float(rgb.max()), 1e-3)
        hue = rgb / peak  # the colour at full brightness: absorption follows the hue, not the brightness
        absorption = np.clip(-np.log(np.clip(hue, 0.05, 1.0)) * ABSORPTION_PER_OPTICAL_DEPTH + 0.25, 0.0, 50.0)
        return replace(
            self,
            deep_color=tuple(rgb * 0.62),
            glow_color=tuple(np.clip(0.55 * hue + 0.45, 0.0, 1.0)),
            absorption=tuple(absorption),
        )

    # --- dictionaries (scene files) ----------------------------------------------------------
    def to_dict(self) -> dict:
        """Plain JSON-ready values (lists of floats), every field."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = [float(x) for x in value] if isinstance(value, tuple) else float(value)
        return out

    @classmethod
    def from_dict(cls, data: dict, base: "SlimeLook | None" = None) -> "SlimeLook":
        """A look from ``data``: any subset of the fields (colours as [r, g, b] 0..1 or ``#rrggbb``),
        plus ``color`` (applied first, see ``with_color``); the rest from ``base`` (default: the
        defaults). Unknown keys and bad values raise one-line ValueErrors naming the key."""
        if not isinstance(data, dict):
            raise ValueError(f"look must be a table of fields, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names - {"color"})
        if unknown:
            raise ValueError(f"unknown look field {unknown[0]!r}; known: color, {', '.join(sorted(names))}")
        look = base if base is not None else cls()
        if "color" in data:
            look = look.with_color(data["color"])
        changes = {k: v for k, v in data.items() if k != "color"}
        return replace(look, **changes)


def slime_look(color=None) -> SlimeLook:
    """The single slime's look: the defaults, recoloured by ``color`` (``--color``) when given. One
    function, so ``slime render`` and the glTF export of the same command line show the same jelly."""
    return SlimeLook() if color is None else SlimeLook().with_color(color)


# with_color: absorption per metre for each unit of -ln(hue); a 2 m round slime then passes
# exp(-2 * 1.1 * 3.0) ~ 0.1 % of a channel at 5 % of the hue (the deep tint of the default look).
ABSORPTION_PER_OPTICAL_DEPTH = 1.1


_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


def parse_color(text: str) -> tuple:
    """``R,G,B`` (each 0..1) or ``#rrggbb`` -> an RGB triple 0..1; a bad value raises a one-line
    ValueError that says which forms are accepted."""
    return _color(text, "color")


def _color(value, name: str) -> tuple:
    if not isinstance(value, str):
        return _triple(value, name, 0.0, 1.0)
    text = value.strip()
    match = _HEX.match(text)
    if match and (text.startswith("#") or "," not in text):
        digits = match.group(1)
        return tuple(int(digits[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
    try:
        return _triple(text.split(","), name, 0.0, 1.0)
    except ValueError:
        raise ValueError(f"{name} {value!r} is not a colour: give R,G,B (each 0 to 1, e.g. 0.2,0.8,0.4) "
                         "or #rrggbb") from None


def _triple(value, name: str, low: float, high: float) -> tuple:
    try:
        items = [float(v) for v in value]
    except (TypeError, ValueError):
        raise ValueError(f"look {name} must be 3 numbers, got {value!r}") from None
    if len(items) != 3 or not all(math.isfinite(v) for v in items):
        raise ValueError(f"look {name} must be 3 finite numbers, got {value!r}")
    if not all(low <= v <= high for v in items):
        raise ValueError(f"look {name} must have each value from {low:g} to {high:g}, got {value!r}")
    return tuple(items)


def _number(value, name: str, low: float, high: float) -> float:
    if isinstance(value, bool):
        raise ValueError(f"look {name} must be a number, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"look {name} must be a number, got {value!r}") from None
    if not (math.isfinite(number) and low <= number <= high):
        raise ValueError(f"look {name} must be from {low:g} to {high:g}, got {value!r}")
    return number
