"""The lone slime two render test modules draw: one body and its picture, fixtures a module imports
(``from slime_scene import body, scene``) and sizes with its ``SIZE`` and ``SAMPLES``."""

import pytest

from slime.app.render_world import HeadlessWorld
from slime.physics.slime3d.slime_body import SlimeBody


@pytest.fixture(scope="module")
def body():
    return SlimeBody()


@pytest.fixture(scope="module")
def scene(request, ctx, body):
    """``body`` drawn by the one renderer at the module's ``SIZE`` with its ``SAMPLES`` of MSAA."""
    with ctx:  # built before the autouse fixture makes the context current
        s = HeadlessWorld(body, size=request.module.SIZE, ctx=ctx, samples=request.module.SAMPLES)
    yield s
    s.release()
