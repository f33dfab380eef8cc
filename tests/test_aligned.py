"""Work buffers on cache lines (slime/physics/aligned.py) and the step's use of them."""

import numpy as np
import pytest

from slime.physics.aligned import ALIGN, aligned_zeros
from slime.physics.slime_batch import SlimeBatch
from slime.physics.slime_params import SlimeParams
from slime.physics.slime_shape import SlimeShape
from slime.physics.volume import GridVolume


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("start", [0, 1, 7, 130, 4097])
def test_the_named_element_of_every_row_is_on_a_line(dtype, start):
    a = aligned_zeros((3, 2, 5000), dtype, start=start)
    assert a.shape == (3, 2, 5000) and a.dtype == dtype and not a.any()
    for i in range(3):
        for j in range(2):
            assert a[i, j, start:].ctypes.data % ALIGN == 0
    a[...] = 1.0  # rows do not overlap
    assert a.sum() == 6 * 5000


def test_splitting_the_last_axis_stays_a_view():
    a = aligned_zeros((4, 3, 33 * 33))
    grid = a.reshape(4, 3, 33, 33)
    grid[2, 1, 5, 7] = 1.0
    assert np.shares_memory(a, grid) and a[2, 1, 5 * 33 + 7] == 1.0


def test_the_step_writes_into_aligned_buffers():
    volume = GridVolume(32, 32, np.float32, batch=(3,))
    pad = volume.pad
    assert volume.normals[..., pad:].ctypes.data % ALIGN == 0
    assert volume.grad6.ctypes.data % ALIGN == 0
    shapes = [SlimeShape(SlimeParams(stacks=16, slices=16)) for _ in range(2)]
    batch = SlimeBatch(shapes)
    for grid in (batch.buf, batch._acc, batch._u, batch._scratch):
        assert grid.reshape(grid.shape[0], -1)[1].ctypes.data % ALIGN == 0  # every body, one run
    assert batch._shear_acc.reshape(3, -1)[1, 17:].ctypes.data % ALIGN == 0  # written from row 1 on
