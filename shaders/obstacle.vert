#version 330
// Static obstacles (boxes, balls, planes) and the floor's depth: plain lit geometry in world space.
uniform mat4 u_view;
uniform mat4 u_proj;

in vec3 in_position;
in vec3 in_normal;
in vec3 in_color;

out vec3 v_world;
out vec3 v_normal;
out vec3 v_color;

void main() {
    v_world = in_position;
    v_normal = in_normal;
    v_color = in_color;
    gl_Position = u_proj * u_view * vec4(in_position, 1.0);
}
