"""Render any 3D scene (the lone slime, a bundled scene, a scene file) without a window (EGL), with
the world renderer: a PNG of the last frame, or an animated GIF or a video (.mp4, .webm) of every
frame."""

from __future__ import annotations

import math
import sys

import numpy as np

from slime.app.render_common import check_render_args, headless_context
from slime.arguments import check_camera
from slime.framing import FRAME, FREE, Framer, scene_points, scene_view
from slime.render.camera import OrbitCamera
from slime.render.images import open_frames, read_rgba
from slime.scenes.world_scene import WorldScene


LID_COLOR = (0.80, 0.83, 0.86)
LID_THICKNESS = 0.05  # radii of the squashed slime: a plate, thin beside the body it holds down
LID_OVERHANG = 0.15  # radii the plate reaches past the body's footprint on every side


def world_lids(world) -> list[dict]:
    """Each lid a squash holds a slime under (World3D.squash), as a box obstacle for
    ``WorldRenderer.set_moving_obstacles``: a thin plate lying on the lid's height over its body's
    footprint (``World3D.lids``); none once every lid has gone."""
    plates = []
    positions = world.positions
    for body, lid in zip(world.bodies, world.lids()):
        if lid is None:
            continue
        height = lid.height
        points = positions[body.start:body.stop]
        lo, hi = points.min(axis=0), points.max(axis=0)
        radius = float(body.params.radius)
        thick = 0.5 * LID_THICKNESS * radius
        half = 0.5 * (hi - lo) + LID_OVERHANG * radius
        plates.append({"center": (0.5 * (lo[0] + hi[0]), height + thick, 0.5 * (lo[2] + hi[2])),
                       "half_size": (float(half[0]), thick, float(half[2])), "color": LID_COLOR})
    return plates


def scene_camera(scene: WorldScene, view=None, aspect: float = 4.0 / 3.0) -> OrbitCamera:
    """The camera a scene opens on (``slime.framing.scene_view``), its home there."""
    return OrbitCamera.of_view(scene_view(scene_points(scene), aspect, scene.spec.camera, view))


def lone_scene(body) -> WorldScene:
    """A ``SlimeBody`` (the world of one slime a script builds) as a scene: the lone slime's
    (``world_format.lone_slime_spec``: its camera and floor) around this very body, drawn in the
    renderer's look."""
    from slime.scenes.world_format import lone_slime_spec

    params = body.params
    spec = lone_slime_spec(params.stacks, params.slices)
    return WorldScene(spec, body.world, [], [body.world.bodies[0].tag])


class HeadlessWorld:
    """A world scene + the world renderer + an offscreen target: ``draw()`` returns pixels.

    The one headless picture: ``slime render``, the render benchmark, the picture tests and the
    tutorials' scripts. ``scene``: a ``WorldScene``, or a ``SlimeBody`` (``lone_scene``);
    ``camera``: an OrbitCamera, or (azimuth, elevation, distance) that stays put, default the
    scene's own or its framing; ``look``: the sky, floor and lights, and the jelly of slimes
    without a look of their own; ``shaders``: the folder the programs come from (the renderer is
    a ``ShaderWatch`` owner for live reload). Bad sizes, samples or cameras: one-line ValueErrors,
    before GL sees them."""

    def __init__(self, scene, *, size=(800, 600), camera=None, samples: int = 4, ctx=None, shaders=None,
                 look=None):
        from slime.render.context import check_samples
        from slime.render.world_renderer import WorldRenderer, bodies_of_world

        if not isinstance(scene, WorldScene):
            scene = lone_scene(scene)
        if camera is not None and not isinstance(camera, OrbitCamera):
            camera = check_camera(camera)
        self._bodies_of_world = bodies_of_world
        self.ctx, self._owns_ctx, self.size = headless_context(ctx, size)
        try:
            samples = check_samples(self.ctx, samples)
        except ValueError:
            if self._owns_ctx:
                self.ctx.release()
            raise
        self.scene = scene
        self.camera = camera if isinstance(camera, OrbitCamera) else scene_camera(scene, camera, self.size[0] / self.size[1])
        #: A scene without a camera (and none asked for) keeps itself framed as its slimes move.
        self.framer = Framer(self.camera, FRAME if camera is None and scene.spec.camera is None else FREE)
        self.renderer = WorldRenderer(self.ctx, floor_height=scene.spec.floor_height, samples=samples, shaders=shaders,
                                      look=look)
        self.renderer.set_obstacles(scene.drawn_obstacles)
        self.texture = self.ctx.texture(self.size, 4)
        self.fbo = self.ctx.framebuffer(color_attachments=[self.texture])

    def follow(self) -> None:
        """After a step: the camera eased toward the scene's new framing, where it frames itself."""
        self.framer.update(scene_points(self.scene), self.size[0] / self.size[1], self.scene.world.dt)

    def update(self) -> None:
        """Hand the world as it is now to the renderer: positions, normals, lids."""
        self.renderer.update(self._bodies_of_world(self.scene.world, self.scene.looks()))
        self.renderer.set_moving_obstacles(world_lids(self.scene.world))

    def read(self) -> np.ndarray:
        """Draw what was last ``update``d and read it back; (H, W, 3) uint8, top row first."""
        self.renderer.render(self.fbo, self.camera)
        return np.ascontiguousarray(read_rgba(self.fbo, components=4)[..., :3])

    def draw(self) -> np.ndarray:
        """The world as it is now; (H, W, 3) uint8, top row first."""
        self.update()
        return self.read()

    def release(self) -> None:
        for obj in (self.renderer, self.fbo, self.texture):
            obj.release()
        if self._owns_ctx:
            self.ctx.release()


def keep_camera_outside(camera: OrbitCamera, world, within: float = 1.02, to: float | None = None) -> bool:
    """Where the eye is inside the ball round a slime's centre through its farthest vertex, times
    ``within``, move it out along its orbit to ``to`` times that radius (default: ``within``);
    True when it moved. Inside, the picture would be all jelly."""
    bodies = world.bodies
    if not bodies:
        return False
    positions = world.positions
    starts = np.array([b.start for b in bodies])
    counts = np.array([b.stop - b.start for b in bodies])
    centres = np.add.reduceat(positions, starts, axis=0) / counts[:, None]
    spread = np.sqrt(np.maximum.reduceat(((positions - centres[world.body_of_vertex]) ** 2).sum(axis=1), starts))
    inside = np.flatnonzero(np.linalg.norm(centres - camera.eye(), axis=1) < within * spread)
    for index in inside:  # rare: the camera pushed into a slime
        camera.keep_outside(centres[index], float(within * spread[index]),
                            to_radius=float((to if to is not None else within) * spread[index]))
    return inside.size > 0


# A render's camera closer to a slime's centre than this many radii (its surface a fraction of a
# radius away, filling the picture) is moved out to where the whole slime fits in the view.
RENDER_CAMERA_WITHIN = 1.5


def render_world(scene, *, output, frames: int = 120, size=(800, 600), camera=None, progress: bool = True,
                 samples: int = 4, shaders=None, material: str | None = None) -> None:
    """Simulate a 3D scene (a ``WorldSpec``, the lone slime's ``lone_slime_spec()`` included, a
    bundled name or a scene file) for ``frames`` frames, its events acted out
    (``world_run.run``), and write the last frame (``.png``) or every frame (``.gif``, ``.mp4``,
    ``.webm``, streamed: memory does not grow with the frame count), atomically. ``camera``:
    (azimuth, elevation, distance) that stays put, default the scene's own or its framing; one
    inside a slime is moved out along its orbit, with one line on stderr. ``material``: what its
    slimes that name none are made of (default jelly). Bad arguments or scene files: a one-line
    ValueError (``WorldFileError`` for the file); a missing OpenGL: ``GLUnavailable``; shaders
    that do not compile: ``ShaderError``."""
    from slime.scenes.world_format import WorldSpec, load_world_scene
    from slime.scenes.world_run import check_events, run
    from slime.scenes.world_scene import build_world

    path, size = check_render_args(output, frames, size)
    if camera is not None and not isinstance(camera, OrbitCamera):
        camera = check_camera(camera)
    spec = scene if isinstance(scene, WorldSpec) else load_world_scene(scene)
    check_events(spec.events, frames)  # before any GL
    world_scene = build_world(spec, material)
    headless = HeadlessWorld(world_scene, size=size, camera=camera, samples=samples, shaders=shaders)
    try:
        start = headless.camera.distance
        fits = 1.0 / math.sin(math.radians(headless.camera.fov_y / 2.0))  # radii at which a slime fills the height
        if keep_camera_outside(headless.camera, world_scene.world, within=RENDER_CAMERA_WITHIN, to=fits):
            print(f"slime: a camera distance of {start:g} is inside the slime; moved out to "
                  f"{headless.camera.distance:.2f}", file=sys.stderr)
        with open_frames(path, fps=1.0 / world_scene.world.dt) as sink:
            for tick in run(world_scene, frames, progress=progress, label=f"rendering {path.name}"):
                headless.follow()
                if sink.wants(tick, tick == frames - 1):
                    keep_camera_outside(headless.camera, world_scene.world)
                    sink.add(headless.draw())
    finally:
        headless.release()
