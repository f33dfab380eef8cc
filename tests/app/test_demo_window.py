"""The interactive window for real: the demo under Xvfb with the pyglet backend, driven by X
events from xdotool (a click, a held drag, keys), checked on its own screenshots (the P key).

In CI (``CI`` set) a missing Xvfb/xdotool or OpenGL fails; elsewhere it skips with the reason.
"""

import sys
import time

import numpy as np
import pytest

from conftest import missing
from demo_process import WINDOW, Demo
from helpers import jelly

from slime.app.demo import HELP, run_demo
from slime.render.context import GLUnavailable, create_headless_context


@pytest.mark.slow
def test_window_click_pokes_and_drag_pulls_the_slime(xvfb, tmp_path):
    demo = Demo(xvfb, tmp_path)
    try:
        window = demo.focus()
        time.sleep(1.0)
        before = demo.screenshot()
        mask = jelly(before)
        assert mask.sum() > 0.04 * mask.size, "no slime on screen"
        rows, cols = np.nonzero(mask)
        cx, cy = int(cols.mean()), int(rows.mean())

        # A click on the body pokes it where the cursor's ray meets the surface.
        demo.xdo("mousemove", "--window", window, str(cx), str(cy), "click", "1")
        demo.wait_for(lambda: demo.logged("poke"), "the poke")
        poke = np.array([float(v) for v in demo.logged("poke")[0].split()[1:]])
        assert np.all(np.isfinite(poke)) and poke[1] > 0.0  # a point on the body, above the floor

        # Let it settle, then grab it and hold it out to the right and up.
        time.sleep(1.5)
        rest = jelly(demo.screenshot())
        # Aim at where the body is now: the poke may have rolled it (slowly, on a loaded machine).
        r_rows, r_cols = np.nonzero(rest)
        gx, gy = int(r_cols.mean()), int(r_rows.mean())
        demo.xdo("mousemove", "--window", window, str(gx), str(gy - 20), "mousedown", "1")
        for step in range(1, 11):
            demo.xdo("mousemove", "--window", window, str(gx + 18 * step), str(gy - 20 - 6 * step))
            time.sleep(0.03)
        demo.wait_for(lambda: demo.logged("grab"), "the grab")
        time.sleep(1.0)
        held = jelly(demo.screenshot())
        demo.xdo("mouseup", "1")
        demo.wait_for(lambda: demo.logged("release"), "the release")

        h_rows, h_cols = np.nonzero(held)
        # The body follows the cursor: its silhouette moves to the right on screen.
        assert h_cols.mean() - r_cols.mean() > 10.0, (r_cols.mean(), h_cols.mean())
        assert np.count_nonzero(held != rest) > 0.05 * rest.sum()

        demo.quit()
    finally:
        demo.stop()


def test_no_display_gives_one_line_and_status_2(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert run_demo(size=(320, 240)) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "no display" in err and "slime render" in err


@pytest.mark.slow
def test_headless_backend_runs_frames_and_quits(monkeypatch):
    try:
        create_headless_context().release()
    except GLUnavailable as exc:
        missing(f"OpenGL ({exc})")
    monkeypatch.setattr(sys, "argv", ["pytest", "--this-would-break-argparse"])  # never parsed
    assert run_demo(window="headless", size=(160, 120), frames=3, stacks=8, slices=8) == 0


def test_help_lists_every_key():
    keys = {k for k, _ in HELP}
    for key in ("R", "S", "Space", "W", "G", "H", "P", "Esc", "Up / Down", "Left / Right"):
        assert key in keys


def test_every_key_of_the_table_is_a_key_and_calls_a_method_of_the_window():
    from moderngl_window.context.base import BaseKeys

    from slime.app.demo import DemoWindow
    from slime.app.demo_keys import INPUT

    named = [name for row in INPUT for name in row.keys]
    assert len(named) == len(set(named)) >= 16  # no key does two things
    for row in INPUT:
        for name, (method, *arguments) in row.keys.items():
            assert hasattr(BaseKeys, name), (row.label, name)
            assert callable(getattr(DemoWindow, method, None)), (row.label, method)


def test_a_click_dents_the_slime_visibly():
    # The window's click is a poke of POKE_IMPULSE per kg along the view ray; straight down on the
    # top it must dent the slime by a good part of its radius (0.6 N s/kg once gave 10 %, unseen).
    from slime.app.demo import POKE_IMPULSE
    from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams

    body = SlimeBody(SlimeParams())
    for _ in range(30):
        body.step()
    resting = body.shape_error()  # gravity squashes it a little
    top = int(np.argmax(body.positions[:, 1]))
    height = body.positions[top, 1]
    force = np.array([0.0, -1.0, 0.0]) * POKE_IMPULSE * body.params.mass / body.params.dt
    body.poke(body.positions[top], force)
    lowest = height
    for _ in range(10):
        body.step()
        lowest = min(lowest, body.positions[top, 1])
    assert height - lowest > 0.2 * body.params.radius
    for _ in range(120):
        body.step()
    assert body.shape_error() < resting + 0.02  # and it comes back round


def silhouette_top(mask: np.ndarray) -> float:
    """Row of the silhouette's top: the highest row with at least 3 slime pixels, refined to a
    fraction by how full that row and the one under it are (a stray pixel or a specular glint
    does not move it; the edge's antialiasing gives part of a row)."""
    counts = mask.sum(axis=1)
    rows = np.flatnonzero(counts >= 3)
    assert rows.size, "no slime on screen"
    top = int(rows[0])
    below = max(int(counts[top + 1]) if top + 1 < len(counts) else 1, 1)
    return top + 1.0 - min(counts[top] / below, 1.0)


@pytest.mark.slow
def test_holding_the_button_presses_the_outline_down_and_it_springs_back(xvfb, tmp_path):
    # Held still on the body just under its top, the left button pushes a finger in along
    # the view ray. On the demo's own screenshots, by the simulation's clock: 0.5 s into the
    # press the silhouette's top is down by at least 20 % of the radius (half the silhouette's
    # width at rest), it stays down while held, and a second after the release it is back. A quick click stays a poke (test
    # above), a drag a grab; this one logs neither.
    demo = Demo(xvfb, tmp_path)
    try:
        window = demo.focus()
        time.sleep(3.0)
        before = jelly(demo.screenshot_after(0.0, 3.0))  # settled from its start
        rows, cols = np.nonzero(before)
        radius = 0.5 * (cols.max() - cols.min())
        top = silhouette_top(before)
        assert radius > 40, radius  # the slime fills a good part of the window
        x, y = int(round(0.5 * (cols.max() + cols.min()))), int(round(top + 0.05 * radius))
        assert before[y, x]
        demo.xdo("mousemove", "--window", window, str(x), str(y), "mousedown", "1")
        demo.wait_for(lambda: demo.logged("pressed at"), "the press")
        pressed = demo.clock("pressed at")
        held = jelly(demo.screenshot_after(pressed, 0.5))
        still = jelly(demo.screenshot_after(pressed, 1.0))
        demo.xdo("mouseup", "1")
        demo.wait_for(lambda: demo.logged("released at"), "the release")
        after = jelly(demo.screenshot_after(demo.clock("released at"), 1.0))

        drops = [(silhouette_top(img) - top) / radius for img in (held, still, after)]
        assert drops[0] >= 0.2, drops  # pressed down by a fifth of the radius in half a second
        assert drops[1] >= 0.2, drops  # and still down
        assert abs(drops[2]) < 0.15, drops  # back (but for the jelly's wobble, a tenth of the radius)
        assert not demo.logged("poke") and not demo.logged("grab")
        demo.quit()
    finally:
        demo.stop()



@pytest.mark.slow
def test_the_screenshot_a_tenth_of_a_second_after_a_click_shows_the_dent(xvfb, tmp_path):
    # The window's own click on the settled jelly, just under its silhouette's top, then the P
    # key until a screenshot is 0.08 s or more after it: that one, at most 0.17 s after the click,
    # shows the top at least 8 % of the radius lower than before. The demo logs its simulation
    # clock at the poke and at each shot, so the test reads how far apart they are in the slime's
    # own time (a frame of the window under Xvfb here takes about a tenth of a second).
    # Pinned without MSAA: the dent's timing is the point here, and an adaptive window starts at
    # 4x MSAA, whose frames on llvmpipe with the suite's other workers busy pass the 0.09 s
    # between two shots that this test's 0.08-0.17 s window allows.
    demo = Demo(xvfb, tmp_path, quality="medium")
    try:
        window = demo.focus()
        # Settled: a second of the slime's own time (2 s of the wall's were 0.07 s of it on a
        # loaded machine, the top still sinking under the click's aim).
        before = jelly(demo.screenshot())
        while demo.clock("shot at") < 1.0:
            before = jelly(demo.screenshot())
        rows, cols = np.nonzero(before)
        radius = 0.5 * (cols.max() - cols.min())
        top = silhouette_top(before)
        x, y = int(round(0.5 * (cols.max() + cols.min()))), int(round(top + 0.05 * radius))
        demo.xdo("mousemove", "--window", window, str(x), str(y), "click", "1")
        poked = float(demo.wait_for(lambda: demo.logged("poked"), "the poke")[0].split()[-1])
        while True:
            after = demo.screenshot()
            since = float(demo.logged("shot")[-1].split()[-1]) - poked
            if since >= 0.08:
                break
        assert since <= 0.17, f"the first shot 0.08 s or more after the poke came at {since:.3f} s"
        drop = (silhouette_top(jelly(after)) - top) / radius
        assert drop >= 0.08, (drop, since)
        demo.quit()
    finally:
        demo.stop()


@pytest.mark.slow
def test_a_flick_in_the_window_hands_the_physics_the_hands_speed(xvfb, tmp_path):
    # The bench's flick (4 m/s up and aside, from just under the top of the outline) as X events
    # from xdotool, once the slime has settled, with the window moved down the screen so that the
    # flick may leave it upward. The release hands the physics about the hand's speed: taken from
    # the times the window handled the events (a frame's burst, a fraction of a millisecond
    # apart), it came out at hundreds of m/s.
    from slime.app.render_slime import default_camera
    from slime.app.world_play import WorldPlay, single_slime_world
    from slime.bench import feel
    from slime.physics.slime3d.slime_params import SlimeParams

    params = SlimeParams()
    play = WorldPlay(single_slime_world(params), params)
    for _ in range(60):
        play.step()
    events = feel.flick_events(play, default_camera(play.world.bodies[0]), size=WINDOW)
    demo = Demo(xvfb, tmp_path)
    try:
        window = demo.focus()
        demo.xdo("windowmove", "--sync", window, "100", "200")
        while demo.screenshot() is not None and demo.clock("shot at") < 1.0:
            pass  # settled for a second of its own time
        start = time.monotonic()
        for at, kind, x, y in events:
            time.sleep(max(0.0, start + at - time.monotonic()))
            demo.xdo("mousemove", str(100 + round(x)), str(200 + round(y)))
            if kind != "move":
                demo.xdo("mousedown" if kind == "down" else "mouseup", "1")
        demo.wait_for(lambda: demo.logged("thrown"), "the throw")
        velocity = np.array([float(v) for v in demo.logged("release")[0].split()[1:]])
        # xdotool on a loaded machine sends the moves late and unevenly (the hand is slower or
        # faster than 4 m/s by up to a factor of a few); the events' own times gave 150 to 600 m/s.
        assert 0.5 <= np.linalg.norm(velocity) <= 8.0, velocity
        assert velocity[1] > 0.0, velocity  # up (and aside)
        demo.quit()
    finally:
        demo.stop()
