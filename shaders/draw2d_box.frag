#version 330
// Signed distance to the box edge in pixels: filled boxes cover the inside, outlined boxes a stroke
// just inside the edge; both with a one-pixel smooth edge.
uniform float u_stroke;

in vec2 v_local;
flat in vec2 v_half;
in vec4 v_color;
flat in float v_filled;

out vec4 f_color;

void main() {
    vec2 q = abs(v_local) - v_half;
    float sdf = length(max(q, 0.0)) + min(max(q.x, q.y), 0.0);
    float coverage;
    if (v_filled > 0.5) {
        coverage = 1.0 - smoothstep(-0.5, 0.5, sdf);
    } else {
        float half_stroke = 0.5 * min(u_stroke, min(v_half.x, v_half.y) + 0.5);
        coverage = 1.0 - smoothstep(half_stroke - 0.5, half_stroke + 0.5, abs(sdf + half_stroke));
    }
    if (coverage <= 0.0) discard;
    f_color = vec4(v_color.rgb, v_color.a * coverage);
}
