"""The one shader loader: GLSL files from the shader folder, with ``#include "file.glsl"`` lines
replaced by those files, compiled into moderngl programs."""

from __future__ import annotations

import moderngl

from slime.paths import SHADERS


def load_source(filename: str) -> str:
    """The text of ``shaders/<filename>`` with its ``#include "other.glsl"`` lines replaced by those files."""
    lines = []
    for line in (SHADERS / filename).read_text().splitlines():
        if line.startswith("#include "):
            lines.append(load_source(line.split(None, 1)[1].strip().strip('"')))
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


def load_program(ctx: moderngl.Context, name: str) -> moderngl.Program:
    """``shaders/<name>.vert`` + ``shaders/<name>.frag`` as one program."""
    return ctx.program(vertex_shader=load_source(f"{name}.vert"), fragment_shader=load_source(f"{name}.frag"))
