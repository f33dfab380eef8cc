#version 330
// The slime's deformed surface: positions and smooth normals are re-uploaded every frame.
uniform mat4 u_view;
uniform mat4 u_proj;

in vec3 in_position;
in vec3 in_normal;

out vec3 v_world;
out vec3 v_normal;

void main() {
    v_world = in_position;
    v_normal = in_normal;
    gl_Position = u_proj * u_view * vec4(in_position, 1.0);
}
