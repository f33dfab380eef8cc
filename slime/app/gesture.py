"""The left button on a slime, as a unit with its clock passed in (no window, no wall clock inside):
a click pokes, a button held still presses a finger in, a drag grabs and pulls, and the release
after a drag throws (Ten Minute Physics' grab: the grabbed point pinned to the cursor, the hand's
velocity handed back on release).

The hand's motion is kept as a path on the caller's clock (the window passes the time each event
came) and handed to the physics on the physics' own clock: before each step ``steer(dt)`` moves the
grab target one step of simulated time further along the path, and the release happens when the
physics reaches the moment the button came up, with the path's velocity over its last
``THROW_WINDOW`` seconds of whole bursts (see ``up``). So the world gets the same hand motion at any frame rate, as the API path
gives it (``drag_to`` a moving target between steps, ``release(velocity)``): a window's events come in
bursts, one a frame, and a busy machine steps the world slower than the clock on the wall; measured
from the events' own arrival times and applied once a frame, a flick came out at hundreds of m/s
on one patch of skin while the rest of the body never moved with the hand (a pinched tip on the
floor).

A hand more than ``MAX_LAG`` seconds of its path ahead of the physics (a long drag on a machine
that steps the world in slow motion) is caught up to that lag, so a drag never trails the cursor
for long.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from slime.render.picking import RayHit, intersect_plane

CLICK_SLOP = 4.0  # window points the cursor may move and still count as a click
HOLD_DELAY = 0.2  # seconds a still left button is held before the click becomes a press (a finger pushing in)
THROW_WINDOW = 0.1  # seconds of the hand's path, before the release, that its throwing velocity is measured over
BURST = 0.005  # seconds: events handled closer together than this came in one burst (one frame's)
MAX_LAG = 0.5  # seconds of the hand's path the physics may be behind it (see the module's docstring)
MAX_STEPS_PER_FRAME = 4  # past this the simulation slows down instead of spiralling


class FixedSteps:
    """How many fixed steps of ``dt`` a frame of ``frametime`` seconds takes (an accumulator, at
    most ``MAX_STEPS_PER_FRAME``: past that the world runs in slow motion rather than spiralling)."""

    def __init__(self):
        self.accumulator = 0.0

    def count(self, frametime: float, dt: float) -> int:
        self.accumulator += min(float(frametime), 0.25)
        steps = min(int(self.accumulator // dt), MAX_STEPS_PER_FRAME)
        self.accumulator -= steps * dt
        if steps == MAX_STEPS_PER_FRAME:
            self.accumulator = min(self.accumulator, dt)
        return steps

    def stop(self) -> None:
        """Paused: no time carries over into the next frame."""
        self.accumulator = 0.0


@dataclass
class Press:
    """A left press on a slime, not yet a drag."""

    x: float
    y: float
    body: int
    hit: RayHit
    direction: np.ndarray  # the view ray it was pressed along
    at: float  # the caller's clock
    generation: int  # the world's layout it was taken in (WorldPlay.generation)


def _silent(message: str) -> None:
    pass


class Gesture:
    """The left button's gesture on ``play`` (a ``WorldPlay``). ``ray(x, y)`` is the (origin,
    direction) under a window point; ``facing()`` the direction the drag plane faces (toward the
    camera); ``log`` takes a line for each thing the hand does (the window's event log)."""

    def __init__(self, play, ray: Callable, facing: Callable[[], np.ndarray], log: Callable[[str], None] = _silent):
        self.play, self.ray, self.facing, self.log = play, ray, facing, log
        self.press: Press | None = None
        self.plane = None  # (point, normal) the grabbed point is dragged across, while dragging
        self.path: list[tuple[float, np.ndarray]] = []  # (time, target) of the hand since the grab
        self.reached: float | None = None  # how far along the path (its clock) the physics is
        self.let_go: float | None = None  # when the button came up on a drag the physics has yet to reach
        self.measure_at: float | None = None  # the end of the path's stretch the throw's velocity is taken over
        self.thrown: np.ndarray | None = None  # the last throw's velocity (m/s)

    @property
    def dragging(self) -> bool:
        return self.plane is not None

    def forget(self) -> None:
        """The world was laid out again (the hand let go): nothing is held or pressed any more."""
        self.press, self.plane, self.path, self.reached, self.let_go = None, None, [], None, None

    def _pressed(self) -> Press | None:
        """The press, while its body index still names the same slime."""
        if self.press is not None and not self.play.valid(self.press.body, self.press.generation):
            self.forget()
        return self.press

    # --- events, on the caller's clock ----------------------------------------------------------
    def down(self, x: float, y: float, now: float) -> None:
        if self.let_go is not None:
            self._throw()  # a throw the physics has not reached yet is thrown now
        origin, direction = self.ray(x, y)
        found = self.play.pick(origin, direction)
        self.press = None
        if found is not None:
            body, hit = found
            self.press = Press(x, y, body, hit, np.asarray(direction, dtype=np.float64), now, self.play.generation)

    def move(self, x: float, y: float, now: float) -> None:
        """The cursor at (x, y) with the left button down."""
        if self.play.pressing or self.let_go is not None:
            return  # a held press stays a press until the button comes up
        pressed = self._pressed()
        if pressed is not None and not self.dragging and abs(x - pressed.x) + abs(y - pressed.y) > CLICK_SLOP:
            point = pressed.hit.point
            self.play.grab(pressed.body, point)
            # Dragged across the plane through the grabbed point that faces the camera.
            self.plane = (point.copy(), np.asarray(self.facing(), dtype=np.float64))
            self.path, self.reached = [(pressed.at, point.copy())], pressed.at
            self.log(f"grab {point[0]:.3f} {point[1]:.3f} {point[2]:.3f}")
        if self.dragging:
            origin, direction = self.ray(x, y)
            target = intersect_plane(origin, direction, *self.plane)
            if target is not None:
                self._record(now, target)

    def up(self, x: float, y: float, now: float) -> None:
        pressed = self._pressed()
        if self.play.pressing:
            self.play.unpress()  # the dent springs back
            self.log("unpress")
            self.log(f"released at {self.play.world.time:.4f}")
        elif self.dragging and self.play.holding is not None:
            moving = len(self.path) > 1 and now - self.path[-1][0] <= BURST  # moved in this burst of events
            self._record(now, self.path[-1][1])
            self.let_go = self.path[-1][0]
            # A burst's events came at some time during the frame before it: for the ones before
            # the last, the burst's time is as late as the one before it (the velocity between them
            # is right), but the button may have come up early in the last one. So the throw's
            # velocity, where the hand moved in that burst, is what the whole bursts before it show;
            # where there are none (a window so slow that the whole flick came in one burst after
            # the press), what the path shows from the press to the release.
            self.measure_at = self.path[-2][0] if moving and len(self.path) > 2 else self.let_go
            return  # thrown when the physics gets there (steer)
        elif pressed is not None and not self.dragging:
            _, direction = self.ray(x, y)
            # A push into the slime where the ray hits it, toward its centre (WorldPlay.poke).
            self.play.poke(pressed.body, pressed.hit.point, direction)
            point = pressed.hit.point
            self.log(f"poke {point[0]:.3f} {point[1]:.3f} {point[2]:.3f}")
            self.log(f"poked at {self.play.world.time:.4f}")  # the simulation's clock, seconds
        self.forget()

    def tick(self, now: float) -> None:
        """Once a frame: a press held still for HOLD_DELAY becomes a finger pressing in along the
        ray it was pressed on (World3D.press); a drag's cursor is where it was (a hand held still
        between moves is still, not on its way to the next one)."""
        if self.dragging:
            if self.let_go is None:
                self._record(now, self.path[-1][1])
            return
        if self.play.pressing:
            return
        pressed = self._pressed()
        if pressed is not None and now - pressed.at >= HOLD_DELAY:
            self.play.press(pressed.body, pressed.hit.point, pressed.direction)
            point = pressed.hit.point
            self.log(f"press {point[0]:.3f} {point[1]:.3f} {point[2]:.3f}")
            self.log(f"pressed at {self.play.world.time:.4f}")  # the simulation's clock, seconds

    def _record(self, now: float, target: np.ndarray) -> None:
        """The hand at ``target`` at ``now``. Events of one burst (each within ``BURST`` of the
        one before) are one moment of the path, the last of them: the window handles a frame's
        events one after the other, a fraction of a millisecond apart, long after they came."""
        now = max(float(now), self.path[-1][0])
        if now - self.path[-1][0] <= BURST and len(self.path) > 1:
            self.path[-1] = (now, target)
        else:
            self.path.append((now, target))

    # --- the physics' clock -------------------------------------------------------------------
    def steer(self, dt: float) -> None:
        """Before each step of ``dt`` simulated seconds: the grab target one step further along the
        hand's path; the throw, once the physics reaches the release."""
        if not self.dragging or self.play.holding is None:
            if self.dragging:
                self.forget()  # the world let go (a re-layout)
            return
        end = self.path[-1][0]
        self.reached = min(max(self.reached + float(dt), end - MAX_LAG), end)
        self.play.drag_to(self.where(self.reached))
        if self.let_go is not None and self.reached >= self.let_go:
            self._throw()

    def where(self, t: float) -> np.ndarray:
        """The hand's target at time ``t`` of its path (linear between the times it was seen)."""
        times = np.array([s for s, _ in self.path])
        points = np.array([p for _, p in self.path])
        return np.array([np.interp(t, times, points[:, c]) for c in range(3)])

    def velocity(self, t: float) -> np.ndarray:
        """The hand's velocity over the ``THROW_WINDOW`` seconds of its path before ``t`` (over all
        of it, where it is shorter); 0 for a path without time."""
        start = max(t - THROW_WINDOW, self.path[0][0])
        if t - start <= 1e-6:
            return np.zeros(3)
        return (self.where(t) - self.where(start)) / (t - start)

    def finish(self) -> None:
        """Throw now what the physics has yet to reach (the world is paused: no step will)."""
        if self.let_go is not None:
            self._throw()

    def _throw(self) -> None:
        velocity = self.velocity(self.measure_at)
        if self.play.holding is not None:
            self.play.drag_to(self.where(self.let_go))
            self.play.release(velocity=velocity)
            self.thrown = velocity
            self.log(f"release {velocity[0]:.3f} {velocity[1]:.3f} {velocity[2]:.3f}")
            self.log(f"thrown at {self.play.world.time:.4f}")  # the simulation's clock, seconds
        self.forget()
