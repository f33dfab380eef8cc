"""Surface tension: the skin pulls itself smooth and small, like a drop's, so folds and cone
tips round off."""

from __future__ import annotations

from slime.physics.compiled import kernel


@kernel
def add_surface_tension(acc, grad_area, mass, first, count, tension):
    """a = -gamma (dA/dx) / m at the tension gamma (N/m): minus the gradient of the surface area
    (``surface.py``). The area does not change when the body moves or turns, so its gradient
    moves no momentum and applies no torque. The rest sphere's own pull, which would shrink it,
    is held by the pressure's rest part (``pressure.volume_pressure``)."""
    if tension == 0.0:
        return
    for k in range(first, first + count):
        scale = tension / mass[k]
        for d in range(3):
            acc[d, k] -= scale * grad_area[d, k]
