#version 330
// Translucent jelly, drawn in one pass over the front faces onto the backdrop, which it also reads
// as a texture (u_behind). The values it uses are SlimeLook's (slime/render/look.py), which
// documents the model; in short, per pixel:
//   thickness d  = from this front point to where the view ray leaves the body (the body's
//                  bounding ellipsoid, refitted every frame: a squashed body is thin); it, the
//                  landing point and the shadow there come from slime.vert, per vertex
//   transmitted  = exp(-absorption * d)                       Beer-Lambert
//   behind       = u_behind where the refracted ray lands     screen-space refraction
//   colour       = scatter + reflection + highlights + behind * transmitted * (1 - fresnel)
// The key light's share (scatter, glow, highlights) is what light_shadow.glsl says reaches the
// surface: another slime or an obstacle in the way of the light shades it.

#define LIGHT_SELF  // the receiver is a slime (light_shadow.glsl): its own surface does not shadow it
#include "light_shadow.glsl"

uniform vec3 u_eye;
uniform vec4 u_viewport;     // x, y, width, height of the target in pixels (u_behind covers it)
uniform sampler2D u_behind;  // the sky and floor without the slime and its shadow
uniform vec3 u_key_dir;      // unit, toward the key light
uniform vec3 u_fill_dir;     // unit, toward a dim back light that rims the silhouette
uniform vec3 u_absorption;   // per metre, per channel
uniform vec3 u_deep_color;
uniform vec3 u_glow_color;
uniform float u_glow;
uniform float u_rim;
uniform float u_fresnel;
uniform float u_highlight;
uniform float u_shininess;
uniform int u_wireframe;
uniform float u_self_id;     // this slime's number + 1 in the light's map (its own surface casts no shadow on it)

in vec3 v_world;
in vec3 v_normal;
in float v_thickness;
in vec4 v_landing;

out vec4 f_color;

vec3 environment(vec3 r) {
    // What the surface mirrors: sky above, the pale floor below, a bright band near the horizon.
    vec3 sky = mix(vec3(0.93, 0.95, 0.97), vec3(0.70, 0.82, 0.95), smoothstep(0.0, 0.8, r.y));
    vec3 ground = vec3(0.78, 0.77, 0.74);
    return mix(ground, sky, smoothstep(-0.15, 0.1, r.y));
}

void main() {
    if (u_wireframe == 1) {
        f_color = vec4(0.05, 0.30, 0.18, 1.0);
        return;
    }
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_world);
    float thickness = v_thickness;
    float ndv = clamp(dot(n, v), 0.0, 1.0);
    float key = dot(n, u_key_dir);
    float key_lit = dot(key_light(v_world, n, u_self_id), vec3(1.0 / 3.0));
    // Wrapped diffuse: light bleeds round the jelly.
    float wrap = clamp((key + 0.6) / 1.6, 0.0, 1.0) * key_lit;

    float grazing = 1.0 - ndv;
    float grazing2 = grazing * grazing;
    float fresnel = u_fresnel + (1.0 - u_fresnel) * grazing2 * grazing2 * grazing;  // Schlick

    // Beer-Lambert over the chord; each half (near and far) absorbs the same share.
    vec3 half_transmit = exp(-u_absorption * thickness * 0.5);
    vec3 transmit = half_transmit * half_transmit;
    float body_amount = 1.0 - dot(transmit, vec3(1.0 / 3.0));  // 0 where thin, toward 1 where thick

    // The far wall, seen through the near half: a dimmer scatter where the key light enters.
    vec3 far_wall = mix(u_deep_color * 0.6, u_glow_color, 0.35 * wrap) * (1.0 - half_transmit) * 0.55;
    // Fake subsurface: light that went in on the lit side comes back out in the glow colour where
    // it had little body to cross, and in the deep colour where the body is thick.
    float glow = wrap * (1.0 - 0.65 * body_amount);
    vec3 scatter = mix(u_deep_color, u_glow_color, glow) * (0.45 + 0.75 * wrap) * (0.5 + 0.5 * u_glow);
    // Edges: thin, more saturated, with a back-light rim the way wet things look.
    float rim = grazing2 * sqrt(grazing) * (0.35 + 0.65 * clamp(dot(-v, u_fill_dir) * 0.5 + 0.5, 0.0, 1.0));
    vec3 body = scatter * (1.0 - half_transmit) + far_wall * half_transmit + u_glow_color * rim * u_rim;

    vec3 h_key = normalize(u_key_dir + v);
    vec3 h_fill = normalize(u_fill_dir + v);
    // Powers as exp2(k log2 x): the key light's sharp and soft lobes share one log2 (a software
    // rasteriser pays for every transcendental on every pixel).
    float log_key = log2(max(dot(n, h_key), 1e-6));
    float spec = (u_highlight * exp2(u_shininess * log_key) + 0.11 * u_highlight * exp2(0.1 * u_shininess * log_key)) * key_lit
               + 0.30 * exp2(120.0 * log2(max(dot(n, h_fill), 1e-6)));

    vec2 uv = (gl_FragCoord.xy - u_viewport.xy) / u_viewport.zw;
    if (v_landing.w > 1e-4) uv = v_landing.xy / v_landing.w * 0.5 + 0.5;
    vec3 behind = texture(u_behind, uv).rgb;

    // Toward grazing the mirrored ray runs on along the view ray, so what the jelly mirrors at its
    // outline is what lies straight behind it (read there already: the chord is nothing there, so
    // the bent ray lands on the pixel itself), not the sky's stand-in (environment(), whose floor
    // below the horizon is grey against the haze: without multisampling such outline pixels
    // stood out as dark specks).
    vec3 reflected = mix(behind, environment(reflect(-v, n)), smoothstep(0.0, 0.3, ndv));
    f_color = vec4(body * (1.0 - fresnel) + reflected * fresnel + vec3(spec) + behind * transmit * (1.0 - fresnel), 1.0);
}
