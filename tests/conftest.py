"""Fixtures the GL and window tests share.

The rule for anything a test needs from the machine (an OpenGL context, Xvfb, xdotool): in CI (env
``CI`` set) its absence fails the test, so nothing skips silently there; elsewhere the test skips
and says what is missing.
"""

from __future__ import annotations

import os
import shutil

import pytest

from slime.app.xvfb import private_xvfb
from slime.render.context import GLUnavailable, create_headless_context


def pytest_configure(config):
    """Compile the physics once, here, before pytest-xdist starts its workers: each would
    otherwise compile every kernel for itself, at the same time."""
    if not hasattr(config, "workerinput"):
        from slime.cli import compile_physics

        compile_physics()


def missing(what: str) -> None:
    """Fail in CI, skip elsewhere, naming ``what`` is missing."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must provide {what}")
    pytest.skip(f"{what} not available here")


def tool(name: str) -> str:
    """The path of an X tool the window tests drive, or ``missing``."""
    path = shutil.which(name)
    if path is None:
        missing(f"{name} (apt-get install xvfb xdotool)")
    return path


@pytest.fixture(scope="module")
def ctx():
    """A headless (EGL) OpenGL 3.3 context shared by a module's tests."""
    try:
        context = create_headless_context()
    except GLUnavailable as exc:
        missing(f"OpenGL ({exc})")
    yield context
    context.release()


@pytest.fixture
def xvfb(monkeypatch):
    """A private X server for one test; yields its display name (":N"). The windows a test opens
    on it draw at most 30 frames a second (``SLIME_MAX_FPS``): Xvfb has no vsync, and a window
    drawing as fast as it can takes both cores from the tests running beside it."""
    tool("Xvfb")
    tool("xdotool")
    monkeypatch.setenv("SLIME_MAX_FPS", "30")
    with private_xvfb() as name:
        if name is None:
            missing("a working Xvfb (it exited at start)")
        yield name
