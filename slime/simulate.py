"""Headless simulation to .npz: the slime (3D) or any 2D scene, recorded every tick.

Output arrays (load with ``np.load(path)``):
- slime: ``positions (N+1, P, 3)``, ``triangles (M, 3)``, ``volume (N+1,)`` (the engine's
  slice-integrated volume), ``time (N+1,)``.
- a world of slimes (a 3D scene file): ``positions (N+1, P, 3)`` (every body's vertices, body after
  body), ``body (P,)`` (the body index of each vertex), ``triangles (M, 3)`` (indices into P),
  ``volume (N+1, B)`` (each body's engine volume), ``time (N+1,)``.
- 2D scenes: ``positions (N+1, P, 2)``, ``springs (S, 2)``, ``alive (N+1, S)``, ``time (N+1,)``.
Row 0 is the initial state; row k is the state after k ticks.

Also what a headless run of the slime needs beside (``slime render`` uses the same): the body at a
resolution, and pokes scheduled by frame. Numpy, and `slime render`'s progress bar; the command
line's parsing is in slime/arguments.py, a run's warnings in slime/problems.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from slime.fileio import atomic_write
from slime.memory import allocate
from slime.problems import report_problems
from slime.progress import progress_bar


@dataclass(frozen=True)
class Poke:
    """At frame ``tick``, push the slime at ``point`` with ``force`` (world units)."""

    tick: int
    point: tuple[float, float, float]
    force: tuple[float, float, float]


def poke_schedule(pokes: Sequence[Poke]) -> dict[int, list[Poke]]:
    """The pokes by the frame they act in."""
    by_tick: dict[int, list[Poke]] = {}
    for poke in pokes:
        by_tick.setdefault(int(poke.tick), []).append(poke)
    return by_tick


def apply_pokes(body, schedule: dict[int, list[Poke]], tick: int) -> None:
    """Push ``body`` with the pokes of frame ``tick`` (before that frame's step)."""
    for poke in schedule.get(tick, ()):
        body.poke(np.asarray(poke.point, dtype=np.float64), np.asarray(poke.force, dtype=np.float64))


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


def simulate_slime(ticks: int, pokes: Sequence[Poke] = (), stacks: int | None = None, slices: int | None = None,
                   progress: bool = False, material: str | None = None):
    """Run the slime (of ``material``, default jelly) for ``ticks`` frames; returns the arrays
    written to the .npz."""
    from slime.physics.slime3d.slime_body import SlimeBody
    from slime.physics.slime3d.sphere import vertex_count

    params = slime_params(stacks, slices, material)
    schedule = poke_schedule(pokes)
    n_points = vertex_count(params.stacks, params.slices)
    # The recording is refused before the body is built (seconds for the finest meshes).
    positions, volume, time = allocate(
        f"recording {ticks} ticks of a {params.stacks}x{params.slices} slime",
        [((ticks + 1, n_points, 3), np.float64), ((ticks + 1,), np.float64), ((ticks + 1,), np.float64)],
        hint="ask for fewer --ticks or a coarser --stacks/--slices")
    body = SlimeBody(params)
    positions[0], volume[0], time[0] = body.positions, body.volume(), 0.0
    for k in ticking(ticks, progress, "simulating slime"):
        apply_pokes(body, schedule, k)
        body.step()
        positions[k + 1], volume[k + 1], time[k + 1] = body.positions, body.volume(), (k + 1) * params.dt
    return {"positions": positions, "triangles": body.triangles.astype(np.int32), "volume": volume, "time": time}


def simulate_world(name_or_path, ticks: int, progress: bool = False, material: str | None = None):
    """Run a 3D scene (a bundled name or a scene file) for ``ticks`` frames, ``material`` for its
    slimes that name none; returns the arrays written to the .npz."""
    from slime.scenes.world_scene import load_world

    return record_world(load_world(name_or_path, material=material), ticks, str(name_or_path), progress)


def record_world(scene, ticks: int, name: str = "the scene", progress: bool = False):
    """Run a built ``WorldScene`` for ``ticks`` frames; returns the arrays written to the .npz."""
    world = scene.world
    n_points, n_bodies = world.positions.shape[0], len(world.bodies)
    positions, volume, time = allocate(
        f"recording {ticks} ticks of {name} ({n_bodies} slimes, {n_points} points)",
        [((ticks + 1, n_points, 3), np.float64), ((ticks + 1, n_bodies), np.float64), ((ticks + 1,), np.float64)],
        hint="ask for fewer --ticks")
    positions[0], volume[0], time[0] = world.positions, world.volumes(), 0.0
    for k in ticking(ticks, progress, f"simulating {Path(name).name}"):
        world.step()
        positions[k + 1], volume[k + 1], time[k + 1] = world.positions, world.volumes(), (k + 1) * world.dt
    return {"positions": positions, "body": world.body_of_vertex.astype(np.int32),
            "triangles": world.triangles.astype(np.int32), "volume": volume, "time": time}


def ticking(ticks: int, progress: bool, label: str):
    """``range(ticks)`` with `slime render`'s progress bar on stderr while it runs (``progress``,
    and only on a terminal: see slime.progress)."""
    with progress_bar(ticks, progress, label) as bar:
        for k in range(ticks):
            yield k
            bar.update(1)


def is_world(name_or_path) -> bool:
    """Whether a scene argument names a 3D scene (a bundled one, or a scene file with slimes)."""
    from slime.scenes.world_format import is_world_file, world_scene_names

    if str(name_or_path) in world_scene_names():
        return True
    path = Path(str(name_or_path))
    return path.suffix.lower() == ".json" and path.is_file() and is_world_file(path)


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
