#version 450 core
// Shows the renderer's RGBA8 image. The image is drawn 1:1 when the viewport matches its size
// (texelFetch at the pixel), and scaled with the sampler otherwise.
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_image;
uniform ivec2 u_image_size;
uniform ivec2 u_viewport_size;
void main()
{
    if (u_image_size == u_viewport_size) {
        o_color = texelFetch(u_image, ivec2(gl_FragCoord.xy), 0);
    } else {
        o_color = texture(u_image, v_uv);
    }
}
