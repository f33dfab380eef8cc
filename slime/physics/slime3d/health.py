"""Which bodies are in a state the forces could have made: the check after every frame that
decides whether a body is recovered (put back to its last good pose)."""

from __future__ import annotations

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.slime3d.moments import centre_of_mass


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
        for k in range(first, first + count):
            for d in range(3):
                # Written so that NaN fails every test.
                if not (abs(v[d, k]) <= max_speed and abs(x[d, k] - centre[d]) <= reach):
                    healthy[b] = False
    return healthy
