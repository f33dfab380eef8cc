"""The slime window's bench mode (``run_demo(bench_seconds=...)``, ``slime bench --window``):
after a warm-up (the quality controller's first decisions), count frames for that long, print one
JSON line and close."""

from __future__ import annotations

import json
import time

WARM_UP = 4.0  # seconds before the count starts


class FrameRateBench:
    def __init__(self, seconds: float):
        self.seconds = float(seconds)
        self.started: float | None = None  # when the window's first frame was
        self.measured: tuple[float, int] | None = None  # (when, frame count) the count started

    def frame(self, window) -> None:
        """Once a frame, after it is drawn."""
        now = time.perf_counter()
        if self.started is None:
            self.started = now
            return
        if self.measured is None:
            if now - self.started >= WARM_UP:
                self.measured = (now, window.frame_count)
            return
        since, count = self.measured
        if now - since >= self.seconds:
            width, height = (int(v) for v in window.wnd.buffer_size)
            print(json.dumps({"benchmark": "window", "width": width, "height": height,
                              "fps": (window.frame_count - count) / (now - since),
                              "quality": window.quality.level.name, "adaptive": window.quality.adaptive}), flush=True)
            window.wnd.close()
