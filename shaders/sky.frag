#version 330
// Background: the view direction's height picks the colour, so the haze at the horizon meets the
// floor's fog exactly and the sky turns bluer overhead.
uniform mat4 u_inv_view_proj;
uniform vec3 u_eye;
uniform vec3 u_top;
uniform vec3 u_horizon;

in vec2 v_ndc;
out vec4 f_color;

void main() {
    vec4 far_point = u_inv_view_proj * vec4(v_ndc, 1.0, 1.0);
    vec3 dir = normalize(far_point.xyz / far_point.w - u_eye);
    float t = smoothstep(0.0, 0.55, dir.y);
    f_color = vec4(mix(u_horizon, u_top, sqrt(t)), 1.0);
}
