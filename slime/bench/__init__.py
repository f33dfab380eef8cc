"""Benchmarks run on demand by ``slime bench`` (never by the tests).

Each module has ``run(quick: bool = False) -> list[dict]``; each dict is one result row and one
JSON line with ``--json``. Every module compares against a reference measured in the same run
where one exists, because the machine is shared and noisy.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Iterable

PHYSICS = ["step", "frame", "world", "grid2d", "dainty"]
RENDER = ["render"]
WINDOW = ["window"]  # opens windows (a display, or Xvfb): only when asked for
FUZZ = ["fuzz"]  # the long robustness run (minutes): only when asked for
FEEL = ["feel"]  # how the slime feels: clicks, drops and throws at four resolutions (a minute): only when asked for


def run_modules(names: Iterable[str], quick: bool = False):
    for name in names:
        module = importlib.import_module(f"slime.bench.{name}")
        yield from module.run(quick=quick)


def format_table(rows: list[dict]) -> str:
    """Rows grouped by their ``benchmark`` key, one aligned table each."""
    out = []
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row.get("benchmark", "?"), []).append(row)
    for name, group in groups.items():
        columns = [c for c in dict.fromkeys(k for r in group for k in r) if c != "benchmark"]
        cells = [[_fmt(r.get(c, "")) for c in columns] for r in group]
        widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
        out.append(f"== {name}")
        out.append("  ".join(c.rjust(w) for c, w in zip(columns, widths)))
        for row in cells:
            out.append("  ".join(v.rjust(w) for v, w in zip(row, widths)))
        out.append("")
    return "\n".join(out)


def _fmt(value) -> str:
    if isinstance(value, float):
        if value == 0 or 0.01 <= abs(value) < 1e5:
            return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
        return f"{value:.3g}"
    return str(value)


def main(names: list[str], as_json: bool, quick: bool) -> int:
    rows = []
    for row in run_modules(names, quick=quick):
        rows.append(row)
        if as_json:
            print(json.dumps(row), flush=True)
        else:
            print(".", end="", file=sys.stderr, flush=True)
    if not as_json:
        print(file=sys.stderr)
        print(format_table(rows))
    return 0
