"""Surface tension: the skin pulls itself smooth and small, like a drop's, so folds and cone
tips round off."""

from __future__ import annotations

from slime.physics.compiled import kernel


@kernel
def surface_tension_at(grad_area, mass, k, tension):
    """a = -gamma (dA/dx) / m at vertex k, at the tension gamma (N/m): minus the gradient of the
    surface area (``surface.py``). The area does not change when the body moves or turns, so its
    gradient moves no momentum and applies no torque. The rest sphere's own pull, which would
    shrink it, is held by the pressure's rest part (``pressure.volume_pressure``)."""
    scale = -tension / mass[k]
    return scale * grad_area[0][k], scale * grad_area[1][k], scale * grad_area[2][k]
