"""Where the package's non-Python files live: the GLSL shaders, the Soda models and the web page.

In the checkout they are the top-level ``shaders/``, ``assets/`` and ``web/`` folders; pyproject.toml
installs them as the package data ``slime.shaders``, ``slime.assets`` and ``slime.web`` (an editable install maps those names
back to the checkout's folders), so ``importlib.resources`` finds them however slime was installed.
"""

from importlib.resources import files
from pathlib import Path


def _folder(package: str) -> Path:
    # An installed wheel or an editable checkout keeps the files on disk: the resource root is a folder.
    return Path(str(files(package)))


SHADERS = _folder("slime.shaders")
ASSETS = _folder("slime.assets")
WEB = _folder("slime.web")  # `slime view`'s page and the three.js it loads
