#version 330
// One triangle that covers the screen; no vertex buffer, positions come from gl_VertexID.
out vec2 v_ndc;

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    v_ndc = corner * 2.0 - 1.0;
    gl_Position = vec4(v_ndc, 1.0, 1.0);
}
