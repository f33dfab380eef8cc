"""The slime's forces, body by body: each substep, every force of ``SlimeModel``'s bodies (volume
pressure, surface tension, shape restoring, viscosity, air drag, gravity, then the shear
stiffness and viscosity, which couple neighbours), each one function in its own module; the
elastic ones through the mass the substep carries them with (``membrane.py``: the explicit mass
wherever the substep is short enough for them, so at every mesh up to 32 x 32). This is the code that
moves the slime, for one slime and for every slime of a world alike. The forces of one vertex
are summed in one loop over the vertices, each force's module giving its part at a vertex
(``*_at``), so that the arrays are read once a substep; to add a force, write its module (its
kernel and its parameter's declaration), import it here and add its part, one line, in
``body_accelerations`` (docs/2 walks through it).

A Warp-style split: ``SlimeModel`` holds what the bodies' parameters fix (per-body constants, and
per-vertex masses and rest offsets over the world's columns), the world holds the state (positions
and velocities (3, P), each body's tracked rotation and last volume).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slime.physics import parameters
from slime.physics.compiled import body_rows, kernel, plus, scratch_rows
from slime.physics.integrate import symplectic_euler
from slime.physics.planes import plane_contacts
from slime.physics.slime3d.adhesion import adhere_all
from slime.physics.slime3d.drag import air_drag_at
from slime.physics.slime3d.gravity import gravity_at
from slime.physics.slime3d.membrane import carry_membrane
from slime.physics.slime3d.moments import body_moments, internal_part_into, inverse_inertia, matrix_times_vector
from slime.physics.slime3d.pressure import pressure_spread, volume_pressure, volume_pressure_at
from slime.physics.slime3d.shape_matching import best_rotation, shape_restoring_at
from slime.physics.slime3d.shear import add_shear
from slime.physics.slime3d.surface import enclosed_volume, surface_gradients
from slime.physics.slime3d.tension import surface_tension_at
from slime.physics.slime3d.viscosity import decay_rate, internal_viscosity_at


# What the model holds besides the declared parameters' columns: where each body's vertices are and
# its mesh (B,), the constants ``SlimeShape`` derives (B,), and per vertex the masses (P,) and rest
# offsets about the body's centre of mass (3, P); and the world's gravity (3,).
_DERIVED = (
    ("first", "column of the body's first vertex"), ("count", "its vertices"), ("stacks", ""), ("slices", ""),
    ("radius", "m, at rest"), ("tension", "N/m, in force"), ("ideal_volume", "m^3"),
    ("pressure_scale", "pressure per unit relative volume error"),
    ("rest_pressure", "the pressure that holds the rest shape against the tension"), ("inertia_floor", "kg m^2"),
    ("mass", "(P,) kg"), ("rest", "(3, P) m"),
    ("ripple", "(P,) 1/s^2: each vertex's fastest membrane wave (membrane.py)"), ("gravity", "(3,) m/s^2"),
)
# Every declared parameter with a column (``parameters.Param.column``): each material parameter
# per body, and those a vertex reads per vertex. A new one is here, and in the kernels as
# ``model.NAME``, with no edit of this file's model.
COLUMNS = tuple(p for p in parameters.ordered() if p.column is not None)
SlimeModel = NamedTuple("SlimeModel", [(name, np.ndarray) for name, _ in _DERIVED]
                        + [(p.name, np.ndarray) for p in COLUMNS])
SlimeModel.__module__ = __name__
SlimeModel.__doc__ = """The constants of a world's bodies, as arrays the kernels read (``build_model``): per body
    (B,) where its vertices are, its mesh and the constants ``SlimeShape`` derives; per vertex (P,)
    or (3, P) the masses and rest offsets; and a column of every declared parameter that has one
    (``COLUMNS``), per body or per vertex as it is declared."""
PER_VERTEX = ("mass", "rest", "ripple", "gravity") + tuple(p.name for p in COLUMNS if p.column == "vertex")  # not per body


def build_model(shapes, firsts, total: int, gravity) -> SlimeModel:
    """The model of bodies with ``SlimeShape``s ``shapes`` whose vertices start at columns
    ``firsts`` of a world of ``total`` vertices."""
    column = lambda values, dtype=np.float64: np.array(list(values), dtype=dtype).reshape(-1)  # noqa: E731
    mass = np.ones(total)
    rest = np.zeros((3, total))
    per_vertex = {p.name: np.full(total, float(p.default)) for p in COLUMNS if p.column == "vertex"}
    ripple = np.zeros(total)
    for shape, first in zip(shapes, firsts):
        span = slice(first, first + shape.count)
        mass[span] = shape.mass
        rest[:, span] = shape.rest_offsets.T
        for name, values in per_vertex.items():
            values[span] = getattr(shape.params, name)
        ripple[span] = shape.ripple
    params = [s.params for s in shapes]
    per_body = {p.name: column(getattr(prm, p.name) for prm in params) for p in COLUMNS if p.column == "body"}
    return SlimeModel(
        first=column(firsts, np.int64), count=column((s.count for s in shapes), np.int64),
        stacks=column((s.stacks for s in shapes), np.int64), slices=column((s.slices for s in shapes), np.int64),
        radius=column(p.radius for p in params),
        tension=column(s.tension for s in shapes), ideal_volume=column(s.ideal_volume for s in shapes),
        pressure_scale=column(s.pressure_scale for s in shapes),
        rest_pressure=column(s.rest_pressure for s in shapes),
        inertia_floor=column(s.inertia_floor for s in shapes), mass=mass, rest=rest,
        ripple=ripple,
        gravity=np.asarray(gravity, dtype=np.float64).reshape(3).copy(), **per_body, **per_vertex)


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
    omega = matrix_times_vector(inverse, spin)
    # The surface: its gradients, its volume and the pressure on it.
    grad_volume, grad_area = work[0], work[1]
    surface_gradients(x, first, model.stacks[b], model.slices[b], grad_volume, grad_area)
    volume[b] = enclosed_volume(x, grad_volume, first, count, centre)
    spread = pressure_spread(grad_volume, mass, first, count)
    pressure = volume_pressure(volume[b], model.ideal_volume[b], spread, model.pressure_scale[b],
                               model.rest_pressure[b], h)
    # A force from outside the body (gravity, the air) is this times itself: none in the internal-only view.
    external = 0.0 if internal_only else 1.0
    # Viscosity and drag decay together exactly over the substep; each takes its share of the rate.
    drag = external * model.air_drag[b]
    rate = model.viscosity[b] + drag
    decay = decay_rate(rate, h)
    viscous = decay * model.viscosity[b] / rate if rate > 0.0 else 0.0
    drag = decay * drag / rate if rate > 0.0 else 0.0
    gravity = model.gravity if not internal_only else np.zeros(3)
    tension, stiffness = model.tension[b], model.shape_stiffness[b]
    # Every vertex's own forces, vertex by vertex over the body's rows (``compiled.body_rows``).
    xs, vs, rs = body_rows(x, first, count), body_rows(v, first, count), body_rows(rest, first, count)
    gv, ga = scratch_rows(grad_volume, count), scratch_rows(grad_area, count)
    a0, a1, a2 = body_rows(acc, first, count)
    m = mass[first:first + count]
    # The internal forces that are stiffnesses or couple neighbours (pressure, tension, shape, then
    # the shear) are gathered apart, over the area gradient once the tension has read it, to be
    # carried by ``membrane.py``; the body-wide viscosity, drag and gravity go straight into acc.
    membrane = ga
    for k in range(count):
        # A force's part at vertex k, one line each (``compiled.plus`` adds two parts): first the
        # stiffnesses, which ``membrane.py`` carries, then the body-wide rates and fields.
        e = volume_pressure_at(gv, m, k, pressure)
        e = plus(e, surface_tension_at(ga, m, k, tension))
        e = plus(e, shape_restoring_at(xs, rs, k, centre, turned, stiffness))
        a = internal_viscosity_at(xs, vs, k, centre, velocity, omega, viscous)
        a = plus(a, air_drag_at(vs, k, drag))
        a = plus(a, gravity_at(gravity))
        a0[k], a1[k], a2[k] = a[0], a[1], a[2]
        membrane[0][k], membrane[1][k], membrane[2][k] = e[0], e[1], e[2]
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
