"""The physics compiled before it is needed: the first run after an install (or after a force was
edited) compiles every kernel once, stage by stage, so that a caller can show progress; later runs
load them from the cache (``compiled.py``) in a fraction of a second.

``stages()`` lists (name, run) pairs; running them all compiles every kernel for the types the
program calls them with, and ``mark_compiled()`` notes it in the cache folder, which is named after
the kernels' sources: an edit is a new folder, not yet marked.

numba compiles on one core, and most of the work is the slime's step: the surface's gradients,
then the forces that read them, then the substep that calls the forces. So the first run compiles
in two processes (``start_beside``), both writing the same cache (numba replaces each file whole):
this one compiles the slime as it runs, the surface first; the other compiles the step's other
parts, stepping a slime with the step's entry points and the surface run as Python
(``_step_parts``), so that every part they call compiles for the very types the compiled step
passes it. When this process's step reaches a part, it loads it from the cache. Then the other
compiles the world's contacts and obstacles, and this one the spring engine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from slime.physics.compiled import CACHE, jit_disabled

_MARK = CACHE / "compiled"
# numba files a kernel's cache under a subfolder named after its source file's folder, so another
# copy of the same sources (a second checkout, an install in another environment) shares the cache
# folder but finds nothing of its own there: the mark lists the copies compiled, by this folder.
_COPY = str(Path(__file__).resolve().parent)
# Compiled caches kept in the cache folder's folder, this one among them: each edit of a force
# compiles into a new one (several MB), and a student editing all term would fill the disk.
KEEP_CACHES = 4


def is_compiled() -> bool:
    """Whether every kernel of these sources, from this copy of them, is in the cache (and if so, its mark touched: the
    caches used last are the ones kept); True when nothing is compiled at all
    (``NUMBA_DISABLE_JIT=1``: the kernels run as Python), and then nothing is marked either, so
    the next compiled run still compiles first, saying so."""
    if jit_disabled():
        return True
    try:
        if _COPY not in _MARK.read_text().splitlines():
            return False
    except OSError:  # no mark yet
        return False
    try:
        os.utime(_MARK)
    except OSError:
        pass  # a cache that cannot be written to is still read
    return True


def mark_compiled() -> None:
    """Note that every kernel is compiled, and remove the caches of other sources used longest
    ago (``prune_caches``)."""
    if jit_disabled():
        return
    try:
        with open(_MARK, "a") as mark:  # one line a copy: copies compiling at once both keep theirs
            mark.write(_COPY + "\n")
    except OSError:
        return  # no cache to write: nothing to remember either
    prune_caches(_MARK.parent, KEEP_CACHES)


def prune_caches(current: Path, keep: int) -> list[Path]:
    """Remove the compiled caches beside ``current`` (the folders named ``slime-*``, real folders,
    not links) but the ``keep - 1`` used last (by their mark, else by the folder); returns what it
    removed. Another folder's contents, and ``current``, are never touched."""
    caches = []
    for folder in current.parent.glob("slime-*"):
        if folder == current or folder.is_symlink() or not folder.is_dir():
            continue
        try:
            mark = folder / "compiled"
            used = (mark if mark.is_file() else folder).stat().st_mtime
        except OSError:
            continue
        caches.append((used, folder.name, folder))
    caches.sort(reverse=True)
    removed = []
    for _, _, folder in caches[max(keep - 1, 0):]:
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _slime() -> None:
    from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams

    body = SlimeBody(SlimeParams(stacks=4, slices=4))
    body.step()
    body.volume()
    body.orientation()


def _world() -> None:
    """Everything a world's frame calls but the compiled step (``_slime`` compiles that): its own
    stages alone (``World3D.pipeline``), its slimes moved by the contacts, the obstacles and the
    hand."""
    from slime.physics.slime3d.obstacles import Ball, Box, Cylinder
    from slime.physics.slime3d.slime_body import SlimeParams
    from slime.physics.slime3d.world3d import World3D

    world = World3D()
    world.add_slime(SlimeParams(radius=0.5, stacks=4, slices=5, center=(0.0, 0.5, 0.0)))
    world.add_slime(SlimeParams(radius=0.5, stacks=4, slices=5, center=(0.9, 0.5, 0.0)))  # touching: contact compiles
    # Into the first slime's sides and top: the obstacles' contact kernels compile too.
    world.add_obstacle(Box(center=(-0.5, 0.5, 0.0), half_size=(0.1, 0.5, 1.0)))
    world.add_obstacle(Ball(center=(0.0, 0.5, 0.5), radius=0.15))
    world.add_obstacle(Cylinder(center=(0.0, 1.0, 0.0), radius=0.2, half_height=0.1))
    h = world.dt / world.substeps
    for _ in range(2):
        # A frame of the world's own stages, the compiled step's left out (``_slime`` compiles it).
        world.begin_frame()
        for stage in world.pipeline():
            if callable(stage):
                stage(h)
        world.end_frame()
        world.press(1, world.body_positions(1)[0], (0.0, -1.0, 0.0))  # the hand's finger


def _springs() -> None:
    from slime.physics.mass_spring.particles import Particles
    from slime.physics.planes import Planes
    from slime.physics.mass_spring.soda import SodaModel
    from slime.physics.mass_spring.springs import Springs
    from slime.physics.mass_spring.world import MassSpringWorld

    for dim in (2, 3):
        world = MassSpringWorld(Particles.create(np.ones((2, dim)) * [[1.0], [2.0]]), Springs.create([[0, 1]], 0.5, 1.0),
                      planes=Planes.floor(dim), gravity=-np.eye(dim)[1])
        world.step()
    SodaModel.create(np.array([[0.1, 0.2], [0.3, 0.4]]), [[0, 1]], [0.2]).tick()
    from slime.physics.mass_spring.yoyo import chain_step

    for natural in (False, True):  # the springs scene's bob chain
        bobs = Particles.create(np.array([[0.0, 0.0], [1.0, 0.0]]))
        chain_step(bobs, np.array([-1, 0]), np.array([1, -1]), 0.1, 0.5, natural, True, True, True,
                   anchor=np.zeros(2), speed_limit=10.0)


@contextmanager
def _as_python(kernels, modules):
    """Within it, each of ``kernels`` runs uncompiled, as the Python it is written in, where
    ``modules`` call it (their globals are swapped back on the way out). Only modules whose callers
    run as Python: a compiled caller cannot call Python."""
    swapped = []
    for module in modules:
        for attribute, value in list(vars(module).items()):
            if any(value is kernel for kernel in kernels):
                swapped.append((module, attribute, value))
                setattr(module, attribute, value.py_func)
    try:
        yield
    finally:
        for module, attribute, value in swapped:
            setattr(module, attribute, value)


def _step_parts() -> None:
    """The slime step's parts but the surface: a slime built and stepped with the surface's kernels
    and the step's entry points (``body_accelerations``, ``slime_substeps``) uncompiled. Each part
    they call (shape matching, shear, the floor, adhesion, ...) is called from Python, and
    compiles for the types numba gives Python's arguments: the same as the compiled step passes it
    (a test holds this), so the compiled step finds it in the cache."""
    from numba.core.registry import CPUDispatcher

    from slime.physics.slime3d import slime_body, slime_shape, step, surface, world3d

    own = [value for value in vars(surface).values()
           if isinstance(value, CPUDispatcher) and value.py_func.__module__ == surface.__name__]
    entries = [value for value in (step.body_accelerations, step.slime_substeps) if isinstance(value, CPUDispatcher)]
    with _as_python(own + entries, [surface, slime_shape, slime_body, step, world3d]):
        slime_body.SlimeBody(slime_body.SlimeParams(stacks=4, slices=4)).step()


def _slime_and_springs() -> None:
    _slime()
    _springs()


def _parts_and_world() -> None:
    _step_parts()
    _world()


def stages() -> list:
    """(what it compiles, a function that compiles it): the slime's forces first, then what
    ``start_beside`` may run at the same time."""
    return [("the slime's forces and the spring engine", _slime_and_springs),
            ("the step's parts, contacts and obstacles", _parts_and_world)]


def start_beside(stages) -> subprocess.Popen | None:
    """Run ``stages`` in a second Python process, started now (wait for it, and run them here if
    it did not end with 0); None, to run them here, when one is not a stage of this module (as a
    test's stand-in is) or no process could be started."""
    names = [run.__name__ for _, run in stages]
    if not names or any(globals().get(name) is not run for name, (_, run) in zip(names, stages)):
        return None
    # Started in the folder that holds this slime package: ``-m`` looks in the working folder
    # first, where the user may have a folder of their own named slime.
    home = Path(__file__).resolve().parents[2]
    try:
        return subprocess.Popen([sys.executable, "-m", __name__, *names], cwd=home, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None


BESIDE_TIMEOUT = 300.0  # s: a second process still compiling after this is stopped, its stages run here


if __name__ == "__main__":
    for name in sys.argv[1:]:
        globals()[name]()
