"""Fixtures the GL and window tests share.

The rule for anything a test needs from the machine (an OpenGL context, Xvfb, xdotool): in CI (env
``CI`` set) its absence fails the test, so nothing skips silently there; elsewhere the test skips
and says what is missing.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest

# The suite starts a hundred Python processes (pytest-xdist's workers, every `slime` command a test
# runs): let them keep the bytecode of what they import, and pytest its rewritten test modules,
# even where the environment asks Python not to (PYTHONDONTWRITEBYTECODE); each would otherwise
# compile numpy's, numba's and the tests' sources again.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

from slime.app.xvfb import private_xvfb  # noqa: E402
from slime.render.context import GLUnavailable, create_headless_context  # noqa: E402


def pytest_configure(config):
    """Compile the physics once, here, before pytest-xdist starts its workers: each would
    otherwise compile every kernel for itself, at the same time."""
    if not hasattr(config, "workerinput"):
        from slime.cli import compile_physics

        compile_physics()


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the cores this process may use. The window and browser
    tests spend most of their time waiting on an X server, a window or a page (real time, little
    CPU); the extra worker runs them while every core stays busy with physics. PYTEST_XDIST_AUTO_NUM_WORKERS
    still sets the number outright."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return cores + 1


def pytest_collection_modifyitems(config, items):
    """On pytest-xdist workers, put the tests that mostly wait (on an X server, a window or a
    browser) at the front of the list with quick tests behind them, then the long physics tests,
    then the rest of the quick ones. Worksteal gives each worker an equal slice of the list in
    order, so one worker does the waiting while the others keep the cores busy, and the end of
    the run is balanced by stealing from the back of the queues, where the quick tests are."""
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    if workers < 2:
        return

    waits, long, quick = [], [], []
    for item in items:
        if "xvfb" in item.fixturenames or item.module.__name__ == "test_web_page":
            waits.append(item)
        else:
            (long if item.get_closest_marker("slow") else quick).append(item)
    share = len(items) // workers - len(waits)  # quick tests behind the waiting ones in the first part
    if not 0 <= share <= len(quick):
        return
    items[:] = waits + quick[:share] + long + quick[share:]


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
