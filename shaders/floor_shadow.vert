#version 330
// The floor under the key light's shadow map: a quad on the floor plane where the map's square
// meets it (no shadow falls outside it), so only those pixels pay for the shadow.
uniform mat4 u_view;
uniform mat4 u_proj;

in vec3 in_position;
out vec3 v_world;

void main() {
    v_world = in_position;
    gl_Position = u_proj * u_view * vec4(in_position, 1.0);
}
