"""Every limit on what a user may ask for, in one place: the physics' validation (SlimeParams), the
command line (its checks and help), the slime window's panel and the error messages all read these,
so they say the same range, and the one check of a 3-vector (``vector3``). Imports nothing of
slime's: physics, render and app may all use it.

Ranges are (low, high), both included.
"""

from __future__ import annotations

import numpy as np

# --- the slime's mesh -------------------------------------------------------------------------
# Latitude (stacks) and longitude (slices) divisions of the UV sphere. Below 3 there is no closed
# surface; 512 x 512 is 262 000 points, several seconds a frame: past it nothing is gained.
RESOLUTION = (3, 512)
SUBSTEPS = (1, 1000)  # symplectic Euler substeps per frame
THREADS = (1, 64)  # $SLIME_THREADS: threads for a world's forces (slime/physics/threads.py)
# SlimeBody.spike(amount): the scatter, in radii, the body is built (and tested) to come back from.
SPIKE = (0.0, 1.0)

# --- worlds ----------------------------------------------------------------------------------------
# Slimes one WorldRenderer draws: obstacle.frag loops over every slime's shadow per pixel, from a
# uniform block of 64 (a few kB, inside every GL 3.3's 16 kB block).
DRAWN_SLIMES = (0, 64)
# Slimes in the slime window at once: N stops adding at the top, and a scene file with more does not
# open in a window (everything the window holds is drawn every frame, by one WorldRenderer).
WINDOW_SLIMES = DRAWN_SLIMES

# --- pictures and windows -----------------------------------------------------------------------
SIZE = (1, 8192)  # pixels per side of a window or a rendered picture: past any screen, short of GL's texture limits
# Pixels per picture: a 4096x4096 frame. The slime's headless frame holds about 40 bytes a pixel
# (4x multisampled colour, its resolve, the backdrop texture and its copy, the read-back), so
# this bounds one render at about 0.7 GB; 8192x8192 would take 3 GB.
MAX_PIXELS = 4096 * 4096

# --- runs ------------------------------------------------------------------------------------------
# Frames one render draws and ticks one simulation records (--frames, --ticks, a --poke's tick): a
# hundred thousand is half an hour of film at 60 frames a second and hours of work for the slime
# or a pile, so a mistyped count is refused instead of starting a run that lasts for days.
FRAMES = (1, 100_000)
# --- a long or heavy run, and a poke's push (slime render, slime simulate, --poke, scene events) ------
# A command whose estimate (slime/cli.py's run_estimate: the frames, the picture's size, the format)
# passes either of these says so and starts only with --yes, or a "y" typed at a terminal.
LONG_RUN_SECONDS = 300.0  # five minutes
LARGE_OUTPUT_BYTES = 500_000_000  # half a gigabyte: a laptop's spare disk for one file, and minutes to write
# A poke's force (N, its length), pushed for one frame of 1/60 s: its impulse is at most 5000/60 =
# 83 N s, which starts a 1 kg slime at 83 m/s, short of LAUNCH_SPEED; the window's click is 240 N
# on the default slime (app/world_play.py's POKE_IMPULSE), tutorial 6's 150 N.
POKE_FORCE = (0.0, 5000.0)

# --- shader files (--shaders DIR) ------------------------------------------------------------------
SHADER_FILE_BYTES = 1024 * 1024  # the package's largest is a few kB; a file past this is not a shader
# A shader with its includes spliced in is held to the same size as one file, and its includes to a
# nesting and a count no real shader comes near (the package's go one deep, a few a program): a
# chain a thousand deep or a fan-out that doubles at every level is refused as it is read.
SHADER_SPLICED_BYTES = SHADER_FILE_BYTES
SHADER_INCLUDE_DEPTH = 32
SHADER_INCLUDES = 1024

# --- cameras --------------------------------------------------------------------------------------
# Elevation of every camera, the windows' orbit and `slime render --camera` alike: above the floor
# (the renderer draws the floor without depth, so a view from below would show the slime floating
# in sky) and short of the pole, where the look-at's up vector degenerates.
CAMERA_ELEVATION = (0.0, 85.0)  # degrees
ORBIT_ELEVATION = CAMERA_ELEVATION

# --- the slime window's panel -----------------------------------------------------------------------
# Slider ranges; SlimeParams takes any value >= 0. A stiffer setting takes more substeps a frame
# (slime3d/stability.py): at the ends of these ranges a 32 x 32 slime takes 13.
VISCOSITY = (0.0, 60.0)  # 1/s
SURFACE_TENSION = (0.0, 20.0)  # N/m (stable at any value: the substeps rise with it, slime3d/stability.py)
VOLUME_STIFFNESS = (0.0, 100000.0)  # 1/s^2
SHAPE_STIFFNESS = (0.0, 20000.0)  # 1/s^2
GRAVITY = (0.0, 30.0)  # m/s^2, downward


def range_text(limits: tuple, unit: str = "") -> str:
    """``"3 to 512"`` (with a unit: ``"-89 to 89 degrees"``): how help and messages say a range."""
    low, high = limits
    return f"{low:g} to {high:g}" + (f" {unit}" if unit else "")


# --- 3D scene files (slime/scenes/world_format.py) ----------------------------------------------------
# Slimes in one scene file: as many as a picture or a window of it draws, so a scene that one command
# takes every command takes (a run of more would simulate and then fail to render).
SCENE_SLIMES = (1, DRAWN_SLIMES[1])
SCENE_OBSTACLES = (0, 1024)  # boxes, balls and planes in one scene file
SCENE_EVENTS = (0, 4096)  # timed pokes, grabs, drags, releases and presses in one scene
# Vertices of all a scene's slimes together: four of the finest single slime (512 x 512). Past it
# one frame takes seconds and the arrays no longer fit a laptop's memory.
MAX_SCENE_VERTICES = 4 * 512 * 512
SLIME_RADIUS = (0.02, 50.0)  # m: from a droplet to a hill; outside it the default stiffnesses stop making sense
# kg: a gram of jelly the size of a droplet to a hill of it; far past either the per-vertex masses
# and the pressure's scale overflow or vanish.
SLIME_MASS = (1e-6, 1e12)
# 1/s: a slime's viscosity and air drag. Each decays its share of the motion as exp(-rate h) over a
# substep, so past a few thousand per second the motion is gone within any substep a frame can
# take, and every larger rate moves the slime alike; far past it, near the float's top, the share a
# rate takes (decay x rate / the sum of rates) overflows to inf and the body is NaN.
DAMPING_RATE = (0.0, 1e6)
OBSTACLE_SIZE = (0.001, 1000.0)  # m: a box's half sizes, a ball's radius
SCENE_EXTENT = (-10000.0, 10000.0)  # m: every position (centres, points, the camera's target)
LAUNCH_SPEED = (0.0, 100.0)  # m/s: a slime's starting speed (SlimeParams.max_speed still clamps each step)
FRICTION = (0.0, 10.0)  # Coulomb coefficient of an obstacle's surface
CAMERA_DISTANCE = (0.1, 1000.0)  # m from the camera's target
# Degrees: a camera's yaw and a box's yaw, pitch and roll (one turn either way says every angle).
ANGLE = (-360.0, 360.0)
SCENE_FILE_BYTES = 8 * 1024 * 1024  # a scene file with every slime and obstacle above is well under 1 MiB

# --- Soda model files (slime/scenes/soda_format.py) -------------------------------------------------
# Every number in a model file (a position, a velocity, the box, gravity, a stiffness, a phase): a
# walker is a few units across, and squares of these stay far inside a float, so the physics and
# the drawing never overflow to inf.
SODA_NUMBER = (-1.0e12, 1.0e12)
# Viscous friction (force -= friction * v on unit masses): negative friction feeds energy in, and
# past 600 one explicit substep (1/600 s) flips a velocity instead of slowing it; the walker's is 0.137.
SODA_FRICTION = (0.0, 100.0)

# --- glTF export (slime simulate --output run.glb | run.gltf, slime/export/gltf.py) -----------------------
# Vertex positions a run may hold, all slimes' vertices times the recorded frames (ticks + 1). Each
# is a float32 position and normal in the file, 24 bytes: 20 million is about 480 MB, as much as a
# browser tab or Blender loads without swapping on a laptop (writing it takes about four times the
# file's size in memory, 2 GB at this limit).
MAX_EXPORT_VERTEX_FRAMES = 20_000_000
# Frames (ticks + 1) one export may hold. The frames are morph targets whose weights step one target
# on per frame, and every reader expands those weights to a frames x frames table (three.js as one
# array, Blender as a curve of every frame on every shape key): 1201 frames, 20 s at 60 Hz, is 1.4
# million keys a slime.
MAX_EXPORT_FRAMES = 1201


def vector3(name: str, value) -> np.ndarray:
    """A finite 3-vector as a float64 array, or one ValueError naming the argument (every 3-vector
    a user gives the physics is read here)."""
    try:
        arr = np.array(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a 3-vector of numbers, got {value!r}") from None
    if arr.shape != (3,):
        raise ValueError(f"{name} must be a 3-vector, got {arr.shape[0]} numbers")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return arr
