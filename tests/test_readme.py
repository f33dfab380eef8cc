"""README's Python examples run as written (the plotting one without showing a window)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_python_examples():
    assert len(python_blocks()) >= 3


@pytest.mark.parametrize("index", range(3))
def test_readme_python_example_runs(index, tmp_path, monkeypatch):
    code = python_blocks()[index]
    monkeypatch.chdir(tmp_path)
    if "np.load(\"run.npz\")" in code:
        from slime.cli import main

        assert main(["simulate", "slime", "--ticks", "30", "--output", "run.npz", "--stacks", "8", "--slices", "8"]) == 0
        code = re.sub(r"^import matplotlib.*$|^plt\..*$", "", code, flags=re.M)
    namespace: dict = {}
    exec(compile(code, f"README.md python block {index}", "exec"), namespace)
    for value in namespace.values():
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            assert np.all(np.isfinite(value))
