"""The ``slime`` command's entry point. It sets up the signals before it imports the command line
(numpy, numba and the rest take a moment to load), so Ctrl-C or SIGTERM at any moment, from the
first import on, is one line and exit 130 or 143 (``slime.interrupts``), never a traceback."""

from __future__ import annotations

import signal
import sys

from slime.interrupts import Terminated, interruptible


def main() -> int:
    try:
        with interruptible():
            from slime.cli import main as run

            return run()
    except Terminated:
        print("slime: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("slime: interrupted", file=sys.stderr)
        return 130
