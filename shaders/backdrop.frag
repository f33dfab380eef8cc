#version 330
// Sky and floor in one full-screen pass: each pixel's view ray either meets the floor plane
// (checkerboard, contact shadow, haze with distance) or goes on into the sky. One pass over the
// screen instead of two overlapping ones is what a software rasteriser needs most.

uniform mat4 u_inv_view_proj;
uniform vec3 u_eye;
uniform float u_floor_height;
uniform float u_cell;          // checker cell size in world units
uniform vec4 u_shadow;         // xy: centre on the floor (x, z); zw: footprint half-extents
uniform float u_shadow_lift;   // height of the slime's lowest point above the floor
uniform vec3 u_shadow_tint;    // light through the jelly colours its shadow
uniform vec3 u_sky_top;
uniform vec3 u_horizon;        // sky at the horizon and the haze the floor fades into
uniform float u_fog_distance;

in vec2 v_ndc;
out vec4 f_color;

vec3 sky(vec3 dir) {
    float t = smoothstep(0.0, 0.55, dir.y);
    return mix(u_horizon, u_sky_top, sqrt(t));
}

void main() {
    vec4 far_point = u_inv_view_proj * vec4(v_ndc, 1.0, 1.0);
    vec3 dir = normalize(far_point.xyz / far_point.w - u_eye);
    float t = (u_floor_height - u_eye.y) / dir.y;
    if (dir.y >= 0.0 || t <= 0.0) {
        f_color = vec4(sky(dir), 1.0);
        return;
    }
    vec3 world = u_eye + t * dir;

    // Box-filtered checker: each pixel averages the pattern over its footprint (no shimmer far off).
    vec2 p = world.xz / u_cell;
    vec2 w = fwidth(p) + 1e-4;
    vec2 i = 2.0 * (abs(fract((p - 0.5 * w) * 0.5) - 0.5) - abs(fract((p + 0.5 * w) * 0.5) - 0.5)) / w;
    float checker = 0.5 - 0.5 * i.x * i.y;
    vec3 color = mix(vec3(0.95, 0.94, 0.91), vec3(0.80, 0.83, 0.86), checker);

    // Contact shadow: a tight dark core under the footprint plus a broad soft halo, both
    // weaker as the body lifts off the floor.
    vec2 d = (world.xz - u_shadow.xy) / max(u_shadow.zw, vec2(1e-3));
    float r2 = dot(d, d);
    float lift = max(u_shadow_lift, 0.0) / max(max(u_shadow.z, u_shadow.w), 1e-3);
    float shadow = exp(-2.5 * lift) * (0.55 * exp(-1.4 * r2 * r2) + 0.35 * exp(-0.55 * r2));
    color *= mix(vec3(1.0), u_shadow_tint, min(shadow, 0.85));

    float haze = 1.0 - exp(-(t * t) / (u_fog_distance * u_fog_distance));
    f_color = vec4(mix(color, sky(vec3(dir.x, 0.0, dir.z)), haze), 1.0);
}
