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


# Each column's unit, printed under its name: "" for a name or a count of things the column says.
# ``x``: a ratio of two times (ours over the reference's, or the reference's over ours for vs_ruby:
# both "times faster" read the same way, see README's Benchmarks).
UNITS = {
    "stacks": "rings", "slices": "segments", "vertices": "", "substeps": "per frame", "steps": "", "ticks": "",
    "slimes": "", "threads": "", "contacts": "", "trials": "", "failures": "", "masses": "", "n": "per side",
    "samples": "MSAA", "width": "px", "height": "px", "material": "", "engine": "", "case": "", "vs": "",
    "quality": "", "adaptive": "", "error": "", "skipped": "", "pair_searches": "",
    "ms_per_step": "ms", "ms_per_frame": "ms", "cpp_ms": "ms", "physics_ms": "ms", "normals_upload_ms": "ms",
    "draw_readback_ms": "ms", "us_per_substep": "us", "seconds": "s", "ruby_seconds": "s",
    "steps_per_second": "1/s", "fps": "frames/s", "vs_cpp": "x", "vs_ruby": "x", "ratio": "x",
    "rss_start_kib": "KiB", "peak_kib": "KiB", "growth_kib": "KiB",
    "settled_height": "/diameter", "dent": "radii", "dent_at": "s", "dent_held": "s", "wobble_hz": "Hz",
    "wobble_peaks": "swings", "drop_squash": "/rest h", "drop_bounce": "/drop h", "throw_speed": "m/s",
    "throw_lift": "m", "throw_reach": "body lengths", "throw_rest_s": "s",
    "wall_rest_s": "s", "worst_volume_error": "fraction", "worst_shape_error": "fraction", "worst_inverted": "triangles",
    "volume_error": "fraction", "shape_error": "fraction", "inverted": "triangles", "measured_after": "s", "ok": "",
}


def format_table(rows: list[dict]) -> str:
    """Rows grouped by their ``benchmark`` key, one aligned table each, each column's unit under
    its name; a C++ reference that is not there is said in one line under its table."""
    from slime.bench import cpp

    out = []
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row.get("benchmark", "?"), []).append(row)
    for name, group in groups.items():
        columns = [c for c in dict.fromkeys(k for r in group for k in r) if c != "benchmark"]
        units = [f"[{UNITS[c]}]" if UNITS.get(c) else "" for c in columns]
        cells = [[_fmt(r.get(c, "")) for c in columns] for r in group]
        widths = [max(len(c), len(u), *(len(row[i]) for row in cells)) for i, (c, u) in enumerate(zip(columns, units))]
        out.append(f"== {name}")
        out.append("  ".join(c.rjust(w) for c, w in zip(columns, widths)))
        out.append("  ".join(u.rjust(w) for u, w in zip(units, widths)).rstrip())
        for row in cells:
            out.append("  ".join(v.rjust(w) for v, w in zip(row, widths)))
        if any("cpp_ms" in r and r["cpp_ms"] is None for r in group):
            out.append(cpp.missing_reference() or "cpp_ms, vs_cpp: the C++ reference did not report a time")
        out.append("")
    return "\n".join(out)


def _fmt(value) -> str:
    if value is None:  # a reference that is not there: said under the table
        return "-"
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
