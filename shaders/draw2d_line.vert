#version 330
// One instance per spring: a quad along the segment, as thick as the stroke plus an anti-aliasing
// margin, with round-ish ends (half a stroke past each end) so chains of springs join without gaps.
uniform vec2 u_world_scale;
uniform vec2 u_world_offset;
uniform vec2 u_viewport;
uniform float u_width;        // stroke in pixels

in vec2 in_corner;            // x: 0 at start, 1 at end; y: -1..1 across
in vec2 in_start;
in vec2 in_end;
in vec4 in_color;
in float in_dashed;

out vec2 v_local;             // x: pixels along from the start, y: pixels across from the axis
out float v_length;           // pixels
out vec4 v_color;
flat out float v_dashed;

void main() {
    vec2 a = in_start * u_world_scale + u_world_offset;
    vec2 b = in_end * u_world_scale + u_world_offset;
    vec2 ab = b - a;
    float len = length(ab);
    vec2 along = len > 1e-6 ? ab / len : vec2(1.0, 0.0);
    vec2 across = vec2(-along.y, along.x);
    float half_width = 0.5 * u_width + 1.0;
    float s = mix(-half_width, len + half_width, in_corner.x);
    float t = in_corner.y * half_width;
    v_local = vec2(s, t);
    v_length = len;
    v_color = in_color;
    v_dashed = in_dashed;
    vec2 pixel = a + along * s + across * t;
    gl_Position = vec4(pixel / u_viewport * 2.0 - 1.0, 0.0, 1.0);
}
