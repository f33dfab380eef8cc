"""A long or heavy run says so before it starts: past limits.LONG_RUN_SECONDS or
LARGE_OUTPUT_BYTES (estimated from the frames, the picture's size and the format) a command
starts only with --yes or a "y" at a terminal, and a script without --yes gets one line; a poke's
force has a range (limits.POKE_FORCE)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from slime import cli, limits


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def no_render(monkeypatch):
    """render_world and record stubbed: what the command would start, without the minutes."""
    started = []
    import slime.app.render_world as render_world
    import slime.scenes.world_run as world_run

    monkeypatch.setattr(render_world, "render_world", lambda spec, **kw: started.append(("render", kw["frames"])))
    def record(spec, ticks, *args, **kwargs):
        started.append(("record", ticks))
        return {"positions": np.zeros((ticks + 1, 1, 3))}

    monkeypatch.setattr(world_run, "record", record)
    return started


def test_a_long_gif_is_refused_in_a_script_in_one_line(no_render, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["render", "--frames", "100000", "--output", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("slime: error: ") and "add --yes to start it" in err, err
    assert "100000 frames at 800x600 takes about" in err and " MB (an estimate)" in err
    assert no_render == [] and list(tmp_path.iterdir()) == []


def test_yes_says_the_estimate_and_starts(no_render, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["render", "--frames", "100000", "--output", str(tmp_path / "x.gif"), "--yes"]) == 0
    assert "starting (--yes)" in capsys.readouterr().err
    assert no_render == [("render", 100000)]


@pytest.mark.parametrize("answer, started", [("y\n", True), ("yes\n", True), ("n\n", False), ("\n", False), ("", False)])
def test_at_a_terminal_it_asks(no_render, monkeypatch, capsys, tmp_path, answer, started):
    monkeypatch.setattr("sys.stdin", _Terminal(answer))
    status = cli.main(["simulate", "slime", "--ticks", "100000", "--output", str(tmp_path / "x.npz")])
    err = capsys.readouterr().err
    assert "100000 ticks of" in err and "takes about" in err
    assert (status, no_render) == ((0, [("record", 100000)]) if started else (2, []))
    if not started:
        assert err.rstrip().endswith("not started (--yes starts it without asking)")


def test_an_ordinary_run_starts_without_a_word(no_render, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["render", "--frames", "110", "--size", "480x360", "--output", str(tmp_path / "poke.gif")]) == 0
    assert "estimate" not in capsys.readouterr().err and no_render == [("render", 110)]


def test_the_estimate_grows_with_frames_size_and_format():
    seconds, size = cli.run_estimate(1000, 1000, ".gif", (800, 600))
    assert cli.run_estimate(2000, 1000, ".gif", (800, 600))[1] == pytest.approx(2 * size, rel=0.01)
    assert cli.run_estimate(1000, 1000, ".gif", (1600, 1200))[0] > seconds
    assert cli.run_estimate(1000, 1000, ".png", (800, 600))[1] == 3 * 800 * 600  # the last frame only
    assert cli.run_estimate(1000, 1000, ".npz") == pytest.approx((1000 * (cli._FRAME_SECONDS + 1000 * cli._VERTEX_FRAME_SECONDS),
                                                                  1001 * 1000 * 24))
    # The run: 100000 GIF frames at 800 x 600 is past both marks; README's picture is under them.
    assert all(v > mark for v, mark in zip(cli.run_estimate(100_000, 994, ".gif", (800, 600)),
                                           (limits.LONG_RUN_SECONDS, limits.LARGE_OUTPUT_BYTES)))
    assert all(v < mark for v, mark in zip(cli.run_estimate(24, 994, ".png", (800, 600)),
                                           (limits.LONG_RUN_SECONDS, limits.LARGE_OUTPUT_BYTES)))


@pytest.mark.parametrize("force, ok", [("0,-150,0", True), ("0,-5000,0", True), ("3000,-4000,1", False),
                                       ("0,-1e9,0", False)])
def test_a_poke_has_a_range_of_force(force, ok, capsys):
    from slime.arguments import parse_poke
    from slime.scenes.world_format import lone_slime_spec

    spec = lone_slime_spec(None, None, None)
    if ok:
        assert spec.with_events([parse_poke(f"10:0,2,0:{force}")]).events[0].force[1] <= 0
    else:
        with pytest.raises(ValueError, match=f"force must be at most {limits.POKE_FORCE[1]:g} N long"):
            spec.with_events([parse_poke(f"10:0,2,0:{force}")])


def test_a_poke_of_minus_a_billion_newtons_is_one_line(capsys, tmp_path):
    assert cli.main(["render", "--poke", "10:0,2,0:0,-1e9,0", "--output", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must be at most 5000 N long, got 1e+09" in err, err
