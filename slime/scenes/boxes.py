"""The box game's box world as a small jump game: walk with the arrows, jump with Z, collect the coins.

The box game's level is kept as it is (pixel coordinates, y down, one frame = one unit of time):
a 640 x 20 floor at y = 460, a 200 x 20 floating floor at (220, 360) with a 20 x 40 wall standing
at each end, and a 20 x 20 player dropped from (300, 0) under gravity 0.1 px/frame^2. Arrows set
the horizontal speed to +-3 px/frame, Z sets the vertical speed to -4 px/frame.

A jump rises v^2 / 2g = 80 px, less than the 100 px from the floor to the floating floor, so a
low step on the left and two higher ledges on the right make every platform reachable, and
coins give the player a reason to climb.
"""

from __future__ import annotations

import numpy as np

from slime.physics.mass_spring.boxes import Boxes, BoxWorld
from slime import theme
from slime.scenes.base import DrawList, Param, Scene2D

WIDTH, HEIGHT = 640.0, 480.0
GRAVITY = 0.1  # px / frame^2, downward (y grows downward)
WALK_SPEED = 3.0  # px / frame
JUMP_SPEED = 4.0  # px / frame, upward
PLAYER_START = (300.0, 0.0)
PLAYER_SIZE = (20.0, 20.0)

# (x, y, w, h) of the static boxes: the box game's four, then this game's additions.
BOX_GAME_LEVEL = [
    (0.0, 460.0, 640.0, 20.0),  # floor
    (220.0, 360.0, 200.0, 20.0),  # floating floor
    (200.0, 340.0, 20.0, 40.0),  # wall at its left end
    (420.0, 340.0, 20.0, 40.0),  # wall at its right end
]
EXTRA_LEVEL = [
    (80.0, 405.0, 80.0, 12.0),  # step up from the floor towards the floating floor
    (490.0, 300.0, 80.0, 12.0),  # ledge right of the floating floor
    (320.0, 240.0, 70.0, 12.0),  # high ledge
    (-20.0, 0.0, 20.0, 480.0),  # screen edges, so the player cannot walk off the world
    (640.0, 0.0, 20.0, 480.0),
]
# Coin centres, one near each platform. The floating floor's coin sits off the player's drop line
# (x 300-320), or the fall from the start would collect it before the player has done anything;
# walking right along that floor picks it up.
COINS = [(120.0, 380.0), (390.0, 348.0), (530.0, 270.0), (355.0, 200.0), (600.0, 440.0)]
COIN_RADIUS = 6.0


class BoxJumpScene(Scene2D):
    name = "boxes"
    title = "box world: the box game's jump game"
    bounds = (0.0, 0.0, WIDTH, HEIGHT)
    y_down = True
    help_lines = [
        "left / right: walk",
        "z: jump (only when standing on something)",
        "r: restart",
    ]
    keys = ("left", "right", "z", "r")

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        level = BOX_GAME_LEVEL + EXTRA_LEVEL
        mins = [PLAYER_START] + [(x, y) for x, y, _, _ in level]
        sizes = [PLAYER_SIZE] + [(w, h) for _, _, w, h in level]
        mass = [1.0] + [np.inf] * len(level)
        self.world = BoxWorld(Boxes.create(mins, sizes, mass=mass), gravity=(0.0, GRAVITY))
        self.player = 0
        self.held: set[str] = set()
        self.jump_requested = False
        self.coins = np.array(COINS, dtype=np.float64)
        self.collected = np.zeros(len(COINS), dtype=bool)
        self.frame = 0
        self.jump_speed = JUMP_SPEED
        self.walk_speed = WALK_SPEED

    # -- time -------------------------------------------------------------------------------
    def step(self) -> None:
        b = self.world.boxes
        v = b.velocities[self.player]
        # The box game sets vx from the arrows every frame (no key: stand still horizontally).
        v[0] = self.walk_speed * (("right" in self.held) - ("left" in self.held))
        # The box game jumps whenever Z is pressed, so the player could climb the air; here a jump
        # needs ground: something was under the player in the last step.
        if self.jump_requested and self.world.grounded[self.player]:
            v[1] = -self.jump_speed
        self.jump_requested = False
        self.world.step()
        self.frame += 1
        self._collect_coins()
        if b.positions[self.player, 1] > HEIGHT + 200.0:  # fell out of the world somehow
            self._respawn()

    def _collect_coins(self) -> None:
        b = self.world.boxes
        lo, hi = b.positions[self.player], b.maxs[self.player]
        nearest = np.clip(self.coins, lo, hi)
        touching = np.sum((nearest - self.coins) ** 2, axis=1) <= COIN_RADIUS**2
        self.collected |= touching

    def _respawn(self) -> None:
        b = self.world.boxes
        b.positions[self.player] = PLAYER_START
        b.velocities[self.player] = 0.0

    # -- recording --------------------------------------------------------------------------
    def positions(self) -> np.ndarray:
        """Centres of every box, the player first."""
        return self.world.boxes.centers.copy()

    # -- drawing ----------------------------------------------------------------------------
    def draw_list(self) -> DrawList:
        b = self.world.boxes
        dl = DrawList()
        static = b.inv_mass == 0.0
        dl.add_boxes(b.positions[static], b.maxs[static], theme.FIXED, filled=True)
        left = ~self.collected
        if np.any(left):
            dl.add_circles(self.coins[left], COIN_RADIUS, theme.GOLD, filled=True)
        color = theme.BODY if self.world.grounded[self.player] else theme.BODY_AIR
        p = self.player
        dl.add_boxes(b.positions[p : p + 1], b.maxs[p : p + 1], color, filled=True)
        return dl

    def hud(self) -> list[str]:
        got, total = int(self.collected.sum()), len(self.collected)
        status = "all coins!" if got == total else f"coins {got}/{total}"
        return [f"left/right walk   z jump   r restart   {status}"]

    def parameters(self) -> list[Param]:
        def setter(name):
            return lambda value: setattr(self, name, float(value))

        return [
            Param("jump speed", lambda: self.jump_speed, setter("jump_speed"), 1.0, 8.0),
            Param("walk speed", lambda: self.walk_speed, setter("walk_speed"), 0.5, 8.0),
            Param("gravity", lambda: float(self.world.gravity[1]), self._set_gravity, 0.02, 0.5),
        ]

    def _set_gravity(self, value: float) -> None:
        self.world.gravity = np.array([0.0, float(value)])

    # -- input ------------------------------------------------------------------------------
    def key(self, name: str) -> None:
        if name in ("left", "right"):
            self.held.add(name)
        elif name == "z":
            self.jump_requested = True
        elif name == "r":
            self.reset()

    def key_up(self, name: str) -> None:
        self.held.discard(name)


def make_scene() -> BoxJumpScene:
    return BoxJumpScene()
