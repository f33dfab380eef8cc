"""README's Python examples run as written (the plotting one without showing a window)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks(path: Path = README) -> list[str]:
    """The ```python blocks of a Markdown file (an indented one, in a list, dedented)."""
    return [textwrap.dedent(block) for block in re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)]


def command_lines(path: Path = README) -> list[str]:
    """Every `slime ...` line in a Markdown file's ```sh blocks, comments cut off."""
    return [
        line.split("#")[0].strip()
        for block in re.findall(r"```sh\n(.*?)```", path.read_text(), flags=re.S)
        for line in block.splitlines()
        if line.strip().startswith("slime")
    ]


def check_command_lines(lines: list[str]) -> None:
    """Each line parses as the CLI would parse it (not run)."""
    import shlex

    from slime.cli import _join_signed_values, build_parser

    parser = build_parser()
    for line in lines:
        args = shlex.split(line)[1:]
        if not args or args[0].startswith("-"):
            args = ["demo", *args]  # as cli.main does
        parser.parse_args(_join_signed_values(args))


def test_readme_has_python_examples():
    assert len(python_blocks()) >= 3


@pytest.mark.parametrize("index", range(len(python_blocks())))
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


def test_readme_command_lines_parse():
    # Every `slime ...` line in README's sh blocks is a valid command line (parsed, not run).
    lines = command_lines()
    assert len(lines) >= 5
    check_command_lines(lines)
