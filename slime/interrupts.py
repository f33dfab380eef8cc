"""Ctrl-C (SIGINT) and SIGTERM (`kill`, `timeout`) for the command line: both unwind the command as
an exception, so that a file being written is removed (``fileio.atomic_path``), not left behind.

A handler's exception is raised in whatever Python code the main thread is running when the
signal arrives, and code beneath a C extension may catch and clear it (an attribute lookup that
treats any error as "absent" does): the signal would then be lost, and a long render would run to
its end. So the handler also notes the signal, and every long loop calls ``check`` once a frame
or tick (``slime.progress.progress_bar`` does it in ``update``), which raises it again if it was
swallowed.

An interrupt can also land inside a library's constructor, and the half-built object's finaliser
then fails when it is collected (llvmlite's references do, with an AttributeError): once a signal
has arrived, such errors are not printed, so the command's last word stays its one line. And one
that lands while a compiled kernel hands back its result leaves numba's dispatcher returning a
value with the interrupt set, which Python reports as a SystemError: ``interruptible`` gives the
interrupt back in its place, as for any error a signal's arrival caused (numpy's import, cut
off, fails with an ImportError).

The command's entry point (``slime.command``) is inside ``interruptible`` before it imports
anything heavy, so a signal during the imports is the same one line."""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the command is, so it unwinds as Ctrl-C does."""


_pending: list[type[KeyboardInterrupt]] = []  # the signal received and not yet raised out of a check


def _on_signal(signum, frame):
    interrupt = Terminated if signum == signal.SIGTERM else KeyboardInterrupt
    _pending[:] = [interrupt]
    sys.unraisablehook = _ignore_unraisable
    raise interrupt


def _ignore_unraisable(unraisable) -> None:
    """Errors in finalisers after an interrupt: objects it cut off halfway, not the user's concern."""


def check() -> None:
    """Raise the interrupt of a signal whose own exception was swallowed on its way out."""
    if _pending:
        interrupt = _pending.pop()
        raise interrupt


@contextmanager
def interruptible():
    """SIGINT and SIGTERM raise ``KeyboardInterrupt`` and ``Terminated`` inside the block. Only
    the main thread may set handlers: elsewhere (a test calling the command from a thread) the
    block runs with the handlers it has."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _pending.clear()
    previous = {signum: signal.signal(signum, _on_signal) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    except Exception as error:
        interrupt = _interrupt_behind(error)
        if interrupt is None:
            raise
        raise interrupt() from None
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _pending.clear()


def _interrupt_behind(error: BaseException):
    """The interrupt an error stands for, or None for an error of its own: one raised from an
    interrupt (a SystemError for the one set while a C function returned; numpy's ImportError
    for one that cut off a module it was importing), or any error met after a signal arrived and
    before its own exception got out (the signal cut off what failed)."""
    seen = error
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            _pending.clear()
            return type(seen)
        seen = seen.__cause__ or seen.__context__
    return _pending.pop() if _pending else None
