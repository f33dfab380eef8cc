"""How the slime feels, measured: a click's dent and wobble, a drop's splat and bounce, a throw's
coming to rest, and the settled height, per mesh resolution (``slime bench --only feel``).

Rows: {"benchmark": "feel", "stacks", "slices", "material", "settled_height", "dent", "dent_at",
"dent_held", "wobble_hz", "wobble_peaks", "drop_squash", "drop_bounce", "throw_speed", "throw_lift", "throw_reach",
"throw_rest_s", "wall_rest_s"}:
  settled_height   the settled slime's height over its rest diameter;
  dent             the deepest the clicked top goes below where it was, in radii (the window's
                   click: ``POKE_IMPULSE`` per kilogram over one frame, straight down at the top);
  dent_at          when that is, in seconds after the click;
  dent_held        how long the dent stays deeper than 8 % of the radius, from the click on (s);
  wobble_hz        the top's ringing after the dent, cycles per second, from when its first
                   swings cross its final level (0 with fewer than two swings);
  wobble_peaks     how many swings of that ringing, up or down, reach past 2 % of the radius
                   on the other side of its final level from the swing before;
  drop_squash      1 - the least height over the rest height, dropped with its bottom 2 m up;
  drop_bounce      the highest its bottom comes back up after the first touch, over the 2 m;
  throw_speed      the window's throw (``window_throw``: the demo's gesture fed a flick up and to
                   the side at 4 m/s, grabbed at the top of the outline, frame by frame as a window
                   gets it): the hand's velocity handed over at the release, m/s;
  throw_lift       the highest the slime's lowest point gets off the floor after it (m);
  throw_reach      how far its centre lands from where it was, across the floor (body lengths);
  throw_rest_s     seconds from the release until its kinetic energy keeps under 1 % of the
                   release's (inf when not within 5 s);
  wall_rest_s      set moving level at 20 m/s into a wall (a box 2 radii ahead of it): seconds
                   until its kinetic energy is under 1 % of the start's.
"""

from __future__ import annotations

import math

import numpy as np

from slime.app.gesture import FixedSteps, Gesture
from slime.app.render_slime import default_camera
from slime.app.world_play import POKE_IMPULSE, WorldPlay, single_slime_world  # the window's click, N s per kg
from slime.obstacle_kinds import Box
from slime.physics.slime3d.materials import MATERIALS
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
from slime.physics.slime3d.world3d import World3D
from slime.render.picking import intersect_plane

SIZES = (16, 32, 64, 128)


def settled(params: SlimeParams, seconds: float = 1.5) -> SlimeBody:
    body = SlimeBody(params)
    for _ in range(round(seconds / params.dt)):
        body.step()
    return body


def click(body: SlimeBody, seconds: float = 1.5) -> dict:
    """The window's click on the top of a settled slime, and the top's height after it."""
    prm = body.params
    top = int(np.argmax(body.positions[:, 1]))
    start = float(body.positions[top, 1])
    above = start - float(body.centroid()[1])
    body.poke(body.positions[top], (0.0, -POKE_IMPULSE * prm.mass / prm.dt, 0.0))
    heights, reach = [], []
    for _ in range(round(seconds / prm.dt)):
        body.step()
        heights.append(float(body.positions[top, 1]))
        reach.append(heights[-1] - float(body.centroid()[1]))
    dent = (start - np.array(heights)) / prm.radius  # > 0: below where it was
    # The wobble is the body's own: the top over the centre of mass, so that the whole body
    # settling or hopping on the floor is not read as ringing.
    shape = (above - np.array(reach)) / prm.radius
    deepest = int(np.argmax(dent))
    # How long the dent itself stays past 8 %: from the click, frames in a row (a later swing
    # back down is the wobble, not the dent).
    past = dent > 0.08
    held = float(np.argmin(past) if not past.all() else len(past)) * prm.dt if past[0] else 0.0
    # The ringing after the dent: the top's swings over the centre about their final level, past
    # the deepest point. A swing counts when it reaches past 2 % of the radius on the other side
    # of the level from the last one (a Schmitt trigger: ripples riding on a swing, and the last
    # quiver about the level, are not wobbles of their own).
    after = shape[-1] - shape[deepest:]
    side, turns = 0, []
    for k, value in enumerate(after):
        now = 1 if value > 0.02 else -1 if value < -0.02 else 0
        if now and now != side:
            if side:
                turns.append(k)
            side = now
    peaks = len(turns)  # swings up or down past 2 %, after the dent's own
    # The frequency from the times the ringing's first swings cross the final level (each found
    # between two frames by linear interpolation), after the dent's own way back up, which is a
    # slam against the floor rather than a swing: the later, smaller swings may or may not pass
    # 2 % on a given mesh.
    hz = 0.0
    sign = np.signbit(after)
    cross = np.flatnonzero(sign[1:] != sign[:-1])
    times = [k + after[k] / (after[k] - after[k + 1]) for k in cross[1:5]]
    if len(times) >= 2 and peaks >= 2:
        hz = float((len(times) - 1) / (2.0 * (times[-1] - times[0]) * prm.dt))
    return {"dent": float(dent[deepest]), "dent_at": (deepest + 1) * prm.dt, "dent_held": held,
            "wobble_hz": hz, "wobble_peaks": peaks}


def drop(params: SlimeParams, height: float = 2.0, seconds: float = 2.0) -> dict:
    """Dropped from rest with its bottom ``height`` up: how flat it gets and how high it comes back."""
    body = SlimeBody(params.with_(center=(0.0, params.floor_height + height + params.radius, 0.0)))
    rest_height = 2.0 * params.radius
    least, touched, bounce = math.inf, False, 0.0
    for _ in range(round(seconds / params.dt)):
        body.step()
        y = body.positions[:, 1]
        bottom = float(y.min()) - params.floor_height
        least = min(least, float(y.max() - y.min()))
        if bottom < 1e-3:
            touched = True
        elif touched:
            bounce = max(bounce, bottom)
    return {"drop_squash": 1.0 - least / rest_height, "drop_bounce": bounce / height}


def seconds_to_rest(world, dt: float, seconds: float) -> float:
    """Seconds of ``world.step()`` (frames of ``dt``) until its kinetic energy is under 1 % of the
    start's; inf when not within ``seconds``."""
    start = world.kinetic_energy()
    for k in range(round(seconds / dt)):
        world.step()
        if world.kinetic_energy() < 0.01 * start:
            return (k + 1) * dt
    return math.inf


FLICK_SPEED = 4.0  # m/s: the throw's flick, up and to the side across the screen
FLICK_SECONDS = 0.3  # how long the flick lasts
FLICK_WINDOW = (640, 480)  # the window (points) it is done in, from the demo's camera
MOUSE_RATE = 60.0  # mouse moves a second


def flick_events(play, camera, speed: float = FLICK_SPEED, seconds: float = FLICK_SECONDS,
                 size=FLICK_WINDOW, into: float = 0.01, angle: float = 45.0) -> list[tuple[float, str, float, float]]:
    """A flick as the window's mouse gives it, (time, "down" | "move" | "up", x, y) in window
    points: the button goes down just under the top of the slime's outline (the column through the
    window's middle), the cursor moves up and to the right at 45 degrees, ``MOUSE_RATE`` moves a
    second for ``seconds``, at the pixel speed that moves the drag plane's point at ``speed`` m/s,
    and the button comes up where it stopped."""
    x = size[0] / 2
    for y in range(size[1]):
        if play.pick(*camera.ray(x, y, size)) is not None:
            break
    else:
        raise ValueError("the flick finds no slime in the window's middle column")
    y += into * size[1]  # into the outline, not on its edge
    origin, direction = camera.ray(x, y, size)
    _, hit = play.pick(origin, direction)
    # The pixel speed that moves the drag plane's point ``speed * seconds`` metres in all (the
    # plane the gesture drags across; its metres per point change along the way).
    plane = (hit.point, -camera.forward())
    right, up = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    reach = speed * seconds
    points = reach / 0.01  # first guess: a hundred points a metre
    for _ in range(20):
        end = intersect_plane(*camera.ray(x + points * right, y - points * up, size), *plane)
        moved = float(np.linalg.norm(end - hit.point)) if end is not None else math.inf
        points *= reach / moved if 0.0 < moved < math.inf else 0.5
    step = points / (seconds * MOUSE_RATE)
    right, up = step * right, step * up
    moves = round(seconds * MOUSE_RATE)
    events = [(0.0, "down", x, y)]
    events += [(k / MOUSE_RATE, "move", x + k * right, y - k * up) for k in range(1, moves + 1)]
    events.append((moves / MOUSE_RATE, "up", x + moves * right, y - moves * up))
    return events


def window_throw(params: SlimeParams, fps: float = 30.0, seconds: float = 5.0, speed: float = FLICK_SPEED,
                 **flick) -> dict:
    """The window's throw without the window: a settled slime, the demo's camera, ``flick_events``
    fed to the window's gesture as a window of ``fps`` frames a second gets them (each frame's
    events at once, at the frame's time; then the frame's fixed steps, as many as the window takes,
    the hand steered before each), and the slime left alone after. Returns "throw_speed" (the
    release velocity's size, m/s), "throw_lift" (the highest its lowest point gets off the floor, m),
    "throw_reach" (how far its centre lands from where it was, across the floor, in body
    lengths, 2 radii), "throw_rest_s" (seconds from the release until its kinetic energy keeps
    under 1 % of the release's; inf when not within ``seconds``)."""
    play = WorldPlay(single_slime_world(params), params)
    for _ in range(round(1.0 / params.dt)):
        play.step()
    camera = default_camera(play.world.bodies[0])
    events = flick_events(play, camera, speed, **flick)
    gesture = Gesture(play, lambda x, y: camera.ray(x, y, FLICK_WINDOW), lambda: -camera.forward())
    world, steps, frame = play.world, FixedSteps(), 1.0 / fps
    start = world.centroids()[0].copy()
    lift, released, energy, rest = 0.0, None, None, math.inf
    t, end = 0.0, events[-1][0] + seconds + 1.0
    while t < end:
        t += frame
        while events and events[0][0] <= t:
            _, kind, x, y = events.pop(0)
            getattr(gesture, kind)(x, y, t)
        gesture.tick(t)
        for _ in range(steps.count(frame, world.dt)):
            gesture.steer(world.dt)
            play.step()
            if released is not None:
                lift = max(lift, float(world.positions[:, 1].min()) - float(world.floor_height))
                if world.kinetic_energy() < 0.01 * energy:
                    rest = world.time - released
                    break
            elif gesture.thrown is not None:
                released, energy = world.time, world.kinetic_energy()
        if rest < math.inf or (released is not None and world.time - released > seconds):
            break
    landed = world.centroids()[0] - start
    return {"throw_speed": 0.0 if gesture.thrown is None else float(np.linalg.norm(gesture.thrown)), "throw_lift": lift,
            "throw_reach": float(np.hypot(landed[0], landed[2])) / (2.0 * float(params.radius)), "throw_rest_s": rest}


def throw_at_wall(params: SlimeParams, speed: float = 20.0, seconds: float = 5.0) -> float:
    """Seconds until a slime thrown level at ``speed`` into a wall (a box 2 radii ahead of it)
    keeps under 1 % of its start's kinetic energy."""
    r = params.radius
    world = World3D.for_slime(params)
    world.add_slime(params.with_(center=(0.0, params.floor_height + 1.5 * r, 0.0)), velocity=(speed, 0.0, 0.0))
    world.add_obstacle(Box(center=(3.5 * r, params.floor_height + 2.0 * r, 0.0), half_size=(0.25 * r, 2.0 * r, 3.0 * r)))
    return seconds_to_rest(world, params.dt, seconds)


def feel(params: SlimeParams, material: str = "") -> dict:
    body = settled(params)
    y = body.positions[:, 1]
    row = {"benchmark": "feel", "stacks": params.stacks, "slices": params.slices, "material": material,
           "settled_height": float(y.max() - y.min()) / (2.0 * params.radius)}
    row.update(click(body))
    row.update(drop(params))
    row.update(window_throw(params))
    row["wall_rest_s"] = throw_at_wall(params)
    return row


def run(quick: bool = False) -> list[dict]:
    """A row per material and resolution (quick: the two coarsest)."""
    return [feel(SlimeParams.of_material(material, stacks=size, slices=size), material)
            for material in MATERIALS for size in (SIZES[:2] if quick else SIZES)]


if __name__ == "__main__":
    from slime.bench import format_table

    print(format_table(run(quick=True)))
