"""Atomic file writing: a temporary file beside the target, then a rename.

An interrupted or failed write leaves the old file (or none) and no temporary behind, never a
half-written one. Used by every command and scene that writes a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from contextlib import contextmanager
from typing import BinaryIO, Callable, Iterator


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(path, suffix: str = ".tmp") -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (ending in ``suffix``: a muxer that picks its format by
    the name needs the real extension) for a writer that opens files by name; on success it is
    renamed to ``path``, on any failure removed."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OSError(f"{path}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=folder)
    os.close(fd)
    try:
        yield Path(tmp)
        # mkstemp makes the file owner-only (0600); give it the mode a plain open() would.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write(path, write: Callable[[BinaryIO], None]) -> Path:
    """Call ``write(f)`` on a binary temp file in ``path``'s folder, then rename it to ``path``."""
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        write(f)
    return Path(path)
