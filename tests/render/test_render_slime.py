"""Pictures of the lone slime, drawn by the one renderer (``HeadlessWorld``: the world renderer)
headless on EGL and checked pixel by pixel.

In CI (``CI`` set) a missing OpenGL context fails these tests; elsewhere it skips with the reason.
"""

from dataclasses import replace

import numpy as np
import pytest
from PIL import Image

from conftest import missing
from helpers import current_context  # noqa: F401 (autouse: the module's ctx made current)
from slime_scene import body, scene  # noqa: F401 (fixtures: the lone slime and its picture)
from helpers import jelly

from slime.app.render_slime import render_slime
from slime.app.render_world import HeadlessWorld
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
from slime.simulate import Poke
from slime.physics.slime3d.sphere import RESTART, canonical_triangles, strip_to_triangles
from slime.render.context import GLUnavailable
from slime.render.picking import intersect_plane, pick

SIZE = (400, 300)
SAMPLES = 4  # MSAA of the conftest's scene


def pixel(xy):
    return int(np.floor(xy[1])), int(np.floor(xy[0]))  # (row, column)


def test_strip_covers_exactly_the_triangle_list(body):
    strip = np.asarray(body.strip)
    assert strip.dtype == np.uint32
    assert np.count_nonzero(strip == RESTART) == body.params.stacks - 1
    assert np.array_equal(canonical_triangles(strip_to_triangles(strip)), canonical_triangles(body.triangles))


def test_restart_strip_rasterises_like_the_triangle_list(ctx, scene, body):
    """On screen the one restart strip covers the same pixels as the triangle list: no bridging
    triangles between bands (primitive restart works) and no holes."""
    prog = ctx.program(
        vertex_shader="#version 330\nuniform mat4 m; in vec3 p; void main() { gl_Position = m * vec4(p, 1.0); }",
        fragment_shader="#version 330\nout vec4 c; void main() { c = vec4(1.0); }",
    )
    vp = scene.camera.view_projection(SIZE[0] / SIZE[1]).astype("f4")
    prog["m"].write(vp)
    vbo = ctx.buffer(body.positions.astype("f4").tobytes())
    fbo = ctx.simple_framebuffer(SIZE)
    masks = []
    for indices, mode in ((body.strip, ctx.TRIANGLE_STRIP), (body.triangles, ctx.TRIANGLES)):
        ibo = ctx.buffer(np.ascontiguousarray(indices, dtype="u4").tobytes())
        vao = ctx.vertex_array(prog, [(vbo, "3f", "p")], index_buffer=ibo, index_element_size=4)
        fbo.use()
        fbo.clear()
        vao.render(mode)
        masks.append(np.frombuffer(fbo.read(components=1), np.uint8).reshape(SIZE[::-1]) > 0)
        vao.release()
        ibo.release()
    vbo.release()
    fbo.release()
    prog.release()
    assert masks[1].sum() > 1000
    assert np.count_nonzero(masks[0] != masks[1]) <= 0.001 * masks[1].sum()


def test_image_has_slime_colour_at_the_centroid_and_a_specular_highlight(scene, body):
    body.reset()
    img = scene.draw()
    assert img.shape == (SIZE[1], SIZE[0], 3)
    r, g, b = img[pixel(scene.camera.project(body.centroid(), SIZE))].astype(int)
    assert g > r + 40 and g > 90, (r, g, b)  # green-teal jelly
    inside = jelly(img)
    assert inside.sum() > 0.05 * inside.size
    # Highlight: near-white pixels inside the body's silhouette (the jelly is green all around it).
    rows, cols = np.nonzero(inside)
    top, bottom, left, right = rows.min(), rows.max(), cols.min(), cols.max()
    box = img[top:bottom + 1, left:right + 1].astype(int)
    assert (box.min(axis=-1) > 235).sum() >= 3


def test_floor_pattern_shows_through_the_slime(scene, body):
    """Pixels of the body in front of light checker cells are lighter than those in front of dark
    ones (with refraction off, so the cell seen is the one straight behind; tests/render/test_look.py
    checks the bending)."""
    body.reset()
    look = scene.renderer.look
    scene.renderer.look = replace(look, refraction=1.0)
    try:
        img = scene.draw()
    finally:
        scene.renderer.look = look
    cam = scene.camera
    cell = scene.renderer.look.checker_cell
    floor_y = float(body.params.floor_height)
    inside, parity = {True: [], False: []}, {True: [], False: []}
    for y in range(4, SIZE[1], 6):
        for x in range(4, SIZE[0], 6):
            origin, direction = cam.ray(x + 0.5, y + 0.5, SIZE)
            ground = intersect_plane(origin, direction, [0, floor_y, 0], [0, 1, 0])
            if ground is None:
                continue
            u = ground[[0, 2]] / cell
            if np.any(np.abs(u - np.round(u)) < 0.2):  # stay clear of cell edges
                continue
            odd = bool(int(np.floor(u[0]) + np.floor(u[1])) % 2)
            # The floor cell under this pixel is seen either through the body or in the open.
            hit = pick(origin, direction, body.positions, body.triangles)
            (inside if hit is not None else parity)[odd].append(img[y, x].astype(float))
    assert min(len(v) for v in inside.values()) > 20
    # Which parity is the light cell: learn it from the open floor, then check it through the body.
    light = np.mean(parity[True], axis=0).sum() > np.mean(parity[False], axis=0).sum()
    through_light = np.mean(inside[light], axis=0)
    through_dark = np.mean(inside[not light], axis=0)
    assert through_light[1] - through_dark[1] > 6.0, (through_light, through_dark)


def test_poke_changes_the_silhouette_and_reset_restores_it(scene, body):
    body.reset()
    before = jelly(scene.draw())
    top = body.positions[np.argmax(body.positions[:, 1])].copy()
    body.poke(top, np.array([0.0, -1.0, -0.3]) * 300.0 * float(body.params.mass))
    for _ in range(6):
        body.step()
    poked = jelly(scene.draw())
    assert np.count_nonzero(poked != before) > 0.03 * before.sum()
    body.reset()
    assert np.array_equal(jelly(scene.draw()), before)


def test_render_slime_writes_png_and_gif_of_exactly_the_requested_size(tmp_path):
    png, gif = tmp_path / "s.png", tmp_path / "s.gif"
    try:
        render_slime(output=png, size=(157, 93), frames=2, progress=False, stacks=12, slices=12)
        render_slime(output=gif, size=(120, 64), frames=3, progress=False, stacks=12, slices=12,
                     pokes=[Poke(1, (0.0, 2.0, 0.0), (0.0, -50.0, 0.0))], camera=(0.0, 20.0, 5.0))
    except GLUnavailable as exc:
        missing(f"OpenGL ({exc})")
    with Image.open(png) as im:
        assert im.size == (157, 93)
        assert jelly(np.asarray(im.convert("RGB"))).any()
    with Image.open(gif) as im:
        assert im.size == (120, 64) and im.n_frames == 3
    assert not list(tmp_path.glob(".*tmp"))  # atomic writes leave no temp files


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"output": "x.jpg"}, ".png or .gif or .mp4 or .webm"),
        ({"output": "no/such/folder/x.png"}, "does not exist"),
        ({"output": "x.png", "frames": 0}, "frames"),
        ({"output": "x.png", "size": (0, 10)}, "size"),
        ({"output": "x.png", "size": (10.5, 10)}, "size"),
        ({"output": "x.png", "camera": (0, 0, -1)}, "camera"),
        ({"output": "x.png", "stacks": 1}, "stacks"),
        ({"output": "x.png", "frames": 2, "pokes": [Poke(5, (0, 0, 0), (0, 0, 0))]}, "tick"),
        ({"output": "x.png", "pokes": [Poke(0, (0, 0), (0, 0, 0))]}, "point"),
    ],
)
def test_bad_arguments_raise_one_line_value_errors(tmp_path, kwargs, message):
    kwargs = dict(kwargs, output=str(tmp_path / kwargs["output"]))
    with pytest.raises(ValueError, match=message) as info:
        render_slime(progress=False, **kwargs)
    assert "\n" not in str(info.value)


def test_cached_backdrop_matches_drawing_it_directly(scene, body):
    """The speed path (sky and floor kept between frames while the camera holds still) gives the
    same picture as drawing them every frame, also after the camera and the body move."""
    renderer, cam = scene.renderer, scene.camera
    body.reset()
    try:
        for _ in range(2):
            scene.update()
            renderer.cache_backdrop = False
            direct = scene.read().astype(int)
            renderer.cache_backdrop = True
            scene.read()  # drawn into the kept copy
            cached = scene.read()  # and from it
            assert np.abs(direct - cached).max() <= 4
            cam.orbit(25.0, 5.0)
            body.poke(body.positions[0], [0.0, -60.0, 0.0])
            for _ in range(5):
                body.step()
    finally:
        renderer.cache_backdrop = True
        cam.home()


def test_gif_frames_play_in_real_time():
    from slime.render.images import gif_frame_times

    kept = gif_frame_times(600, 60.0)  # ten seconds at 60 Hz
    assert len(kept) == 500 and kept[0] == 0 and kept[-1] <= 599
    assert set(np.diff(kept)) == {1, 2}  # evenly thinned: one frame in six dropped
    np.testing.assert_array_equal(gif_frame_times(7, 30.0), np.arange(7))  # slow enough: all kept
    np.testing.assert_array_equal(gif_frame_times(3, 60.0), [0, 1, 2])


def test_saved_gif_timing(tmp_path):
    from slime.render.images import save_gif

    frames = [np.zeros((8, 10, 3), dtype=np.uint8) for _ in range(60)]
    for k, frame in enumerate(frames):  # a white dot walking along: every frame differs
        frame.reshape(-1, 3)[k] = 255
    save_gif(tmp_path / "a.gif", frames, fps=60.0)
    with Image.open(tmp_path / "a.gif") as im:
        assert im.n_frames == 50
        total = 0
        for k in range(im.n_frames):
            im.seek(k)
            total += im.info["duration"]
        assert total == 1000  # one simulated second plays in one second
    with pytest.raises(ValueError, match="fps"):
        save_gif(tmp_path / "b.gif", frames, fps=0.0)


def test_the_lone_slimes_camera_and_one_asked_for_stay_put(ctx):
    # A slime thrown sideways is seen going: its scene's camera holds, as one given with --camera
    # does (a scene without a camera frames itself: tests/render/test_scene_framing.py).
    for camera in (None, (30.0, 20.0, 6.0)):
        body = SlimeBody(SlimeParams(stacks=8, slices=8))
        headless = HeadlessWorld(body, size=(80, 60), ctx=ctx, samples=0, camera=camera)
        try:
            start = headless.camera.target.copy(), headless.camera.eye().copy()
            body.velocities[:, 0] += 6.0
            for _ in range(30):
                body.step()
                headless.follow()
            assert body.centroid()[0] > 1.0  # it went
            assert np.array_equal(headless.camera.target, start[0]) and np.array_equal(headless.camera.eye(), start[1])
        finally:
            headless.release()


@pytest.mark.parametrize("kwargs, words", [
    (dict(size=(0, 48)), "size must be whole pixels from 1 to 8192"),
    (dict(size=("a", 48)), "size must be (width, height)"),
    (dict(samples=3), "samples must be one of 0, 1, 2"),
    (dict(samples=-1), "samples must be one of"),
    (dict(samples=2.0), "samples must be one of"),
    (dict(camera=(0.0, 30.0, -1.0)), "camera distance must be positive"),
    (dict(camera=(0.0, 30.0, 1e308)), "camera distance must be from 0.1 to 1000 m"),
    (dict(camera=(0.0, 95.0, 5.0)), "camera elevation must be from 0 to 85"),
    (dict(camera="abc"), "camera must be three numbers"),
])
def test_a_script_that_builds_a_picture_badly_gets_one_value_error(ctx, kwargs, words):
    """HeadlessWorld is what the tutorials' scripts build pictures with (examples/add_a_force.py):
    its size, multisampling and camera are checked as the command line's are, before GL sees them."""
    with pytest.raises(ValueError) as info:
        HeadlessWorld(SlimeBody(SlimeParams(stacks=8, slices=8)), **{"size": (64, 48), "ctx": ctx, **kwargs})
    assert words in str(info.value) and len(str(info.value).splitlines()) == 1, str(info.value)


def test_a_2d_picture_of_no_frames_or_no_pixels_is_a_value_error():
    from slime.app.render_scene import render_picture
    from slime.scenes import load_scene

    for kwargs, words in ((dict(frames=0, size=(64, 48)), "frames must be a whole number from 1"),
                          (dict(frames=2.5, size=(64, 48)), "frames must be a whole number from 1"),
                          (dict(frames=2, size=(0, 48)), "size must be whole pixels")):
        with pytest.raises(ValueError, match=words):
            render_picture(load_scene("soda"), **kwargs)
    assert render_picture(load_scene("soda"), frames=2, size=(64, 48)).shape == (48, 64, 4)
