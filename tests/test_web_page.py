"""examples/view_in_browser.html in a real browser: headless Chromium (software WebGL) loads a
`slime simulate` glTF through the page, with three.js served from .ci/node/node_modules in place of
the CDN (the same release, see test_gltf_readers.py), and draws the slimes; a file that is not
there is said on the page. CI installs Chromium (.ci/run); elsewhere these skip without it."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import missing
from slime import cli

# Chromium starts in seconds: left out of the quick subset (-m "not slow").
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
THREE = ROOT / ".ci" / "node" / "node_modules" / "three"
CDN = re.compile(r"https://cdn\.jsdelivr\.net/npm/three@[\d.]+/")


def browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    missing("Chromium (apt-get install chromium)")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The page (importmap pointed at the local three.js) and pile.glb, served over http."""
    chromium = browser()
    if not THREE.is_dir():
        missing("three in .ci/node/node_modules (npm ci --prefix .ci/node)")
    folder = tmp_path_factory.mktemp("site")
    page = (ROOT / "examples" / "view_in_browser.html").read_text()
    local, swaps = CDN.subn("/three/", page)
    assert swaps == 2, "the page's importmap names three.js and its add-ons on the CDN"
    (folder / "view_in_browser.html").write_text(local)
    (folder / "three").symlink_to(THREE, target_is_directory=True)
    assert cli.main(["simulate", "pile", "--ticks", "30", "--output", str(folder / "pile.glb")]) == 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield chromium, f"http://127.0.0.1:{server.server_address[1]}/view_in_browser.html", folder
    server.shutdown()
    server.server_close()


def chromium_run(chromium: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run([chromium, "--headless=new", "--no-sandbox", "--use-angle=swiftshader",
                           "--enable-unsafe-swiftshader", "--window-size=400,300", "--virtual-time-budget=8000",
                           *args], capture_output=True, text=True, timeout=120)


def test_the_page_draws_the_pile(site, tmp_path):
    chromium, url, _ = site
    shot = tmp_path / "page.png"
    done = chromium_run(chromium, f"--screenshot={shot}", url)
    assert shot.exists(), done.stderr[-2000:]
    picture = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    background = np.array([0xDF, 0xE7, 0xEE])
    drawn = np.any(np.abs(picture - background) > 12, axis=-1).mean()
    coloured = (picture.max(axis=-1) - picture.min(axis=-1) > 60).mean()  # the slimes' colours, not grey walls
    assert drawn > 0.2, drawn
    assert coloured > 0.01, coloured


def test_a_missing_file_is_said_on_the_page(site):
    chromium, url, _ = site
    done = chromium_run(chromium, "--dump-dom", f"{url}?file=nothing.glb")
    assert "cannot load nothing.glb" in done.stdout, done.stdout[-2000:]
