"""The slime window panel's parameter sliders: one loop over the declared parameters that have a
slider (``slime.physics.parameters.Param.slider``), as a 2D scene's panel is one loop over its
``Param``s. A parameter declared with a slider (a new force's too) is on the panel with no edit
here."""

from __future__ import annotations

from slime.physics.parameters import Param, sliders


def shown_value(param: Param, value):
    """What a slider shows of a parameter's value: a vector's downward (-y) part (gravity's
    strength), a number as it is."""
    if param.kind == "vector":
        return float(-value[1]) + 0.0  # + 0.0: never "-0.00"
    return int(value) if param.kind == "integer" else float(value)


def set_value(param: Param, shown):
    """The parameter's value for a slider at ``shown``: a vector straight down, a number as it is."""
    if param.kind == "vector":
        return (0.0, -float(shown), 0.0)
    return int(shown) if param.kind == "integer" else float(shown)


def draw_sliders(imgui, value_of, change, label_of=None) -> None:
    """A slider per declared parameter that has one, in the panel's order: ``value_of(param)``
    is the value it shows (the parameter's own value, as ``shown_value`` turns it), and
    ``change(param, value)`` is called with the parameter's new value when it is moved;
    ``label_of(param)``, when given, says its label (default the parameter's)."""
    for param in sliders():
        slider = param.slider
        label = label_of(param) if label_of is not None else param.label
        flags = imgui.SliderFlags_.logarithmic if slider.logarithmic else 0
        shown = value_of(param)
        if param.kind == "integer":
            changed, value = imgui.slider_int(label, int(shown), int(slider.low), int(slider.high), slider.format, flags)
        else:
            changed, value = imgui.slider_float(label, float(shown), slider.low, slider.high, slider.format, flags)
        if changed:
            change(param, set_value(param, value))
