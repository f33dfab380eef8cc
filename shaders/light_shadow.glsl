// The key light's shadows, from a shadow map: WorldRenderer draws every slime and finite obstacle
// seen from the light (an orthographic view along u_key_dir) into a depth texture, and into a
// colour texture the nearest caster's shadow tint (rgb) and slime number + 1 (a, over 255; 0 for
// an obstacle). An obstacle blocks the light; a slime lets some through, tinted (light through
// jelly). Included by floor_shadow.frag, obstacle.frag and slime.frag.
uniform sampler2DShadow u_light_depth;  // depth from the light, compared by the texture unit
uniform sampler2D u_light_pass;         // rgb: the nearest caster's shadow tint; a: its slime number + 1, over 255
uniform mat4 u_light_view_proj;
uniform float u_light_scale;            // the share of each side of the textures the map was drawn into
uniform vec2 u_light_texel;             // one texel, in the textures' 0..1 coordinates
uniform float u_light_offset;           // metres a receiver is moved along its normal (a texel and a half)
uniform float u_light_soft;             // 1: four filtered taps (a soft edge); 0: one
uniform float u_jelly_pass;             // the share of its tint a slime lets through of the key light
uniform int u_light_on;                 // 0: no map (the single-slime renderer): lit everywhere

// How much of the key light reaches `world` (a surface with unit normal `normal`): `lit` 1 where
// nothing is in the way, 0 in the umbra, between over the edge; `caster` the texel of the nearest
// caster (its tint and number). False where the map says nothing (off, or outside it). A slime's
// own surface (`self_id`, its number + 1; 0 for anything else) does not shadow it: the jelly is
// lit through, which its wrapped diffuse already models.
bool light_sample(vec3 world, vec3 normal, float self_id, out float lit, out vec4 caster) {
    lit = 1.0;
    caster = vec4(1.0, 1.0, 1.0, 0.0);
    if (u_light_on == 0) return false;
    vec4 clip = u_light_view_proj * vec4(world + normal * u_light_offset, 1.0);
    vec3 p = clip.xyz / clip.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.y <= 0.0 || p.x >= 1.0 || p.y >= 1.0) return false;  // nothing casts out there
    vec2 uv = p.xy * u_light_scale;
    float ref = min(p.z, 0.9999);  // past the map's far plane: behind every caster in it
    caster = texture(u_light_pass, uv);
    if (self_id > 0.0 && abs(caster.a * 255.0 - self_id) < 0.5) return false;
    if (u_light_soft > 0.0) {
        vec2 t = u_light_texel;
        lit = 0.25 * (texture(u_light_depth, vec3(uv + vec2(-1.0, -0.5) * t, ref))
                    + texture(u_light_depth, vec3(uv + vec2(0.5, -1.0) * t, ref))
                    + texture(u_light_depth, vec3(uv + vec2(-0.5, 1.0) * t, ref))
                    + texture(u_light_depth, vec3(uv + vec2(1.0, 0.5) * t, ref)));
    } else {
        lit = texture(u_light_depth, vec3(uv, ref));
    }
    return lit < 1.0;
}

// The key light reaching a surface lit by it: 1 where lit, nothing behind an obstacle, the tinted
// share a slime lets through behind a slime.
vec3 key_light(vec3 world, vec3 normal, float self_id) {
    float lit;
    vec4 caster;
    if (!light_sample(world, normal, self_id, lit, caster)) return vec3(1.0);
    vec3 through = caster.a > 0.0 ? caster.rgb * u_jelly_pass : vec3(0.0);
    return mix(through, vec3(1.0), lit);
}
