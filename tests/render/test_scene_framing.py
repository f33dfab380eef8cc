"""Every 3D scene frames itself (slime.render.camera.framing, slime.app.render_world): pictures
read back from the GPU and checked pixel by pixel. A scene without a camera has every slime and
obstacle in the picture and keeps them there; a camera given by the file or the caller stays put.

Each test saves its pictures under its ``tmp_path`` (``--basetemp DIR`` to look at them).
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import current_context  # noqa: F401 (autouse: the module's ctx made current)
from helpers import headless_demo
from sample_scenes import ROW

from slime.app.render_world import HeadlessWorld
from slime.render.images import save_png
from slime.render.world_renderer import bodies_of_world
from slime.scenes.world_format import world_spec_from_dict
from slime.scenes.world_scene import build_world, load_world

SIZE = (320, 240)

def draw(headless, bodies=None) -> np.ndarray:
    """The picture of the scene's world as it is now, or of ``bodies`` in its place."""
    if bodies is None:
        return headless.draw().astype(int)
    headless.renderer.update(bodies)
    headless.renderer.render(headless.fbo, headless.camera)
    return np.frombuffer(headless.fbo.read(components=3), np.uint8).reshape(SIZE[1], SIZE[0], 3)[::-1].astype(int)


def slime_pixels(headless, body) -> np.ndarray:
    """(H, W) bool: where the slime's vertices land in the picture, widened by a pixel."""
    x, y = headless.camera.project(headless.scene.world.positions[body.start:body.stop], SIZE).T
    mask = np.zeros((SIZE[1], SIZE[0]), bool)
    inside = (x >= 0) & (x < SIZE[0]) & (y >= 0) & (y < SIZE[1])
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            mask[np.clip(y[inside].astype(int) + dy, 0, SIZE[1] - 1), np.clip(x[inside].astype(int) + dx, 0, SIZE[0] - 1)] = True
    return mask


def seen_slimes(headless, path) -> list[bool]:
    """For each slime: does taking it out of the picture change at least a fifth of the pixels it
    covers? (Hidden behind a wall, nothing there changes.)"""
    world = headless.scene.world
    bodies = bodies_of_world(world, headless.scene.looks())
    full = draw(headless, bodies)
    save_png(path, full.astype(np.uint8))
    seen = []
    for i, body in enumerate(world.bodies):
        without = draw(headless, bodies[:i] + bodies[i + 1:])
        covered = slime_pixels(headless, body)
        changed = np.abs(full - without).sum(axis=2) > 45
        seen.append(bool((changed & covered).sum() >= 0.2 * covered.sum()))
    return seen


def duel_jelly(picture) -> np.ndarray:
    """Where duel's red and blue slimes are in a picture: saturated past their floor shadows,
    which the light through each jelly tints its colour too, less deeply (their red or blue leads
    by some 50 levels, the jelly's by 100)."""
    r, g, b = picture[..., 0], picture[..., 1], picture[..., 2]
    return ((r > g + 70) & (r > b + 70)) | ((b > r + 70) & (b > g + 10))


def test_a_row_of_three_without_a_camera_is_framed_with_none_cut(ctx, tmp_path):
    scene = build_world(world_spec_from_dict(ROW))
    headless = HeadlessWorld(scene, size=SIZE, ctx=ctx)
    try:
        # Every vertex of every slime lands inside the picture, off its edge: none is cut off...
        for body in scene.world.bodies:
            x, y = headless.camera.project(scene.world.positions[body.start:body.stop], SIZE).T
            assert x.min() > 1 and y.min() > 1 and x.max() < SIZE[0] - 1 and y.max() < SIZE[1] - 1
        # ... each is drawn there (taking it out changes the pixels it covers), and the row fills the width.
        assert seen_slimes(headless, tmp_path / "row.png") == [True, True, True]
        x = headless.camera.project(scene.world.positions, SIZE)[:, 0]
        assert x.max() - x.min() > 0.6 * SIZE[0]
    finally:
        headless.release()


def test_pile_shows_at_least_eight_of_its_ten_slimes_from_its_default_camera(ctx, tmp_path):
    scene = load_world("pile")
    for _ in range(120):
        scene.world.step()
    headless = HeadlessWorld(scene, size=SIZE, ctx=ctx)
    try:
        seen = seen_slimes(headless, tmp_path / "pile.png")
    finally:
        headless.release()
    assert sum(seen) >= 8, seen


def test_duel_fills_a_third_of_the_width_as_it_flies_and_lands_and_the_camera_glides_in(ctx, tmp_path):
    # The two meet at about frame 25: the camera, framed on them far apart, glides in after them
    # (slime.framing.ZOOM_IN_TIME) rather than lunging, and has them filling a third of the
    # width once they have landed.
    scene = load_world("duel")
    headless = HeadlessWorld(scene, size=SIZE, ctx=ctx)
    try:
        distance = headless.camera.distance
        for frame in range(1, 91):
            scene.world.step()
            headless.follow()
            assert headless.camera.distance > 0.97 * distance, f"the camera lunges in at frame {frame}"
            distance = headless.camera.distance
            if frame in (1, 25, 50, 90):
                picture = draw(headless)
                save_png(tmp_path / f"duel_{frame}.png", picture.astype(np.uint8))
                jelly = duel_jelly(picture)
                cols = np.flatnonzero(jelly.any(axis=0))
                assert cols.size and cols.max() - cols.min() >= SIZE[0] / (3 if frame >= 50 else 4), (
                    frame, cols.min(), cols.max())
                assert cols.min() > 0 and cols.max() < SIZE[0] - 1, f"a slime is cut at frame {frame}"
    finally:
        headless.release()


def test_a_camera_from_the_file_or_the_caller_stays_put(ctx):
    for name, camera in (("ramp", None), ("duel", (10.0, 20.0, 6.0))):
        scene = load_world(name)
        headless = HeadlessWorld(scene, size=(32, 24), camera=camera, ctx=ctx)
        try:
            before = (headless.camera.eye().copy(), headless.camera.target.copy())
            for _ in range(20):
                scene.world.step()
                headless.follow()
            assert np.array_equal(before[0], headless.camera.eye()) and np.array_equal(before[1], headless.camera.target)
        finally:
            headless.release()


def test_the_window_frames_duel_and_hands_the_camera_over_at_a_zoom():
    from slime.render.images import read_rgba

    with headless_demo(size=SIZE, scene="duel") as w:
        w.quality.pin(0)
        for _ in range(40):  # past the throw: the two have met
            w._advance(1.0 / 60.0 + 1e-9)
        w.view.update(w.world, w.play.base_look)  # as on_render draws, without the panel over it
        w._draw_scene()
        picture = read_rgba(w.wnd.fbo, components=3).astype(int)
        cols = np.flatnonzero(duel_jelly(picture).any(axis=0))
        assert cols.size and cols.max() - cols.min() >= SIZE[0] / 3 and cols.min() > 0 and cols.max() < SIZE[0] - 1
        # The wheel over the picture, away from the panel (over the panel it scrolls the panel).
        w.on_mouse_position_event(SIZE[0] - 4, SIZE[1] - 4, 0, 0)
        assert not w._ui_wants_mouse()
        w.on_mouse_scroll_event(0.0, -1.0)  # the user's camera from now on
        assert w.framer.mode == "free"
        eye = w.camera.eye().copy()
        for _ in range(30):
            w._advance(1.0 / 60.0 + 1e-9)
        assert np.array_equal(eye, w.camera.eye())


def test_the_window_opens_framed_at_its_shape_and_r_gives_the_framing_back():
    with headless_demo(size=(320, 180), scene="duel") as w:  # a window's 16:9, not a picture's 4:3
        start = (w.camera.azimuth, w.camera.elevation, w.camera.distance, w.camera.target.copy())
        # Framed for this window's shape from the start: the first frames do not zoom to it.
        w._advance(1.0 / 60.0 + 1e-9)
        assert abs(w.camera.distance - start[2]) < 0.02 * start[2]
        w.on_mouse_scroll_event(0.0, 3.0)  # the user's camera: zoomed in, left alone
        w.camera.orbit(60.0, 0.0)
        assert w.framer.mode == "free"
        w.framer.reset()  # what R does to the camera (a headless window has no key codes to press)
        assert w.framer.mode == "frame"
        assert (w.camera.azimuth, w.camera.elevation, w.camera.distance) == start[:3]
        assert np.array_equal(w.camera.target, start[3])
