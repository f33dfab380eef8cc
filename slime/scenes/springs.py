"""The Spring simulation article's spring experiments: a chain of bobs on springs, the first one tied to the mouse.

Nine presets (keys 1-9) with the article's numbers, mode toggles and parameter keys; the HUD lists
them with their current values. Units are the article's: pixels, frames, y down, gravity +y.
The step semantics (damping as a kept fraction of velocity, gravity added after it, bobs updated
one after another) live in :mod:`slime.physics.mass_spring.yoyo`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

from slime.physics.mass_spring.particles import Particles
from slime import theme
from slime.physics.mass_spring.yoyo import chain_step, fence
from slime.scenes.base import DrawList, Param, Scene2D, contain, extent

WINDOW = (1200.0, 800.0)
BOB_RADIUS = 30.0
# The fastest a bob may move, in pixels per frame: across the whole window's diagonal. None of
# the presets comes near it; a stiffness or damping past the chain's stable region would
# otherwise grow without bound (see slime.physics.mass_spring.yoyo.cap_speed).
SPEED_LIMIT = math.hypot(*WINDOW)
# Bobs stop at a box ten windows out on every side (slime.physics.mass_spring.yoyo.fence).
FENCE = (-10.0 * np.asarray(WINDOW), 11.0 * np.asarray(WINDOW))


@dataclass(frozen=True)
class Preset:
    """A preset (the Spring simulation article's numbers): the scene's attributes it sets, laid
    over BASIC's, or over the scene's current state where ``over_basic`` is False."""

    name: str
    settings: dict = field(default_factory=dict)
    over_basic: bool = True


# Preset 1, and the base every other preset starts from.
BASIC = {
    "natural_mode": False, "gravity_mode": False, "anchor_mode": True, "ring_mode": False, "muscle_mode": False,
    "mass_mode": False, "chain_mode": 0, "gravity": (0.0, 1.0),
    "stiffness": 0.02, "damping": 0.96, "mass": 3.0, "rest_length": 100.0, "bob_count": 1,
}
PRESETS = {
    1: Preset("basic"),
    2: Preset("fast movement", {"stiffness": 0.2, "damping": 0.7}),
    3: Preset("yo-yo 1A / 4A (a releases)", {"gravity_mode": True, "stiffness": 0.01, "damping": 0.98, "gravity": (0.0, 0.7)}),
    4: Preset("yo-yo 5A", {"anchor_mode": False, "natural_mode": True, "bob_count": 2}),
    5: Preset("solo-hum", {"natural_mode": True, "ring_mode": True, "gravity_mode": True, "stiffness": 0.02,
                           "damping": 0.98, "rest_length": 100.0, "gravity": (0.0, 0.5), "bob_count": 3}),
    6: Preset("mystery creature", {"anchor_mode": False, "natural_mode": True, "ring_mode": True, "muscle_mode": True,
                                   "stiffness": 0.02, "damping": 0.96, "rest_length": 70.0, "bob_count": 3}),
    7: Preset("caterpillar", {"natural_mode": True, "stiffness": 0.6, "damping": 0.6, "rest_length": 25.0, "bob_count": 20}),
    8: Preset("night-market spring", {"natural_mode": True, "stiffness": 0.7, "damping": 0.6, "rest_length": 5.0,
                                      "bob_count": 30}),
    # The article's eel does not start from the basic preset: mass and chain modes carry over.
    9: Preset("caught eel", {"natural_mode": True, "gravity_mode": True, "anchor_mode": True, "ring_mode": False,
                             "muscle_mode": False, "stiffness": 0.45, "damping": 0.7, "rest_length": 3.0,
                             "gravity": (0.0, 0.6), "bob_count": 20}, over_basic=False),
}

TOGGLE_KEYS = {"n": "natural_mode", "g": "gravity_mode", "s": "mass_mode", "w": "wind_mode",
               "m": "muscle_mode", "a": "anchor_mode"}


def ruby_round_text(value: float, digits: int) -> str:
    """``value.round(digits)`` as Ruby prints it: half away from zero, shortest float text."""
    if not math.isfinite(value):
        return str(value)
    q = Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return repr(float(q))


class SpringsScene(Scene2D):
    name = "springs"
    title = "spring experiments (the Spring simulation article)"
    bounds = (0.0, 0.0, WINDOW[0], WINDOW[1])
    y_down = True
    hud_above = True  # the HUD's strip, not the hand's corner of the world
    dt = 1.0  # the Spring simulation article counts in frames
    UNATTENDED_PRESET = 7  # headless: the caterpillar's 20-bob chain (one bob is a dot from afar)
    # Headless the hand loops around (0.6, 0.5) of the window (see ``unattended``): the camera
    # shows that loop, moved only if the chain swings out of it.
    UNATTENDED_VIEW = (0.3 * WINDOW[0], 0.2 * WINDOW[1], 0.9 * WINDOW[0], 0.8 * WINDOW[1])
    help_lines = [
        "mouse: moves the anchor (the hand)",
        "1-9: presets",
        "left/right: stiffness -/+ 0.01",
        "up/down: damping +/- 0.01 (0..1)",
        "j/k: rest length +/- 1",
        "h/l: gravity y -/+ 0.1",
        "enter/backspace: add/remove a bob",
        "n: natural (rest) length on/off",
        "g: gravity on/off",
        "s: mass on/off (force / mass)",
        "w: wind on/off",
        "m: muscle (breathing rest length) on/off",
        "c: chain mode 0 (both) / 1 (parent) / 2 (child)",
        "r: ring on/off",
        "a: anchor (mouse spring) on/off",
    ]
    keys = (*"123456789", "left", "right", "up", "down", "j", "k", "h", "l", "enter", "backspace",
            *TOGGLE_KEYS, "c", "r")

    def __init__(self, seed: int = 1):
        self.rng = np.random.default_rng(seed)
        self.anchor = np.array([WINDOW[0] / 2, WINDOW[1] / 2])  # the mouse until it moves
        self.wind_mode = False  # the presets leave the wind alone, as the article's do
        self.mass_mode = False
        self.chain_mode = 0
        self.frame_count = 0
        self.capped_frames, self.last_capped_frame = 0, None  # frames in which a bob met SPEED_LIMIT
        self.preset = 1
        self.view = tuple(self.bounds)  # the window shows the article's whole window: the mouse is the hand
        self.apply_preset(1)

    # --- bobs -------------------------------------------------------------------------------

    def _init_bobs(self) -> None:
        self.bobs = Particles.create(np.zeros((0, 2)))
        self._add_bobs(self.bob_count)

    def _add_bobs(self, n: int = 1) -> None:
        for _ in range(n):
            location = np.asarray(WINDOW) * self.rng.random(2)  # anywhere in the window, as the Spring simulation article
            self.bobs.append(Particles.create([location], mass=self.mass, radius=BOB_RADIUS))
        self._link()

    def _remove_bobs(self, n: int = 1) -> None:
        keep = max(self.bobs.count - n, 0)
        self.bobs.remove(np.arange(keep))
        self._link()

    def _link(self) -> None:
        """Each bob's parent is the one before it and its child the one after; a ring closes it."""
        n = self.bobs.count
        self.parent = np.arange(n) - 1
        self.child = np.arange(n) + 1
        if n:
            self.child[-1] = -1
            if self.ring_mode:
                self.parent[0] = n - 1
                self.child[-1] = 0

    # --- presets (the article's numbers) -------------------------------------------------------

    def apply_preset(self, number: int) -> None:
        self.preset = number
        preset = PRESETS[number]
        for name, value in ({**BASIC, **preset.settings} if preset.over_basic else preset.settings).items():
            setattr(self, name, np.array(value, dtype=np.float64) if name == "gravity" else value)
        self._init_bobs()

    def reset(self) -> None:
        self.apply_preset(self.preset)

    # --- time -------------------------------------------------------------------------------

    def current_rest_length(self) -> float:
        """Muscle mode breathes the rest length between 0 and its value, one breath a second (60 frames)."""
        if self.muscle_mode:
            turn = self.frame_count / 60.0
            return self.rest_length * 0.5 + math.sin(turn * 2.0 * math.pi) * self.rest_length * 0.5
        return self.rest_length

    def step(self) -> None:
        self.frame_count += 1
        b = self.bobs
        if b.count == 0:
            return
        b.velocity_scale[:] = self.damping
        b.inv_mass[:] = 1.0 / self.mass
        capped = chain_step(
            b,
            self.parent,
            self.child,
            stiffness=self.stiffness,
            rest_length=self.current_rest_length(),
            natural=self.natural_mode,
            use_mass=self.mass_mode,
            pull_parent=self.chain_mode in (0, 1),
            pull_child=self.chain_mode in (0, 2),
            anchor=self.anchor if self.anchor_mode else None,
            wind=np.array([1.0, 0.0]) if self.wind_mode else None,
            gravity=self.gravity if self.gravity_mode else None,
            speed_limit=SPEED_LIMIT,
        )
        fence(b, *FENCE)
        if capped:
            self.capped_frames += 1
            self.last_capped_frame = self.frame_count
        if not np.all(np.isfinite(b.positions)) or not np.all(np.isfinite(b.velocities)):
            # A stiffness pushed past stability can blow up: start the preset's bobs afresh.
            self._init_bobs()

    # --- recording --------------------------------------------------------------------------

    def positions(self) -> np.ndarray:
        """The bobs, then the anchor (mouse) as the last point."""
        return np.concatenate([self.bobs.positions, self.anchor[None, :]])

    def springs(self) -> np.ndarray:
        """Chain links (k-1, k), then the ring link (last, 0), then the anchor link (anchor, 0)."""
        n = self.bobs.count
        if n == 0:
            return np.zeros((0, 2), dtype=np.int64)
        links = [np.stack([np.arange(n - 1), np.arange(1, n)], axis=1), [[n - 1, 0], [n, 0]]]
        return np.concatenate(links).astype(np.int64)

    def alive(self) -> np.ndarray:
        n = self.bobs.count
        if n == 0:
            return np.zeros(0, dtype=bool)
        return np.concatenate([np.ones(n - 1, dtype=bool), [self.ring_mode and n > 1, self.anchor_mode]])

    # --- drawing ----------------------------------------------------------------------------

    def view_bounds(self) -> tuple[float, float, float, float]:
        return self.view

    def draw_list(self) -> DrawList:
        d = DrawList()
        x = self.bobs.positions
        n = self.bobs.count
        if n:
            has_child = self.child >= 0
            d.add_lines(x[has_child], x[self.child[has_child]], theme.INK)
            if self.anchor_mode:
                d.add_lines(self.anchor, x[0], theme.INK)
            d.add_circles(x, BOB_RADIUS, theme.faded(theme.BODY, 0.35), filled=True)
            d.add_circles(x, BOB_RADIUS, theme.BODY, filled=False)
        d.add_circles(self.anchor, 6.0, theme.ACCENT, filled=True)
        return d

    def hud(self) -> list[str]:
        """The preset and every value the keys change, each with its keys; H lists them all."""
        on = lambda flag: "on" if flag else "off"  # noqa: E731
        g = f"({ruby_round_text(float(self.gravity[0]), 2)}, {ruby_round_text(float(self.gravity[1]), 2)})"
        chain = ("both ways", "pulls parent", "pulls child")[self.chain_mode]
        lines = [
            f"preset {self.preset}: {PRESETS[self.preset].name}   (keys 1-9; the mouse is the hand)",
            f"stiffness {ruby_round_text(self.stiffness, 3)} [left/right]   damping {ruby_round_text(self.damping, 2)} "
            f"[up/down]   rest length {ruby_round_text(self.rest_length, 2)} [j/k]",
            f"gravity {g} {on(self.gravity_mode)} [h/l, g]   bobs {self.bob_count} [enter/backspace]   "
            f"mass {self.mass!r} {on(self.mass_mode)} [s]",
            f"rest length {on(self.natural_mode)} [n]   muscle {on(self.muscle_mode)} [m]   "
            f"hand's spring {on(self.anchor_mode)} [a]   ring {on(self.ring_mode)} [r]",
            f"wind {on(self.wind_mode)} [w]   chain {chain} [c]",
        ]
        if self.last_capped_frame is not None and self.frame_count - self.last_capped_frame < 60:
            lines.append("speed capped: unstable settings")
        return lines

    def problems(self) -> list[str]:
        if not self.capped_frames:
            return []
        return [f"the bobs reached the speed cap ({SPEED_LIMIT:.0f} px per frame) in {self.capped_frames} of "
                f"{self.frame_count} frames: stiffness {self.stiffness:g} with damping {self.damping:g} is past "
                "the chain's stable region (lower either)"]

    def parameters(self) -> list[Param]:
        def setter(attr, lo=None, hi=None):
            def set_(value):
                setattr(self, attr, float(np.clip(value, lo, hi)) if lo is not None else float(value))
            return set_

        def set_gravity_y(value):
            self.gravity = np.array([self.gravity[0], float(value)])

        return [
            Param("stiffness", lambda: self.stiffness, setter("stiffness"), 0.0, 1.0),
            Param("damping", lambda: self.damping, setter("damping", 0.0, 1.0), 0.0, 1.0),
            Param("rest length", lambda: self.rest_length, setter("rest_length"), 0.0, 300.0),
            Param("gravity y", lambda: float(self.gravity[1]), set_gravity_y, -3.0, 3.0),
            Param("mass", lambda: self.mass, setter("mass", 0.1, 100.0), 0.1, 20.0),
        ]

    # --- input ------------------------------------------------------------------------------

    def key(self, name: str) -> None:
        if name in ("1", "2", "3", "4", "5", "6", "7", "8", "9"):
            self.apply_preset(int(name))
        elif name in TOGGLE_KEYS:
            attr = TOGGLE_KEYS[name]
            setattr(self, attr, not getattr(self, attr))
        elif name == "c":
            self.chain_mode = (self.chain_mode + 1) % 3
        elif name == "r":
            self.ring_mode = not self.ring_mode
            self._link()
        elif name in ("left", "right"):
            self.stiffness += (-1 if name == "left" else 1) * 0.01
        elif name in ("up", "down"):
            self.damping = float(np.clip(self.damping + (1 if name == "up" else -1) * 0.01, 0.0, 1.0))
        elif name in ("j", "k"):
            self.rest_length += (1 if name == "j" else -1) * 1.0
        elif name in ("h", "l"):
            self.gravity = self.gravity + (-1 if name == "h" else 1) * 0.1 * np.array([0.0, 1.0])
        elif name == "enter":
            self.bob_count += 1
            self._add_bobs()
        elif name == "backspace":
            # The Spring simulation article lets the count go negative with no bobs left; stop at zero instead.
            if self.bob_count > 0:
                self.bob_count -= 1
                self._remove_bobs()

    def mouse_move(self, xy) -> None:
        self.anchor = np.array(xy, dtype=np.float64).reshape(2)

    def headless(self) -> None:
        self.apply_preset(self.UNATTENDED_PRESET)
        self.view = self.UNATTENDED_VIEW

    def unattended(self, frame: int) -> None:
        # No mouse in a headless run: the hand traces a Lissajous loop (periods of 2 s and 4/3 s
        # at 60 steps per second), so the springs have something to follow; held still, a bob just
        # settles onto the hand and nothing shows. The run shows the caterpillar preset's chain
        # (a single bob is a dot from afar), with the camera on the hand's loop. (The periods are
        # also short enough that the basic preset's bob trails by 60-110 px, its spring well
        # outside its 30 px ring, and twice its own period, so nothing resonates.)
        t = frame / 60.0
        centre = np.array([0.6 * WINDOW[0], 0.5 * WINDOW[1]])
        self.anchor = centre + np.array([0.22 * WINDOW[0] * np.sin(2 * np.pi * t / 2.0),
                                         0.25 * WINDOW[1] * np.cos(2 * np.pi * t / (4.0 / 3.0))])
        self.view = contain(self.view, extent(np.vstack([self.bobs.positions, self.anchor]), BOB_RADIUS), 10.0)

    def mouse_drag(self, xy, button: str) -> None:
        self.mouse_move(xy)


def make_scene(seed: int = 1) -> SpringsScene:
    return SpringsScene(seed)
