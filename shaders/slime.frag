#version 330
// Translucent jelly, drawn in one pass over the front faces. Blending is dual-source:
// dst = emitted + dst * transmitted, so the floor seen through the body is tinted per channel (red
// is absorbed most: the slime looks green through). The far wall's share (its absorption and faint
// glow) is folded in here instead of a second pass over the back faces: for a ball it sits under
// the same pixel at the same N.V, and a second pass would double the triangle work.

uniform vec3 u_eye;
uniform vec3 u_key_dir;      // unit, toward the key light
uniform vec3 u_fill_dir;     // unit, toward a dim back light that rims the silhouette
uniform vec3 u_absorb;       // per-channel absorption for a full chord through the body
uniform vec3 u_deep_color;   // scattered colour where the body is thin or unlit
uniform vec3 u_glow_color;   // scattered colour where light goes through a lot of body
uniform int u_wireframe;

in vec3 v_world;
in vec3 v_normal;

layout(location = 0, index = 0) out vec4 f_emit;
layout(location = 0, index = 1) out vec4 f_transmit;

vec3 environment(vec3 r) {
    // What the surface mirrors: sky above, the pale floor below, a bright band near the horizon.
    vec3 sky = mix(vec3(0.93, 0.95, 0.97), vec3(0.70, 0.82, 0.95), smoothstep(0.0, 0.8, r.y));
    vec3 ground = vec3(0.78, 0.77, 0.74);
    return mix(ground, sky, smoothstep(-0.15, 0.1, r.y));
}

void main() {
    if (u_wireframe == 1) {
        f_emit = vec4(0.05, 0.30, 0.18, 1.0);
        f_transmit = vec4(0.0);
        return;
    }
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_world);
    float ndv = clamp(dot(n, v), 0.0, 1.0);

    // Through a ball the chord under a pixel is proportional to N.V: a cheap thickness estimate.
    float thickness = ndv;
    float key = dot(n, u_key_dir);
    float wrap = clamp((key + 0.6) / 1.6, 0.0, 1.0);  // wrapped diffuse: light bleeds round the jelly

    float grazing = 1.0 - ndv;
    float grazing2 = grazing * grazing;
    float fresnel = 0.03 + 0.97 * grazing2 * grazing2 * grazing;  // Schlick, (1 - N.V)^5
    // Each half of the chord (near and far) absorbs the same share.
    vec3 transmit = exp(-u_absorb * (0.2 + 0.8 * thickness) * 0.5);
    // The far wall, seen through the near half: a dimmer scatter where the key light enters.
    vec3 far_wall = mix(u_deep_color * 0.6, u_glow_color, 0.35 * wrap) * (1.0 - transmit) * 0.55;
    // Fake subsurface: light that went in on the lit side comes out brightest where the body is thick.
    float glow = wrap * (0.35 + 0.65 * thickness * thickness);
    vec3 scatter = mix(u_deep_color, u_glow_color, glow) * (0.45 + 0.75 * wrap);
    // Edges: thin, more saturated, with a back-light rim the way wet things look.
    float rim = grazing2 * sqrt(grazing) * (0.35 + 0.65 * clamp(dot(-v, u_fill_dir) * 0.5 + 0.5, 0.0, 1.0));
    vec3 body = scatter * (1.0 - transmit) + far_wall * transmit + u_glow_color * rim * 0.45;

    vec3 h_key = normalize(u_key_dir + v);
    vec3 h_fill = normalize(u_fill_dir + v);
    // Powers as exp2(k log2 x): the key light's sharp and soft lobes share one log2 (a software
    // rasteriser pays for every transcendental on every pixel).
    float log_key = log2(max(dot(n, h_key), 1e-6));
    float spec = 2.0 * exp2(400.0 * log_key) + 0.22 * exp2(40.0 * log_key)
               + 0.30 * exp2(120.0 * log2(max(dot(n, h_fill), 1e-6)));

    vec3 reflected = environment(reflect(-v, n));
    f_emit = vec4(body * (1.0 - fresnel) + reflected * fresnel + vec3(spec), 1.0);
    f_transmit = vec4(transmit * transmit * (1.0 - fresnel), 1.0);
}
