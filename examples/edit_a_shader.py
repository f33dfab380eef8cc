"""Tutorial 3 (docs/3-change-the-shader.md): edit a copy of the shaders and render with it.

Copies the package's shaders into a folder (as `slime shaders export DIR` does), makes one edit to
the jelly's fragment shader (the absorption read backwards, .bgr: blue is absorbed most instead of
red, so the floor seen through the teal body turns lime-yellow), and renders the slime with the original shaders and with
the copy, side by side:

    python examples/edit_a_shader.py [OUT_FOLDER]        # default: out/
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image

from slime.app.render_slime import render_slime
from slime.render.images import save_png
from slime.render.shader_files import ShaderFolder

ORIGINAL = "vec3 half_transmit = exp(-u_absorption * "
EDITED = "vec3 half_transmit = exp(-u_absorption.bgr * "


def main(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    shaders = out / "my_shaders"
    ShaderFolder().export(shaders, force=True)
    frag = shaders / "slime.frag"
    frag.write_text(frag.read_text().replace(ORIGINAL, EDITED))

    pictures = []
    for name, folder in (("original", None), ("edited", shaders)):
        path = out / f"slime_{name}.png"
        render_slime(output=path, frames=1, size=(320, 240), stacks=16, slices=16, progress=False, shaders=folder)
        pictures.append(np.asarray(Image.open(path).convert("RGB")))
    both = out / "slime_original_and_edited.png"
    save_png(both, np.hstack(pictures))
    return both


if __name__ == "__main__":
    print(f"wrote {main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path('out'))}")
