"""`slime bench`'s tables say what their numbers are: every column a benchmark writes has its unit
under its name, and a C++ reference that is not there is one line saying what it would be and how
to get it, never `None`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from slime import bench
from slime.bench import cpp

BENCH = Path(bench.__file__).parent


def _row_columns() -> dict[str, set[str]]:
    """The keys of every row the benchmark modules build: dict literals with a "benchmark" key,
    the dicts their helpers return into a row, and ``row["key"] = ...``."""
    found: dict[str, set[str]] = {}
    for path in sorted(BENCH.glob("*.py")):
        keys = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                names = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
                if "benchmark" in names:
                    keys |= set(names)
            elif isinstance(node, ast.Return) and isinstance(node.value, ast.Dict):
                keys |= {k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name)
                  and node.value.id == "row" and isinstance(node.slice, ast.Constant)):
                keys.add(node.slice.value)
        found[path.stem] = keys - {"benchmark"}
    return found


def test_every_column_a_benchmark_writes_has_its_unit():
    columns = _row_columns()
    assert {"ms_per_step", "cpp_ms", "vs_cpp"} <= columns["step"] and "wobble_hz" in columns["feel"]
    unnamed = {module: sorted(keys - set(bench.UNITS)) for module, keys in columns.items() if keys - set(bench.UNITS)}
    assert not unnamed, f"columns without a unit in slime.bench.UNITS: {unnamed}"


def test_a_table_prints_each_columns_unit_under_its_name():
    table = bench.format_table([{"benchmark": "feel", "stacks": 16, "slices": 16, "material": "jelly",
                                 "dent": 0.31, "wobble_hz": 2.5, "throw_rest_s": 1.25}]).splitlines()
    assert table[0] == "== feel"
    names, units, values = table[1].split(), table[2], table[3].split()
    assert names == ["stacks", "slices", "material", "dent", "wobble_hz", "throw_rest_s"]
    assert units.split() == ["[rings]", "[segments]", "[radii]", "[Hz]", "[s]"]  # a material is a name
    assert values == ["16", "16", "jelly", "0.310", "2.500", "1.250"]
    assert units.index("[Hz]") + len("[Hz]") == table[1].index("wobble_hz") + len("wobble_hz")  # right-aligned under it


@pytest.mark.parametrize("sources, compiler, said", [
    (None, "/usr/bin/g++", "put its sources (harness.cpp) in"),
    (Path("/somewhere/physicalslime_cpp"), None, "g++ is not installed"),
])
def test_a_missing_cpp_reference_is_one_line_not_none(monkeypatch, sources, compiler, said):
    monkeypatch.setattr(cpp, "harness", lambda: None)
    monkeypatch.setattr(cpp, "source_folder", lambda: sources)
    monkeypatch.setattr(cpp.shutil, "which", lambda name: compiler)
    rows = [{"benchmark": "step", "stacks": s, "slices": s, "ms_per_step": 0.1 * s, "cpp_ms": None, "vs_cpp": None}
            for s in (16, 32)]
    table = bench.format_table(rows)
    assert "None" not in table
    notes = [line for line in table.splitlines() if line.startswith("cpp_ms, vs_cpp: no C++ reference here")]
    assert len(notes) == 1 and said in notes[0], table
    assert "SLIME_REFERENCE_CPP" in notes[0] or sources is not None
    assert [line.split()[-2:] for line in table.splitlines()[3:5]] == [["-", "-"], ["-", "-"]]
