#version 330
// Sky and floor in one full-screen pass: each pixel's view ray either meets the floor plane
// (checkerboard, haze with distance) or goes on into the sky. Drawn into a texture only when the
// camera moves (the shadows are drawn over it each frame: floor_shadow.frag).

uniform mat4 u_inv_view_proj;
uniform vec3 u_eye;
uniform float u_floor_height;
uniform float u_cell;          // checker cell size in world units
uniform vec3 u_sky_top;
uniform vec3 u_horizon;        // sky at the horizon and the haze the floor fades into
uniform float u_fog_distance;
uniform vec3 u_floor_light;
uniform vec3 u_floor_dark;

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
    vec3 color = mix(u_floor_light, u_floor_dark, checker);

    float haze = 1.0 - exp(-(t * t) / (u_fog_distance * u_fog_distance));
    f_color = vec4(mix(color, u_horizon, haze), 1.0);
}
