"""What the demo and the renders say must be true: the gravity the panel shows, a camera that keeps
a flying slime in frame and stays above the floor and outside the slime, picture sizes the
machine can hold, and the jelly's colour from the command line. The demo's own logic runs in a
headless moderngl-window (EGL); pictures are read back from the GPU."""

import numpy as np
import pytest
from PIL import Image

from conftest import missing
from helpers import headless_demo, jelly

from slime import cli
from slime.app.render_common import MAX_PIXELS, check_gl_size, check_size
from slime.app.render_slime import default_camera, render_slime
from slime.app.render_world import HeadlessWorld
from slime.framing import KEEP, Framer, world_points
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
from slime.render.camera import ELEVATION_RANGE, OrbitCamera
from slime.render.context import GLUnavailable
from slime.arguments import UsageError, parse_camera, parse_size


@pytest.fixture(scope="module")
def demo():
    """The demo window's config, headless on EGL, small; one per module."""
    with headless_demo(size=(320, 240), stacks=12, slices=12) as config:
        yield config


def test_panel_shows_the_gravity_in_force(demo):
    # G calls toggle_gravity (a headless window has no key codes to send).
    assert demo.shown_gravity() == pytest.approx(9.81, abs=0.01)
    demo.on_render(0.0, 1 / 60)  # the panel draws
    demo.toggle_gravity()
    assert demo.shown_gravity() == 0.0 and f"{demo.shown_gravity():.2f}" == "0.00"  # not "-0.00"
    assert np.all(np.asarray(demo.world.gravity) == 0.0)
    assert all(np.all(np.asarray(b.params.gravity) == 0.0) for b in demo.world.bodies)
    demo.on_render(1 / 60, 1 / 60)
    demo.toggle_gravity()
    assert demo.shown_gravity() == pytest.approx(9.81, abs=0.01)


def test_a_panel_slider_sets_its_declared_parameter(demo):
    """The panel's one loop (slime/app/panel.py) hands each slider to the window: a material's on
    every slime, gravity's back on at its value, a mesh's remaking the slimes."""
    from slime.physics.parameters import PARAMETERS

    before = demo.play.template
    demo._slider_moved(PARAMETERS["viscosity"], 7.0)
    assert {b.params.viscosity for b in demo.world.bodies} == {7.0}
    demo.toggle_gravity()
    demo._slider_moved(PARAMETERS["gravity"], (0.0, -5.0, 0.0))
    assert demo.gravity_on and demo.shown_gravity() == 5.0
    demo._slider_moved(PARAMETERS["stacks"], 10)
    assert demo.world.bodies[0].shape.stacks == 10
    demo.on_render(0.0, 1 / 60)  # the panel draws with them
    demo._slider_moved(PARAMETERS["gravity"], before.gravity)
    demo._rebuild(stacks=before.stacks, viscosity=before.viscosity)
    assert demo.play.template == before


def test_demo_draws_at_every_quality_level(demo):
    """Each level (multisampled, full scale, reduced scales) puts the slime on the window."""
    from slime.app.quality import LEVELS
    from slime.render.images import read_rgba

    for index, level in enumerate(LEVELS):
        demo.quality.pin(index)
        demo.on_render(0.0, 1 / 60)
        demo._draw_scene()  # again without the panel, to read the scene alone
        img = read_rgba(demo.wnd.fbo, components=3)
        assert img.shape[:2] == (240, 320)
        assert 0.05 < jelly(img).mean() < 0.6, (level, jelly(img).mean())


def test_demo_steps_its_quality_down_on_slow_frames_and_a_pin_holds(demo):
    """The window's own loop feeds its frame times to the controller (synthetic times here)."""
    from slime.app.quality import LEVELS

    demo.quality.pin(None)
    demo.quality.index = 0
    start = demo.frame_count
    while demo.frame_count < start + 40:
        demo.on_render(0.0, 1 / 20)  # 20 FPS: far over the 60 FPS budget
    assert demo.quality.index == len(LEVELS) - 1
    assert demo._target.size == (160, 120)  # drawn at half scale
    demo.quality.pin(0)
    for _ in range(40):
        demo.on_render(0.0, 1 / 20)
    assert demo.quality.index == 0 and demo.view.world_renderer.samples == LEVELS[0].samples
    demo.quality.pin(None)


def demo_camera(body):
    """The demo's camera on its one slime and what moves it: the slime's view, kept (``KEEP``)
    until the slime would leave the picture."""
    cam = default_camera(body)
    return cam, Framer(cam, KEEP)


def test_the_demo_camera_keeps_a_flying_slime_in_frame_in_height():
    body = SlimeBody(SlimeParams(stacks=10, slices=10, gravity=(0.0, 0.0, 0.0)))
    cam, framer = demo_camera(body)
    start = body.centroid().copy()
    body.poke(body.positions[np.argmin(body.positions[:, 1])], (0.0, 900.0, 0.0))
    size = (400, 300)
    for _ in range(240):
        body.step()
        framer.update(world_points(body.positions, []), size[0] / size[1], body.params.dt)
        x, y = cam.project(body.centroid(), size)
        assert 0 <= x < size[0] and 0 <= y < size[1], body.centroid()
    # It really flew: further up than the frame's half height at the camera's distance.
    half_height = cam.distance * np.tan(np.radians(cam.fov_y / 2))
    assert body.centroid()[1] - start[1] > 1.5 * half_height


def test_the_demo_camera_holds_still_for_a_slime_wobbling_on_the_floor():
    body = SlimeBody(SlimeParams(stacks=10, slices=10))
    cam, framer = demo_camera(body)
    target = cam.target.copy()
    body.poke(body.positions[np.argmax(body.positions[:, 1])], (0.0, -150.0, 0.0))
    for _ in range(120):
        body.step()
        framer.update(world_points(body.positions, []), 4.0 / 3.0, body.params.dt)
    assert np.array_equal(cam.target, target)  # the floor stays put on screen (and the backdrop cached)


def test_the_camera_stays_above_the_floor():
    assert ELEVATION_RANGE[0] == 0.0
    cam = OrbitCamera()
    cam.orbit(0.0, -200.0)
    assert cam.elevation == ELEVATION_RANGE[0] and cam.eye()[1] >= cam.target[1]
    with pytest.raises(UsageError, match="above the floor") as info:
        parse_camera("30,-10,5")
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="above the floor"):
        render_slime(output="x.png", camera=(30.0, -10.0, 5.0), progress=False)
    assert cli.main(["render", "--camera", "30,-10,5", "--output", "x.png"]) == 2


def test_a_camera_inside_the_slime_is_moved_out_with_one_line(tmp_path, capsys):
    out = tmp_path / "inside.png"
    try:
        status = cli.main(["render", "--camera", "0,0,1.2", "--size", "160x120", "--stacks", "12", "--slices", "12",
                           "--output", str(out)])
    except GLUnavailable as exc:
        missing(f"OpenGL ({exc})")
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 0
    assert len(err) == 1 and "inside the slime" in err[0] and "moved out" in err[0], err
    with Image.open(out) as im:
        mask = jelly(np.asarray(im.convert("RGB")))
    assert 0.05 < mask.mean() < 0.8  # the slime and what is around it, not an all-green picture


def test_keep_outside_moves_only_an_eye_inside():
    cam = OrbitCamera(azimuth=0.0, elevation=0.0, distance=0.5, target=np.array([0.0, 0.7, 0.0]), min_distance=0.2)
    assert cam.keep_outside((0.0, 1.0, 0.0), 1.0)
    assert np.linalg.norm(cam.eye() - [0.0, 1.0, 0.0]) >= 1.0
    distance = cam.distance
    assert not cam.keep_outside((0.0, 1.0, 0.0), 1.0) and cam.distance == distance
    # Moved to a chosen clearance: 3 radii from the centre.
    cam.distance = 1.2
    assert cam.keep_outside((0.0, 1.0, 0.0), 1.5, to_radius=3.0)
    assert np.linalg.norm(cam.eye() - [0.0, 1.0, 0.0]) == pytest.approx(3.0 + 2 * cam.near)


def test_sizes_past_memory_or_gl_are_refused_in_one_line():
    assert check_size((4096, 4096)) == (4096, 4096)
    for size in ((8192, 8192), (8192, 2049)):
        with pytest.raises(ValueError, match="megapixels") as info:
            check_size(size)
        assert "\n" not in str(info.value)
    assert 8192 * 2049 > MAX_PIXELS
    with pytest.raises(UsageError, match="megapixels"):
        parse_size("8192x8192")
    assert cli.main(["render", "--size", "8192x8192", "--output", "x.png"]) == 2

    class SmallGL:
        info = {"GL_MAX_RENDERBUFFER_SIZE": 2048, "GL_MAX_TEXTURE_SIZE": 4096}

    check_gl_size(SmallGL(), (2048, 1024))
    with pytest.raises(ValueError, match="GL_MAX_RENDERBUFFER_SIZE = 2048") as info:
        check_gl_size(SmallGL(), (3000, 1000))
    assert "\n" not in str(info.value)


def test_a_size_past_this_gl_is_refused_before_drawing(ctx):
    from slime.limits import SIZE

    limit = int(ctx.info["GL_MAX_RENDERBUFFER_SIZE"])
    # Past this GL's limit, or past slime's own (8192 a side) where the GL allows more, as here.
    with pytest.raises(ValueError, match="GL_MAX" if limit < SIZE[1] else "from 1 to 8192 per side"):
        HeadlessWorld(SlimeBody(SlimeParams(stacks=6, slices=6)), size=(limit + 1, 1), ctx=ctx)


def test_color_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "red.png"
    try:
        status = cli.main(["render", "--color", "#cc3322", "--size", "160x120", "--output", str(out)])
    except GLUnavailable as exc:
        missing(f"OpenGL ({exc})")
    assert status == 0
    with Image.open(out) as im:
        img = np.asarray(im.convert("RGB")).astype(int)
    red = (img[..., 0] - img[..., 1] > 45) & (img[..., 0] - img[..., 2] > 45)
    assert red.mean() > 0.05 and not jelly(img).any()
    capsys.readouterr()
    for bad in ("green", "0.2,0.8", "2,0,0"):
        with pytest.raises(SystemExit) as info:
            cli.main(["render", "--color", bad, "--output", str(out)])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--color" in err and "R,G,B" in err, err
    assert cli.main(["render", "springs", "--color", "#cc3322", "--output", str(out)]) == 2


def test_demo_command_line_takes_quality_and_color(monkeypatch):
    seen = {}
    monkeypatch.setattr("slime.app.demo.run_demo", lambda **kw: seen.update(kw) or 0)
    assert cli.main(["demo", "--quality", "low", "--color", "#33cc66"]) == 0
    assert seen["quality"] == "low" and np.allclose(seen["color"], (0.2, 0.8, 0.4))
    with pytest.raises(SystemExit):
        cli.main(["demo", "--quality", "ultra"])


@pytest.mark.slow
@pytest.mark.parametrize("size, seen", [((1280, 720), 0.8), ((640, 480), 0.4)])
def test_the_help_leaves_the_slime_in_sight(size, seen):
    # H over the settled slime: the help along the bottom of the window (the panel in its corner)
    # leaves most of the slime's pixels as they were; centred over it, as it was, it hid all but
    # 7 % of them in a 640 x 480 window.
    from slime.render.images import read_rgba

    with headless_demo(size=size) as window:
        window.quality.pin(0)
        for _ in range(30):
            window.on_render(0.0, 1 / 60)
        slime = jelly(read_rgba(window.wnd.fbo, components=3)).sum()
        window.toggle_help()
        for _ in range(3):  # imgui sizes a new window over its first frames
            window.on_render(0.0, 1 / 60)
        shown = jelly(read_rgba(window.wnd.fbo, components=3)).sum()
        assert window.help_rect is not None
        assert shown >= seen * slime, (shown, slime)
