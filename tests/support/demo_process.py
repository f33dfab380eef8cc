"""The demo window in a subprocess on an X display (Xvfb), driven by xdotool and read back by its
own screenshots: the driver the window tests share."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
from PIL import Image

from helpers import xdotool

WINDOW = (640, 480)


class Demo:
    """The demo in a subprocess on ``display``; its stdout lines are collected as they come."""

    def __init__(self, display: str, folder: Path, **options):
        self.env = dict(os.environ, DISPLAY=display, SLIME_DEMO_LOG="1")
        self.env.pop("WAYLAND_DISPLAY", None)
        self.folder = folder
        arguments = "".join(f", {name}={value!r}" for name, value in options.items())
        code = f"from slime.app.demo import run_demo; raise SystemExit(run_demo(size={WINDOW!r}{arguments}))"
        self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=folder, env=self.env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def xdo(self, *args) -> str:
        done = xdotool(self.env["DISPLAY"], *args)
        assert done.returncode == 0, f"xdotool {' '.join(args)}: {done.stderr.strip()} / demo: {self.lines[-5:]}"
        return done.stdout

    def wait_for(self, predicate, what: str, timeout: float = 20.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = predicate()
            if found:
                return found
            assert self.proc.poll() is None, f"demo exited early ({self.proc.returncode}): {self.lines[-10:]}"
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; demo said {self.lines[-10:]}")

    def screenshot(self) -> np.ndarray:
        count = len([ln for ln in self.lines if ln.endswith(".png")])
        self.xdo("key", "p")
        line = self.wait_for(lambda: [ln for ln in self.lines if ln.endswith(".png")][count:], "a screenshot")[0]
        path = Path(line)
        assert path.parent == self.folder.resolve() / "out" and path.name.startswith("slime-")
        with Image.open(path) as im:
            assert im.size == WINDOW
            return np.asarray(im.convert("RGB"))

    def clock(self, word: str) -> float:
        """The simulation's time (s) on the demo's last ``<word> at T`` line."""
        return float(self.logged(word)[-1].split()[-1])

    def screenshot_after(self, start: float, seconds: float) -> np.ndarray:
        """The first screenshot taken at least ``seconds`` of simulated time after ``start``: the
        window's frames come slower on a loaded machine, and the physics' clock with them."""
        while True:
            image = self.screenshot()
            if self.clock("shot at") >= start + seconds:
                return image
            time.sleep(0.05)

    def quit(self) -> None:
        """Escape closes the window, and the demo exits with status 0."""
        self.xdo("key", "Escape")
        assert self.proc.wait(timeout=20) == 0

    def stop(self) -> None:
        """Kill the demo if a failed test left it running."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def logged(self, word: str) -> list[str]:
        return [ln for ln in self.lines if ln.startswith(word + " ")]

    def focus(self) -> str:
        """Wait for the demo's window to be mapped, give it the keyboard; returns its X window id.
        A window that exists but is not viewable yet refuses the focus (BadMatch): under load the
        window manager-less Xvfb maps it a moment after it is named, so the focus is retried."""
        window = self.xdo("search", "--sync", "--onlyvisible", "--name", "^slime$").split()[0]
        deadline = time.monotonic() + 10.0
        while True:
            done = xdotool(self.env["DISPLAY"], "windowfocus", "--sync", window)
            if done.returncode == 0:
                return window
            assert time.monotonic() < deadline, f"xdotool windowfocus {window}: {done.stderr.strip()} / demo: {self.lines[-5:]}"
            time.sleep(0.1)
