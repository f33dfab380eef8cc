"""How many substeps a frame needs: the stability of the explicit step comes from its substep
length, chosen from the stiffest term's time scale, never from weakening a force.

Symplectic Euler keeps an undamped oscillation of angular frequency omega bounded while
h omega < 2. The slime has two kinds of stiff term:

* the body-wide stiffnesses, shape restoring and volume pressure, per unit mass (1/s^2): their
  fastest mode has omega^2 = k_s + k_v, whatever the mesh. These keep h omega <= 1.
* the terms whose stiffness grows with the wave number, whose fastest waves are the shortest the
  mesh can carry, between neighbouring vertices: the surface tension gamma (N/m), a membrane
  under tension, with omega^2 up to gamma max(K / m) (K the size of the area's Hessian at a
  vertex, ``slime_shape.area_stiffness``, m the vertex's mass), and the shear stiffness c^2
  (m^2/s^2), with omega^2 up to 2 c^2 D (D the largest summed Laplacian weight,
  ``shear.largest_degree``). A finer mesh carries faster ripples and needs shorter substeps:
  that is the physics of a membrane and of an elastic solid, and both parameters keep their
  units at every resolution. These keep h^2 omega^2 <= ``RIPPLE_MARGIN`` for the sum of the two,
  under the h^2 omega^2 < 4 of an undamped oscillation: the stiffest vertices are the first ring
  round each pole, whose slivers of
  triangles start a ripple round the ring (measured at 128 x 128 with the tension alone: on a
  resting slime it grows at 2.7 and stays put at 1.5; a deep poke's jet at the pole, where the
  triangles are squeezed and stiffer, folds at 1.5 and stays smooth at 1.0).

The frame's ``substeps`` setting is the least a world takes; a slime whose terms need more raises
its world's count (``World3D.substeps``).
"""

from __future__ import annotations

import math

from slime.limits import SUBSTEPS

RIPPLE_MARGIN = 1.0  # the most h^2 omega^2 of the fastest ripple between neighbours a substep may take


def substeps_needed(dt: float, shape_stiffness: float, volume_stiffness: float, tension: float,
                    tension_stiffness: float, shear_stiffness: float, shear_degree: float) -> int:
    """The fewest substeps of a frame ``dt`` (s) that keep every stiff term stable (see the module
    docstring); ``tension_stiffness`` is max(K/m) over the vertices (1/kg), ``shear_degree`` the
    largest summed Laplacian weight D (1/m^2). Raises ValueError when that is more than
    ``slime.limits.SUBSTEPS`` allows."""
    body = dt * math.sqrt(shape_stiffness + volume_stiffness)
    ripple = tension * tension_stiffness + 2.0 * shear_stiffness * shear_degree
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
