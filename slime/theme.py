"""The one look of every 2D scene, chosen here once: the background, the palette and the stroke.

Scenes name their colours from here (a scene keeps only colours that mean something of its own),
and the renderer takes its default stroke widths from here, so the soda walker, the spring
experiments, the spring-mass programs and the box game read as one program. The background is a
dark slate that keeps the 3D slime's green masses, pale springs and warm accents readable in a
small GIF as well as a full window; the HUD's light panels sit on it as they do on the slime.
"""

from __future__ import annotations

Color = tuple[float, float, float, float]

BACKGROUND: Color = (0.10, 0.11, 0.14, 1.0)  # dark slate
INK: Color = (0.86, 0.89, 0.93, 1.0)  # springs and strings
BODY: Color = (0.30, 0.86, 0.56, 1.0)  # free masses: the slime's green
BODY_AIR: Color = (0.38, 0.72, 1.0, 1.0)  # a body in the air (the box game's player)
FIXED: Color = (0.62, 0.65, 0.72, 1.0)  # fixed masses, platforms
WALL: Color = (0.46, 0.50, 0.58, 1.0)  # walls and boxes around a scene
ACCENT: Color = (1.0, 0.56, 0.30, 1.0)  # forces, the hand, muscles
FIELD: Color = (0.52, 0.76, 1.0, 1.0)  # lines of a field (the attractor), a selection
GOLD: Color = (1.0, 0.83, 0.26, 1.0)  # coins, the sun
FAINT: Color = (0.86, 0.89, 0.93, 0.22)  # rulers and trails behind the subject

LINE_PX = 3.0  # springs and other segments, in pixels (times the window's pixel ratio)
STROKE_PX = 2.5  # rings and box outlines
DASH_PX = 7.0


def faded(color: Color, alpha: float) -> Color:
    """``color`` with its opacity multiplied by ``alpha``."""
    return (color[0], color[1], color[2], color[3] * alpha)


__all__ = ["BACKGROUND", "INK", "BODY", "BODY_AIR", "FIXED", "WALL", "ACCENT", "FIELD", "GOLD", "FAINT",
           "LINE_PX", "STROKE_PX", "DASH_PX", "faded"]
