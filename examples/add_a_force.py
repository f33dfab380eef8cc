"""Tutorial 2 (docs/2-add-a-force.md): a new force on the slime, a wind.

Air moving at the velocity w drags every vertex along at the rate a (1/s):

    a_i = -a (v_i - w)

the air drag of ``slime/physics/slime3d/drag.py`` measured against moving air. The force is a
compiled kernel like the package's own, and it runs in the world's every substep beside them
(``World3D.extra_accelerations``): no switch, no slower copy. This script compares how far the
slime drifts in two seconds with and without it.

    python examples/add_a_force.py
"""

from __future__ import annotations

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams

WIND = np.array([3.0, 0.0, 0.0])  # m/s, along +x
WIND_RATE = 0.8  # 1/s


@kernel
def add_wind(acc, v, wind, rate):
    """a = -a (v - w) on every vertex: air moving at ``wind`` drags the slime along."""
    for k in range(v.shape[1]):
        for d in range(3):
            acc[d, k] -= rate * (v[d, k] - wind[d])


def wind(world, acc, h):
    add_wind(acc, world.v, WIND, WIND_RATE)


def drift(seconds: float = 2.0, *, windy: bool) -> float:
    """How far (m) the slime's centre of mass moves along x in ``seconds``."""
    body = SlimeBody(SlimeParams(stacks=12, slices=12))
    if windy:
        body.world.extra_accelerations.append(wind)
    start = body.centroid()[0]
    for _ in range(round(seconds / body.params.dt)):
        body.step()
    return float(body.centroid()[0] - start)


if __name__ == "__main__":
    calm, windy = drift(windy=False), drift(windy=True)
    print(f"centroid drift in 2 s: {calm:+.3f} m without wind, {windy:+.3f} m with a {WIND[0]:g} m/s wind")
