"""Shader files: #include with real line numbers, live reload through ShaderWatch (pixels read back
before and after an edit), a broken edit that keeps the last good picture, `slime render` with a
broken shader folder, and `slime shaders export`."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from helpers import new_screenshot, xdotool
from slime.app.render_world import HeadlessWorld
from slime.cli import main
from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams
from slime.render.shader_files import (ShaderError, ShaderFolder, ShaderWatch, compiler_messages, default_folder,
                                       set_uniform, splice)

SIZE = (96, 72)
MESSAGE = re.compile(r"^\S+:\d+: (error|warning)")


@pytest.fixture
def folder(tmp_path) -> Path:
    """A private, editable copy of the package's shaders."""
    ShaderFolder().export(tmp_path / "shaders")
    return tmp_path / "shaders"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def line_of(path: Path, fragment: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if fragment in line)


def test_splice_maps_every_line_back_through_include():
    source = splice(default_folder() / "slime.frag")
    spliced = source.text.splitlines()
    assert not any(line.lstrip().startswith("#include") for line in spliced)
    n = next(i for i, line in enumerate(spliced, 1) if line.startswith("float jelly_taps"))
    glsl = default_folder() / "light_shadow.glsl"
    assert source.where(n) == f"{_shown(glsl)}:{line_of(glsl, 'float jelly_taps')}"
    m = next(i for i, line in enumerate(spliced, 1) if "float thickness = v_thickness;" in line)
    frag = default_folder() / "slime.frag"
    assert source.where(m).endswith(f"slime.frag:{line_of(frag, 'float thickness = v_thickness;')}")
    assert {p.name for p in source.files} == {"slime.frag", "light_shadow.glsl"}


def _shown(path: Path) -> str:
    from slime.render.shader_files import display_name

    return display_name(path)


def test_include_cycle_and_missing_include_are_one_line_each(tmp_path):
    (tmp_path / "a.glsl").write_text('// a\n#include "b.glsl"\n')
    (tmp_path / "b.glsl").write_text('#include "a.glsl"\n')
    with pytest.raises(ShaderError, match=r"b\.glsl:1: error: #include cycle"):
        splice(tmp_path / "a.glsl")
    (tmp_path / "c.frag").write_text('#version 330\n\n#include "nope.glsl"\n')
    with pytest.raises(ShaderError) as info:
        splice(tmp_path / "c.frag")
    assert len(info.value.lines) == 1
    assert info.value.lines[0].endswith('c.frag:3: error: cannot #include "nope.glsl": no such file beside it')


def test_other_drivers_messages_map_too():
    source = splice(default_folder() / "slime.frag")
    glsl = line_of(default_folder() / "light_shadow.glsl", "caster = texture(u_light_pass, uv);")
    spliced = next(i for i, line in enumerate(source.text.splitlines(), 1) if "caster = texture(u_light_pass, uv);" in line)
    sources = {"fragment_shader": source}
    nvidia = f"fragment_shader\n===\n0({spliced}) : error C0000: syntax error\n"
    amd = f"fragment_shader\n===\nERROR: 0:{spliced}: 'r2' : redefinition\n"
    assert compiler_messages(nvidia, sources) == [f"{_shown(default_folder() / 'light_shadow.glsl')}:{glsl}: error C0000: syntax error"]
    assert compiler_messages(amd, sources) == [f"{_shown(default_folder() / 'light_shadow.glsl')}:{glsl}: error: 'r2' : redefinition"]


def test_error_in_an_included_file_names_that_file_and_line(ctx, folder):
    bad = line_of(folder / "light_shadow.glsl", "caster = texture(u_light_pass, uv);")
    edit(folder / "light_shadow.glsl", "caster = texture(u_light_pass, uv);", "caster = not_declared + texture(u_light_pass, uv);")
    with pytest.raises(ShaderError) as info:
        ShaderFolder(folder).program(ctx, "slime")
    lines = info.value.lines
    assert lines and all(MESSAGE.match(line) for line in lines), lines
    assert any(f"light_shadow.glsl:{bad}: error:" in line and "not_declared" in line for line in lines), lines


def test_an_error_only_a_variant_compiles_names_its_file_and_line(ctx, folder):
    # The four-tap branch alone, which the one-tap variant leaves out, is broken: the program and
    # that variant compile, the four-tap one reports the include's own line past the added defines.
    bad = line_of(folder / "light_shadow.glsl", "for (int i = 0; i < 4; ++i) sum += texture(map")
    edit(folder / "light_shadow.glsl", "for (int i = 0; i < 4; ++i) sum += texture(map",
         "for (int i = 0; i < 4; ++i) sum += not_declared + texture(map")
    shaders = ShaderFolder(folder)
    shaders.program(ctx, "floor_shadow", (("LIGHT_TAP_COUNT", 1),)).release()
    with pytest.raises(ShaderError) as info:
        shaders.program(ctx, "floor_shadow", (("LIGHT_SOLID", 1), ("LIGHT_TAP_COUNT", 4)))
    assert any(f"light_shadow.glsl:{bad}: error:" in line and "not_declared" in line for line in info.value.lines), \
        info.value.lines
    text = shaders.sources("floor_shadow", (("LIGHT_TAP_COUNT", 4),))["fragment_shader"].text.splitlines()
    assert text[0].startswith("#version") and text[1] == "#define LIGHT_TAP_COUNT 4"


def test_set_uniform_sends_a_changed_value_and_not_one_the_program_holds(ctx):
    program = ShaderFolder().program(ctx, "backdrop")
    try:
        set_uniform(program, "u_eye", (0.0, 1.0, 4.0))
        assert program["u_eye"].value == (0.0, 1.0, 4.0)
        program["u_eye"].value = (9.0, 9.0, 9.0)  # behind set_uniform's back: it holds what it sent
        set_uniform(program, "u_eye", (0.0, 1.0, 4.0))
        assert program["u_eye"].value == (9.0, 9.0, 9.0), "a value the program holds was sent again"
        set_uniform(program, "u_eye", (0.0, 2.0, 4.0))
        assert program["u_eye"].value == (0.0, 2.0, 4.0)
        matrix = np.eye(4, dtype="f4")
        set_uniform(program, "u_inv_view_proj", matrix)
        matrix[3, 0] = 2.0  # the same array, changed: sent again
        set_uniform(program, "u_inv_view_proj", matrix)
        assert np.frombuffer(program["u_inv_view_proj"].read(), "f4")[12] == 2.0
        set_uniform(program, "u_no_such_uniform", 1.0)  # dropped by the compiler: nothing to set
    finally:
        program.release()


def magenta(pixels: np.ndarray) -> int:
    rgb = pixels.astype(int)
    return int(np.sum((rgb[..., 0] > 200) & (rgb[..., 1] < 50) & (rgb[..., 2] > 200)))


def test_live_reload_redraws_the_slime_and_a_broken_edit_keeps_the_last_picture(ctx, folder):
    scene = HeadlessWorld(SlimeBody(SlimeParams(stacks=12, slices=12)), size=SIZE, ctx=ctx, samples=0, shaders=folder)
    said = []
    watch = ShaderWatch(folder, [scene.renderer], interval=0.0, settle=0.0, report=said.append)
    try:
        before = scene.draw()
        assert magenta(before) == 0
        assert watch.check() is False  # nothing changed yet

        # The jelly painted one solid colour.
        edit(folder / "slime.frag", "void main() {", "void main() {\n    f_color = vec4(1.0, 0.0, 1.0, 1.0);\n    return;")
        assert watch.check() is True and watch.errors == []
        solid = scene.draw()
        assert magenta(solid) > 200, "the edited fragment shader did not reach the screen"
        assert watch.reloads == 1

        # A typo: the last good programs keep drawing, the message names the real file and line.
        good = (folder / "slime.frag").read_text()
        typo_line = line_of(folder / "slime.frag", "float thickness = v_thickness;")
        edit(folder / "slime.frag", "float thickness = v_thickness;", "float thickness = v_thickness")
        assert watch.check() is True
        assert np.array_equal(scene.draw(), solid)
        assert watch.errors and all(MESSAGE.match(line) for line in watch.errors), watch.errors
        assert any(re.search(rf"slime\.frag:{typo_line + 1}: error", line) for line in watch.errors), watch.errors
        assert said[-len(watch.errors):] == watch.errors  # the same lines went to the terminal

        # Fixed, then broken inside the included file: reported with light_shadow.glsl's own line.
        (folder / "slime.frag").write_text(good)
        assert watch.check() is True and watch.errors == []
        glsl_line = line_of(folder / "light_shadow.glsl", "caster = texture(u_light_pass, uv);")
        edit(folder / "light_shadow.glsl", "caster = texture(u_light_pass, uv);", "caster = texture(u_light_pass, uv) + oops;")
        assert watch.check() is True
        assert any(f"light_shadow.glsl:{glsl_line}: error" in line for line in watch.errors), watch.errors
        assert np.array_equal(scene.draw(), solid)
        assert watch.check(force=True) is True and watch.errors  # F5 tries again, still broken
    finally:
        scene.release()


def test_live_reload_redraws_a_2d_scene(ctx, folder):
    from slime.app.render_scene import SceneFrames
    from slime.scenes import load_scene

    scene = load_scene("sandbox")
    painter = SceneFrames(ctx, (240, 180), shaders=folder)
    watch = ShaderWatch(folder, [painter.renderer], interval=0.0, settle=0.0, report=lambda line: None)
    try:
        scene.step()
        before = painter.draw(scene)[..., :3]
        edit(folder / "draw2d_circle.frag", "    f_color = vec4(v_color.rgb, v_color.a * coverage);",
             "    f_color = vec4(1.0, 0.0, 1.0, coverage);")
        assert watch.check() is True and watch.errors == []
        after = painter.draw(scene)[..., :3]
        assert magenta(before) == 0 and magenta(after) > 20
    finally:
        painter.release()


def test_render_with_a_broken_shader_folder_prints_file_line_messages(folder, tmp_path, capsys):
    bad = line_of(folder / "light_shadow.glsl", "caster = texture(u_light_pass, uv);")
    edit(folder / "light_shadow.glsl", "caster = texture(u_light_pass, uv);", "caster = nope + texture(u_light_pass, uv);")
    status = main(["render", "--shaders", str(folder), "--output", str(tmp_path / "x.png"), "--size", "64x48",
                   "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert err and all(MESSAGE.match(line) for line in err), err
    assert any(f"light_shadow.glsl:{bad}: error" in line for line in err)
    assert not (tmp_path / "x.png").exists()

    status = main(["render", "springs", "--shaders", str(tmp_path / "missing"), "--output", str(tmp_path / "y.png")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "no such shader folder" in err[0]


def test_export_round_trip_renders_the_same_picture(tmp_path, capsys):
    copy = tmp_path / "mine"
    assert main(["shaders", "export", str(copy)]) == 0
    originals = sorted(p.name for p in default_folder().iterdir() if p.suffix in (".vert", ".frag", ".glsl"))
    assert sorted(p.name for p in copy.iterdir()) == originals
    for name in originals:
        assert (copy / name).read_bytes() == (default_folder() / name).read_bytes()

    # A folder with files in it is refused, in one line, unless --force.
    (copy / "slime.frag").write_text("// mine\n")
    capsys.readouterr()
    assert main(["shaders", "export", str(copy)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not empty" in err[0] and "--force" in err[0]
    assert (copy / "slime.frag").read_text() == "// mine\n"
    assert main(["shaders", "export", str(copy), "--force"]) == 0
    assert (copy / "slime.frag").read_bytes() == (default_folder() / "slime.frag").read_bytes()
    assert main(["shaders", "export", str(tmp_path / "no" / "such")]) == 2

    for args in ([], ["springs", "--frames", "3"]):
        shots = []
        for extra in ([], ["--shaders", str(copy)]):
            out = tmp_path / f"shot{len(shots)}.png"
            assert main(["render", *args, "--size", "80x60", "--output", str(out), "--no-progress", *extra]) == 0
            shots.append(np.asarray(Image.open(out)))
        assert np.array_equal(*shots)


@pytest.mark.slow
def test_demo_window_reloads_on_save_and_on_f5(xvfb, folder, tmp_path):
    from demo_process import Demo

    demo = Demo(xvfb, tmp_path, shaders=str(folder), stacks=12, slices=12)
    try:
        demo.focus()
        demo.screenshot()  # the window is drawing: its watch has read the files as they were
        typo_line = line_of(folder / "slime.frag", "float thickness = v_thickness;")
        edit(folder / "slime.frag", "float thickness = v_thickness;", "float thickness = v_thickness")
        broken = demo.wait_for(lambda: [ln for ln in demo.lines if re.search(rf"slime\.frag:{typo_line + 1}: error", ln)],
                               "the compiler's message on the terminal")
        assert len(broken) == 1
        assert demo.proc.poll() is None  # still running on the last good programs
        demo.xdo("key", "F5")  # tries again: the same message once more
        demo.wait_for(lambda: len([ln for ln in demo.lines if re.search(rf"slime\.frag:{typo_line + 1}: error", ln)]) == 2,
                      "F5's second try")
        edit(folder / "slime.frag", "float thickness = v_thickness", "float thickness = v_thickness;")
        demo.wait_for(lambda: [ln for ln in demo.lines if ln.startswith("slime: reloaded slime, backdrop, present, obstacle")],
                      "the reload after the fix")
        assert not any("Traceback" in ln for ln in demo.lines)
        demo.quit()
    finally:
        demo.stop()


@pytest.mark.slow
def test_demo_window_survives_a_symlink_loop_and_a_fifo_in_its_shaders(xvfb, folder, tmp_path):
    from demo_process import Demo

    demo = Demo(xvfb, tmp_path, shaders=str(folder), stacks=12, slices=12)
    glsl = folder / "light_shadow.glsl"
    good = glsl.read_bytes()
    try:
        demo.focus()
        demo.screenshot()  # drawing: its watch has read the files as they were
        for kind in ("loop", "fifo"):
            words = _spoil(glsl, kind)
            said = "shaders/light_shadow.glsl: error: cannot read it"  # named from the demo's folder
            demo.wait_for(lambda: [ln for ln in demo.lines if ln.startswith(said) and words in ln],
                          f"the {kind} reported")
            assert demo.proc.poll() is None
            assert demo.screenshot().std() > 1.0  # still drawing, on the last good programs
            glsl.unlink()
            glsl.write_bytes(good)
            demo.wait_for(lambda: len([ln for ln in demo.lines if ln.startswith("slime: reloaded")]) >= 1,
                          "the reload after the fix")
            demo.lines.clear()
        assert not any("Traceback" in ln for ln in demo.lines)
        demo.quit()
    finally:
        demo.stop()


SCENE_WINDOW = """
import sys
sys.path.insert(0, {tests!r})
from fakes import DemoScene
from slime.app.scene_window import run_scene_instance
sys.exit(run_scene_instance(DemoScene(), size=(480, 360), window="pyglet", shaders={shaders!r}))
"""


@pytest.mark.slow
def test_scene_window_redraws_an_edited_shader_and_reports_a_broken_one(xvfb, folder, tmp_path):
    env = {**os.environ, "DISPLAY": xvfb}
    env.pop("WAYLAND_DISPLAY", None)
    script = SCENE_WINDOW.format(tests=str(Path(__file__).resolve().parents[1] / "support"), shaders=str(folder))
    app = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def xdo(*args):
        return xdotool(xvfb, *args)

    def screenshot() -> np.ndarray:
        known = set((tmp_path / "out").glob("slime-demo-*.png"))
        xdo("key", "p")
        return np.asarray(Image.open(new_screenshot(tmp_path / "out", known)).convert("RGB"))

    try:
        found = xdo("search", "--sync", "--onlyvisible", "--name", "slime demo scene")
        assert found.returncode == 0, found.stderr
        xdo("mousemove", "--window", found.stdout.split()[0], "240", "60")  # keyboard focus follows the pointer
        time.sleep(0.5)
        assert magenta(screenshot()) == 0
        edit(folder / "draw2d_circle.frag", "    f_color = vec4(v_color.rgb, v_color.a * coverage);",
             "    f_color = vec4(1.0, 0.0, 1.0, coverage);")
        time.sleep(0.8)  # the watch looks every quarter second
        assert magenta(screenshot()) > 100, "the saved shader did not reach the window"
        edit(folder / "draw2d_circle.frag", "coverage);", "coverage)")
        time.sleep(0.8)
        assert magenta(screenshot()) > 100, "a broken shader must leave the last good one drawing"
        xdo("key", "F5")
        time.sleep(0.5)
        xdo("key", "Escape")
        out, err = app.communicate(timeout=20)
        assert app.returncode == 0, err
        broken = [line for line in err.splitlines() if "draw2d_circle.frag:" in line and ": error:" in line]
        assert len(broken) == 2, err  # once on save, once more on F5
        assert "Traceback" not in err
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()


def test_error_box_sits_at_the_bottom_and_wraps_to_the_width(ctx):
    from slime.app.window_common import draw_shader_errors
    from slime.render.images import read_rgba
    from slime.render.text import TextOverlay

    text = TextOverlay(ctx)
    fbo = ctx.simple_framebuffer((320, 240), components=4)
    try:
        heights = []
        for errors in (["a.frag:1: error: short"], ["a.frag:1: error: " + "a long message " * 12]):
            fbo.use()
            fbo.clear(0.0, 0.0, 0.0, 1.0)
            draw_shader_errors(text, errors, (320, 240))
            lit = read_rgba(fbo)[..., :3].max(axis=2) > 128  # the box is near-white
            rows, cols = np.nonzero(lit)
            assert rows.max() >= 240 - 12 and cols.max() < 320 - 4  # on the bottom edge, inside the width
            heights.append(rows.max() - rows.min())
        assert heights[1] > heights[0] + 20  # the long message wrapped onto more lines
        fbo.use()
        fbo.clear(0.0, 0.0, 0.0, 1.0)
        draw_shader_errors(text, [], (320, 240))
        assert read_rgba(fbo)[..., :3].max() == 0  # no errors, no box
    finally:
        fbo.release()
        text.release()


def test_demo_with_shaders_that_do_not_compile_exits_2_with_file_lines(ctx, folder, capsys):
    from slime.app.demo import run_demo

    bad = line_of(folder / "slime.frag", "float thickness = v_thickness;")
    edit(folder / "slime.frag", "float thickness = v_thickness;", "float thickness = v_thickness + nope;")
    assert run_demo(window="headless", size=(160, 120), frames=2, stacks=8, slices=8, shaders=folder) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert any(f"slime.frag:{bad}: error" in line and "nope" in line for line in err), err
    assert all(MESSAGE.match(line) for line in err[:-1]) and err[-1].startswith("slime: ")


# --- shader files that are not plain, small files, and saves caught halfway ----------------------------

@contextmanager
def _within(seconds: int):
    """Fail, instead of hanging the test run, where the code blocks (a FIFO opened with no writer)."""
    def hung(signum, frame):
        raise TimeoutError(f"still blocked after {seconds} s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _spoil(path: Path, kind: str) -> str:
    """Make ``path`` a file no shader reader may open or read through; the words its error says."""
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
        return "a FIFO"
    if kind == "dev-zero":
        os.symlink("/dev/zero", path)
        return "character device"
    if kind == "loop":
        os.symlink(path.name, path)
        return "symbolic links"
    with open(path, "wb") as f:  # sparse: past the limit without writing a megabyte
        f.truncate(2 * 1024 * 1024)
    return "2 MiB"


SPOILED = ["fifo", "dev-zero", "loop", "huge"]


@pytest.mark.parametrize("kind", SPOILED)
@pytest.mark.parametrize("name", ["slime.frag", "light_shadow.glsl"])
def test_a_special_or_huge_shader_file_is_one_line_and_the_window_keeps_its_program(ctx, folder, kind, name):
    scene = HeadlessWorld(SlimeBody(SlimeParams(stacks=12, slices=12)), size=SIZE, ctx=ctx, samples=0, shaders=folder)
    said = []
    watch = ShaderWatch(folder, [scene.renderer], interval=0.0, settle=0.0, report=said.append)
    try:
        before = scene.draw()
        words = _spoil(folder / name, kind)
        with _within(20):
            assert watch.check() is True
            assert watch.check(force=True) is True  # F5 on it too
        assert np.array_equal(scene.draw(), before)  # the last good programs
        assert watch.errors and watch.errors[0].startswith(f"{_shown(folder / name)}: error: cannot read it")
        assert words in watch.errors[0], watch.errors
        with _within(20), pytest.raises(ShaderError) as info:
            splice(folder / name)
        assert len(info.value.lines) == 1 and words in info.value.lines[0]
    finally:
        scene.release()


@pytest.mark.parametrize("kind", SPOILED)
def test_render_with_a_special_shader_file_is_one_line(folder, tmp_path, capsys, kind):
    words = _spoil(folder / "light_shadow.glsl", kind)
    with _within(60):
        status = main(["render", "--shaders", str(folder), "--output", str(tmp_path / "x.png"), "--size", "64x48",
                       "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1, err
    assert err[0].startswith(_shown(folder / "light_shadow.glsl")) and words in err[0]
    assert not (tmp_path / "x.png").exists()


def test_shaders_on_a_folder_without_shaders_is_one_line_naming_export(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not a shader\n")
    status = main(["render", "--shaders", str(tmp_path), "--output", str(tmp_path / "x.png"), "--size", "64x48"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1, err
    assert "no shader files" in err[0] and f"slime shaders export {_shown(tmp_path)}" in err[0]
    assert not (tmp_path / "x.png").exists()


def test_a_reload_waits_for_the_save_to_finish_and_always_names_the_file(ctx, folder):
    scene = HeadlessWorld(SlimeBody(SlimeParams(stacks=12, slices=12)), size=SIZE, ctx=ctx, samples=0, shaders=folder)
    now = [0.0]
    said = []
    watch = ShaderWatch(folder, [scene.renderer], interval=0.0, settle=30.0, clock=lambda: now[0],
                        report=said.append)
    frag = folder / "slime.frag"
    solid = frag.read_text().replace("void main() {",
                                     "void main() {\n    f_color = vec4(1.0, 0.0, 1.0, 1.0);\n    return;")
    try:
        before = scene.draw()
        frag.write_text("")  # the editor truncates...
        assert watch.check() is False
        now[0] = 10.0
        frag.write_text(solid[: len(solid) // 2])  # ...writes part...
        assert watch.check() is False
        now[0] = 20.0
        frag.write_text(solid)  # ...and the rest
        assert watch.check() is False and said == [] and watch.reloads == 0
        now[0] = 49.0
        assert watch.check() is False
        now[0] = 51.0
        assert watch.check() is True and watch.errors == [] and watch.reloads == 1
        assert magenta(scene.draw()) > 200 and magenta(before) == 0

        frag.write_text("")  # emptied for good: compiled at last, and the message names the file
        now[0] = 100.0
        assert watch.check() is False
        now[0] = 200.0
        assert watch.check() is False
        now[0] = 401.0
        assert watch.check() is True
        assert watch.errors and all(line.startswith(f"{_shown(frag)}:1: ") for line in watch.errors), watch.errors
        assert not any(line.startswith("?") for line in said)
        assert magenta(scene.draw()) > 200  # still the last good program
    finally:
        scene.release()


class _Owner:
    """What ShaderWatch reloads: a renderer's context, its programs' names and the programs it uses."""

    def __init__(self, ctx, names):
        self.ctx, self.shader_names, self.programs = ctx, tuple(names), None

    def use_programs(self, programs):
        self.programs = programs


def test_a_shader_that_compiles_but_turns_a_uniform_into_another_type_is_refused(ctx, folder, tmp_path, capsys):
    # Compiles and links, but the renderer sets u_ior as a float: refused as a compile error is.
    edit(folder / "slime.vert", "uniform float u_ior;", "uniform vec3 u_ior;")
    edit(folder / "slime.vert", "1.0 / u_ior)", "1.0 / u_ior.x)")
    declared = line_of(folder / "slime.vert", "uniform vec3 u_ior;")
    status = main(["render", "--shaders", str(folder), "--output", str(tmp_path / "x.png"), "--size", "64x48",
                   "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1, err
    assert err[0].startswith(f"{_shown(folder / 'slime.vert')}:{declared}: error: uniform u_ior is a vec3"), err
    assert not (tmp_path / "x.png").exists()
    # In a window the last good programs keep drawing and the line is shown.
    owner = _Owner(ctx, ["slime"])
    watch = ShaderWatch(folder, [owner], interval=0.0, settle=0.0, report=lambda line: None)
    assert watch.check(force=True) is True
    assert owner.programs is None and watch.errors == err


# Declarations a shader edit may turn into another type, and the types it may turn them into.
_TYPES = ("float", "vec2", "vec3", "vec4", "int", "mat3", "mat4")
_DECLARED = re.compile(r"^(\s*)(uniform|in)\s+(float|vec2|vec3|vec4|int|mat3|mat4)\s+(\w+)\s*;", re.M)


@pytest.mark.parametrize("seed", range(8))
def test_seeded_type_edits_are_a_file_line_error_or_programs_that_fit(ctx, folder, seed):
    # Whatever declaration of whatever program changes type, loading is refused in file:line lines
    # (the compiler's or the fit's) or gives programs whose inputs are the package's types.
    rng = np.random.default_rng(7100 + seed)
    names = sorted({p.stem for p in folder.glob("*.vert")})
    for _ in range(3):
        name = names[rng.integers(len(names))]
        path = folder / (name + (".vert", ".frag")[rng.integers(2)])
        found = list(_DECLARED.finditer(path.read_text()))
        if not found:
            continue
        match = found[rng.integers(len(found))]
        other = [t for t in _TYPES if t != match.group(3)][rng.integers(len(_TYPES) - 1)]
        text = path.read_text()
        path.write_text(text[:match.start(3)] + other + text[match.end(3):])
        try:
            built = ShaderFolder(folder).programs(ctx, [name])
        except ShaderError as error:
            assert error.lines and all(MESSAGE.match(line) for line in error.lines), error.lines
        else:
            from slime.render.shader_files import _inputs, _reference

            reference = _reference(ctx, name)
            for member, (kind, gl_type) in _inputs(built[name]).items():
                assert member not in reference or reference[member][1] == gl_type, (seed, path.name, member)
            built[name].release()
        path.write_text(text)


def test_includes_are_bounded_as_they_are_read(tmp_path, monkeypatch):
    # A chain past the nesting limit, a fan-out that multiplies at every level, a big file included
    # many times: each one ShaderError line at the include that passes the limit, after reading no
    # more than the limits let through (counted reads and bytes, not seconds: the machine is shared).
    from slime.limits import SHADER_INCLUDE_DEPTH, SHADER_INCLUDES, SHADER_SPLICED_BYTES
    from slime.render import shader_files

    reads = []
    read = shader_files.read_shader_file
    monkeypatch.setattr(shader_files, "read_shader_file", lambda path: reads.append(len(data := read(path))) or data)
    chain = tmp_path / "chain"
    chain.mkdir()
    for k in range(1000):
        (chain / f"c{k}.glsl").write_text(f'#include "c{k + 1}.glsl"\n' if k < 999 else "float x;\n")
    fan = tmp_path / "fan"
    fan.mkdir()
    for k in range(10):
        (fan / f"f{k}.glsl").write_text("".join(f'#include "f{k + 1}.glsl"\n' for _ in range(10)) if k < 9
                                        else "float y;\n")
    big = tmp_path / "big"
    big.mkdir()
    (big / "part.glsl").write_text(("float z; // " + "x" * 88 + "\n") * 9000)  # 900 kB
    (big / "all.glsl").write_text('#include "part.glsl"\n' * 200)
    for start, words, most_reads in ((chain / "c0.glsl", "#include nested 32 deep", SHADER_INCLUDE_DEPTH + 1),
                                     (fan / "f0.glsl", "#includes in one shader", SHADER_INCLUDES + 1),
                                     (big / "all.glsl", "passes 1024 kB", SHADER_SPLICED_BYTES // 900_000 + 2)):
        reads.clear()
        with pytest.raises(ShaderError) as info:
            splice(start)
        assert len(reads) <= most_reads and sum(reads) <= SHADER_SPLICED_BYTES + max(reads), (len(reads), sum(reads))
        assert len(info.value.lines) == 1 and words in info.value.lines[0], info.value.lines
        assert MESSAGE.match(info.value.lines[0]), info.value.lines
    # Within the limits, as deep as a shader could want.
    for k in range(20):
        (chain / f"d{k}.glsl").write_text(f'#include "d{k + 1}.glsl"\n' if k < 19 else "float w;\n")
    assert splice(chain / "d0.glsl").text == "float w;\n"
