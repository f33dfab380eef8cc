// The key light's shadows, from two shadow maps: WorldRenderer draws every finite obstacle seen
// from the light (an orthographic view along u_key_dir) into one depth texture, and every slime
// into another, with a colour texture holding the nearest slime's shadow tint (rgb) and number + 1
// (a, over 255). An obstacle blocks the light; a slime lets some through, tinted (light through
// jelly); a floor behind both is behind both. Included by floor_shadow.frag, obstacle.frag and
// slime.frag (which defines LIGHT_SELF first: the receiver is a slime, u_self_id).
//
// What is read is also fixed when a program is compiled: a software rasteriser runs both sides of
// a branch, so WorldRenderer compiles a variant for what each pass needs (with_defines) and
// leaves the rest out. The program as the files give it (no defines) reads what the uniforms say.
//   LIGHT_SOLID 0: the obstacles' map is never read (none casts)
//   LIGHT_JELLY 0: the slimes' depth map is never read (no slime but the receiver itself casts)
//   LIGHT_TAP_COUNT 4 or 1: always four filtered taps, or always one (0: as u_light_soft says)
#ifndef LIGHT_SOLID
#define LIGHT_SOLID 1
#endif
#ifndef LIGHT_JELLY
#define LIGHT_JELLY 1
#endif
#ifndef LIGHT_TAP_COUNT
#define LIGHT_TAP_COUNT 0
#endif
uniform sampler2DShadow u_light_depth;  // the obstacles' depth from the light, compared by the texture unit
uniform sampler2DShadow u_jelly_depth;  // the slimes'
uniform sampler2D u_light_pass;         // rgb: the nearest slime's shadow tint; a: its number + 1, over 255
uniform sampler2D u_light_optics;       // rgb: absorption * metres of jelly along the light, every slime's
uniform mat4 u_light_view_proj;
uniform float u_light_scale;            // the share of each side of the textures the maps were drawn into
uniform vec2 u_light_texel;             // one texel, in the textures' 0..1 coordinates
uniform float u_light_offset;           // metres a receiver is moved along its normal (two and a half texels)
uniform float u_light_soft;             // 1: four filtered taps (a soft edge); 0: one
uniform float u_jelly_pass;             // how far past its tint toward white the light through a slime is
uniform int u_light_solid;              // 0: no obstacle casts (its map is empty: not read)
uniform int u_light_on;                 // 0: no maps (nothing casts): lit everywhere

// Four filtered taps (2 x 2 texels each) around the point, a texel and a half out: an edge about
// four texels soft (a few centimetres, wider than a pixel from the usual cameras, so it does not
// stair-step); one tap where shadows are hard (the lowest quality).
const vec2 LIGHT_TAPS[4] = vec2[4](vec2(-1.5, -0.5), vec2(0.5, -1.5), vec2(-0.5, 1.5), vec2(1.5, 0.5));

float light_taps(sampler2DShadow map, vec2 uv, float ref) {
#if LIGHT_TAP_COUNT != 4
#if LIGHT_TAP_COUNT == 0
    if (u_light_soft <= 0.0)
#endif
    return texture(map, vec3(uv, ref));
#endif
#if LIGHT_TAP_COUNT != 1
    float sum = 0.0;
    for (int i = 0; i < 4; ++i) sum += texture(map, vec3(uv + LIGHT_TAPS[i] * u_light_texel, ref));
    return 0.25 * sum;
#endif
}

// The slimes' share of `light_taps`, for a receiver that may be a slime (`self_id`, its number + 1;
// 0 for anything else): a texel whose nearest slime is the receiver itself counts as lit, tap by
// tap, so the edge between its own surface and another slime's shadow is as soft as any other.
// `caster` is the texel under the receiver (its nearest slime's tint and number).
float jelly_taps(vec2 uv, float ref, float self_id, out vec4 caster) {
    caster = texture(u_light_pass, uv);
#ifndef LIGHT_SELF
    return light_taps(u_jelly_depth, uv, ref);
#else
#if LIGHT_TAP_COUNT != 4
#if LIGHT_TAP_COUNT == 0
    if (u_light_soft <= 0.0)
#endif
    return abs(caster.a * 255.0 - self_id) < 0.5 ? 1.0 : texture(u_jelly_depth, vec3(uv, ref));
#endif
#if LIGHT_TAP_COUNT != 1
    float sum = 0.0;
    for (int i = 0; i < 4; ++i) {
        vec2 q = uv + LIGHT_TAPS[i] * u_light_texel;
        bool mine = abs(texture(u_light_pass, q).a * 255.0 - self_id) < 0.5;
        sum += mine ? 1.0 : texture(u_jelly_depth, vec3(q, ref));
    }
    return 0.25 * sum;
#endif
#endif
}

// How much of the key light reaches `world` (a surface with unit normal `normal`) past the
// obstacles (`solid`) and past the slimes (`jelly`): 1 where nothing is in the way, 0 in the
// umbra, between over the edge; `tint` the nearest slime's shadow tint; `through` what the jelly
// on the light's whole path lets through (per channel). False where the maps say nothing (off,
// or outside them). A slime's own surface (`self_id`) does not shadow it: the jelly is lit
// through, which its wrapped diffuse already models.
bool light_sample(vec3 world, vec3 normal, float self_id, out float solid, out float jelly, out vec3 tint,
                  out vec3 through) {
    solid = 1.0;
    jelly = 1.0;
    tint = vec3(1.0);
    through = vec3(1.0);
#if LIGHT_SOLID || LIGHT_JELLY
    if (u_light_on == 0) return false;
    vec4 clip = u_light_view_proj * vec4(world + normal * u_light_offset, 1.0);
    vec3 p = clip.xyz / clip.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.y <= 0.0 || p.x >= 1.0 || p.y >= 1.0) return false;  // nothing casts out there
    vec2 uv = p.xy * u_light_scale;
    float ref = min(p.z, 0.9999);  // past the maps' far plane: behind every caster in them
#if LIGHT_SOLID
    if (u_light_solid != 0) solid = light_taps(u_light_depth, uv, ref);
#endif
#if LIGHT_JELLY
    vec4 caster;
    jelly = jelly_taps(uv, ref, self_id, caster);
    tint = caster.rgb;
#ifndef LIGHT_SELF
    // Filtered linearly: the optical depth is smooth, zero at every silhouette. (A slime receiving
    // takes the nearest slime's tint instead: past_jelly.)
    through = exp(-max(texture(u_light_optics, uv).rgb, vec3(0.0)));
#endif
#endif
    return solid < 1.0 || jelly < 1.0;
#else
    return false;
#endif
}

// The key light reaching the floor, which lies behind every slime and obstacle: what the
// obstacles (`solid`) and the jelly on the light's path (`through`) let through; false where the
// maps say nothing. Cheaper than light_sample: no slime's depth to compare with.
bool floor_light(vec3 world, out float solid, out vec3 through) {
    solid = 1.0;
    through = vec3(1.0);
    if (u_light_on == 0) return false;
    vec4 clip = u_light_view_proj * vec4(world + vec3(0.0, u_light_offset, 0.0), 1.0);
    vec3 p = clip.xyz / clip.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.y <= 0.0 || p.x >= 1.0 || p.y >= 1.0) return false;
    vec2 uv = p.xy * u_light_scale;
#if LIGHT_SOLID
    if (u_light_solid != 0) solid = light_taps(u_light_depth, uv, min(p.z, 0.9999));
#endif
    through = exp(-max(texture(u_light_optics, uv).rgb, vec3(0.0)));
    return true;
}

// The key light past the slimes, on a receiver behind them (`jelly` < 1): what their jelly lets
// through, Beer-Lambert of the optical depth on the light's path. Where that path also crosses
// the receiver itself or a slime beyond it (a slime receiving, `self_id` > 0), the nearest
// slime's tint stands in, as the map cannot tell the jelly before the point from the jelly after.
vec3 past_jelly(float jelly, vec3 tint, vec3 through, float self_id) {
#ifdef LIGHT_SELF
    vec3 passed = mix(tint, vec3(1.0), u_jelly_pass);
#else
    vec3 passed = through;
#endif
    return mix(passed, vec3(1.0), jelly);
}

// The key light reaching a surface lit by it: 1 where lit, nothing behind an obstacle, what the
// jelly lets through behind a slime.
vec3 key_light(vec3 world, vec3 normal, float self_id) {
    float solid, jelly;
    vec3 tint, through;
    if (!light_sample(world, normal, self_id, solid, jelly, tint, through)) return vec3(1.0);
    return solid * past_jelly(jelly, tint, through, self_id);
}
