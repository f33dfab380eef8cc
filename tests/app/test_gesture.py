"""The demo's left-button gesture without a window: a click pokes, a still hold presses, a drag
grabs, a release after a drag throws; fed mouse events as a window gets them (in bursts, one a
frame, each burst at its frame's time) and stepped as the window steps the world."""

from types import SimpleNamespace

import numpy as np
import pytest

from slime.app.gesture import CLICK_SLOP, HOLD_DELAY, MAX_STEPS_PER_FRAME, FixedSteps, Gesture
from slime.bench import feel
from slime.physics.slime3d.slime_params import SlimeParams
from slime.render.picking import RayHit

DT = 1.0 / 60.0
HAND = np.array([3.0, 2.0, 0.0])  # m/s: the fake hand's velocity on the drag plane


class FakePlay:
    """A WorldPlay that records what the hand does to it; every ray meets body 0 at the origin."""

    def __init__(self):
        self.calls, self.targets = [], []
        self.world = SimpleNamespace(time=0.0)
        self.generation, self.pressing, self.holding = 0, False, None

    def pick(self, origin, direction):
        return 0, RayHit(point=np.zeros(3), triangle=0, distance=1.0, barycentric=np.ones(3) / 3)

    def valid(self, body, generation):
        return generation == self.generation

    def grab(self, body, point):
        self.calls.append("grab")
        self.holding = body

    def drag_to(self, target):
        self.targets.append(np.array(target))

    def release(self, velocity=None):
        self.calls.append(("release", np.array(velocity)))
        self.holding = None

    def poke(self, body, point, direction):
        self.calls.append("poke")

    def press(self, body, point, direction):
        self.calls.append("press")
        self.pressing = True

    def unpress(self):
        self.calls.append("unpress")
        self.pressing = False

    def step(self):
        self.world.time += DT


def gesture(play: FakePlay) -> Gesture:
    # A window point is a centimetre of the drag plane z = 0 (rays straight down the z axis).
    return Gesture(play, lambda x, y: (np.array([x / 100.0, -y / 100.0, 5.0]), np.array([0.0, 0.0, -1.0])),
                   lambda: np.array([0.0, 0.0, 1.0]))


def frames(play, hand, events, fps, seconds=1.0):
    """Deliver ``events`` (time, kind, x, y) as a window of ``fps`` frames a second does, each
    frame's at once at its time, then its fixed steps with the hand steered before each."""
    steps, t, events = FixedSteps(), 0.0, list(events)
    while t < seconds:
        t += 1.0 / fps
        while events and events[0][0] <= t:
            _, kind, x, y = events.pop(0)
            getattr(hand, kind)(x, y, t)
        hand.tick(t)
        for _ in range(steps.count(1.0 / fps, DT)):
            hand.steer(DT)
            play.step()


def flick(seconds=0.3, rate=60.0):
    """A straight flick at HAND m/s (100 points a metre, y down), moves at ``rate`` a second."""
    count = round(seconds * rate)
    moves = [(k / rate, "move", 100.0 * HAND[0] * k / rate, -100.0 * HAND[1] * k / rate) for k in range(1, count + 1)]
    return [(0.0, "down", 0.0, 0.0), *moves, (moves[-1][0], "up", *moves[-1][2:])]


@pytest.mark.parametrize("fps", [60, 30, 15, 8])
def test_the_throw_hands_over_the_hands_velocity_at_any_frame_rate(fps):
    # In bursts of a frame's events, at 8 frames a second (the world in slow motion: 4 steps of
    # 1/60 s a frame), the release hands over the hand's own velocity, and the grab target walks
    # the hand's path one step of the physics' time at a time, ending where the cursor stopped.
    play = FakePlay()
    frames(play, gesture(play), flick(), fps)
    assert play.calls[0] == "grab" and play.calls[-1][0] == "release"
    assert np.allclose(play.calls[-1][1], HAND, rtol=0.1), play.calls[-1][1]
    path = np.array(play.targets)
    assert np.allclose(path[-1], 0.3 * HAND, atol=1e-9)
    speeds = np.linalg.norm(np.diff(path, axis=0), axis=1) / DT
    # No jump of a whole frame's motion in one step (8 frames a second: 7.5 steps of it); a
    # burst that carries two frames' moves (the frames' clock and the mouse's drift apart) doubles one.
    assert speeds.max() <= 2.1 * np.linalg.norm(HAND)


def test_a_flick_that_comes_in_one_burst_after_the_press_still_throws_its_way():
    # At 3 frames a second (a fine slime on a slow machine) a 0.1 s flick's moves and release all
    # come in the frame after the press: there are no earlier bursts to time it by, so the throw
    # is what the path shows from the press to the release, slower than the hand but its way
    # (it was handed 0 m/s, and the slime did not leave the hand).
    play = FakePlay()
    moves = [(0.4 + k / 100.0, "move", 100.0 * HAND[0] * k / 100.0, -100.0 * HAND[1] * k / 100.0) for k in range(1, 11)]
    frames(play, gesture(play), [(0.0, "down", 0.0, 0.0), *moves, (moves[-1][0], "up", *moves[-1][2:])], 3, seconds=3.0)
    thrown = play.calls[-1][1]
    assert play.calls[0] == "grab" and play.calls[-1][0] == "release"
    assert 0.2 * np.linalg.norm(HAND) < np.linalg.norm(thrown) <= np.linalg.norm(HAND), thrown
    assert thrown @ HAND / (np.linalg.norm(thrown) * np.linalg.norm(HAND)) > 0.99, thrown


def test_a_throw_waits_for_the_physics_and_a_long_drag_never_trails_far():
    play = FakePlay()
    hand = gesture(play)
    hand.down(0.0, 0.0, 0.0)
    hand.move(50.0, 0.0, 0.0)
    for k in range(1, 200):  # 2 s of dragging at 1 m/s with no step at all
        hand.move(50.0 + k, 0.0, k / 100.0)
    hand.up(249.0, 0.0, 1.99)
    assert play.calls == ["grab"]  # not thrown before the physics gets there
    hand.steer(DT)
    assert 1.99 - 0.5 - 0.01 <= play.targets[-1][0] <= 2.49 - 0.5  # caught up to half a second behind the hand
    for _ in range(40):
        hand.steer(DT)
    assert play.calls[-1][0] == "release" and np.allclose(play.calls[-1][1], [1.0, 0.0, 0.0])


def test_a_click_pokes_a_still_hold_presses_and_a_small_wobble_is_a_click():
    play = FakePlay()
    hand = gesture(play)
    hand.down(0.0, 0.0, 0.0)
    hand.move(CLICK_SLOP / 2, 0.0, 0.05)
    hand.tick(0.5 * HOLD_DELAY)
    hand.up(CLICK_SLOP / 2, 0.0, 0.1)
    assert play.calls == ["poke"]
    hand.down(0.0, 0.0, 1.0)
    hand.tick(1.0 + 1.5 * HOLD_DELAY)
    hand.move(3 * CLICK_SLOP, 0.0, 1.3)  # a held press stays a press
    hand.up(3 * CLICK_SLOP, 0.0, 1.4)
    assert play.calls == ["poke", "press", "unpress"]
    hand.down(0.0, 0.0, 2.0)
    play.generation += 1  # a slime dropped in the meantime: the press no longer names its slime
    hand.up(0.0, 0.0, 2.05)
    assert play.calls == ["poke", "press", "unpress"]


def test_fixed_steps_slow_the_world_down_past_the_frames_limit():
    steps = FixedSteps()
    assert sum(steps.count(1.0 / 30.0, DT) for _ in range(30)) in (59, 60)  # a second's worth, give or take a float
    assert steps.count(1.0, DT) == MAX_STEPS_PER_FRAME  # a stalled second is 4 steps, not 60
    assert steps.count(DT, DT) <= 2  # and leaves at most one step behind


@pytest.mark.parametrize("fps", [30, pytest.param(12, marks=pytest.mark.slow)])
def test_a_flick_in_the_window_throws_the_jelly_a_body_length(fps):
    # The demo's gesture, fed a flick at 4 m/s up and to the side from just under the top of the
    # outline (as a window of ``fps`` gets it), into the jelly's world: it leaves the floor and lands
    # more than a body length away (the API path's throw; before, the hand's velocity came out of
    # the events' arrival times at hundreds of m/s and only a pinched tip moved).
    thrown = feel.window_throw(SlimeParams(stacks=16, slices=16), fps=fps, seconds=3.0)
    assert 3.5 <= thrown["throw_speed"] <= 4.5, thrown
    assert thrown["throw_lift"] > 0.05 and thrown["throw_reach"] >= 1.0, thrown
