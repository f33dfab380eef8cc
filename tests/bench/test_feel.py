"""It feels like slime: the jelly's click, drop, throw and touch, measured as `slime bench --only
feel` measures them, held to the figures the slime was made to meet, and the same at every mesh
resolution; the surface tension in N/m at every resolution; each material what it says.

The meshes here are 16 x 16 to 64 x 64, sixteen times the vertices: a term that depends on the
mesh (a per-vertex force scaled by the count of vertices) shows across them. The bench's 128 x 128
rows (`slime bench --only feel`) are 18 s of physics each, and are measured there."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image

from helpers import headless_demo, jelly, once_per_run
from slime.bench import feel
from slime.bench.fuzz import trial
from slime.physics.slime3d.materials import MATERIALS
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams

SLOW = pytest.mark.slow


@pytest.fixture(scope="session")
def row(tmp_path_factory):
    """The feel bench's row for a material at size x size, ``row(size, material="jelly")``:
    computed once a test run (a 64 x 64 row is a few seconds of physics), whichever tests ask for it."""

    def feel_row(size: int, material: str = "jelly") -> dict:
        params = SlimeParams.of_material(material, stacks=size, slices=size)
        return once_per_run(tmp_path_factory, f"feel-{material}-{size}", lambda: feel.feel(params, material))

    return feel_row


SIZES = [16, 32, pytest.param(64, marks=SLOW)]


@pytest.mark.parametrize("size", SIZES)
def test_a_click_dents_deep_and_late_and_the_jelly_rings(size, row):
    r = row(size)
    assert r["dent"] >= 0.15, r  # a sixth of the radius at least (the jelly: over 0.8)
    assert r["dent_at"] >= 0.05, r  # deepest at least 50 ms after the click
    assert r["dent_held"] >= 0.15, r  # deeper than 8 % for 0.15 s at least
    assert r["wobble_peaks"] >= 2 and 2.0 <= r["wobble_hz"] <= 6.0, r  # then it rings, at 2-6 Hz


@pytest.mark.parametrize("size", SIZES)
def test_a_drop_splats_and_a_throw_comes_to_rest(size, row):
    r = row(size)
    assert r["drop_squash"] >= 0.30, r  # dropped from 2 m, 30 % flatter at the impact
    assert r["drop_bounce"] <= 0.20, r  # and back up to a fifth of the drop at most
    # The window's flick (4 m/s up and aside) lifts it off the floor and throws it about a body
    # length (1.26 at 32 x 32, 0.97 at 128 x 128).
    assert r["throw_lift"] > 0.05 and r["throw_reach"] >= 0.9, r
    assert r["throw_rest_s"] <= 3.0, r  # and it is at rest within 3 s of the release
    assert r["wall_rest_s"] <= 3.0, r  # or into a wall


@SLOW
def test_the_same_slime_at_every_resolution(row):
    rows = [row(size) for size in (16, 32, 64)]
    for name in ("dent", "wobble_hz", "settled_height"):
        values = [r[name] for r in rows]
        assert max(values) <= 1.1 * min(values), (name, values)
    # The bounce is near nothing: the same within 10 % of the drop height.
    bounces = [r["drop_bounce"] for r in rows]
    assert max(bounces) - min(bounces) <= 0.10, bounces


def _settled_height(size: int, tension: float) -> float:
    """The settled slime's height (m) at size x size with ``tension`` N/m. Settled with air drag
    of 20 /s: drag pulls on velocity alone, so the shape it settles into is the slime's own, and it
    gets there within 1.5 s at every mesh, the lift within 0.3 % of where 2 s leave it (the jelly's
    own drag leaves a fine mesh still rising after 4 s)."""
    body = SlimeBody(SlimeParams(stacks=size, slices=size, surface_tension=tension))
    body.set_params(air_drag=20.0)
    for _ in range(90):
        body.step()
    return float(np.ptp(body.positions[:, 1]))


def _lift(size: int) -> tuple[float, float]:
    """(how far 10 N/m of surface tension lifts the settled top, the sag without it) in metres."""
    loose = _settled_height(size, 0.0)
    return _settled_height(size, 10.0) - loose, 2.0 - loose


@SLOW
def test_surface_tension_is_newtons_per_metre_at_every_resolution():
    # 0 -> 10 N/m lifts the settled top by the same at 32 x 32 and 64 x 64 (the tension has no
    # factor that fades with the mesh: one as the stacks to the power -1/4 already leaves 86 % of
    # the lift at 64 x 64), and by about what a drop's Laplace pressure predicts: the
    # squash mode's omega^2 grows by 8 gamma / (rho R^3) = 33.5 gamma for 1 kg of radius 1 m,
    # against the shape's k_s, so the sag shrinks to k_s / (k_s + 335) of itself (docs/1 explains
    # why the measured lift is about 80 % of that, not all of it).
    lifts = {size: _lift(size) for size in (32, 64)}
    (lift32, sag32), (lift64, _) = lifts[32], lifts[64]
    assert lift32 > 0.0 and abs(lift64 / lift32 - 1.0) <= 0.10, lifts
    k_s = SlimeParams().shape_stiffness
    predicted = sag32 * (1.0 - k_s / (k_s + 32.0 * math.pi / 3.0 * 10.0))
    assert 0.6 <= lift32 / predicted <= 1.1, (lift32, predicted)


def test_in_duel_the_slimes_squash_into_each_other_without_passing_through():
    from slime.scenes.world_scene import load_world
    from mesh_truth import world_penetration as _penetration

    world = load_world("duel").world
    radii = [b.params.radius for b in world.bodies]
    closest, deepest = math.inf, 0.0
    for _ in range(60):
        world.step()
        c = world.centroids()
        gap = float(np.linalg.norm(c[0] - c[1])) / sum(radii)
        closest = min(closest, gap)
        if gap < 1.0:
            deepest = max(deepest, _penetration(world))
    assert closest <= 0.85, closest  # the centres come within 0.85 of the sum of the radii
    assert deepest <= 0.02 * min(radii), deepest  # and neither passes into the other


@SLOW
def test_in_pile_the_slimes_squash_into_each_other_and_the_walls():
    # Ten jellies dropped one after another into a box too small for them to lie side by side:
    # 4 s later they are heaped, and where two touch their centres are nearer than their radii
    # add up to, as where one touches a wall its centre is nearer the wall than its radius: they
    # flatten against what they rest on. None passes into another or out of the box.
    from scipy.spatial import cKDTree
    from slime.scenes.world_scene import load_world
    from mesh_truth import world_penetration as _penetration

    scene = load_world("pile")
    world = scene.world
    for _ in range(240):
        world.step()
    xs = [world.body_positions(i) for i in range(len(world.bodies))]
    radii = np.array([b.params.radius for b in world.bodies])
    centres = world.centroids()
    trees = [cKDTree(x) for x in xs]
    pressed = []
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if trees[i].query(xs[j], distance_upper_bound=0.02)[0].min() < 0.02:  # touching
                pressed.append(np.linalg.norm(centres[i] - centres[j]) / (radii[i] + radii[j]))
    assert sum(gap <= 0.9 for gap in pressed) >= 8, sorted(pressed)
    walls = [o.values for o in scene.spec.obstacles if o.kind == "box"]
    against = []
    for wall in walls:
        axis = int(np.argmin(wall["half_size"]))  # across the wall
        side = np.sign(wall["center"][axis])
        inner = abs(wall["center"][axis]) - wall["half_size"][axis]  # its face to the box's inside
        for i, x in enumerate(xs):
            if (side * x[:, axis]).max() > inner - 0.02:
                against.append((inner - side * centres[i][axis]) / radii[i])
        assert (np.abs(np.concatenate(xs)[:, axis]) < inner + 0.02).all()  # nothing out through the wall
    assert sum(gap <= 0.9 for gap in against) >= 4, sorted(against)
    assert _penetration(world) <= 0.02 * radii.min()


def test_each_material_is_what_it_says(row):
    jelly_row, goo, rubber = row(16), row(16, "goo"), row(16, "rubber")
    assert goo["settled_height"] < 0.75 * jelly_row["settled_height"]  # goo slumps
    assert goo["drop_bounce"] <= 0.05 and goo["throw_rest_s"] <= 1.5  # and stays where it lands
    assert rubber["drop_bounce"] >= 0.5  # rubber bounces back high
    assert rubber["dent"] < 0.5 * jelly_row["dent"]  # and a click barely dents it
    assert rubber["wobble_hz"] > 2.0 * jelly_row["wobble_hz"]
    assert SlimeParams() == SlimeParams.of_material("jelly")  # jelly is the default


@pytest.mark.parametrize("material", list(MATERIALS))
@pytest.mark.parametrize("size", [16, pytest.param(32, marks=SLOW)])
def test_every_material_always_comes_back(material, size):
    # The robustness guarantee for every material: random abuse, then left alone, back to its
    # volume within 1 %, no triangle inverted, and settled to the shape an untouched slime of
    # the same material rests in.
    rng = np.random.default_rng(size)
    params = SlimeParams.of_material(material, stacks=size, slices=size)
    for _ in range(2):
        result = trial(params, rng, 6, MATERIALS[material].settles_within)
        assert result["ok"], (material, result)


@pytest.fixture(scope="module")
def window():
    """The slime window headless on EGL, one per module."""
    with headless_demo(size=(480, 360)) as config:
        yield config


def test_the_demo_screenshot_a_tenth_of_a_second_after_a_click_shows_the_dent(window, tmp_path):
    # The window's own click on the settled jelly, just under its silhouette's top, then six
    # frames (0.1 s): the demo's screenshot shows the top at least 8 % of the radius lower. (The
    # window is driven frame by frame, so the 0.1 s is the simulation's, whatever the machine.)
    def shot() -> np.ndarray:
        with Image.open(window.screenshot(tmp_path)) as im:
            return jelly(np.asarray(im.convert("RGB")))

    def top_row(mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask.sum(axis=1) >= 3)[0])

    # Settled, 2 s: the window's own step of its world for all but the last frames, which it
    # draws (a drawn frame is some sixty times the step's time, and none of these is looked at).
    for frame in range(120):
        window.on_render(0.0, 1.0 / 60.0) if frame >= 114 else window._advance(1.0 / 60.0)
    before = shot()
    rows, cols = np.nonzero(before)
    radius = 0.5 * (cols.max() - cols.min())
    top = top_row(before)
    x, y = 0.5 * (cols.max() + cols.min()), top + 0.05 * radius
    scale = window.wnd.buffer_size[1] / window.wnd.size[1]  # screenshot pixels per window pixel
    x, y = x / scale, y / scale
    left = window.wnd.mouse.left
    window.on_mouse_position_event(x, y, 0, 0)
    window.on_mouse_press_event(x, y, left)
    assert window.gesture.press is not None, "the click did not reach the slime"
    window.on_mouse_release_event(x, y, left)
    for _ in range(6):
        window.on_render(0.0, 1.0 / 60.0)
    drop = (top_row(shot()) - top) / radius
    assert drop >= 0.08, drop
