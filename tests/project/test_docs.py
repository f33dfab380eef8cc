"""docs/ as a student follows it: every ```python block runs, every `slime ...` line parses, every
script in examples/ runs (short, headless) and writes what it says, and the links resolve.

A result the text states (a dent, a drift, a frame, a count) is printed by the code block beside it,
and the comment right after that block says where:

    <!-- checks: prints "the top dents {soft} m"; states "{stiff} m against {soft} m" -->

Each ``prints`` pattern must match the block's output, binding each ``{name}`` to the number printed
there; each ``states`` pattern must then occur in the page (prose or a code comment) with, in place
of ``{name}``, a number equal to the printed one to the precision the page writes it (0.89 holds
0.885 to 0.895; 5 holds 4.5 to 5.5). A ```python block runs as the tests run every block; a ```sh
block's `python examples/...` lines run as a student types them."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import missing
from doc_blocks import check_command_lines, check_stated_numbers, checked_blocks, command_lines, python_blocks
from helpers import gl_or_missing

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md"))
EXAMPLES = ROOT / "examples"
# docs/2's blocks are an edit of the package and what runs after it: tests/project/test_add_a_force.py
# applies them to a copy of the package and runs them there.
EDITS = ROOT / "docs" / "2-add-a-force.md"
# A block that steps the finest mesh (128 x 128) takes seconds: it is left to the full run.
BLOCKS = [pytest.param(path, i, marks=[pytest.mark.slow] if "stacks=128" in block else [], id=f"{path.stem}-{i}")
          for path in DOCS if path != EDITS for i, block in enumerate(python_blocks(path))]


def test_docs_exist_and_readme_links_them():
    names = [p.name for p in DOCS]
    assert names[0].startswith("1-") and len([n for n in names if n[0].isdigit()]) == 7
    assert "docs/README.md" in (ROOT / "README.md").read_text()
    for page in DOCS:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text()):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


@pytest.mark.parametrize("path,index", BLOCKS)
def test_docs_python_block_runs(path, index, tmp_path, monkeypatch, capsys):
    code = python_blocks(path)[index]
    if "render" in code:
        gl_or_missing()
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "docs_block"}
    exec(compile(code, f"{path.name} python block {index}", "exec"), namespace)
    for value in namespace.values():
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            assert np.all(np.isfinite(value))
    output = capsys.readouterr().out
    # What tutorials 5-7 write goes under out/ (ignored by git), not beside the user's sources.
    left = sorted(p.name for p in tmp_path.iterdir() if p.name != "out")
    assert path.name[0] not in "567" or not left, f"{path.name} python block {index} writes {left} outside out/"
    for kind, checked, check in checked_blocks(path):
        if kind == "python" and checked == code:
            check_stated_numbers(check, output, path.read_text(), f"{path.name} python block {index}")


SH_CHECKED = [(path, i) for path in DOCS for i, (kind, _, _) in enumerate(checked_blocks(path)) if kind == "sh"]


@pytest.mark.parametrize("path,index", SH_CHECKED, ids=[f"{p.stem}-sh-{i}" for p, i in SH_CHECKED])
def test_docs_sh_block_states_what_it_prints(path, index, tmp_path):
    _, code, check = checked_blocks(path)[index]
    output = ""
    for line in code.splitlines():
        words = shlex.split(line.split("#")[0])
        assert words[:2] and words[0] == "python" and words[1].startswith("examples/"), (
            f"{path.name}: a checked sh block runs examples only, not {line!r}")
        done = subprocess.run([sys.executable, str(ROOT / words[1]), *words[2:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        output += done.stdout
    check_stated_numbers(check, output, path.read_text(), f"{path.name} sh block")


def test_every_docs_check_belongs_to_a_block():
    """A checks comment away from a block (or with a typo in its form) would check nothing."""
    for page in DOCS:
        text = page.read_text()
        assert text.count("<!-- checks:") == len(checked_blocks(page)), page.name
        for kind, _, _ in checked_blocks(page):
            assert kind in ("python", "sh"), f"{page.name}: a check after a ```{kind} block"


def test_docs_command_lines_parse():
    lines = [line for page in DOCS if page != EDITS for line in command_lines(page)]
    assert len(lines) >= 10
    check_command_lines(lines)


# Each example with the arguments that keep it short, and what it must write (under tmp).
RUNS = {
    "add_a_force.py": (["--picture", "{tmp}/wind.png"], ["wind.png"]),
    "edit_a_shader.py": (["{tmp}"], ["slime_original.png", "slime_edited.png", "slime_original_and_edited.png"]),
    "figure_for_a_report.py": (["{tmp}"], ["report_run.npz", "report_run.csv", "report_dent.png", "report_plot.png"]),
    "spring_pendulum_scene.py": (["--render", "{tmp}/pendulum.png", "--frames", "30"], ["pendulum.png"]),
    # Cycles at a few samples on a small picture: seconds on a CPU.
    "render_in_blender.py": (["run.glb", "--frame", "10", "--output", "{tmp}/slime_blender.png", "--size", "160x120",
                              "--samples", "4"], ["slime_blender.png"]),
}


def test_every_example_has_a_run():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(RUNS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RUNS))
def test_example_runs(name, tmp_path):
    if name == "render_in_blender.py":
        import shutil

        from slime import cli

        if shutil.which("blender") is None:
            missing("Blender (apt-get install blender python3-numpy)")
        assert cli.main(["simulate", "slime", "--ticks", "10", "--stacks", "8", "--slices", "10", "--color", "#3366ff",
                         "--output", str(tmp_path / "run.glb")]) == 0
    elif name != "add_a_force.py":
        gl_or_missing()
    args, outputs = RUNS[name]
    # What tutorial 6 has the student make in the same folder, which the example must leave alone.
    tutorials = {"dent.png": b"the student's", "run.npz": b"the student's", "run.csv": b"the student's"}
    for file, content in tutorials.items():
        (tmp_path / file).write_bytes(content)
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *(a.format(tmp=tmp_path) for a in args)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    for output in outputs:
        assert (tmp_path / output).stat().st_size > 0, output
    if name == "render_in_blender.py":
        picture = np.asarray(Image.open(tmp_path / "slime_blender.png").convert("RGB")).astype(int)
        assert picture.shape == (120, 160, 3)
        blue = (picture[..., 2] > picture[..., 0] + 40).mean()
        assert 0.02 < blue < 0.8, blue  # the #3366ff slime is in the picture, and not all of it
    if name == "add_a_force.py":
        calm, windy = (float(v) for v in re.findall(r"([+-]\d+\.\d+) m", done.stdout))
        assert abs(calm) < 0.01 and windy > 0.5  # the wind moves it along +x; without it, it stays
        # The picture shows it: the windy slime (right half) sits well right of the calm one (left).
        picture = np.asarray(Image.open(tmp_path / "wind.png").convert("RGB")).astype(int)
        half = picture.shape[1] // 2
        jelly = picture[..., 1] > picture[..., 0] + 60  # the default slime is green
        calm_x, windy_x = (np.nonzero(jelly[:, part])[1].mean() for part in (slice(0, half), slice(half, None)))
        assert windy_x > calm_x + 0.1 * half, (calm_x, windy_x)
    if name == "edit_a_shader.py":
        before, after = (np.asarray(Image.open(tmp_path / f"slime_{k}.png").convert("RGB")).astype(int)
                         for k in ("original", "edited"))
        assert np.mean(np.abs(before - after)) > 1.0  # the edit shows
    if name == "figure_for_a_report.py":
        table = np.loadtxt(tmp_path / "report_run.csv", delimiter=",", skiprows=1)
        assert table.shape == (61, 3) and np.isfinite(table).all()
        assert table[:, 1].min() < table[0, 1] - 0.2  # the poke dents the top
    for file, content in tutorials.items():
        assert (tmp_path / file).read_bytes() == content, f"{name} wrote over {file}"


def test_the_web_page_plays_the_file_the_tutorial_exports():
    """The page tutorial 7 shows (`slime view` serves it; tests/export/test_web_page.py runs it in a
    browser) reads the run with three.js's glTF loader and plays its animation, and the tutorial
    views the file it tells you to write."""
    from slime.app.view import PAGE
    from slime.paths import WEB

    page = (WEB / PAGE).read_text()
    tutorial = (ROOT / "docs" / "7-render-in-blender.md").read_text()
    written = re.search(r"slime simulate pile --ticks \d+ --output (\S+\.glb)\nslime view (\S+)", tutorial)
    assert written and written.group(1) == written.group(2), "tutorial 7 views the run it writes"
    assert 'import("three/addons/loaders/GLTFLoader.js")' in page
    assert "new GLTFLoader().parse(bytes," in page
    assert "new THREE.AnimationMixer(gltf.scene)" in page and "clipAction(clip).play()" in page


def test_physics_names_each_function_where_it_is():
    """docs/1 names, for each equation, the function that computes it and its file: each
    "`name`, `name` (`file.py`)" in the table and "`name` in `path.py`" in the text must be a
    function (or class) defined in that file, so that a moved or renamed function fails here."""
    page = (ROOT / "docs" / "1-physics.md").read_text()
    physics = ROOT / "slime" / "physics"
    pairs = [(name, path) for names, path in re.findall(r"((?:`\w+`,? )+)\(`([\w/]+\.py)`\)", page)
             for name in re.findall(r"`(\w+)`", names)]
    pairs += re.findall(r"`(\w+)` in `([\w/]+\.py)`", page)
    assert len(pairs) >= 20, pairs
    for name, path in pairs:
        source = ROOT / path if "/" in path else physics / "slime3d" / path
        assert source.exists(), f"docs/1: {path} (for {name}) does not exist"
        assert re.search(rf"^\s*(?:def|class) {name}\b", source.read_text(), flags=re.M), (
            f"docs/1: {name} is not defined in {path}")
    # Every module a substep takes a kernel from (the forces, the floor, the adhesion, the
    # integrator) is named with a function of it, and so is the rule that sets the substeps.
    step = (physics / "slime3d" / "step.py").read_text()
    used = {f"{module.replace('.', '/')}.py" for module in re.findall(r"^from slime\.(physics\.[\w.]+) import", step, flags=re.M)}
    used = (used - {"physics/compiled.py", "physics/parameters.py"}) | {"physics/slime3d/stability.py"}  # the decorator, the declarations
    # A force added beside its own parameter's declaration (docs/2) says what it is there.
    from slime.physics import parameters
    from slime.physics.slime3d import slime_params  # noqa: F401 (every force's declarations)

    used -= {p.home.removeprefix("slime.").replace(".", "/") + ".py" for p in parameters.PARAMETERS.values()
             if p.home != parameters.__name__}
    named = {f"physics/slime3d/{path}" if "/" not in path else path.removeprefix("slime/") for _, path in pairs}
    assert len(used) >= 12 and used <= named, sorted(used - named)


def test_shader_tutorial_names_every_program_and_every_include():
    """docs/3's program table lists exactly the programs in shaders/ (NAME.vert + NAME.frag), and
    its "`X` is included by `A`, `B` and `C`" lines name exactly the #include lines there."""
    page = (ROOT / "docs" / "3-change-the-shader.md").read_text()
    shaders = ROOT / "shaders"
    programs = {p.stem for p in shaders.glob("*.vert") if p.with_suffix(".frag").exists()}
    rows = re.findall(r"^\| ((?:`\w+`(?:, )?)+) \|", page, flags=re.M)
    listed = {name for row in rows for name in re.findall(r"`(\w+)`", row)}
    assert listed == programs, (sorted(listed - programs), sorted(programs - listed))
    real = {(path.name, included) for path in shaders.iterdir() if path.suffix in (".vert", ".frag", ".glsl")
            for included in re.findall(r'^\s*#include "([^"]+)"', path.read_text(), flags=re.M)}
    stated = {(includer, included)
              for included, includers in re.findall(r"`([\w.]+)`[^`]*? is included by ((?:`[\w.]+`(?:,|\s|and)*)+)",
                                                    page)
              for includer in re.findall(r"`([\w.]+)`", includers)}
    assert stated == real, (sorted(stated - real), sorted(real - stated))


def test_shader_tutorial_states_the_watchers_timings():
    from slime.render import shader_files

    page = (ROOT / "docs" / "3-change-the-shader.md").read_text()
    every, settle = re.search(r"every ([\d.]+) s\s+\(`WATCH_INTERVAL`.*?for ([\d.]+) s \(`SETTLE`\)", page, flags=re.S).groups()
    assert (float(every), float(settle)) == (shader_files.WATCH_INTERVAL, shader_files.SETTLE)


def test_blender_tutorial_states_the_limits_and_the_page_as_they_are():
    from slime import limits

    page = (ROOT / "docs" / "7-render-in-blender.md").read_text()
    positions, frames = re.search(r"more than (\d+) million vertex positions .*? more than (\d+) frames", page,
                                  flags=re.S).groups()
    assert (int(positions) * 10**6, int(frames)) == (limits.MAX_EXPORT_VERTEX_FRAMES, limits.MAX_EXPORT_FRAMES)
    lines = int(re.search(r"under (\d+) lines", page).group(1))
    from slime.app.view import PAGE
    from slime.paths import WEB

    assert len((WEB / PAGE).read_text().splitlines()) < lines


def test_scene_tutorial_states_the_framing_as_the_code_frames():
    """docs/5 and world_format's docstring give the framing's angles as render_world has them;
    the row docs/5 renders is the one tests/render/test_scene_framing.py checks for slimes cut off; duel,
    said to follow the throw, has no camera of its own."""
    from slime.framing import ELEVATION as FRAMING_ELEVATION, YAW as FRAMING_YAW
    from slime.scenes import world_format
    from slime.scenes.world_format import load_world_spec
    from sample_scenes import ROW

    page = (ROOT / "docs" / "5-write-a-3d-scene-file.md").read_text()
    for text in (page, world_format.__doc__):
        yaw, elevation = re.search(r"(\d+) degrees round and (\d+)(?: degrees)? up", text).groups()
        assert (float(yaw), float(elevation)) == (FRAMING_YAW, FRAMING_ELEVATION)
    row = next(code for code in python_blocks(ROOT / "docs" / "5-write-a-3d-scene-file.md") if '"A row"' in code)
    namespace: dict = {}
    exec(row.split("spec = ")[0], namespace)
    assert namespace["scene"] == ROW
    assert "`duel` has no camera" in " ".join(page.split())
    assert load_world_spec(ROOT / "assets" / "duel.json").camera is None


def test_physics_states_the_defaults_the_code_has():
    from slime.physics.planes import Planes
    from slime.physics.slime3d.slime_params import SlimeParams

    page = " ".join((ROOT / "docs" / "1-physics.md").read_text().split())
    params = SlimeParams()
    dt = re.search(r"\(`dt = 1/(\d+)` s\)", page).group(1)
    assert 1.0 / float(dt) == params.dt
    gravity = re.search(r"default `\(([-\d., ]+)\)`\)", page).group(1)
    assert tuple(float(g) for g in gravity.split(",")) == params.gravity
    assert float(re.search(r"the default `nu = ([\d.]+) m\^2/s`", page).group(1)) == params.shear_viscosity
    # The forces table's last column: each material parameter with the jelly's value.
    stated = dict(re.findall(r"\| `(\w+)` = ([\d.]+) [\w/^]+ \|", page))
    assert set(stated) == set(vars(params.material)) - {"contact_friction", "grip"}, sorted(stated)
    for name, value in stated.items():
        assert float(value) == getattr(params, name), name
    # The floor's row: the share of its friction the material takes.
    assert float(re.search(r"the material's `grip` = ([\d.]+)", page).group(1)) == params.grip
    threshold = re.search(r"faster than ([\d.]+) m/s \(the floor's bounce threshold\)", page).group(1)
    assert float(threshold) == Planes.floor(3).bounce_threshold


def test_tests_the_docs_point_to_exist():
    """A paragraph that says a test holds something names the test and its file: it must be there."""
    for page in DOCS:
        for paragraph in page.read_text().split("\n\n"):
            names = re.findall(r"`(test_\w+)`", paragraph)
            files = [ROOT / f for f in re.findall(r"`(tests/[\w/]+\.py)`", paragraph)]
            if names:
                assert files, f"{page.name}: {names} named without their file"
                source = "".join(f.read_text() for f in files)
                for name in names:
                    assert re.search(rf"^def {name}\(", source, flags=re.M), f"{page.name}: no {name} in {files}"


def test_scene_tutorial_states_the_ranges_the_checks_use():
    """docs/5's tables give each range as limits.py and SlimeLook's RANGES check it."""
    from slime import limits
    from slime.look import RANGES

    page = (ROOT / "docs" / "5-write-a-3d-scene-file.md").read_text()

    def row(key):
        return re.search(rf"^\| `{key}`[^\n]*", page, flags=re.M).group(0)

    def ranges(text):
        return [(float(a), float(b)) for a, b in re.findall(r"(\d+(?:\.\d+)?) to (\d+(?:\.\d+)?)", text)]

    assert ranges(row("radius")) == [limits.SLIME_RADIUS]
    assert ranges(row("stacks`, `slices")) == [limits.RESOLUTION]
    for keys in (["glow"], ["absorption"], ["rim"], ["fresnel"], ["highlight", "shininess"],
                 ["refraction", "refraction_depth"]):
        assert ranges(row("`, `".join(keys))) == [RANGES[key] for key in keys], keys
    from slime.scenes.world_format import load_world_spec

    pile = load_world_spec(ROOT / "assets" / "pile.json").slimes
    count, low, high = re.search(r"`pile`'s (\d+) slimes are (\d+) x \d+ to (\d+) x \d+", page).groups()
    assert (int(count), int(low), int(high)) == (len(pile), min(s.stacks for s in pile), max(s.stacks for s in pile))


def test_figures_tutorial_states_the_gif_frames_the_writer_keeps():
    from slime.render.images import GIF_MAX_FPS, gif_frame_times

    page = (ROOT / "docs" / "6-figures-for-a-report.md").read_text()
    frames = int(re.search(r"--frames (\d+) --size \S+ --poke \S+ --output out/poke\.gif", page).group(1))
    stated = re.search(r"frames of (\d+) ms at the shortest.*? of the (\d+) frames simulated at\s+60 per second "
                       r"`poke\.gif` keeps the (\d+) nearest each 1/(\d+) s; an MP4 or WebM keeps all (\d+)", page, flags=re.S)
    assert stated, "docs/6 says how many frames poke.gif keeps"
    shortest, simulated, kept, per_second, all_of_them = map(int, stated.groups())
    assert (shortest, per_second) == (round(1000 / GIF_MAX_FPS), GIF_MAX_FPS)
    assert simulated == all_of_them == frames
    assert kept == len(gif_frame_times(frames, 60.0))


def test_figures_tutorial_command_records_the_run_its_numbers_come_from():
    """docs/6's shell command and its Python block make the same run (the numbers stated are the block's)."""
    page = (ROOT / "docs" / "6-figures-for-a-report.md").read_text()
    command = shlex.split(re.search(r"^slime simulate slime .*--output out/run\.npz$", page, flags=re.M).group(0))[1:]
    block = next(code for code in python_blocks(ROOT / "docs" / "6-figures-for-a-report.md") if "simulate" in code)
    called = re.search(r"main\((\[.*?\])\)", block, flags=re.S).group(1).replace('f"{poke}', '"10')
    from slime.cli import build_parser

    parse = build_parser().parse_args
    assert vars(parse(eval(called))) == vars(parse(command))  # noqa: S307 (the tutorial's own literal list)


def test_scene_tutorial_lists_every_bundled_3d_scene():
    from slime.scenes.world_format import WORLD_SCENES

    page = (ROOT / "docs" / "5-write-a-3d-scene-file.md").read_text()
    listed = re.search(r"the bundled 3D scenes, ([\w, ]+), are listed", page).group(1)
    assert re.split(r",? and |, ", listed) == list(WORLD_SCENES)


def test_git_ignores_what_the_commands_and_tutorials_write():
    """A user's outputs, at the checkout's top or under out/, and a run written beside the
    examples are ignored by git: `git status` after the tutorials shows only the user's sources."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    written = ["out/slime.png", "out/dainty_walker.json", "out/two.png", "out/row.json", "out/run.npz",
               "out/run.csv", "out/pile.glb", "out/report_dent.png", "slime.png", "poke.gif", "run.mp4",
               "run.webm", "run.npz", "run.glb", "run.gltf", "run.bin", "run.csv", "row.json", "examples/pile.glb"]
    for page in DOCS:  # and every file a tutorial's commands name as --output
        written += re.findall(r"--output[ =](\S+\.\w+)", page.read_text())
    done = subprocess.run([git, "check-ignore", "--no-index", "--verbose", "--non-matching", *written],
                          cwd=ROOT, capture_output=True, text=True)
    tracked = [line.split("\t")[1] for line in done.stdout.splitlines() if line.startswith("::")]
    assert not tracked, f"git would show {tracked} as new files"
    sources = ["examples/two_slimes.json", "docs/README.md", "slime/cli.py", *(str(p.relative_to(ROOT)) for p in (ROOT / "web").rglob("*.*") if "__pycache__" not in p.parts)]
    done = subprocess.run([git, "check-ignore", "--no-index", *sources], cwd=ROOT, capture_output=True, text=True)
    assert done.stdout == "", f"sources ignored: {done.stdout}"
