#version 330
// Copies a picture into a viewport (full-screen triangle from backdrop.vert), scaled with linear
// filtering: the backdrop into a multisampled target, or a reduced-scale frame onto the window.
uniform sampler2D u_image;
uniform vec4 u_viewport;  // x, y, width, height of the destination, in pixels

out vec4 f_color;

void main() {
    f_color = vec4(texture(u_image, (gl_FragCoord.xy - u_viewport.xy) / u_viewport.zw).rgb, 1.0);
}
