"""Atomic writes: whole file or none, never a temporary left behind, ordinary permissions."""

from __future__ import annotations

import os
import stat

import pytest

from slime.fileio import OUTPUT_FOLDER, atomic_write, check_output


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
