"""The ring-grid volume and area gradients (``volume.GridVolume``): equal to the triangle-by-triangle
formulas on odd grid shapes, and a batch of bodies in one pass equal to each body alone."""

from __future__ import annotations

import numpy as np
import pytest

from slime.physics.slime_forces import area_gradient
from slime.physics.sphere import sphere_triangles, uv_sphere
from slime.physics.volume import GridVolume, fill_grid, mesh_volume, vertex_area_vectors


def _deformed(stacks: int, slices: int, seed: int) -> np.ndarray:
    """(P, 3) a lumpy, stretched sphere off the origin."""
    rng = np.random.default_rng(seed)
    points = uv_sphere(stacks, slices, 1.0) * rng.uniform(0.6, 1.6, size=3)
    return points + rng.normal(scale=0.08, size=points.shape) + rng.normal(size=3)


def _grid5(points: np.ndarray, stacks: int, slices: int) -> np.ndarray:
    x5 = np.zeros((5, stacks + 1, slices + 1))
    fill_grid(x5, points)
    return x5


def _per_vertex(grid: np.ndarray) -> np.ndarray:
    """(3, stacks + 1, slices + 1) grid values -> (P, 3) vertex values (pole rows summed)."""
    s, n = grid.shape[1] - 1, grid.shape[2] - 1
    assert np.all(grid[:, :, n] == 0.0)  # the wrap column is folded onto column 0
    inner = grid[:, 1:s, :n].reshape(3, -1).T
    return np.vstack([grid[:, 0, :n].sum(axis=1), inner, grid[:, s, :n].sum(axis=1)])


@pytest.mark.parametrize("stacks, slices", [(2, 3), (5, 3), (7, 11), (16, 9)])
def test_grid_gradients_equal_the_triangle_formulas(stacks, slices):
    points = _deformed(stacks, slices, seed=stacks * 100 + slices)
    triangles = sphere_triangles(stacks, slices)
    x5 = _grid5(points, stacks, slices)
    grid = GridVolume(stacks, slices)
    grad6 = grid.compute(x5)
    exact = mesh_volume(points, triangles)  # (relative to the vertex mean: the volume does not care)
    assert grid.band_volumes(x5).sum() == pytest.approx(exact, rel=1e-12)  # before area_gradient
    np.testing.assert_allclose(_per_vertex(grad6) / 6.0, vertex_area_vectors(points, triangles), atol=1e-12)
    np.testing.assert_allclose(_per_vertex(grid.area_gradient()) / 2.0, area_gradient(points, triangles), atol=1e-12)
    assert grid.volume_from_gradient(x5) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("dtype, tolerance", [(np.float64, 1e-13), (np.float32, 1e-6)])
def test_a_batch_of_bodies_equals_each_body_alone(dtype, tolerance):
    stacks, slices = 9, 13
    bodies = np.stack([_grid5(_deformed(stacks, slices, seed), stacks, slices) for seed in (1, 2, 3)], axis=1)
    bodies = bodies.astype(dtype)  # (5, 3, stacks + 1, slices + 1)
    batch = GridVolume(stacks, slices, dtype, batch=(3,))
    grad6 = batch.compute(bodies).copy()
    bands = batch.band_volumes(bodies)  # before area_gradient, which reuses the area vectors
    area2 = batch.area_gradient().copy()
    volumes = batch.volume_from_gradient(bodies)
    assert grad6.shape == area2.shape == (3, 3, stacks + 1, slices + 1)
    assert volumes.shape == (3,) and bands.shape == (3, stacks)
    scale = np.abs(grad6).max()
    for b in range(3):
        one = GridVolume(stacks, slices, dtype)
        x5 = np.ascontiguousarray(bodies[:, b])
        np.testing.assert_allclose(grad6[:, b], one.compute(x5), atol=tolerance * scale)
        np.testing.assert_allclose(bands[b], one.band_volumes(x5), rtol=tolerance, atol=tolerance * np.abs(bands).max())
        assert bands[b].sum() == pytest.approx(volumes[b], rel=10 * tolerance)
        np.testing.assert_allclose(area2[:, b], one.area_gradient(), atol=tolerance * np.abs(area2).max())
        single = one.volume_from_gradient(x5)
        assert isinstance(single, float)
        assert volumes[b] == pytest.approx(single, rel=tolerance)
    # Three different bodies: the batch did not compute one body three times.
    assert len({round(float(v), 3) for v in volumes}) == 3


def test_batch_axes_may_be_several():
    stacks, slices = 4, 6
    seeds = np.arange(6).reshape(2, 3)
    bodies = np.stack(
        [np.stack([_grid5(_deformed(stacks, slices, int(seed)), stacks, slices) for seed in row], axis=1) for row in seeds],
        axis=1,
    )  # (5, 2, 3, stacks + 1, slices + 1)
    batch = GridVolume(stacks, slices, batch=(2, 3))
    batch.compute(bodies)
    volumes = batch.volume_from_gradient(bodies)
    assert volumes.shape == (2, 3)
    triangles = sphere_triangles(stacks, slices)
    for i, row in enumerate(seeds):
        for j, seed in enumerate(row):
            exact = mesh_volume(_deformed(stacks, slices, int(seed)), triangles)
            assert volumes[i, j] == pytest.approx(exact, rel=1e-12)


def test_a_collapsed_body_has_a_zero_area_gradient_not_nan():
    stacks, slices = 6, 8
    x5 = np.zeros((5, stacks + 1, slices + 1), dtype=np.float32)  # every vertex at the origin
    grid = GridVolume(stacks, slices, np.float32)
    grid.compute(x5)
    area2 = grid.area_gradient()
    assert np.all(area2 == 0.0)
    assert grid.volume_from_gradient(x5) == 0.0


def test_a_broken_body_does_not_reach_its_neighbours_in_the_batch():
    # The batch lies body after body down one flat run; the bands between bodies must carry
    # nothing, not even a NaN (0 * NaN is NaN), or one broken body would poison the next.
    stacks, slices = 6, 7
    bodies = np.stack([_grid5(_deformed(stacks, slices, seed), stacks, slices) for seed in (4, 5, 6)], axis=1)
    bodies[:, 1] = np.nan
    batch = GridVolume(stacks, slices, batch=(3,))
    grad6 = batch.compute(bodies).copy()
    area2 = batch.area_gradient().copy()
    volumes = batch.volume_from_gradient(bodies)
    assert np.isnan(volumes[1]) and np.isfinite(volumes[[0, 2]]).all()
    for b in (0, 2):
        one = GridVolume(stacks, slices)
        x5 = np.ascontiguousarray(bodies[:, b])
        assert np.array_equal(grad6[:, b], one.compute(x5))
        assert np.array_equal(area2[:, b], one.area_gradient())
