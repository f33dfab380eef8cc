"""Springs as structure-of-arrays, and the Hooke force they add.

``hooke_forces`` is slime's one Hooke law, k (|d| - L) d/|d| on a batch of spring vectors: the
engine's springs here, Soda Constructor's tick (soda.py) and the Spring simulation article's bobs
(yoyo.py) all call it.

Muscles (Soda Constructor) are springs whose rest length breathes with a global wave;
fragile springs (the Computer Seminar chapter's FragileSpring) break when their force passes ``break_force``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from slime.physics.compiled import kernel
from slime.physics.mass_spring.scatter import add_product, pair_incidence


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


@kernel
def hooke_scale(length, rest_length, stiffness):
    """The Hooke law's factor k (|d| - L) / |d|: the force on a spring's first end is its vector d
    times it (toward the other end when stretched). A zero-length spring has no direction and pulls
    nothing (the Computer Seminar chapter's normalize-or-zero)."""
    if length == 0.0:
        return 0.0
    return (length - rest_length) * stiffness / length


@kernel
def _hooke_rows(gap, rest_length, stiffness, live, natural, out):
    for k in range(gap.shape[0]):
        if not live[k]:
            scale = 0.0
        elif natural:
            length = 0.0
            for d in range(gap.shape[1]):
                length += gap[k, d] * gap[k, d]
            scale = hooke_scale(math.sqrt(length), rest_length[k], stiffness[k])
        else:
            scale = stiffness[k]  # rest length 0: the force is exactly k d, with no square root
        for d in range(gap.shape[1]):
            out[k, d] = gap[k, d] * scale


def hooke_forces(gap: np.ndarray, rest_length, stiffness, out: np.ndarray | None = None,
                 live: np.ndarray | None = None) -> np.ndarray:
    """The Hooke force k (|d| - L) d/|d| of every spring vector d, the rows of ``gap`` (S, D): the
    force on the end d starts from, toward the other (which feels the opposite). The one Hooke law of
    slime (``hooke_scale``): the engine's springs, Soda Constructor's tick and the spring experiments
    article's bobs all use it.

    ``rest_length`` L and ``stiffness`` k: (S,) or scalars. ``rest_length=None`` means springs of rest
    length 0, whose force is exactly k d: no square root (the Spring simulation article's
    optimisation, and its printed sequences depend on those bits). A spring whose ``live`` entry is
    False (broken) gives no force. ``out`` may be ``gap`` itself."""
    count = gap.shape[0]
    natural = rest_length is not None
    rest = np.broadcast_to(np.asarray(rest_length if natural else 0.0, dtype=np.float64), (count,))
    k = np.broadcast_to(np.asarray(stiffness, dtype=np.float64), (count,))
    alive = np.ones(count, dtype=np.bool_) if live is None else np.asarray(live, dtype=np.bool_)
    if out is None:
        out = np.empty_like(gap, dtype=np.float64)
    _hooke_rows(gap, rest, k, alive, natural, out)
    return out


def spring_forces(positions: np.ndarray, springs: Springs, rest_length: np.ndarray | None = None) -> np.ndarray:
    """Per-spring force on particle ``a`` (``b`` gets the opposite): k * (|d| - L) * d/|d|, d = x_b - x_a.

    A zero-length spring has no direction and gives no force (the Computer Seminar chapter returns None there).
    """
    if rest_length is None:
        rest_length = springs.rest_length
    gap = positions.take(springs.b, axis=0)
    gap -= positions.take(springs.a, axis=0)
    return hooke_forces(gap, rest_length, springs.stiffness, out=gap, live=springs.alive)


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
