"""The demo window's quality controller, fed synthetic frame times (no window, no GL)."""

import pytest

from slime.app.quality import LEVELS, MAX_PROBE_WAIT, PROBE_WAIT, WINDOW_SECONDS, QualityController

SLOW, FAST, VSYNC = 1 / 50, 1 / 200, 1 / 60  # SLOW misses the budget, by less than twice


def feed(q: QualityController, seconds: float, duration: float) -> list[int]:
    """Frames of ``seconds`` each for ``duration`` seconds; the level index after each."""
    out = []
    for _ in range(int(duration / seconds)):
        q.frame(seconds)
        out.append(q.index)
    return out


def test_steps_down_on_slow_frames_one_level_per_window():
    q = QualityController()
    seen = feed(q, SLOW, WINDOW_SECONDS - 2 * SLOW)
    assert set(seen) == {0}  # not before a whole window of slow frames
    feed(q, SLOW, 3 * SLOW)
    assert q.index == 1
    feed(q, SLOW, 10.0)
    assert q.index == len(LEVELS) - 1 and q.level.scale < 1.0 and q.level.samples == 0


def test_very_slow_frames_step_down_two_levels_within_half_a_second():
    q = QualityController()
    feed(q, 1 / 10, 0.45)
    assert q.index == 0
    feed(q, 1 / 10, 0.1)
    assert q.index == 2


def test_steps_back_up_on_fast_frames_after_the_wait():
    q = QualityController(start=len(LEVELS) - 1)
    seen = feed(q, FAST, PROBE_WAIT * 0.9)
    assert set(seen) == {len(LEVELS) - 1}  # hysteresis: fast frames alone do not step up at once
    feed(q, FAST, 4 * PROBE_WAIT * len(LEVELS))
    assert q.index == 0 and q.level.name == "high"


def test_frames_at_the_budget_hold_the_level():
    q = QualityController()
    feed(q, VSYNC, 5.0)
    assert q.index == 0
    q = QualityController(start=2)
    feed(q, VSYNC * 1.03, 1.0)  # vsync jitter within the margin: neither down nor (yet) up
    assert q.index == 2


def test_a_failed_step_up_waits_longer_before_the_next():
    q = QualityController(start=1)
    # Level 1 meets the budget, level 0 does not: the controller tries 0, falls back, and backs off.
    changes = []
    t = 0.0
    while t < 60.0:
        seconds = VSYNC if q.index == 1 else SLOW
        if q.frame(seconds):
            changes.append((round(t, 2), q.index))
        t += seconds
    ups = [time for time, index in changes if index == 0]
    assert len(ups) >= 2
    gaps = [b - a for a, b in zip(ups, ups[1:])]
    assert gaps == sorted(gaps) and gaps[-1] > 2 * gaps[0]  # the tries come further and further apart
    assert q.probe_wait <= MAX_PROBE_WAIT
    assert len(ups) <= 6  # not flickering every couple of seconds


def test_pinning_holds_whatever_the_frames_say():
    q = QualityController()
    q.pin(0)
    feed(q, SLOW, 10.0)
    assert q.index == 0 and not q.adaptive
    q.pin(3)
    feed(q, FAST, 60.0)
    assert q.index == 3
    q.pin(None)
    feed(q, FAST, 60.0)
    assert q.index == 0 and q.adaptive
    with pytest.raises(ValueError, match="quality level"):
        q.pin(len(LEVELS))


def test_a_paced_window_sleeps_out_the_rest_of_each_frame(monkeypatch):
    from slime.app import window_common

    clock, slept = [0.0], []
    monkeypatch.setattr(window_common.time, "perf_counter", lambda: clock[0])
    monkeypatch.setattr(window_common.time, "sleep", lambda s: (slept.append(s), clock.__setitem__(0, clock[0] + s)))
    monkeypatch.setenv("SLIME_MAX_FPS", "50")
    pacer = window_common.FramePacer()
    pacer.wait()  # the first frame has nothing to wait for
    clock[0] += 0.005  # a frame drawn in 5 ms waits 15 more
    pacer.wait()
    clock[0] += 0.030  # a slow one does not wait
    pacer.wait()
    assert slept == [pytest.approx(0.015)]
    monkeypatch.delenv("SLIME_MAX_FPS")
    unpaced = window_common.FramePacer()
    clock[0] += 0.001
    unpaced.wait()
    unpaced.wait()
    assert len(slept) == 1 and unpaced.max_fps is None


@pytest.mark.parametrize("value", ["fast", "0", "-30", "0.5", "inf", "nan"])
def test_a_bad_max_fps_is_one_warning_and_no_pacing(monkeypatch, capsys, value):
    from slime.app.window_common import FramePacer

    monkeypatch.setenv("SLIME_MAX_FPS", value)
    assert FramePacer().period == 0.0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "SLIME_MAX_FPS" in err[0] and "not paced" in err[0], err


def test_the_demo_paced_below_60_fps_budgets_its_quality_for_that_pace(monkeypatch):
    from helpers import headless_demo

    monkeypatch.setenv("SLIME_MAX_FPS", "30")
    with headless_demo(size=(160, 120)) as window:
        assert window.quality.budget == pytest.approx(1 / 30)  # a paced frame is not a slow one
    monkeypatch.setenv("SLIME_MAX_FPS", "120")
    with headless_demo(size=(160, 120)) as window:
        assert window.quality.budget == pytest.approx(1 / 60)
