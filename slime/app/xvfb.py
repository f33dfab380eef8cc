"""A private X server (Xvfb) for windows without a display: the window benchmark and the window
tests open theirs on one."""

from __future__ import annotations

import os
import shutil
import subprocess
from contextlib import contextmanager


@contextmanager
def private_xvfb(screen: str = "1024x768x24"):
    """Start Xvfb on a free display; yields its name (":N"), or None where Xvfb is not installed
    or did not start. Stopped on exit."""
    binary = shutil.which("Xvfb")
    if binary is None:
        yield None
        return
    read_fd, write_fd = os.pipe()
    # -displayfd: Xvfb picks a free display itself and writes its number once it accepts clients.
    server = subprocess.Popen([binary, "-displayfd", str(write_fd), "-screen", "0", screen, "-nolisten", "tcp"],
                              pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    with os.fdopen(read_fd) as f:
        number = f.readline().strip()
    try:
        yield f":{number}" if number else None
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
