"""Readers that are not slime's take the glTF as meant: the Khronos glTF-Validator finds no error,
warning or hint in a .glb or a .gltf + .bin, and three.js's GLTFLoader (the release
web/view_in_browser.html loads) plays tick k at time k / 60 s with the jelly as a physical
material. Both run on Node from .ci/node/node_modules (.ci/run installs them; elsewhere these skip
without them: `npm ci --prefix .ci/node`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import missing
from slime import cli
from sample_scenes import EXPORT_SCENE

ROOT = Path(__file__).resolve().parents[2]
MODULES = ROOT / ".ci" / "node" / "node_modules"
TICKS = 12


def node(*args) -> object:
    exe = shutil.which("node")
    if exe is None or not (MODULES / "gltf-validator").is_dir() or not (MODULES / "three").is_dir():
        missing("Node with gltf-validator and three in .ci/node/node_modules (npm ci --prefix .ci/node)")
    done = subprocess.run([exe, str(ROOT / "tests" / "support" / "gltf_readers.mjs"), str(MODULES), *map(str, args)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readers")
    (folder / "scene.json").write_text(json.dumps(EXPORT_SCENE))
    for name in ("scene.glb", "scene.gltf"):
        assert cli.main(["simulate", str(folder / "scene.json"), "--ticks", str(TICKS), "--output",
                         str(folder / name)]) == 0
    assert cli.main(["simulate", "slime", "--ticks", "3", "--stacks", "5", "--slices", "6", "--no-floor",
                     "--output", str(folder / "slime.glb")]) == 0
    return folder


@pytest.mark.parametrize("name", ["scene.glb", "scene.gltf", "slime.glb"])
def test_the_khronos_validator_finds_nothing(files, name):
    issues = node("validate", files / name)
    assert (issues["numErrors"], issues["numWarnings"], issues["numInfos"], issues["numHints"]) == (0, 0, 0, 0), \
        issues["messages"]


def test_three_js_plays_tick_k_at_k_sixtieths(files):
    ticks = [0, 1, 5, TICKS - 1, TICKS]
    seen = node("three", files / "scene.glb", *ticks)
    assert seen["animations"] == [{"name": "run", "duration": pytest.approx(TICKS / 60), "tracks": 3}]
    assert seen["meshes"] == ["slime_1", "slime_2", "slime_3"]  # three.js writes names' spaces as _
    assert seen["cameras"] == 1
    for tick in ticks:
        for weights in seen["weights"][str(tick)]:
            want = np.zeros(TICKS)
            if tick:
                want[tick - 1] = 1.0
            assert np.array_equal(weights, want), tick
    material = seen["material"]
    assert material["type"] == "MeshPhysicalMaterial" and material["name"] == "slime 1"
    assert material["transmission"] == 1 and material["ior"] == pytest.approx(1.33)
    assert material["thickness"] > 0.5 and 0 < material["attenuationDistance"] < 10


def test_the_page_loads_the_three_js_the_tests_use():
    from slime.paths import WEB

    tested = json.loads((ROOT / ".ci" / "node" / "package.json").read_text())["dependencies"]["three"]
    assert (WEB / "three" / "VERSION").read_text().strip() == tested
