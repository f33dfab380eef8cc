"""moderngl-window's window backends that open a real window, with the pip package each one needs
(pyglet comes with moderngl-window; "headless" opens none: that is `slime render`'s job). Neutral:
the command line checks ``--window`` against it before any window code is imported."""

WINDOW_BACKENDS = {
    "pyglet": "pyglet",
    "glfw": "glfw",
    "sdl2": "pysdl2 pysdl2-dll",
    "pygame2": "pygame",
    "pyside2": "PySide2",
    "pyqt5": "PyQt5",
    "tk": "pyopengltk",
}
