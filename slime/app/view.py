"""``slime view RUN.glb``: the browser page that plays a recorded run, served from this machine.

The page and the three.js it loads ship with the package (``slime.web``, the checkout's ``web/``),
so it needs no network. Browsers load modules and a .glb only over http, so the command serves
the page's folder and the one run on 127.0.0.1 (a free port), opens the page, and serves until
Ctrl-C. The run is checked first: a file that is missing, cut short or not a slime run is said in
one line before any server starts.
"""

from __future__ import annotations

import functools
import json
import struct
import threading
import webbrowser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from slime.interrupts import Terminated
from slime.paths import WEB

PAGE = "view_in_browser.html"
RUN_PREFIX = "/run/"  # where the page fetches the run from; every other path is the page's folder
_GLB_MAGIC = 0x46546C67  # "glTF", little-endian
_JSON_CHUNK = 0x4E4F534A  # "JSON"


def check_run(path: Path) -> Path:
    """``path`` if it is a .glb that ``slime simulate`` wrote, whole; else a one-line ValueError."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    size = path.stat().st_size
    with path.open("rb") as f:
        head = f.read(20)
        if len(head) < 20 or struct.unpack_from("<I", head)[0] != _GLB_MAGIC:
            raise ValueError(f"{path}: not a binary glTF (.glb) file; "
                             "`slime simulate SCENE --ticks N --output run.glb` writes one")
        _, version, length, json_length, kind = struct.unpack("<5I", head)
        if version != 2:
            raise ValueError(f"{path}: glTF version {version}; the page reads glTF 2")
        if length != size:
            raise ValueError(f"{path}: cut short ({size} of the {length} bytes its header says); write it again")
        if kind != _JSON_CHUNK or 20 + json_length > size:
            raise ValueError(f"{path}: its first chunk is not glTF's JSON; not a glTF file slime wrote")
        try:
            generator = json.loads(f.read(json_length)).get("asset", {}).get("generator", "")
        except (ValueError, AttributeError):
            raise ValueError(f"{path}: its JSON chunk does not parse; not a glTF file slime wrote") from None
    if not str(generator).startswith("slime"):
        raise ValueError(f"{path}: not a slime run (written by {generator or 'an unnamed program'}); "
                         "`slime view` plays the .glb `slime simulate` writes")
    return path


class _Handler(SimpleHTTPRequestHandler):
    """The page's folder, read only, and the one run at RUN_PREFIX + its name."""

    def __init__(self, *args, run: Path, **kwargs):
        self.run = run
        super().__init__(*args, directory=str(WEB), **kwargs)

    def translate_path(self, path):
        name = unquote(urlsplit(path).path)
        if name == RUN_PREFIX + self.run.name:
            return str(self.run)
        return super().translate_path(path)

    def log_message(self, *args):  # a request a line would bury the URL the user needs
        pass


def serve(run: Path) -> tuple[ThreadingHTTPServer, str]:
    """A server for ``run`` (checked) running on its own thread, and the page's URL."""
    run = check_run(run).resolve()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, run=run))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{PAGE}?file={quote(RUN_PREFIX[1:] + run.name)}"
    return server, url


def view(run: Path, open_browser: bool = True) -> int:
    """Serve ``run`` until Ctrl-C, opening the page unless ``open_browser`` is False."""
    server, url = serve(run)
    try:
        print(f"serving {run} at {url} (Ctrl-C stops)", flush=True)
        if open_browser and not webbrowser.open(url):
            print("slime: no browser to open here; open the URL above in one", flush=True)
        threading.Event().wait()
    except KeyboardInterrupt as exc:
        if isinstance(exc, Terminated):  # SIGTERM stays SIGTERM (status 143)
            raise
        print("stopped")
        return 0
    finally:
        server.shutdown()
        server.server_close()
