"""A triangle mesh's measures (slime/mesh.py): area vectors, smooth vertex normals, corner sums and
the enclosed volume of a deformed surface, against analytic values and finite differences; and the
renderer's normals against the step's compiled volume gradient (slime3d/surface.py): the light
falls along the direction the pressure pushes."""

import numpy as np

import pytest

from slime.mesh import (VertexAreaSums, VertexNormals, corner_sum, mesh_volume, triangle_area_vectors, vertex_area_sums,
                        vertex_normals)
from slime.physics.slime3d.sphere import sphere_triangles, uv_sphere
from slime.physics.slime3d.surface import surface_gradients


def _deformed_sphere(stacks=20, slices=24, seed=0):
    """A star-shaped blob: sphere squashed, shifted and given random radial bumps."""
    rng = np.random.default_rng(seed)
    unit = uv_sphere(stacks, slices, 1.0)
    bump = 1.0 + 0.25 * rng.uniform(-1.0, 1.0, len(unit))
    return unit * bump[:, None] * [1.4, 0.6, 1.0] + [3.0, 0.6, -2.0], sphere_triangles(stacks, slices)


def test_normals_of_a_round_sphere_are_radial():
    pos = uv_sphere(32, 32, 2.0, center=(1.0, 2.0, 3.0))
    n = vertex_normals(pos, sphere_triangles(32, 32))
    radial = (pos - [1.0, 2.0, 3.0]) / 2.0
    assert np.allclose(np.linalg.norm(n, axis=1), 1.0)
    assert np.min(np.einsum("ij,ij->i", n, radial)) > 0.995


def test_normals_point_outward_on_a_deformed_body():
    pos, tris = _deformed_sphere()
    n = vertex_normals(pos, tris)
    # Outward for a star-shaped body: away from the centre, and agreeing with the faces around it.
    outward = pos - pos.mean(axis=0)
    assert np.all(np.einsum("ij,ij->i", n, outward) > 0.0)
    assert np.allclose(np.linalg.norm(n, axis=1), 1.0)
    # Summed over the closed surface, the area vectors cancel; the vertex normals lean outward.
    assert np.linalg.norm(triangle_area_vectors(pos, tris).sum(axis=0)) < 1e-9


def test_normals_of_a_squashed_body_match_the_ellipsoid_gradient():
    a, b, c = 1.4, 0.6, 1.0
    pos = uv_sphere(48, 48, 1.0) * [a, b, c]
    n = vertex_normals(pos, sphere_triangles(48, 48))
    exact = pos / np.array([a, b, c]) ** 2
    exact /= np.linalg.norm(exact, axis=1, keepdims=True)
    angle = np.degrees(np.arccos(np.clip(np.einsum("ij,ij->i", n, exact), -1.0, 1.0)))
    assert angle.max() < 2.0


def test_vertex_normals_are_area_weighted():
    # Vertex 0 is shared by a big triangle in the z = 0 plane and a small one in the x = 0 plane:
    # the blend leans toward the big one by the ratio of their areas.
    pos = np.array([[0, 0, 0], [4, 0, 0], [0, 4, 0], [0, 0, -1], [0, 1, 0]], dtype=float)
    tris = np.array([[0, 1, 2], [0, 3, 4]])
    n = VertexNormals(tris, len(pos))(pos)
    big, small = 8.0, 0.5  # areas
    expected = np.array([small, 0.0, big]) / np.hypot(small, big)
    assert np.allclose(n[0], expected)


def test_collapsed_triangles_give_zero_not_nan():
    pos = np.zeros((3, 3))
    n = vertex_normals(pos, np.array([[0, 1, 2]]))
    assert np.all(np.isfinite(n)) and np.all(n == 0.0)


def test_out_buffer_is_reused():
    pos, tris = _deformed_sphere(8, 8)
    vn = VertexNormals(tris, len(pos))
    out = np.empty((len(pos), 3))
    assert vn(pos, out=out) is out
    assert np.allclose(out, vertex_normals(pos, tris))


def test_area_vectors_are_np_cross_bit_for_bit_and_twice_the_area():
    pos, tris = _deformed_sphere(9, 11, seed=3)
    x0, x1, x2 = (pos[tris[:, k]] for k in range(3))
    # The written-out cross product does np.cross's operations in its order: the same bits.
    assert np.array_equal(triangle_area_vectors(pos, tris), np.cross(x1 - x0, x2 - x0))
    right = triangle_area_vectors(np.array([[0.0, 0, 0], [3, 0, 0], [0, 2, 0]]), np.array([[0, 1, 2], [0, 2, 1]]))
    assert right.tolist() == [[0.0, 0.0, 6.0], [0.0, 0.0, -6.0]]  # 2 x area, counter-clockwise side


def test_vertex_sums_are_the_corner_sums_and_the_volume_gradient():
    pos, tris = _deformed_sphere(12, 10, seed=5)
    area = triangle_area_vectors(pos, tris)
    # The same scatter, corner by corner: the same bits.
    assert np.array_equal(vertex_area_sums(pos, tris), corner_sum(tris, lambda k: area, len(pos)))
    # The sums of a closed surface cancel, and a sixth of them is dV/dx (central differences).
    sums = VertexAreaSums(tris, len(pos))(pos)
    assert np.abs(sums.sum(axis=0)).max() < 1e-9
    grad = sums / 6.0
    for v, axis in ((0, 2), (17, 0), (60, 1)):
        step = np.zeros_like(pos)
        step[v, axis] = 1e-6
        numeric = (mesh_volume(pos + step, tris) - mesh_volume(pos - step, tris)) / 2e-6
        assert abs(numeric - grad[v, axis]) < 1e-7
    # The normals are these sums, made unit.
    unit = sums / np.linalg.norm(sums, axis=1, keepdims=True)
    np.testing.assert_allclose(vertex_normals(pos, tris), unit, rtol=0, atol=1e-15)


def test_corner_sums_of_one_value_a_corner_give_each_vertex_its_triangles_count_and_area_share():
    pos, tris = _deformed_sphere(6, 5, seed=2)
    count = corner_sum(tris, lambda k: np.ones(len(tris)), len(pos))
    assert count.shape == (len(pos),)
    np.testing.assert_array_equal(count, np.bincount(tris.ravel(), minlength=len(pos)))
    # A third of every triangle's area at each corner: the shares add up to the whole area.
    area = 0.5 * np.linalg.norm(triangle_area_vectors(pos, tris), axis=1)
    assert corner_sum(tris, lambda k: area / 3.0, len(pos)).sum() == pytest.approx(area.sum(), rel=1e-13)


def test_the_volume_of_a_sphere_and_of_a_box_far_from_the_origin():
    # A UV sphere's volume approaches 4/3 pi r^3 from below as it is refined; a unit cube far off
    # keeps its exact volume (measured about the vertex mean).
    coarse, fine = (mesh_volume(uv_sphere(n, n, 2.0), sphere_triangles(n, n)) for n in (16, 128))
    exact = 4.0 / 3.0 * np.pi * 8.0
    assert coarse < fine < exact and fine == pytest.approx(exact, rel=1e-3)
    cube = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
    faces = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [2, 3, 7], [2, 7, 6],
                      [0, 4, 7], [0, 7, 3], [1, 2, 6], [1, 6, 5]])
    assert mesh_volume(cube + 1e7, faces) == pytest.approx(1.0, rel=1e-9)


@pytest.mark.parametrize("stacks, slices", [(5, 7), (20, 24)])
def test_the_renderers_normals_point_where_the_steps_pressure_pushes(stacks, slices):
    pos, tris = _deformed_sphere(stacks, slices, seed=stacks)
    grad_volume, grad_area = np.zeros((2, 3, len(pos)))
    surface_gradients(np.ascontiguousarray(pos.T), 0, stacks, slices, grad_volume, grad_area)
    np.testing.assert_allclose(VertexAreaSums(tris, len(pos))(pos) / 6.0, grad_volume.T, rtol=0, atol=1e-13)
    pushed = grad_volume.T / np.linalg.norm(grad_volume.T, axis=1, keepdims=True)
    np.testing.assert_allclose(VertexNormals(tris, len(pos))(pos), pushed, rtol=0, atol=1e-12)
