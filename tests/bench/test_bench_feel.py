"""`slime bench --only feel` measures what it says: a softer slime dents deeper and sags more, a
drop from 2 m squashes it and a throw comes to rest, on a small mesh (quick)."""

from __future__ import annotations

import math

from slime.bench import feel
from slime.physics.slime3d.slime_body import SlimeParams

SMALL = dict(stacks=8, slices=8)


def test_a_softer_slime_dents_deeper_and_sags_more():
    firm, soft = SlimeParams(**SMALL), SlimeParams(**SMALL, shape_stiffness=300.0, viscosity=4.0)
    firm_body, soft_body = feel.settled(firm, 1.0), feel.settled(soft, 1.0)
    height = lambda body: float(body.positions[:, 1].max() - body.positions[:, 1].min())  # noqa: E731
    assert height(soft_body) < height(firm_body)
    firm_click, soft_click = feel.click(firm_body, 0.8), feel.click(soft_body, 0.8)
    assert 0.0 < firm_click["dent"] < soft_click["dent"]
    assert soft_click["dent_at"] > firm_click["dent_at"]  # a softer body takes longer to stop the click
    assert soft_click["wobble_peaks"] >= 1 and soft_click["wobble_hz"] >= 0.0


def test_a_drop_squashes_and_a_throw_is_timed():
    dropped = feel.drop(SlimeParams(**SMALL), seconds=1.5)
    assert 0.0 < dropped["drop_squash"] < 1.0 and 0.0 <= dropped["drop_bounce"] < 1.0
    # A very viscous slime comes to rest soon after the window's throw; a seconds limit it cannot
    # meet gives inf.
    thick = feel.window_throw(SlimeParams(**SMALL, viscosity=60.0, air_drag=5.0), seconds=4.0)
    assert thick["throw_rest_s"] < 4.0 and thick["throw_speed"] > 3.0
    assert feel.window_throw(SlimeParams(**SMALL), seconds=0.05)["throw_rest_s"] == math.inf


def test_the_feel_row_carries_every_figure():
    row = feel.feel(SlimeParams(**SMALL), "jelly")
    assert set(row) >= {"benchmark", "stacks", "slices", "material", "settled_height", "dent", "dent_at", "dent_held",
                        "wobble_hz", "wobble_peaks", "drop_squash", "drop_bounce", "throw_speed", "throw_lift",
                        "throw_reach", "throw_rest_s", "wall_rest_s"}
    assert row["benchmark"] == "feel" and row["stacks"] == 8
