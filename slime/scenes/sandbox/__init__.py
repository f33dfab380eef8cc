"""The Computer Seminar chapter's spring-mass programs as scenes: the interactive sandbox, the slinky drop, and the
chapter's exercises 7-1..7-4 (dotted springs, forced resonance, collision counter, inverse-square
attractor).

All of them run on the shared engine (:class:`~slime.physics.mass_spring.world.MassSpringWorld`) in the Computer Seminar chapter's units:
pixels, one time unit per frame (dt = 1), y down with gravity +y. Point-point impacts and the
walls are the Computer Seminar chapter's impulse-as-force rules from :mod:`slime.physics.mass_spring.collide2d`.

One difference from the chapter, on purpose: the chapter lets each actor update in list order, so a
mass moves before the springs created after it push on it (their force then waits a frame).
The engine takes every force from the same state and then moves everything at once.

The scenes, one module each: ``base`` (SpringMassScene, what they share), ``sandbox``, ``slinky``,
``dotted`` (exercise 7-1), ``resonance`` (7-2), ``counter`` (7-3), ``attractor`` (7-4).
"""

from slime.scenes.sandbox.attractor import Attractor, inverse_square_forces, make_attractor
from slime.scenes.sandbox.base import MASS, RADIUS, RESTITUTION, VISCOUS, SpringMassScene, coil
from slime.scenes.sandbox.counter import Counter, make_counter
from slime.scenes.sandbox.dotted import Dotted, dots_along, make_dotted
from slime.scenes.sandbox.resonance import Resonance, make_resonance
from slime.scenes.sandbox.sandbox import Sandbox, make_sandbox
from slime.scenes.sandbox.slinky import Slinky, make_slinky

__all__ = ["Attractor", "Counter", "Dotted", "MASS", "RADIUS", "RESTITUTION", "Resonance", "Sandbox", "Slinky",
           "SpringMassScene", "VISCOUS", "coil", "dots_along", "inverse_square_forces", "make_attractor",
           "make_counter", "make_dotted", "make_resonance", "make_sandbox", "make_slinky"]
