"""The 3D slime's parameters as records: ``SlimeParams``, the flat, validated record a user writes
(keyword arguments, scene files, ``--set``, the panel's sliders), and the records of its groups.
Each parameter is declared once, in ``slime/physics/parameters.py`` (or beside its force's kernel):
its name, unit, default and range there make the fields and the checks here.

What ``SlimeParams`` holds belongs to four owners, and each part is read as a unit of its own:
the body's shape and mesh (radius, stacks, slices, mass, center), its ``Material`` (what it is
made of: ``params.material``), the ``WorldSettings`` every slime of a world shares (gravity, the
floor, the time step, the safety bounds: ``params.world``; ``World3D`` holds one and gives it to
each slime it takes in), and the ``HandSettings`` of the grab, the poke and the finger
(``params.hand``).

Units: metres, kilograms, seconds. The two stiffnesses are per unit mass (1/s^2) so they read as
squared angular frequencies and do not change with the mesh resolution:

* ``shape_stiffness`` k_s: a vertex pulled a distance d from its goal (the rest sphere moved to the
  current centroid and turned by the best-fit rotation) accelerates by k_s * d; the surface wobbles
  at about sqrt(k_s) rad/s.
* ``volume_stiffness`` k_v: the pressure is scaled so that the sphere's breathing mode has
  omega^2 = k_v (+ k_s); a relative volume error e gives a pressure k_v * M * R / (3 A0) * e.

Rates (1/s): ``viscosity`` damps velocity relative to the body's own rigid motion (linear and
angular), ``air_drag`` damps absolute velocity; both are applied exactly-exponentially per
substep so they are stable for any value. ``shear_viscosity`` nu (m^2/s) is the jelly's kinematic
viscosity, nu times the Laplacian of the deformation velocity: a ripple of wavelength lambda dies
at about nu (2 pi / lambda)^2 per second, so a crease a slam starts between neighbouring vertices
is gone within a substep while the whole-body wobble hardly feels it; it too is applied
exactly-exponentially.

Friction: a Coulomb coefficient belongs to a pair of surfaces. Against another slime, the pair
takes the geometric mean of the two ``contact_friction``s; against the floor or an obstacle, the
surface's own coefficient (``floor_friction``, an obstacle's ``friction``) times the material's
``grip``, the share of it its skin takes (1 for a dry skin, less for a wet one that slips).
"""

from __future__ import annotations

from dataclasses import field, fields, make_dataclass, replace
from functools import cached_property

from slime.limits import vector3
from slime.physics import parameters
import slime.physics.slime3d.step  # noqa: F401 (the step imports the forces, and each declares its parameters)
from slime.physics.slime3d.materials import find_material
from slime.physics.slime3d.stability import substeps_needed


def _check_fields(record) -> None:
    """Every field of a record that is a declared parameter, checked and held as its declaration
    says (one line naming the parameter, the value, its range and unit otherwise)."""
    for f in fields(record):
        if f.name in parameters.PARAMETERS:
            object.__setattr__(record, f.name, parameters.PARAMETERS[f.name].check(getattr(record, f.name)))


def _record(name: str, doc: str, declared, **namespace):
    """A frozen dataclass with a field per declaration of ``declared``, defaults as declared."""
    cls = make_dataclass(name, [(p.name, object, field(default=p.default)) for p in declared],
                         namespace={"__post_init__": _check_fields, **namespace}, frozen=True)
    cls.__module__, cls.__doc__ = __name__, doc
    return cls


Material = _record("Material", """What a slime is made of (the material group of ``parameters.py``): per-mass
    stiffnesses (1/s^2) and rates (1/s), so the same material behaves the same at any size and mesh.""",
                   parameters.group("material"))
WorldSettings = _record("WorldSettings", """What every slime of a world shares: gravity, the floor, the time
    step and its substeps, and the bounds every substep holds speeds and accelerations within.""",
                        parameters.group("world"))
HandSettings = _record("HandSettings", """How the hand takes hold of a slime: the grab's pull, a poke's spread,
    the finger's press.""", parameters.group("hand"))


def _names(group) -> tuple:
    return tuple(f.name for f in fields(group))


class _SlimeParams:
    """The slime's shape, material, world and hand settings: every declared parameter
    (``parameters.py``), and ``center``, where it starts (None: resting on the floor, at
    floor_height + radius)."""

    def __post_init__(self):
        _check_fields(self)
        # The body-wide stiffnesses need no mesh to say how many substeps they take: too many is
        # refused here (the surface tension's share is added per mesh, ``SlimeShape``).
        substeps_needed(self.dt, self.shape_stiffness, self.volume_stiffness, 0.0, 0.0, 0.0, 0.0)
        if self.center is None:
            object.__setattr__(self, "center", self._auto_center())
        else:
            object.__setattr__(self, "center", tuple(float(v) for v in vector3("center", self.center)))

    def _auto_center(self) -> tuple[float, float, float]:
        return (0.0, float(self.floor_height) + float(self.radius), 0.0)

    # Made once a record (it never changes): the hand reads its settings every substep.
    @cached_property
    def material(self) -> Material:
        return Material(**{name: getattr(self, name) for name in _names(Material)})

    @cached_property
    def world(self) -> WorldSettings:
        return WorldSettings(**{name: getattr(self, name) for name in _names(WorldSettings)})

    @cached_property
    def hand(self) -> HandSettings:
        return HandSettings(**{name: getattr(self, name) for name in _names(HandSettings)})

    @classmethod
    def of_material(cls, name: str, **changes) -> "SlimeParams":
        """The parameters of the named material (``materials.py``), with ``changes`` on top."""
        return cls(**{**find_material(name).values, **changes})

    def with_material(self, name: str) -> "SlimeParams":
        """A copy made of the named material: every material field replaced, the rest kept."""
        return self.with_(**find_material(name).values)

    def with_world(self, world: WorldSettings) -> "SlimeParams":
        """A copy living in ``world`` (its gravity, floor, time step and bounds)."""
        return self.with_(**{name: getattr(world, name) for name in _names(WorldSettings)})

    def with_(self, **changes) -> "SlimeParams":
        """A copy with ``changes`` applied (validated). A centre that was the automatic resting one
        follows a new radius or floor height."""
        names = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise ValueError(f"unknown slime parameter(s): {', '.join(unknown)}")
        if "center" not in changes and self.center == self._auto_center():
            changes["center"] = None
        return replace(self, **changes)


SlimeParams = make_dataclass(
    "SlimeParams", [(p.name, object, field(default=p.default)) for p in parameters.ordered()]
    + [("center", object, field(default=None))], bases=(_SlimeParams,), frozen=True)
SlimeParams.__module__, SlimeParams.__doc__ = __name__, _SlimeParams.__doc__
