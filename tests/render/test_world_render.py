"""Pictures of a world of slimes and obstacles (slime.render.world_renderer), rendered headless on
EGL and checked pixel by pixel: slimes seen through slimes in the right order from both sides,
obstacles seen through a slime and lit, each slime's shadow on the floor and on an obstacle.

Static spheres stand in for the slimes (no physics). Every test saves its pictures under its
``tmp_path`` (run with ``--basetemp DIR`` to look at them).
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from helpers import current_context  # noqa: F401 (autouse: the module's ctx made current)

from slime.look import SlimeLook
from slime.physics.slime3d.sphere import canonical_triangles, sphere_strip, strip_to_triangles, uv_sphere
from slime.render.camera import OrbitCamera
from slime.render.images import read_rgba, save_png
from slime.render.world_renderer import WorldRenderer, render_world_picture, strip_triangles

SIZE = (400, 300)
STACKS, SLICES = 16, 24
STRIP = sphere_strip(STACKS, SLICES)
RED = SlimeLook().with_color("#e02828")
BLUE = SlimeLook().with_color("#2848e0")




def ball(center, radius=0.5, look=None):
    return uv_sphere(STACKS, SLICES, radius, center), STRIP, look


def camera(azimuth, elevation=8.0, distance=5.0, target=(0.0, 0.5, -0.8)):
    return OrbitCamera(azimuth=azimuth, elevation=elevation, distance=distance, target=np.array(target),
                       min_distance=0.1, max_distance=100.0)


def at(cam, point):
    """(row, column) of a world point in a SIZE picture."""
    x, y = cam.project(np.asarray(point, dtype=np.float64), SIZE)
    return int(y), int(x)


def patch(img, rc, half=3):
    r, c = rc
    return img[r - half:r + half + 1, c - half:c + half + 1].reshape(-1, 3).astype(float).mean(axis=0)


def picture(ctx, bodies, obstacles=(), cam=None, path=None):
    img = render_world_picture(ctx, bodies, obstacles, cam, SIZE)
    assert img.shape == (SIZE[1], SIZE[0], 3) and img.dtype == np.uint8
    if path is not None:
        save_png(path, img)
    return img


def test_strip_triangles_are_the_physics_triangles():
    for stacks, slices in ((3, 3), (8, 5), (16, 24)):
        strip = sphere_strip(stacks, slices)
        ours = canonical_triangles(strip_triangles(strip))
        assert np.array_equal(ours, canonical_triangles(strip_to_triangles(strip)))


def test_back_slime_is_seen_through_the_front_one_and_the_order_flips_when_the_camera_orbits(ctx, tmp_path):
    red_centre, blue_centre = (0.0, 0.5, 0.0), (0.0, 0.5, -1.6)
    red, blue = ball(red_centre, look=RED), ball(blue_centre, look=BLUE)
    for azimuth, front, back, front_look, name in ((0.0, red, blue, "red", "front"), (180.0, blue, red, "blue", "back")):
        cam = camera(azimuth)
        both = picture(ctx, [red, blue], cam=cam, path=tmp_path / f"both_{name}.png")
        alone = picture(ctx, [front], cam=cam, path=tmp_path / f"alone_{name}.png")
        # The two slimes lie one behind the other along the view: the back one's centre is inside
        # the front one's silhouette, seen through it.
        back_px = at(cam, back[0].mean(axis=0))
        front_px = at(cam, front[0].mean(axis=0))
        with_back, without = patch(both, back_px), patch(alone, back_px)
        hue = np.array([-1.0, 0.0, 1.0]) if front_look == "red" else np.array([1.0, 0.0, -1.0])  # toward the back colour
        shift = float((with_back - without) @ hue)
        assert shift > 25, f"{name}: the back slime does not show through the front one ({with_back} vs {without})"
        assert np.abs(with_back - without).max() < 200, "the back slime is drawn over the front one"
        # Sorted back to front whatever the order given: the same picture as drawing the back one
        # first by hand, and not the one drawn the other way round (the back slime over the front).
        assert np.abs(both.astype(int) - unsorted(ctx, [back, front], cam)).max() <= 2  # the floor shadows multiply in another order
        wrong = unsorted(ctx, [front, back], cam)
        save_png(tmp_path / f"wrong_order_{name}.png", wrong)
        # (Drawn first, the front slime's depth hides the back one: nothing of it shows through.)
        assert np.abs(patch(wrong, back_px) - with_back).max() > 25, "the order made no difference"
        assert np.abs(patch(wrong, back_px) - without).max() < 6


def unsorted(ctx, bodies, cam):
    """The picture with the slimes drawn in the order given."""
    renderer = WorldRenderer(ctx)
    texture = ctx.texture(SIZE, 4)
    fbo = ctx.framebuffer(color_attachments=[texture])
    try:
        renderer.sort_back_to_front = False
        renderer.update(bodies)
        renderer.render(fbo, cam)
        return np.frombuffer(fbo.read(components=3), np.uint8).reshape(SIZE[1], SIZE[0], 3)[::-1]
    finally:
        renderer.release()
        fbo.release()
        texture.release()


def test_box_behind_a_slime_is_lit_and_seen_through_it(ctx, tmp_path):
    slime = ball((0.0, 0.5, 0.0), look=SlimeLook())
    azimuth = 25.0
    # The box stands behind the slime along the view.
    cx, cz = -1.9 * np.sin(np.radians(azimuth)), -1.9 * np.cos(np.radians(azimuth))
    box = {"center": (cx, 0.9, cz), "half_size": (0.9, 0.9, 0.5), "rotation": np.eye(3), "color": (0.95, 0.55, 0.1)}
    cam = camera(azimuth, elevation=18.0, distance=5.5, target=(0.0, 0.6, 0.0))
    with_box = picture(ctx, [slime], [box], cam, tmp_path / "box.png")
    without = picture(ctx, [slime], [], cam, tmp_path / "no_box.png")
    # Faces of the box: top (toward the key light), front (+z) and right (+x, away from the key).
    top = patch(with_box, at(cam, (cx, 1.8, cz + 0.25)))
    front = patch(with_box, at(cam, (cx + 0.6, 1.5, cz + 0.5)))
    right = patch(with_box, at(cam, (cx + 0.9, 1.3, cz)))
    brightness = [float(face.sum()) for face in (top, front, right)]
    assert brightness[0] > brightness[1] + 30 > brightness[2] + 60, f"faces not lit apart: {brightness}"
    for face in (top, front, right):
        assert face[0] > face[2] + 40, f"the box's orange is lost: {face}"
    # Through the slime's middle, the box (orange) instead of the floor and sky (blue-grey).
    middle = at(cam, (0.0, 0.55, 0.0))
    seen, bare = patch(with_box, middle), patch(without, middle)
    assert (seen[0] - seen[2]) - (bare[0] - bare[2]) > 25, f"box not seen through the slime: {seen} vs {bare}"


def test_each_slime_darkens_the_floor_beside_it_and_the_box_under_its_shadow(ctx, tmp_path):
    left, right = ball((-1.2, 0.5, 0.0)), ball((1.2, 0.5, 0.0), look=SlimeLook().with_color("#d0a020"))
    cam = camera(0.0, elevation=25.0, distance=6.0, target=(0.0, 0.3, 0.0))
    world = picture(ctx, [left, right], cam=cam, path=tmp_path / "shadows.png")
    empty = picture(ctx, [], cam=cam, path=tmp_path / "empty.png")
    for x in (-1.2, 1.2):
        # The key light comes from the left and front: the shadow falls right and back of each slime.
        beside = at(cam, (x + 0.6, 0.0, -0.2))
        lit, shaded = patch(empty, beside).sum(), patch(world, beside).sum()
        assert shaded < 0.9 * lit, f"no shadow beside the slime at x={x}: {shaded} vs {lit}"
        far = at(cam, (x, 0.0, 2.0))
        assert abs(patch(world, far).sum() - patch(empty, far).sum()) < 6, "the floor far from the slimes changed"
    # A slime resting on a wide box shades the box's top beside it.
    slab = {"center": (0.0, 0.2, 0.0), "half_size": (1.5, 0.2, 1.0), "color": (0.7, 0.7, 0.7)}
    on_top = ball((0.0, 0.9, 0.0))
    cam = camera(0.0, elevation=35.0, distance=5.0, target=(0.0, 0.5, 0.0))
    shaded = picture(ctx, [on_top], [slab], cam, tmp_path / "slab.png")
    bare = picture(ctx, [], [slab], cam, tmp_path / "slab_bare.png")
    beside = at(cam, (0.55, 0.4, -0.35))
    assert patch(shaded, beside).sum() < 0.9 * patch(bare, beside).sum(), "no shadow of the slime on the box"
    corner = at(cam, (-1.3, 0.4, 0.8))
    assert abs(patch(shaded, corner).sum() - patch(bare, corner).sum()) < 6, "the whole box darkened"


def test_sixteen_slimes_draw_and_copy_the_behind_texture_only_where_needed(ctx, tmp_path):
    rng = np.random.default_rng(4)
    bodies = []
    for i in range(16):
        x, z = (i % 4) * 1.2 - 1.8, (i // 4) * 1.2 - 1.8
        color = rng.uniform(0.0, 1.0, 3)
        color = (color - color.min()) / (color.max() - color.min())  # saturated: one channel full, one empty
        bodies.append(ball((x, 0.45, z), 0.45, SlimeLook().with_color(tuple(color))))
    obstacles = [{"center": (0.0, 0.3, -3.2), "half_size": (2.0, 0.3, 0.3), "rotation": np.eye(3)},
                 {"center": (3.0, 0.5, 0.0), "radius": 0.5, "color": "#6080c0"},
                 {"point": (0.0, 0.0, -5.0), "normal": (0.0, 0.0, 1.0), "color": (0.8, 0.8, 0.75)}]
    cam = camera(20.0, elevation=30.0, distance=8.0, target=(0.0, 0.3, 0.0))
    renderer = WorldRenderer(ctx)
    texture = ctx.texture(SIZE, 4)
    fbo = ctx.framebuffer(color_attachments=[texture])
    try:
        renderer.set_obstacles(obstacles)
        times, pictures, stats = {}, {}, {}
        for where_needed in (True, False):
            renderer.copy_only_where_needed = where_needed
            renderer.update(bodies)
            renderer.render(fbo, cam)  # warm: programs, targets, the cached backdrop
            start = time.perf_counter()
            for _ in range(3):
                renderer.update(bodies)
                renderer.render(fbo, cam)
            pictures[where_needed] = np.frombuffer(fbo.read(components=3), np.uint8).reshape(SIZE[1], SIZE[0], 3)[::-1]
            ctx.finish()
            times[where_needed] = (time.perf_counter() - start) / 3
            stats[where_needed] = dict(renderer.stats)
        print(f"\n16 slimes at {SIZE[0]}x{SIZE[1]}: {1000 * times[True]:.1f} ms a frame copying where needed "
              f"{stats[True]}, {1000 * times[False]:.1f} ms copying before every slime {stats[False]}")
        save_png(tmp_path / "sixteen.png", pictures[True])
        assert stats[False]["copies"] == 17
        assert stats[True]["copies"] < 17 and stats[True]["copied_pixels"] < stats[False]["copied_pixels"]
        # Copying less changes nothing on screen.
        assert np.abs(pictures[True].astype(int) - pictures[False].astype(int)).max() <= 2
        empty = picture(ctx, [], obstacles, cam)
        for positions, _, _ in bodies:
            px = at(cam, positions.mean(axis=0) + (0.0, 0.2, 0.0))
            assert np.abs(patch(pictures[True], px, 1) - patch(empty, px, 1)).sum() > 30, "a slime is missing"
    finally:
        renderer.release()
        fbo.release()
        texture.release()


def test_a_lone_slime_has_no_hard_band_of_its_own_shadow_inside_it(ctx, tmp_path):
    # A slime on the floor seen through: its lower half shows the floor under it, in its own
    # shadow. A hard-edged shadow (a shadow map's) drew there a dark, stair-stepped band across
    # it (the largest step between neighbouring pixels, 74 levels over the three channels); the
    # light through the jelly fades out at the rim (Beer-Lambert), so that floor is shaded
    # smoothly (14). The floor is one colour here, so every edge is the shadow's.
    look = SlimeLook(floor_light=(0.9, 0.9, 0.9), floor_dark=(0.9, 0.9, 0.9))
    positions = uv_sphere(32, 32, 1.0, (0.0, 1.0, 0.0))
    cam = camera(35.0, elevation=30.0, distance=4.0, target=(0.0, 0.9, 0.0))
    img = render_world_picture(ctx, [(positions, sphere_strip(32, 32), None)], (), cam, SIZE, look=look)
    save_png(tmp_path / "lone.png", img)
    centre = cam.project(np.array([0.0, 1.0, 0.0]), SIZE)
    radius = np.hypot(*(cam.project(positions, SIZE) - centre).T).max()
    rows, cols = np.mgrid[0:SIZE[1], 0:SIZE[0]] + 0.5
    lower = (np.hypot(cols - centre[0], rows - centre[1]) < 0.85 * radius) & (rows > centre[1])
    lum = img.astype(float).sum(axis=2)
    steps = np.concatenate([np.abs(np.diff(lum, axis=0))[lower[1:] & lower[:-1]],
                            np.abs(np.diff(lum, axis=1))[lower[:, 1:] & lower[:, :-1]]])
    assert steps.size > 2000 and steps.max() <= 30, steps.max()
    # Still a shadow: the floor seen through the lower half is darker than the floor beside it.
    beside = patch(img, at(cam, (-2.2, 0.0, 0.0))).sum()
    assert lum[lower].mean() < 0.8 * beside, (lum[lower].mean(), beside)


@pytest.mark.parametrize("bodies, obstacles, message", [
    ([ball((0, 0.5, 0))] * 65, [], "0 to 64 slimes"),
    ([(np.full((10, 3), np.nan), STRIP, None)], [], "finite"),
    ([(uv_sphere(4, 4), STRIP, None)], [], "strip"),
    ([(uv_sphere(STACKS, SLICES), STRIP, "red")], [], "SlimeLook"),
    ([], [{"center": (0, 0, 0)}], "an obstacle needs"),
    ([], [{"center": (0, 0, 0), "radius": -1}], "radius must be > 0"),
    ([], [{"center": (0, 0, 0), "half_size": (1, 1, 1), "color": (2, 0, 0)}], "color"),
    ([], [{"point": (0, 0, 0), "normal": (0, 0, 0)}], "zero vector"),
])
def test_bad_worlds_raise_one_line_value_errors(ctx, bodies, obstacles, message):
    with pytest.raises(ValueError, match=message) as caught:
        render_world_picture(ctx, bodies, obstacles, (0.0, 10.0, 4.0), (32, 24))
    assert "\n" not in str(caught.value)


def test_a_picture_without_a_camera_frames_every_slime_as_a_scene_is_framed(ctx, tmp_path):
    bodies = [ball((-3.0, 0.5, 0.0), look=RED), ball((3.0, 0.5, 1.0), look=BLUE)]
    img = picture(ctx, bodies, path=tmp_path / "framed.png").astype(int)
    red = (img[..., 0] > img[..., 1] + 60) & (img[..., 0] > img[..., 2] + 60)
    blue = (img[..., 2] > img[..., 0] + 60) & (img[..., 2] > img[..., 1] + 40)
    for name, seen in (("red", red), ("blue", blue)):
        rows, cols = np.nonzero(seen)
        assert rows.size > 200, f"the {name} slime is not in the picture"
        # framing.MARGIN of each half-side is left free: no slime touches the border.
        assert rows.min() > 3 and cols.min() > 3 and rows.max() < SIZE[1] - 4 and cols.max() < SIZE[0] - 4, name
    # framed from framing's YAW and ELEVATION: the red slime (at -x) is the left one.
    assert np.nonzero(red)[1].mean() < np.nonzero(blue)[1].mean()


def test_an_obstacle_sunk_into_the_floor_is_cut_by_it(ctx, tmp_path):
    sunk = {"center": (0.0, 0.0, 0.0), "radius": 0.5, "color": (0.9, 0.2, 0.2)}
    cam = camera(0.0, elevation=20.0, distance=3.0, target=(0.0, 0.0, 0.0))
    img = picture(ctx, [], [sunk], cam, tmp_path / "sunk.png")
    empty = picture(ctx, [], [], cam)
    above, below = at(cam, (0.0, 0.3, 0.4)), at(cam, (0.0, -0.3, 0.4))
    assert patch(img, above)[0] > patch(img, above)[2] + 60, "the ball above the floor is missing"
    assert np.abs(patch(img, below, 1) - patch(empty, below, 1)).max() < 3, "the floor does not hide the sunk half"


def test_sixty_four_slimes_draw_and_survive_a_shader_reload(ctx, tmp_path):
    small = sphere_strip(8, 8)
    bodies = [(uv_sphere(8, 8, 0.3, ((i % 8) * 0.8 - 2.8, 0.3, (i // 8) * 0.8 - 2.8)), small,
               SlimeLook().with_color(("#e02828", "#28c040", "#2848e0", "#e0c020")[i % 4])) for i in range(64)]
    cam = camera(0.0, elevation=60.0, distance=9.0, target=(0.0, 0.0, 0.0))
    renderer = WorldRenderer(ctx)
    texture = ctx.texture(SIZE, 4)
    fbo = ctx.framebuffer(color_attachments=[texture])
    try:
        renderer.set_obstacles([{"center": (0.0, 0.2, -3.6), "half_size": (3.0, 0.2, 0.2)}])
        renderer.update(bodies)
        renderer.render(fbo, cam)
        first = np.frombuffer(fbo.read(components=3), np.uint8).reshape(SIZE[1], SIZE[0], 3)[::-1].copy()
        save_png(tmp_path / "sixty_four.png", first)
        renderer.use_programs(renderer.shaders.programs(ctx, renderer.shader_names))  # as a live reload does
        renderer.update(bodies)
        renderer.render(fbo, cam)
        again = np.frombuffer(fbo.read(components=3), np.uint8).reshape(SIZE[1], SIZE[0], 3)[::-1]
        assert np.array_equal(first, again)
        empty = picture(ctx, [], [{"center": (0.0, 0.2, -3.6), "half_size": (3.0, 0.2, 0.2)}], cam)
        for positions, _, _ in bodies:
            px = at(cam, positions.mean(axis=0) + (0.0, 0.15, 0.0))
            assert np.abs(patch(first, px, 1) - patch(empty, px, 1)).sum() > 30, "a slime is missing"
    finally:
        renderer.release()
        fbo.release()
        texture.release()


def test_bodies_of_world_reads_each_slimes_vertices_and_strip():
    from types import SimpleNamespace

    a, b = uv_sphere(STACKS, SLICES, 0.5, (0, 0.5, 0)), uv_sphere(STACKS, SLICES, 0.5, (2, 0.5, 0))
    world = SimpleNamespace(positions=np.concatenate([a, b]), bodies=[
        SimpleNamespace(start=0, stop=len(a), strip=STRIP), SimpleNamespace(start=len(a), stop=2 * len(a), strip=STRIP)])
    from slime.render.world_renderer import bodies_of_world

    bodies = bodies_of_world(world, [RED, BLUE])
    assert np.array_equal(bodies[1][0], b) and bodies[1][1] is STRIP and bodies[1][2] is BLUE
    assert bodies_of_world(world)[0][2] is None
    with pytest.raises(ValueError, match="3 looks for 2 slimes"):
        bodies_of_world(world, [RED] * 3)


def test_a_box_shows_the_colour_its_scene_gives_as_blender_does_from_the_gltf(ctx, tmp_path):
    # A warm grey box ("#b9b2a6", sRGB as a scene file gives it). Blender renders its glTF (base
    # colour decoded to linear, lit white) at (202, 195, 182) on the face turned up toward the key
    # light: the same hue, brighter. The renderer lights obstacles in linear light too, white.
    box = {"center": (0.0, 0.5, 0.0), "half_size": (0.6, 0.5, 0.6), "color": "#b9b2a6"}
    cam = camera(35.0, elevation=40.0, distance=3.0, target=(0.0, 0.6, 0.0))  # near: next to no haze
    img = picture(ctx, [], [box], cam, tmp_path / "box.png")
    top = patch(img, at(cam, (0.0, 1.0, 0.0)), half=4)
    assert np.abs(top - np.array([202.0, 195.0, 182.0])).max() <= 4, top
    # Every face keeps the hue: red over blue as in the colour given (185 / 166), in shade too.
    for face in (top, patch(img, at(cam, (0.0, 0.5, 0.6))), patch(img, at(cam, (0.6, 0.5, 0.0)))):
        assert abs(face[0] / face[2] - 185.0 / 166.0) < 0.03, face


@pytest.mark.parametrize("halo", [True, False], ids=["soft", "hard"])
def test_the_variants_compiled_for_each_pass_draw_what_the_programs_draw(ctx, tmp_path, halo):
    # Each pass draws with a variant of its program that leaves out the maps it does not read this
    # frame (light_shadow.glsl's switches); the programs as the files give them read every map as
    # the uniforms say. Both draw the same picture: a lone slime (no map but the floor's), two
    # slimes (the slimes' map) and two under a board beside a wall (every map).
    board = {"center": (0.4, 1.3, 0.0), "half_size": (0.5, 0.05, 0.6), "color": "#b08850"}
    wall = {"point": (0.0, 0.0, -1.5), "normal": (0.0, 0.0, 1.0), "color": "#9aa0a8"}
    worlds = {"lone": ([ball((0.0, 0.5, 0.0))], []),
              "pair": ([ball((-0.6, 0.5, 0.3), look=RED), ball((0.0, 0.5, -0.45))], []),  # one in the other's light
              "board": ([ball((-0.6, 0.5, 0.0), look=RED), ball((0.6, 0.5, 0.0), look=BLUE)], [board, wall])}
    cam = camera(20.0, elevation=25.0, distance=4.5, target=(0.0, 0.5, 0.0))
    renderer = WorldRenderer(ctx, samples=0)
    texture = ctx.texture(SIZE, 4)
    fbo = ctx.framebuffer(color_attachments=[texture])
    try:
        renderer.shadow_halo = halo
        for name, (bodies, obstacles) in worlds.items():
            renderer.set_obstacles(obstacles)
            renderer.update(bodies)
            pictures = []
            for variants in (True, False):
                renderer.compile_variants = variants
                renderer.render(fbo, cam)
                pictures.append(read_rgba(fbo, components=3).astype(int))
                save_png(tmp_path / f"{name}_{'variants' if variants else 'programs'}.png", pictures[-1].astype(np.uint8))
            assert renderer._variants, "no variant was compiled"
            assert np.abs(pictures[0] - pictures[1]).max() <= 1, name
            assert len(np.unique(pictures[0].reshape(-1, 3), axis=0)) > 100, f"{name}: a blank picture"
    finally:
        for obj in (renderer, fbo, texture):
            obj.release()


def test_the_outline_against_the_sky_has_no_speckles_without_multisampling(ctx, tmp_path):
    # The window's lower quality levels draw without multisampling: a pixel whose centre falls on
    # the last sliver of the slime's outline is all rim. At grazing the jelly mirrors what lies
    # straight behind it; the sky's stand-in it mirrored (environment(), the floor below the
    # horizon) was grey against the haze, and such pixels stood out along the outline as dark
    # specks, some 20 levels under the sky beside them. Over the sky, the outline's pixels lie
    # between the sky and the jelly, not below both.
    positions = uv_sphere(32, 32, 1.0, (0.0, 1.0, 0.0))
    cam = camera(35.0, elevation=17.0, distance=4.6, target=(0.0, 0.7, 0.0))
    bodies = [(positions, sphere_strip(32, 32), None)]
    img = render_world_picture(ctx, bodies, (), cam, SIZE, samples=0).astype(int)
    sky = render_world_picture(ctx, [], (), cam, SIZE, samples=0).astype(int)
    save_png(tmp_path / "outline.png", img.astype(np.uint8))
    centre = cam.project(np.array([0.0, 1.0, 0.0]), SIZE)
    radius = np.hypot(*(cam.project(positions, SIZE) - centre).T).max()
    rows, cols = np.mgrid[0:SIZE[1], 0:SIZE[0]] + 0.5
    off_centre = np.hypot(cols - centre[0], rows - centre[1])
    # The upper half of the outline, where the sky lies behind it, a pixel and a half either side.
    outline = (np.abs(off_centre - radius) < 3.0) & (rows < centre[1] - 0.3 * radius)
    assert outline.sum() > 100
    # Levels under the sky there in every channel (the green jelly is lighter in green).
    darker = (sky - img).min(axis=2)
    assert darker[outline].max() <= 6, f"dark specks along the outline: {darker[outline].max()} levels"
