"""`slime view`'s page in a real browser, offline: headless Chromium (software WebGL) with every
name unresolvable and every connection but loopback sent to a dead proxy, opens the page the
command serves; the three.js it loads ships with the package (web/three). The slimes are drawn
and the run plays; a run or a module that does not load is said on the page, and a bad file is
said by the command in one line before any server starts. CI installs Chromium (.ci/run);
elsewhere the browser tests skip without it."""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pygltflib
import pytest
from PIL import Image

from conftest import missing
from slime import cli
from slime.app import view
from slime.paths import WEB

ROOT = Path(__file__).resolve().parents[2]
BACKGROUND = np.array([0xDF, 0xE7, 0xEE])


def browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    missing("Chromium (apt-get install chromium)")


@pytest.fixture(scope="module")
def run_file(tmp_path_factory) -> Path:
    """The pile's first 0.8 s: its slimes falling into their box, all of it motion (they land at
    about 1 s, and a heap at rest is the same picture half a second later), so any two frames of
    the looping page half a second apart differ."""
    path = tmp_path_factory.mktemp("run") / "pile.glb"
    assert cli.main(["simulate", "pile", "--ticks", "48", "--output", str(path), "--no-progress"]) == 0
    return path


@pytest.fixture(scope="module")
def served(run_file):
    """The page and the run as `slime view` serves them."""
    server, url = view.serve(run_file)
    yield url
    server.shutdown()
    server.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def folder_server(tmp_path):
    """A plain server of a folder the test fills: a page beside files `slime view` would refuse."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield tmp_path, f"http://127.0.0.1:{server.server_address[1]}/{view.PAGE}"
    server.shutdown()
    server.server_close()


OFFLINE = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--proxy-server=http://0.0.0.0:1"]
CHROMIUM = ["--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", *OFFLINE]


def chromium_run(*args) -> subprocess.CompletedProcess:
    # Offline: no name resolves (but the loopback address), and what would go out meets a closed port.
    return subprocess.run([browser(), *CHROMIUM, "--window-size=400,300", "--virtual-time-budget=4000", *args],
                          capture_output=True, text=True, timeout=120)


class DevTools:
    """Chromium driven over its DevTools pipe (fd 3 in, fd 4 out, NUL-ended JSON), in real time:
    screenshots taken when the test says, of the page as it plays."""

    def __init__(self, tmp_path: Path):
        commands, self._to_browser = os.pipe()
        self._from_browser, replies = os.pipe()

        def pipes_as_3_and_4():
            os.dup2(commands, 3)
            os.dup2(replies, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.process = subprocess.Popen([browser(), *CHROMIUM, "--remote-debugging-pipe", f"--user-data-dir={tmp_path}",
                                         "about:blank"], preexec_fn=pipes_as_3_and_4, close_fds=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands)
        os.close(replies)
        self._read, self._ids, self.session = b"", 0, None

    def call(self, method: str, **params) -> dict:
        self._ids += 1
        message = {"id": self._ids, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._read:
                chunk = os.read(self._from_browser, 1 << 20)
                assert chunk, "Chromium closed its DevTools pipe"
                self._read += chunk
            line, self._read = self._read.split(b"\0", 1)
            reply = json.loads(line)
            if reply.get("id") == self._ids:
                assert "error" not in reply, reply
                return reply["result"]

    def open(self, url: str, width: int = 400, height: int = 300) -> None:
        target = self.call("Target.createTarget", url=url)["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    def value(self, expression: str):
        return self.call("Runtime.evaluate", expression=expression)["result"].get("value")

    def screenshot(self, path: Path) -> np.ndarray:
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))
        return np.asarray(Image.open(path).convert("RGB")).astype(int)

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)
        os.close(self._to_browser)
        os.close(self._from_browser)


def page_text(url: str) -> str:
    """The page's message once it has tried, from the DOM Chromium dumps."""
    dom = chromium_run("--dump-dom", url).stdout
    found = re.search(r'<div id="message"[^>]*>(.*?)</div>', dom, flags=re.S)
    assert found, dom[-2000:]
    return found.group(1)


@pytest.mark.slow
def test_the_page_draws_the_pile_and_plays_it_offline(served, tmp_path):
    browser()
    chromium = DevTools(tmp_path / "profile")
    try:
        chromium.open(served)
        waited = 0.0
        while not chromium.value("document.getElementById('message').hidden"):  # hidden once the run plays
            assert waited < 90, chromium.value("document.getElementById('message').textContent")
            time.sleep(0.25)
            waited += 0.25
        first = chromium.screenshot(tmp_path / "first.png")
        time.sleep(0.5)
        later = chromium.screenshot(tmp_path / "later.png")
    finally:
        chromium.close()
    assert first.shape == (300, 400, 3)
    for picture in (first, later):
        drawn = np.any(np.abs(picture - BACKGROUND) > 12, axis=-1).mean()
        coloured = (picture.max(axis=-1) - picture.min(axis=-1) > 60).mean()  # the slimes' colours, not grey walls
        assert drawn > 0.2, drawn
        assert coloured > 0.01, coloured
    moved = np.mean(np.any(np.abs(first - later) > 30, axis=-1))
    assert moved > 0.01, f"two frames half a second apart are the same picture ({moved:.4f} changed): the run does not play"


@pytest.mark.slow
def test_a_run_the_server_does_not_have_is_said_on_the_page(served):
    text = page_text(served.replace("pile.glb", "nothing.glb"))
    assert text.startswith("cannot load run/nothing.glb: the server says 404"), text


@pytest.mark.slow
def test_a_cut_or_foreign_file_is_said_on_the_page(folder_server, run_file):
    folder, url = folder_server
    shutil.copy(WEB / view.PAGE, folder / view.PAGE)
    (folder / "three").symlink_to(WEB / "three", target_is_directory=True)
    (folder / "cut.glb").write_bytes(run_file.read_bytes()[:5000])
    (folder / "notes.glb").write_text("not a run")
    assert "cut short (5000 of" in page_text(f"{url}?file=cut.glb")
    assert "cannot load notes.glb: it is not a binary glTF (.glb) file" in page_text(f"{url}?file=notes.glb")
    assert "`slime view RUN.glb` opens this page" in page_text(url)  # no ?file= at all


@pytest.mark.slow
def test_three_js_that_does_not_load_is_said_on_the_page(folder_server, run_file):
    folder, url = folder_server
    shutil.copy(WEB / view.PAGE, folder / view.PAGE)  # and no three/ beside it
    shutil.copy(run_file, folder / "pile.glb")
    assert page_text(f"{url}?file=pile.glb").startswith("cannot load three.js (")


def test_the_page_and_three_js_ship_without_the_network():
    """Every module the page and its add-ons import is a file in the package, of the pinned
    release, with its licence; the page names no address on another machine."""
    page = (WEB / view.PAGE).read_text()
    assert not re.search(r"\b(?:https?:)?//[\w.-]+\.\w", page.split("-->", 1)[1]), "the page fetches from the network"
    imports = json.loads(re.search(r'<script type="importmap">(.*?)</script>', page, flags=re.S).group(1))["imports"]
    three = (WEB / imports["three"]).resolve()
    assert three.is_file() and three.stat().st_size > 500_000
    addons = (WEB / imports["three/addons/"]).resolve()
    wanted = [addons / name for name in re.findall(r'import\("three/addons/([\w/.]+)"\)', page)]
    assert len(wanted) == 3, wanted
    while wanted:  # and the add-ons' own relative imports
        source = wanted.pop()
        assert source.is_file(), source
        wanted += [(source.parent / rel).resolve() for rel in re.findall(r"from '(\.\.?/[\w/.]+)'", source.read_text())]
    pinned = json.loads((ROOT / ".ci" / "node" / "package.json").read_text())["dependencies"]["three"]
    assert (WEB / "three" / "VERSION").read_text().strip() == pinned
    assert "MIT License" in (WEB / "three" / "LICENSE").read_text()


def _foreign_glb(path: Path) -> Path:
    doc = pygltflib.GLTF2(asset=pygltflib.Asset(version="2.0", generator="another program"))
    doc.save_binary(str(path))
    return path


@pytest.mark.parametrize("make, said", [
    (lambda tmp: tmp / "nothing.glb", "nothing.glb: no such file"),
    (lambda tmp: tmp, "not a file"),
    (lambda tmp: (tmp / "notes.glb").write_text("hello") and tmp / "notes.glb", "not a binary glTF (.glb) file"),
    (lambda tmp: _foreign_glb(tmp / "other.glb"), "not a slime run (written by another program)"),
])
def test_slime_view_refuses_a_bad_file_in_one_line_before_any_server(tmp_path, capsys, monkeypatch, make, said):
    def no_server(*args, **kwargs):
        raise AssertionError("a server started")

    monkeypatch.setattr(view, "ThreadingHTTPServer", no_server)
    assert cli.main(["view", str(make(tmp_path)), "--no-open"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("slime: error: ") and said in err and err.count("\n") == 1, err


def test_slime_view_refuses_a_cut_run(tmp_path, capsys, monkeypatch):
    assert cli.main(["simulate", "slime", "--ticks", "2", "--output", str(tmp_path / "whole.glb"), "--no-progress"]) == 0
    whole = (tmp_path / "whole.glb").read_bytes()
    (tmp_path / "cut.glb").write_bytes(whole[: len(whole) // 2])
    capsys.readouterr()
    monkeypatch.setattr(view, "ThreadingHTTPServer", None)
    assert cli.main(["view", str(tmp_path / "cut.glb"), "--no-open"]) == 2
    err = capsys.readouterr().err
    assert f"cut short ({len(whole) // 2} of the {len(whole)} bytes" in err and err.count("\n") == 1, err


@pytest.mark.slow
def test_slime_view_no_open_prints_the_url_and_serves_page_and_run(run_file):
    process = subprocess.Popen([sys.executable, "-m", "slime", "view", str(run_file), "--no-open"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/\S+", line).group(0)
        assert "<title>slime run</title>" in urllib.request.urlopen(url, timeout=10).read().decode()
        run_url = url.split(view.PAGE)[0] + url.split("?file=")[1]
        assert urllib.request.urlopen(run_url, timeout=10).read() == run_file.read_bytes()
        three = url.split(view.PAGE)[0] + "three/three.module.min.js"
        assert urllib.request.urlopen(three, timeout=10).status == 200
    finally:
        process.terminate()
        process.wait(timeout=20)
