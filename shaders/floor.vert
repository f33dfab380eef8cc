#version 330
uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_floor_height;
uniform float u_extent;

in vec2 in_xz;  // unit square corners, scaled to the floor's extent

out vec3 v_world;

void main() {
    v_world = vec3(in_xz.x * u_extent, u_floor_height, in_xz.y * u_extent);
    gl_Position = u_proj * u_view * vec4(v_world, 1.0);
}
