"""Exercise 7-3: the sandbox counting its collisions.

Part of the Computer Seminar chapter's scenes (see the package's docstring)."""

from __future__ import annotations

from slime.scenes.sandbox.sandbox import Sandbox


class Counter(Sandbox):
    """Exercise 7-3: the sandbox with the running total of point-point impacts shown top left."""

    name = "counter"
    title = "collision counter (exercise 7-3)"

    def __init__(self, demo: bool = True, seed: int = 3):
        super().__init__(demo=False, seed=seed)
        if demo:
            # A crowd of masses thrown into the box so collisions happen from the start.
            for k in range(40):
                self.create_mass((40.0 + 13.0 * k, 100.0 + 50.0 * (k % 5)), fixed=False)

    @property
    def collisions(self) -> int:
        return self.contacts.count

    def hud(self) -> list[str]:
        return [f"collisions: {self.collisions}", *super().hud()]


def make_counter(demo: bool = True, seed: int = 3) -> Counter:
    return Counter(demo=demo, seed=seed)


# --- exercise 7-4: inverse-square attraction / repulsion --------------------------------------
