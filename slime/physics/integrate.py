"""The time step of both engines: symplectic (semi-implicit) Euler, velocity first, then position
with the new velocity. Stable for oscillators while h omega < 2, and it keeps their energy bounded
(no drift) where explicit Euler would pump it up."""

from __future__ import annotations

from slime.physics.compiled import kernel


@kernel
def symplectic_euler(positions, velocities, forces, inv_mass, h, velocity_scale):
    """Per particle (a row of the (N, D) arrays): v <- (v + F / m h) s, then x <- x + v h, with s
    its ``velocity_scale`` (the spring articles' per-step damping, 1 = off). A pinned particle
    (``inv_mass`` 0) keeps still. ``forces`` may be accelerations with ``inv_mass`` all ones."""
    # Component by component, particle after particle: the (3, P) arrays the slime's world passes
    # transposed are then read along their rows.
    for d in range(positions.shape[1]):
        for k in range(positions.shape[0]):
            scale = velocity_scale[k] if inv_mass[k] > 0.0 else 0.0
            velocities[k, d] = (velocities[k, d] + forces[k, d] * (inv_mass[k] * h)) * scale
            positions[k, d] += velocities[k, d] * h
