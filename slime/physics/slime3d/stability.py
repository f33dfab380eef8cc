"""How many substeps a frame needs: the stability of the step comes from its substep length,
chosen from the stiffest term's time scale, never from weakening a force.

Symplectic Euler keeps an undamped oscillation of angular frequency omega bounded while
h omega < 2. The slime has two kinds of stiff term:

* the body-wide stiffnesses, shape restoring and volume pressure, per unit mass (1/s^2): their
  fastest mode has omega^2 = k_s + k_v, whatever the mesh. These keep h omega <= 1.
* the membrane terms, whose stiffness grows with the wave number, whose fastest waves are the
  shortest the mesh can carry, between neighbouring vertices: the surface tension gamma (N/m)
  and the shear stiffness c^2 (m^2/s^2). Both keep their units at every resolution, so a finer
  mesh carries faster ripples. The fastest of them run round the rings, and a pole pulls against
  its whole first ring: those the step carries at any substep length (``membrane.py``). What is
  left to the explicit step are the waves along the meridians, a vertex against the rings above
  and below it, neighbouring rings moving against each other: the tension's with omega^2 up to
  2 gamma max(K / m) (K the part of the area's Hessian at a vertex whose opposite edges run round
  a ring, ``slime_shape.area_stiffness``, m the vertex's mass: at 128 x 128 the fastest such wave
  measured is 1.45 gamma K / m), the shear's with omega^2 up to 2 c^2 D (D the largest summed
  weight to the rings above and below, ``shear.degrees``). These keep h^2 omega^2 <= ``RIPPLE_MARGIN`` for the
  sum of the two, under the h^2 omega^2 < 4 of an undamped oscillation, the margin the membrane's
  step holds its ring waves to as well (a deep poke's jet squeezes the triangles and stiffens
  them: measured at 128 x 128 with the tension alone, a ripple round the pole's ring folds at
  1.5 and stays smooth at 1.0). Up to 128 x 128 they need fewer than the 8 substeps of the
  setting, so every material takes the same substeps at every resolution to there; a finer mesh
  or a stiffer membrane takes more.

The frame's ``substeps`` setting is the least a world takes; a slime whose terms need more raises
its world's count (``World3D.substeps``).
"""

from __future__ import annotations

import math

from slime.limits import SUBSTEPS
from slime.physics.slime3d.membrane import RIPPLE_MARGIN


def substeps_needed(dt: float, shape_stiffness: float, volume_stiffness: float, tension: float,
                    tension_stiffness: float, shear_stiffness: float, shear_degree: float) -> int:
    """The fewest substeps of a frame ``dt`` (s) that keep every stiff term stable (see the module
    docstring); ``tension_stiffness`` is max(K/m) over the vertices of the area's stiffness along
    the meridians (1/kg), ``shear_degree`` the largest summed Laplacian weight D along them (1/m^2). Raises ValueError when that is more than
    ``slime.limits.SUBSTEPS`` allows."""
    body = dt * math.sqrt(shape_stiffness + volume_stiffness)
    ripple = 2.0 * (tension * tension_stiffness + shear_stiffness * shear_degree)
    membrane = dt * math.sqrt(ripple / RIPPLE_MARGIN)
    need = max(body, membrane) - 1e-9  # a hair under: a whole number of substeps is not rounded up
    if not need <= SUBSTEPS[1]:  # NaN and inf too (a stiffness near the largest float)
        needs = f"{math.ceil(need)}" if need < 1e9 else f"about {need:.3g}"
        terms = [f"shape + volume stiffness {shape_stiffness + volume_stiffness:g} 1/s^2"]
        terms += [f"surface tension {tension:g} N/m"] if tension else []
        terms += [f"shear stiffness {shear_stiffness:g} m^2/s^2"] if shear_stiffness else []
        raise ValueError(f"too stiff for dt {dt:g} s: it needs {needs} substeps a frame, more than {SUBSTEPS[1]} "
                         f"({', '.join(terms)})")
    return max(1, math.ceil(need))
