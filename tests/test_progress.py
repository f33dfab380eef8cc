"""The render progress bar: drawn in place on a terminal for long renders, silent otherwise."""

from __future__ import annotations

import io

from slime.app import render_common
from slime.app.render_common import ProgressBar


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _run(monkeypatch, stream, total, enabled=True):
    monkeypatch.setattr(render_common.sys, "stderr", stream)
    bar = ProgressBar(total, enabled, "rendering x.gif")
    for done in range(1, total + 1):
        bar.update(done)
    return stream.getvalue()


def test_long_render_on_a_terminal_draws_in_place_and_ends_the_line(monkeypatch):
    out = _run(monkeypatch, _Tty(), 60)
    frames = out.split("\r")[1:]
    assert 1 < len(frames) <= 31  # redrawn only when the bar grows
    assert frames[-1] == "rendering x.gif [" + "#" * 30 + "] 60/60\n"


def test_silent_when_short_disabled_or_not_a_terminal(monkeypatch):
    assert _run(monkeypatch, _Tty(), 10) == ""
    assert _run(monkeypatch, _Tty(), 60, enabled=False) == ""
    assert _run(monkeypatch, io.StringIO(), 60) == ""
