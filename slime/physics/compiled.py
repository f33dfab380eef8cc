"""How the slime's physics is compiled: every kernel is a plain Python function over numpy arrays,
compiled by numba with one set of options (``kernel``), cached on disk, and run as plain Python
when ``NUMBA_DISABLE_JIT=1`` (normal tracebacks, a debugger steps through it, same numbers).

The cache. numba keeps each compiled function beside its source and checks only that function's
own file when it loads it: a kernel that calls a force from another file would keep running the
old force after the force's file was edited. So the cache lives in a folder named after a hash of
every file of ``slime/physics`` that holds a kernel, and of the parameters' declarations
(``parameters.py``, which make the compiled model's columns), and numba's version: edit any
force and the whole physics is compiled afresh, once. The folder is
``$NUMBA_CACHE_DIR`` when set, else the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``),
else the system's temporary folder: an install into a read-only site-packages still caches.

Options: float64 arithmetic with numpy's error model (a division by zero gives inf or NaN, as
numpy does, and the checks after the step catch it, rather than raising inside a kernel);
``fastmath`` only reassociates and contracts (sums vectorise, multiply-adds fuse) and keeps NaN and
inf meaning what they mean. Serial: ``parallel`` threads halve the step on an idle machine and
collapse on a loaded one. LLVM's optimisation level is 2, not numba's default 3 (``NUMBA_OPT``
still chooses): the loops vectorise at both, the step is no slower at 2, and the first run's
compile is shorter (README's Speed section).
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

# numba reads its configuration when first imported and again whenever a NUMBA_ variable changes:
# the level is set only before that first import, so a level the user set is kept, and so is the
# configuration of a program that imported numba before slime (the cache's folder name carries
# whichever level is in force).
if "numba" not in sys.modules:
    os.environ.setdefault("NUMBA_OPT", "2")
import numba  # noqa: E402

FASTMATH = {"reassoc", "contract"}
_HERE = Path(__file__).resolve().parent


def source_hash() -> str:
    """A short hash of the sources of the physics' kernels and numba's version: the cache folder's
    name."""
    digest = hashlib.sha256(f"{numba.__version__} {int(numba.config.OPT)}".encode())
    for path in sorted(_HERE.rglob("*.py")):
        source = path.read_bytes()
        # The declarations too: they make the model's columns, the types the kernels compile for.
        if b"@kernel" in source or path == Path(__file__).resolve() or path.name == "parameters.py":
            digest.update(str(path.relative_to(_HERE.parent)).encode())
            digest.update(source)
    return digest.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def cache_folder() -> Path:
    """Where the compiled kernels of these sources live (made if need be)."""
    name = f"slime-{source_hash()}"
    roots = []
    if os.environ.get("NUMBA_CACHE_DIR"):
        roots.append(Path(os.environ["NUMBA_CACHE_DIR"]))
    roots.append(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "slime" / "numba")
    roots.append(Path(tempfile.gettempdir()) / f"slime-numba-{os.getuid() if hasattr(os, 'getuid') else 'user'}")
    for root in roots:
        if _writable(root / name):
            return root / name
    return roots[-1] / name  # numba then warns and runs uncached


def jit_disabled() -> bool:
    """``NUMBA_DISABLE_JIT=1``: the kernels run as plain Python and nothing is compiled."""
    return bool(numba.config.DISABLE_JIT)


CACHE = cache_folder()
# numba reads its cache folder when a function is decorated: set before any kernel below is made.
numba.config.CACHE_DIR = str(CACHE)


def kernel(function):
    """Compile ``function`` as a physics kernel (see the module docstring). A kernel that calls
    another is linked with it, and LLVM inlines the small ones (a point, a cross product), so the
    loops that call them still run several vertices at a time."""
    # Only a function read from a file can be cached (not one typed at a prompt or exec'd).
    source = getattr(function, "__code__", None)
    cached = source is not None and os.path.isfile(source.co_filename)
    return numba.njit(cache=cached, error_model="numpy", fastmath=FASTMATH, nogil=True)(function)


@kernel
def body_rows(array, first, count):
    """Columns ``first .. first + count - 1`` of a (3, P) ``array`` as three 1-D views, indexed
    from 0. The hot loops read and write a body through these: LLVM vectorises a loop over
    unit-stride 1-D arrays at indices it knows are not negative, and falls back to one vertex at
    a time (several times slower) on ``array[c, first + k]``."""
    end = first + count
    return array[0, first:end], array[1, first:end], array[2, first:end]


@kernel
def scratch_rows(array, count):
    """The first ``count`` columns of a (3, N) ``array`` as three 1-D views: a body's own scratch
    (``body_rows`` from column 0; its own function, since a constant 0 would type ``body_rows`` anew)."""
    return array[0, :count], array[1, :count], array[2, :count]


@kernel
def plus(a, b):
    """The sum of two 3-vectors held as tuples (a force's part at a vertex, ``*_at``)."""
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]
