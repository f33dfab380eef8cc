#version 330
// Opaque obstacles, lit like the floor's world: wrapped key light, a dim fill, a sky ambient, and
// the haze the floor fades into. Each slime darkens them where it stands between the surface and
// the key light (a soft shadow of its fitted ellipsoid) and where it touches or nearly touches
// them (a contact darkening), tinted by the light that came through its jelly.
uniform vec3 u_eye;
uniform vec3 u_key_dir;      // unit, toward the key light
uniform vec3 u_fill_dir;
uniform vec3 u_sky_top;      // ambient from above
uniform vec3 u_horizon;      // ambient from the side, and the haze
uniform float u_fog_distance;
uniform float u_floor_height; // below it the obstacle is hidden by the floor (the camera is above)
uniform int u_casters;       // how many slimes cast (the block holds up to 64)

// Each slime's bounding ellipsoid (WorldRenderer._fit): centre, and the rows of the map from world
// offsets to the unit sphere; its shadow tint in .rgb of caster_tint.
layout(std140) uniform Casters {
    vec4 caster_center[64];
    vec4 caster_row0[64];
    vec4 caster_row1[64];
    vec4 caster_row2[64];
    vec4 caster_tint[64];
};

in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;

out vec4 f_color;

void main() {
    if (v_world.y < u_floor_height) discard;
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_world);
    if (dot(n, v) < 0.0) n = -n;  // a plane seen from behind is lit on the side one sees

    vec3 key_shade = vec3(1.0);
    vec3 contact = vec3(1.0);
    for (int i = 0; i < u_casters; ++i) {
        mat3 to_unit = transpose(mat3(caster_row0[i].xyz, caster_row1[i].xyz, caster_row2[i].xyz));
        vec3 o = to_unit * (v_world - caster_center[i].xyz);
        vec3 d = to_unit * u_key_dir;
        // Closest approach of the ray toward the light to the ellipsoid's centre, in unit-sphere
        // space: under 1 the ray goes through the body; the edge is softened over a band.
        float t = max(-dot(o, d) / max(dot(d, d), 1e-12), 0.0);
        float miss = length(o + t * d);
        float s = (1.0 - smoothstep(0.55, 1.3, miss)) * step(1e-4, t) * 0.8;
        key_shade *= mix(vec3(1.0), caster_tint[i].rgb, s);
        // Near the body, the sky is hidden too: darker the closer the surface is to its skin.
        float near = 1.0 - smoothstep(1.0, 1.7, length(o));
        contact *= mix(vec3(1.0), caster_tint[i].rgb, 0.6 * near);
    }

    float key = max(dot(n, u_key_dir), 0.0);
    float fill = max(dot(n, u_fill_dir), 0.0);
    vec3 ambient = mix(u_horizon, u_sky_top, 0.5 + 0.5 * n.y) * 0.38;
    vec3 light = ambient * contact + vec3(0.72) * key * key_shade * contact + vec3(0.16) * fill;
    vec3 color = v_color * light;

    float dist = length(v_world - u_eye);
    float haze = 1.0 - exp(-(dist * dist) / (u_fog_distance * u_fog_distance));
    f_color = vec4(mix(color, u_horizon, haze), 1.0);
}
