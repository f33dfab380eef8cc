"""Compiling the physics: where the kernels are cached, what the first run says, and that an edit
of any kernel's source makes a new cache."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import slime.physics.compiled as compiled
from slime import cli
from slime.physics import warmup


def test_the_cache_is_named_after_the_kernels_sources(tmp_path, monkeypatch):
    here = compiled.source_hash()
    assert compiled.CACHE.name == f"slime-{here}"
    # Another source of a kernel, another folder: numba alone would load a caller compiled with the
    # old callee.
    package = Path(compiled.__file__).parent.parent
    fake = tmp_path / "physics"
    for path in (package / "physics").rglob("*.py"):
        target = tmp_path / path.relative_to(package)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    monkeypatch.setattr(compiled, "_HERE", fake)
    assert compiled.source_hash() == here
    # The obstacle kinds' contact kernels count too.
    box = fake / "slime3d" / "obstacle_contacts.py"
    box.write_text(box.read_text().replace("depth[hits] = abs(delta)", "depth[hits] = 2.0 * abs(delta)"))
    assert "2.0 * abs(delta)" in box.read_text()
    assert compiled.source_hash() != here
    box.write_text(box.read_text().replace("2.0 * abs(delta)", "abs(delta)"))
    assert compiled.source_hash() == here
    tension = fake / "slime3d" / "tension.py"
    tension.write_text(tension.read_text().replace("scale = -tension / mass[k]", "scale = -2.0 * tension / mass[k]"))
    assert "2.0 * tension" in tension.read_text()
    assert compiled.source_hash() != here
    # A file without kernels (the world's bookkeeping) does not count.
    world = fake / "slime3d" / "world3d.py"
    before = compiled.source_hash()
    world.write_text(world.read_text() + "\n# a comment\n")
    assert compiled.source_hash() == before
    # The declarations do: they make the model's columns, the types the kernels compile for.
    declared = fake / "parameters.py"
    declared.write_text(declared.read_text() + "\n# a comment\n")
    assert compiled.source_hash() != before


def test_the_cache_goes_where_it_can_be_written(tmp_path, monkeypatch):
    # Never beside the package (a read-only site-packages), first the user's cache folder.
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = compiled.cache_folder()
    assert folder.parent == tmp_path / "cache" / "slime" / "numba" and folder.is_dir()
    assert Path(compiled.__file__).parent not in folder.parents
    # A cache home that cannot hold a folder (here: a file) falls back to the temporary folder.
    (tmp_path / "blocked").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "blocked"))
    monkeypatch.setattr(compiled.tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    folder = compiled.cache_folder()
    assert folder.is_dir() and (tmp_path / "tmp") in folder.parents
    # NUMBA_CACHE_DIR, when set, is used (with the sources' folder inside).
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert compiled.cache_folder() == tmp_path / "numba" / f"slime-{compiled.source_hash()}"


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_first_run_says_it_compiles_once(tmp_path, monkeypatch):
    mark = tmp_path / "compiled"
    monkeypatch.setattr(warmup, "_MARK", mark)
    ran = []
    monkeypatch.setattr(warmup, "stages", lambda: [("one", lambda: ran.append(1)), ("two", lambda: ran.append(2))])
    out = _Terminal()
    cli.compile_physics(out)
    assert ran == [1, 2] and mark.exists()
    assert out.getvalue().splitlines()[0] == "slime: compiling the physics, first run only (about 20 s)"
    again = _Terminal()
    cli.compile_physics(again)
    assert ran == [1, 2] and again.getvalue() == ""


def test_another_copy_of_the_same_sources_compiles_and_says_so(tmp_path, monkeypatch):
    # Same sources, same cache folder; but numba keeps each copy's kernels apart (by the folder
    # they are read from), so a copy whose kernels were never compiled must compile first, saying
    # so, and not compile silently in every process that steps the physics.
    mark = tmp_path / "compiled"
    mark.write_text("/elsewhere/slime/physics\n")
    monkeypatch.setattr(warmup, "_MARK", mark)
    ran = []
    monkeypatch.setattr(warmup, "stages", lambda: [("one", lambda: ran.append(1))])
    out = _Terminal()
    cli.compile_physics(out)
    assert ran == [1] and out.getvalue().startswith("slime: compiling the physics, first run only")
    assert mark.read_text().splitlines() == ["/elsewhere/slime/physics", str(Path(warmup.__file__).resolve().parent)]
    again = _Terminal()
    cli.compile_physics(again)
    assert ran == [1] and again.getvalue() == ""


def test_stages_the_second_process_could_not_run_are_run_here(tmp_path, monkeypatch):
    monkeypatch.setattr(warmup, "_MARK", tmp_path / "compiled")
    ran = []
    monkeypatch.setattr(warmup, "stages", lambda: [("one", lambda: ran.append(1)), ("two", lambda: ran.append(2))])
    failing = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    monkeypatch.setattr(warmup, "start_beside", lambda stages: failing)
    cli.compile_physics(io.StringIO())
    assert ran == [1, 2] and failing.returncode == 3
    # One that hangs is stopped after the timeout, and its stages run here too.
    (tmp_path / "compiled").unlink()
    hanging = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    monkeypatch.setattr(warmup, "start_beside", lambda stages: hanging)
    monkeypatch.setattr(warmup, "BESIDE_TIMEOUT", 0.5)
    cli.compile_physics(io.StringIO())
    assert ran == [1, 2, 1, 2] and hanging.returncode is not None and hanging.returncode != 0


def test_a_force_that_does_not_compile_is_numbas_message_and_a_hint_not_a_traceback(tmp_path, monkeypatch, capsys):
    import numba

    def broken_force():
        return undefined_name  # noqa: F821 (the student's mistake)

    monkeypatch.setattr(warmup, "_MARK", tmp_path / "compiled")
    monkeypatch.setattr(warmup, "stages", lambda: [("the forces", lambda: numba.njit(broken_force)())])
    assert cli.main(["simulate", "slime", "--ticks", "1", "--output", str(tmp_path / "run.npz")]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[1] == "slime: error: the physics does not compile (numba says):", err
    assert "NameError: name 'undefined_name' is not defined" in err  # what, in numba's words
    assert "NUMBA_DISABLE_JIT=1" in err and "Traceback" not in err
    assert not (tmp_path / "run.npz").exists() and not (tmp_path / "compiled").exists()


def test_the_later_stages_run_in_a_second_process():
    (_, first), *rest = warmup.stages()
    beside = warmup.start_beside(rest)
    assert beside is not None and beside.wait(timeout=120) == 0
    assert warmup.start_beside([("a stand-in", lambda: None)]) is None


_PROGRAMS = """
import importlib, sys
from numba.core.registry import CPUDispatcher
from slime.physics import warmup

def signatures():
    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("slime") and module is not None:
            for value in vars(module).values():
                if isinstance(value, CPUDispatcher):
                    key = value.py_func.__module__ + "." + value.py_func.__qualname__
                    found[key] = set(map(str, value.signatures))
    return found

for _, run in warmup.stages():
    run()
before = signatures()
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
body = SlimeBody(SlimeParams(stacks=8, slices=8))
body.poke(body.positions[0], (0.0, -100.0, 0.0)); body.step()
body.grab(3); body.drag_to((1.0, 2.0, 0.0)); body.step(); body.release(); body.step()
body.press(body.positions[5], (0.0, -1.0, 0.0)); body.step(); body.squash(); body.step()
from slime.scenes.world_scene import load_world
for scene in ("pile", "duel", "ramp"):
    world = load_world(scene).world
    world.step(); world.poke(0, world.x[:, 0], (0.0, -100.0, 0.0)); world.step()
    world.grab(1, 0); world.drag_to((0.0, 3.0, 0.0)); world.step(); world.release(); world.step()
from slime.bench.world import packed_world
threaded = packed_world(9, threads=2)
assert threaded._groups is not None
threaded.step()
from slime.scenes import SCENES
for module, factory in SCENES.values():
    scene = getattr(importlib.import_module(module), factory)()
    for _ in range(3):
        scene.step()
after = signatures()
print(sorted(key for key in after if after[key] - before.get(key, set())))
"""


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is compiled")
def test_the_stages_compile_every_kernel_the_programs_call():
    # After the first run's stages, a slime poked, dragged, pressed and squashed, the bundled 3D
    # scenes, a world on two threads, and every 2D scene call no kernel with types the stages did not compile: nothing
    # compiles after the first run said it was done.
    done = subprocess.run([sys.executable, "-c", _PROGRAMS], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout


_STEP_PARTS = _PROGRAMS[:_PROGRAMS.index("for _, run in warmup.stages():")] + """
import numba
from numba.core.compiler import run_frontend
from numba.core.typed_passes import type_inference_stage
from slime.physics.slime3d import step, world3d
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams

warmup._step_parts()
parts = signatures()
# The compiled step's calls, typed as numba types them inside it: type inference alone, each kernel
# it calls loaded from the cache (compiled there by conftest) for the types it is called with.
world = SlimeBody(SlimeParams(stacks=4, slices=4)).world
calls = []
world3d.slime_substeps, real = (lambda *args: calls.append(args)), world3d.slime_substeps
world.step()
world3d.slime_substeps = real

def infer(kernel, types):
    type_inference_stage(kernel.typingctx, kernel.targetctx, run_frontend(kernel.py_func), types, None)

infer(step.slime_substeps, tuple(numba.typeof(arg) for arg in calls[0]))
infer(step.body_accelerations, step.body_accelerations.signatures[0])
compiled = signatures()
print(sorted(key for key, found in parts.items() if found and compiled[key] != found))
print(sum(bool(found) for found in parts.values()), "add_shear" in str([k for k, f in parts.items() if f]))
"""


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is compiled")
def test_the_step_parts_called_from_python_are_the_kernels_the_compiled_step_calls():
    # The first run's second process compiles the step's parts called from Python; the compiled
    # step must then find each of them in the cache, for the types it calls them with: a part
    # compiled for other types (an int where numba passes a float, an array of another layout)
    # would be compiled again, and the second process's work wasted.
    done = subprocess.run([sys.executable, "-c", _STEP_PARTS], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    mismatched, counted = done.stdout.strip().splitlines()
    assert mismatched == "[]", mismatched
    count, shear = counted.split()
    assert int(count) >= 10 and shear == "True", counted


def test_an_uncompiled_run_compiles_nothing_and_marks_nothing(tmp_path, monkeypatch):
    # NUMBA_DISABLE_JIT=1 (docs/2's way to a normal traceback) runs the kernels as Python: no
    # stage, no line, and no mark, so that the next compiled run still compiles first, saying so.
    monkeypatch.setattr(warmup, "_MARK", tmp_path / "compiled")
    monkeypatch.setattr(compiled.numba.config, "DISABLE_JIT", True)
    monkeypatch.setattr(warmup, "stages", lambda: pytest.fail("compiled with the JIT off"))
    out = _Terminal()
    cli.compile_physics(out)
    warmup.mark_compiled()
    assert out.getvalue() == "" and not (tmp_path / "compiled").exists()
    monkeypatch.setattr(compiled.numba.config, "DISABLE_JIT", False)
    assert not warmup.is_compiled()


def test_the_caches_used_longest_ago_are_removed_after_a_compile(tmp_path):
    # Each edit of a force compiles into a new folder: a term of edits would fill the disk.
    root = tmp_path / "numba"
    current = root / "slime-current"
    current.mkdir(parents=True)
    for age in range(6):
        folder = root / f"slime-old{age}"
        folder.mkdir()
        (folder / "kernel.nbi").write_bytes(b"x")
        if age % 2 == 0:  # used: its mark's time; never finished: the folder's
            (folder / "compiled").write_text("")
            os.utime(folder / "compiled", (1000.0 * (10 - age),) * 2)
        else:
            os.utime(folder, (1000.0 * (10 - age),) * 2)
    (root / "other-project").mkdir()
    (root / "slime-link").symlink_to(root / "other-project", target_is_directory=True)
    (root / "slime-file").write_text("not a cache")
    removed = warmup.prune_caches(current, keep=4)
    assert sorted(p.name for p in removed) == ["slime-old3", "slime-old4", "slime-old5"]
    assert sorted(p.name for p in root.iterdir()) == ["other-project", "slime-current", "slime-file", "slime-link",
                                                      "slime-old0", "slime-old1", "slime-old2"]


def test_every_stage_runs_on_the_compiled_physics():
    # The stages themselves run (compiled already by conftest, so this is quick) without error.
    for name, run in warmup.stages():
        run()


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is compiled")
def test_kernels_are_cached_in_the_cache_folder():
    assert any(compiled.CACHE.rglob("*.nbi")), "no kernel was cached"
    assert not any(Path(compiled.__file__).parent.rglob("*.nbi")), "a kernel was cached beside its source"


def test_a_window_with_no_display_says_so_before_compiling(monkeypatch, capsys):
    from slime.render import context

    monkeypatch.setattr(warmup, "is_compiled", lambda: False)
    monkeypatch.setattr(warmup, "stages", lambda: pytest.fail("compiled for a window that cannot open"))
    monkeypatch.setattr(context, "has_display", lambda: False)
    monkeypatch.delenv("DISPLAY", raising=False)
    assert cli.main([]) == 2
    assert "no display" in capsys.readouterr().err


def test_kernels_compile_at_llvm_level_2_unless_the_user_or_the_program_chose():
    code = "from slime.physics import compiled; import numba; print(int(numba.config.OPT), compiled.CACHE.name)"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_OPT"}

    def level_and_cache(program: str, **extra) -> tuple[str, str]:
        done = subprocess.run([sys.executable, "-c", program], env={**env, **extra}, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        return tuple(done.stdout.split())

    default = level_and_cache(code)
    assert default[0] == "2"
    chosen = level_and_cache(code, NUMBA_OPT="3")
    assert chosen[0] == "3" and chosen[1] != default[1]  # code compiled at one level is never loaded at another
    # A program that imported numba first keeps numba's own configuration.
    assert level_and_cache("import numba; " + code) == chosen
