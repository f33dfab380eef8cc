"""docs/2 as a student follows it: its code blocks applied to a copy of the package, installed
away from the checkout, then its commands run there and the numbers it states checked. A new
force is its module and two lines of step.py: with no other edit its parameter has a `slime
params` row, a --set with its range checked, a panel slider and a scene-file key, and the tests
that read the forces and the parameters still pass."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from doc_blocks import check_stated_numbers, checked_blocks, python_blocks
from helpers import gl_or_missing

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "2-add-a-force.md"
# What the copy holds: the package and its data (pyproject.toml installs them), and what the
# tests run in the copy read.
COPIED = ("slime", "shaders", "assets", "web", "pyproject.toml", "README.md", "docs", "tests")
# The tests that once failed after a force was added as the tutorial said (they read the forces,
# the parameters and their documentation): they run in the copy, after the edit.
STILL_PASS = ("tests/physics/test_slime_body.py::test_params_are_read_by_their_owners_groups",
              "tests/project/test_docs.py::test_physics_names_each_function_where_it_is",
              "tests/project/test_readme.py::test_readme_names_every_force_module",
              "tests/cli/test_parameters.py", "tests/cli/test_limits.py::test_panel_sliders_are_the_declarations_and_their_ranges_come_from_limits")


def _edit(source: Path, page: str, blocks: list[str]) -> None:
    """The page's edit, as it says it: the module saved where it says, each line of step.py below
    the line it names."""
    module, import_line, part = blocks[:3]
    path = re.search(r"Save this as `([\w/]+\.py)`", page).group(1)
    (source / path).write_text(module)
    step = source / "slime" / "physics" / "slime3d" / "step.py"
    text = step.read_text()
    anchors = re.findall(r"below\s+`([^`]+)`:", page)
    assert len(anchors) == 2, anchors
    for added, below in zip((import_line, part), anchors):
        line = next(line for line in text.splitlines() if line.strip() == below)
        indent = line[:len(line) - len(line.lstrip())]  # the new line goes in at the line's own depth
        text = text.replace(line + "\n", f"{line}\n{indent}{added.strip()}\n", 1)
    step.write_text(text)


@pytest.mark.slow
def test_the_tutorial_adds_a_wind_that_is_everywhere_its_parameter_is(tmp_path):
    gl_or_missing()
    page = PAGE.read_text()
    blocks = python_blocks(PAGE)
    source, site, work = tmp_path / "source", tmp_path / "site", tmp_path / "work"
    for name in COPIED:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                            if (ROOT / name).is_dir() else {}))
    _edit(source, page, blocks)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target",
                    str(site), str(source)], check=True, capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    work.mkdir()

    def run(args, **kwargs):
        return subprocess.run(args, cwd=work, env=env, capture_output=True, text=True, timeout=600, **kwargs)

    assert run([sys.executable, "-c", "import slime; print(slime.__file__)"]).stdout.startswith(str(site))
    (work / "wind.json").write_text(re.search(r"```json\n(.*?)```", page, flags=re.S).group(1))
    # The page's commands, as typed; a comment beside one says what it prints.
    sh = [line for block in re.findall(r"```sh\n(.*?)```", page, flags=re.S) for line in block.splitlines()
          if line.startswith("slime")]
    assert len(sh) == 4, sh
    printed = {}
    for line in sh:
        command, _, said = line.partition("#")
        done = run([sys.executable, "-m", *shlex.split(command)])
        printed[command.strip()] = done
        if said.strip():
            assert done.returncode == 2 and done.stderr.strip() == said.strip(), done.stderr
            assert not (work / "out").exists() or not list((work / "out").iterdir())
        else:
            assert done.returncode == 0, done.stderr
    # `slime params` lists it, with its range and unit.
    row = next(r for r in printed["slime params"].stdout.splitlines() if r.startswith("wind_rate"))
    assert row.split()[:3] == ["wind_rate", "material", "0"] and "0 to 100 1/s" in row
    # The numbers the page states are the ones its block prints.
    script = blocks[3]
    done = run([sys.executable, "-c", script])
    assert done.returncode == 0, done.stderr
    check = next(c for kind, code, c in checked_blocks(PAGE) if code == script)
    numbers = check_stated_numbers(check, done.stdout, page, "docs/2")
    assert abs(numbers["calm"]) < 0.005 and numbers["windy"] > 0.2  # the wind moves the red one along +x
    # The picture: the red slime (in front, the lower half) sits right of the green one (behind, the upper half).
    picture = np.asarray(Image.open(work / "out" / "wind.png").convert("RGB")).astype(int)
    red = (picture[..., 0] > picture[..., 1] + 60) & (picture[..., 0] > picture[..., 2] + 60)
    green = picture[..., 1] > picture[..., 0] + 60
    red_x, green_x = (np.nonzero(mask)[1].mean() for mask in (red, green))
    assert red.sum() > 500 and green.sum() > 500 and red_x > green_x + 0.05 * picture.shape[1], (red_x, green_x)
    # The panel's slider, and the tests that read the forces and the parameters, in the copy.
    assert "wind_rate" in run([sys.executable, "-c", "from slime.physics.slime3d import slime_params\n"
                                                   "from slime.physics.parameters import sliders\n"
                                                   "print([p.name for p in sliders()])"]).stdout
    # Run from the work folder, so that `import slime` is the installed copy's (not the source's folder).
    done = run([sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider", "--rootdir", str(source),
                "-c", str(source / "pyproject.toml"), *(str(source / test) for test in STILL_PASS)])
    assert done.returncode == 0, done.stdout[-3000:]
