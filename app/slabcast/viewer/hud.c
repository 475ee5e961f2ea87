/* hud.c - panels over the image (see hud.h): the batch of coloured triangles, stb_easy_font's text
 * in it, and the one GL draw of the batch. */
#include "hud.h"

#include <glad/gl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stdio.h>

#include <stb_easy_font.h>

#include "sc_gl.h"

#define HUD_BYTES_PER_CHAR 1024    /* stb_easy_font's quads per character stay well below this */
#define HUD_STB_QUAD_BYTES 64      /* stb_easy_font's quad: 4 vertices of x, y, z floats and RGBA8 */

static char g_error[512];

int app_hud_fail(const char *fmt, ...)
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
            return app_hud_fail("HUD: %s failed with GL error 0x%04x", #call, (unsigned)hud_gl_error_); \
        }                                                                                          \
    } while (0)

typedef struct hud_vertex {
    float x, y;
    unsigned char rgba[4];
} hud_vertex;

struct app_hud {
    GLuint program, vao, vbo;
    GLint loc_viewport;
    char *text;                    /* the text being added, made printable */
    size_t text_size;
    void *quads;                   /* stb_easy_font's output */
    size_t quads_size;
    hud_vertex *verts;             /* the batch's triangles */
    size_t verts_len, verts_cap;
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
        return app_hud_fail("HUD: %s", sc_last_error());
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
    if (!h) return app_hud_fail("HUD: out of host memory");
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
    free(h->text);
    free(h->quads);
    free(h->verts);
    free(h);
}

/* ---- rectangles ---------------------------------------------------------------------------------- */

app_rect app_rect_clip(app_rect r, int fb_width, int fb_height)
{
    if (r.x < 0) { r.w += r.x; r.x = 0; }
    if (r.y < 0) { r.h += r.y; r.y = 0; }
    if (r.x > fb_width) r.x = fb_width;
    if (r.y > fb_height) r.y = fb_height;
    if (r.x + r.w > fb_width) r.w = fb_width - r.x;
    if (r.y + r.h > fb_height) r.h = fb_height - r.y;
    if (r.w < 0) r.w = 0;
    if (r.h < 0) r.h = 0;
    return r;
}

app_rect app_rect_union(app_rect a, app_rect b)
{
    if (a.w <= 0 || a.h <= 0) return b;
    if (b.w <= 0 || b.h <= 0) return a;
    const int x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
    const int x1 = a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w;
    const int y1 = a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h;
    return (app_rect){x0, y0, x1 - x0, y1 - y0};
}

/* ---- text ---------------------------------------------------------------------------------------- */

/* stb_easy_font indexes its glyph table by (c - 32) for every byte but '\n': a byte outside the
 * printable ASCII range would read outside it. */
static void make_printable(char *s)
{
    for (; *s; ++s)
        if (*s != '\n' && (*s < 32 || *s > 126)) *s = '?';
}

void app_hud_text_size(const char *text, int scale, int *width, int *height)
{
    *width = *height = 0;
    char *buf = malloc(strlen(text) + 1);
    if (!buf) return; /* measured as empty; the draw that follows reports the lack of memory */
    strcpy(buf, text);
    make_printable(buf);
    *width = stb_easy_font_width(buf) * scale;
    *height = stb_easy_font_height(buf) * scale;
    free(buf);
}

app_rect app_hud_measure(const char *text, int x, int y, int scale, int fb_width, int fb_height)
{
    int w, h;
    app_hud_text_size(text, scale, &w, &h);
    app_rect r = {x, y, w + 2 * APP_HUD_PAD * scale, h + 2 * APP_HUD_PAD * scale};
    if (r.x < 0) r.x = 0;
    if (r.y < 0) r.y = 0;
    return app_rect_clip(r, fb_width, fb_height);
}

/* ---- the batch ----------------------------------------------------------------------------------- */

static int reserve_verts(app_hud *h, size_t more)
{
    if (h->verts_len + more <= h->verts_cap) return 0;
    size_t cap = h->verts_cap ? h->verts_cap : 1024;
    while (cap < h->verts_len + more) cap *= 2;
    hud_vertex *v = realloc(h->verts, cap * sizeof *v);
    if (!v) return app_hud_fail("HUD: out of host memory for its triangles");
    h->verts = v;
    h->verts_cap = cap;
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

void app_hud_begin(app_hud *h) { h->verts_len = 0; }

int app_hud_add_rect(app_hud *h, app_rect r, const unsigned char rgba[4])
{
    if (r.w <= 0 || r.h <= 0) return 0;
    if (reserve_verts(h, 6) != 0) return -1;
    put_quad(h->verts + h->verts_len, (float)r.x, (float)r.y, (float)(r.x + r.w), (float)(r.y + r.h), rgba);
    h->verts_len += 6;
    return 0;
}

/* The text copied into h->text, made printable, and room for stb_easy_font's quads of it. */
static int prepare_text(app_hud *h, const char *text)
{
    const size_t len = strlen(text);
    if (len + 1 > h->text_size) {
        char *t = realloc(h->text, len + 1);
        if (!t) return app_hud_fail("HUD: out of host memory for its text");
        h->text = t;
        h->text_size = len + 1;
    }
    memcpy(h->text, text, len + 1);
    make_printable(h->text);
    const size_t need = (len + 1) * HUD_BYTES_PER_CHAR;
    if (need > h->quads_size) {
        void *q = realloc(h->quads, need);
        if (!q) return app_hud_fail("HUD: out of host memory for its text");
        h->quads = q;
        h->quads_size = need;
    }
    return 0;
}

int app_hud_add_text(app_hud *h, const char *text, int x, int y, int scale, const unsigned char rgba[4])
{
    if (prepare_text(h, text) != 0) return -1;
    unsigned char colour[4];
    memcpy(colour, rgba, 4);
    const int quads = stb_easy_font_print(0.0f, 0.0f, h->text, colour, h->quads, (int)h->quads_size);
    if (reserve_verts(h, 6 * (size_t)quads) != 0) return -1;
    const unsigned char *q = h->quads;
    for (int i = 0; i < quads; ++i, q += HUD_STB_QUAD_BYTES) {
        float a[3], b[3];
        memcpy(a, q, sizeof a);                              /* top-left corner */
        memcpy(b, q + HUD_STB_QUAD_BYTES / 2, sizeof b);     /* bottom-right corner */
        put_quad(h->verts + h->verts_len, (float)x + a[0] * (float)scale, (float)y + a[1] * (float)scale,
                 (float)x + b[0] * (float)scale, (float)y + b[1] * (float)scale, q + 12);
        h->verts_len += 6;
    }
    return 0;
}

int app_hud_flush(app_hud *h, app_rect clip, int fb_width, int fb_height)
{
    clip = app_rect_clip(clip, fb_width, fb_height);
    if (h->verts_len == 0 || clip.w <= 0 || clip.h <= 0) return 0;
    HUD_GL(glViewport(0, 0, fb_width, fb_height));
    HUD_GL(glEnable(GL_SCISSOR_TEST));
    HUD_GL(glScissor(clip.x, fb_height - (clip.y + clip.h), clip.w, clip.h)); /* nothing outside changes */
    HUD_GL(glEnable(GL_BLEND));
    HUD_GL(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
    HUD_GL(glUseProgram(h->program));
    HUD_GL(glUniform2f(h->loc_viewport, (float)fb_width, (float)fb_height));
    HUD_GL(glBindVertexArray(h->vao));
    HUD_GL(glBindBuffer(GL_ARRAY_BUFFER, h->vbo));
    HUD_GL(glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(h->verts_len * sizeof(hud_vertex)), h->verts,
                        GL_STREAM_DRAW));
    HUD_GL(glDrawArrays(GL_TRIANGLES, 0, (GLsizei)h->verts_len));
    HUD_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
    HUD_GL(glBindVertexArray(0));
    HUD_GL(glUseProgram(0));
    HUD_GL(glDisable(GL_BLEND));
    HUD_GL(glDisable(GL_SCISSOR_TEST));
    return 0;
}

/* ---- the text panel ------------------------------------------------------------------------------ */

int app_hud_draw(app_hud *h, const char *text, int x, int y, int scale, int fb_width, int fb_height, app_rect *drawn)
{
    static const unsigned char shade[4] = {0, 0, 0, 170}, white[4] = {240, 240, 240, 255};
    app_rect r = app_hud_measure(text, x, y, scale, fb_width, fb_height);
    if (drawn) *drawn = r;
    app_hud_begin(h);
    if (app_hud_add_rect(h, r, shade) != 0 ||
        app_hud_add_text(h, text, r.x + APP_HUD_PAD * scale, r.y + APP_HUD_PAD * scale, scale, white) != 0)
        return -1;
    return app_hud_flush(h, r, fb_width, fb_height);
}
