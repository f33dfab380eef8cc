#version 330
// The optical depth of the jelly along the key light, summed over every slime by additive
// blending: each face adds absorption * (its height toward the light), a face toward the light
// with a plus, one away from it with a minus. A closed surface is crossed as often going in as
// coming out, so the sum is absorption times the length of the light's path inside the jelly
// (Beer-Lambert's exponent), and nothing where the path misses. Heights are measured from the
// slime's own centre so the terms stay small (float sums keep their precision).
uniform vec3 u_key_dir;      // unit, toward the key light
uniform vec3 u_body_center;
uniform vec3 u_absorption;   // per metre, per channel

in vec3 v_world;
out vec4 f_depth;            // rgb: absorption * metres of jelly; a: metres of jelly

void main() {
    float height = dot(v_world - u_body_center, u_key_dir);
    float side = gl_FrontFacing ? 1.0 : -1.0;
    f_depth = side * height * vec4(u_absorption, 1.0);
}
