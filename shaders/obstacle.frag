#version 330
// Opaque obstacles, lit in linear light: the key light (blocked where a slime or an obstacle
// stands between the surface and the light: light_shadow.glsl's maps; a slime lets some through),
// a dim fill and the sky's light from above, on the obstacle's colour decoded from the sRGB it is
// given in (a scene's "#rrggbb", as the picture shows it and as the glTF export decodes it), then
// encoded back. White light on a colour keeps its hue: the scene's colour is what the eye sees on
// a face the light meets squarely, as Blender does from the glTF. Last, the haze the floor fades into.
#include "light_shadow.glsl"
uniform vec3 u_eye;
uniform vec3 u_key_dir;      // unit, toward the key light
uniform vec3 u_fill_dir;
uniform vec3 u_horizon;      // the haze
uniform float u_fog_distance;
uniform float u_floor_height; // below it the obstacle is hidden by the floor (the camera is above)

in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;

out vec4 f_color;

const float KEY = 1.0;   // the key light on a face square to it
const float FILL = 0.16;
const float SKY = 0.35;  // the sky's light on a face turned up; 0.6 of it on one turned down

vec3 linear_of_srgb(vec3 c) {
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c));
}

vec3 srgb_of_linear(vec3 c) {
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

void main() {
    if (v_world.y < u_floor_height) discard;
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_world);
    if (dot(n, v) < 0.0) n = -n;  // a plane seen from behind is lit on the side one sees

    float key = max(dot(n, u_key_dir), 0.0);
    vec3 key_shade = key > 0.0 ? key_light(v_world, n, 0.0) : vec3(1.0);
    float fill = max(dot(n, u_fill_dir), 0.0);
    float sky = SKY * mix(0.6, 1.0, 0.5 + 0.5 * n.y);
    vec3 light = vec3(sky + FILL * fill) + KEY * key * key_shade;
    vec3 color = srgb_of_linear(linear_of_srgb(v_color) * light);

    float dist = length(v_world - u_eye);
    float haze = 1.0 - exp(-(dist * dist) / (u_fog_distance * u_fog_distance));
    f_color = vec4(mix(color, u_horizon, haze), 1.0);
}
