#version 330
// The contact shadow's patch of floor: a rectangle around the slime's footprint, wide enough that
// the shadow has faded out at its edges (narrower without the halo: a cheaper shadow).
uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_floor_height;
uniform vec4 u_shadow;  // xy: centre (x, z); zw: footprint half-extents
uniform float u_shadow_halo;  // 1: the soft halo reaches 3.5 half-extents; 0: the core is gone by 2

in vec2 in_xz;  // unit square corners
out vec3 v_world;

void main() {
    vec2 xz = u_shadow.xy + in_xz * u_shadow.zw * (u_shadow_halo > 0.0 ? 3.5 : 2.0);
    v_world = vec3(xz.x, u_floor_height, xz.y);
    gl_Position = u_proj * u_view * vec4(v_world, 1.0);
}
