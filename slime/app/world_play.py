"""What the slime window does to its world of slimes, without the window (so a seeded fuzz can
drive it with no GL): drop a new slime where the cursor's ray lands (Ten Minute Physics' Bodies++:
a body added at run time), take away the one under the cursor, squash them all, spike them all,
reset, change every slime's parameters (or its material) at once, and the hand (poke, press, grab,
throw) on the slime a ray meets first.

World3D renumbers its bodies on every re-layout (an add, a removal, a change of parameters) and
lets go of the hand then; ``generation`` counts re-layouts, so the window can tell that a body
index it took at a mouse press no longer names the same slime. Each body's look is its World3D
``tag``, which follows it through re-layouts.
"""

from __future__ import annotations

import colorsys
from typing import Callable

import numpy as np

from slime import limits
from slime.look import SlimeLook
from slime.physics.slime3d.materials import MATERIALS, find_material
from slime.physics.slime3d.slime_params import Material, SlimeParams
from slime.physics.slime3d.world3d import World3D
from slime.physics.slime3d.obstacles import ray_hit
from slime.render.picking import RayHit, intersect_plane, pick_body
from slime.scenes.world_scene import place_drop

POKE_IMPULSE = 4.0  # N*s per kg of body: 240 N for one frame on the default 1 kg slime dents its top by 0.8 of its radius
DROP_SIZE = (0.55, 1.0)  # a dropped slime's radius, times the template's (its mass scales with the volume)
DROP_SATURATION = (0.55, 0.9)  # the dropped slimes' colours: any hue, fairly saturated, bright
DROP_VALUE = (0.7, 0.95)
CUSTOM = "custom"  # material_name(): the slimes share a material no name has (a slider moved)
MIXED = "mixed"  # material_name(): the slimes are not all made of the same


class WorldPlay:
    """A world and what the user does to it. ``make_world(changes)`` builds the starting world
    (``(World3D, looks)``) with ``changes`` (SlimeParams fields) set on every slime; ``template``:
    the SlimeParams a dropped slime starts from (its radius and mass are varied, its centre set)."""

    def __init__(self, make_world: Callable[[dict], tuple], template: SlimeParams, *,
                 base_look: SlimeLook | None = None, seed=None, limit: int = limits.WINDOW_SLIMES[1]):
        self._make_world = make_world
        self.template = template
        self.base_look = base_look or SlimeLook()
        self.changes: dict = {}  # SlimeParams fields set on every slime since the start (kept by reset)
        self.gravity: tuple | None = None  # the world's gravity once changed (kept by reset)
        self.limit = int(limit)
        self.rng = np.random.default_rng(seed)
        self.generation = 0
        self.world: World3D | None = None
        self.reset()

    # --- the world as a whole -------------------------------------------------------------------
    def _relaid(self) -> None:
        self.generation += 1

    def reset(self) -> None:
        """The world as it started, with the parameter changes made since kept."""
        world, looks = self._make_world(dict(self.changes))
        for body, look in zip(world.bodies, looks):
            body.tag = look
        if self.gravity is not None:
            world.set_gravity(self.gravity)
        self.world = world
        self._relaid()

    @property
    def count(self) -> int:
        return len(self.world.bodies)

    @property
    def full(self) -> bool:
        """No more slimes may be dropped (``limit``, limits.WINDOW_SLIMES)."""
        return self.count >= self.limit

    @property
    def looks(self) -> list:
        return [body.tag for body in self.world.bodies]

    def step(self) -> None:
        self.world.step()

    def set_params(self, **changes) -> None:
        """SlimeParams fields set on every slime (and on the template of dropped ones); ValueError
        (nothing changed) where any slime refuses them."""
        template = self.template.with_(**changes)
        new = {index: body.params.with_(**changes) for index, body in enumerate(self.world.bodies)}
        self.world.set_slimes_params(new)
        self.template = template
        self.changes.update(changes)
        self._relaid()

    def set_material(self, name: str) -> None:
        """Every slime (and the template of dropped ones) made of the named material: each one's
        ``SlimeParams.with_material(name)``, every material field replaced, the rest kept. An
        unknown name: ValueError, nothing changed."""
        self.set_params(**find_material(name).values)

    def material_name(self) -> str:
        """What the slimes are made of, as it is: a material's name where every slime has exactly
        that material's values, CUSTOM where they share values no material has (a slider or a key
        changed one), MIXED where they differ. With no slime left, what a dropped one would be."""
        made_of = {body.params.material for body in self.world.bodies} or {self.template.material}
        if len(made_of) > 1:
            return MIXED
        (material,) = made_of
        return next((name for name, m in MATERIALS.items() if Material(**m.values) == material), CUSTOM)

    def set_gravity(self, gravity) -> None:
        self.world.set_gravity(gravity)
        self.gravity = tuple(float(g) for g in self.world.gravity)
        self.template = self.template.with_(gravity=self.gravity)
        self._relaid()

    def set_looks(self, change: Callable[[SlimeLook], SlimeLook]) -> None:
        """Every slime's look (and the base look of dropped ones) through ``change``."""
        for body in self.world.bodies:
            body.tag = change(body.tag if body.tag is not None else self.base_look)
        self.base_look = change(self.base_look)

    def squash(self) -> None:
        """Every slime flattened onto its lowest point under a rising lid (``World3D.squash``)."""
        self.world.squash()

    def spike(self) -> None:
        """Every slime's vertices jolted (SlimeBody's S key, on all of them)."""
        for index in range(self.count):
            self.world.spike(index, seed=self.rng)

    # --- adding and taking away ------------------------------------------------------------------
    def ray_target(self, origin, direction, reach: float) -> np.ndarray:
        """The point the ray lands on first: a slime, an obstacle or the floor; where it meets
        none of them (up into the sky), the point ``reach`` metres along it."""
        origin = np.asarray(origin, dtype=np.float64)
        direction = np.asarray(direction, dtype=np.float64)
        direction = direction / np.linalg.norm(direction)
        best = np.inf
        found = self.pick(origin, direction)
        if found is not None:
            best = found[1].distance
        world = self.world
        if world.floor_height is not None:
            on_floor = intersect_plane(origin, direction, (0.0, world.floor_height, 0.0), (0.0, 1.0, 0.0))
            if on_floor is not None:
                best = min(best, float(np.linalg.norm(on_floor - origin)))
        if world.obstacles:
            best = min(best, float(ray_hit(origin, direction, world.obstacles)))
        if not np.isfinite(best):
            best = float(reach)
        low, high = limits.SCENE_EXTENT
        return np.clip(origin + best * direction, low, high)

    def drop(self, point) -> int | None:
        """A new slime (the template, a random size and colour) dropped from above ``point``;
        its body index, or None when the window holds ``limit`` slimes already."""
        if self.full:
            return None
        scale = float(self.rng.uniform(*DROP_SIZE))
        radius = float(self.template.radius) * scale
        centre = place_drop(self.world, point, radius)
        params = self.template.with_(radius=radius, mass=float(self.template.mass) * scale ** 3,
                                     center=tuple(float(c) for c in centre))
        hue, saturation, value = self.rng.uniform(0.0, 1.0), self.rng.uniform(*DROP_SATURATION), self.rng.uniform(*DROP_VALUE)
        look = self.base_look.with_color(colorsys.hsv_to_rgb(hue, saturation, value))
        index = self.world.add_slime(params, tag=look)
        self._relaid()
        return index

    def drop_under_ray(self, origin, direction, reach: float) -> int | None:
        return self.drop(self.ray_target(origin, direction, reach))

    def remove_under_ray(self, origin, direction) -> bool:
        """Take away the slime the ray meets first; False when it meets none."""
        found = self.pick(origin, direction)
        if found is None:
            return False
        self.world.remove_slime(found[0])
        self._relaid()
        return True

    # --- the hand ---------------------------------------------------------------------------------
    def pick(self, origin, direction) -> tuple[int, RayHit] | None:
        """(body index, hit) of the first slime along the ray, or None."""
        world = self.world
        return pick_body(origin, direction, world.positions, world.triangles, world.body_of_vertex)

    def valid(self, body: int, generation: int) -> bool:
        """Whether ``body`` taken at ``generation`` still names the same slime."""
        return generation == self.generation and 0 <= body < self.count

    def poke(self, body: int, point, direction) -> None:
        """A click: a push at ``point`` into the slime, toward its centre of mass, POKE_IMPULSE per
        kilogram of the slime over one frame. Toward the centre rather than along the view ray
        (``direction``, used only where the point is at the centre): a click on the top dents it
        down, one on the side pushes it across, whatever the camera's elevation (along a ray from
        a camera 20 degrees up, a click on the top would mostly shove the slime away)."""
        params = self.world.bodies[body].params
        inward = self.world.centroids()[body] - np.asarray(point, dtype=np.float64)
        length = float(np.linalg.norm(inward))
        if length > 1e-9 * float(params.radius):
            direction = inward / length
        force = np.asarray(direction, dtype=np.float64) * POKE_IMPULSE * float(params.mass) / float(params.dt)
        self.world.poke(body, point, force)

    def grab(self, body: int, point) -> None:
        self.world.grab(body, point)

    def drag_to(self, target) -> None:
        self.world.drag_to(target)

    def release(self, velocity=None) -> None:
        self.world.release(velocity)

    def press(self, body: int, point, direction) -> None:
        self.world.press(body, point, direction)

    def unpress(self) -> None:
        self.world.unpress()

    @property
    def pressing(self) -> bool:
        return self.world.hand.finger is not None

    @property
    def holding(self) -> int | None:
        """The body the hand holds (a grab or a press), or None."""
        return self.world.hand.body


def single_slime_world(params: SlimeParams, look: SlimeLook | None = None) -> Callable[[dict], tuple]:
    """``make_world`` for the demo's one slime: a world with its settings and ``params``' slime."""

    def make(changes: dict) -> tuple:
        slime = params.with_(**changes) if changes else params
        world = World3D.for_slime(slime)
        world.add_slime(slime, tag=look)
        return world, [look]

    return make
