"""How the slime window draws its world: with ``SlimeRenderer`` while the world is one slime on a
floor with no obstacles (the demo as it opens), with ``WorldRenderer`` otherwise.

Why two: the pictures agree (tests/test_world_render.py holds them within 3 levels), but the world
renderer copies the frame so far into the texture each jelly reads (a resolving copy of the whole
multisampled frame) and keeps a depth buffer, where the single-slime renderer reads its cached
sky-and-floor texture and adds the contact shadow in the jelly's shader. On a software rasteriser
at the high quality levels the single-slime renderer is clearly the faster of the two (at the
lower levels they are alike). So the demo keeps its frame rate, and the switch to the world
renderer happens at the second slime (or in any scene).

This is one owner for the shader watch (``shader_names``, ``use_programs``), so a broken shader
file is reported once, not once per renderer.
"""

from __future__ import annotations

import numpy as np

from slime.app.render_world import world_lids
from slime.look import SlimeLook
from slime.render.images import read_rgba
from slime.render.shader_files import shader_folder
from slime.render.slime_renderer import OffscreenTarget, SlimeRenderer
from slime.render.world_renderer import WorldRenderer, bodies_of_world


class WorldView:
    """Draws a World3D (bodies' ``tag`` their SlimeLook, or None for ``look``) at a quality level
    into an offscreen picture; ``obstacles`` as ``WorldRenderer.set_obstacles`` takes them."""

    # Both renderers' programs: the watch reloads every file either draws with.
    shader_names = tuple(dict.fromkeys(SlimeRenderer.shader_names + WorldRenderer.shader_names))

    def __init__(self, ctx, *, floor_height: float | None, look: SlimeLook, obstacles=(), shaders=None):
        self.ctx = ctx
        self.shaders = shader_folder(shaders)
        self.floor_height = floor_height
        self.look = look
        self.has_obstacles = bool(obstacles)
        self.world_renderer = WorldRenderer(ctx, floor_height=floor_height, look=look, shaders=self.shaders)
        self.world_renderer.set_obstacles(obstacles)
        self.single: SlimeRenderer | None = None  # made when first needed
        self._strip = None
        self.using_single = False
        self._target = None

    # --- the shader watch's owner ---------------------------------------------------------------
    def use_programs(self, programs: dict) -> None:
        self.world_renderer.use_programs(programs)
        if self.single is not None:  # programs of its own (each renderer releases the ones it replaces)
            self.single.use_programs(self.shaders.programs(self.ctx, SlimeRenderer.shader_names))

    # --- a frame ----------------------------------------------------------------------------------
    def one_slime(self, world, lids=()) -> bool:
        return len(world.bodies) == 1 and not self.has_obstacles and not lids and self.floor_height is not None

    def update(self, world, look: SlimeLook) -> None:
        """This frame's world; ``look``: the scene's (sky, floor, lights, and the jelly of a slime
        without a look of its own)."""
        self.look = look
        lids = world_lids(world)
        self.using_single = self.one_slime(world, lids)
        if self.using_single:
            body = world.bodies[0]
            jelly = body.tag if body.tag is not None else look
            if self.single is None:
                self.single = SlimeRenderer(self.ctx, body.triangles, body.strip, body.stop - body.start,
                                            floor_height=self.floor_height, look=jelly, shaders=self.shaders)
            elif body.strip is not self._strip:
                self.single.set_mesh(body.triangles, body.strip, body.stop - body.start)
            self._strip = body.strip
            if self.single.look is not jelly:
                self.single.look = jelly
            self.single.update(world.positions)
        else:
            if self.world_renderer.look is not look:
                self.world_renderer.look = look
            self.world_renderer.set_moving_obstacles(lids)
            self.world_renderer.update(bodies_of_world(world, [b.tag for b in world.bodies]))

    def draw(self, camera, size, *, samples: int, shadow_halo: bool, wireframe: bool) -> OffscreenTarget:
        """The frame at ``size`` pixels into a kept offscreen target (its ``texture`` and resolved
        ``resolved`` framebuffer hold the picture)."""
        size = (int(size[0]), int(size[1]))
        # The single renderer draws into a multisampled target; the world renderer multisamples in
        # its own buffers and resolves into a plain one.
        target_samples = samples if self.using_single else 0
        if self._target is None or (self._target.size, self._target.samples) != (size, target_samples):
            self.release_target()
            self._target = OffscreenTarget(self.ctx, size, samples=target_samples)
        self._draw_into(self._target, camera, samples, shadow_halo, wireframe, cache_backdrop=True)
        return self._target

    def _draw_into(self, target, camera, samples, shadow_halo, wireframe, cache_backdrop) -> None:
        if self.using_single:
            self.single.shadow_halo = shadow_halo
            self.single.render(target.draw, camera, wireframe=wireframe, cache_backdrop=cache_backdrop)
            target.resolve()
        else:
            renderer = self.world_renderer
            renderer.samples, renderer.shadow_halo, renderer.wireframe = samples, shadow_halo, wireframe
            renderer.render(target.resolved, camera)

    def picture(self, camera, size, *, samples: int, shadow_halo: bool, wireframe: bool) -> np.ndarray:
        """(H, W, 3) uint8 of the frame at ``size`` (a screenshot), in a target made for it."""
        target = OffscreenTarget(self.ctx, size, samples=samples if self.using_single else 0)
        try:
            self._draw_into(target, camera, samples, shadow_halo, wireframe, cache_backdrop=False)
            return read_rgba(target.resolved, components=3)
        finally:
            target.release()

    def present(self, texture, fbo, viewport) -> None:
        """A picture drawn at a reduced scale, stretched over the window."""
        self.world_renderer.present(texture, fbo, viewport)

    def release_target(self) -> None:
        if self._target is not None:
            self._target.release()
            self._target = None

    def release(self) -> None:
        self.release_target()
        self.world_renderer.release()
        if self.single is not None:
            self.single.release()
