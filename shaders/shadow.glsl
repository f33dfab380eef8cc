// The slime's contact shadow on the floor: a tight dark core under the footprint plus a broad soft
// halo, both weaker as the body lifts off the floor; light through the jelly tints it.
// Included by shadow.frag and slime.vert (see slime.render.shader_files).
uniform vec4 u_shadow;         // xy: centre on the floor (x, z); zw: footprint half-extents
uniform float u_shadow_lift;   // height of the slime's lowest point above the floor
uniform vec3 u_shadow_tint;
uniform float u_shadow_halo;   // 1: the soft halo; 0: the core only (one exp less per pixel)
uniform float u_shadow_depth;  // the body's height over its footprint's width, at most 1: a flat body lets more light through

vec3 shadow_factor(vec2 xz) {
    vec2 d = (xz - u_shadow.xy) / max(u_shadow.zw, vec2(1e-3));
    float r2 = dot(d, d);
    float lift = max(u_shadow_lift, 0.0) / max(max(u_shadow.z, u_shadow.w), 1e-3);
    float s = 0.55 * exp(-1.4 * r2 * r2);
    if (u_shadow_halo > 0.0) s += 0.35 * exp(-0.55 * r2);
    s *= exp(-2.5 * lift) * u_shadow_depth;
    return mix(vec3(1.0), u_shadow_tint, min(s, 0.85));
}
