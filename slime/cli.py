"""The ``slime`` command: demo (default), simulate, render, scene, bench, scenes, view."""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from slime.fileio import OUTPUT_FOLDER, check_output, remove_own_temporaries
from slime.interrupts import Terminated, interruptible
from slime.limits import CAMERA_ELEVATION, FRAMES, LARGE_OUTPUT_BYTES, LONG_RUN_SECONDS, SIZE, range_text
from slime.arguments import (
    UsageError, frame_count, parse_camera, parse_poke, parse_size, window_backend,
)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, except that a help text's own line breaks are kept (each still wrapped):
    --material lists one material a line."""

    def _split_lines(self, text, width):
        lines = []
        for part in text.split("\n"):
            lines += super()._split_lines(part, width)
        return lines


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one line (not usage + error), with the prefix
    every other message has."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        self.exit(2, f"slime: error: {message} (see {self.prog} --help)\n")


_RENDER_SIZE = "800x600"  # slime render's picture; a glTF's camera has its shape


def _add_window(p: argparse.ArgumentParser, size: str) -> None:
    p.add_argument("--size", default=size, help=f"window size WxH, each side {range_text(SIZE)} (default {size})")
    p.add_argument("--window", type=window_backend, metavar="BACKEND",
                   help="moderngl-window backend: pyglet (default), glfw, sdl2, pygame2, pyside2, pyqt5, tk")
    _add_shaders(p)


def _add_shaders(p: argparse.ArgumentParser) -> None:
    p.add_argument("--shaders", metavar="DIR",
                   help="draw with the shaders in DIR (a copy from `slime shaders export DIR`); "
                        "windows reload them as they change")


def _add_poke(p: argparse.ArgumentParser) -> None:
    p.add_argument("--poke", action="append", default=[], metavar="TICK:X,Y,Z:FX,FY,FZ",
                   help="poke the slime whose surface is nearest X,Y,Z, in the slime or a 3D scene (repeatable)")


def _add_yes(p: argparse.ArgumentParser) -> None:
    p.add_argument("--yes", action="store_true",
                   help=f"start a run estimated past {LONG_RUN_SECONDS / 60:g} minutes or {LARGE_OUTPUT_BYTES / 1e6:g} MB "
                        "without asking (elsewhere it asks at a terminal, and refuses in a script)")


def _declared(name: str):
    """The argparse type of a declared parameter's flag: its text parsed and checked as declared."""
    from slime.physics.parameters import PARAMETERS

    def parse(text: str):
        try:
            return PARAMETERS[name].parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = name
    return parse


def _add_resolution(p: argparse.ArgumentParser) -> None:
    from slime.physics.parameters import PARAMETERS

    for name in ("stacks", "slices"):  # the named flags of declared parameters
        param = PARAMETERS[name]
        p.add_argument(f"--{name}", type=_declared(name), help=f"{param.about} ({param.range_text()})")


def _setting(text: str):
    """``--set NAME=VALUE`` -> (name, value), checked as the parameter is declared."""
    from slime.physics import parameters
    from slime.physics.slime3d import slime_params  # noqa: F401 (the forces' declarations too)

    try:
        name, value, note = parameters.parse_setting(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if note:
        print(f"slime: note: {note}", file=sys.stderr)
    return name, value


def _add_set(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", action="append", type=_setting, default=[], metavar="NAME=VALUE", dest="settings",
                   help="set a parameter of the slime or its world, e.g. viscosity=8 or gravity=0,-3,0 (repeatable; "
                        "`slime params` lists them all, with their units and ranges); in a 3D scene, on every slime")


def _settings(args) -> dict:
    """The --set values as {name: value}, the last of a name kept."""
    return dict(getattr(args, "settings", None) or [])


def _color(text: str) -> tuple:
    from slime.look import parse_color

    try:
        return parse_color(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_look(p: argparse.ArgumentParser) -> None:
    p.add_argument("--color", type=_color, metavar="R,G,B|#RRGGBB",
                   help="the jelly's colour (each channel 0 to 1, or hex); the rest of the look is "
                        "SlimeLook in slime/look.py")


def _add_material(p: argparse.ArgumentParser) -> None:
    from slime.physics.slime3d.materials import DEFAULT_MATERIAL, MATERIALS

    listed = "\n".join(f"{m.name}: {m.about}" for m in MATERIALS.values())
    p.add_argument("--material", choices=tuple(MATERIALS), metavar="NAME",
                   help=f"what the slime is made of (default {DEFAULT_MATERIAL}); in a 3D scene, every slime "
                        f"that names no material of its own (slime/physics/slime3d/materials.py):\n{listed}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="slime", description="A soft-body slime you poke and drag, and 2D mass-spring scenes.")
    parser.add_argument("--version", action="version", version=f"slime {__import__('slime').__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    demo = sub.add_parser("demo", help="open the slime window (the default command)")
    _add_resolution(demo)
    _add_material(demo)
    _add_set(demo)
    _add_look(demo)
    from slime.app.quality import LEVEL_NAMES

    demo.add_argument("--quality", default="adaptive", choices=("adaptive", *LEVEL_NAMES),
                      help="adapt the picture to keep 60 FPS (default), or pin a level (slime/app/quality.py)")
    _add_window(demo, "1280x720")

    sim = sub.add_parser("simulate", help="simulate headless and write an .npz, or a glTF (.glb, .gltf) of a 3D run")
    sim.add_argument("scene", help="slime, a 2D or 3D scene name, a scene file .py, a 3D scene .json or a Soda model .json")
    sim.add_argument("--ticks", type=frame_count, required=True, help="frames to simulate")
    sim.add_argument("--output", required=True,
                     help="run.npz (every position), or run.glb / run.gltf (+ run.bin): the slime or a 3D scene as "
                          "glTF 2.0, animated, for Blender and web pages")
    _add_poke(sim)
    sim.add_argument("--no-floor", action="store_true", help="glTF: leave the floor out")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_yes(sim)
    _add_resolution(sim)
    _add_material(sim)
    _add_set(sim)
    _add_look(sim)

    render = sub.add_parser("render", help="render headless to a PNG (last frame), or a GIF, MP4 or WebM (every frame)")
    render.add_argument("scene", nargs="?", default="slime",
                        help="slime (default), a 2D or 3D scene name, a scene file .py, a 3D scene .json or a Soda model .json")
    render.add_argument("--frames", type=frame_count, default=None,
                        help="frames to simulate and draw (default: 120, two seconds, the slime at rest; with pokes, to 1 past the last)")
    render.add_argument("--size", default=_RENDER_SIZE, help=f"image size WxH, each side {range_text(SIZE)} (default {_RENDER_SIZE})")
    render.add_argument("--output", default=None, help="out.png, out.gif, out.mp4 or out.webm (default: out/SCENE.png)")
    _add_poke(render)
    render.add_argument("--camera", metavar="AZIMUTH,ELEVATION,DISTANCE",
                        help=f"orbit camera, degrees and world units; elevation {range_text(CAMERA_ELEVATION, 'degrees')}, "
                             "distance > 0; it stays put (without it: the scene's own camera, which stays put too, the lone "
                             "slime's a three-quarter view of where it starts; a scene without one frames its slimes as they move)")
    render.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_yes(render)
    _add_resolution(render)
    _add_material(render)
    _add_set(render)
    _add_shaders(render)
    _add_look(render)

    scene = sub.add_parser("scene", help="play a scene in a window (slime: the 3D demo)")
    scene.add_argument("scene", help="a scene name (see 'slime scenes'), a scene file .py, a Soda model .json, "
                                     "or a 3D scene .json (opens in the slime window)")
    _add_material(scene)
    _add_set(scene)
    _add_window(scene, "1200x800")

    sub.add_parser("scenes", help="list the scenes")

    params = sub.add_parser("params", help="list every parameter of the 3D slime: its group, default, range and unit")
    params.add_argument("--json", action="store_true", help="as one JSON list, each parameter an object")
    params.add_argument("--markdown", action="store_true", help="as README's table")

    view = sub.add_parser("view", help="play a run's .glb (from slime simulate) in the web browser, served from this machine")
    view.add_argument("run", metavar="RUN.glb", help="a glTF run `slime simulate SCENE --ticks N --output RUN.glb` wrote")
    view.add_argument("--no-open", action="store_true", help="print the page's URL and serve, without opening a browser")

    shaders = sub.add_parser("shaders", help="copy the GLSL shaders out to edit them (see --shaders)")
    shaders_sub = shaders.add_subparsers(dest="shaders_command", metavar="export", parser_class=_Parser, required=True)
    export = shaders_sub.add_parser("export", help="write a copy of every shader file into DIR")
    export.add_argument("dir", metavar="DIR", help="folder to create (or an empty one)")
    export.add_argument("--force", action="store_true", help="overwrite the shader files in a folder that is not empty")

    bench = sub.add_parser("bench", help="run the benchmarks (physics by default)")
    bench.add_argument("--render", action="store_true", help="run the headless render benchmark instead")
    bench.add_argument("--window", action="store_true",
                       help="run the slime window's frame rate at 1280x720, adapting and pinned (a display or Xvfb)")
    bench.add_argument("--all", action="store_true", help="run physics and render benchmarks")
    bench.add_argument("--only", help="comma-separated modules: step, world, grid2d, dainty, render, window, fuzz, feel")
    bench.add_argument("--json", action="store_true", help="one JSON object per line instead of a table")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    return parser


def _cmd_demo(args) -> int:
    from slime.app.demo import run_demo

    return run_demo(stacks=args.stacks, slices=args.slices, size=parse_size(args.size), window=args.window,
                    shaders=_shader_folder(args), color=args.color, quality=args.quality, material=args.material,
                    settings=_settings(args))


def _shader_folder(args):
    """``--shaders DIR`` checked before any window or GL work (one line when it is not a folder)."""
    if args.shaders is None:
        return None
    from slime.render.shader_files import ShaderFolder

    return ShaderFolder(args.shaders)


def _scene_spec(args):
    """The 3D scene a command names, as one ``WorldSpec`` however it arrives: ``slime`` from the
    flags (--stacks, --slices, --color), a bundled scene or a scene file; with the --poke events
    added. Every one is checked by the scene format, with its one-line errors."""
    from slime.scenes.world_format import LONE_SLIME, load_world_scene, lone_slime_spec

    if args.scene == LONE_SLIME:
        spec = lone_slime_spec(args.stacks, args.slices, args.color, _settings(args))
    else:
        if args.stacks or args.slices or args.color:
            raise UsageError("--stacks, --slices and --color apply to the single slime only "
                             "(a 3D scene file sets its slimes and their colours)")
        spec = load_world_scene(args.scene).with_settings(_settings(args), args.scene)
    return spec.with_events([parse_poke(p) for p in args.poke], args.scene)


def _cmd_simulate(args) -> int:
    from slime.export import gltf
    from slime.simulate import is_world, save_npz_atomic, simulate_scene

    output = check_output(Path(args.output), [".npz", *gltf.SUFFIXES])
    as_gltf = output.suffix.lower() in gltf.SUFFIXES
    if not as_gltf and (args.no_floor or args.color):
        raise UsageError(f"{output}: --no-floor and --color apply to glTF output (.glb or .gltf) only")
    if output.suffix.lower() == ".gltf":
        check_output(gltf.bin_path(output, b""), [".bin"])  # its buffer's folder and name's form (the digest comes with the run)
    try:
        if is_world(args.scene):
            arrays, recording = _simulate_world(args, output if as_gltf else None)
        else:
            if args.poke or args.stacks or args.slices:
                raise UsageError(f"--poke applies to the slime and 3D scenes, --stacks and --slices to the slime only; "
                                 f"{args.scene} is a 2D scene")
            _refuse_material_2d(args)
            if as_gltf:
                raise UsageError(f"{output}: glTF holds the slime and 3D scenes; {args.scene} is a 2D scene "
                                 "(write it as .npz)")
            arrays, recording = simulate_scene(args.scene, args.ticks, progress=not args.no_progress), None
        if as_gltf:
            gltf.write(output, recording, floor=not args.no_floor)
        else:
            save_npz_atomic(output, **arrays)
    except KeyboardInterrupt as exc:  # SIGTERM stays SIGTERM (``interrupts.Terminated``)
        raise type(exc)(f"{output} not written") from None
    shape = arrays["positions"].shape
    print(f"wrote {output}: {shape[0] - 1} ticks, {shape[1]} points")
    return 0


def _simulate_world(args, gltf_output):
    """A 3D scene's run (the lone slime's too), and its glTF recording when ``gltf_output`` is
    asked for (refused from the scene's counts before the world is built: a 512 x 512 slime takes
    seconds to build)."""
    from slime.export import gltf
    from slime.memory import TooLarge, require_memory
    from slime.physics.slime3d.sphere import sphere_triangles
    from slime.scenes.world_run import record
    from slime.scenes.world_scene import build_world, drawn_obstacle

    spec = _scene_spec(args)
    if gltf_output is not None:
        floor = not args.no_floor and spec.floor_height is not None
        gltf.check_size(str(gltf_output), [s.vertex_count for s in spec.slimes],
                        [len(sphere_triangles(s.stacks, s.slices)) for s in spec.slimes], args.ticks + 1,
                        gltf.solid_vertices([drawn_obstacle(o) for o in spec.obstacles], floor))
    try:  # a recording that cannot fit is refused by the run's own check, not asked about
        require_memory((args.ticks + 1) * spec.vertex_count * 3 * 8, "the recording")
    except TooLarge:
        pass
    else:
        confirm_heavy_run(f"{args.output}: {args.ticks} ticks of {spec.vertex_count} vertices",
                          *run_estimate(args.ticks, spec.vertex_count, Path(args.output).suffix), args.yes)
    if gltf_output is None:
        return record(spec, args.ticks, args.scene, progress=not args.no_progress, material=args.material), None
    from slime.framing import scene_points, scene_view

    scene = build_world(spec, args.material)
    # Before the run: where `slime render` starts.
    camera = _view_point(scene_view(scene_points(scene), camera=scene.spec.camera))
    arrays = record(scene, args.ticks, args.scene, progress=not args.no_progress)
    recording = gltf.recording_of_world(arrays, scene)
    recording.camera = camera
    return arrays, recording


def _view_point(camera):
    """The glTF camera of a render's view (``slime.framing.View``), at ``slime render``'s default picture shape."""
    from slime.export.gltf import ViewPoint

    width, height = parse_size(_RENDER_SIZE)
    return ViewPoint(eye=tuple(camera.eye()), target=tuple(camera.target), fov_y=camera.fov_y, aspect=width / height)


# What a run costs, to warn by before a long or heavy one starts (measured on a loaded 2-core
# machine with llvmpipe drawing, rounded up: an estimate, not a promise). A frame's time is the
# physics of its vertices and the drawing and encoding of its pixels; a file's size is its format's
# bytes per recorded value.
_FRAME_SECONDS = 0.004
_VERTEX_FRAME_SECONDS = 4e-6
# The GIF's: 300 frames of the slime at 800 x 600 took 90 s and wrote 33 MB (250 GIF frames of
# 131 kB); the videos' encoders are cheaper and their files smaller.
_PIXEL_FRAME_SECONDS = {".png": 0.0, ".gif": 7e-8, ".mp4": 3e-8, ".webm": 5e-8}
_PIXEL_FRAME_BYTES = {".gif": 0.3, ".mp4": 0.03, ".webm": 0.03}  # a PNG is its last frame alone
_VERTEX_FRAME_BYTES = {".npz": 24, ".glb": 24, ".gltf": 24}  # float64 xyz; glTF's float32 position and normal


def run_estimate(frames: int, vertices: int, suffix: str, size: tuple[int, int] | None = None) -> tuple[float, float]:
    """(seconds, bytes) a run of ``frames`` of ``vertices`` written as ``suffix`` takes, drawn at
    ``size`` (None: simulated, not drawn)."""
    suffix = suffix.lower()
    seconds = frames * (_FRAME_SECONDS + vertices * _VERTEX_FRAME_SECONDS)
    if size is None:
        return seconds, (frames + 1) * vertices * _VERTEX_FRAME_BYTES.get(suffix, 24)
    from slime.render.images import gif_frame_times

    pixels = size[0] * size[1]
    seconds += frames * pixels * _PIXEL_FRAME_SECONDS.get(suffix, 0.0)
    if suffix == ".png":
        return seconds, 3.0 * pixels
    kept = len(gif_frame_times(frames, 60.0)) if suffix == ".gif" else frames
    return seconds, kept * pixels * _PIXEL_FRAME_BYTES.get(suffix, 0.1)


def confirm_heavy_run(what: str, seconds: float, size_bytes: float, yes: bool) -> None:
    """A run estimated past LONG_RUN_SECONDS or LARGE_OUTPUT_BYTES says so first and starts only
    with --yes, or a "y" typed at a terminal; a script without --yes gets one line (UsageError)."""
    if seconds <= LONG_RUN_SECONDS and size_bytes <= LARGE_OUTPUT_BYTES:
        return
    minutes = f"{seconds / 60:.0f} minutes" if seconds >= 90 else f"{seconds:.0f} s"
    said = f"{what} takes about {minutes} and writes about {size_bytes / 1e6:,.0f} MB (an estimate)"
    if yes:
        print(f"slime: {said}; starting (--yes)", file=sys.stderr, flush=True)
        return
    if not sys.stdin.isatty():
        raise UsageError(f"{said}; add --yes to start it")
    print(f"slime: {said}.", file=sys.stderr, flush=True)
    try:
        answer = input("Start it? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise UsageError("not started (--yes starts it without asking)")


# Frames `slime render` draws unless --frames says: two seconds, the lone slime's as any scene's, so
# the first picture is the slime as it rests, sagged under its own weight (a jelly's wobble is
# gone by then), not the perfect sphere it starts as. With pokes or other events, to the frame
# after the last, where a poke's dent is deepest (docs/6 measures it; README's picture is drawn so).
RENDER_FRAMES = 120


def _cmd_render(args) -> int:
    from slime.simulate import is_world

    size = parse_size(args.size)
    output = Path(args.output) if args.output else OUTPUT_FOLDER / f"{Path(args.scene).stem}.png"
    from slime.render.images import OUTPUT_SUFFIXES

    check_output(output, list(OUTPUT_SUFFIXES))
    if is_world(args.scene):
        from slime.app.render_world import render_world

        spec = _scene_spec(args)
        frames = args.frames or min(max(e.tick + 1 for e in spec.events) if spec.events else RENDER_FRAMES, FRAMES[1])
        confirm_heavy_run(f"{output}: {frames} frames at {size[0]}x{size[1]}",
                          *run_estimate(frames, spec.vertex_count, output.suffix, size), args.yes)
        render_world(spec, output=output, frames=frames, size=size,
                     camera=parse_camera(args.camera) if args.camera else None, progress=not args.no_progress,
                     shaders=_shader_folder(args), material=args.material)
    else:
        if args.poke or args.camera or args.stacks or args.slices or args.color:
            raise UsageError(f"--poke and --camera apply to the slime and 3D scenes, --stacks, --slices and --color to "
                             f"the slime only; {args.scene} is a 2D scene")
        _refuse_material_2d(args)
        from slime.app.render_scene import render_scene

        frames = args.frames or RENDER_FRAMES
        confirm_heavy_run(f"{output}: {frames} frames at {size[0]}x{size[1]}",
                          *run_estimate(frames, 0, output.suffix, size), args.yes)
        render_scene(args.scene, output=output, frames=frames, size=size, progress=not args.no_progress,
                     shaders=_shader_folder(args))
    print(f"wrote {output}")
    return 0


def _refuse_material_2d(args) -> None:
    """--material and --set are the 3D slime's: a 2D scene's masses and springs have neither."""
    if args.material is not None:
        raise UsageError(f"--material applies to the slime and 3D scenes only, not to {args.scene}")
    if _settings(args):
        raise UsageError(f"--set applies to the slime and 3D scenes only, not to {args.scene} "
                         "(a 2D scene's own sliders are its parameters)")


def _cmd_scene(args) -> int:
    if args.scene == "slime":  # listed by `slime scenes` with the 2D ones, so it opens here too
        from slime.app.demo import run_demo

        return run_demo(size=parse_size(args.size), window=args.window, shaders=_shader_folder(args),
                        material=args.material, settings=_settings(args))
    from slime.simulate import is_world

    if is_world(args.scene):
        # A 3D scene: the slime window on that world (a bad file fails in one line before it opens).
        from slime.app.demo import run_demo

        return run_demo(scene=args.scene, size=parse_size(args.size), window=args.window, shaders=_shader_folder(args),
                        material=args.material, settings=_settings(args))
    from slime.app.scene_window import run_scene
    from slime.scenes import load_scene

    load_scene(args.scene)  # a bad name or model file fails here, in one line, before a window opens
    _refuse_material_2d(args)
    return run_scene(args.scene, size=parse_size(args.size), window=args.window, shaders=_shader_folder(args))


def _cmd_scenes(args) -> int:
    from slime.scenes import SCENES, SceneError, installed_scenes, load_scene

    print(f"{'slime':<10} the 3D slime: slime demo (or slime scene slime) | slime render | slime simulate slime")
    for name in SCENES:
        print(f"{name:<10} {load_scene(name).title}")
    for name, ep in installed_scenes().items():
        try:
            title = load_scene(name).title
        except SceneError as exc:  # one broken add-on does not hide the others
            title = f"(cannot load: {exc})"
        print(f"{name:<10} {title}  [{ep.value}]")
    from slime.scenes import world_scene_names
    from slime.scenes.world_format import load_world_scene

    for name in world_scene_names():
        print(f"{name:<10} [3D] {load_world_scene(name).description}")
    print("A scene file (my_scene.py, defining a Scene2D subclass), a 3D scene (.json with \"slimes\") or a Soda "
          "model (.json) runs by its path.")
    return 0


def _cmd_params(args) -> int:
    import json

    from slime.physics import parameters
    from slime.physics.slime3d import slime_params  # noqa: F401 (every force's declarations too)

    declared = parameters.ordered()
    if args.json:
        print(json.dumps([parameters.as_dict(p) for p in declared], indent=1))
        return 0
    if args.markdown:
        print(parameters.markdown_table())
        return 0
    width = max(len(p.name) for p in declared)
    for p in declared:
        default = ",".join(f"{v:g}" for v in p.default) if isinstance(p.default, tuple) else f"{p.default:g}"
        print(f"{p.name:<{width}}  {p.group:<8}  {default:>12}  {p.range_text():<28}  {p.about}")
    print("Set any of them with --set NAME=VALUE (slime demo, render, simulate, scene), or in a 3D scene file's "
          "\"params\" (the world group at its top: gravity, floor_height).")
    return 0


def _cmd_view(args) -> int:
    from slime.app.view import view

    return view(Path(args.run), open_browser=not args.no_open)


def _cmd_shaders(args) -> int:
    from slime.render.shader_files import ShaderFolder, display_name

    written = ShaderFolder().export(args.dir, force=args.force)
    print(f"wrote {len(written)} shader files to {display_name(args.dir)}; edit them and run "
          f"`slime --shaders {display_name(args.dir)}` (saving a file reloads it in the window)")
    return 0


def _cmd_bench(args) -> int:
    from slime import bench

    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        known = bench.PHYSICS + bench.RENDER + bench.WINDOW + bench.FUZZ + bench.FEEL
        unknown = sorted(set(names) - set(known))
        if unknown:
            raise UsageError(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(known)}")
    elif args.all:
        names = bench.PHYSICS + bench.RENDER
    elif args.render or args.window:
        names = (bench.RENDER if args.render else []) + (bench.WINDOW if args.window else [])
    else:
        names = bench.PHYSICS
    return bench.main(names, as_json=args.json, quick=args.quick)


COMMANDS = {
    "demo": _cmd_demo,
    "simulate": _cmd_simulate,
    "render": _cmd_render,
    "scene": _cmd_scene,
    "scenes": _cmd_scenes,
    "params": _cmd_params,
    "view": _cmd_view,
    "shaders": _cmd_shaders,
    "bench": _cmd_bench,
}


# Options whose value may start with '-' (a negative size or coordinate): argparse would read
# "--size -800x600" as two options; "--size=-800x600" it reads as one option and its value, which
# then gets the option's own one-line complaint.
_SIGNED_VALUE_OPTIONS = ("--size", "--poke", "--camera", "--ticks", "--frames", "--stacks", "--slices", "--color")
_LOOKS_NUMERIC = re.compile(r"^-[\d.]")


def _join_signed_values(argv: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(argv):
        if argv[i] in _SIGNED_VALUE_OPTIONS and i + 1 < len(argv) and _LOOKS_NUMERIC.match(argv[i + 1]):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


_PHYSICS_COMMANDS = ("demo", "simulate", "render", "scene", "bench")


def _needs_physics(args) -> bool:
    """Whether the command will step the physics: a window with no display to open on says so at
    once instead of compiling first."""
    if args.command not in _PHYSICS_COMMANDS:
        return False
    if args.command in ("demo", "scene") and getattr(args, "window", None) != "headless":
        from slime.render.context import has_display

        return has_display()
    return True


def _ended_well(process, timeout: float) -> bool:
    """Whether ``process`` ends with 0 within ``timeout`` seconds (one that does not is killed)."""
    try:
        return process.wait(timeout=timeout) == 0
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return False


def compile_physics(stream=None) -> None:
    """On the first run after an install or an edit of a force, compile the physics now, with one
    line and a progress bar on stderr (a line alone where stderr is not a terminal); later runs
    find it compiled and say nothing."""
    from slime.physics import warmup

    if warmup.is_compiled():
        return
    from tqdm import tqdm

    stream = stream or sys.stderr
    print("slime: compiling the physics, first run only (about 20 s)", file=stream, flush=True)
    (first_name, first), *rest = warmup.stages()
    beside = warmup.start_beside(rest)
    try:
        with tqdm(total=1 + len(rest), file=stream, disable=not stream.isatty(), leave=False, unit="part") as bar:
            bar.set_description(first_name)
            first()
            bar.update(1)
            if beside is not None:
                bar.set_description(", ".join(name for name, _ in rest))
            if beside is not None and _ended_well(beside, warmup.BESIDE_TIMEOUT):
                bar.update(len(rest))
            else:  # run here, where a failure shows its traceback
                for name, run in rest:
                    bar.set_description(name)
                    run()
                    bar.update(1)
    finally:
        if beside is not None and beside.poll() is None:
            beside.kill()
            beside.wait()
    warmup.mark_compiled()


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv = ["demo", *argv]  # `slime --stacks 64`: options with no command are the demo's
    args = parser.parse_args(_join_signed_values(argv))
    if args.command is None:
        args = parser.parse_args(["demo"])
    try:
        with interruptible():
            if _needs_physics(args):
                from slime.physics.threads import threads_from_environment

                threads_from_environment()  # a bad $SLIME_THREADS is said now, not when a world is made
                compile_physics()
            status = COMMANDS[args.command](args) or 0
            if sys.stdout is not None:  # None: started with stdout closed, and nothing to say there
                sys.stdout.flush()  # here, so a closed pipe is caught below and not at interpreter exit
        return status
    except Terminated as exc:
        remove_own_temporaries()
        print(f"slime: terminated{': ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt as exc:  # a command may say what it left unwritten
        remove_own_temporaries()
        print(f"slime: interrupted{': ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`slime scenes | head -1`): say nothing, and keep Python's exit-time
        # flush from raising again on the dead pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (UsageError, ValueError, OSError, MemoryError) as exc:  # MemoryError: past slime.memory's estimate
        if os.environ.get("SLIME_DEBUG"):
            raise
        from slime.render.shader_files import ShaderError

        if isinstance(exc, ShaderError):  # one line per compiler message, each 'file:line: message'
            for line in exc.lines:
                print(line, file=sys.stderr)
            return 2
        print(f"slime: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # a GL context that will not start, a driver error: one line, not a traceback
        from slime.render.context import GLUnavailable

        if isinstance(exc, GLUnavailable):
            print(f"slime: error: {_one_line(exc)}", file=sys.stderr)
            return 3
        from slime.scenes import scene_file_failure

        failure = scene_file_failure(exc)
        if failure is not None and not os.environ.get("SLIME_DEBUG"):
            # The user's own scene file failed while running, as it may while loading: the same line.
            print(f"slime: error: {failure}", file=sys.stderr)
            return 2
        if _is_compile_error(exc) and not os.environ.get("SLIME_DEBUG"):
            # An edited force that numba cannot compile: numba's own message names the function,
            # the file and the line; the Python frames above it (the warm-up, the world's step)
            # would only bury it.
            print(f"slime: error: the physics does not compile (numba says):\n{str(exc).strip()}\n"
                  "slime: NUMBA_DISABLE_JIT=1 runs the same source as plain Python, with a normal traceback "
                  "(docs/2-add-a-force.md)", file=sys.stderr)
            return 1
        raise


def _is_compile_error(exc: BaseException) -> bool:
    numba_errors = sys.modules.get("numba.core.errors")
    return numba_errors is not None and isinstance(exc, numba_errors.NumbaError)


def _one_line(exc: BaseException) -> str:
    """The error as one line; an OSError of the system's own as its file and reason, never its
    raw ``[Errno 30] Read-only file system: 'x'``."""
    if isinstance(exc, OSError) and exc.strerror and str(exc).startswith("[Errno"):
        text = f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    else:
        text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


if __name__ == "__main__":
    raise SystemExit(main())
