/* hud.c - text panels over the image (see hud.h). */
#include "hud.h"

#include <glad/gl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stdio.h>

#include <stb_easy_font.h>

#include "sc_gl.h"

#define HUD_PAD 4                  /* pixels of background around the text, at scale 1 */
#define HUD_BYTES_PER_CHAR 1024    /* stb_easy_font's quads per character stay well below this */

static char g_error[512];

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_error, sizeof g_error, fmt, ap);
    va_end(ap);
    return -1;
}

const char *app_hud_error(void) { return g_error; }

/* The call, then glGetError(): on an error, returns -1 from the enclosing function naming the call. */
#define HUD_GL(call)                                                                               \
    do {                                                                                           \
        call;                                                                                      \
        GLenum hud_gl_error_ = glGetError();                                                       \
        if (hud_gl_error_ != GL_NO_ERROR) {                                                        \
            while (glGetError() != GL_NO_ERROR) {}                                                 \
            return fail("HUD: %s failed with GL error 0x%04x", #call, (unsigned)hud_gl_error_);   \
        }                                                                                          \
    } while (0)

typedef struct hud_vertex {
    float x, y;
    unsigned char rgba[4];
} hud_vertex;

struct app_hud {
    GLuint program, vao, vbo;
    GLint loc_viewport;
    void *quads;                   /* stb_easy_font's output */
    size_t quads_size;
    hud_vertex *verts;             /* triangles uploaded */
    size_t verts_cap;
};

static const char k_vert[] =
    "#version 330 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec4 a_color;\n"
    "uniform vec2 u_viewport;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    gl_Position = vec4(a_pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - a_pos.y / u_viewport.y * 2.0, 0.0, 1.0);\n"
    "    v_color = a_color;\n"
    "}\n";
static const char k_frag[] =
    "#version 330 core\n"
    "in vec4 v_color;\n"
    "out vec4 o_color;\n"
    "void main() { o_color = v_color; }\n";

static int build(app_hud *h)
{
    if (sc_gl_program_create(k_vert, "the HUD's vertex shader", k_frag, "the HUD's fragment shader", &h->program) !=
        SC_OK)
        return fail("HUD: %s", sc_last_error());
    h->loc_viewport = glGetUniformLocation(h->program, "u_viewport");
    HUD_GL(glGenVertexArrays(1, &h->vao));
    HUD_GL(glGenBuffers(1, &h->vbo));
    HUD_GL(glBindVertexArray(h->vao));
    HUD_GL(glBindBuffer(GL_ARRAY_BUFFER, h->vbo));
    HUD_GL(glEnableVertexAttribArray(0));
    HUD_GL(glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(hud_vertex), (const void *)0));
    HUD_GL(glEnableVertexAttribArray(1));
    HUD_GL(glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(hud_vertex),
                                (const void *)offsetof(hud_vertex, rgba)));
    HUD_GL(glBindVertexArray(0));
    HUD_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return 0;
}

int app_hud_create(app_hud **out)
{
    *out = NULL;
    app_hud *h = calloc(1, sizeof *h);
    if (!h) return fail("HUD: out of host memory");
    if (build(h) != 0) {
        app_hud_destroy(h);
        return -1;
    }
    *out = h;
    return 0;
}

void app_hud_destroy(app_hud *h)
{
    if (!h) return;
    if (h->vbo) glDeleteBuffers(1, &h->vbo);
    if (h->vao) glDeleteVertexArrays(1, &h->vao);
    if (h->program) glDeleteProgram(h->program);
    free(h->quads);
    free(h->verts);
    free(h);
}

app_rect app_hud_measure(const char *text, int x, int y, int scale, int fb_width, int fb_height)
{
    app_rect r;
    r.x = x;
    r.y = y;
    r.w = (stb_easy_font_width((char *)text) + 2 * HUD_PAD) * scale;
    r.h = (stb_easy_font_height((char *)text) + 2 * HUD_PAD) * scale;
    if (r.x < 0) r.x = 0;
    if (r.y < 0) r.y = 0;
    if (r.x > fb_width) r.x = fb_width;
    if (r.y > fb_height) r.y = fb_height;
    if (r.x + r.w > fb_width) r.w = fb_width - r.x;
    if (r.y + r.h > fb_height) r.h = fb_height - r.y;
    return r;
}

static int reserve(app_hud *h, size_t text_len, size_t quads)
{
    size_t need = (text_len + 1) * HUD_BYTES_PER_CHAR;
    if (need > h->quads_size) {
        void *q = realloc(h->quads, need);
        if (!q) return -1;
        h->quads = q;
        h->quads_size = need;
    }
    if (quads * 6 > h->verts_cap) {
        hud_vertex *v = realloc(h->verts, quads * 6 * sizeof *v);
        if (!v) return -1;
        h->verts = v;
        h->verts_cap = quads * 6;
    }
    return 0;
}

static void put_quad(hud_vertex *v, float x0, float y0, float x1, float y1, const unsigned char c[4])
{
    const float xs[6] = {x0, x1, x1, x0, x1, x0}, ys[6] = {y0, y0, y1, y0, y1, y1};
    for (int i = 0; i < 6; ++i) {
        v[i].x = xs[i];
        v[i].y = ys[i];
        memcpy(v[i].rgba, c, 4);
    }
}

/* Background and text quads of the panel, as triangles; returns the vertex count, or -1. */
static long build_vertices(app_hud *h, const char *text, app_rect r, int scale)
{
    size_t len = strlen(text);
    if (reserve(h, len, 1) != 0) return -1;
    unsigned char white[4] = {240, 240, 240, 255};
    int quads = stb_easy_font_print(0.0f, 0.0f, (char *)text, white, h->quads, (int)h->quads_size);
    if (reserve(h, len, (size_t)quads + 1) != 0) return -1;
    const unsigned char shade[4] = {0, 0, 0, 170};
    put_quad(h->verts, (float)r.x, (float)r.y, (float)(r.x + r.w), (float)(r.y + r.h), shade);
    /* stb_easy_font's vertex: x, y, z floats and an RGBA8 colour; 4 per quad. */
    const unsigned char *q = h->quads;
    float ox = (float)(r.x + HUD_PAD * scale), oy = (float)(r.y + HUD_PAD * scale);
    for (int i = 0; i < quads; ++i, q += 64) {
        float a[3], b[3];
        memcpy(a, q, sizeof a);            /* top-left corner */
        memcpy(b, q + 32, sizeof b);       /* bottom-right corner */
        put_quad(h->verts + 6 * (size_t)(i + 1), ox + a[0] * scale, oy + a[1] * scale, ox + b[0] * scale,
                 oy + b[1] * scale, q + 12);
    }
    return 6L * (quads + 1);
}

int app_hud_draw(app_hud *h, const char *text, int x, int y, int scale, int fb_width, int fb_height,
                       app_rect *drawn)
{
    app_rect r = app_hud_measure(text, x, y, scale, fb_width, fb_height);
    if (drawn) *drawn = r;
    long n = build_vertices(h, text, r, scale);
    if (n < 0) return fail("HUD: out of host memory for its text");
    HUD_GL(glViewport(0, 0, fb_width, fb_height));
    HUD_GL(glEnable(GL_SCISSOR_TEST));
    HUD_GL(glScissor(r.x, fb_height - (r.y + r.h), r.w, r.h)); /* nothing outside the panel changes */
    HUD_GL(glEnable(GL_BLEND));
    HUD_GL(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
    HUD_GL(glUseProgram(h->program));
    HUD_GL(glUniform2f(h->loc_viewport, (float)fb_width, (float)fb_height));
    HUD_GL(glBindVertexArray(h->vao));
    HUD_GL(glBindBuffer(GL_ARRAY_BUFFER, h->vbo));
    HUD_GL(glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * sizeof(hud_vertex)), h->verts, GL_STREAM_DRAW));
    HUD_GL(glDrawArrays(GL_TRIANGLES, 0, (GLsizei)n));
    HUD_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
    HUD_GL(glBindVertexArray(0));
    HUD_GL(glUseProgram(0));
    HUD_GL(glDisable(GL_BLEND));
    HUD_GL(glDisable(GL_SCISSOR_TEST));
    return 0;
}
