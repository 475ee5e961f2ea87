/* test_gl_context.c - a headless GL context renders a full-screen pass into a framebuffer and reads it
 * back, and GL errors reach the caller as SC_ERROR_GL naming the call (gl). */
#include <glad/gl.h>
#include <string.h>

#include "sc_gl.h"
#include "sctest.h"
#include "sctest_gl.h"

static sc_gl_context *g_ctx;

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        sct_fail(__FILE__, __LINE__, "shader compile failed: %s", log);
    }
    return s;
}

static void test_fullscreen_pass_reads_back(void)
{
    enum { W = 37, H = 19 };
    GLuint tex, fbo, vao;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    SCT_REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    const char *vs = "#version 450 core\n"
                     "void main(){ vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);"
                     " gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n";
    /* Colour encodes the pixel: every pixel must be covered exactly once by the one triangle. */
    const char *fs = "#version 450 core\nout vec4 c;\n"
                     "void main(){ c = vec4(floor(gl_FragCoord.xy) / 255.0, 0.5, 1.0); }\n";
    GLuint prog = glCreateProgram();
    GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
    glAttachShader(prog, v);
    glAttachShader(prog, f);
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    SCT_REQUIRE(linked);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glViewport(0, 0, W, H);
    glUseProgram(prog);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    static unsigned char px[W * H * 4];
    memset(px, 0, sizeof px);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    SCT_CHECK(sc_gl_check("render and read back", __FILE__, __LINE__) == SC_OK);
    int bad = 0;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const unsigned char *p = px + 4 * (y * W + x);
            bad += p[0] != x || p[1] != y || p[2] < 127 || p[2] > 128 || p[3] != 255;
        }
    SCT_CHECK_MSG(bad == 0, "%d of %d pixels wrong", bad, W * H);
    glDeleteProgram(prog);
    glDeleteShader(v);
    glDeleteShader(f);
    glDeleteVertexArrays(1, &vao);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
}

static sc_status bad_gl_call(void)
{
    SC_GL(glBindBuffer(0x1234, 1)); /* invalid target */
    return SC_OK;
}

static void test_gl_errors_name_the_call(void)
{
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    SCT_CHECK(bad_gl_call() == SC_ERROR_GL);
    SCT_CHECK_MSG(strstr(sc_last_error(), "glBindBuffer(0x1234, 1) failed: GL_INVALID_ENUM") != NULL, "%s",
                  sc_last_error());
    SCT_CHECK(glGetError() == GL_NO_ERROR);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "gl_context");
    g_ctx = sct_require_gl(0);
    SCT_RUN(test_fullscreen_pass_reads_back);
    SCT_RUN(test_gl_errors_name_the_call);
    sc_gl_context_destroy(g_ctx);
    return sct_end();
}
