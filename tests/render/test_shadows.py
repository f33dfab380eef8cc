"""Shadows are where the key light is blocked (slime.render.world_renderer's shadow map): pictures
read back from the GPU and checked pixel by pixel, each against the same picture without the
caster. An obstacle shades the floor under it; a slime shades another and the floor, but not
what an obstacle already shades; nothing shows on the far side of an opaque wall; a squash's
lid is drawn.

Each test saves its pictures under its ``tmp_path`` (``--basetemp DIR`` to look at them).
"""

from __future__ import annotations

import numpy as np
import pytest

from slime.look import SlimeLook
from slime.physics.slime3d.sphere import sphere_strip, uv_sphere
from slime.render.camera import OrbitCamera
from slime.render.images import save_png
from slime.render.world_renderer import render_world_picture

SIZE = (320, 240)
STRIP = sphere_strip(16, 16)
KEY = np.asarray(SlimeLook().key_dir)


@pytest.fixture(autouse=True)
def current(ctx):
    with ctx:
        yield


def camera(azimuth, elevation, distance, target):
    return OrbitCamera(azimuth=azimuth, elevation=elevation, distance=distance, target=np.array(target, float),
                       min_distance=0.1, max_distance=100.0)


def at(cam, point) -> tuple[int, int]:
    x, y = cam.project(np.asarray(point, dtype=np.float64), SIZE)
    return int(y), int(x)


def patch(img, rc, half=2) -> np.ndarray:
    r, c = rc
    return img[r - half:r + half + 1, c - half:c + half + 1].reshape(-1, 3).astype(float).mean(axis=0)


def picture(ctx, bodies, obstacles, cam, path) -> np.ndarray:
    img = render_world_picture(ctx, bodies, obstacles, cam, SIZE)
    save_png(path, img)
    return img


def on_floor_below(point) -> np.ndarray:
    """Where the key light's ray through ``point`` meets the floor (y = 0)."""
    point = np.asarray(point, dtype=np.float64)
    return point - KEY * (point[1] / KEY[1])


# The ramp's board (assets/ramp.json): tilted 25 degrees, its top 0.64 m up in the middle.
BOARD = {"center": (-1.2, 0.64, 0.0), "half_size": (1.5, 0.08, 0.8), "color": "#a88a6a",
         "rotation": np.array([[np.cos(np.radians(-25)), -np.sin(np.radians(-25)), 0.0],
                               [np.sin(np.radians(-25)), np.cos(np.radians(-25)), 0.0], [0.0, 0.0, 1.0]])}


@pytest.mark.parametrize("azimuth", [200.0, 250.0])
def test_the_ramps_board_shades_the_floor_under_it(ctx, tmp_path, azimuth):
    cam = camera(azimuth, 35.0, 6.0, (-1.0, 0.3, 0.0))
    with_board = picture(ctx, [], [BOARD], cam, tmp_path / "board.png")
    bare = picture(ctx, [], [], cam, tmp_path / "bare.png")
    shaded = 0
    for dx in (-0.8, -0.4, 0.0, 0.4, 0.8):
        for dz in (-0.4, 0.0, 0.4):
            top = np.array(BOARD["center"]) + BOARD["rotation"] @ np.array([dx, 0.08, dz])
            floor = on_floor_below(top)
            seen, empty = patch(with_board, at(cam, floor)), patch(bare, at(cam, floor))
            board_colour = seen[0] - seen[2] > 25  # the board itself in front of that bit of floor
            if not board_colour:
                assert seen.sum() < 0.8 * empty.sum(), f"the floor under the board at {floor} is lit: {seen} vs {empty}"
                shaded += 1
    assert shaded >= 5, "too little of the board's shadow in view to tell"
    # Away from it (past its low end, on the light's side) the floor is as it was.
    far = at(cam, (1.2, 0.0, 1.0))
    assert np.abs(patch(with_board, far) - patch(bare, far)).max() < 3


def test_behind_the_board_a_slime_beyond_it_shades_the_floor_no_more_and_in_the_open_it_does(ctx, tmp_path):
    # A slime sitting on the ramp's board: the floor where the key light's ray through the slime
    # lands is already behind the board, which takes that light whole, so it is as dark as the
    # rest of the board's shadow (neither lit through the jelly nor darkened twice). The same
    # slime lifted clear of the board shades the floor under it.
    normal = BOARD["rotation"] @ np.array([0.0, 1.0, 0.0])
    centre = np.array(BOARD["center"]) + normal * (0.08 + 0.42)
    slime = (uv_sphere(16, 16, 0.4, centre), STRIP, SlimeLook().with_color("#f28c1e"))
    cam = camera(200.0, 35.0, 6.0, (-1.0, 0.3, 0.0))
    both = picture(ctx, [slime], [BOARD], cam, tmp_path / "both.png")
    board = picture(ctx, [], [BOARD], cam, tmp_path / "board.png")
    bare = picture(ctx, [], [], cam, tmp_path / "bare.png")
    floor = at(cam, on_floor_below(centre))
    assert not patch(board, floor)[0] - patch(board, floor)[2] > 25, "the board hides that bit of floor"
    assert patch(board, floor).sum() < 0.8 * patch(bare, floor).sum()  # in the board's shadow
    assert np.abs(patch(both, floor) - patch(board, floor)).max() <= 3, (patch(both, floor), patch(board, floor))
    lifted = centre + np.array([0.0, 0.0, 2.5])  # beside the board, its shadow on open floor
    alone = (uv_sphere(16, 16, 0.4, lifted), STRIP, SlimeLook().with_color("#f28c1e"))
    open_floor = at(cam, on_floor_below(lifted))
    shaded = picture(ctx, [alone], [BOARD], cam, tmp_path / "open.png")
    assert patch(board, open_floor).sum() > 0.95 * patch(bare, open_floor).sum(), "the board shades that floor"
    assert patch(shaded, open_floor).sum() < 0.9 * patch(board, open_floor).sum(), (patch(shaded, open_floor),
                                                                                  patch(board, open_floor))


def test_a_slime_shades_the_slime_under_it(ctx, tmp_path):
    lower = (uv_sphere(16, 16, 0.5, (0.0, 0.5, 0.0)), STRIP, SlimeLook().with_color("#3fbf4a"))
    # Up toward the light from the lower one's top, clear of it.
    upper_centre = np.array([0.0, 1.0, 0.0]) + 0.95 * KEY
    upper = (uv_sphere(16, 16, 0.4, upper_centre), STRIP, SlimeLook().with_color("#e8412c"))
    gone = (uv_sphere(16, 16, 0.4, upper_centre + (40.0, 0.0, 40.0)), STRIP, SlimeLook().with_color("#e8412c"))
    for azimuth in (120.0, 160.0):
        cam = camera(azimuth, 35.0, 4.0, (0.0, 0.6, 0.0))
        both = picture(ctx, [lower, upper], [], cam, tmp_path / f"both_{azimuth:.0f}.png")
        alone = picture(ctx, [lower, gone], [], cam, tmp_path / f"alone_{azimuth:.0f}.png")
        top = at(cam, (0.0, 0.98, 0.0))
        # Light through jelly, tinted and dimmed: the top is darker by several percent (nothing without shadows).
        assert patch(both, top).sum() < 0.96 * patch(alone, top).sum(), (patch(both, top), patch(alone, top))


def test_no_shadow_shows_on_the_far_side_of_the_pile_walls(ctx, tmp_path):
    from slime.app.render_world import HeadlessWorld
    from slime.render.world_renderer import bodies_of_world
    from slime.scenes.world_scene import load_world

    scene = load_world("pile")
    for _ in range(120):
        scene.world.step()
    bodies = bodies_of_world(scene.world, scene.looks())
    # The slimes heaped over the walls' tops may stand on the key light's way to a point outside:
    # a point is checked only where the light's ray from it passes clear of every slime's
    # bounding sphere (with a margin for the shadow's soft edge).
    centres = scene.world.centroids()
    reach = np.array([np.linalg.norm(scene.world.body_positions(i) - centres[i], axis=1).max()
                      for i in range(len(centres))]) + 0.05

    def clear_of_slimes(point) -> bool:
        to = centres - np.asarray(point)
        along = np.maximum(to @ KEY, 0.0)
        return bool((np.linalg.norm(to - along[:, None] * KEY, axis=1) > reach).all())

    # The front wall's outside (z = 1.15) from low in front, the back wall's (z = -1.15) from behind.
    for name, view, z in (("front", (35.0, 32.0, 6.5), 1.15), ("back", (215.0, 32.0, 6.5), -1.15)):
        cam = camera(*view, (0.0, 0.9, 0.0))
        full = picture(ctx, bodies, scene.drawn_obstacles, cam, tmp_path / f"{name}.png").astype(int)
        empty = picture(ctx, [], scene.drawn_obstacles, cam, tmp_path / f"{name}_empty.png").astype(int)
        outside = [(x, y, z) for x in np.linspace(-0.9, 0.9, 9) for y in (0.2, 0.5, 0.8, 1.1)]
        # The floor beyond, clear of the corners: there the walls' own shadow edges lie, and they
        # move by a texel as the light's map is fitted around the slimes as well.
        outside += [(x, 0.0, z + np.sign(z) * 0.3) for x in np.linspace(-0.7, 0.7, 8)]
        checked = [point for point in outside if clear_of_slimes(point)]
        assert len(checked) >= 0.6 * len(outside), (name, len(checked))
        for point in checked:
            r, c = at(cam, point)
            assert np.abs(full[r, c] - empty[r, c]).max() <= 3, f"{name}: the slimes inside darken {point}"
        assert np.abs(full - empty).max() > 60  # the slimes are there (seen over the wall)


def test_a_squash_draws_its_lid(ctx, tmp_path):
    from slime.app.world_view import WorldView
    from slime.physics.slime3d.slime_params import SlimeParams
    from slime.physics.slime3d.world3d import World3D

    world = World3D()
    world.add_slime(SlimeParams(stacks=16, slices=16))
    for _ in range(30):
        world.step()
    look = SlimeLook()
    view = WorldView(ctx, floor_height=0.0, look=look)
    cam = camera(35.0, 25.0, 8.0, (0.0, 1.0, 0.0))
    try:
        def shot(name):
            view.update(world, look)
            img = view.picture(cam, SIZE, samples=0, shadow_halo=True, wireframe=False)
            save_png(tmp_path / f"{name}.png", img)
            return img.astype(int)

        shot("before")
        world.squash()
        for frame in range(1, 19):  # 0.05 s and 0.3 s after
            world.step()
            if frame in (3, 18):
                with_lid = shot(f"lid_{frame}")
                view.world_renderer.set_moving_obstacles([])  # the same frame without its lid
                img = view.picture(cam, SIZE, samples=0, shadow_halo=True, wireframe=False).astype(int)
                save_png(tmp_path / f"nolid_{frame}.png", img.astype(np.uint8))
                # The lid: a pale grey plate (its top lit, not the floor's white nor the shade of its
                # shadow) where the picture without it shows jelly or floor.
                pale = (with_lid.max(axis=2) - with_lid.min(axis=2) < 30) & (np.abs(with_lid.mean(axis=2) - 185) < 30)
                lid = pale & (np.abs(with_lid - img).sum(axis=2) > 60)
                assert lid.mean() > 0.01, (frame, lid.mean())
    finally:
        view.release()
