"""Adaptive quality for the slime window: step the picture down when frames miss their budget and
back up when there is room again, as games do with dynamic resolution.

``QualityController`` is plain Python (no GL): it is fed each frame's time and says which
``QualityLevel`` to draw at; tests feed it synthetic frame times. Levels run from the best
(index 0) to the cheapest; each is a multisample count, a render scale (the scene is drawn at
that fraction of the window's size and scaled up) and whether the contact shadow keeps its soft
halo.

Hysteresis: it steps down after a window of frames (WINDOW_FRAMES or WINDOW_SECONDS) whose mean
misses the budget by more than ``DOWN_MARGIN`` (two levels at once where it takes over twice the
budget); it steps up only after ``probe_wait`` seconds at a level whose frames meet the
budget, and when a step up misses at once the wait before the next try doubles (up to
``MAX_PROBE_WAIT``), so a machine on the edge does not flicker between two levels. With vsync a
frame that fits the budget reads as the budget itself, so the headroom cannot be seen; trying the
level above is the only way to learn whether it fits.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class QualityLevel:
    name: str
    samples: int  # multisampling (0: off)
    scale: float  # render scale, a fraction of the window's pixels per side
    shadow_halo: bool  # the contact shadow's soft halo (off: one exp less per floor pixel)


LEVELS = (
    QualityLevel("high", samples=4, scale=1.0, shadow_halo=True),
    QualityLevel("medium", samples=0, scale=1.0, shadow_halo=True),
    QualityLevel("low", samples=0, scale=0.75, shadow_halo=True),
    QualityLevel("lowest", samples=0, scale=0.5, shadow_halo=False),
)
LEVEL_NAMES = tuple(level.name for level in LEVELS)

TARGET_FPS = 60.0
WINDOW_FRAMES = 30  # frames averaged before a decision (half a second at 60 FPS)...
WINDOW_SECONDS = 0.5  # ...or fewer where they take longer than this (at least MIN_WINDOW_FRAMES)
MIN_WINDOW_FRAMES = 5
DOWN_MARGIN = 1.08  # step down when the mean frame takes 8 % more than the budget (< 55.5 FPS)
UP_MARGIN = 1.04  # a level "meets the budget" when its mean frame is within 4 % of it (vsync jitter)
PROBE_WAIT = 2.0  # seconds at a level that meets the budget before trying the one above
MAX_PROBE_WAIT = 32.0


class QualityController:
    """Feed ``frame(seconds)`` once per frame; read ``level`` (a QualityLevel) and ``index``.

    ``pin(index)`` holds a level whatever the frame times say; ``pin(None)`` adapts again.
    """

    def __init__(self, levels=LEVELS, *, target_fps: float = TARGET_FPS, start: int = 0, pinned: int | None = None):
        self.levels = tuple(levels)
        self.budget = 1.0 / float(target_fps)
        self.index = int(start)
        self.pinned: int | None = None
        self.probe_wait = PROBE_WAIT
        self._times: deque[float] = deque(maxlen=WINDOW_FRAMES)
        self._at_level = 0.0  # seconds spent at the current level
        self._probing = False  # the last change was a step up not yet confirmed
        if pinned is not None:
            self.pin(pinned)

    @property
    def level(self) -> QualityLevel:
        return self.levels[self.index]

    @property
    def adaptive(self) -> bool:
        return self.pinned is None

    def pin(self, index: int | None) -> None:
        if index is None:
            self.pinned = None
        else:
            if not 0 <= int(index) < len(self.levels):
                raise ValueError(f"quality level must be 0 to {len(self.levels) - 1}, got {index!r}")
            self.pinned = self.index = int(index)
        self._restart()

    def frame(self, seconds: float) -> bool:
        """Count one frame that took ``seconds``; True when the level changed."""
        seconds = float(seconds)
        if not seconds > 0.0 or self.pinned is not None:
            return False
        self._times.append(seconds)
        self._at_level += seconds
        total = sum(self._times)
        if len(self._times) < self._times.maxlen and (total < WINDOW_SECONDS or len(self._times) < MIN_WINDOW_FRAMES):
            return False
        mean = total / len(self._times)
        if mean > self.budget * DOWN_MARGIN:
            if self.index == len(self.levels) - 1:
                self._times.clear()
                return False
            if self._probing:  # the level above did not fit: wait longer before the next try
                self.probe_wait = min(2.0 * self.probe_wait, MAX_PROBE_WAIT)
            steps = 2 if mean > 2.0 * self.budget else 1
            self.index = min(self.index + steps, len(self.levels) - 1)
            self._restart()
            return True
        if self._probing and self._at_level >= PROBE_WAIT:
            self._probing = False  # the step up held: the next one may come as soon as ever
            self.probe_wait = PROBE_WAIT
        if self.index > 0 and mean <= self.budget * UP_MARGIN and self._at_level >= self.probe_wait:
            self.index -= 1
            self._restart()
            self._probing = True
            return True
        return False

    def _restart(self) -> None:
        self._times.clear()
        self._at_level = 0.0
        self._probing = False
