"""Every limit on what a user may ask for, in one place: the physics' validation (SlimeParams), the
command line (its checks and help), the slime window's panel and the error messages all read these,
so they say the same range. Imports nothing: physics, render and app may all use it.

Ranges are (low, high), both included.
"""

from __future__ import annotations

# --- the slime's mesh -------------------------------------------------------------------------
# Latitude (stacks) and longitude (slices) divisions of the UV sphere. Below 3 there is no closed
# surface; 512 x 512 is 262 000 points, several seconds a frame: past it nothing is gained.
RESOLUTION = (3, 512)
SUBSTEPS = (1, 1000)  # symplectic Euler substeps per frame

# --- pictures and windows -----------------------------------------------------------------------
SIZE = (1, 8192)  # pixels per side of a window or a rendered picture: past any screen, short of GL's texture limits

# --- cameras --------------------------------------------------------------------------------------
# `slime render --camera`: short of the pole, where the look-at's up vector degenerates; below the
# horizon is allowed (a view from under the floor).
CAMERA_ELEVATION = (-89.0, 89.0)  # degrees
# The windows' mouse orbit: above the floor (the renderer draws the floor without depth, so a view
# from below would hide the slime) and a little further from the pole.
ORBIT_ELEVATION = (0.0, 85.0)  # degrees

# --- the slime window's panel -----------------------------------------------------------------------
# Slider ranges; SlimeParams takes any value >= 0. The two stiffnesses' sum stays under SlimeParams'
# stability bound, 1 / h^2 = 230400 1/s^2 at the default 8 substeps of 1/60 s, so no slider position
# is refused.
VISCOSITY = (0.0, 60.0)  # 1/s
SURFACE_TENSION = (0.0, 20.0)  # N/m (stable at any value: see slime_forces.tension_relief)
VOLUME_STIFFNESS = (0.0, 100000.0)  # 1/s^2
SHAPE_STIFFNESS = (0.0, 20000.0)  # 1/s^2
GRAVITY = (0.0, 30.0)  # m/s^2, downward


def span(limits: tuple, unit: str = "") -> str:
    """``"3 to 512"`` (with a unit: ``"-89 to 89 degrees"``): how help and messages say a range."""
    low, high = limits
    return f"{low:g} to {high:g}" + (f" {unit}" if unit else "")

