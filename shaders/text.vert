#version 330
// A screen-space textured quad: in_corner is (0..1, 0..1) with y down, placed in pixels from the
// top-left of the viewport.
uniform vec2 u_viewport;
uniform vec2 u_origin;   // top-left corner in pixels, y down
uniform vec2 u_size;     // pixels

in vec2 in_corner;
out vec2 v_uv;

void main() {
    vec2 pixel = u_origin + in_corner * u_size;
    v_uv = in_corner;
    gl_Position = vec4(pixel.x / u_viewport.x * 2.0 - 1.0, 1.0 - pixel.y / u_viewport.y * 2.0, 0.0, 1.0);
}
