"""The progress bar of a long headless run (`slime simulate`, `slime render`): on stderr, redrawn
in place on a terminal, silent elsewhere. Neutral: the headless runs below the app and the
render commands in it both import it."""

from __future__ import annotations

import shutil
import sys

from tqdm import tqdm

from slime import interrupts

MIN_PROGRESS_FRAMES = 30  # a shorter run is over before a bar would tell anything


class _Bar(tqdm):
    """tqdm that raises, at each frame, a Ctrl-C or SIGTERM whose exception was swallowed on its
    way out (``slime.interrupts``)."""

    def update(self, n=1):
        interrupts.check()
        return super().update(n)


def progress_bar(total: int, enabled: bool, label: str = "rendering") -> tqdm:
    """A tqdm bar on stderr for long runs (MIN_PROGRESS_FRAMES or more), redrawn in place; a
    silent one when disabled or when stderr is not a terminal, where carriage returns would only
    fill a log. Use as a context manager, ``bar.update(1)`` per frame: it is also where a long
    loop notices an interrupt that was lost (``slime.interrupts``)."""
    shown = enabled and total >= MIN_PROGRESS_FRAMES and sys.stderr.isatty()
    # The terminal's size from shutil, which falls back to 80x24 where a terminal reports 0x0 (tqdm
    # would then draw nothing at all).
    columns, lines = shutil.get_terminal_size()
    return _Bar(total=total, desc=label, unit="frame", file=sys.stderr, disable=not shown, leave=True,
                ncols=columns, nrows=lines)


def ticking(ticks: int, progress: bool, label: str):
    """``range(ticks)`` with the progress bar on stderr while it runs (``progress``, and only on a
    terminal: see ``progress_bar``)."""
    with progress_bar(ticks, progress, label) as bar:
        for k in range(ticks):
            yield k
            bar.update(1)
