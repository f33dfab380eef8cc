"""Inputs a user gets wrong, or a machine gets in the way of: each gives one line that names the
user's own file or argument, a non-zero exit, no traceback, no hang and no file left behind."""

from __future__ import annotations

import json
import warnings

import pytest

from slime import cli
from slime.paths import ASSETS


def _cli_error(capsys, *args) -> str:
    """Run the command in this process with every warning an error; its one stderr line."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status = cli.main([str(a) for a in args])
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert status != 0, captured
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def _no_files_but(folder, *names) -> None:
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)


# --- Soda model files: numbers that overflow the physics or the drawing ------------------------------

def _walker(change) -> dict:
    data = json.loads((ASSETS / "dainty_walker.json").read_text())
    change(data)
    return data


@pytest.mark.parametrize("change, field", [
    (lambda d: d["nodes"][0].update(location=[1e300, 1e300]), "nodes[0].location[0]"),
    (lambda d: d["nodes"][3].update(velocity=[0.0, -1e300]), "nodes[3].velocity[1]"),
    (lambda d: d.update(width=1e308), "width"),
    (lambda d: d.update(height=1e308), "height"),
    (lambda d: d.update(friction=-1e308), "friction"),
    (lambda d: d.update(friction=-0.5), "friction"),
    (lambda d: d.update(stiffness=1e300), "stiffness"),
    (lambda d: d.update(gravity=[0.0, -1e300]), "gravity[1]"),
], ids=["mass", "velocity", "width", "height", "friction", "negative friction", "stiffness", "gravity"])
def test_soda_model_with_absurd_numbers_is_refused_naming_the_field(tmp_path, capsys, change, field):
    model = tmp_path / "model.json"
    model.write_text(json.dumps(_walker(change)))
    line = _cli_error(capsys, "simulate", model, "--ticks", "2", "--output", tmp_path / "out.npz")
    assert line.startswith(f"slime: error: {model}: {field} must be from "), line
    _no_files_but(tmp_path, "model.json")
