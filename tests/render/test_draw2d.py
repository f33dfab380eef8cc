"""The 2D renderer, text overlay and headless scene render, checked on pixels (EGL, no display).

A small demo scene (a few masses on springs, boxes, HUD lines) stands in for the real scenes so the
drawing is tested through the Scene2D protocol alone. In CI (env CI set) a missing GL context fails.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from fakes import BLUE, DARK, GREEN, RED, WHITE, DemoScene

from slime.render.draw2d import Renderer2D, View2D
from slime.render.images import read_rgba
from slime.render.text import TextOverlay
from slime.scenes.base import DrawList, Scene2D


class SingleDisc(Scene2D):
    """One filled disc; for the flip and aspect checks."""
    background = WHITE  # the renderer's tests draw on white, whatever the scenes' theme

    name = "disc"
    bounds = (0.0, 0.0, 10.0, 10.0)

    def __init__(self, center, radius, y_down=False, hud_lines=()):
        self.center, self.radius, self.y_down = center, radius, y_down
        self.hud_lines = list(hud_lines)

    def hud(self):
        return self.hud_lines

    def step(self) -> None:
        pass

    def positions(self):
        return np.array([self.center])

    def draw_list(self):
        dl = DrawList()
        dl.add_circles([self.center], self.radius, RED, filled=True)
        return dl


def draw(ctx, scene: Scene2D, size=(400, 300), text=False) -> np.ndarray:
    fbo = ctx.simple_framebuffer(size, components=4)
    fbo.use()
    ctx.viewport = (0, 0, *size)
    fbo.clear(*scene.background)
    renderer = Renderer2D(ctx)
    renderer.draw(scene.draw_list(), View2D(scene.bounds, scene.y_down, size))
    if text:
        overlay = TextOverlay(ctx)
        overlay.draw(scene.hud(), 8, 8, size)
        overlay.release()
    pixels = read_rgba(fbo)
    renderer.release()
    fbo.release()
    return pixels.astype(int)


def at(pixels, view: View2D, world) -> np.ndarray:
    x, y = np.floor(view.world_to_pixel(world)).astype(int)
    return pixels[y, x, :3]


def near(pixels, view: View2D, world, color, tol=8) -> bool:
    """Some pixel of the 3x3 around the projection has ``color`` (thin diagonal strokes cover
    pixel centres only partly)."""
    x, y = np.floor(view.world_to_pixel(world)).astype(int)
    block = pixels[y - 1 : y + 2, x - 1 : x + 2, :3].reshape(-1, 3)
    return bool(np.any(np.all(np.abs(block - rgb(color)) <= tol, axis=1)))


def rgb(color) -> np.ndarray:
    return np.round(np.asarray(color[:3]) * 255).astype(int)


def close(a, color, tol=8) -> bool:
    return bool(np.all(np.abs(np.asarray(a) - rgb(color)) <= tol))


# ---- the world fit (numpy only) ----


def test_view_fits_bounds_centred_and_inverts():
    view = View2D((0.0, 0.0, 10.0, 5.0), False, (400, 400))
    assert view.scale == pytest.approx(40.0)  # width limits: 400 px / 10 units
    corners = view.world_to_pixel([(0.0, 0.0), (10.0, 5.0)])
    # Centred vertically: 200 px of world height in a 400 px viewport leaves 100 px above and below.
    np.testing.assert_allclose(corners, [(0.0, 300.0), (400.0, 100.0)])
    flipped = View2D((0.0, 0.0, 10.0, 5.0), True, (400, 400)).world_to_pixel([(0.0, 0.0)])
    np.testing.assert_allclose(flipped, [(0.0, 100.0)])
    points = np.random.default_rng(1).uniform(-5, 15, size=(20, 2))
    for y_down in (False, True):
        v = View2D((-3.0, 2.0, 7.0, 4.0), y_down, (640, 360))
        np.testing.assert_allclose(v.pixel_to_world(v.world_to_pixel(points)), points, atol=1e-9)


# ---- pixels ----


def test_masses_springs_boxes_and_background(ctx):
    scene = DemoScene()
    size = (400, 300)
    view = View2D(scene.bounds, scene.y_down, size)
    pixels = draw(ctx, scene, size)
    p = scene.positions()
    for centre in p:
        assert close(at(pixels, view, centre), RED), "a filled mass shows its colour at its centre"
    # Spring midpoints (between the discs) carry the spring's colour.
    assert near(pixels, view, 0.5 * (p[0] + p[1]), GREEN)
    assert near(pixels, view, 0.5 * (p[1] + p[2]), GREEN)
    # Filled box inside; outlined box: its edge is drawn, its inside is background.
    assert close(at(pixels, view, (5.0, 0.5)), BLUE)
    assert close(at(pixels, view, (2.0, 8.5)), WHITE)
    left_edge = np.floor(view.world_to_pixel((0.5, 8.5))).astype(int)
    assert close(pixels[left_edge[1], left_edge[0], :3], DARK, tol=40)
    # Ring: coloured just inside its radius, background at its centre.
    assert close(at(pixels, view, (8.0, 3.8)), WHITE)
    assert close(at(pixels, view, (8.0 + 0.6 - 1.0 / view.scale, 3.8)), BLUE, tol=40)
    # Background away from everything, and in the letterbox margins left and right of the bounds.
    assert close(at(pixels, view, (5.0, 9.0)), WHITE)
    assert close(pixels[150, 5, :3], WHITE) and close(pixels[150, 394, :3], WHITE)


class FarOff(Scene2D):
    """A runaway scene's draw list: springs from on-screen masses out to 1e222 and to inf, and a
    disc of radius 1e300 far away, next to an ordinary disc."""
    background = WHITE  # the renderer's tests draw on white, whatever the scenes' theme

    name = "far"
    bounds = (0.0, 0.0, 10.0, 10.0)

    def step(self) -> None:
        pass

    def positions(self):
        return np.array([[5.0, 5.0]])

    def draw_list(self):
        dl = DrawList()
        dl.add_lines([(5.0, 5.0), (5.0, 2.0)], [(1e222, 1e222), (-np.inf, 2.0)], GREEN)
        dl.add_circles([(1e300, -1e300)], 1e300, BLUE, filled=True)
        dl.add_circles([(2.0, 8.0)], 0.5, RED, filled=True)
        return dl


def test_huge_but_finite_coordinates_draw_without_warnings(ctx):
    # A blown-up scene once warned "overflow encountered in cast" from here; its springs still
    # point the right way off screen, and the far disc covers nothing.
    import warnings

    scene = FarOff()
    size = (300, 300)
    view = View2D(scene.bounds, scene.y_down, size)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pixels = draw(ctx, scene, size)
    assert near(pixels, view, (7.0, 7.0), GREEN) and near(pixels, view, (9.5, 9.5), GREEN)
    assert near(pixels, view, (3.0, 2.0), GREEN) and near(pixels, view, (0.5, 2.0), GREEN)
    assert close(at(pixels, view, (2.0, 8.0)), RED)
    for corner in [(0.2, 0.2), (9.8, 0.2), (0.2, 9.8), (5.0, 8.0)]:
        assert close(at(pixels, view, corner), WHITE), corner


def test_dashed_spring_has_gaps(ctx):
    scene = DemoScene()
    size = (400, 300)
    view = View2D(scene.bounds, scene.y_down, size)
    pixels = draw(ctx, scene, size)
    xs = np.linspace(2.0, 8.0, 200)
    row = np.array([at(pixels, view, (x, 2.5)) for x in xs])
    dark = np.all(np.abs(row - rgb(DARK)) <= 30, axis=1)
    white = np.all(np.abs(row - rgb(WHITE)) <= 30, axis=1)
    assert dark.mean() > 0.3 and white.mean() > 0.3, "a dashed spring alternates dash and gap"
    assert np.count_nonzero(np.diff(dark.astype(int)) == 1) >= 5  # several separate dashes


@pytest.mark.parametrize("y_down", [False, True])
def test_y_down_flips(ctx, y_down):
    # World y = 1 is near the top of the world for y-down scenes (pixel-coordinate originals), the bottom otherwise.
    scene = SingleDisc((5.0, 1.0), 0.5, y_down=y_down)
    pixels = draw(ctx, scene, (300, 300))
    rows = np.nonzero(np.all(np.abs(pixels[..., :3] - rgb(RED)) <= 8, axis=2))[0]
    assert rows.size > 0
    if y_down:
        assert rows.max() < 100
    else:
        assert rows.min() > 200


@pytest.mark.parametrize("size", [(400, 200), (200, 400), (333, 251)])
def test_aspect_preserved_circle_is_round(ctx, size):
    radius = 2.0
    scene = SingleDisc((5.0, 5.0), radius)
    pixels = draw(ctx, scene, size)
    covered = pixels[..., 0] - pixels[..., 1] > 128  # red-ish pixels, edge pixels half covered
    ys, xs = np.nonzero(covered)
    width, height = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
    assert abs(width - height) <= 1
    expected = 2 * radius * View2D(scene.bounds, False, size).scale
    assert abs(width - expected) <= 2


def test_hud_text_is_dark_in_text_area(ctx):
    size = (400, 300)
    with_text = draw(ctx, SingleDisc((5.0, 5.0), 1.0, hud_lines=["HUD line one", "second line 123"]), size, text=True)
    without = draw(ctx, SingleDisc((5.0, 5.0), 1.0), size, text=True)
    area = (slice(8, 50), slice(8, 150))
    dark = lambda px: np.count_nonzero(px[area][..., :3].max(axis=2) < 100)  # noqa: E731
    assert dark(without) == 0
    assert dark(with_text) > 50


def test_text_cache_rasterises_unchanged_text_once(ctx):
    overlay = TextOverlay(ctx)
    fbo = ctx.simple_framebuffer((200, 100))
    fbo.use()
    for _ in range(5):
        w, h = overlay.draw(["same text"], 0, 0, (200, 100))
    assert overlay.rasterized == 1
    overlay.draw(["other text"], 0, 0, (200, 100))
    assert overlay.rasterized == 2
    bigger = overlay.draw(["same text"], 0, 0, (200, 100), scale=2.0)
    assert bigger[1] > 1.8 * h
    overlay.release()
    fbo.release()


# ---- headless render command ----


@pytest.fixture
def demo_loader(monkeypatch):
    import slime.app.render_scene as rs

    monkeypatch.setattr(rs, "load_scene", lambda name: DemoScene())


def test_render_png_exact_size(ctx, demo_loader, tmp_path):
    from slime.app.render_scene import render_scene

    out = tmp_path / "demo.png"
    render_scene("demo", output=out, frames=3, size=(321, 123), progress=False)
    with Image.open(out) as image:
        assert image.size == (321, 123)
        pixels = np.asarray(image.convert("RGB")).astype(int)
    assert pixels[..., :3].max(axis=2).min() < 100  # something dark (springs, text) was drawn
    assert [p.name for p in tmp_path.iterdir()] == ["demo.png"]  # no temp file left


def test_render_gif_plays_in_real_time(ctx, demo_loader, tmp_path):
    from slime.app.render_scene import render_scene

    out = tmp_path / "demo.gif"
    render_scene("demo", output=out, frames=60, size=(160, 120), progress=False)
    with Image.open(out) as image:
        assert image.n_frames == 50  # one second of 60 Hz steps at the GIF's 50 fps
        assert image.size == (160, 120)
        assert image.info["duration"] == 20


@pytest.mark.parametrize(
    "kwargs",
    [
        {"output": "x.jpg"},
        {"output": "no/such/folder/x.png"},
        {"output": "x.png", "frames": 0},
        {"output": "x.png", "size": (0, 10)},
        {"output": "x.png", "size": "800x600"},
    ],
)
def test_render_bad_arguments_one_line_value_error(demo_loader, tmp_path, monkeypatch, kwargs):
    from slime.app.render_scene import render_scene

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as info:
        render_scene("demo", **kwargs)
    assert "\n" not in str(info.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("size", [(400, 250), (800, 600)])
def test_soda_hud_keeps_off_the_box(ctx, size):
    # The box's top edge is one unbroken wall-coloured line, and the HUD's light panel is all above
    # it (a small picture once drew the HUD over the box's top-left corner).
    from slime.app.render_scene import SceneFrames
    from slime import theme
    from slime.scenes import load_scene

    scene = load_scene("soda")  # not stepped: the camera still shows the whole box
    painter = SceneFrames(ctx, size)
    try:
        rgb = painter.draw(scene)[..., :3].astype(int)
    finally:
        painter.release()
    wall = np.all(np.abs(rgb - np.round(np.array(theme.WALL[:3]) * 255)) <= 40, axis=2)
    rows = np.nonzero(wall.mean(axis=1) > 0.5)[0]  # the box's top and bottom edges span the picture
    top = rows.min()
    edge = np.nonzero(wall[top])[0]
    assert edge.max() - edge.min() > 0.8 * size[0]
    assert wall[top, edge.min() : edge.max() + 1].all(), "something covers the box's top edge"
    panel = rgb.min(axis=2) > 180
    text_rows = np.nonzero(panel[:top].any(axis=1))[0]
    assert len(text_rows) > 10, "no HUD above the box"
    assert text_rows.max() < top - 1
