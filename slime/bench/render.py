"""Frames per second of the whole headless slime frame at 800x600, drawn by the world renderer as
`slime render` draws it: physics step (all substeps), normals, buffer upload, drawing (the light's
maps, the backdrop, the floor's shadows, the jelly, the MSAA resolve) and readback.

One row per mesh (the default sphere, 64x64 and 128x128) and per sampling (none, 4x MSAA), with
the time split into its parts so a slow case says where the time goes.
"""

from __future__ import annotations

import time

import numpy as np

SIZE = (800, 600)


def _case(ctx, stacks, slices, frames: int, samples: int, warm: int = 5) -> dict:
    from slime.app.render_world import HeadlessWorld
    from slime.physics.slime3d.slime_body import SlimeBody, SlimeParams

    changes = {k: v for k, v in (("stacks", stacks), ("slices", slices)) if v is not None}
    body = SlimeBody(SlimeParams(**changes))
    scene = HeadlessWorld(body, size=SIZE, samples=samples, ctx=ctx)
    try:
        top = lambda: body.positions[np.argmax(body.positions[:, 1])].copy()  # noqa: E731
        for _ in range(warm):  # warm-up: shader compilation, first uploads, caches
            body.step()
            scene.draw()
        parts = np.zeros(3)  # physics, normals + upload, draw + readback
        start = time.perf_counter()
        for i in range(frames):
            if i % 30 == 0:  # keep it wobbling: a resting body is not the case that matters
                body.poke(top(), np.array([0.3, -1.0, 0.2]) * 40.0 * float(body.params.mass))
            t0 = time.perf_counter()
            body.step()
            t1 = time.perf_counter()
            scene.update()
            t2 = time.perf_counter()
            scene.read()
            t3 = time.perf_counter()
            parts += (t1 - t0, t2 - t1, t3 - t2)
        total = time.perf_counter() - start
        ms = 1000.0 * parts / frames
        return {
            "benchmark": "render",
            "stacks": int(body.params.stacks),
            "slices": int(body.params.slices),
            "width": SIZE[0],
            "height": SIZE[1],
            "samples": samples,
            "fps": frames / total,
            "physics_ms": float(ms[0]),
            "normals_upload_ms": float(ms[1]),
            "draw_readback_ms": float(ms[2]),
        }
    finally:
        scene.release()


def run(quick: bool = False) -> list[dict]:
    from slime.render.context import create_headless_context

    ctx = create_headless_context()
    frames, warm = (2, 1) if quick else (120, 5)  # quick: a smoke run, every row but two frames (the test of its JSON)
    rows = []
    try:
        for samples in (0, 4):  # llvmpipe pays ~2x for 4x MSAA; windows get it from the driver
            for stacks, slices in ((None, None), (64, 64), (128, 128)):
                rows.append(_case(ctx, stacks, slices, frames, samples=samples, warm=warm))
    finally:
        ctx.release()
    return rows


if __name__ == "__main__":
    import json
    import sys

    for row in run(quick="--quick" in sys.argv):
        print(json.dumps(row))
