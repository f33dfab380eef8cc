"""Requests too big for the machine, and files that are not files.

Each is refused in one line with a non-zero exit before any work: a recording that cannot fit in
memory, a FIFO or a device or a huge file named as a model. A valid model of 200 000 masses runs
(its spring matrix is sparse).
"""

from __future__ import annotations

import os
import tracemalloc

import numpy as np
import pytest

from helpers import run_cli
from slime import cli, memory
from slime.fileio import MAX_INPUT_BYTES
from slime.limits import FRAMES
from slime.physics.mass_spring import soda


def _one_line_error(result, *words):
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("slime: error: "), result.stderr
    for word in words:
        assert word in lines[0]


# --- memory -------------------------------------------------------------------------------------

def test_available_memory_reads_meminfo():
    with open("/proc/meminfo") as f:
        expected = next(int(line.split()[1]) * 1024 for line in f if line.startswith("MemAvailable:"))
    assert abs(memory._machine_available() - expected) < 2**30  # it moves a little between the reads
    assert 0 < memory.available_memory() <= memory._machine_available()


def test_a_container_limit_below_the_machine_memory_wins(tmp_path, monkeypatch):
    (tmp_path / "max").write_text("1073741824\n")
    (tmp_path / "current").write_text("268435456\n")
    # The machine's MemAvailable held still: other processes move it between two reads.
    machine = memory._machine_available()
    monkeypatch.setattr(memory, "_machine_available", lambda: machine)
    monkeypatch.setattr(memory, "CGROUP_LIMITS", [(str(tmp_path / "none"), str(tmp_path / "none")),
                                                  (str(tmp_path / "max"), str(tmp_path / "current"))])
    assert memory.available_memory() == min(3 * 2**28, memory._machine_available())
    (tmp_path / "max").write_text("max\n")  # cgroup v2's "no limit"
    assert memory.available_memory() == memory._machine_available()


def test_allocate_checks_the_sum_before_allocating(monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    a, b = memory.allocate("two", [((10, 5), np.float64), ((100,), np.bool_)])  # 500 bytes: fits
    assert a.shape == (10, 5) and b.dtype == np.bool_
    with pytest.raises(memory.TooLarge, match=r"three needs 808 bytes of memory, more than the 80% of 1000 bytes"):
        memory.allocate("three", [((51,), np.float64), ((400,), np.bool_)])
    monkeypatch.setattr(memory, "available_memory", lambda: None)
    memory.allocate("unknown", [((4,), np.float64)])  # nothing to compare with: no refusal


@pytest.mark.slow
def test_a_recording_of_hundreds_of_gib_is_refused_before_starting(tmp_path):
    ticks = str(FRAMES[1])  # the most a run may have: the memory, not the count, refuses it
    result = run_cli("simulate", "slime", "--stacks", "512", "--slices", "512", "--ticks", ticks, "--output", "x.npz",
                     cwd=tmp_path)
    _one_line_error(result, f"{ticks} ticks", "GiB of memory", "fewer --ticks")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("args, words", [
    (["simulate", "slime", "--stacks", "512", "--slices", "512", "--ticks", "10000"], ["512x512", "58.5 GiB"]),
    (["simulate", "{model}", "--ticks", str(FRAMES[1])], ["chain.json (", "points)", "GiB"]),
])
def test_recordings_past_the_memory_are_refused(tmp_path, capsys, monkeypatch, args, words):
    from slime.scenes.soda_format import save_model

    model = tmp_path / "chain.json"
    save_model(_chain(20_000), model)  # a 2D scene of 20 000 points: 32 GB over the most ticks
    monkeypatch.setattr(memory, "available_memory", lambda: 2 * 2**30)  # the same answer on any machine
    assert cli.main([*(a.format(model=model) for a in args), "--output", str(tmp_path / "x.npz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("slime: error: recording ") and "of 2.0 GiB available" in err
    for word in words:
        assert word in err
    assert [p.name for p in tmp_path.iterdir()] == ["chain.json"]


def test_a_memory_error_past_the_estimate_is_one_line(tmp_path, capsys, monkeypatch):
    def out_of_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 9.0 GiB for an array with shape (1000,)")

    monkeypatch.setattr("slime.scenes.world_run.record", out_of_memory)
    assert cli.main(["simulate", "slime", "--ticks", "3", "--output", str(tmp_path / "x.npz")]) == 2
    assert capsys.readouterr().err == "slime: error: Unable to allocate 9.0 GiB for an array with shape (1000,)\n"


# --- a Soda model of 200 000 masses -------------------------------------------------------------

def _chain(n: int, braced: bool = False) -> soda.SodaModel:
    x = np.stack([np.linspace(0.01, 3.99, n), 0.5 + 0.01 * np.sin(np.arange(n))], axis=1)
    ab = [np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)]
    if braced:
        ab.append(np.stack([np.arange(n - 2), np.arange(2, n)], axis=1))
    ab = np.concatenate(ab)
    rest = np.linalg.norm(x[ab[:, 1]] - x[ab[:, 0]], axis=1) * 0.9
    return soda.SodaModel.create(x, ab, rest, amplitude=0.2, phase=np.arange(len(ab)) * 0.3)


def test_a_tick_of_200k_masses_runs_in_bounded_memory():
    model = _chain(200_000)
    start = model.locations.copy()
    tracemalloc.start()
    try:
        model.tick()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # The tick's work is a force per mass and the live springs' indices: a few MiB here (a
    # spring-by-mass matrix would be 298 GiB).
    assert peak < 200 * 2**20
    assert model.blowups == 0 and np.isfinite(model.locations).all()
    assert np.abs(model.locations - start).max() > 0.0


# --- files that are not model files -------------------------------------------------------------

@pytest.mark.parametrize("command", [["simulate", "{model}", "--ticks", "1", "--output", "x.npz"],
                                     ["render", "{model}", "--output", "x.png"],
                                     ["scene", "{model}"]])
def test_a_fifo_model_is_refused_without_hanging(tmp_path, command):
    fifo = tmp_path / "model.json"
    os.mkfifo(fifo)  # nothing ever writes to it
    result = run_cli(*[part.format(model=fifo) for part in command], cwd=tmp_path)
    _one_line_error(result, str(fifo), "not a regular file: a FIFO")


@pytest.mark.parametrize("command", [["simulate", "/dev/zero", "--ticks", "1", "--output", "x.npz"],
                                     ["render", "/dev/zero", "--output", "x.png"]])
def test_dev_zero_is_refused(tmp_path, command):
    _one_line_error(run_cli(*command, cwd=tmp_path), "/dev/zero", "a character device")
    assert list(tmp_path.iterdir()) == []


def test_a_model_file_over_the_limit_is_refused_before_reading(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_INPUT_BYTES + 1)  # sparse: no disk used
    result = run_cli("simulate", str(big), "--ticks", "1", "--output", "x.npz", cwd=tmp_path)
    _one_line_error(result, "more than the 64 MiB a file may have")
