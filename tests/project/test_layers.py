"""The package's layers import one way (CONTRIBUTING.md), read from every module's import lines,
lazy ones inside functions included. The rules are the data below: which part of the package a
module belongs to (every module belongs to one), and which parts each part may import."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "slime"
GL = {"moderngl", "moderngl_window", "pyglet", "imgui_bundle", "glcontext", "PIL"}
# Modules any part may import: they import no part of the package but each other. The obstacle
# kinds are their parameters, geometry, triangles and file keys; their compiled contacts are the
# physics' (slime/physics/slime3d/obstacle_contacts.py).
NEUTRAL = {"slime.limits", "slime.draw_list", "slime.theme", "slime.look", "slime.fileio", "slime.paths", "slime.problems",
           "slime.interrupts", "slime.memory", "slime.mesh", "slime.obstacle_mesh", "slime.obstacle_kinds",
           "slime.progress", "slime.window_backends", "slime.framing"}
# Each part and the modules it is (a name and everything under it).
PARTS = {
    "physics": {"slime.physics"},  # numpy and numba: arrays in, arrays out
    "scenes": {"slime.scenes"},  # the playable scenes as state and rules, numpy only
    "export": {"slime.export"},  # a recorded run in other programs' formats, numpy only
    "render": {"slime.render"},  # moderngl, no physics rules
    "simulate": {"slime.simulate"},  # headless runs, numpy only
    "arguments": {"slime.arguments"},  # the command line's value parsers
    "app": {"slime.app"},  # windows, input, the headless render commands
    "bench": {"slime.bench"},  # benchmarks: they time the app's windows and renders too
    "cli": {"slime.cli", "slime.command", "slime.__main__"},  # the entry point, the parser and dispatch: the top
}
# What each part may import besides itself and the neutral modules: nothing above it.
MAY_IMPORT = {
    "physics": set(),
    "scenes": {"physics"},
    "export": {"physics", "scenes"},
    "render": set(),
    "simulate": {"physics", "scenes", "export"},
    "arguments": {"physics", "scenes", "simulate"},
    "app": {"physics", "scenes", "export", "render", "simulate", "arguments"},
    "bench": {"physics", "scenes", "export", "render", "simulate", "arguments", "app"},
    "cli": {"physics", "scenes", "export", "render", "simulate", "arguments", "app", "bench"},
}
# Parts that draw nothing, so load no GL library (a headless run needs no display).
DRAWS_NOTHING = {"physics", "scenes", "export", "simulate", "arguments"}
# Of the app, the command line takes the commands it runs and nothing else: how a scene is framed
# and every other rule the windows and renders share lives below the app, where each reads it.
CLI_FROM_APP = {"run_demo", "run_scene", "render_slime", "render_world", "render_scene", "view", "LEVEL_NAMES"}


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> dict[str, set[str]]:
    """Every slime module that ``path`` imports, with the names it takes from it (empty for
    ``import slime.x``)."""
    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.setdefault(alias.name, set())
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.setdefault(node.module, set()).update(alias.name for alias in node.names)
            if node.module == "slime":  # `from slime import limits` imports the module slime.limits
                for alias in node.names:
                    found.setdefault(f"slime.{alias.name}", set())
    return found


def _within(name: str, prefixes) -> bool:
    return any(name == a or name.startswith(a + ".") for a in prefixes)


def _part_of(name: str) -> str | None:
    """The part a module belongs to by where it lives (None: the package itself or a neutral module)."""
    for part, prefixes in PARTS.items():
        if _within(name, prefixes):
            return part
    return None


def _modules():
    return [(path, _module(path)) for path in sorted(PACKAGE.rglob("*.py"))]


def test_every_module_belongs_to_a_part_or_is_neutral():
    loose = [name for _, name in _modules()
             if name != "slime" and _part_of(name) is None and not _within(name, NEUTRAL)]
    assert not loose, f"modules in no part of the package and not neutral: {loose}"
    assert set(MAY_IMPORT) == set(PARTS)
    for part, allowed in MAY_IMPORT.items():
        assert part not in allowed and allowed <= set(PARTS)


@pytest.mark.parametrize("part", sorted(PARTS))
def test_each_part_imports_only_what_it_may(part):
    allowed = MAY_IMPORT[part] | {part}
    checked, wrong = 0, []
    for path, module in _modules():
        if _part_of(module) != part:
            continue
        checked += 1
        for name, taken in sorted(_imports(path).items()):
            if not name.startswith("slime"):
                if part in DRAWS_NOTHING and name.split(".")[0] in GL:
                    wrong.append(f"{module} imports {name}: {part} draws nothing")
                continue
            if name == "slime" or _within(name, NEUTRAL):
                continue
            if _part_of(name) not in allowed:
                wrong.append(f"{module} imports {name}, above the {part} layer")
            elif part == "cli" and _part_of(name) == "app" and not taken <= CLI_FROM_APP:
                wrong.append(f"{module} takes {sorted(taken - CLI_FROM_APP)} from {name}")
    assert checked, f"no module found for {part}"
    assert not wrong, "; ".join(wrong)


def test_neutral_modules_import_no_part_of_the_package():
    # A neutral package (slime/obstacle_kinds/) is neutral in every module. A neutral module
    # outside the parts' folders reaches into none of them, neutral or not: what it uses of a part
    # would make that part's import of it a cycle.
    wrong = []
    for path, module in _modules():
        if not _within(module, NEUTRAL):
            continue
        outside = _part_of(module) is None
        for name in sorted(_imports(path)):
            if not name.startswith("slime.") or _within(name, NEUTRAL) and not (outside and _part_of(name)):
                continue
            wrong.append(f"{module} imports {name}")
    assert not wrong, "; ".join(wrong)


def test_tests_sit_in_folders_by_layer_and_share_only_through_support():
    """Every test module is in a layer's folder, and what two of them share lives in tests/support:
    a test module that imports another would run that module's tests' setup in its own."""
    tests = PACKAGE.parent / "tests"
    layers = {"physics", "render", "scenes", "export", "app", "cli", "bench", "project"}
    modules = sorted(tests.rglob("test_*.py"))
    assert modules and all(m.parent.parent == tests and m.parent.name in layers for m in modules), \
        [str(m.relative_to(tests)) for m in modules if m.parent.name not in layers]
    shared = re.compile(r"^\s*(?:from|import) (test_\w+)", flags=re.M)
    crossing = {m.name: found for m in modules
                if (found := [name for name in shared.findall(m.read_text()) if name != m.stem])}
    assert not crossing, crossing
