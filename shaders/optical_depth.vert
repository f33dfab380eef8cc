#version 330
// A slime's surface seen from the key light, for the optical-depth map (optical_depth.frag).
uniform mat4 u_light_view_proj;

in vec3 in_position;
out vec3 v_world;

void main() {
    v_world = in_position;
    gl_Position = u_light_view_proj * vec4(in_position, 1.0);
}
