"""The render progress bar: drawn in place on a terminal for long renders, silent otherwise."""

from __future__ import annotations

import io

from slime import progress
from slime.progress import MIN_PROGRESS_FRAMES, progress_bar


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _run(monkeypatch, stream, total, enabled=True):
    monkeypatch.setattr(progress.sys, "stderr", stream)
    with progress_bar(total, enabled, "rendering x.gif") as bar:
        for _ in range(total):
            bar.update(1)
    return stream.getvalue()


def test_long_render_on_a_terminal_draws_in_place_and_ends_the_line(monkeypatch):
    out = _run(monkeypatch, _Tty(), 60)
    frames = out.split("\r")[1:]
    assert "\n" not in "".join(frames[:-1]), "redrawn in place on one line"
    assert frames[0].startswith("rendering x.gif:   0%")
    assert frames[-1].startswith("rendering x.gif: 100%") and "60/60" in frames[-1] and frames[-1].endswith("\n")


def test_silent_when_short_disabled_or_not_a_terminal(monkeypatch):
    assert _run(monkeypatch, _Tty(), MIN_PROGRESS_FRAMES - 1) == ""
    assert _run(monkeypatch, _Tty(), 60, enabled=False) == ""
    assert _run(monkeypatch, io.StringIO(), 60) == ""
