"""The soda scene through the Scene2D protocol: ticks, drawing, sliders, drag, construct mode, save."""

from __future__ import annotations

import numpy as np
import pytest

from slime.scenes.base import Scene2D
from slime.scenes.soda import SodaScene, make_scene
from slime.scenes.soda_format import DAINTY_WALKER, load_model


@pytest.fixture
def scene(tmp_path) -> SodaScene:
    scene = make_scene()
    scene.save_path = tmp_path / "saved.json"
    return scene


def _far_from_everything(scene) -> np.ndarray:
    return np.array([scene.model.width - 0.1, scene.model.height - 0.1])


def test_is_a_scene2d_named_soda(scene):
    assert isinstance(scene, Scene2D) and scene.name == "soda"
    assert scene.y_down is False
    assert scene.bounds[0] < 0 < 4.0 < scene.bounds[2]  # the box with a margin
    assert any("ctrl+s" in line for line in scene.help_lines)
    assert any(line.startswith("c") for line in scene.help_lines)


def test_step_is_one_soda_constructor_tick(scene):
    twin = load_model(DAINTY_WALKER)
    for _ in range(3):
        scene.step()
        twin.tick()
    np.testing.assert_array_equal(scene.positions(), twin.locations)
    assert "tick 3" in " ".join(scene.hud())


def test_recording_arrays(scene):
    assert scene.positions().shape == (10, 2)
    assert scene.springs().shape == (22, 2) and scene.alive().all()
    scene.positions()[:] = 99.0  # a copy: recording cannot disturb the physics
    assert scene.model.locations.max() < 99.0


def test_draw_list_has_masses_springs_muscle_marks_and_box(scene):
    draw = scene.draw_list()
    model = scene.model
    muscles = model.springs.amplitude != 0
    assert draw.line_segments.shape == (22, 2, 2)
    np.testing.assert_array_equal(draw.line_segments[:, 0], model.locations[model.springs.a])
    assert draw.circle_centers.shape[0] == 10 + muscles.sum()
    middles = 0.5 * (model.locations[model.springs.a[muscles]] + model.locations[model.springs.b[muscles]])
    assert all(np.isclose(draw.circle_centers, m).all(axis=1).any() for m in middles)
    np.testing.assert_array_equal(draw.box_corners[0], [[0.0, 0.0], [4.0, 2.0]])
    assert not draw.box_filled[0]


def test_sliders_drive_the_model(scene):
    params = {p.name: p for p in scene.parameters()}
    assert set(params) == {"gravity", "friction", "springiness", "wave amplitude", "wave speed"}
    assert params["gravity"].get() == pytest.approx(0.02)
    params["gravity"].set(0.05)
    assert scene.model.gravity.tolist() == [0.0, -0.05]
    params["springiness"].set(9.0)
    assert scene.model.stiffness == 9.0 and (scene.model.springs.stiffness == 9.0).all()
    params["wave speed"].set(0.0)
    params["wave amplitude"].set(0.3)
    phase = scene.model.wave_phase
    scene.step()
    assert scene.model.wave_phase == phase and scene.model.wave_amplitude == 0.3
    for p in params.values():
        assert p.lo <= p.get() <= p.hi


def test_dragged_mass_follows_the_cursor(scene):
    grab = scene.model.locations[6].copy()
    scene.mouse_press(grab + 0.01, "left")
    target = np.array([2.5, 1.6])
    scene.mouse_drag(target, "left")
    scene.step()
    np.testing.assert_array_equal(scene.model.locations[6], target)
    scene.mouse_release(target, "left")
    scene.step()
    assert not np.array_equal(scene.model.locations[6], target)  # let go: it falls back with the body


def test_construct_mode_builds_and_deletes(scene):
    model = scene.model
    scene.key("c")
    assert scene.construct
    frozen = model.locations.copy()
    scene.step()
    np.testing.assert_array_equal(model.locations, frozen)  # time stops while building

    empty = _far_from_everything(scene)
    scene.mouse_press(empty, "left")
    scene.mouse_release(empty, "left")
    assert model.mass_count == 11
    np.testing.assert_array_equal(model.locations[10], empty)

    # mass A (the new one) then mass B (mass 0): a spring of their current distance
    scene.mouse_press(empty, "left")
    scene.mouse_release(empty, "left")
    scene.mouse_press(model.locations[0], "left")
    scene.mouse_release(model.locations[0], "left")
    assert model.spring_count == 23
    assert model.springs.pairs[-1].tolist() == [10, 0]
    assert model.springs.rest_length[-1] == pytest.approx(np.linalg.norm(empty - model.locations[0]))

    # right click on a spring's middle deletes only that spring
    middle = 0.5 * (model.locations[10] + model.locations[0])
    scene.mouse_press(middle, "right")
    assert model.spring_count == 22 and model.mass_count == 11

    # right click on a mass deletes it and every spring on it
    on_mass_1 = ((model.springs.a == 1) | (model.springs.b == 1)).sum()
    scene.mouse_press(model.locations[1], "right")
    assert model.mass_count == 10 and model.spring_count == 22 - on_mass_1

    scene.key("c")
    scene.step()
    assert np.isfinite(model.locations).all()


def test_save_writes_the_model_that_loads_back(scene, tmp_path):
    for _ in range(5):
        scene.step()
    scene.key("ctrl+s")
    loaded = load_model(scene.save_path)
    np.testing.assert_array_equal(loaded.locations, scene.model.locations)
    assert "saved" in scene.hud()[-1]
    other = scene.save(tmp_path / "other.json")
    assert load_model(other).mass_count == 10


def test_reset_restores_the_loaded_model(scene):
    start = scene.positions()
    for _ in range(4):
        scene.step()
    scene.key("r")
    np.testing.assert_array_equal(scene.positions(), start)
    scene.step()
    assert scene.ticks == 1


def test_w_reverses_the_wave(scene):
    scene.key("w")
    assert scene.model.wave_direction == -1.0
