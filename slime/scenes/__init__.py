"""Playable scenes as numpy state and rules, and where a scene name comes from.

A scene is found, in this order, as
- a built-in name (``SCENES``: module and factory inside this package);
- a name another installed package adds through the ``slime.scenes`` entry-point group: in its
  pyproject.toml, ``[project.entry-points."slime.scenes"] walker = "mypkg.walker:WalkerScene"``
  (a Scene2D subclass, or any callable with no arguments that returns a scene);
- a Python file, ``my_scene.py``: the Scene2D subclass it defines (the one no other class in the
  file derives from; with several, the file names its own as ``SCENE = MyScene``);
- a Soda model file, ``model.json``.

3D scenes (several slimes and obstacles, slime/scenes/world_format.py) are files too: the bundled
ones are listed by ``world_scene_names()``, and a ``.json`` file with a ``"slimes"`` key is one.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from importlib.metadata import entry_points
from pathlib import Path

from slime.fileio import absent, check_input, resolved
from slime.scenes.base import Param, Scene2D

# name -> (module, factory). Factories take no arguments (or an optional model path for soda).
SCENES: dict[str, tuple[str, str]] = {
    "soda": ("slime.scenes.soda", "make_scene"),
    "springs": ("slime.scenes.springs", "make_scene"),
    "sandbox": ("slime.scenes.sandbox.sandbox", "make_sandbox"),
    "slinky": ("slime.scenes.sandbox.slinky", "make_slinky"),
    "dotted": ("slime.scenes.sandbox.dotted", "make_dotted"),
    "resonance": ("slime.scenes.sandbox.resonance", "make_resonance"),
    "counter": ("slime.scenes.sandbox.counter", "make_counter"),
    "attractor": ("slime.scenes.sandbox.attractor", "make_attractor"),
    "boxes": ("slime.scenes.boxes", "make_scene"),
}
ENTRY_POINT_GROUP = "slime.scenes"


class SceneError(ValueError):
    """An unknown scene name or an unreadable scene file; the message is one line for the user."""


def installed_scenes() -> dict:
    """Scenes other installed packages add (entry points of ``ENTRY_POINT_GROUP``), by name; a
    built-in name is never replaced."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in SCENES and ep.name != "slime"}


def scene_names() -> list[str]:
    return ["slime", *SCENES, *installed_scenes()]


def world_scene_names() -> list[str]:
    """The bundled 3D scenes (assets/NAME.json), listed after the 2D ones."""
    from slime.scenes.world_format import world_scene_names as names  # it imports SceneError from here

    return names()


# What a scene must give itself: Scene2D has no physics or picture of its own for them.
REQUIRED = ("step", "positions", "draw_list")


def _as_scene(made, origin: str) -> Scene2D:
    if not isinstance(made, Scene2D):
        raise SceneError(f"{origin} gave {type(made).__name__}, not a Scene2D")
    lacking = [name for name in REQUIRED if getattr(type(made), name) is getattr(Scene2D, name)]
    if lacking:
        raise SceneError(f"{origin}: {type(made).__name__} lacks {', '.join(f'{name}()' for name in lacking)} "
                         f"(a Scene2D gives {', '.join(REQUIRED)}: slime/scenes/base.py)")
    return made


def _failure(origin: str, exc: BaseException, path: Path | None = None) -> SceneError:
    """A scene's own code failed: one line with the error and, for a file, the line it came from."""
    where = f" (line {exc.lineno})" if isinstance(exc, SyntaxError) else _where(exc, path)
    message = " ".join(str(exc).split()) or type(exc).__name__
    return SceneError(f"{origin}{where}: {type(exc).__name__}: {message} (SLIME_DEBUG=1 shows the traceback)")


_LOADED_FILES: set[Path] = set()  # the scene files this process ran (``load_scene_file``)


def scene_file_failure(exc: BaseException) -> SceneError | None:
    """When ``exc`` was raised in (or passed through) the code of a scene file this process
    loaded, a scene's ``step`` dividing by zero say: the one line ``_failure`` gives for a
    failure while loading, naming the file and its line. None for anything else."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = Path(frame.filename)
        if path in _LOADED_FILES:
            return _failure(str(path), exc, path)
    return None


def _where(exc: BaseException, path: Path | None) -> str:
    """`` (line N)``: the last line of the file ``path`` the exception passed through, or ""."""
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if path is not None and Path(f.filename) == path]
    return f" (line {lines[-1]})" if lines else ""


def _module_scene(module, path: Path) -> type:
    chosen = getattr(module, "SCENE", None)
    if chosen is not None:
        if not (isinstance(chosen, type) and issubclass(chosen, Scene2D)):
            raise SceneError(f"{path}: SCENE must be a Scene2D subclass, got {chosen!r}")
        return chosen
    defined = [c for c in vars(module).values()
               if isinstance(c, type) and issubclass(c, Scene2D) and c.__module__ == module.__name__]
    leaves = [c for c in defined if not any(o is not c and issubclass(o, c) for o in defined)]
    if not leaves:
        raise SceneError(f"{path}: defines no Scene2D subclass (see slime/scenes/base.py)")
    if len(leaves) > 1:
        names = ", ".join(sorted(c.__name__ for c in leaves))
        raise SceneError(f"{path}: defines several scenes ({names}); name one with SCENE = ClassName")
    return leaves[0]


def load_scene_file(path) -> Scene2D:
    """The scene a Python file defines, made with no arguments."""
    try:
        # Guarded as every file a command reads (``fileio.check_input``): a FIFO, a device or a
        # huge file is refused before Python's import reads it.
        path = resolved(check_input(path))
    except OSError as exc:
        raise SceneError(f"{path}: {exc.strerror}") from None
    name = f"slime_scene_file_{path.stem}"
    _LOADED_FILES.add(path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look their class's module up here
    try:
        _run_writing_nothing(spec, module)
        return _as_scene(_module_scene(module, path)(), str(path))
    except SceneError:
        raise
    except SystemExit as exc:  # the file ran as a script: without this the command would end with no word
        sys.modules.pop(name, None)
        raise SceneError(f"{path}{_where(exc, path)}: called sys.exit({exc.code!r}) while loading; a scene file "
                         "defines a Scene2D subclass and runs nothing itself") from None
    except Exception as exc:
        sys.modules.pop(name, None)
        if _debug():
            raise
        raise _failure(str(path), exc, path) from None


def _run_writing_nothing(spec, module) -> None:
    """Run the user's scene file as ``module``, leaving nothing beside it: no ``__pycache__`` in
    their folder (a file read once a run gains nothing from one)."""
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = writes


def _debug() -> bool:
    return bool(os.environ.get("SLIME_DEBUG"))


def load_scene(name_or_path: str) -> Scene2D:
    """A 2D scene by built-in or installed name, a scene file (.py) or a Soda model file (.json)."""
    if name_or_path in SCENES:
        module, factory = SCENES[name_or_path]
        return getattr(importlib.import_module(module), factory)()
    installed = installed_scenes()
    if name_or_path in installed:
        ep = installed[name_or_path]
        origin = f"scene {ep.name!r} ({ep.value})"
        try:
            made = ep.load()()
        except Exception as exc:
            if _debug():
                raise
            raise _failure(origin, exc) from None
        return _as_scene(made, origin)
    path = Path(name_or_path)
    if path.suffix.lower() == ".py":
        return load_scene_file(path)
    if path.suffix.lower() == ".json" or os.path.lexists(path):
        why = absent(path)
        if why:
            raise SceneError(f"{path}: {why}")
        from slime.scenes.soda import make_scene

        return make_scene(path)
    raise SceneError(
        f"unknown scene {name_or_path!r}; choose one of: {', '.join(scene_names())}; "
        f"3D: {', '.join(world_scene_names())}; "
        "or a file: a scene file .py, a 3D scene .json (with \"slimes\") or a Soda model .json"
    )


__all__ = ["ENTRY_POINT_GROUP", "Param", "Scene2D", "SceneError", "installed_scenes", "load_scene",
           "load_scene_file", "scene_file_failure", "scene_names", "SCENES", "world_scene_names"]
