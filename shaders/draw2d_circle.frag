#version 330
// Disc or ring with a one-pixel smoothstep edge on the distance from the centre.
uniform float u_stroke;  // ring thickness in pixels

in vec2 v_local;
in float v_radius;
in vec4 v_color;
flat in float v_filled;

out vec4 f_color;

void main() {
    float d = length(v_local);
    float coverage;
    if (v_filled > 0.5) {
        coverage = 1.0 - smoothstep(v_radius - 0.5, v_radius + 0.5, d);
    } else {
        // The ring lies inside the radius so a ring and a disc of the same radius have the same size.
        float half_stroke = 0.5 * min(u_stroke, v_radius);
        float from_mid = abs(d - (v_radius - half_stroke));
        coverage = 1.0 - smoothstep(half_stroke - 0.5, half_stroke + 0.5, from_mid);
    }
    if (coverage <= 0.0) discard;
    f_color = vec4(v_color.rgb, v_color.a * coverage);
}
