"""Tutorial 2 (docs/2-add-a-force.md): a new force on the slime, a wind.

The wind pulls every vertex's velocity toward the wind's velocity w at a rate a (1/s):

    F_i = -m_i a (v_i - w)

which is the air drag of slime_forces.add_air_drag measured against moving air. This script adds
it without editing the package, by wrapping ``slime_forces.slime_forces`` (the body looks the
function up in the module on every substep when ``plain_forces`` is on), then compares how far the
slime drifts in two seconds with and without it.

    python examples/add_a_force.py
"""

from __future__ import annotations

import numpy as np

from slime.physics import slime_forces
from slime.physics.slime_body import SlimeBody, SlimeParams

WIND = np.array([3.0, 0.0, 0.0])  # m/s, along +x
WIND_RATE = 0.8  # 1/s


def add_wind(forces, v, mass, wind, rate: float) -> None:
    """-m a (v - w): air moving at ``wind`` drags each vertex along."""
    forces -= (rate * mass)[:, None] * (v - np.asarray(wind, dtype=np.float64))


def drift(seconds: float = 2.0, *, wind: bool) -> float:
    """How far (m) the slime's centroid moves along x in ``seconds``."""
    original = slime_forces.slime_forces

    def with_wind(body, h, internal_only=False):
        forces = original(body, h, internal_only)
        if not internal_only:
            add_wind(forces, body.velocities, body.mass, WIND, WIND_RATE)
        return forces

    body = SlimeBody(SlimeParams(stacks=12, slices=12, plain_forces=True))  # plain: slime_forces.py's functions
    start = body.centroid()[0]
    if wind:
        slime_forces.slime_forces = with_wind
    try:
        for _ in range(round(seconds / body.params.dt)):
            body.step()
    finally:
        slime_forces.slime_forces = original
    return float(body.centroid()[0] - start)


if __name__ == "__main__":
    calm, windy = drift(wind=False), drift(wind=True)
    print(f"centroid drift in 2 s: {calm:+.3f} m without wind, {windy:+.3f} m with a {WIND[0]:g} m/s wind")
