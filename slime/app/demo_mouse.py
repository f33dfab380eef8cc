"""The slime window's mouse: the left button goes to its gesture (``gesture.Gesture``: poke,
press, grab, throw), with the time each event came; right or middle drag orbits the camera, the
wheel zooms; the panel takes what is over it first (a mixin of DemoWindow)."""

from __future__ import annotations

import time


class MouseInput:
    def _ui_wants_mouse(self) -> bool:
        return self.imgui is not None and self.imgui.wants_mouse

    def _ray(self, x: float, y: float):
        return self.camera.ray(x, y, self.wnd.size)

    def on_mouse_position_event(self, x, y, dx, dy):
        self.cursor = (x, y)
        if self.imgui is not None:
            self.imgui.position(x, y)

    def on_mouse_press_event(self, x, y, button):
        if self.imgui is not None:
            self.imgui.button(x, y, button, True)
            if self._ui_wants_mouse():
                return
        self.cursor = (x, y)
        if button == self.wnd.mouse.left:
            self.gesture.down(x, y, time.perf_counter())

    def on_mouse_drag_event(self, x, y, dx, dy):
        self.cursor = (x, y)
        if self.imgui is not None:
            self.imgui.position(x, y)
            if self._ui_wants_mouse():
                return
        states = self.wnd.mouse_states
        if states.right or states.middle:
            self.camera.orbit(-0.35 * dx, 0.35 * dy)
            self.framer.user_moved()  # the user's camera from now on
            return
        if states.left:
            self.gesture.move(x, y, time.perf_counter())

    def on_mouse_release_event(self, x, y, button):
        if self.imgui is not None:
            self.imgui.button(x, y, button, False)
        if button == self.wnd.mouse.left:
            self.gesture.up(x, y, time.perf_counter())

    def on_mouse_scroll_event(self, x_offset, y_offset):
        if self.imgui is not None:
            self.imgui.scroll(x_offset, y_offset)
            if self._ui_wants_mouse():
                return
        self.camera.zoom(y_offset)
        self.framer.user_moved()
