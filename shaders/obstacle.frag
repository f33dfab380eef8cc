#version 330
// Opaque obstacles, lit like the floor's world: wrapped key light, a dim fill, a sky ambient, and
// the haze the floor fades into. The key light is blocked where a slime or an obstacle stands
// between the surface and the light (light_shadow.glsl's maps; a slime lets some through, tinted).
#include "light_shadow.glsl"
uniform vec3 u_eye;
uniform vec3 u_key_dir;      // unit, toward the key light
uniform vec3 u_fill_dir;
uniform vec3 u_sky_top;      // ambient from above
uniform vec3 u_horizon;      // ambient from the side, and the haze
uniform float u_fog_distance;
uniform float u_floor_height; // below it the obstacle is hidden by the floor (the camera is above)

in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;

out vec4 f_color;

void main() {
    if (v_world.y < u_floor_height) discard;
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_world);
    if (dot(n, v) < 0.0) n = -n;  // a plane seen from behind is lit on the side one sees

    float key = max(dot(n, u_key_dir), 0.0);
    vec3 key_shade = key > 0.0 ? key_light(v_world, n, 0.0) : vec3(1.0);
    float fill = max(dot(n, u_fill_dir), 0.0);
    vec3 ambient = mix(u_horizon, u_sky_top, 0.5 + 0.5 * n.y) * 0.38;
    vec3 light = ambient + vec3(0.72) * key * key_shade + vec3(0.16) * fill;
    vec3 color = v_color * light;

    float dist = length(v_world - u_eye);
    float haze = 1.0 - exp(-(dist * dist) / (u_fog_distance * u_fog_distance));
    f_color = vec4(mix(color, u_horizon, haze), 1.0);
}
