#version 330
// The key light's shadows on the floor, multiplied into the cached sky and floor (blend: dst * src):
// light_shadow.glsl says how much key light reaches this point of the floor; the floor lost in
// the haze stays as it is.
#include "light_shadow.glsl"
uniform vec3 u_eye;
uniform float u_fog_distance;
uniform float u_floor_shade;  // what of its brightness the floor keeps behind an obstacle (the sky's light)
uniform float u_jelly_shade;  // how far toward its tint a slime's shadow darkens the floor

in vec3 v_world;
out vec4 f_color;

void main() {
    vec3 world = v_world;
    float t = length(world - u_eye);
    float solid, jelly;
    vec3 tint;
    vec3 shade = vec3(1.0);
    if (light_sample(world, vec3(0.0, 1.0, 0.0), 0.0, solid, jelly, tint)) {
        // The slimes' shadow is of the key light too: behind an obstacle, which takes that light
        // whole, the floor keeps its sky light alone, whatever stands beyond the obstacle.
        vec3 past_slimes = mix(mix(vec3(1.0), tint, u_jelly_shade), vec3(1.0), jelly);
        shade = mix(vec3(u_floor_shade), past_slimes, solid);
    }
    float haze = 1.0 - exp(-(t * t) / (u_fog_distance * u_fog_distance));
    f_color = vec4(mix(shade, vec3(1.0), haze), 1.0);
}
