"""Springs as structure-of-arrays, and the Hooke force they add.

Muscles (Soda Constructor) are springs whose rest length breathes with a global wave;
fragile springs (the spring_mass module's FragileSpring) break when their force passes ``break_force``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slime.physics.scatter import add_product, pair_incidence


@dataclass
class Springs:
    a: np.ndarray  # (S,) int: first particle
    b: np.ndarray  # (S,) int: second particle
    rest_length: np.ndarray  # (S,)
    stiffness: np.ndarray  # (S,) Hooke constant k: force = k * stretch
    amplitude: np.ndarray  # (S,) muscle amplitude (0 = plain spring)
    phase: np.ndarray  # (S,) muscle phase
    break_force: np.ndarray  # (S,) |force| above which the spring breaks (inf = never)
    alive: np.ndarray  # (S,) bool

    @classmethod
    def create(cls, pairs, rest_length, stiffness=1.0, amplitude=0.0, phase=0.0, break_force=np.inf) -> "Springs":
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        s = pairs.shape[0]

        def per_spring(value):
            return np.broadcast_to(np.asarray(value, dtype=np.float64), (s,)).copy()

        return cls(
            a=pairs[:, 0].copy(),
            b=pairs[:, 1].copy(),
            rest_length=per_spring(rest_length),
            stiffness=per_spring(stiffness),
            amplitude=per_spring(amplitude),
            phase=per_spring(phase),
            break_force=per_spring(break_force),
            alive=np.ones(s, dtype=bool),
        )

    @classmethod
    def empty(cls) -> "Springs":
        return cls.create(np.zeros((0, 2), dtype=np.int64), 0.0)

    @property
    def count(self) -> int:
        return self.a.shape[0]

    @property
    def pairs(self) -> np.ndarray:
        return np.stack([self.a, self.b], axis=1)

    def append(self, other: "Springs") -> None:
        for name in ("a", "b", "rest_length", "stiffness", "amplitude", "phase", "break_force", "alive"):
            setattr(self, name, np.concatenate([getattr(self, name), getattr(other, name)]))

    def keep(self, mask: np.ndarray) -> None:
        for name in ("a", "b", "rest_length", "stiffness", "amplitude", "phase", "break_force", "alive"):
            setattr(self, name, getattr(self, name)[mask])


def muscle_rest_length(springs: Springs, wave_phase: float, wave_amplitude: float) -> np.ndarray:
    """Soda Constructor's breathing rest length: L0 * (1 - sin(phase + wave_phase) * amplitude * wave_amplitude)."""
    return springs.rest_length * (1.0 - np.sin(springs.phase + wave_phase) * springs.amplitude * wave_amplitude)


def spring_forces(positions: np.ndarray, springs: Springs, rest_length: np.ndarray | None = None) -> np.ndarray:
    """Per-spring force on particle ``a`` (``b`` gets the opposite): k * (|d| - L) * d/|d|, d = x_b - x_a.

    A zero-length spring has no direction and gives no force (the spring_mass module returns None there).
    """
    if rest_length is None:
        rest_length = springs.rest_length
    gap = positions.take(springs.b, axis=0)
    gap -= positions.take(springs.a, axis=0)
    length = _squared_norms(gap)
    np.sqrt(length, out=length)
    # scale = k (|d| - L) / |d|, built in place (same operations, same order, fewer temporaries).
    scale = np.subtract(length, rest_length)
    scale *= springs.stiffness
    # The masks are rare (a zero-length or broken spring), so they are applied only when present;
    # min() is one pass where (length == 0).any() is two.
    if length.size and np.minimum.reduce(length) == 0.0:
        degenerate = length == 0.0
        length[degenerate] = 1.0
        scale /= length
        scale[degenerate] = 0.0
    else:
        scale /= length
    if not springs.alive.all():
        scale[~springs.alive] = 0.0
    # One column at a time: an (S, 1) x (S, D) broadcast runs numpy's inner loop D elements long.
    for axis in range(gap.shape[1]):
        gap[:, axis] *= scale
    return gap


def _squared_norms(vectors: np.ndarray) -> np.ndarray:
    """Row-wise |v|^2. In 2D two multiplies and an add beat einsum's small-inner-loop overhead and
    give the same bits; einsum stays for 3D, whose summation order it fixes."""
    if vectors.shape[1] == 2:
        x, y = vectors[:, 0], vectors[:, 1]
        return x * x + y * y
    return np.einsum("ij,ij->i", vectors, vectors)


def add_spring_forces(forces: np.ndarray, positions: np.ndarray, springs: Springs, rest_length=None) -> np.ndarray:
    """Add every live spring's Hooke force into ``forces``; returns the per-spring force vectors."""
    if springs.count == 0:
        return np.zeros((0, positions.shape[1]))
    f = spring_forces(positions, springs, rest_length)
    add_product(forces, spring_incidence(springs, positions.shape[0]), f)
    return f


def spring_incidence(springs: Springs, n: int):
    """The (n, S) +1/-1 matrix that scatters per-spring forces (+f on ``a``, -f on ``b``), cached
    on the Springs and rebuilt when its index arrays are replaced (append, keep) or n changes."""
    cache = springs.__dict__.get("_incidence")
    if cache is None or cache[0] is not springs.a or cache[1] is not springs.b or cache[2] != n:
        cache = (springs.a, springs.b, n, pair_incidence(springs.a, springs.b, n))
        springs.__dict__["_incidence"] = cache
    return cache[3]


def break_overloaded(springs: Springs, per_spring_force: np.ndarray) -> np.ndarray:
    """Mark springs whose force magnitude exceeds their ``break_force`` as dead; returns the newly broken mask."""
    if springs.count == 0:
        return np.zeros(0, dtype=bool)
    if np.minimum.reduce(springs.break_force) == np.inf:  # nothing can break (the usual case): skip the norms
        return np.zeros(springs.count, dtype=bool)
    magnitude = np.sqrt(np.einsum("ij,ij->i", per_spring_force, per_spring_force))
    broken = springs.alive & (magnitude > springs.break_force)
    springs.alive &= ~broken
    return broken
