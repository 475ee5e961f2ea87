/* gl_program.c - a GL program from a vertex and a fragment shader's source, with the compiler's and
 * linker's log in the error message. Used by the display pass and the viewer's HUD. */
#include <glad/gl.h>
#include <stddef.h>

#include "sc_gl.h"
#include "sc_report.h"

static sc_status compile_shader(GLenum type, const char *source, const char *name, GLuint *out)
{
    GLuint s = glCreateShader(type);
    if (!s) return SC_FAIL(SC_ERROR_GL, "glCreateShader for %s failed", name);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        glDeleteShader(s);
        return SC_FAIL(SC_ERROR_GL, "compiling shader %s failed: %s", name, log);
    }
    *out = s;
    return SC_OK;
}

sc_status sc_gl_program_create(const char *vert_source, const char *vert_name, const char *frag_source,
                               const char *frag_name, unsigned int *out_program)
{
    GLuint vs = 0, fs = 0;
    SC_TRY(compile_shader(GL_VERTEX_SHADER, vert_source, vert_name, &vs));
    sc_status st = compile_shader(GL_FRAGMENT_SHADER, frag_source, frag_name, &fs);
    if (st != SC_OK) {
        glDeleteShader(vs);
        return st;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        glDeleteProgram(p);
        return SC_FAIL(SC_ERROR_GL, "linking %s and %s failed: %s", vert_name, frag_name, log);
    }
    *out_program = p;
    return SC_OK;
}
