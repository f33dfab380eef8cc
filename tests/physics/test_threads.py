"""$SLIME_THREADS: a world's forces on several threads give the same numbers to the bit, bodies are
grouped by their vertices, and a bad value is one line."""

from __future__ import annotations

import numpy as np
import pytest

from slime import cli
from slime.bench.world import packed_world
from slime.physics import threads
from slime.physics.slime3d.slime_params import SlimeParams
from slime.physics.slime3d.world3d import World3D


def _run(world: World3D, frames: int) -> tuple[np.ndarray, ...]:
    """``frames`` frames of a world, poked, grabbed and dragged on the way: its final state (x, v,
    each body's rotation and volume)."""
    for frame in range(frames):
        if frame == 3:
            world.poke(1, world.x[:, world.bodies[1].start], (0.0, -200.0, 0.0))
        if frame == 5:
            world.grab(2, 0)
        if 5 <= frame < 10:
            world.drag_to((0.3, 1.5 + 0.1 * frame, 0.0))
        if frame == 10:
            world.release()
        world.step()
    return world.x.copy(), world.v.copy(), world.rotation.copy(), world.volumes()


@pytest.mark.parametrize("count", [2, 3, 5])
def test_a_world_on_several_threads_steps_to_the_same_bits(monkeypatch, count):
    # Packed in walls and touching: contacts, obstacles, the floor and the hand all run between
    # the threaded forces. Small groups are let through so that every body count splits.
    monkeypatch.setattr(threads, "MIN_GROUP_VERTICES", 1)
    serial = _run(packed_world(5, resolution=12, threads=1), 14)
    threaded = packed_world(5, resolution=12, threads=count)
    assert threaded._groups is not None and len(threaded._groups) == min(count, 5)
    for threaded_part, serial_part in zip(_run(threaded, 14), serial):
        assert np.array_equal(threaded_part, serial_part)


def test_bodies_are_grouped_by_their_vertices_each_once():
    rng = np.random.default_rng(7)
    for _ in range(200):
        counts = rng.integers(10, 20000, size=int(rng.integers(1, 40)))
        asked = int(rng.integers(1, 12))
        groups = threads.balanced_groups(counts, asked)
        # Every body in exactly one group, in order, none empty.
        assert groups[0][0] == 0 and groups[-1][1] == len(counts)
        assert all(a < b for a, b in groups) and all(groups[k][1] == groups[k + 1][0] for k in range(len(groups) - 1))
        assert len(groups) <= min(asked, len(counts), max(1, counts.sum() // threads.MIN_GROUP_VERTICES))
        # No group is more than its share by more than its largest body.
        share = counts.sum() / len(groups)
        assert all(counts[a:b].sum() <= share + counts.max() for a, b in groups), (counts, groups)
    # A world too small to gain keeps one group: a serial step.
    assert threads.balanced_groups([994] * 4, 2) == [(0, 4)]
    assert threads.balanced_groups([994] * 16, 2) == [(0, 8), (8, 16)]


def test_one_slime_or_one_thread_is_serial(monkeypatch):
    monkeypatch.setenv("SLIME_THREADS", "4")
    world = World3D()
    world.add_slime(SlimeParams(stacks=64, slices=64))
    assert world.threads == 4 and world._groups is None  # one body: nothing to split
    monkeypatch.delenv("SLIME_THREADS")
    assert packed_world(16)._groups is None  # unset: one thread


@pytest.mark.parametrize("value", ["two", "0", "1.5", "65", "-1"])
def test_a_bad_slime_threads_is_one_line_before_anything_runs(monkeypatch, capsys, tmp_path, value):
    monkeypatch.setenv("SLIME_THREADS", value)
    assert cli.main(["simulate", "slime", "--ticks", "1", "--output", str(tmp_path / "run.npz")]) == 2
    err = capsys.readouterr().err
    assert err == f"slime: error: SLIME_THREADS={value!r} is not a number of threads: a whole number from 1 to 64\n"
    assert not (tmp_path / "run.npz").exists()
    with pytest.raises(ValueError, match="threads='0' is not a number of threads"):
        World3D(threads=0)
