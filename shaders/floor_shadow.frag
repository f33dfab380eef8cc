#version 330
// The shadows on the floor, multiplied into the cached sky and floor (blend: dst * src). The floor's
// light is the sky's share (u_floor_shade) and the key light's (the rest). The key light's share is
// what light_shadow.glsl says reaches this point: none behind an obstacle, what the jelly lets
// through behind a slime. The sky's share is cut under each slime by the sky it hides: each slime
// seen from the floor as a sphere squashed to its box (the cosine-weighted solid angle of a
// sphere, radius^2 cos / distance^2, in the units of its half-extents), so a slime sits in a soft
// dark contact shadow that is densest under it and gone a little past its side; it fades as the slime
// lifts off (the slime is then seldom the only thing between the floor and the sky: a board it
// sits on hides that sky already). The floor lost in the haze stays as it is.
#include "light_shadow.glsl"
uniform vec3 u_eye;
uniform float u_fog_distance;
uniform float u_floor_shade;  // the sky's share of the floor's light (all that is left behind an obstacle)
uniform float u_contact;      // how much of the sky a slime at rest on the floor hides right under it
uniform int u_occluders;      // slimes counted in the sky's share
uniform vec4 u_occluder_center[64];  // xyz: each slime's box's centre; w: its contact (1 on the floor)
uniform vec3 u_occluder_half[64];  // half-extents of each slime's box
uniform float u_contact_reach;     // half-extents from a slime's centre where its contact shadow has gone

in vec3 v_world;
out vec4 f_color;

float sky_hidden(vec3 world) {
    float open = 1.0;
    for (int i = 0; i < u_occluders; ++i) {
        vec3 q = (world - u_occluder_center[i].xyz) / max(u_occluder_half[i], vec3(1e-3));
        float d2 = dot(q, q);
        // Gone at the reach: past it a wall or a board may stand between (the floor outside a box
        // of slimes keeps its sky), and the floor's quad ends there.
        float near = 1.0 - smoothstep(1.0, u_contact_reach, length(q.xz));
        open *= 1.0 - near * u_occluder_center[i].w * clamp(-q.y / (d2 * sqrt(d2)), 0.0, 1.0);  // below the slime q.y < 0
    }
    return 1.0 - open;
}

void main() {
    vec3 world = v_world;
    float t = length(world - u_eye);
    float solid;
    vec3 through;
    vec3 key = vec3(1.0);
    if (floor_light(world, solid, through)) {
        // Behind an obstacle, which takes the key light whole, the floor keeps its sky light
        // alone, whatever stands beyond the obstacle.
        key = solid * through;
    }
    float sky = u_floor_shade * (1.0 - u_contact * sky_hidden(world));
    vec3 shade = sky + (1.0 - u_floor_shade) * key;
    float haze = 1.0 - exp(-(t * t) / (u_fog_distance * u_fog_distance));
    f_color = vec4(mix(shade, vec3(1.0), haze), 1.0);
}
