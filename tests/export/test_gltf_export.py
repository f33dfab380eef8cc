"""`slime simulate ... --output run.glb | run.gltf`: the file read back by pygltflib (tests/support/gltf_reading.py)
holds the run's positions at every tick, its triangles, each slime's look as a material, the
obstacles, the floor and the camera, passes the structural checks, and bad requests fail in one
line leaving nothing behind."""

from __future__ import annotations

import errno
import json
import re
import math
from pathlib import Path

import numpy as np
import pygltflib
import pytest

from gltf_reading import load, mesh_at, node_named, structure_problems
from sample_scenes import EXPORT_SCENE

from slime import cli
from slime.export import gltf
from slime.limits import MAX_EXPORT_FRAMES, MAX_EXPORT_VERTEX_FRAMES
from slime.look import SlimeLook, slime_look
from slime.mesh import vertex_normals

DT = 1.0 / 60.0


def simulate(*args) -> int:
    return cli.main(["simulate", *map(str, args)])


def close_in_float32(got, want) -> bool:
    """Equal but for the rounding of float32 positions (and of one float32 difference added to them)."""
    scale = max(1.0, float(np.max(np.abs(want))))
    return bool(np.allclose(got, want, rtol=0, atol=4 * np.finfo(np.float32).eps * scale))


@pytest.fixture(scope="module")
def scene_run(tmp_path_factory):
    """The scene above, 8 ticks, as .npz, .glb and (without the floor) .gltf."""
    folder = tmp_path_factory.mktemp("scene")
    path = folder / "scene.json"
    path.write_text(json.dumps(EXPORT_SCENE))
    for out, extra in (("run.npz", []), ("run.glb", []), ("run.gltf", ["--no-floor"])):
        assert simulate(path, "--ticks", 8, "--output", folder / out, *extra) == 0
    return folder


# --- the single slime ---------------------------------------------------------------------------------
def test_the_slime_at_several_ticks_is_the_npz_of_the_same_run(tmp_path):
    args = ["slime", "--ticks", 12, "--stacks", 6, "--slices", 8, "--poke", "2:0,2,0:0,-60,0"]
    assert simulate(*args, "--output", tmp_path / "run.npz") == 0
    assert simulate(*args, "--output", tmp_path / "run.glb") == 0
    run = np.load(tmp_path / "run.npz")
    doc, blob = load(tmp_path / "run.glb")
    assert structure_problems(doc, blob) == []
    for tick in (0, 1, 3, 7, 12):
        # A player samples anywhere within the tick's frame: its time, or a little either side.
        for time in (tick * DT, (tick - 0.4) * DT, (tick + 0.4) * DT):
            x, n, triangles = mesh_at(doc, blob, "slime", max(time, 0.0))
            assert close_in_float32(x, run["positions"][tick]), (tick, time)
        assert np.allclose(n, vertex_normals(run["positions"][tick], triangles), atol=1e-5)
    assert np.array_equal(triangles, run["triangles"])
    assert len(triangles) == 2 * 8 * (6 - 1)  # a UV sphere: two triangles a quad, one a pole fan
    # The poke moved it: an export that left out the animation would fail the comparisons above.
    assert np.max(np.abs(run["positions"][7] - run["positions"][0])) > 0.05


def test_a_gltf_has_its_bin_beside_it_and_the_same_contents_as_a_glb(tmp_path):
    args = ["slime", "--ticks", 5, "--stacks", 4, "--slices", 5]
    assert simulate(*args, "--output", tmp_path / "run.glb") == 0
    assert simulate(*args, "--output", tmp_path / "run.gltf") == 0
    names = sorted(p.name for p in tmp_path.iterdir())  # no temporaries
    assert len(names) == 3 and names[1:] == ["run.glb", "run.gltf"], names
    assert re.fullmatch(r"run\.[0-9a-f]{12}\.bin", names[0]), names
    assert json.loads((tmp_path / "run.gltf").read_text())["buffers"][0]["uri"] == names[0]
    glb, gltf_ = load(tmp_path / "run.glb"), load(tmp_path / "run.gltf")
    assert structure_problems(*gltf_) == []
    for tick in (0, 5):
        assert np.array_equal(mesh_at(*glb, "slime", tick * DT)[0], mesh_at(*gltf_, "slime", tick * DT)[0])


def test_the_animation_lasts_the_run_at_its_rate(tmp_path):
    assert simulate("slime", "--ticks", 30, "--stacks", 4, "--slices", 4, "--output", tmp_path / "run.glb") == 0
    doc, blob = load(tmp_path / "run.glb")
    (animation,) = doc.animations
    times = doc.accessors[animation.samplers[0].input]
    assert times.min == [0.0] and times.max[0] == pytest.approx(30 * DT)
    assert animation.samplers[0].interpolation == "STEP"
    assert len(doc.meshes[0].primitives[0].targets) == 30
    assert doc.meshes[0].extras["targetNames"][-1] == "tick 30"


def test_the_slimes_look_is_the_one_slime_render_draws(tmp_path, monkeypatch):
    """The same --color gives the same SlimeLook to `slime render` and to the glTF's material."""
    assert simulate("slime", "--ticks", 2, "--stacks", 4, "--slices", 4, "--color", "#3366ff",
                    "--output", tmp_path / "run.glb") == 0
    doc, _ = load(tmp_path / "run.glb")
    exported = SlimeLook.from_dict(doc.materials[0].extras["slime_look"])
    drawn = []

    class Drawn(Exception):
        pass

    def headless_world(scene, **kwargs):
        drawn.append(scene.looks()[0])
        raise Drawn

    monkeypatch.setattr("slime.app.render_world.HeadlessWorld", headless_world)
    with pytest.raises(Drawn):
        from slime.app.render_slime import render_slime

        render_slime(output=tmp_path / "x.png", color="#3366ff", progress=False)
    assert drawn[0] == exported == slime_look("#3366ff")
    assert exported != SlimeLook()


# --- a scene file ------------------------------------------------------------------------------------------
def test_every_slime_of_a_scene_moves_as_in_the_npz(scene_run):
    run = np.load(scene_run / "run.npz")
    doc, blob = load(scene_run / "run.glb")
    assert structure_problems(doc, blob) == []
    names = [n.name for n in doc.nodes]
    assert names == ["slime 1", "slime 2", "slime 3", "box 1", "ball 2", "plane 3", "floor", "camera"]
    counts = {1: 6 * 8 - 8 + 2, 2: 4 * 6 + 2, 3: 6 * 8 - 8 + 2}  # (stacks - 1) x slices + 2 poles
    for number in (1, 2, 3):
        node = node_named(doc, f"slime {number}")
        body = node.extras["npz_body"]
        mine = run["body"] == body
        offset = int(np.flatnonzero(mine)[0])
        want_triangles = run["triangles"][np.all(mine[run["triangles"]], axis=1)] - offset
        for tick in (0, 4, 8):
            x, _, triangles = mesh_at(doc, blob, f"slime {number}", tick * DT)
            assert len(x) == counts[number]
            assert close_in_float32(x, run["positions"][tick][mine])
        assert np.array_equal(triangles, want_triangles)
    # Slime 3 was thrown along +x: it moved, and its start is where the file put it.
    start = mesh_at(doc, blob, "slime 3", 0.0)[0].mean(axis=0)
    assert np.allclose(start, [-1, 0.5, 0], atol=0.02)
    assert mesh_at(doc, blob, "slime 3", 8 * DT)[0].mean(axis=0)[0] > start[0] + 0.03


def test_obstacles_floor_and_camera(scene_run):
    doc, blob = load(scene_run / "run.glb")
    box, _, _ = mesh_at(doc, blob, "box 1", 0.0)
    spec = EXPORT_SCENE["obstacles"][0]
    from slime.scenes.world_format import load_world_scene

    rotation = load_world_scene(scene_run / "scene.json").obstacles[0].rotation_matrix()
    local = np.abs((box - spec["center"]) @ rotation)  # in the box's own axes
    assert np.all(local <= np.array(spec["half_size"]) + 1e-6)
    assert np.all(np.any(np.isclose(local, spec["half_size"], atol=1e-6), axis=1))  # every corner on a face
    ball, _, _ = mesh_at(doc, blob, "ball 2", 0.0)
    assert np.allclose(np.linalg.norm(ball - [2, 0.3, 2], axis=1), 0.3, atol=1e-6)
    plane, _, _ = mesh_at(doc, blob, "plane 3", 0.0)
    assert np.allclose(plane[:, 2], -3.0)
    floor, _, _ = mesh_at(doc, blob, "floor", 0.0)
    assert np.allclose(floor[:, 1], 0.0) and np.ptp(floor[:, 0]) > 50
    # Every triangle runs counter-clockwise seen from the side its normals face (glTF's front).
    for name in ("box 1", "ball 2", "plane 3", "floor", "slime 1"):
        x, n, triangles = mesh_at(doc, blob, name, 0.0)
        corners = x[triangles]
        facing = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        assert np.all(np.einsum("ij,ij->i", facing, n[triangles].sum(axis=1)) > 0), name
    # The colour given is the box's (decoded from the screen's sRGB to glTF's linear factors).
    box_material = doc.materials[doc.meshes[node_named(doc, "box 1").mesh].primitives[0].material]
    assert box_material.pbrMetallicRoughness.baseColorFactor[:3] == pytest.approx(
        [((c / 255 + 0.055) / 1.055) ** 2.4 for c in (0x88, 0x99, 0xAA)])
    # The camera: where `slime render` looks from (yaw 0 looks from +z), looking at the target.
    camera = node_named(doc, "camera")
    target = np.array([0, 0.5, 0])
    eye = target + 5 * np.array([0, math.sin(math.radians(30)), math.cos(math.radians(30))])
    assert np.allclose(camera.translation, eye)
    x, y, z, w = camera.rotation
    look = -np.array([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)])  # the quaternion's -z
    assert np.allclose(look, (target - eye) / np.linalg.norm(target - eye), atol=1e-9)
    assert doc.cameras[camera.camera].perspective.yfov == pytest.approx(math.radians(40))


def test_no_floor_leaves_the_floor_out(scene_run):
    doc, blob = load(scene_run / "run.gltf")
    assert "floor" not in [n.name for n in doc.nodes] and "box 1" in [n.name for n in doc.nodes]
    assert structure_problems(doc, blob) == []


def test_each_slime_wears_its_look(scene_run):
    doc, _ = load(scene_run / "run.glb")
    from slime.scenes.world_format import load_world_scene

    looks = [s.slime_look() for s in load_world_scene(scene_run / "scene.json").slimes]
    materials = {}
    for number, look in enumerate(looks, start=1):
        node = node_named(doc, f"slime {number}")
        material = doc.materials[doc.meshes[node.mesh].primitives[0].material]
        materials[number] = material
        assert material.name == f"slime {number}"
        assert SlimeLook.from_dict(material.extras["slime_look"]) == look
        ext = material.extensions
        assert ext["KHR_materials_transmission"]["transmissionFactor"] == 1.0
        assert ext["KHR_materials_ior"]["ior"] == pytest.approx(look.refraction)
        volume = ext["KHR_materials_volume"]
        if max(look.absorption) > 0:
            # Beer-Lambert: what is left after a metre, colour ** (1 / distance), is exp(-absorption).
            kept = np.asarray(volume["attenuationColor"]) ** (1.0 / volume["attenuationDistance"])
            assert np.allclose(kept, np.exp(-np.asarray(look.absorption)))
        else:
            assert "attenuationDistance" not in volume  # glTF's default: nothing absorbed
        # A clear surface: the colour is the body's, through its thickness.
        assert material.pbrMetallicRoughness.baseColorFactor == [1.0, 1.0, 1.0, 1.0]
    assert set(gltf.EXTENSIONS) <= set(doc.extensionsUsed)
    red, _, blue = materials[1].extensions["KHR_materials_volume"]["attenuationColor"]
    assert red > 0.5 > blue  # #ff3300 lets red through
    # A duller highlight (shininess 50 against 400) is a rougher surface.
    assert materials[2].pbrMetallicRoughness.roughnessFactor > materials[1].pbrMetallicRoughness.roughnessFactor
    assert materials[2].extensions["KHR_materials_ior"]["ior"] == 1.5


def test_pile_exports_its_ten_slimes_and_five_obstacles(tmp_path):
    assert simulate("pile", "--ticks", 1, "--output", tmp_path / "pile.glb") == 0
    doc, blob = load(tmp_path / "pile.glb")
    assert structure_problems(doc, blob) == []
    names = [n.name for n in doc.nodes]
    assert names[:10] == [f"slime {k}" for k in range(1, 11)]
    assert names[10:] == ["box 1", "box 2", "box 3", "box 4", "ball 5", "floor", "camera"]
    assert doc.materials[0].name == "slime 1"
    assert len(doc.meshes[0].primitives[0].targets) == 1


@pytest.mark.parametrize("name, obstacles", [("ramp", ["box 1", "plane 2"]), ("duel", None),
                                             ("pillars", ["cylinder 1", "cylinder 2", "cylinder 3", "cylinder 4"])])
def test_every_bundled_3d_scene_exports(tmp_path, name, obstacles):
    from slime.obstacle_mesh import obstacle_mesh
    from slime.scenes.world_format import load_world_scene

    spec = load_world_scene(name)
    assert simulate(name, "--ticks", 2, "--output", tmp_path / f"{name}.glb") == 0
    doc, blob = load(tmp_path / f"{name}.glb")
    assert structure_problems(doc, blob) == []
    names = [n.name for n in doc.nodes]
    assert names[:len(spec.slimes)] == [f"slime {k}" for k in range(1, len(spec.slimes) + 1)]
    if obstacles is not None:
        assert names[len(spec.slimes):len(spec.slimes) + len(obstacles)] == obstacles
    assert len(names) == len(spec.slimes) + len(spec.obstacles) + 2  # and the floor and the camera
    for node, entry in zip(doc.nodes[len(spec.slimes):], spec.obstacles):
        # Each obstacle's mesh is its kind's triangles.
        (primitive,) = doc.meshes[node.mesh].primitives
        assert doc.accessors[primitive.attributes.POSITION].count == len(obstacle_mesh(entry.obstacle()))


def test_the_estimate_is_near_the_file_size(scene_run):
    from slime.scenes.world_scene import load_world

    scene = load_world(scene_run / "scene.json")
    estimate = gltf.estimated_bytes(*gltf.world_counts(scene), 9, gltf.solid_vertices(scene.drawn_obstacles, True))
    size = (scene_run / "run.glb").stat().st_size
    assert 0.7 * size < estimate < 1.3 * size


# --- refused and failed runs ---------------------------------------------------------------------------------
def one_error_line(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0]
    return lines[0]


def test_a_run_too_large_is_refused_before_it_runs(tmp_path, monkeypatch, capsys):
    def never(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr("slime.scenes.world_scene.build_world", never)
    monkeypatch.setattr("slime.scenes.world_run.record", never)
    out = tmp_path / "big.glb"
    assert simulate("slime", "--ticks", 400, "--stacks", 512, "--slices", 512, "--output", out) == 2
    line = one_error_line(capsys)
    assert str(out) in line and f"{MAX_EXPORT_VERTEX_FRAMES:,}" in line and "GB" in line
    assert simulate("pile", "--ticks", MAX_EXPORT_FRAMES, "--output", out) == 2
    line = one_error_line(capsys)
    assert f"{MAX_EXPORT_FRAMES:,} frames" in line and "MB" in line and f"{MAX_EXPORT_FRAMES - 1} --ticks" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, words", [
    (["slime", "--output", "run.obj"], ".npz or .glb or .gltf"),
    (["soda", "--output", "run.glb"], "2D scene"),
    (["slime", "--output", "run.npz", "--no-floor"], "glTF output"),
    (["slime", "--output", "no/such/folder/run.glb"], "does not exist"),
    (["slime", "--output", "/proc/slime-run.glb"], "/proc/slime-run.glb"),  # a folder nobody may write in
    (["pile", "--output", "run.glb", "--color", "#ffffff"], "single slime"),
])
def test_bad_requests_are_one_line(tmp_path, monkeypatch, capsys, args, words):
    monkeypatch.chdir(tmp_path)
    small = ["--stacks", 4, "--slices", 4] if args[0] == "slime" else []
    assert simulate(*args, "--ticks", 2, *small) != 0
    assert words in one_error_line(capsys)
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_leaves_nothing(tmp_path, monkeypatch, capsys):
    def full(self, *args, **kwargs):
        Path(args[0]).write_bytes(b"glTF half")  # some of it got out before the disk filled
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pygltflib.GLTF2, "save_binary", full)
    out = tmp_path / "run.glb"
    assert simulate("slime", "--ticks", 2, "--stacks", 4, "--slices", 4, "--output", out) == 2
    assert one_error_line(capsys) == f"slime: error: {out}: cannot write it (No space left on device)"
    assert list(tmp_path.iterdir()) == []

    def full_text(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_text)  # the .bin is written, then the JSON fails
    out = tmp_path / "run.gltf"
    assert simulate("slime", "--ticks", 2, "--stacks", 4, "--slices", 4, "--output", out) == 2
    assert str(out) in one_error_line(capsys)
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_run_leaves_the_old_file(tmp_path, monkeypatch, capsys):
    from slime.physics.slime3d.world3d import World3D

    out = tmp_path / "run.glb"
    out.write_bytes(b"the last run")
    step, calls = World3D.step, []

    def interrupted(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return step(self, *args, **kwargs)

    monkeypatch.setattr(World3D, "step", interrupted)
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(EXPORT_SCENE))
    assert simulate(path, "--ticks", 8, "--output", out) == 130
    line = one_error_line(capsys)
    assert "interrupted" in line and str(out) in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.glb", "scene.json"]
    assert out.read_bytes() == b"the last run"


def test_a_gltf_and_its_buffer_are_never_a_mismatched_pair(tmp_path, monkeypatch):
    # Cut off between the buffer's rename and the .gltf's, a rewrite leaves the old .gltf reading
    # its own old buffer; a whole rewrite leaves the new pair alone, the old buffer gone.
    import os

    out = tmp_path / "run.gltf"
    args = ["slime", "--stacks", 4, "--slices", 5, "--output", out]
    assert simulate(*args, "--ticks", 3) == 0
    first = set(tmp_path.iterdir())
    replace, renamed = os.replace, []

    def replace_then_stop(source, target):
        renamed.append(target)
        if str(target).endswith(".gltf"):
            raise KeyboardInterrupt
        replace(source, target)

    monkeypatch.setattr(os, "replace", replace_then_stop)
    assert simulate(*args, "--ticks", 6) == 130
    monkeypatch.setattr(os, "replace", replace)
    assert len(renamed) == 2 and str(renamed[0]).endswith(".bin")  # the new buffer went in, then the stop
    doc, blob = load(out)
    assert structure_problems(doc, blob) == []  # the old .gltf and the buffer it names: a whole pair
    assert len(doc.animations[0].channels) and mesh_at(doc, blob, "slime", 3 * DT) is not None
    assert simulate(*args, "--ticks", 6) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 2 and not (first & set(tmp_path.iterdir())) - {out}, names
    assert structure_problems(*load(out)) == []
