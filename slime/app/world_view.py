"""How the slime window draws its world: with ``WorldRenderer``, whatever the world holds (one
slime on a floor, a scene of many among obstacles), so the demo's slime and a scene's are one
picture. The owner of the shader watch (``shader_names``, ``use_programs``): a broken shader file
is reported once."""

from __future__ import annotations

import numpy as np

from slime.app.render_world import world_lids
from slime.look import SlimeLook
from slime.render.context import OffscreenTarget
from slime.render.images import read_rgba
from slime.render.shader_files import shader_folder
from slime.render.world_renderer import WorldRenderer, bodies_of_world


class WorldView:
    """Draws a World3D (bodies' ``tag`` their SlimeLook, or None for ``look``) at a quality level
    into an offscreen picture; ``obstacles`` as ``WorldRenderer.set_obstacles`` takes them."""

    shader_names = WorldRenderer.shader_names

    def __init__(self, ctx, *, floor_height: float | None, look: SlimeLook, obstacles=(), shaders=None):
        self.ctx = ctx
        self.shaders = shader_folder(shaders)
        self.floor_height = floor_height
        self.look = look
        self.world_renderer = WorldRenderer(ctx, floor_height=floor_height, look=look, shaders=self.shaders)
        self.world_renderer.set_obstacles(obstacles)
        self._target = None

    # --- the shader watch's owner ---------------------------------------------------------------
    def use_programs(self, programs: dict) -> None:
        self.world_renderer.use_programs(programs)

    # --- a frame ----------------------------------------------------------------------------------
    def update(self, world, look: SlimeLook) -> None:
        """This frame's world; ``look``: the scene's (sky, floor, lights, and the jelly of a slime
        without a look of its own)."""
        self.look = look
        renderer = self.world_renderer
        if renderer.look is not look:
            renderer.look = look
        renderer.set_moving_obstacles(world_lids(world))
        renderer.update(bodies_of_world(world, [b.tag for b in world.bodies]))

    def draw(self, camera, size, *, samples: int, shadow_halo: bool, wireframe: bool) -> OffscreenTarget:
        """The frame at ``size`` pixels into a kept offscreen target (its ``texture`` and resolved
        ``resolved`` framebuffer hold the picture). The renderer multisamples in its own buffers
        and resolves into the plain target."""
        size = (int(size[0]), int(size[1]))
        if self._target is None or self._target.size != size:
            self.release_target()
            self._target = OffscreenTarget(self.ctx, size, samples=0)
        self._draw_into(self._target, camera, samples, shadow_halo, wireframe, cache_backdrop=True)
        return self._target

    def _draw_into(self, target, camera, samples, shadow_halo, wireframe, cache_backdrop) -> None:
        renderer = self.world_renderer
        renderer.samples, renderer.shadow_halo, renderer.wireframe = samples, shadow_halo, wireframe
        renderer.cache_backdrop = cache_backdrop
        renderer.render(target.resolved, camera)

    def picture(self, camera, size, *, samples: int, shadow_halo: bool, wireframe: bool) -> np.ndarray:
        """(H, W, 3) uint8 of the frame at ``size`` (a screenshot), in a target made for it."""
        target = OffscreenTarget(self.ctx, size, samples=0)
        try:
            self._draw_into(target, camera, samples, shadow_halo, wireframe, cache_backdrop=False)
            return read_rgba(target.resolved, components=3)
        finally:
            target.release()
            self.world_renderer.cache_backdrop = True

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
