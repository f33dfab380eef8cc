"""The lone slime's window camera (``default_camera``, the demo's) and ``render_slime``: `slime
render`'s picture of it, which is ``render_world``'s of its scene (``HeadlessWorld`` draws a
``SlimeBody`` a script builds)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from slime.arguments import check_camera
from slime.render.camera import OrbitCamera


def default_camera(body, view: Sequence[float] | None = None) -> OrbitCamera:
    """A three-quarter view from slightly above, framed on the resting body; ``view`` overrides
    (azimuth_deg, elevation_deg, distance)."""
    params = body.params
    radius = float(params.radius)
    floor = float(params.floor_height)
    centre = np.asarray(params.center, dtype=np.float64)
    cam = OrbitCamera(
        distance=4.6 * radius,
        target=np.array([centre[0], floor + 0.7 * radius, centre[2]]),
        min_distance=1.05 * radius,
        max_distance=40.0 * radius,
    )
    if view is not None:
        cam.azimuth, cam.elevation, cam.distance = check_camera(view)
    return cam


def render_slime(*, output, frames: int = 1, size=(800, 600), pokes=(), camera=None, stacks=None, slices=None,
                 progress: bool = True, samples: int = 4, shaders=None, color=None, material=None) -> None:
    """``render_world`` of the lone slime's scene (``world_format.lone_slime_spec``) at ``stacks`` x
    ``slices``, coloured ``color`` (RGB 0..1 or ``#rrggbb``, see SlimeLook.with_color), made of
    ``material`` (a name of ``materials.py``, default jelly), poked by ``pokes`` (``Poke`` events,
    each at its tick, before that frame's step): the same run and picture as `slime render`'s."""
    from slime.app.render_world import render_world
    from slime.scenes.world_format import LONE_SLIME, lone_slime_spec

    spec = lone_slime_spec(stacks, slices, color).with_events(list(pokes or ()), LONE_SLIME)
    render_world(spec, output=output, frames=frames, size=size, camera=camera, progress=progress, samples=samples,
                 shaders=shaders, material=material)
