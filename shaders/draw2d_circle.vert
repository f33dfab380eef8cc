#version 330
// One instance per mass: a screen-aligned quad around the disc, a pixel wider than the disc so the
// fragment shader has room for its anti-aliased edge.
uniform vec2 u_world_scale;   // pixels per world unit (y negative when world y grows downward)
uniform vec2 u_world_offset;  // pixel position of the world origin (GL convention: origin bottom-left)
uniform vec2 u_viewport;      // viewport size in pixels
uniform float u_min_radius;   // pixels: tiny masses stay visible

in vec2 in_corner;            // (-1..1, -1..1)
in vec2 in_center;
in float in_radius;
in vec4 in_color;
in float in_filled;

out vec2 v_local;             // pixels from the disc centre
out float v_radius;           // pixels
out vec4 v_color;
flat out float v_filled;

void main() {
    vec2 center = in_center * u_world_scale + u_world_offset;
    float radius = max(in_radius * abs(u_world_scale.x), u_min_radius);
    float extent = radius + 1.5;
    v_local = in_corner * extent;
    v_radius = radius;
    v_color = in_color;
    v_filled = in_filled;
    vec2 pixel = center + v_local;
    gl_Position = vec4(pixel / u_viewport * 2.0 - 1.0, 0.0, 1.0);
}
