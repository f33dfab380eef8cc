"""Getting an OpenGL context, with one clear line when there is none."""

from __future__ import annotations

import os
import sys

import moderngl


class GLUnavailable(RuntimeError):
    """No usable OpenGL context; the message is one line that says what to do."""


def has_display() -> bool:
    """True where a window can open (an X11 or Wayland display, or a non-Linux desktop)."""
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def create_headless_context(require: int = 330) -> moderngl.Context:
    """A standalone (windowless) context; tries EGL first on Linux, then the platform default."""
    backends = ["egl", None] if sys.platform.startswith("linux") else [None]
    errors = []
    for backend in backends:
        try:
            kwargs = {"require": require}
            if backend:
                kwargs["backend"] = backend
            return moderngl.create_standalone_context(**kwargs)
        except Exception as exc:  # glcontext raises plain Exception subclasses per backend
            errors.append(f"{backend or 'default'}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
    raise GLUnavailable(
        "no OpenGL context could be created (" + "; ".join(errors) + "); "
        "on Debian/Ubuntu install Mesa's EGL: apt-get install libegl1 libgl1-mesa-dri"
    )
