"""The slime's look: refraction and Beer-Lambert absorption checked on pixels the world renderer
draws (headless EGL, read back from the GPU), and SlimeLook as data (dictionaries, colours,
one-line errors)."""

from dataclasses import replace

import numpy as np
import pytest
from helpers import current_context  # noqa: F401 (autouse: the module's ctx made current)
from slime_scene import body, scene  # noqa: F401 (fixtures: the lone slime and its picture)

from slime.app.render_world import HeadlessWorld
from slime.look import SlimeLook, parse_color
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
from slime.render.world_renderer import fit_ellipsoid

SIZE = (400, 300)
SAMPLES = 0  # MSAA of the conftest's scene


def draw(scene, positions, look=None) -> np.ndarray:
    """The lone slime's scene with its slime at ``positions``, in ``look`` (default the scene's)."""
    renderer = scene.renderer
    old = renderer.look
    if look is not None:
        renderer.look = look
    try:
        renderer.update([(positions, scene.scene.world.bodies[0].strip, None)])
        return scene.read().astype(float)
    finally:
        renderer.look = old


def high_pass(img: np.ndarray) -> np.ndarray:
    """Luminance minus its 9x9 box mean: the checker's edges, without the slow shading."""
    lum = img @ np.array([0.3, 0.59, 0.11])
    pad = np.pad(lum, 4, mode="edge")
    c = np.cumsum(np.cumsum(pad, axis=0), axis=1)
    c = np.pad(c, ((1, 0), (1, 0)))
    box = (c[9:, 9:] - c[:-9, 9:] - c[9:, :-9] + c[:-9, :-9]) / 81.0
    return lum - box


def test_checker_seen_through_the_slime_is_displaced(scene, body):
    """Inside the slime's outline the floor's edges do not line up with the same floor drawn with
    no slime; with refraction off (index 1) they do, so the bending is what moves them."""
    body.reset()
    positions = body.positions.copy()
    empty = draw(scene, positions + np.array([0.0, 0.0, 500.0]))  # far behind the camera: no slime on screen
    bent = draw(scene, positions)
    straight = draw(scene, positions, replace(scene.renderer.look, refraction=1.0))

    rgb = bent.astype(int)
    slime = (rgb[..., 1] - rgb[..., 0] > 45) & (rgb.min(axis=-1) < 225)  # jelly, not its highlights
    # Stay clear of the outline (a silhouette is an edge of its own): erode the mask by 10 pixels.
    inner = slime.copy()
    for axis in (0, 1):
        for shift in (-10, 10):
            inner &= np.roll(slime, shift, axis=axis)
    assert inner.sum() > 2000

    def agreement(img):
        a, b = high_pass(empty)[inner], high_pass(img)[inner]
        return float(np.corrcoef(a, b)[0, 1])

    # Straight through, the floor's edges agree but for the slime's own soft shadow on the floor
    # behind it, which the empty floor has not (0.67 here; bent: 0.12).
    assert agreement(straight) > 0.6, agreement(straight)
    assert agreement(bent) < 0.5 * agreement(straight), (agreement(bent), agreement(straight))


def test_squashed_slime_lets_more_floor_light_through_at_its_centre(scene, body):
    """Beer-Lambert over the real thickness: the same body flattened to 40 % of its height, seen
    from above, lets more of the floor's light through at its centre than the round one. What
    comes through is what changes when the floor goes black (the jelly's glow and the sky's
    reflection stay)."""
    cam = scene.camera
    saved = (cam.azimuth, cam.elevation, cam.distance, cam.target.copy())
    look = scene.renderer.look
    black = replace(look, floor_light=(0.0, 0.0, 0.0), floor_dark=(0.0, 0.0, 0.0))
    try:
        cam.azimuth, cam.elevation, cam.distance = 20.0, 65.0, 5.0
        body.reset()
        round_body = body.positions.copy()
        floor = float(body.params.floor_height)
        squashed = round_body.copy()
        squashed[:, 1] = floor + 0.4 * (squashed[:, 1] - floor)
        through, shades = [], []
        lum = np.array([0.3, 0.59, 0.11])
        for positions in (round_body, squashed):
            cam.target = positions.mean(axis=0)
            x, y = (int(v) for v in cam.project(positions.mean(axis=0), SIZE))
            lit, dark = (draw(scene, positions, floor_look)[y - 15:y + 16, x - 15:x + 16].reshape(-1, 3)
                         for floor_look in (look, black))
            plain = lit.min(axis=1) < 215  # highlights left out
            through.append(float(((lit - dark)[plain] @ lum).mean()))
            shades.append(lit[plain].mean(axis=0))
        assert through[1] > 1.3 * through[0] + 5.0, through  # 52 against 31 here
        assert shades[1][1] > shades[1][0] + 20  # still green jelly, just less of it
    finally:
        cam.azimuth, cam.elevation, cam.distance, cam.target = saved


def test_color_changes_the_jelly(scene, body):
    body.reset()
    positions = body.positions
    red = draw(scene, positions, scene.renderer.look.with_color("#cc3322"))
    x, y = (int(v) for v in scene.camera.project(body.centroid(), SIZE))
    r, g, b = red[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).mean(axis=0)
    assert r > g + 40 and r > b + 40, (r, g, b)


# --- SlimeLook as data --------------------------------------------------------------------------
def test_look_round_trips_through_a_dictionary():
    look = SlimeLook().with_color((0.2, 0.8, 0.4))
    data = look.to_dict()
    assert isinstance(data["deep_color"], list) and data["glow"] == look.glow
    assert SlimeLook.from_dict(data) == look
    partial = SlimeLook.from_dict({"color": "#33cc66", "glow": 0.5, "absorption": [1, 2, 3]})
    assert partial.glow == 0.5 and partial.absorption == (1.0, 2.0, 3.0)
    assert partial.deep_color == SlimeLook().with_color("#33cc66").deep_color


@pytest.mark.parametrize("text, rgb", [
    ("0.2,0.8,0.4", (0.2, 0.8, 0.4)),
    ("#33cc66", (0.2, 0.8, 0.4)),
    ("33CC66", (0.2, 0.8, 0.4)),
    (" 1, 0, 0 ", (1.0, 0.0, 0.0)),
])
def test_parse_color(text, rgb):
    np.testing.assert_allclose(parse_color(text), rgb, atol=1e-9)


@pytest.mark.parametrize("text", ["green", "0.2,0.8", "1.2,0,0", "#12345", "nan,0,0", "#gg0000", "-0.1,0,0"])
def test_bad_colors_are_one_line_errors(text):
    with pytest.raises(ValueError, match="colour|color") as info:
        parse_color(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("data, word", [
    ({"colour": "#fff"}, "unknown look field 'colour'"),
    ({"glow": -1}, "glow"),
    ({"refraction": 0.5}, "refraction"),
    ({"deep_color": [0, 0]}, "deep_color"),
    ({"key_dir": [0, 0, 0]}, "key_dir"),
    ({"shininess": "shiny"}, "shininess"),
    ({"fresnel": True}, "fresnel"),
])
def test_bad_look_fields_are_one_line_errors(data, word):
    with pytest.raises(ValueError, match=word) as info:
        SlimeLook.from_dict(data)
    assert "\n" not in str(info.value)


def test_the_thickness_ellipsoid_holds_the_body_and_follows_its_shape(body):
    body.reset()
    positions = body.positions.copy()
    floor = float(body.params.floor_height)
    for squash in (1.0, 0.4):
        squashed = positions.copy()
        squashed[:, 1] = floor + squash * (squashed[:, 1] - floor)
        centre, axes, radii = fit_ellipsoid(squashed, squashed.mean(axis=0))
        inside = ((squashed - centre) @ axes / radii) ** 2
        assert inside.sum(axis=1).max() <= 1.0 + 1e-9  # every vertex in (none reads as zero thickness)
        vertical = abs(axes[1]) @ radii  # the ellipsoid's half height
        assert vertical == pytest.approx(squash * float(body.params.radius), rel=0.02)


def test_the_backdrop_stays_linearly_filtered_for_the_jelly(ctx):
    """The jelly reads what is behind it from a texture for refraction: linearly filtered, so a
    bent ray between texels reads a smooth floor, also with a multisampled frame."""
    import moderngl

    s = HeadlessWorld(SlimeBody(SlimeParams(stacks=8, slices=8)), size=(64, 48), ctx=ctx, samples=4)
    try:
        s.draw()
        assert s.renderer._targets["texture"].filter == (moderngl.LINEAR, moderngl.LINEAR)
    finally:
        s.release()
