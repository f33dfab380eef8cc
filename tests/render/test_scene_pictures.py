"""Every 2D scene's picture reads: its subject fills a good part of the frame, all scenes share one
theme, and their HUDs speak a user's words. Rendered headless (EGL) as `slime render NAME` does."""

import numpy as np
import pytest

from slime.app.render_scene import SceneFrames
from slime import theme
from slime.scenes import SCENES, load_scene

SIZE = (800, 600)  # `slime render`'s default
FRAMES = 120  # and its default length


def last_frame(ctx, name):
    """`slime render NAME`'s last frame, and the painter that drew it (its HUD box)."""
    scene = load_scene(name)
    scene.headless()
    for frame in range(FRAMES):
        scene.unattended(frame)
        scene.step()
    painter = SceneFrames(ctx, SIZE)
    try:
        rgb = painter.draw(scene)[..., :3].astype(int)
    finally:
        painter.release()
    return scene, rgb, painter.hud_box


@pytest.mark.parametrize("name", list(SCENES))
def test_the_scene_itself_covers_at_least_5_percent_of_its_picture(ctx, name):
    """Pixels that are neither the background nor the HUD's panel: the scene's own drawing."""
    scene, rgb, (x, y, w, h) = last_frame(ctx, name)
    background = np.round(np.array(scene.background[:3]) * 255)
    own = np.abs(rgb - background).max(axis=2) > 24
    own[y : y + h, x : x + w] = False
    assert own.mean() >= 0.05, f"{name}: {100 * own.mean():.1f} % of the picture"


def test_one_theme_for_every_scene():
    for name in SCENES:
        assert load_scene(name).background == theme.BACKGROUND, name


@pytest.mark.parametrize("name", list(SCENES))
def test_hud_words_are_a_users(name):
    """No program names (last_wall, rest_length) or placeholders ('unknown') in what a user reads."""
    scene = load_scene(name)
    scene.headless()
    for frame in range(30):
        scene.unattended(frame)
        scene.step()
    text = "\n".join(scene.hud())
    assert "_" not in text and "unknown" not in text, text


def test_the_slinky_stays_in_the_picture_all_the_way_down():
    """Released after half a second headless (in the window: Space), the slinky falls for ever;
    the camera keeps every mass inside the view, and closes in once it has gathered itself."""
    scene = load_scene("slinky")
    scene.headless()
    for frame in range(600):  # ten seconds
        scene.unattended(frame)
        scene.step()
        xmin, ymin, xmax, ymax = scene.view_bounds()
        p = scene.positions()[1:]  # the free masses (the fixed top stays behind)
        assert np.all((p[:, 0] > xmin) & (p[:, 0] < xmax) & (p[:, 1] > ymin) & (p[:, 1] < ymax)), frame
    assert scene.released and p[:, 1].min() > 2000.0  # air drag: about 3000 by then
    assert ymax - ymin < 0.5 * (scene.bounds[3] - scene.bounds[1])


def test_soda_camera_follows_the_walker_and_building_shows_the_whole_box():
    scene = load_scene("soda")
    for _ in range(FRAMES):
        scene.step()
    view = scene.view_bounds()
    assert view[2] - view[0] < 0.8 * (scene.bounds[2] - scene.bounds[0])  # closer than the whole box
    x = scene.positions()
    assert np.all((x[:, 0] >= view[0]) & (x[:, 0] <= view[2]) & (x[:, 1] >= view[1]) & (x[:, 1] <= view[3]))
    scene.key("c")
    assert scene.view_bounds() == tuple(scene.bounds)
