#version 330
// What the caster lets through of the key light (rgb) and its slime number / 255 (a; 0: an obstacle).
uniform vec4 u_pass;

out vec4 f_color;

void main() {
    f_color = u_pass;
}
