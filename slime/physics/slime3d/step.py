"""The slime's forces, body by body: each substep, every force of ``SlimeModel``'s bodies in the
order the physics reads (volume pressure, surface tension, shape restoring, viscosity and drag,
shear viscosity, gravity), each one function in its own module. This is the code that moves the
slime, for one slime and for every slime of a world alike; to add a force, write its module and
call it in ``body_accelerations`` (docs/2 walks through it).

A Warp-style split: ``SlimeModel`` holds what the bodies' parameters fix (per-body constants, and
per-vertex masses and rest offsets over the world's columns), the world holds the state (positions
and velocities (3, P), each body's tracked rotation and last volume).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.slime3d.drag import add_air_drag
from slime.physics.slime3d.gravity import add_gravity
from slime.physics.slime3d.moments import centre_of_mass, inverse_inertia, moments_about
from slime.physics.slime3d.pressure import add_volume_pressure, pressure_spread, volume_pressure
from slime.physics.slime3d.shape_matching import add_shape_restoring, best_rotation
from slime.physics.slime3d.shear import add_shear_viscosity
from slime.physics.slime3d.surface import enclosed_volume, surface_gradients
from slime.physics.slime3d.tension import add_surface_tension
from slime.physics.slime3d.viscosity import add_internal_viscosity, decay_rate


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
    tension: np.ndarray  # N/m, in force
    ideal_volume: np.ndarray  # m^3
    pressure_scale: np.ndarray  # pressure per unit relative volume error
    rest_pressure: np.ndarray  # the pressure that holds the rest shape against the tension
    rest_spread: np.ndarray  # sum |dV/dx|^2 / m at rest
    inertia_floor: np.ndarray  # kg m^2
    mass: np.ndarray  # (P,) kg
    rest: np.ndarray  # (3, P) m
    max_acceleration: np.ndarray  # (P,) m/s^2
    gravity: np.ndarray  # (3,) m/s^2


def build_model(shapes, firsts, total: int, gravity) -> SlimeModel:
    """The model of bodies with ``SlimeShape``s ``shapes`` whose vertices start at columns
    ``firsts`` of a world of ``total`` vertices."""
    column = lambda values, dtype=np.float64: np.array(list(values), dtype=dtype).reshape(-1)  # noqa: E731
    mass = np.ones(total)
    rest = np.zeros((3, total))
    bound = np.full(total, np.inf)
    for shape, first in zip(shapes, firsts):
        span = slice(first, first + shape.count)
        mass[span] = shape.mass
        rest[:, span] = shape.rest_offsets.T
        bound[span] = shape.params.max_acceleration
    params = [s.params for s in shapes]
    return SlimeModel(
        first=column(firsts, np.int64), count=column((s.count for s in shapes), np.int64),
        stacks=column((s.stacks for s in shapes), np.int64), slices=column((s.slices for s in shapes), np.int64),
        radius=column(p.radius for p in params),
        shape_stiffness=column(p.shape_stiffness for p in params), viscosity=column(p.viscosity for p in params),
        air_drag=column(p.air_drag for p in params), shear_viscosity=column(p.shear_viscosity for p in params),
        tension=column(s.tension for s in shapes), ideal_volume=column(s.ideal_volume for s in shapes),
        pressure_scale=column(s.pressure_scale for s in shapes),
        rest_pressure=column(s.rest_pressure for s in shapes), rest_spread=column(s.rest_spread for s in shapes),
        inertia_floor=column(s.inertia_floor for s in shapes), mass=mass, rest=rest, max_acceleration=bound,
        gravity=np.asarray(gravity, dtype=np.float64).reshape(3).copy())


@kernel
def body_accelerations(model, b, x, v, acc, rotation, volume, work, h, internal_only):
    """Write the acceleration of body ``b``'s vertices into ``acc`` (3, P) for a substep of length
    h: every force, in order. ``rotation`` (B, 3, 3) is read as the fallback for a body with no
    rotation of its own and updated to the best fit; ``volume`` (B,) gets its enclosed volume.
    ``work``: (4, 3, P) scratch. ``internal_only`` leaves out gravity and air drag (the internal
    forces alone move no momentum)."""
    first, count = model.first[b], model.count[b]
    mass, rest = model.mass, model.rest
    for k in range(first, first + count):
        acc[0, k] = 0.0
        acc[1, k] = 0.0
        acc[2, k] = 0.0
    centre, velocity, _ = centre_of_mass(x, v, mass, first, count)
    covariance, second_moment, spin = moments_about(x, v, mass, rest, first, count, centre)
    turned = best_rotation(covariance, rotation[b])
    rotation[b] = turned
    inverse = inverse_inertia(second_moment, model.inertia_floor[b])
    omega = inverse @ spin

    grad_volume, grad_area = work[0], work[1]
    surface_gradients(x, first, model.stacks[b], model.slices[b], grad_volume, grad_area)
    volume[b] = enclosed_volume(x, grad_volume, first, count, centre)
    spread = pressure_spread(grad_volume, mass, first, count)
    pressure = volume_pressure(volume[b], model.ideal_volume[b], spread, model.rest_spread[b],
                               model.pressure_scale[b], model.rest_pressure[b])
    add_volume_pressure(acc, grad_volume, mass, first, count, pressure)
    add_surface_tension(acc, grad_area, mass, first, count, model.tension[b])
    add_shape_restoring(acc, x, rest, first, count, centre, turned, model.shape_stiffness[b])
    # Viscosity and drag decay together exactly over the substep; each takes its share of the rate.
    drag = 0.0 if internal_only else model.air_drag[b]
    rate = model.viscosity[b] + drag
    if rate > 0.0:
        decay = decay_rate(rate, h)
        add_internal_viscosity(acc, x, v, first, count, centre, velocity, omega, decay * model.viscosity[b] / rate)
        if drag > 0.0:
            add_air_drag(acc, v, first, count, decay * drag / rate)
    add_shear_viscosity(acc, x, v, mass, rest, first, model.stacks[b], model.slices[b], centre, velocity, omega,
                        inverse, model.shear_viscosity[b], h, work[2], work[3])
    if not internal_only:
        add_gravity(acc, first, count, model.gravity)


@kernel
def slime_accelerations(model, x, v, acc, rotation, volume, work, h, internal_only):
    """``body_accelerations`` for every body of the model."""
    for b in range(model.first.shape[0]):
        body_accelerations(model, b, x, v, acc, rotation, volume, work, h, internal_only)
