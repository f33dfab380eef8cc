"""What a slime can be made of: named materials, each some values of the material group's
parameters (``slime/physics/parameters.py``) over their declared defaults, and one line on what it
is. Jelly is the default, and the declared defaults are jelly's: it sets none of its own.

The units are the declarations' (stiffnesses per unit mass, 1/s^2; rates 1/s; the surface
tension N/m; the shear viscosity m^2/s; the shear stiffness m^2/s^2; the adhesion m/s^2), so a material is the same at any
size and any mesh resolution. ``slime bench --only feel`` measures each one.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from slime.physics import parameters


@dataclass(frozen=True)
class NamedMaterial:
    name: str
    about: str  # one line: what it is and how it moves
    given: MappingProxyType  # the material parameters it sets; the others are the declared defaults
    # How close (a fraction of its height and width) it comes back to the shape it rests in
    # untouched, once left alone after any abuse (``bench.fuzz.came_back``): a slump settles
    # wherever the last push left it, within a wider margin.
    settles_within: float = 0.10

    @property
    def values(self) -> dict:
        """Every material parameter: its own, and the declared default of each it does not set."""
        return {p.name: self.given.get(p.name, p.default) for p in parameters.group("material")}


def _material(name: str, about: str, settles_within: float = 0.10, **values) -> NamedMaterial:
    for key, value in values.items():
        param, _ = parameters.find(key, [p.name for p in parameters.group("material")])
        param.check(value)
    return NamedMaterial(name, about, MappingProxyType(values), settles_within)


MATERIALS = {m.name: m for m in (
    _material(
        "jelly", "wobbly gelatine: a click dents it deep, it rings a few times, a drop splats and sticks"),
    # Goo's wet skin takes 0.6 of a surface's friction (0.48 on the default floor). At the
    # floor's full 0.8, a fold that a splat tucks under the rim of a fine mesh's puddle is held
    # by its own weight and the film's hold: 2.5 s to slide out after a throw lands, at 128 x
    # 128; at 0.48 it is out in 1.5 s, and a thrown goo still comes to rest where it lands
    # (``slime bench --only feel``).
    _material(
        "goo", "runny slime: slumps under its own weight and flows into the shape of what holds it",
        settles_within=0.15,
        volume_stiffness=10000.0, shape_stiffness=20.0, viscosity=10.0, surface_tension=0.3, shear_viscosity=0.5,
        shear_stiffness=10.0, air_drag=0.05, contact_friction=0.8, grip=0.6, adhesion=400.0),
    # Rubber keeps its volume ten times more stiffly than its shape, as real rubber, all but
    # incompressible, does: a landing squashes it into a bulge, not into less of it.
    _material(
        "rubber", "a bouncy ball: a click barely dents it, and it bounces back high",
        volume_stiffness=60000.0, shape_stiffness=6000.0, viscosity=2.0, surface_tension=2.0, shear_viscosity=0.12, shear_stiffness=2.0,
        air_drag=0.05, contact_friction=0.8, grip=1.0, adhesion=0.0),
)}
DEFAULT_MATERIAL = "jelly"


def find_material(name) -> NamedMaterial:
    """The material called ``name``; a ValueError naming the known ones otherwise."""
    found = MATERIALS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown material {name!r}: choose one of {', '.join(MATERIALS)}")
    return found
