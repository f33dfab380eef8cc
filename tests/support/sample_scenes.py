"""Scenes more than one test file runs."""

# docs/5's row: three slimes in a row, each a little higher and redder than the last; no camera.
ROW = {"name": "A row",
       "slimes": [{"center": [1.2 * i, 0.5 + 0.4 * i, 0.0], "radius": 0.5, "color": [0.3 * i, 0.6, 0.4]}
                  for i in range(3)]}

# What the glTF tests export: three slimes of two resolutions (the world groups the 6 x 8 ones first,
# so file order and the .npz's body order differ), one of each obstacle, and a camera.
EXPORT_SCENE = {
    "slimes": [
        {"center": [0, 0.4, 0], "radius": 0.3, "stacks": 6, "slices": 8, "color": "#ff3300"},
        {"center": [1, 0.6, 0], "radius": 0.25, "stacks": 5, "slices": 6,
         "look": {"shininess": 50, "refraction": 1.5, "absorption": [0, 0, 0]}},
        {"center": [-1, 0.5, 0], "radius": 0.3, "stacks": 6, "slices": 8, "velocity": [0.5, 0, 0]},
    ],
    "obstacles": [
        {"kind": "box", "center": [0, 0.3, 2], "half_size": [0.5, 0.2, 0.4], "rotation": [30, 10, 0],
         "color": "#8899aa"},
        {"kind": "ball", "center": [2, 0.3, 2], "radius": 0.3},
        {"kind": "plane", "point": [0, 0, -3], "normal": [0, 0, 1]},
    ],
    "camera": {"yaw": 0, "elevation": 30, "distance": 5, "target": [0, 0.5, 0]},
}
