"""Area vectors and smooth vertex normals of a deformed surface (slime/mesh.py): the renderer's
per-frame normals and the physics' volume gradient come from the same functions."""

import numpy as np

from slime.mesh import VertexAreaSums, VertexNormals, triangle_area_vectors, vertex_area_sums, vertex_normals
from slime.physics.slime3d.sphere import sphere_triangles, uv_sphere
from slime.physics.slime3d.volume import corner_sum, mesh_volume, vertex_area_vectors


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
    # Same summation order as the physics' corner_sum: the same bits, with or without the division.
    assert np.array_equal(vertex_area_sums(pos, tris), corner_sum(tris, lambda k: area, len(pos)))
    assert np.array_equal(vertex_area_sums(pos, tris, divide_by=6.0), corner_sum(tris, lambda k: area / 6.0, len(pos)))
    # The sums of a closed surface cancel, and a sixth of them is dV/dx (central differences).
    sums = VertexAreaSums(tris, len(pos))(pos)
    assert np.abs(sums.sum(axis=0)).max() < 1e-9
    grad = vertex_area_vectors(pos, tris)
    for v, axis in ((0, 2), (17, 0), (60, 1)):
        step = np.zeros_like(pos)
        step[v, axis] = 1e-6
        numeric = (mesh_volume(pos + step, tris) - mesh_volume(pos - step, tris)) / 2e-6
        assert abs(numeric - grad[v, axis]) < 1e-7
    # The normals are these sums, made unit.
    unit = sums / np.linalg.norm(sums, axis=1, keepdims=True)
    np.testing.assert_allclose(vertex_normals(pos, tris), unit, rtol=0, atol=1e-15)
