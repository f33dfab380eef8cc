"""Playable scenes as numpy state and rules; the registry maps a scene name to its factory."""

from __future__ import annotations

import importlib
from pathlib import Path

from slime.scenes.base import DrawList, Param, Scene2D

# name -> (module, factory). Factories take no arguments (or an optional model path for soda).
SCENES: dict[str, tuple[str, str]] = {
    "soda": ("slime.scenes.soda", "make_scene"),
    "springs": ("slime.scenes.springs", "make_scene"),
    "sandbox": ("slime.scenes.sandbox", "make_sandbox"),
    "slinky": ("slime.scenes.sandbox", "make_slinky"),
    "dotted": ("slime.scenes.sandbox", "make_dotted"),
    "resonance": ("slime.scenes.sandbox", "make_resonance"),
    "counter": ("slime.scenes.sandbox", "make_counter"),
    "attractor": ("slime.scenes.sandbox", "make_attractor"),
    "boxes": ("slime.scenes.boxes", "make_scene"),
}


class SceneError(ValueError):
    """An unknown scene name or an unreadable scene file; the message is one line for the user."""


def scene_names() -> list[str]:
    return ["slime", *SCENES]


def load_scene(name_or_path: str) -> Scene2D:
    """A 2D scene by registry name, or a Soda model file (.json) by path."""
    if name_or_path in SCENES:
        module, factory = SCENES[name_or_path]
        return getattr(importlib.import_module(module), factory)()
    path = Path(name_or_path)
    if path.suffix.lower() == ".json" or path.exists():
        if not path.exists():
            raise SceneError(f"{path}: no such file")
        from slime.scenes.soda import make_scene

        return make_scene(path)
    raise SceneError(f"unknown scene {name_or_path!r}; choose one of: {', '.join(scene_names())} or a model .json file")


__all__ = ["DrawList", "Param", "Scene2D", "SceneError", "load_scene", "scene_names", "SCENES"]
