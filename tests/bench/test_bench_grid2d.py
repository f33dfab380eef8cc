"""The soft-grid benchmark compares like with like: same initial state everywhere, same physics as the baseline."""

import numpy as np
import pytest

from slime.bench.grid2d import (
    GridSpec,
    PurePythonAllPairsGrid,
    PurePythonGrid,
    PymunkGrid,
    SlimeGrid,
    grid_state,
    run,
)


def test_grid_topology():
    positions, velocities, pairs, rest_length = grid_state(GridSpec(3, spacing=10.0))
    assert positions.shape == (9, 2)
    # 3x3: 6 horizontal + 6 vertical + 4 + 4 diagonal springs.
    assert pairs.shape == (20, 2)
    np.testing.assert_allclose(np.sort(rest_length), [10.0] * 12 + [10.0 * np.sqrt(2)] * 8)
    assert len({tuple(sorted(p)) for p in pairs.tolist()}) == 20


@pytest.mark.parametrize("cls", [SlimeGrid, PurePythonGrid, PurePythonAllPairsGrid, PymunkGrid])
def test_every_engine_starts_from_the_same_state(cls):
    spec = GridSpec(3)
    positions, velocities, _, _ = grid_state(spec)
    engine = cls(spec)
    np.testing.assert_array_equal(engine.positions(), positions)
    np.testing.assert_array_equal(engine.velocities(), velocities)


def squeezed_spec_and_engines(cls_list):
    """A 3x3 grid whose bottom row already sinks into the floor, with springs too short
    (rest 20, spacing 12, radius 8), so springs, contacts, the floor impact and the sink fix all act."""
    spec = GridSpec(3, spacing=12.0, radius=8.0, drift=1.5)
    engines = [cls(spec) for cls in cls_list]
    shift = np.array([0.0, spec.height - 5.0 - 2 * spec.spacing - spec.margin * spec.spacing])
    rng = np.random.default_rng(3)
    jiggle = rng.normal(0.0, 2.0, (9, 2))
    return spec, engines, shift, jiggle


def test_one_step_of_ours_equals_the_pure_python_baseline():
    spec, (ours, cells, all_pairs), shift, jiggle = squeezed_spec_and_engines(
        [SlimeGrid, PurePythonGrid, PurePythonAllPairsGrid]
    )
    # Put the same disturbed state into all three.
    p = ours.world.particles
    p.positions += shift
    p.velocities += jiggle
    ours.world.springs.rest_length[:] = 20.0
    for engine in (cells, all_pairs):
        for mass, x, v in zip(engine.masses, p.positions, p.velocities):
            mass.x, mass.y = x
            mass.vx, mass.vy = v
        for actor in engine.world.actors:
            if hasattr(actor, "natural_len"):
                actor.natural_len = 20.0
    floor_hit = False
    for _ in range(3):
        ours.step()
        cells.step()
        all_pairs.step()
        floor_hit |= bool(np.any(ours.walls.hits))
    # Something really happened: contacts fired, and the floor was hit.
    assert ours.contacts.count > 0
    assert floor_hit
    np.testing.assert_allclose(cells.positions(), ours.positions(), rtol=0, atol=1e-9)
    np.testing.assert_allclose(cells.velocities(), ours.velocities(), rtol=0, atol=1e-9)
    np.testing.assert_allclose(all_pairs.positions(), ours.positions(), rtol=0, atol=1e-9)


def test_quick_run_reports_rows_and_ratios():
    rows = run(quick=True, sizes=(3,))
    engines = {r["engine"] for r in rows if r["benchmark"] == "grid2d"}
    assert engines == {"slime", "pure_python", "pure_python_all_pairs", "pymunk"}
    ratios = [r for r in rows if r["benchmark"] == "grid2d_ratio"]
    assert {r["vs"] for r in ratios} == {"pure_python", "pure_python_all_pairs", "pymunk"}
    assert all(r["ratio"] > 0 and np.isfinite(r["ratio"]) for r in ratios)
    assert all(r["steps_per_second"] > 0 for r in rows if r["benchmark"] == "grid2d")
