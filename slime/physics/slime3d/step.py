"""The slime's forces, body by body: each substep, every force of ``SlimeModel``'s bodies (volume
pressure, surface tension, shape restoring, viscosity, air drag, gravity, then the shear
stiffness and viscosity, which couple neighbours), each one function in its own module; the
elastic ones through the mass the substep carries them with (``membrane.py``: the explicit mass
wherever the substep is short enough for them, so at every mesh up to 32 x 32). This is the code that
moves the slime, for one slime and for every slime of a world alike. The forces of one vertex
are summed in one loop over the vertices, each force's module giving its part at a vertex
(``*_at``), so that the arrays are read once a substep; to add a force, write its module and add
its part in ``body_accelerations`` (docs/2 walks through it).

A Warp-style split: ``SlimeModel`` holds what the bodies' parameters fix (per-body constants, and
per-vertex masses and rest offsets over the world's columns), the world holds the state (positions
and velocities (3, P), each body's tracked rotation and last volume).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slime.physics.compiled import head, kernel, rows
from slime.physics.integrate import symplectic_euler
from slime.physics.planes import plane_contacts
from slime.physics.slime3d.adhesion import adhere_all
from slime.physics.slime3d.drag import air_drag_at
from slime.physics.slime3d.gravity import gravity_at
from slime.physics.slime3d.membrane import carry_membrane
from slime.physics.slime3d.moments import body_moments, internal_part_into, inverse_inertia, times
from slime.physics.slime3d.pressure import pressure_spread, volume_pressure, volume_pressure_at
from slime.physics.slime3d.shape_matching import best_rotation, shape_restoring_at
from slime.physics.slime3d.shear import add_shear
from slime.physics.slime3d.surface import enclosed_volume, surface_gradients
from slime.physics.slime3d.tension import surface_tension_at
from slime.physics.slime3d.viscosity import decay_rate, internal_viscosity_at


class SlimeModel(NamedTuple):
    """The constants of a world's bodies, as arrays the kernels read (``build_model``). Per body
    (B,): where its vertices are and its mesh, then its material and the constants ``SlimeShape``
    derives; per vertex (P,) or (3, P): masses, rest offsets about the body's centre of mass, and
    the acceleration bound."""

    first: np.ndarray  # column of the body's first vertex
    count: np.ndarray  # its vertices
    stacks: np.ndarray
    slices: np.ndarray
    radius: np.ndarray  # m, at rest
    shape_stiffness: np.ndarray  # 1/s^2
    viscosity: np.ndarray  # 1/s
    air_drag: np.ndarray  # 1/s
    shear_viscosity: np.ndarray  # m^2/s
    shear_stiffness: np.ndarray  # m^2/s^2
    tension: np.ndarray  # N/m, in force
    ideal_volume: np.ndarray  # m^3
    pressure_scale: np.ndarray  # pressure per unit relative volume error
    rest_pressure: np.ndarray  # the pressure that holds the rest shape against the tension
    inertia_floor: np.ndarray  # kg m^2
    mass: np.ndarray  # (P,) kg
    rest: np.ndarray  # (3, P) m
    max_acceleration: np.ndarray  # (P,) m/s^2
    ripple: np.ndarray  # (P,) 1/s^2: each vertex's fastest membrane wave (``membrane.py``)
    adhesion: np.ndarray  # m/s^2
    grip: np.ndarray  # (P,) the share of the floor's and obstacles' friction each vertex takes
    gravity: np.ndarray  # (3,) m/s^2


def build_model(shapes, firsts, total: int, gravity) -> SlimeModel:
    """The model of bodies with ``SlimeShape``s ``shapes`` whose vertices start at columns
    ``firsts`` of a world of ``total`` vertices."""
    column = lambda values, dtype=np.float64: np.array(list(values), dtype=dtype).reshape(-1)  # noqa: E731
    mass = np.ones(total)
    rest = np.zeros((3, total))
    bound = np.full(total, np.inf)
    grip = np.ones(total)
    ripple = np.zeros(total)
    for shape, first in zip(shapes, firsts):
        span = slice(first, first + shape.count)
        mass[span] = shape.mass
        rest[:, span] = shape.rest_offsets.T
        bound[span] = shape.params.max_acceleration
        grip[span] = shape.params.grip
        ripple[span] = shape.ripple
    params = [s.params for s in shapes]
    materials = [p.material for p in params]
    return SlimeModel(
        first=column(firsts, np.int64), count=column((s.count for s in shapes), np.int64),
        stacks=column((s.stacks for s in shapes), np.int64), slices=column((s.slices for s in shapes), np.int64),
        radius=column(p.radius for p in params),
        shape_stiffness=column(m.shape_stiffness for m in materials), viscosity=column(m.viscosity for m in materials),
        air_drag=column(m.air_drag for m in materials), shear_viscosity=column(m.shear_viscosity for m in materials),
        shear_stiffness=column(m.shear_stiffness for m in materials),
        tension=column(s.tension for s in shapes), ideal_volume=column(s.ideal_volume for s in shapes),
        pressure_scale=column(s.pressure_scale for s in shapes),
        rest_pressure=column(s.rest_pressure for s in shapes),
        inertia_floor=column(s.inertia_floor for s in shapes), mass=mass, rest=rest, max_acceleration=bound,
        ripple=ripple, adhesion=column(m.adhesion for m in materials), grip=grip,
        gravity=np.asarray(gravity, dtype=np.float64).reshape(3).copy())


PER_VERTEX = ("mass", "rest", "max_acceleration", "ripple", "grip", "gravity")  # SlimeModel's fields not per body (and gravity)


def bodies_of(model: SlimeModel, first: int, end: int) -> SlimeModel:
    """The model of bodies ``first .. end - 1`` alone: their per-body arrays sliced (views), the
    per-vertex ones, which the world's columns index, whole. The kernels take it as they take the
    whole (same types: nothing compiles anew)."""
    return model._replace(**{name: getattr(model, name)[first:end] for name in model._fields if name not in PER_VERTEX})


@kernel
def body_accelerations(model, b, x, v, acc, rotation, volume, work, h, internal_only):
    """Write the acceleration of body ``b``'s vertices into ``acc`` (3, P) for a substep of length
    h: every force, in order. ``rotation`` (B, 3, 3) is read as the fallback for a body with no
    rotation of its own and updated to the best fit; ``volume`` (B,) gets its enclosed volume.
    ``work``: (5, 3, at least the body's count) scratch, the body's own from column 0 (one
    body's worth, reused body after body, stays in the core's cache where the world's columns
    would not). ``internal_only`` leaves out gravity and air drag (the internal
    forces alone move no momentum). Each component of the result is held within
    ``model.max_acceleration``: an edited force or a state written from outside may ask for
    anything, and the step must still return finite numbers."""
    first, count = model.first[b], model.count[b]
    mass, rest = model.mass, model.rest
    # The body as a whole: where it is, how it moves, how it is turned.
    centre, velocity, _, covariance, second_moment, spin = body_moments(x, v, mass, rest, first, count)
    turned = best_rotation(covariance, rotation[b])
    # Element by element: numba's whole-array assignment brings its shape-mismatch error message
    # with it, seconds of compiling string formatting for a case that cannot happen here.
    for i in range(3):
        for j in range(3):
            rotation[b, i, j] = turned[i, j]
    inverse = inverse_inertia(second_moment, model.inertia_floor[b])
    omega = times(inverse, spin)
    # The surface: its gradients, its volume and the pressure on it.
    grad_volume, grad_area = work[0], work[1]
    surface_gradients(x, first, model.stacks[b], model.slices[b], grad_volume, grad_area)
    volume[b] = enclosed_volume(x, grad_volume, first, count, centre)
    spread = pressure_spread(grad_volume, mass, first, count)
    pressure = volume_pressure(volume[b], model.ideal_volume[b], spread, model.pressure_scale[b],
                               model.rest_pressure[b], h)
    # Viscosity and drag decay together exactly over the substep; each takes its share of the rate.
    drag = 0.0 if internal_only else model.air_drag[b]
    rate = model.viscosity[b] + drag
    decay = decay_rate(rate, h)
    viscous = decay * model.viscosity[b] / rate if rate > 0.0 else 0.0
    drag = decay * drag / rate if rate > 0.0 else 0.0
    gravity = model.gravity if not internal_only else np.zeros(3)
    tension, stiffness = model.tension[b], model.shape_stiffness[b]
    # Every vertex's own forces, vertex by vertex over the body's rows (``compiled.rows``).
    xs, vs, rs = rows(x, first, count), rows(v, first, count), rows(rest, first, count)
    gv, ga = head(grad_volume, count), head(grad_area, count)
    a0, a1, a2 = rows(acc, first, count)
    m = mass[first:first + count]
    # The internal forces that are stiffnesses or couple neighbours (pressure, tension, shape, then
    # the shear) are gathered apart, over the area gradient once the tension has read it, to be
    # carried by ``membrane.py``; the body-wide viscosity, drag and gravity go straight into acc.
    membrane = ga
    for k in range(count):
        p = volume_pressure_at(gv, m, k, pressure)
        t = surface_tension_at(ga, m, k, tension)
        s = shape_restoring_at(xs, rs, k, centre, turned, stiffness)
        w = internal_viscosity_at(xs, vs, k, centre, velocity, omega, viscous)
        d = air_drag_at(vs, k, drag)
        g = gravity_at(gravity)
        a0[k] = w[0] + d[0] + g[0]
        a1[k] = w[1] + d[1] + g[1]
        a2[k] = w[2] + d[2] + g[2]
        membrane[0][k] = p[0] + t[0] + s[0]
        membrane[1][k] = p[1] + t[1] + s[1]
        membrane[2][k] = p[2] + t[2] + s[2]
    # Then what couples neighbours, the shear's stiffness and viscosity, with the rest carried as
    # the substep can (``membrane.py``); their rigid part taken out.
    stacks, slices = model.stacks[b], model.slices[b]
    add_shear(grad_area, x, v, rest, first, stacks, slices, centre, turned, velocity, omega,
              model.shear_stiffness[b], model.shear_viscosity[b], h, work[2], work[3])
    carry_membrane(membrane, m, model.ripple[first:first + count], stacks, slices, h)
    internal_part_into(acc, membrane, mass, x, first, count, centre, inverse)
    limit = model.max_acceleration[first:first + count]
    for k in range(count):
        a0[k] = min(max(a0[k], -limit[k]), limit[k])
        a1[k] = min(max(a1[k], -limit[k]), limit[k])
        a2[k] = min(max(a2[k], -limit[k]), limit[k])


@kernel
def clamp_speed(v, max_speed):
    """Each velocity component held within +-``max_speed`` (m/s)."""
    for d in range(v.shape[0]):
        for k in range(v.shape[1]):
            v[d, k] = min(max(v[d, k], -max_speed), max_speed)


# The compiled stages of a substep (``slime_substeps``' ``stages``), in the order they run.
FORCES = 1  # every body's accelerations into acc
INTEGRATE = 2  # symplectic Euler
PLANES = 4  # the contacts of the floor and every plane obstacle, and their adhesion
SPEED_BOUND = 8  # each velocity component held within max_speed


@kernel
def slime_substeps(model, x, v, acc, rotation, volume, work, h, substeps, stages, internal_only, ones, normal,
                   point, restitution, friction, bounce_threshold, touching, radius, max_speed, held):
    """``substeps`` substeps of length h of a world's slimes, each the ``stages`` asked for, in
    their order: ``FORCES`` (every body's ``body_accelerations`` into ``acc``), ``INTEGRATE``
    (symplectic Euler), ``PLANES`` (the floor and the plane obstacles, ``normal``... as
    ``planes.plane_contacts`` takes them, and their adhesion, which lets go of the body ``held``
    by the hand, -1 for none) and ``SPEED_BOUND``. The world's substep is a pipeline of these and of
    stages of its own (``World3D.substeps_of``): it runs them all here, a frame in one call, when
    nothing of its own comes between them, and a stage at a time around what does; the same code
    either way. (One entry for all: each compiled entry that calls the forces compiles them all
    again. What is rare, the finger and the lids, stays out of it: inlined here they cost every
    frame of a lone 64 x 64 slime about a tenth more, measured.)"""
    for _ in range(substeps):
        if stages & FORCES:
            for b in range(model.first.shape[0]):
                body_accelerations(model, b, x, v, acc, rotation, volume, work, h, internal_only)
        if stages & INTEGRATE:
            symplectic_euler(x.T, v.T, acc.T, ones, h, ones)
        if stages & PLANES:
            plane_contacts(x.T, v.T, ones, normal, point, restitution, friction, bounce_threshold, radius, touching,
                           model.grip)
            adhere_all(model, x, v, normal, point, h, held)
        if stages & SPEED_BOUND:
            clamp_speed(v, max_speed)
