"""Atomic file writing: a temporary file beside the target, then a rename.

An interrupted or failed write leaves the old file (or none) and no temporary behind, never a
half-written one. Used by every command and scene that writes a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable, Sequence


OUTPUT_FOLDER = Path("out")
"""Where a file goes when the user names none (``slime render``'s picture, the windows'
screenshots): ``out/`` in the current folder, which a checkout's .gitignore ignores. It is made by
the first file written into it, so a run that fails early leaves nothing behind."""


def _folder_of(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _is_output_folder(folder: Path) -> bool:
    return folder.resolve() == OUTPUT_FOLDER.resolve()


def check_output(path, suffixes: Sequence[str]) -> Path:
    """Fail early, before any work, on an output path that cannot be written: one-line ValueError."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise ValueError(f"{path}: output must end with {' or '.join(suffixes)}")
    folder = _folder_of(path)
    if _is_output_folder(folder) and not folder.exists():
        folder = Path(".")  # out/ is made where the file is written
    if not folder.is_dir():
        raise ValueError(f"{path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"{path}: folder {folder} is not writable")
    if path.is_dir():
        raise ValueError(f"{path}: is a folder")
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path, write: Callable[[BinaryIO], None]) -> Path:
    """Call ``write(f)`` on a binary temp file in ``path``'s folder, then rename it to ``path``."""
    path = Path(path)
    folder = _folder_of(path)
    if _is_output_folder(folder):
        folder.mkdir(exist_ok=True)
    if not folder.is_dir():
        raise OSError(f"{path}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        # mkstemp makes the file owner-only (0600); give it the mode a plain open() would.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path
