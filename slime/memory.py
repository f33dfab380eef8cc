"""Will it fit? The one check every command makes before it allocates what a request asks for.

A headless run records every frame in memory before it writes them; a request too large for the
machine (``slime simulate slime --ticks 100000000``) is refused in one line before it starts,
instead of a MemoryError traceback minutes in, or the kernel killing the run. Commands call
:func:`allocate` for their big arrays (or :func:`require_memory` with a byte count).
"""

from __future__ import annotations

import math
import os
from typing import Sequence

import numpy as np

# The share of the available memory one request may take: the rest is for the run's own work
# arrays, the interpreter and whatever else runs.
MEMORY_SHARE = 0.8


class TooLarge(ValueError):
    """A request that cannot fit in memory; the message is one line for the user."""


# A container's memory limit and use (cgroup v2, then v1): a run past the limit is killed even
# when the machine has memory to spare. "max" (or v1's huge number) means no limit.
CGROUP_LIMITS = (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                 ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"))


def _read_int(path: str) -> int | None:
    try:
        with open(path, "rb") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None  # absent, or "max"


def _machine_available() -> int | None:
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def available_memory() -> int | None:
    """Bytes a new allocation can get: the kernel's MemAvailable (where there is no /proc/meminfo,
    the free physical pages), or less where this process's container leaves less; None when
    nothing is known."""
    known = [_machine_available()]
    for limit_path, usage_path in CGROUP_LIMITS:
        limit, usage = _read_int(limit_path), _read_int(usage_path)
        if limit is not None and usage is not None and limit < 2**62:
            known.append(max(limit - usage, 0))
            break
    known = [k for k in known if k is not None]
    return min(known) if known else None


def size_text(nbytes: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if nbytes < 1024 or unit == "PiB":
            return f"{nbytes:.0f} {unit}" if unit == "bytes" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    raise AssertionError  # unreachable


def require_memory(nbytes: int, what: str, hint: str = "") -> None:
    """Raise TooLarge when ``nbytes`` is more than MEMORY_SHARE of the available memory."""
    available = available_memory()
    if available is None:
        return  # nothing to compare with: let the allocation itself decide
    if nbytes > MEMORY_SHARE * available:
        raise TooLarge(f"{what} needs {size_text(nbytes)} of memory, more than the {MEMORY_SHARE:.0%} of "
                       f"{size_text(available)} available that one run may take{'; ' + hint if hint else ''}")


def allocate(what: str, shapes: Sequence[tuple], hint: str = "") -> list[np.ndarray]:
    """``np.empty`` for each ``(shape, dtype)``, after checking that all of them fit together."""
    total = sum(math.prod(shape) * np.dtype(dtype).itemsize for shape, dtype in shapes)
    require_memory(total, what, hint)
    return [np.empty(shape, dtype=dtype) for shape, dtype in shapes]
