#version 330
// Distance to the segment (a capsule), smoothed over one pixel; dashed springs keep every other
// stretch of u_dash pixels, with the dash pattern centred on the segment so both ends look alike.
uniform float u_width;
uniform float u_dash;

in vec2 v_local;
in float v_length;
in vec4 v_color;
flat in float v_dashed;

out vec4 f_color;

void main() {
    float s = clamp(v_local.x, 0.0, v_length);
    float d = length(vec2(v_local.x - s, v_local.y));
    float half_width = 0.5 * u_width;
    float coverage = 1.0 - smoothstep(half_width - 0.5, half_width + 0.5, d);
    if (v_dashed > 0.5) {
        float phase = mod(v_local.x - 0.5 * v_length + 0.5 * u_dash, 2.0 * u_dash);
        // Inside the first half of each period is dash, the second half gap; one-pixel soft edges.
        float in_dash = smoothstep(-0.5, 0.5, phase) * (1.0 - smoothstep(u_dash - 0.5, u_dash + 0.5, phase));
        coverage *= in_dash;
    }
    if (coverage <= 0.0) discard;
    f_color = vec4(v_color.rgb, v_color.a * coverage);
}
