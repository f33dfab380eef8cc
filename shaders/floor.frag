#version 330
// A pale checkerboard floor with a soft contact shadow under the slime, fading into the haze.

uniform vec3 u_eye;
uniform float u_cell;          // checker cell size in world units
uniform vec4 u_shadow;         // xy: centre on the floor (x, z); zw: footprint half-extents
uniform float u_shadow_lift;   // height of the slime's lowest point above the floor
uniform vec3 u_shadow_tint;    // light through the jelly colours its shadow
uniform vec3 u_fog_color;
uniform float u_fog_distance;

in vec3 v_world;
out vec4 f_color;

void main() {
    // Box-filtered checker: each pixel averages the pattern over its footprint (no shimmer far off).
    vec2 p = v_world.xz / u_cell;
    vec2 w = fwidth(p) + 1e-4;
    vec2 i = 2.0 * (abs(fract((p - 0.5 * w) * 0.5) - 0.5) - abs(fract((p + 0.5 * w) * 0.5) - 0.5)) / w;
    float checker = 0.5 - 0.5 * i.x * i.y;
    vec3 light_cell = vec3(0.95, 0.94, 0.91);
    vec3 dark_cell = vec3(0.80, 0.83, 0.86);
    vec3 color = mix(light_cell, dark_cell, checker);

    // Contact shadow: a tight dark core under the footprint plus a broad soft halo, both
    // weaker as the body lifts off the floor.
    vec2 d = (v_world.xz - u_shadow.xy) / max(u_shadow.zw, vec2(1e-3));
    float r2 = dot(d, d);
    float lift = u_shadow_lift / max(max(u_shadow.z, u_shadow.w), 1e-3);
    float fade = exp(-2.5 * max(lift, 0.0));
    float core = exp(-1.4 * r2 * r2);
    float halo = exp(-0.55 * r2);
    float shadow = clamp(fade * (0.55 * core + 0.35 * halo), 0.0, 0.85);
    color *= mix(vec3(1.0), u_shadow_tint, shadow);

    float dist = length(v_world - u_eye);
    float fog = 1.0 - exp(-pow(dist / u_fog_distance, 2.0));
    f_color = vec4(mix(color, u_fog_color, fog), 1.0);
}
