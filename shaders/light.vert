#version 330
// A shadow caster (a slime's surface or an obstacle) seen from the key light, for light_shadow.glsl's map.
uniform mat4 u_light_view_proj;

in vec3 in_position;

void main() {
    gl_Position = u_light_view_proj * vec4(in_position, 1.0);
}
