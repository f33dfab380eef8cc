"""Which bodies are in a state the forces could have made: the check after every frame that
decides whether a body is recovered (put back to its last good pose)."""

from __future__ import annotations

import numpy as np

from slime.physics.compiled import body_rows, kernel
from slime.physics.slime3d.moments import centre_of_mass


@kernel
def out_of_bounds(positions, velocities, centre, reach, max_speed):
    """How many of one component's positions lie farther than ``reach`` from ``centre``, or
    velocities faster than ``max_speed``; a NaN counts (every comparison with it is false)."""
    outside = 0
    for k in range(positions.shape[0]):
        inside = abs(velocities[k]) <= max_speed and abs(positions[k] - centre) <= reach
        outside += 0 if inside else 1
    return outside


@kernel
def healthy_bodies(model, x, v, max_speed, max_spread):
    """(B,) True where a body is finite, no velocity component is over ``max_speed`` (m/s) and no
    vertex is farther than ``max_spread`` of its radii from its centre of mass along any axis.
    The forces keep a body inside these; one outside them was written from outside, or an edited
    force broke it."""
    bodies = model.first.shape[0]
    healthy = np.ones(bodies, dtype=np.bool_)
    for b in range(bodies):
        first, count = model.first[b], model.count[b]
        centre = centre_of_mass(x, model.mass, first, count)
        reach = max_spread * model.radius[b]
        x0, x1, x2 = body_rows(x, first, count)
        v0, v1, v2 = body_rows(v, first, count)
        outside = (out_of_bounds(x0, v0, centre[0], reach, max_speed) + out_of_bounds(x1, v1, centre[1], reach, max_speed)
                   + out_of_bounds(x2, v2, centre[2], reach, max_speed))
        healthy[b] = outside == 0
    return healthy


@kernel
def keep_good(model, x, v, rotation, good_x, good_rotation, max_speed, max_spread):
    """``healthy_bodies``, and each healthy body's positions and rotation kept as its last good
    state in ``good_x`` (3, P) and ``good_rotation`` (B, 3, 3), in one call: it runs after every
    frame. Returns the (B,) healthy flags; a broken body's good state is left as it was."""
    healthy = healthy_bodies(model, x, v, max_speed, max_spread)
    for b in range(healthy.shape[0]):
        if not healthy[b]:
            continue
        first, count = model.first[b], model.count[b]
        for d in range(3):
            here, kept = x[d, first:first + count], good_x[d, first:first + count]
            for k in range(count):
                kept[k] = here[k]
            for e in range(3):
                good_rotation[b, d, e] = rotation[b, d, e]
    return healthy
