"""Every parameter of the 3D slime body in one place, with defaults that look good and validation.

``SlimeParams`` is the flat, validated record a user writes (keyword arguments, scene files, the
panel's sliders); what it holds belongs to four owners, and each part is read as a unit of its own:
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

import math
from dataclasses import dataclass, fields, replace
from functools import cached_property

import numpy as np

from slime.limits import DAMPING_RATE, RESOLUTION, SLIME_MASS, SLIME_RADIUS, SUBSTEPS, span, vector3
from slime.physics.slime3d.materials import DEFAULT_MATERIAL, MATERIALS, find_material
from slime.physics.slime3d.stability import substeps_needed

_JELLY = MATERIALS[DEFAULT_MATERIAL].values  # the defaults (materials.py)


def _finite(name: str, value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return v


def _vector3(name: str, value) -> tuple[float, float, float]:
    x, y, z = vector3(name, value)
    return (float(x), float(y), float(z))


def _integer(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return int(value)


@dataclass(frozen=True)
class Material:
    """What a slime is made of. Per-mass stiffnesses (1/s^2) and rates (1/s), so the same material
    behaves the same at any size and mesh (see the module docstring for each)."""

    volume_stiffness: float
    shape_stiffness: float
    viscosity: float
    surface_tension: float  # N/m
    shear_viscosity: float  # m^2/s
    shear_stiffness: float  # m^2/s^2
    air_drag: float
    contact_friction: float  # Coulomb coefficient against other slimes
    grip: float  # the share of a hard surface's friction (the floor's, an obstacle's) its skin takes
    adhesion: float  # m/s^2: how hard the surface must be pulled to come off a floor or wall


@dataclass(frozen=True)
class WorldSettings:
    """What every slime of a world shares: gravity, the floor, the time step and its substeps, and
    the bounds every substep holds speeds and accelerations within."""

    gravity: tuple
    floor_height: float
    floor_friction: float
    floor_restitution: float
    dt: float
    substeps: int
    max_speed: float
    max_acceleration: float


@dataclass(frozen=True)
class HandSettings:
    """How the hand takes hold of a slime: the grab's pull, a poke's spread, the finger's press."""

    grab_rate: float
    grab_falloff: float
    poke_spread: float
    finger_radius: float
    finger_spread: float
    finger_depth: float
    finger_speed: float
    finger_rate: float


def _names(group) -> tuple:
    return tuple(f.name for f in fields(group))


@dataclass(frozen=True)
class SlimeParams:
    """The slime's shape, material, world and integration settings (see the module docstring)."""

    # --- shape and mesh ---
    radius: float = 1.0  # rest sphere radius (m), 0.02 to 50 (limits.SLIME_RADIUS, as in a scene file)
    stacks: int = 32  # latitude divisions pole to pole (>= 3)
    slices: int = 32  # longitude divisions around (>= 3)
    mass: float = 1.0  # total mass (kg, 1e-6 to 1e12), spread over the vertices by their share of the rest surface
    # --- material ---
    volume_stiffness: float = _JELLY['volume_stiffness']  # 1/s^2: breathing-mode omega^2 from the pressure
    shape_stiffness: float = _JELLY['shape_stiffness']  # 1/s^2: pull toward the best-fit rotated rest sphere
    viscosity: float = _JELLY['viscosity']  # 1/s: decay rate of motion relative to the body's rigid motion (limits.DAMPING_RATE)
    surface_tension: float = _JELLY['surface_tension']  # N/m: the skin's pull toward less area (rounds dents and folds)
    shear_stiffness: float = _JELLY['shear_stiffness']  # m^2/s^2: G / rho, how hard neighbours spring back into place (no crumples)
    shear_viscosity: float = _JELLY['shear_viscosity']  # m^2/s: kinematic viscosity on velocity differences between neighbours (no creases)
    air_drag: float = _JELLY['air_drag']  # 1/s: decay rate of absolute velocity (limits.DAMPING_RATE)
    adhesion: float = _JELLY['adhesion']  # m/s^2: how hard a surface leaving the floor is held back (adhesion.py)
    grip: float = _JELLY['grip']  # share of the floor's and obstacles' friction its skin takes: 1 dry, less where a wet film slips
    # --- world ---
    gravity: tuple = (0.0, -9.81, 0.0)  # m/s^2
    floor_height: float = 0.0  # y of the floor plane (normal +y)
    floor_friction: float = 0.8  # Coulomb coefficient of the floor
    floor_restitution: float = 0.0  # 0 = the surface does not bounce off the floor (the body still rebounds)
    contact_friction: float = _JELLY['contact_friction']  # Coulomb coefficient against other slimes (a pair uses the geometric mean)
    # --- integration ---
    dt: float = 1.0 / 60.0  # one frame (s)
    substeps: int = 8  # symplectic Euler substeps per frame, at least (stiff terms take more: slime3d/stability.py)
    center: tuple | None = None  # initial centre; None = resting on the floor (floor_height + radius)
    # --- safety and interaction ---
    max_speed: float = 40.0  # m/s per velocity component, clamped every substep
    max_acceleration: float = 1.0e4  # m/s^2 per component of the internal + drag acceleration
    grab_rate: float = 40.0  # 1/s: drag_to closes the gap to the target at this rate (critically damped)
    grab_falloff: float = 0.8  # grabbed neighbourhood radius as a fraction of ``radius``
    poke_spread: float = 2.0  # a poke's falloff radius as a fraction of ``radius`` (broad: a round dent)
    finger_radius: float = 0.3  # the fingertip ball's radius, as a fraction of ``radius``
    finger_spread: float = 1.75  # how far round the fingertip the surface sinks with it (Wendland falloff), in radii
    finger_depth: float = 1.25  # how deep a held press pushes in, as a fraction of ``radius``
    finger_speed: float = 3.0  # radii per second the finger moves in while held
    finger_rate: float = 200.0  # 1/s: as grab_rate, for the finger (firmer than the shape, so the dent forms)

    def __post_init__(self):
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 (frozen dataclass)
        radius = _finite("radius", self.radius)
        if radius <= 0.0:
            raise ValueError(f"radius must be positive, got {self.radius}")
        if not SLIME_RADIUS[0] <= radius <= SLIME_RADIUS[1]:
            raise ValueError(f"radius must be {span(SLIME_RADIUS, 'm')}, got {self.radius}")
        set_("radius", radius)
        set_("stacks", _integer("stacks", self.stacks, *RESOLUTION))
        set_("slices", _integer("slices", self.slices, *RESOLUTION))
        for name in ("mass", "dt"):
            v = _finite(name, getattr(self, name))
            if v <= 0.0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
            set_(name, v)
        if not SLIME_MASS[0] <= self.mass <= SLIME_MASS[1]:
            raise ValueError(f"mass must be {span(SLIME_MASS, 'kg')}, got {self.mass}")
        for name in (
            "volume_stiffness",
            "shape_stiffness",
            "viscosity",
            "surface_tension",
            "shear_viscosity",
            "shear_stiffness",
            "air_drag",
            "adhesion",
            "grip",
            "floor_friction",
            "contact_friction",
        ):
            v = _finite(name, getattr(self, name))
            if v < 0.0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
            set_(name, v)
        for name in ("viscosity", "air_drag"):
            if getattr(self, name) > DAMPING_RATE[1]:
                raise ValueError(f"{name} must be {span(DAMPING_RATE, '1/s')} (past it every rate stills the "
                                 f"slime alike within a substep), got {getattr(self, name):g}")
        for name in ("max_speed", "max_acceleration", "grab_rate", "grab_falloff", "poke_spread", "finger_radius",
                     "finger_spread", "finger_depth", "finger_speed", "finger_rate"):
            v = _finite(name, getattr(self, name))
            if v <= 0.0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
            set_(name, v)
        restitution = _finite("floor_restitution", self.floor_restitution)
        if not 0.0 <= restitution <= 1.0:
            raise ValueError(f"floor_restitution must be in [0, 1], got {self.floor_restitution}")
        set_("floor_restitution", restitution)
        set_("floor_height", _finite("floor_height", self.floor_height))
        set_("gravity", _vector3("gravity", self.gravity))
        set_("substeps", _integer("substeps", self.substeps, *SUBSTEPS))
        # The body-wide stiffnesses need no mesh to say how many substeps they take: too many is
        # refused here (the surface tension's share is added per mesh, ``SlimeShape``).
        substeps_needed(self.dt, self.shape_stiffness, self.volume_stiffness, 0.0, 0.0, 0.0, 0.0)
        if self.center is None:
            set_("center", self._auto_center())
        else:
            set_("center", _vector3("center", self.center))

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
