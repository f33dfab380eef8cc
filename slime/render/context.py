"""Getting an OpenGL context, with one clear line when there is none; an offscreen target to draw into."""

from __future__ import annotations

import os
import sys

import moderngl
import numpy as np


class GLUnavailable(RuntimeError):
    """No usable OpenGL context; the message is one line that says what to do."""


def has_display() -> bool:
    """True where a window can open (an X11 or Wayland display, or a non-Linux desktop)."""
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def create_headless_context(require: int = 330) -> moderngl.Context:
    """A standalone (windowless) context; tries EGL first on Linux, then the platform default."""
    backends = ["egl", None] if sys.platform.startswith("linux") else [None]
    errors = []
    for backend in backends:
        try:
            kwargs = {"require": require}
            if backend:
                kwargs["backend"] = backend
            return moderngl.create_standalone_context(**kwargs)
        except Exception as exc:  # glcontext raises plain Exception subclasses per backend
            errors.append(f"{backend or 'default'}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
    raise GLUnavailable(
        "no OpenGL context could be created (" + "; ".join(errors) + "); "
        "on Debian/Ubuntu install Mesa's EGL: apt-get install libegl1 libgl1-mesa-dri"
    )


def check_samples(ctx: moderngl.Context, samples) -> int:
    """``samples`` as a multisampling count this GL takes, else a one-line ValueError."""
    # GL takes 0 (none) or a power of two up to its most; llvmpipe's most is 4.
    most = int(ctx.max_samples)
    counts = [0] + [1 << k for k in range(most.bit_length()) if 1 << k <= most]
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples not in counts:
        raise ValueError(f"samples must be one of {', '.join(map(str, counts))} (this GL's), got {samples!r}")
    return int(samples)


class OffscreenTarget:
    """A framebuffer to render into headless, resolved to a plain one for reading.

    Multisampled renderbuffers read back black; with ``samples > 0`` the scene is drawn into the
    multisampled framebuffer and ``copy_framebuffer`` resolves it before ``read``.
    """

    def __init__(self, ctx: moderngl.Context, size, samples: int = 4):
        self.ctx = ctx
        self.size = (int(size[0]), int(size[1]))
        self.samples = check_samples(ctx, samples)
        # Colour only: a renderer drawing here keeps its own depth (WorldRenderer draws in buffers
        # of its own and resolves into this one). The resolved picture is a texture, so a window
        # can draw it scaled (WorldRenderer.present).
        self.texture = ctx.texture(self.size, 4)
        self.resolved = ctx.framebuffer(color_attachments=[self.texture])
        if self.samples > 0:
            self.draw = ctx.framebuffer(color_attachments=[ctx.renderbuffer(self.size, 4, samples=self.samples)])
        else:
            self.draw = self.resolved

    def resolve(self) -> moderngl.Framebuffer:
        if self.draw is not self.resolved:
            self.ctx.copy_framebuffer(self.resolved, self.draw)
        return self.resolved

    def release(self) -> None:
        fbos = {id(self.draw): self.draw, id(self.resolved): self.resolved}
        for fbo in fbos.values():
            for att in fbo.color_attachments:
                att.release()
            if fbo.depth_attachment is not None:
                fbo.depth_attachment.release()
            fbo.release()
