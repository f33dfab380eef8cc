"""The package's layers import one way (CONTRIBUTING.md): read from every module's import lines,
lazy ones inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "slime"
GL = {"moderngl", "moderngl_window", "pyglet", "imgui_bundle", "glcontext", "PIL"}
# slime.physics.compiled is how a kernel is compiled (numba's options and the cache), no physics
# rules: the obstacle kinds' contact kernels are compiled with it too.
NEUTRAL = {"slime.limits", "slime.draw_list", "slime.theme", "slime.look", "slime.fileio", "slime.paths", "slime.problems",
           "slime.mesh", "slime.obstacle_mesh", "slime.obstacle_kinds", "slime.physics.compiled", "slime.framing"}
# What each part of the package may import from slime: no more.
ALLOWED = {
    "physics": NEUTRAL | {"slime.physics"},
    "scenes": NEUTRAL | {"slime.physics", "slime.scenes"},
    "render": NEUTRAL | {"slime.render"},
    "export": NEUTRAL | {"slime.physics", "slime.scenes", "slime.export"},
}


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            # `from slime import limits` imports the module slime.limits
            found |= {f"{node.module}.{alias.name}" for alias in node.names if node.module == "slime"}
    return found


def _within(name: str, allowed: set[str]) -> bool:
    return any(name == a or name.startswith(a + ".") for a in allowed)


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_what_it_may(layer):
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for name in _imports(path):
            if name == "slime" or not name.startswith("slime"):
                if layer != "render":
                    assert name.split(".")[0] not in GL, f"{_module(path)} imports {name}: {layer} draws nothing"
                continue
            assert _within(name, ALLOWED[layer]), f"{_module(path)} imports {name}, above the {layer} layer"


def test_neutral_modules_import_no_slime_layer():
    for name in NEUTRAL:
        module = PACKAGE.joinpath(*name.split(".")[1:])
        # A neutral package (slime/obstacle_kinds/) is neutral in every module.
        for path in sorted(module.rglob("*.py")) if module.is_dir() else [module.with_suffix(".py")]:
            others = {n for n in _imports(path) if n.startswith("slime.") and not _within(n, NEUTRAL)}
            assert not others, f"{_module(path)} imports {others}"
