#version 450 core
// Full-screen pass: one triangle covering the viewport, no vertex buffer.
// uv (0,0) is the top-left pixel of the image (row 0 of the renderer's buffer is the top row).
out vec2 v_uv;
void main()
{
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    v_uv = vec2(p.x, 1.0 - p.y);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
