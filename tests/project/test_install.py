"""A built wheel is a working slime: it holds every module, shader and model, and once installed
outside the checkout it renders the slime, a 2D scene and a 3D scene from a folder that is not the checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel ``pip wheel`` builds from a clean copy of the checkout (a left-over build/ folder
    would hide a file pyproject.toml forgets), without the network (no build isolation: the test
    environment's setuptools and wheel build it)."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "out", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir", str(folder), str(source)],
        check=True, capture_output=True, text=True,
    )
    (built,) = folder.glob("slime-*.whl")
    return built


@pytest.mark.slow
def test_wheel_holds_every_module_shader_and_model(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "slime").rglob("*.py")}
    shaders = {f"slime/shaders/{p.name}" for p in (ROOT / "shaders").iterdir() if p.is_file() and p.suffix != ".pyc"}
    models = {f"slime/assets/{p.name}" for p in (ROOT / "assets").glob("*.json")}
    web = {f"slime/web/{p.relative_to(ROOT / 'web').as_posix()}" for p in (ROOT / "web").rglob("*")
           if p.is_file() and "__pycache__" not in p.parts}  # slime view's page and its three.js
    assert "slime/shaders/slime.frag" in shaders and "slime/assets/dainty_walker.json" in models
    assert "slime/web/three/three.module.min.js" in web and "slime/web/three/LICENSE" in web
    left_out = sorted((modules | shaders | models | web) - names)
    assert not left_out, f"pyproject.toml's packages or package-data miss {left_out}"


@pytest.mark.slow
def test_installed_wheel_renders_outside_the_checkout(wheel, tmp_path, ctx):
    target, work = tmp_path / "site", tmp_path / "work"
    work.mkdir()
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        check=True, capture_output=True, text=True,
    )
    # The installed copy comes first on the path; the dependencies come from this environment.
    # Its kernels run as plain Python (NUMBA_DISABLE_JIT, a mode the physics supports and
    # test_slime_kernels holds to the compiled numbers): numba compiles the same source the same
    # way wherever it is installed, and compiling it all again for a new folder is most of this
    # test's time. What this test is for, the wheel's files and paths, is the same either way,
    # and so is it at one frame as at the two seconds a plain `slime render` runs (a minute of
    # plain-Python physics): a frame reads every shader and model a render needs.
    env = {**os.environ, "PYTHONPATH": str(target), "NUMBA_DISABLE_JIT": "1"}
    where = subprocess.run(
        [sys.executable, "-c", "import slime.paths as p; print(p.SHADERS); print(p.ASSETS)"],
        cwd=work, env=env, check=True, capture_output=True, text=True,
    ).stdout.split()
    assert [Path(w).parent for w in where] == [target / "slime"] * 2

    slime = [str(target / "bin" / "slime")]  # the console script the wheel installs
    for args, name, size in [
        (["render", "--frames", "1", "--size", "160x120", "--output", "jelly.png"], "jelly.png", (160, 120)),
        (["render", "soda", "--frames", "3", "--size", "200x150", "--output", "soda.png"], "soda.png", (200, 150)),
        (["render", "duel", "--frames", "1", "--size", "180x120", "--output", "duel.png"], "duel.png", (180, 120)),
    ]:
        run = subprocess.run(slime + args + ["--no-progress"], cwd=work, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        picture = Image.open(work / name)
        assert picture.size == size
        pixels = np.asarray(picture.convert("RGB"), dtype=np.int32)
        assert pixels.std(axis=(0, 1)).max() > 10, f"{name} is one flat colour"
    assert sorted(p.name for p in work.iterdir()) == ["duel.png", "jelly.png", "soda.png"]
    # One kernel compiled from the installed copy (a small one: the whole physics would take half
    # a minute): it is cached in the user's cache folder, never beside the installed sources, so a
    # read-only site-packages works the same.
    cache = tmp_path / "cache"
    compiled = subprocess.run(
        [sys.executable, "-c", "import numpy as np; from slime.physics.integrate import symplectic_euler as f; "
         "x = np.zeros((2, 3)); f(x, x.copy(), x.copy(), np.ones(2), 0.1, np.ones(2))"],
        cwd=work, env={**{k: v for k, v in env.items() if k != "NUMBA_CACHE_DIR"}, "NUMBA_DISABLE_JIT": "0",
                       "XDG_CACHE_HOME": str(cache)}, capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    assert [p for p in cache.rglob("*") if p.suffix == ".nbi"], "the kernel was not cached"
    assert not [p for p in (target / "slime").rglob("*") if p.suffix in (".nbi", ".nbc")]
