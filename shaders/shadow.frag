#version 330
// Multiplies the cached floor by the contact shadow (blend: dst * src), faded like the floor's haze.
#include "shadow.glsl"
uniform vec3 u_eye;
uniform float u_fog_distance;

in vec3 v_world;
out vec4 f_color;

void main() {
    float t = length(v_world - u_eye);
    float haze = 1.0 - exp(-(t * t) / (u_fog_distance * u_fog_distance));
    f_color = vec4(mix(vec3(1.0), shadow_factor(v_world.xz), 1.0 - haze), 1.0);
}
