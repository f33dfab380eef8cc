#version 330
// The slime's deformed surface: positions and smooth normals are re-uploaded every frame.
// What varies slowly over the surface is computed here, per vertex, and interpolated (a software
// rasteriser pays per pixel, and the body covers a fifth of the screen): the thickness of jelly
// behind the point and where the ray bent at the surface lands on screen (the floor's shadows
// are in the picture read there already). SlimeLook (slime/render/look.py) documents the model.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform vec3 u_body_center;  // the body's ellipsoid: centre, and the map from world offsets
uniform mat3 u_body_inverse; // to the unit sphere (axes' directions and 1 / radii)
uniform float u_ior;
uniform float u_refraction_depth;

in vec3 in_position;
in vec3 in_normal;

out vec3 v_world;
out vec3 v_normal;
out float v_thickness;   // metres of jelly along the view ray behind this point
out vec4 v_landing;      // clip-space position of where the bent ray lands

void main() {
    v_world = in_position;
    v_normal = in_normal;
    gl_Position = u_proj * u_view * vec4(in_position, 1.0);

    vec3 n = normalize(in_normal);
    vec3 v = normalize(u_eye - in_position);
    // Thickness: the far root of |o + t d| = 1 in the ellipsoid's unit-sphere space, where t is
    // the world distance along the view ray from this point of the surface.
    vec3 o = u_body_inverse * (in_position - u_body_center);
    vec3 d = u_body_inverse * (-v);
    float a = dot(d, d), b = dot(o, d), c = dot(o, o) - 1.0;
    v_thickness = max((-b + sqrt(max(b * b - a * c, 0.0))) / a, 0.0);

    // Refraction: the ray bends at the surface and runs on through the body; the background is
    // read where that bent ray lands on screen instead of straight behind the point.
    vec3 bent = refract(-v, n, 1.0 / u_ior);
    vec3 landing = in_position + (-v + (bent + v) * u_refraction_depth) * v_thickness;
    v_landing = u_view_proj * vec4(landing, 1.0);
}
