"""docs/ as a student follows it: every ```python block runs, every `slime ...` line parses, every
script in examples/ runs (short, headless) and writes what it says, and the links resolve."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import missing
from test_readme import check_command_lines, command_lines, python_blocks

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
EXAMPLES = ROOT / "examples"
BLOCKS = [(path, i) for path in DOCS for i in range(len(python_blocks(path)))]


def test_docs_exist_and_readme_links_them():
    names = [p.name for p in DOCS]
    assert names[0].startswith("1-") and len([n for n in names if n[0].isdigit()]) == 6
    assert "docs/README.md" in (ROOT / "README.md").read_text()
    for page in DOCS:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text()):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def gl_or_missing():
    from slime.render.context import GLUnavailable, create_headless_context

    try:
        create_headless_context().release()
    except GLUnavailable as exc:
        missing(f"OpenGL ({exc})")


@pytest.mark.parametrize("path,index", BLOCKS, ids=[f"{p.stem}-{i}" for p, i in BLOCKS])
def test_docs_python_block_runs(path, index, tmp_path, monkeypatch, capsys):
    code = python_blocks(path)[index]
    if "render" in code:
        gl_or_missing()
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "docs_block"}
    exec(compile(code, f"{path.name} python block {index}", "exec"), namespace)
    for value in namespace.values():
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            assert np.all(np.isfinite(value))


def test_docs_command_lines_parse():
    lines = [line for page in DOCS for line in command_lines(page)]
    assert len(lines) >= 10
    check_command_lines(lines)


# Each example with the arguments that keep it short, and what it must write (under tmp).
RUNS = {
    "add_a_force.py": ([], []),
    "edit_a_shader.py": (["{tmp}"], ["slime_original.png", "slime_edited.png", "slime_original_and_edited.png"]),
    "figure_for_a_report.py": (["{tmp}"], ["run.npz", "run.csv", "dent.png", "plot.png"]),
    "spring_pendulum_scene.py": (["--render", "{tmp}/pendulum.png", "--frames", "30"], ["pendulum.png"]),
}


def test_every_example_has_a_run():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(RUNS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RUNS))
def test_example_runs(name, tmp_path):
    if name != "add_a_force.py":
        gl_or_missing()
    args, outputs = RUNS[name]
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *(a.format(tmp=tmp_path) for a in args)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    for output in outputs:
        assert (tmp_path / output).stat().st_size > 0, output
    if name == "add_a_force.py":
        calm, windy = (float(v) for v in re.findall(r"([+-]\d+\.\d+) m", done.stdout))
        assert abs(calm) < 0.01 and windy > 0.5  # the wind moves it along +x; without it, it stays
    if name == "edit_a_shader.py":
        before, after = (np.asarray(Image.open(tmp_path / f"slime_{k}.png").convert("RGB")).astype(int)
                         for k in ("original", "edited"))
        assert np.mean(np.abs(before - after)) > 1.0  # the edit shows
    if name == "figure_for_a_report.py":
        table = np.loadtxt(tmp_path / "run.csv", delimiter=",", skiprows=1)
        assert table.shape == (61, 3) and np.isfinite(table).all()
        assert table[:, 1].min() < table[0, 1] - 0.2  # the poke dents the top
