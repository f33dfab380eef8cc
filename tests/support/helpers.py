"""Helpers more than one test file uses: one definition each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

try:
    import fcntl
except ImportError:  # Windows: no lock, and two workers may both compute (``once_per_run``)
    fcntl = None


def jelly(img: np.ndarray) -> np.ndarray:
    """Pixels coloured like the slime's jelly: clearly greener than red (floor and sky are
    grey-blue), and not much bluer than green."""
    rgb = img.astype(int)
    return (rgb[..., 1] - rgb[..., 0] > 45) & (rgb[..., 1] >= rgb[..., 2] - 10)


def run_cli(*args, cwd=None, env=None, timeout=120) -> subprocess.CompletedProcess:
    """``python -m slime ARGS`` in a process of its own; the timeout turns a hang (a FIFO opened
    for reading with no writer) into a failure."""
    return subprocess.run([sys.executable, "-m", "slime", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=timeout)


def xdotool(display: str, *args, timeout: float = 30) -> subprocess.CompletedProcess:
    """``xdotool ARGS`` on the X server ``display`` (":N"); the finished process, for the caller to check."""
    env = {**os.environ, "DISPLAY": display}
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=timeout)


def new_screenshot(folder: Path, known: set, pattern: str = "slime-demo-*.png", timeout: float = 15.0) -> Path:
    """The first file matching ``pattern`` in ``folder`` not in ``known``, once the window has
    written it (it renames a complete file into place, so one that appears is whole)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        new = sorted(p for p in folder.glob(pattern) if p not in known)
        if new:
            return new[0]
        time.sleep(0.05)
    raise AssertionError(f"no new {pattern} in {folder} after {timeout} s")


@pytest.fixture(autouse=True)
def current_context(request):
    """Make the module's ``ctx`` current for a test that takes it (other test modules make and
    release contexts of their own). Import it into a module to use it there."""
    if "ctx" in request.fixturenames:
        with request.getfixturevalue("ctx"):
            yield
    else:
        yield


@contextmanager
def headless_demo(size=(1280, 720), **options):
    """The demo window with these ``DemoOptions``, headless on EGL, destroyed on the way out;
    ``missing`` where there is no EGL."""
    from conftest import missing
    from slime.app.demo import DemoWindow
    from slime.app.demo_start import DemoOptions, open_window

    try:
        config = open_window(DemoWindow, DemoOptions(**options), size, "headless")
    except Exception as exc:  # no EGL here
        missing(f"a headless OpenGL window ({exc})")
    try:
        yield config
    finally:
        config.wnd.destroy()


def once_per_run(tmp_path_factory, name: str, compute):
    """``compute()``'s result (anything JSON holds, inf included), computed once a test run
    however many of pytest-xdist's workers ask for it: the first to ask computes it while the
    others wait for it, then read it (from the folder of this run that the workers share)."""
    base = tmp_path_factory.getbasetemp()
    folder = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    path = folder / f"{name}.json"
    with open(folder / f"{name}.lock", "a") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if path.is_file():
            return json.loads(path.read_text())
        result = compute()
        ready = folder / f"{name}.{os.getpid()}.part"  # a worker's own, where no lock keeps others out
        ready.write_text(json.dumps(result))
        ready.replace(path)
        return result


def slime_world(slimes, velocities=(), obstacles=(), **settings):
    """The scenes' world (``World3D``) of ``slimes`` (SlimeParams, each at its ``center``), the
    k-th moving at ``velocities[k]`` (at rest where none is given), among ``obstacles``;
    ``settings`` are the world's own (gravity, floor_height, ...)."""
    from slime.physics.slime3d.world3d import World3D

    world = World3D(**settings)
    velocities = list(velocities) + [(0.0, 0.0, 0.0)] * (len(slimes) - len(velocities))
    for params, velocity in zip(slimes, velocities):
        world.add_slime(params, velocity=velocity)
    for obstacle in obstacles:
        world.add_obstacle(obstacle)
    return world


def contact_table(world):
    """The slime-slime contact's table (``contact.BodyTable``) of a world's bodies, for calling the
    contact's functions on the world's arrays."""
    from slime.physics.slime3d.contact import BodyTable

    bodies = world.bodies
    return BodyTable(start=[b.start for b in bodies], stop=[b.stop for b in bodies],
                     stacks=[b.shape.stacks for b in bodies], slices=[b.shape.slices for b in bodies],
                     radius=[b.params.radius for b in bodies], mass=world.mass,
                     friction=[b.params.contact_friction for b in bodies])


def gl_or_missing():
    """Fail in CI, skip elsewhere, where there is no headless OpenGL context."""
    from conftest import missing
    from slime.render.context import GLUnavailable, create_headless_context

    try:
        create_headless_context().release()
    except GLUnavailable as exc:
        missing(f"OpenGL ({exc})")


def thrown_through(world, frames: int = 30) -> float:
    """Step ``world`` ``frames`` frames, its kinetic energy never gaining; the furthest its first
    body's vertices reached along +x (a slime thrown at a thin obstacle, to see it never passes)."""
    energy = world.kinetic_energy()
    furthest = -np.inf
    for _ in range(frames):
        world.step()
        furthest = max(furthest, float(world.x[0].max()))
        assert world.kinetic_energy() <= energy
    return furthest
