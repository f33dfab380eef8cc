"""Blender opens `slime simulate`'s glTF as the run: its importer (headless) makes one object per slime
and obstacle, animations from frame 0 to the last tick, and at a middle frame the slimes' vertices
are where the .npz has them. CI installs Blender (.ci/run); elsewhere these skip without it.

The one command, by hand: ``blender -b --factory-startup --python tests/support/blender_report.py -- run.glb 4 out.json``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import missing
from slime import cli
from sample_scenes import EXPORT_SCENE

# Blender starts in seconds: left out of the quick subset (-m "not slow").
pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parents[1] / "support"
TICKS, MIDDLE = 8, 4


def blender() -> str:
    path = shutil.which("blender")
    if path is None:
        missing("Blender (apt-get install blender python3-numpy)")
    return path


def report(glb: Path, frame: int, tmp_path: Path) -> dict:
    out = tmp_path / f"{glb.stem}-{frame}.json"
    done = subprocess.run([blender(), "-b", "--factory-startup", "--python-exit-code", "1",
                           "--python", str(HERE / "blender_report.py"), "--", str(glb), str(frame), str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(out.read_text())


def z_up(positions) -> np.ndarray:
    """glTF's +y up as Blender's importer turns it: (x, y, z) -> (x, -z, y)."""
    p = np.asarray(positions)
    return np.stack([p[..., 0], -p[..., 2], p[..., 1]], axis=-1)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    blender()
    folder = tmp_path_factory.mktemp("blender")
    (folder / "scene.json").write_text(json.dumps(EXPORT_SCENE))
    for name in ("run.npz", "run.glb"):
        assert cli.main(["simulate", str(folder / "scene.json"), "--ticks", str(TICKS), "--output",
                         str(folder / name)]) == 0
    return folder


def test_blender_imports_the_objects_and_the_frame_range(run, tmp_path):
    seen = report(run / "run.glb", MIDDLE, tmp_path)
    objects = seen["objects"]
    assert {name: o["type"] for name, o in objects.items()} == {
        "slime 1": "MESH", "slime 2": "MESH", "slime 3": "MESH", "box 1": "MESH", "ball 2": "MESH",
        "plane 3": "MESH", "floor": "MESH", "camera": "CAMERA"}
    for number in (1, 2, 3):
        slime = objects[f"slime {number}"]
        assert slime["frame_range"] == [0.0, float(TICKS)]  # frame k is tick k, at 60 frames a second
        assert slime["shape_keys"] == TICKS + 1  # the basis (tick 0) and one a tick
        assert slime["materials"] == [f"slime {number}"]
    assert objects["box 1"]["frame_range"] is None


@pytest.mark.parametrize("frame", [MIDDLE, TICKS])
def test_blender_shows_tick_k_on_frame_k(run, tmp_path, frame):
    seen = report(run / "run.glb", frame, tmp_path)["objects"]
    npz = np.load(run / "run.npz")
    import gltf_reading

    doc, _ = gltf_reading.load(run / "run.glb")
    for number in (1, 2, 3):
        body = gltf_reading.node_named(doc, f"slime {number}").extras["npz_body"]
        want = z_up(npz["positions"][frame][npz["body"] == body])
        got = np.asarray(seen[f"slime {number}"]["positions"])
        assert got.shape == want.shape
        assert np.allclose(got, want, rtol=0, atol=1e-5), f"slime {number} at frame {frame}"
    # It moved since tick 0: positions from the wrong frame would not pass.
    assert np.max(np.abs(npz["positions"][frame] - npz["positions"][0])) > 0.01
