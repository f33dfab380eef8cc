"""Reading and writing the files the commands take and make.

Writing is atomic: a temporary file beside the target, then a rename. An interrupted or failed
write leaves the old file (or none) and no temporary behind, never a half-written one. A writer
killed outright (SIGKILL, a power cut) cannot clean up, so each temporary's name carries its
writer's process id, ``.NAME.slime-PID-XXXXXXXX.tmp`` (NAME cut short where the whole would pass
the file system's longest name, and a picture's or film's own extension after ``.tmp``), and the
next write into the same folder removes the temporaries whose writer is gone and that have not
changed for a minute.

Reading a file a user names goes through :func:`read_input`: a FIFO, a device (``/dev/zero``),
a folder or a file over :data:`MAX_INPUT_BYTES` is refused in one line before it is read, so
nothing hangs or fills the memory; a symbolic link that leads nowhere (a loop, or a target that is
gone) is named as one, not as a missing file (:func:`check_input`, :func:`resolved`).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
from pathlib import Path
from contextlib import contextmanager
from typing import BinaryIO, Callable, Iterator, Sequence


OUTPUT_FOLDER = Path("out")
"""Where a file goes when the user names none (``slime render``'s picture, the windows'
screenshots): ``out/`` in the current folder, which a checkout's .gitignore ignores. It is made by
the first file written into it, so a run that fails early leaves nothing behind."""


def _folder_of(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _is_output_folder(folder: Path) -> bool:
    try:
        return resolved(folder) == resolved(OUTPUT_FOLDER)
    except OSError:
        return False


def absent(path) -> str:
    """Why nothing can be opened at ``path``, in a few words: "no such file", "a loop of symbolic
    links", "a symbolic link to X, which is not there", or the system's own words; "" when
    something is there."""
    problem = _absence(path)
    return problem[1] if problem else ""


def _absence(path) -> tuple[int, str] | None:
    """(errno, ``absent``'s words), or None when something is there."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return errno.ELOOP, "a loop of symbolic links"
        if os.path.islink(path):
            return errno.ENOENT, f"a symbolic link to {os.readlink(path)}, which is not there"
        if exc.errno == errno.ENOENT:
            return errno.ENOENT, "no such file"
        return exc.errno or errno.EINVAL, exc.strerror or str(exc)
    except ValueError as exc:  # a NUL in the name
        return errno.EINVAL, str(exc)
    return None


def resolved(path) -> Path:
    """``path`` made absolute, its symbolic links followed; OSError where they loop (Python before
    3.13 raises RuntimeError there, which would end a command with a traceback)."""
    try:
        return Path(path).resolve()
    except RuntimeError:
        raise OSError(errno.ELOOP, "a loop of symbolic links", str(path)) from None


def check_output(path, suffixes: Sequence[str]) -> Path:
    """Fail early, before any work, on an output path that cannot be written: one-line ValueError."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise ValueError(f"{path}: output must end with {' or '.join(suffixes)}")
    folder = _folder_of(path)
    if _is_output_folder(folder) and not folder.exists():
        folder = Path(".")  # out/ is made where the file is written
    if not folder.is_dir():
        why = absent(folder)
        if not why:
            raise ValueError(f"{path}: {folder} is not a folder")
        if why == "no such file":
            raise ValueError(f"{path}: folder {folder} does not exist")
        raise ValueError(f"{path}: folder {folder}: {why}")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"{path}: folder {folder} is not writable")
    if path.is_dir():
        raise ValueError(f"{path}: is a folder")
    return path

# The largest file a command reads (a Soda model with 200 000 masses and springs is about 40 MiB).
MAX_INPUT_BYTES = 64 * 1024 * 1024
# A temporary whose writer is gone is removed once it has not changed for this long (seconds).
STALE_TEMP_SECONDS = 60.0

_TEMP = re.compile(r"^\..+\.slime-(?P<pid>\d+)-[A-Za-z0-9_]+\.tmp(\.[A-Za-z0-9]+)?$")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _process_alive(pid: int) -> bool:
    if pid <= 0:
        return True  # not a process id a writer has: leave the file alone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OverflowError:
        return False  # beyond any process id, so no writer has it
    except PermissionError:
        return True  # alive, another user's
    return True


def _temporaries(folder) -> list[tuple[Path, int, float]]:
    """(path, the writing process's id, modified time) of each temporary file in ``folder``."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    found = []
    for entry in entries:
        match = _TEMP.match(entry.name)
        if not match:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            found.append((Path(entry.path), int(match["pid"]), info.st_mtime))
    return found


def stale_temporaries(folder) -> list[Path]:
    """The temporaries in ``folder`` left by writers that are gone (see the module docstring)."""
    now = time.time()
    return [path for path, pid, modified in _temporaries(folder)
            if now - modified > STALE_TEMP_SECONDS and not _process_alive(pid)]


def _remove(paths) -> None:
    for path in paths:
        try:
            path.unlink()
        except OSError:
            pass  # someone else removed it, or it is not ours to remove: the write goes on


def remove_stale_temporaries(folder) -> None:
    _remove(stale_temporaries(folder))


# Folders this process has made temporaries in, noted before each one exists: an interrupt that
# lands between a temporary's creation and the code that would remove it (a signal is handled
# between any two bytecodes) still finds it (``remove_own_temporaries``).
_TEMPORARY_FOLDERS: set = set()


def remove_own_temporaries() -> None:
    """Remove every temporary this process left (for an interrupted command, on its way out)."""
    for folder in list(_TEMPORARY_FOLDERS):
        _remove([path for path, pid, _ in _temporaries(folder) if pid == os.getpid()])


def _temporary_prefix(name: str, suffix: str, folder: Path) -> str:
    """``.NAME.slime-PID-``, the name cut short where the temporary's whole name (with mkstemp's
    eight characters and ``suffix``) would pass the file system's longest: a name the user may
    give is one the temporary may take."""
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    tail = f".slime-{os.getpid()}-"
    room = longest - len(f".{tail}") - 8 - len(suffix.encode())
    kept = name.encode()[:max(room, 1)].decode(errors="ignore") or "x"
    return f".{kept}{tail}"


@contextmanager
def atomic_path(path, suffix: str = ".tmp") -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (ending in ``suffix``: a muxer that picks its format by
    the name needs the real extension) for a writer that opens files by name; on success it is
    renamed to ``path``, on any failure removed."""
    path = Path(path)
    folder = _folder_of(path)
    if _is_output_folder(folder):
        folder.mkdir(exist_ok=True)
    if not folder.is_dir():
        raise OSError(f"{path}: folder {folder} does not exist")
    remove_stale_temporaries(folder)
    _TEMPORARY_FOLDERS.add(folder)
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(path.name, suffix, folder), suffix=suffix, dir=folder)
    except OSError as exc:
        raise write_error(path, exc) from None
    os.close(fd)
    try:
        yield Path(tmp)
        # mkstemp makes the file owner-only (0600); give it the mode a plain open() would.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise write_error(path, exc) from None
        raise


class WriteError(OSError):
    """A file could not be written; the message names the file the user asked for."""


def write_error(path, exc: OSError) -> WriteError:
    """``exc``, met while writing ``path``, as one line naming ``path`` (never the temporary beside
    it) and the reason: ``out/x.png: cannot write it (No space left on device)``."""
    if isinstance(exc, WriteError):
        return exc
    error = WriteError(f"{path}: cannot write it ({exc.strerror or ' '.join(str(exc).split()) or type(exc).__name__})")
    error.errno = exc.errno
    return error


def atomic_write(path, write: Callable[[BinaryIO], None]) -> Path:
    """Call ``write(f)`` on a binary temp file in ``path``'s folder, then rename it to ``path``."""
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        write(f)
    return Path(path)


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _check_regular(path: Path, info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a plain file")
        raise OSError(errno.EINVAL, f"not a regular file: {kind}", str(path))
    if info.st_size > limit:
        raise OSError(errno.EFBIG, f"{_mib(info.st_size)}, more than the {_mib(limit)} a file may have", str(path))


def _mib(size: int) -> str:
    return f"{size / 2**20:.0f} MiB" if size >= 2**20 else f"{size} bytes"


def check_input(path, limit: int = MAX_INPUT_BYTES) -> Path:
    """``path`` when it names a regular file of at most ``limit`` bytes; OSError (one line in
    ``strerror``: what is there instead, ``absent``'s words when nothing is) otherwise."""
    path = Path(path)
    problem = _absence(path)
    if problem:
        raise OSError(*problem, str(path))
    _check_regular(path, os.stat(path), limit)
    return path


def read_input(path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file ``path``; OSError (one line in ``strerror``) for anything
    else: a FIFO or device is refused before it is opened, so reading can neither block nor run
    on forever, and a file over ``limit`` bytes before any of it is read."""
    path = check_input(path, limit)
    # O_NONBLOCK: a FIFO swapped in after the check cannot block the open either.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        _check_regular(path, os.fstat(fd), limit)
        data = f.read(limit + 1)  # a file that grows (or a /proc file that says size 0) stops here
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"more than the {_mib(limit)} a file may have", str(path))
    return data
