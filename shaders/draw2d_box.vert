#version 330
// One instance per axis-aligned box: a quad a pixel larger than the box for the anti-aliased edge.
uniform vec2 u_world_scale;
uniform vec2 u_world_offset;
uniform vec2 u_viewport;

in vec2 in_corner;            // (-1..1, -1..1)
in vec2 in_min;
in vec2 in_max;
in vec4 in_color;
in float in_filled;

out vec2 v_local;             // pixels from the box centre
flat out vec2 v_half;         // half size in pixels
out vec4 v_color;
flat out float v_filled;

void main() {
    vec2 p0 = in_min * u_world_scale + u_world_offset;
    vec2 p1 = in_max * u_world_scale + u_world_offset;
    vec2 center = 0.5 * (p0 + p1);
    v_half = 0.5 * abs(p1 - p0);
    v_local = in_corner * (v_half + 1.5);
    v_color = in_color;
    v_filled = in_filled;
    gl_Position = vec4((center + v_local) / u_viewport * 2.0 - 1.0, 0.0, 1.0);
}
