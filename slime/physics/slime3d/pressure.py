"""Volume preservation: a pressure along the volume gradient (the area-weighted vertex normals of
the deformed surface, ``surface.py``) that holds the slime at its rest mesh's own volume."""

from __future__ import annotations

from slime.physics.compiled import kernel, scratch_rows


@kernel
def pressure_spread(grad_volume, mass, first, count):
    """S = sum |dV/dx|^2 / m: how stiff the volume is along its own direction, per unit pressure
    scale (it grows with the square of the surface area). ``grad_volume``: the body's own
    columns from 0 (``surface_gradients``), ``mass`` the world's from ``first``."""
    g0, g1, g2 = scratch_rows(grad_volume, count)
    m = mass[first:first + count]
    total = 0.0
    for k in range(count):
        total += (g0[k] * g0[k] + g1[k] * g1[k] + g2[k] * g2[k]) / m[k]
    return total


@kernel
def volume_pressure(volume, ideal_volume, spread, pressure_scale, rest_pressure, h):
    """The pressure p (N/m^2 times m^2 / m^3: force per unit of dV/dx) on the surface:

        p = p_rest + P e min(1, 1 / (h^2 P S / V0)),   e = clamp((V0 - V) / V0, -1, 1)

    ``rest_pressure`` p_rest holds the rest shape against its surface tension, as the Laplace
    pressure 2 gamma / R holds a drop. The error part pushes at the scale P: along the
    constraint's own direction its stiffness is omega^2 = P S / V0 (S from ``pressure_spread``),
    the breathing mode's omega^2 = volume stiffness at rest, more once the surface has spread (a
    blown-up, spiked or crumpled body). The substep h keeps h^2 omega^2 <= 1 for it, the body-wide
    terms' own margin (``stability.py``, which picks h so that the rest value is well inside):
    only a surface spread past what the substep can carry has its error part held to that, and
    anything short of it gets the full pressure, so a crumpled body keeps its volume as firmly as
    a round one. A volume that is not finite gives no error part."""
    error = (ideal_volume - volume) / ideal_volume
    if not (error == error):
        error = 0.0
    error = min(max(error, -1.0), 1.0)
    stiffness = h * h * pressure_scale * spread / ideal_volume
    limit = 1.0 / stiffness if stiffness > 1.0 else 1.0
    return rest_pressure + pressure_scale * limit * error


@kernel
def volume_pressure_at(grad_volume, mass, k, pressure):
    """a = p (dV/dx) / m at vertex k: the pressure pushes each vertex along its area-weighted
    normal. The gradient of the volume sums to zero over the closed surface, so the pressure moves
    no momentum, and being a gradient it applies no torque."""
    scale = pressure / mass[k]
    return scale * grad_volume[0][k], scale * grad_volume[1][k], scale * grad_volume[2][k]
