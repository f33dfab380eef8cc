"""The Soda Constructor scene: a model walking in its box, to watch, drag and build on.

The model files it loads and saves are slime/scenes/soda_format.py's; the physics (one tick of the
original program) is slime/physics/mass_spring/soda.py's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from slime.fileio import OUTPUT_FOLDER, resolved
from slime.paths import ASSETS
from slime import theme
from slime.physics.mass_spring.soda import (
    SODA_DT, WALL_LEFT, WALL_NAMES, WALL_RIGHT, WALL_UNKNOWN, SodaModel, blowup_advice, tick,
)
from slime.scenes.base import DrawList, Follow, Param, Scene2D, extent
from slime.scenes.soda_format import DAINTY_WALKER, load_model, save_model

# Drawn sizes, in metres. Soda Constructor draws 1-pixel springs and 8-pixel masses at 240 px per
# metre; here springs and masses are drawn bolder (the theme's look), scaled with the picture.
MASS_RADIUS = 0.028
MUSCLE_MARK_RADIUS = 0.02
SPRING_WIDTH = 0.02
PICK_RADIUS = 0.08  # metres: how near a click must be to grab a mass or a spring
PADDING = 0.15
CAMERA_MARGIN = 0.1  # metres the camera keeps round the walker
WALL_WORDS = {"unknown": "none yet", "left": "left", "right": "right"}


def _segment_distance(points: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Distance from one point (2,) to each segment start->end (S, 2)."""
    along = ends - starts
    length_sq = np.einsum("ij,ij->i", along, along)
    t = np.einsum("ij,ij->i", points - starts, along) / np.where(length_sq > 0, length_sq, 1.0)
    nearest = starts + np.clip(t, 0.0, 1.0)[:, None] * along
    return np.linalg.norm(points - nearest, axis=1)


class SodaScene(Scene2D):
    """A Soda Constructor model walking in its box: one Soda Constructor tick per frame.

    Simulate mode: drag a mass with the left button (it follows the cursor). Construct mode
    ('c'): time stops; left click on empty space adds a mass, on mass A then mass B joins them
    with a spring of their current distance; right click deletes a mass (and its springs) or
    a spring; a left drag moves a mass.
    """

    name = "soda"
    y_down = False
    stroke = SPRING_WIDTH
    hud_above = True  # the box fills the bounds: in a small picture the HUD would cover its top
    help_lines = [
        "left drag: pull a mass",
        "c: construct mode on/off (time stops while building)",
        "  construct: left click empty space = new mass; mass A then mass B = spring",
        "  construct: right click a mass or spring = delete it",
        "w: reverse the wave",
        "r: reset to the loaded model",
        "ctrl+s: save the model (Soda Constructor JSON format)",
    ]
    keys = ("c", "w", "r", "ctrl+s")

    def __init__(self, model: SodaModel, save_path=None, dt: float = SODA_DT):
        self.initial = model.copy()
        self.model = model
        self.dt = dt
        self.save_path = Path(save_path) if save_path is not None else Path.cwd() / OUTPUT_FOLDER / "soda_model.json"
        self.title = f"Soda: {model.name}" if model.name else "Soda"
        self.ticks = 0
        self.construct = False
        self.selected: int | None = None  # construct mode: the first mass of a new spring
        self.dragged: int | None = None
        self.drag_target = np.zeros(2)
        self.message = ""
        # The camera closes in on the walker and follows it along the box (building shows it all).
        self.camera = Follow(self.bounds, grow=1.15, smallest=0.5, inside=self.bounds)

    # --- time ------------------------------------------------------------------------------

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        m = self.model
        return (-PADDING, -PADDING, m.width + PADDING, m.height + PADDING)

    def step(self) -> None:
        if self.construct:
            return
        held = None
        if self.dragged is not None:
            held = (np.array([self.dragged]), self.drag_target[None, :])
        tick(self.model, self.dt, held)
        self.ticks += 1
        # A margin round the walker, so the floor under its feet shows.
        self.camera.update(extent(self.model.locations, MASS_RADIUS + CAMERA_MARGIN))

    def view_bounds(self) -> tuple[float, float, float, float]:
        return self.bounds if self.construct or self.model.mass_count == 0 else self.camera.view

    def reset(self) -> None:
        self.model = self.initial.copy()
        self.ticks = 0
        self.camera.reset(self.bounds)
        self.selected = self.dragged = None
        self.message = "reset"

    # --- recording -------------------------------------------------------------------------

    def positions(self) -> np.ndarray:
        return self.model.locations.copy()

    def springs(self) -> np.ndarray:
        return self.model.springs.pairs

    def alive(self) -> np.ndarray:
        return self.model.springs.alive.copy()

    # --- drawing ---------------------------------------------------------------------------

    def draw_list(self) -> DrawList:
        m = self.model
        x = m.locations
        s = m.springs
        draw = DrawList()
        draw.add_boxes([0.0, 0.0], [m.width, m.height], theme.WALL, filled=False)
        draw.add_lines(x[s.a], x[s.b], theme.INK)
        muscle = s.amplitude != 0.0  # Soda Constructor marks muscles at their midpoints
        if muscle.any():
            middle = 0.5 * (x[s.a[muscle]] + x[s.b[muscle]])
            draw.add_circles(middle, MUSCLE_MARK_RADIUS, theme.ACCENT, filled=True)
        draw.add_circles(x, MASS_RADIUS, theme.BODY, filled=True)
        for index in (self.selected, self.dragged):
            if index is not None and index < m.mass_count:
                draw.add_circles(x[index], 2.0 * MASS_RADIUS, theme.FIELD, filled=False)
        return draw

    def hud(self) -> list[str]:
        m = self.model
        lines = [
            f"{m.name or 'untitled'}" + (f" by {m.author}" if m.author else ""),
            f"{'building (time stopped, c to run)' if self.construct else 'running'}   tick {self.ticks}   "
            f"masses {m.mass_count}   springs {m.spring_count}",
            f"muscle wave {'forward' if m.wave_direction > 0 else 'reversed'} (w flips it)   "
            f"last wall touched: {WALL_WORDS[WALL_NAMES[m.last_wall]]}",
        ]
        if m.blowups:
            lines.append(f"{m.blowups} tick(s) undone ({m.blowup_cause or 'the springs ran away'})")
        if self.message:
            lines.append(self.message)
        return lines

    def problems(self) -> list[str]:
        m = self.model
        if not m.blowups:
            return []
        return [f"{m.blowups} tick(s) undone, the masses held still: {blowup_advice(m)}"]

    def parameters(self) -> list[Param]:
        def setter(attribute):
            return lambda value: setattr(self.model, attribute, float(value))

        def set_gravity(value):
            self.model.gravity[1] = -float(value)

        return [
            Param("gravity", lambda: -self.model.gravity[1], set_gravity, 0.0, 0.2),
            Param("friction", lambda: self.model.friction, setter("friction"), 0.0, 1.0),
            Param("springiness", lambda: self.model.stiffness, lambda v: self.model.set_stiffness(v), 0.0, 40.0),
            Param("wave amplitude", lambda: self.model.wave_amplitude, setter("wave_amplitude"), 0.0, 1.0),
            Param("wave speed", lambda: self.model.wave_speed, setter("wave_speed"), 0.0, 0.3),
        ]

    # --- input -----------------------------------------------------------------------------

    def key(self, name: str) -> None:
        if name == "c":
            self.construct = not self.construct
            self.selected = self.dragged = None
            self.message = "construct mode" if self.construct else "simulate mode"
        elif name == "w":
            self.model.wave_direction = -self.model.wave_direction or 1.0
        elif name == "r":
            self.reset()
        elif name == "ctrl+s":
            self.save()

    def save(self, path=None) -> Path:
        target = Path(path) if path is not None else self.save_path
        try:
            written = save_model(self.model, target)
        except OSError as error:
            self.message = f"could not save {target}: {error.strerror or error}"
            raise
        self.message = f"saved {written}"
        return written

    def nearest_mass(self, xy) -> int | None:
        x = self.model.locations
        if x.shape[0] == 0:
            return None
        distance = np.linalg.norm(x - np.asarray(xy, dtype=np.float64), axis=1)
        nearest = int(np.argmin(distance))
        return nearest if distance[nearest] <= PICK_RADIUS else None

    def nearest_spring(self, xy) -> int | None:
        s = self.model.springs
        if s.count == 0:
            return None
        x = self.model.locations
        distance = _segment_distance(np.asarray(xy, dtype=np.float64), x[s.a], x[s.b])
        nearest = int(np.argmin(distance))
        return nearest if distance[nearest] <= PICK_RADIUS else None

    def mouse_press(self, xy, button: str) -> None:
        xy = np.asarray(xy, dtype=np.float64).reshape(2)
        hit = self.nearest_mass(xy)
        if not self.construct:
            if button == "left" and hit is not None:
                self.dragged = hit
                self.drag_target = xy.copy()
            return
        if button == "left":
            if hit is None:
                self.model.add_mass(xy)
                self.selected = None
            elif self.selected is not None and self.selected != hit:
                if self.model.add_spring(self.selected, hit) is None:
                    self.message = "those masses are already joined"
                self.selected = None
            else:
                self.selected = hit
                self.dragged = hit
                self.drag_target = xy.copy()
        elif button == "right":
            if hit is not None:
                self.model.remove_mass(hit)
                self.selected = self.dragged = None
            else:
                spring = self.nearest_spring(xy)
                if spring is not None:
                    self.model.remove_spring(spring)

    def mouse_drag(self, xy, button: str) -> None:
        if self.dragged is None:
            return
        self.drag_target = np.asarray(xy, dtype=np.float64).reshape(2).copy()
        if self.construct:  # time is stopped: move the mass directly
            self.model.locations[self.dragged] = self.drag_target
            self.model.velocities[self.dragged] = 0.0
            self.model.acceleration[self.dragged] = 0.0

    def mouse_release(self, xy, button: str) -> None:
        if button == "left":
            self.dragged = None


def _default_save_path(path: Path) -> Path:
    """Save next to a user's model file; never over the shipped assets (save into out/ instead)."""
    try:
        resolved(path).relative_to(ASSETS.resolve())
    except (ValueError, OSError):  # not under the assets (or a link loop, which cannot be theirs)
        return path
    return Path.cwd() / OUTPUT_FOLDER / path.name


def make_scene(path=None) -> SodaScene:
    """The soda scene: Dainty Walker by default, or the model file at ``path``."""
    path = Path(path) if path is not None else DAINTY_WALKER
    return SodaScene(load_model(path), save_path=_default_save_path(path))


__all__ = ["SodaScene", "make_scene"]
