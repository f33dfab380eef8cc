"""The code in Markdown pages: the ```python blocks, and the `slime ...` lines of the ```sh blocks,
which README's and docs/' tests run or parse."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


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
