"""The slime window's start, before and apart from the window: its options as one object
(``DemoOptions``, what ``run_demo`` was asked for, checked before any window opens), the world
it opens on (the demo's one slime or a 3D scene, with its camera) and the window itself, made
with those options (moderngl-window is given only its own: the size and the backend)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

import moderngl_window as mglw

from slime import limits
from slime.app.render_slime import default_camera
from slime.app.world_play import WorldPlay, single_slime_world
from slime.framing import FRAME, KEEP
from slime.look import SlimeLook, parse_color
from slime.physics.slime3d.materials import DEFAULT_MATERIAL, find_material
from slime.physics.slime3d.slime_params import SlimeParams
from slime.render.context import has_display


@dataclass(frozen=True)
class DemoOptions:
    """What the slime window opens with: ``stacks``/``slices`` the mesh resolution (None: the
    material's), ``frames`` close after this many (0: never), ``shaders`` a shader folder to draw
    with and watch (None: the package's), ``color`` the jelly's colour (R,G,B or #rrggbb, or three
    numbers), ``quality`` "adaptive" or a level name to pin (slime/app/quality.py),
    ``bench_seconds`` measure the frame rate this long after a warm-up, print it as JSON and close
    (demo_bench.py), ``scene`` a bundled 3D scene's name or a 3D scene file instead of the one
    slime, ``seed`` the sizes and colours of the slimes N drops, ``material`` what the slime is
    made of (a scene's slimes that name none; None: jelly), ``settings`` declared parameters
    ({name: value}, ``--set``; slime/physics/parameters.py) on every slime and the world."""

    stacks: int | None = None
    slices: int | None = None
    frames: int = 0
    shaders: str | Path | None = None
    color: str | tuple | None = None
    quality: str = "adaptive"
    bench_seconds: float = 0.0
    scene: str | Path | None = None
    seed: int | None = None
    material: str | None = None
    settings: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.settings is None:  # run_demo's callers pass None for no --set
            object.__setattr__(self, "settings", {})

    def check(self) -> None:
        """ValueError (one line) for what no window can open with: an unknown material, a setting
        out of its range or one the step cannot carry, a scene that cannot be read or holds more
        slimes than the window draws."""
        if self.material is not None:
            find_material(self.material)
        if self.scene is None:
            if self.settings:
                SlimeParams.of_material(self.material or DEFAULT_MATERIAL, **self.settings)
        else:
            from slime.scenes.world_format import load_world_scene

            check_window_scene(load_world_scene(self.scene).with_settings(self.settings, self.scene))

    def look(self) -> SlimeLook:
        if self.color is None:
            return SlimeLook()
        text = self.color if isinstance(self.color, str) else ",".join(f"{float(c):.6g}" for c in self.color)
        return SlimeLook().with_color(parse_color(text))


OPTION_NAMES = tuple(f.name for f in fields(DemoOptions))


def open_window(window_class, options: DemoOptions, size=(1280, 720), backend: str | None = None):
    """An instance of ``window_class`` (DemoWindow) with ``options``; moderngl-window parses only
    its own arguments, given here (it would otherwise parse sys.argv: pytest's, the CLI's)."""
    args = ["--size", f"{int(size[0])}x{int(size[1])}"]
    if backend:
        args += ["--window", backend]
        if backend == "headless" and not has_display():
            args += ["--backend", "egl"]
    config = type(window_class.__name__, (window_class,), {"options": options})
    return mglw.create_window_config_instance(config, args=args)


def start_world(scene, stacks, slices, look: SlimeLook, seed, material=None, aspect: float = 16.0 / 9.0,
                settings=None):
    """(WorldPlay, camera, obstacles to draw, the Framer's mode) for the demo's one slime, or for a
    3D scene (a bundled name or a file), the camera framed for a window of ``aspect`` (framed at
    another shape, the first frames would zoom to this one). A scene without a camera is framed as
    its slimes move (FRAME); the one slime's view (as ``slime render`` draws it) and a scene's own
    camera are kept, moved only where a slime would leave the picture (KEEP).
    ``material``: the one slime's, or that of a scene's slimes that name none (default jelly);
    ``settings``: declared parameters ({name: value}, ``--set``) on every slime and the world."""
    changes = {}
    if stacks is not None:
        changes["stacks"] = stacks
    if slices is not None:
        changes["slices"] = slices
    if scene is None:
        params = SlimeParams.of_material(material or DEFAULT_MATERIAL, **{**(settings or {}), **changes})
        play = WorldPlay(single_slime_world(params), params, base_look=look, seed=seed)
        return play, default_camera(play.world.bodies[0]), [], KEEP
    from slime.app.render_world import scene_camera
    from slime.scenes.world_format import load_world_scene
    from slime.scenes.world_scene import build_world

    spec = load_world_scene(scene).with_settings(settings or {}, scene)
    check_window_scene(spec)
    first = build_world(spec, material)  # its camera and obstacles as drawn, too

    def make_world(more: dict) -> tuple:
        """The scene's world as it starts, with the command line's resolution and ``more`` (the
        panel's changes since) on every slime."""
        world = build_world(spec, material).world
        settings = {**changes, **more}
        if settings:
            world.set_slimes_params({i: b.params.with_(**settings) for i, b in enumerate(world.bodies)})
        return world, [b.tag for b in world.bodies]

    # Dropped slimes: the scene's first slime's size and settings, with the command line's resolution.
    template = spec.slime_params(material)[0].with_(center=None, **changes)
    play = WorldPlay(make_world, template, base_look=look, seed=seed)
    return play, scene_camera(first, aspect=aspect), first.drawn_obstacles, FRAME if spec.camera is None else KEEP


def check_window_scene(spec) -> None:
    """ValueError (one line) for a 3D scene the window cannot hold (more slimes than it draws)."""
    high = limits.WINDOW_SLIMES[1]
    if len(spec.slimes) > high:
        raise ValueError(f"the window holds at most {high} slimes (limits.WINDOW_SLIMES), the scene has "
                         f"{len(spec.slimes)}")
