"""Atomic writes: whole file or none, never a temporary left behind, ordinary permissions."""

from __future__ import annotations

import os
import stat

import pytest

from slime.fileio import atomic_write


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
