"""The code in Markdown pages: the ```python blocks, and the `slime ...` lines of the ```sh blocks,
which README's and docs/' tests run or parse; and the numbers a page states, checked against what
its blocks print (the ``<!-- checks: -->`` comments, tests/project/test_docs.py's docstring)."""

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


NUMBER = r"[-+]?\d+(?:\.\d+)?"
CHECKS = re.compile(r"```(\w+)\n((?:(?!```).)*)```\s*<!-- checks: (.*?) -->", flags=re.S)


def checked_blocks(path: Path) -> list[tuple[str, str, str]]:
    """(kind, code, check) for each code block of ``path`` that a ``<!-- checks: -->`` follows."""
    return [(kind, textwrap.dedent(code), check) for kind, code, check in CHECKS.findall(path.read_text())]


def _pattern(template: str) -> re.Pattern:
    """A check's quoted pattern as a regex: literal text (any run of spaces matching any run),
    each ``{name}`` a named number."""
    parts = re.split(r"\{(\w+)\}", template)
    regex = ""
    for i, part in enumerate(parts):
        if i % 2:
            regex += f"(?P<{part}>{NUMBER})"
        else:
            regex += r"\s+".join(re.escape(word) for word in part.split(" "))
    return re.compile(regex)


def check_stated_numbers(check: str, output: str, page: str, where: str) -> dict[str, float]:
    """Compare what ``page`` states with what the block printed (``output``), as the check says;
    returns the printed numbers by name."""
    clause = r'(prints|states)((?:\s*"[^"]*")+)'
    assert re.fullmatch(rf"\s*{clause}\s*;\s*{clause}\s*", check), f"{where}: not 'prints ...; states ...': {check!r}"
    clauses = dict(re.findall(clause, check))
    printed: dict[str, str] = {}
    for template in re.findall(r'"([^"]*)"', clauses.get("prints", "")):
        found = _pattern(template).search(output)
        assert found, f"{where}: the block does not print {template!r}; it printed:\n{output}"
        printed.update(found.groupdict())
    stated = re.findall(r'"([^"]*)"', clauses.get("states", ""))
    assert printed and stated, f"{where}: a check needs a prints and a states pattern: {check!r}"
    text = page.replace("<!-- checks: " + check + " -->", "")
    for template in stated:
        names = re.findall(r"\{(\w+)\}", template)
        assert set(names) <= set(printed), f"{where}: {template!r} names a number the block does not print"
        found = _pattern(template).search(text)
        assert found, f"{where}: the page does not state {template!r}"
        for name in names:
            written = found.group(name)
            decimals = len(written.split(".")[1]) if "." in written else 0
            value = float(printed[name])
            assert abs(value - float(written)) <= 0.5 * 10.0 ** -decimals + 1e-9, (
                f"{where}: the page states {name} = {written}, the code prints {printed[name]}")
    return {name: float(value) for name, value in printed.items()}
