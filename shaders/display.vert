#version 450 core
// Full-screen pass: one triangle covering the viewport, no vertex buffer.
// uv (0,0) is the bottom-left corner of the image: row 0 of the renderer's buffer is the bottom row,
// as in OpenGL, so the image is drawn without a flip.
out vec2 v_uv;
void main()
{
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    v_uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
