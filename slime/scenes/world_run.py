"""One headless run of any 3D scene (the lone slime, a bundled scene, a scene file): its world
stepped frame by frame, the scene's timed events (``world_format.Event``: pokes, grabs, drags,
releases, presses) acted out at the start of their frame, before its step. ``slime simulate``
records it (``record``), ``slime render`` draws it after each step (``run``): the same run for every
3D scene. Numpy only."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np

from slime.memory import allocate
from slime.problems import report_problems
from slime.progress import ticking
from slime.scenes.world_scene import WorldScene, build_world

# A poke, grab or press meets the slime whose surface is nearest its point, and only one within
# this many of its radii: farther off, it was aimed at nothing (a typo, or the wrong scene).
EVENT_REACH = 1.0


def check_events(events, frames: int) -> None:
    """Each event within a run of ``frames`` frames; a one-line ValueError naming the first past it."""
    for event in events:
        if not 0 <= event.tick < frames:
            raise ValueError(f"{event.where or 'an event'}: {event.kind} tick must be a frame number from 0 to "
                             f"{frames - 1}, got {event.tick}")


def surface_distances(world, point) -> np.ndarray:
    """(B,) how far ``point`` is from each slime's surface, sampled at its vertices; 0 for a point
    inside the ball about its centre that its nearest vertex bounds (its middle)."""
    point = np.asarray(point, dtype=np.float64)
    positions = world.positions
    distances = np.empty(len(world.bodies))
    for index, (body, centre) in enumerate(zip(world.bodies, world.centroids())):
        points = positions[body.start:body.stop]
        middle = float(np.min(np.linalg.norm(points - centre, axis=1)))
        distances[index] = 0.0 if np.linalg.norm(point - centre) < middle else \
            float(np.min(np.linalg.norm(points - point, axis=1)))
    return distances


def slime_at(scene: WorldScene, event) -> int:
    """The body ``event``'s point meets: the slime whose surface is nearest it, within EVENT_REACH
    of its radii; a one-line ValueError when it meets none."""
    world = scene.world
    distances = surface_distances(world, event.point)
    index = int(np.argmin(distances))
    radius = float(world.bodies[index].params.radius)
    if distances[index] > EVENT_REACH * radius:
        point = ", ".join(f"{v:g}" for v in event.point)
        raise ValueError(f"{event.where or 'an event'}: the {event.kind} at tick {event.tick} meets no slime: the "
                         f"nearest, slimes[{scene.file_index(index)}], is {distances[index]:.3g} m from ({point}), "
                         f"farther than its radius of {radius:g} m")
    return index


def act(scene: WorldScene, event) -> None:
    """The hand does ``event`` in the scene's world now."""
    world = scene.world
    if event.kind == "drag":
        world.drag_to(event.target)
    elif event.kind == "release":
        world.release(event.velocity)
    elif event.kind == "unpress":
        world.unpress()
    else:
        index = slime_at(scene, event)
        if event.kind == "poke":
            world.poke(index, event.point, event.force)
        elif event.kind == "grab":
            world.grab(index, event.point)
        else:
            world.press(index, event.point, event.direction)


def run(scene: WorldScene, frames: int, *, progress: bool = False, label: str = "") -> Iterator[int]:
    """Step the scene ``frames`` frames, its events (``scene.spec.events``) acted out at the start of
    their frame; yields each frame's number after its step. Events past the run are refused
    before the first step."""
    events = scene.spec.events
    check_events(events, frames)
    by_tick: dict[int, list] = {}
    for event in events:
        by_tick.setdefault(event.tick, []).append(event)
    for tick in ticking(frames, progress, label):
        for event in by_tick.get(tick, ()):
            act(scene, event)
        scene.world.step()
        yield tick
    report_problems(scene.world)  # a slime put back by recovery: once a run, one line on stderr


def record(scene, ticks: int, name: str = "the scene", progress: bool = False, material: str | None = None) -> dict:
    """Run the scene ``ticks`` frames (``run``) and return what ``slime simulate`` writes to its .npz
    (slime/simulate.py's docstring): every vertex's position, its body, the triangles, each
    slime's volume (one column, squeezed, for a scene of one slime) and the time, row 0 the start,
    and how many times a slime was put back by recovery.
    ``scene``: a built ``WorldScene``, or a ``WorldSpec`` built here (``material`` for its slimes
    that name none) once the recording's memory is found, so a recording too large is refused
    before a fine mesh takes seconds to build."""
    spec = scene.spec if isinstance(scene, WorldScene) else scene
    slimes = spec.slimes
    n_points, n_bodies = spec.vertex_count, len(slimes)
    what = (f"a {slimes[0].stacks}x{slimes[0].slices} slime" if n_bodies == 1 else f"{n_bodies} slimes") + \
        f", {n_points} points"
    positions, volume, time = allocate(
        f"recording {ticks} ticks of {name} ({what})",
        [((ticks + 1, n_points, 3), np.float64), ((ticks + 1, n_bodies), np.float64), ((ticks + 1,), np.float64)],
        hint="ask for fewer --ticks" + (" or a coarser --stacks/--slices" if n_bodies == 1 else ""))
    if not isinstance(scene, WorldScene):
        scene = build_world(spec, material)
    world = scene.world
    positions[0], volume[0], time[0] = world.positions, world.enclosed_volumes(), 0.0
    for k in run(scene, ticks, progress=progress, label=f"simulating {Path(name).name}"):
        positions[k + 1], volume[k + 1], time[k + 1] = world.positions, world.enclosed_volumes(), (k + 1) * world.dt
    return {"positions": positions, "body": world.body_of_vertex.astype(np.int32),
            "triangles": world.triangles.astype(np.int32), "volume": volume[:, 0] if n_bodies == 1 else volume,
            "time": time, "recoveries": np.int64(world.recoveries)}
