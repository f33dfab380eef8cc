"""Headless simulation to .npz: any 3D scene (the lone slime ``slime`` included) or any 2D scene,
recorded every tick.

Output arrays (load with ``np.load(path)``):
- a 3D scene (``slime`` is the scene of one slime, ``world_format.lone_slime_spec``):
  ``positions (N+1, P, 3)`` (every slime's vertices, slime after slime), ``body (P,)`` (the body
  index of each vertex), ``triangles (M, 3)`` (indices into P), ``volume (N+1, B)`` (each slime's
  engine volume, slice-integrated; ``(N+1,)`` for a scene of one slime, as the lone slime's has
  always been), ``time (N+1,)``, ``recoveries ()`` (how many times a slime broke and was put
  back to its last good pose: a run that needed it also says so on stderr).
- 2D scenes: ``positions (N+1, P, 2)``, ``springs (S, 2)``, ``alive (N+1, S)``, ``time (N+1,)``.
Row 0 is the initial state; row k is the state after k ticks. The 3D run is
``slime.scenes.world_run``'s, the one `slime render` draws.

Numpy only; the command line's parsing is in slime/arguments.py, a run's warnings in
slime/problems.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from slime.fileio import atomic_write
from slime.memory import allocate
from slime.problems import report_problems
from slime.progress import ticking


def __getattr__(name):
    # ``Poke(tick, point, force)``: the poke event (``world_format.poke``) by the name scripts have
    # imported it under; looked up when asked for, as the scene format imports the physics.
    if name == "Poke":
        from slime.scenes.world_format import poke

        return poke
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def slime_params(stacks: int | None = None, slices: int | None = None, material: str | None = None):
    """The parameters of the named material (``materials.py``; None: the default, jelly) with
    defaults otherwise, at the requested resolution. Bad values, an unknown material: a one-line
    ValueError."""
    from slime.physics.slime3d.materials import DEFAULT_MATERIAL
    from slime.physics.slime3d.slime_body import SlimeParams

    changes = {}
    if stacks is not None:
        changes["stacks"] = stacks
    if slices is not None:
        changes["slices"] = slices
    return SlimeParams.of_material(material or DEFAULT_MATERIAL, **changes)


def make_body(stacks: int | None = None, slices: int | None = None, material: str | None = None):
    """The slime body of ``slime_params(stacks, slices, material)``."""
    from slime.physics.slime3d.slime_body import SlimeBody

    return SlimeBody(slime_params(stacks, slices, material))


def save_npz_atomic(path: Path, **arrays) -> None:
    """np.savez_compressed, atomically: never a half-written file."""
    atomic_write(path, lambda f: np.savez_compressed(f, **arrays))


def simulate_slime(ticks: int, pokes: Sequence = (), stacks: int | None = None, slices: int | None = None,
                   progress: bool = False, material: str | None = None):
    """Run the lone slime (of ``material``, default jelly) for ``ticks`` frames, poked by ``pokes``
    (``Poke`` events); returns the arrays written to the .npz."""
    from slime.scenes.world_format import LONE_SLIME, lone_slime_spec

    return simulate_world(lone_slime_spec(stacks, slices).with_events(pokes, LONE_SLIME), ticks, progress, material)


def simulate_world(scene, ticks: int, progress: bool = False, material: str | None = None):
    """Run a 3D scene (a ``WorldSpec``, a bundled name or a scene file) for ``ticks`` frames,
    ``material`` for its slimes that name none; returns the arrays written to the .npz."""
    from slime.scenes.world_format import WorldSpec, load_world_scene
    from slime.scenes.world_run import record

    spec = scene if isinstance(scene, WorldSpec) else load_world_scene(scene)
    return record(spec, ticks, spec.name or str(scene), progress, material)


def is_world(name_or_path) -> bool:
    """Whether a scene argument names a 3D scene (a bundled one, or a scene file with slimes)."""
    from slime.scenes.world_format import LONE_SLIME, is_world_file, world_scene_names

    if str(name_or_path) in (LONE_SLIME, *world_scene_names()):
        return True
    # A file is known by what it holds, not by its name (a scene saved as "myscene" is one); only
    # a Python scene file is known by its suffix, as Python imports it.
    path = Path(str(name_or_path))
    return path.suffix.lower() != ".py" and path.is_file() and is_world_file(path)


def simulate_scene(name_or_path: str, ticks: int, progress: bool = False):
    """Run a 2D scene for ``ticks`` frames; returns the arrays written to the .npz."""
    from slime.scenes import load_scene

    scene = load_scene(name_or_path)
    scene.headless()
    first = np.array(scene.positions(), dtype=np.float64)
    springs = np.array(scene.springs(), dtype=np.int64).reshape(-1, 2)
    positions, alive = allocate(
        f"recording {ticks} ticks of {name_or_path} ({first.shape[0]} points)",
        [((ticks + 1, *first.shape), np.float64), ((ticks + 1, springs.shape[0]), np.bool_)],
        hint="ask for fewer --ticks")
    positions[0], alive[0] = first, scene.alive()
    dt = float(getattr(scene, "dt", 1.0 / 60.0))
    for k in ticking(ticks, progress, f"simulating {Path(str(name_or_path)).name}"):
        scene.unattended(k)
        scene.step()
        positions[k + 1] = scene.positions()
        alive[k + 1] = scene.alive()
    report_problems(scene)
    return {
        "positions": positions,
        "springs": springs.astype(np.int32),
        "alive": alive,
        "time": np.arange(ticks + 1) * dt,
    }
