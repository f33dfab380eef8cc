"""Tutorial 2 (docs/2-add-a-force.md): a new force on the slime, a wind.

Air moving at the velocity w drags every vertex along at the rate a (1/s):

    a_i = -a (v_i - w)

the air drag of ``slime/physics/slime3d/drag.py`` measured against moving air. The force is a
compiled kernel like the package's own, and it runs in the world's every substep beside them
(``World3D.extra_accelerations``): no switch, no slower copy. This script compares how far the
slime drifts in two seconds with and without it, and with ``--picture`` draws both at the end,
side by side, from one camera that stays put, across the wind:

    python examples/add_a_force.py [--picture out/wind.png]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams

WIND = np.array([3.0, 0.0, 0.0])  # m/s, along +x
WIND_RATE = 0.8  # 1/s
CAMERA = (0.0, 15.0, 7.0)  # from +z, 15 degrees up, 7 m out: x runs across the picture


@kernel
def add_wind(acc, v, wind, rate):
    """a = -a (v - w) on every vertex: air moving at ``wind`` drags the slime along."""
    for k in range(v.shape[1]):
        for d in range(3):
            acc[d, k] -= rate * (v[d, k] - wind[d])


def wind(world, acc, h):
    add_wind(acc, world.v, WIND, WIND_RATE)


def windy_body(windy: bool) -> SlimeBody:
    body = SlimeBody(SlimeParams(stacks=12, slices=12))
    if windy:
        body.world.extra_accelerations.append(wind)
    return body


def drift(seconds: float = 2.0, *, windy: bool) -> float:
    """How far (m) the slime's centre of mass moves along x in ``seconds``."""
    body = windy_body(windy)
    start = body.centroid()[0]
    for _ in range(round(seconds / body.params.dt)):
        body.step()
    return float(body.centroid()[0] - start)


def picture(path: str, seconds: float = 2.0) -> None:
    """Without wind (left) and with it (right) after ``seconds``, from the fixed CAMERA."""
    from slime.app.render_world import HeadlessWorld
    from slime.render.images import save_png

    halves = []
    for windy in (False, True):
        body = windy_body(windy)
        scene = HeadlessWorld(body, size=(400, 300), camera=CAMERA)
        try:
            for _ in range(round(seconds / body.params.dt)):
                body.step()
            halves.append(scene.draw())
        finally:
            scene.release()
    gap = np.full((halves[0].shape[0], 4, 3), 255, dtype=np.uint8)  # a white line between the two
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    save_png(path, np.hstack([halves[0], gap, halves[1]]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--picture", help="also draw both runs' last frame, side by side, to this PNG")
    args = parser.parse_args()
    calm, windy = drift(windy=False), drift(windy=True)
    print(f"centroid drift in 2 s: {calm:+.3f} m without wind, {windy:+.3f} m with a {WIND[0]:g} m/s wind")
    if args.picture:
        picture(args.picture)
        print(f"wrote {args.picture}: without wind (left), with it (right)")
