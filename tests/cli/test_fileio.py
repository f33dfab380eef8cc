"""Atomic writes: whole file or none, never a temporary left behind, ordinary permissions."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time

import numpy as np
import pytest

from slime.fileio import (MAX_INPUT_BYTES, OUTPUT_FOLDER, absent, atomic_write, check_output, read_input, resolved,
                          stale_temporaries)


def test_writes_whole_file_with_umask_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        path = atomic_write(tmp_path / "a.bin", lambda f: f.write(b"hello"))
    finally:
        os.umask(old)
    assert path.read_bytes() == b"hello"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["a.bin"]


def test_failure_keeps_old_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "a.bin"
    path.write_bytes(b"old")

    def half_then_fail(f):
        f.write(b"ne")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, half_then_fail)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.bin"]


def test_missing_folder_is_one_clear_error(tmp_path):
    with pytest.raises(OSError, match="does not exist"):
        atomic_write(tmp_path / "no" / "a.bin", lambda f: f.write(b"x"))


# --- leftovers of a writer killed outright ------------------------------------------------------

def _dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _aged(path, seconds=120.0):
    old = time.time() - seconds
    os.utime(path, (old, old))
    return path


def test_temporary_names_carry_the_writer_pid(tmp_path):
    seen = []
    atomic_write(tmp_path / "a.bin", lambda f: seen.extend(p.name for p in tmp_path.iterdir()))
    assert len(seen) == 1 and seen[0].startswith(f".a.bin.slime-{os.getpid()}-") and seen[0].endswith(".tmp")


def test_next_write_removes_stale_temporaries_and_keeps_live_ones(tmp_path):
    dead = tmp_path / f".big.npz.slime-{_dead_pid()}-abcd1234.tmp"
    dead.write_bytes(b"x" * 1000)
    _aged(dead)
    fresh_dead = tmp_path / f".c.npz.slime-{_dead_pid()}-abcd1234.tmp"  # could be a writer we cannot see
    fresh_dead.write_bytes(b"x")
    live = tmp_path / f".d.npz.slime-{os.getppid()}-abcd1234.tmp"
    live.write_bytes(b"x")
    _aged(live)
    other = tmp_path / ".e.npz.abcd1234.tmp"  # not our pattern: never touched
    other.write_bytes(b"x")
    _aged(other)
    assert stale_temporaries(tmp_path) == [dead]
    atomic_write(tmp_path / "a.bin", lambda f: f.write(b"new"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["a.bin", fresh_dead.name, live.name, other.name])


_KILLED_WRITER = """
import sys, time
from slime.fileio import atomic_write
def write(f):
    f.write(b"x" * 1_000_000)
    f.flush()
    print("writing", flush=True)
    time.sleep(60)
atomic_write(sys.argv[1], write)
"""


def test_a_writer_killed_mid_write_is_cleaned_by_the_next_write(tmp_path):
    target = tmp_path / "out.npz"
    child = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "writing\n"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    left = [p for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].name.startswith(f".out.npz.slime-{child.pid}-")
    assert left[0].stat().st_size == 1_000_000
    atomic_write(target, lambda f: f.write(b"x"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([left[0].name, "out.npz"])  # not stale yet
    _aged(left[0])  # a minute later the killed writer's file is stale
    atomic_write(target, lambda f: f.write(b"y"))
    assert [p.name for p in tmp_path.iterdir()] == ["out.npz"] and target.read_bytes() == b"y"


# --- reading what a user names --------------------------------------------------------------------

def test_read_input_reads_a_plain_file(tmp_path):
    (tmp_path / "m.json").write_bytes(b"{}")
    assert read_input(tmp_path / "m.json") == b"{}"


def test_read_input_refuses_a_fifo_without_opening_it(tmp_path):
    fifo = tmp_path / "m.json"
    os.mkfifo(fifo)  # no writer: an open for reading would block for ever
    with pytest.raises(OSError, match="not a regular file: a FIFO"):
        read_input(fifo)


def test_read_input_refuses_devices_folders_and_big_files(tmp_path):
    with pytest.raises(OSError, match="a character device"):
        read_input("/dev/zero")
    with pytest.raises(OSError, match="a folder"):
        read_input(tmp_path)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_INPUT_BYTES + 1)  # sparse: no disk used
    with pytest.raises(OSError, match="more than the 64 MiB"):
        read_input(big)
    assert read_input(big, limit=MAX_INPUT_BYTES + 1)[:4] == b"\0\0\0\0"


def test_a_link_that_leads_nowhere_is_named_as_one(tmp_path):
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    (tmp_path / "gone.json").symlink_to("never-made.json")
    assert absent(tmp_path / "a.json") == "a loop of symbolic links"
    assert absent(tmp_path / "gone.json") == "a symbolic link to never-made.json, which is not there"
    assert absent(tmp_path / "none.json") == "no such file"
    assert absent(tmp_path) == ""
    with pytest.raises(OSError, match="a loop of symbolic links"):
        read_input(tmp_path / "a.json")
    with pytest.raises(FileNotFoundError, match="never-made.json, which is not there"):
        read_input(tmp_path / "gone.json")
    with pytest.raises(FileNotFoundError, match="no such file"):
        read_input(tmp_path / "none.json")
    # Path.resolve raises RuntimeError on a loop before Python 3.13: an OSError here, as any.
    with pytest.raises(OSError, match="a loop of symbolic links"):
        resolved(tmp_path / "a.json" / "x")
    with pytest.raises(ValueError, match="folder .*a.json: a loop of symbolic links"):
        check_output(tmp_path / "a.json" / "x.png", (".png",))


def test_default_output_folder_is_made_by_the_first_write_only(tmp_path, monkeypatch):
    from slime.cli import main

    monkeypatch.chdir(tmp_path)
    # A run that fails on its arguments leaves no out/ behind...
    assert main(["render", "--frames", "3", "--poke", "5:0,2,0:0,-1,0"]) == 2
    assert not (tmp_path / "out").exists()
    # ...other missing folders are still an error...
    with pytest.raises(ValueError, match="does not exist"):
        check_output("elsewhere/x.png", (".png",))
    # ...and the first file written into out/ makes it.
    assert check_output(OUTPUT_FOLDER / "x.bin", (".bin",)) == OUTPUT_FOLDER / "x.bin"
    atomic_write(OUTPUT_FOLDER / "x.bin", lambda f: f.write(b"x"))
    assert (tmp_path / "out" / "x.bin").read_bytes() == b"x"


def test_render_writes_into_out_by_default(tmp_path, monkeypatch, ctx):
    from PIL import Image

    from slime.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["render", "springs", "--frames", "2", "--size", "64x48", "--no-progress"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    with Image.open(tmp_path / "out" / "springs.png") as picture:
        assert picture.size == (64, 48)


def test_a_screenshot_into_a_link_loop_is_one_line_not_the_window(tmp_path, capsys):
    from slime.app.window_common import save_screenshot

    (tmp_path / "out").symlink_to("elsewhere")
    (tmp_path / "elsewhere").symlink_to("out")
    pixels = np.zeros((4, 6, 3), dtype=np.uint8)
    assert save_screenshot(pixels, "slime", tmp_path / "out") is None
    err = capsys.readouterr().err
    assert err.startswith("slime: screenshot not saved:") and "loop of symbolic links" in err
    assert len(err.strip().splitlines()) == 1
    shot = save_screenshot(pixels, "slime", tmp_path)
    assert shot is not None and shot.parent == tmp_path and shot.is_file()


@pytest.mark.parametrize("suffix", [".png", ".gif", ".npz"])
def test_an_output_name_as_long_as_the_file_system_takes_is_written(tmp_path, suffix):
    # The temporary beside it takes a shortened name, never the user's: a legal name is written.
    from slime.cli import main

    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    name = "n" * (longest - len(suffix)) + suffix
    command = (["simulate", "slime", "--ticks", "2", "--stacks", "8", "--slices", "8"] if suffix == ".npz" else
               ["render", "--frames", "2", "--size", "32x24"])
    assert main([*command, "--output", str(tmp_path / name), "--no-progress"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_system_error_is_its_file_and_reason_not_its_errno(tmp_path, capsys):
    from slime.cli import main

    status = main(["shaders", "export", str(tmp_path / ("x" * 300))])
    err = capsys.readouterr().err.strip()
    assert status == 2 and "[Errno" not in err and err.endswith(": File name too long"), err


def test_a_render_with_stdout_closed_writes_its_picture_and_succeeds(tmp_path):
    run = subprocess.run([sys.executable, "-m", "slime", "render", "--frames", "1", "--size", "32x24", "--output",
                          "a.png", "--no-progress"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, timeout=120, preexec_fn=lambda: os.close(1))
    assert (run.returncode, run.stderr) == (0, "")
    assert (tmp_path / "a.png").stat().st_size > 0
