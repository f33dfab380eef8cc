"""slime: a soft-body slime simulator and renderer, with 2D mass-spring scenes on the same engine."""

import os as _os

# The physics multiplies thin matrices (N x 3 by 3 x 3) many times per frame: OpenBLAS's thread
# pool only adds hand-off cost there, most of all on a loaded machine with few cores. Set before
# numpy loads; a user's own setting wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
