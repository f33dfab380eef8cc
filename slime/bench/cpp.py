"""The PhysicalSlime C++ program (``shared/reference/physicalslime_cpp``), built and timed in the
same run as the benchmarks that compare against it: the speed reference for the slime's step.

Found beside the checkout (``../shared/reference/physicalslime_cpp`` from the repository root) or
where ``$SLIME_REFERENCE_CPP`` points; built with ``g++ -O2`` into the user's cache folder once
per source. Rows that have no reference (no sources, no compiler) say so instead of a ratio.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]


def source_folder() -> Path | None:
    """The C++ program's folder, or None when it is not to be found."""
    named = os.environ.get("SLIME_REFERENCE_CPP")
    for folder in ([Path(named)] if named else []) + [_ROOT.parent / "shared" / "reference" / "physicalslime_cpp"]:
        if (folder / "harness.cpp").is_file():
            return folder
    return None


@lru_cache(maxsize=1)
def harness() -> Path | None:
    """The built harness (built on first use), or None with no sources or no g++."""
    folder = source_folder()
    compiler = shutil.which("g++")
    if folder is None or compiler is None:
        return None
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*")):
        if path.is_file():
            digest.update(path.read_bytes())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "slime" / "cpp"
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:
        cache = Path(tempfile.mkdtemp(prefix="slime-cpp-"))
    binary = cache / f"harness-{digest.hexdigest()[:12]}"
    if not binary.exists():
        partial = binary.with_name(binary.name + f".{os.getpid()}.tmp")
        result = subprocess.run([compiler, "-O2", "-std=c++17", "-o", str(partial), str(folder / "harness.cpp")],
                                capture_output=True, text=True)
        if result.returncode != 0:
            return None
        os.replace(partial, binary)
    return binary


def missing() -> str:
    """Why there is no C++ reference in this run, in one line (empty when there is one)."""
    if harness() is not None:
        return ""
    if source_folder() is None:
        return "no C++ sources: put shared/reference/physicalslime_cpp beside the checkout or set $SLIME_REFERENCE_CPP"
    if shutil.which("g++") is None:
        return "no g++ to build the C++ program"
    return "the C++ program did not build with g++ -O2"


def step_ms(stacks: int, slices: int, steps: int) -> float | None:
    """The C++ program's median time of one update + integrate (ms) at stacks x slices, or None."""
    binary = harness()
    if binary is None:
        return None
    out = subprocess.run([str(binary), str(stacks), str(slices), str(steps)], capture_output=True, text=True).stdout
    found = re.search(r"us_per_step=([0-9.]+)", out)
    return float(found.group(1)) / 1000.0 if found else None
