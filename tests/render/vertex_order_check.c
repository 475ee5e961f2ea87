/* vertex_order_check.c - vo_check_scene (vertex_order_cases.h): a renderer keeping the caller's
 * vertex order and one with the default first-use order, frame by frame over the same inputs, every
 * output compared bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sctest.h"
#include "vertex_order_cases.h"

enum { VO_W = 61, VO_H = 47 }; /* awkward: partial tiles on both edges */

/* The two renderers and their outputs (host copies). */
typedef struct vo_pair {
    sc_renderer *r[2];             /* [0] SC_VERTEX_ORDER_KEEP, [1] the default */
    void *image[2];                /* backend memory */
    uint8_t *rgba[2];
    sc_hit *hits[2];
    uint8_t *mask[2];
    float *pos[2];
} vo_pair;

static sc_renderer *make_renderer(sc_backend backend, sc_vertex_order order, const sc_mesh *m)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = VO_W;
    d.height = VO_H;
    d.num_threads = 2;
    d.vertex_order = order;
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = 0.6f;
    def.wave.amount = 0.05f;
    def.pulse.amount = 0.03f; /* along the rest normals: they take part */
    def.noise.amount = 0.02f;
    sc_renderer *r = NULL;
    const sc_mesh_data md = sc_mesh_view(m);
    if (sc_renderer_create(&d, &r) != SC_OK || sc_renderer_set_mesh(r, &md) != SC_OK ||
        sc_renderer_set_deform(r, &def) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "renderer (vertex order %d): %s", (int)order, sc_last_error());
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* Counts the differing elements of two arrays of n elements of `size` bytes; the first one's index
 * in *first. */
static size_t count_diff(const void *a, const void *b, size_t n, size_t size, size_t *first)
{
    size_t diff = 0;
    for (size_t i = n; i-- > 0;)
        if (memcmp((const char *)a + i * size, (const char *)b + i * size, size) != 0) {
            ++diff;
            *first = i;
        }
    return diff;
}

#define VO_SAME(a, b, n, size, what)                                                                            \
    do {                                                                                                        \
        size_t first_ = 0, d_ = count_diff((a), (b), (n), (size), &first_);                                     \
        SCT_CHECK_MSG(d_ == 0, "%s, %s: %s differ at %zu of %zu (the first: %zu)", name, frame, what, d_,       \
                      (size_t)(n), first_);                                                                     \
    } while (0)

/* Renders one frame with both renderers and compares hits, images and shadow masks; returns the
 * hit pixels (of the first), or -1. */
static long render_both(vo_pair *p, const sc_frame_desc *f0, const vo_memory *mem, const char *name, const char *frame)
{
    const size_t pixels = (size_t)VO_W * VO_H;
    for (int i = 0; i < 2; ++i) {
        sc_frame_desc f = *f0;
        f.rgba = p->image[i];
        sc_status s = sc_renderer_render(p->r[i], &f);
        if (s == SC_OK) s = sc_renderer_read_hits(p->r[i], p->hits[i]);
        if (s == SC_OK) s = sc_renderer_read_shadows(p->r[i], p->mask[i]);
        if (s != SC_OK || mem->to_host(p->rgba[i], p->image[i], 4 * pixels) != 0) {
            sct_fail(__FILE__, __LINE__, "%s, %s: %s", name, frame, sc_last_error());
            return -1;
        }
    }
    VO_SAME(p->hits[0], p->hits[1], pixels, sizeof(sc_hit), "hits (triangle, depth, u, v)");
    VO_SAME(p->rgba[0], p->rgba[1], pixels, 4, "pixels");
    VO_SAME(p->mask[0], p->mask[1], pixels, 1, "shadow masks");
    long hit = 0;
    for (size_t i = 0; i < pixels; ++i) hit += p->hits[0][i].tri != SC_NO_HIT;
    return hit;
}

/* Both renderers' positions read back and copied out (backend memory) agree, and equal `want`
 * when given; n floats. */
static void check_positions(vo_pair *p, const vo_memory *mem, size_t n, const float *want, const char *name,
                            const char *frame)
{
    float *copied = malloc(n * sizeof(float) + 1);
    void *dev = mem->alloc(n * sizeof(float) + 4);
    SCT_REQUIRE(copied && dev);
    for (int i = 0; i < 2; ++i) {
        SCT_CHECK_OK(sc_renderer_read_positions(p->r[i], p->pos[i]));
        SCT_CHECK_OK(sc_renderer_copy_positions(p->r[i], (float *)dev));
        SCT_CHECK(mem->to_host(copied, dev, n * sizeof(float)) == 0);
        VO_SAME(copied, p->pos[i], n / 3, 3 * sizeof(float), i ? "first-use: copied and read positions"
                                                                  : "keep: copied and read positions");
        if (want)
            VO_SAME(p->pos[i], want, n / 3, 3 * sizeof(float), i ? "first-use: positions and the caller's"
                                                                    : "keep: positions and the caller's");
    }
    VO_SAME(p->pos[0], p->pos[1], n / 3, 3 * sizeof(float), "positions read back");
    mem->release(dev);
    free(copied);
}

void vo_check_scene(sc_backend backend, const vo_memory *mem, const sc_mesh *m, const char *name)
{
    const size_t pixels = (size_t)VO_W * VO_H, n = 3 * (size_t)m->vertex_count;
    vo_pair p;
    memset(&p, 0, sizeof p);
    p.r[0] = make_renderer(backend, SC_VERTEX_ORDER_KEEP, m);
    p.r[1] = make_renderer(backend, SC_VERTEX_ORDER_FIRST_USE, m);
    float *given = malloc(n * sizeof(float) + 1);
    void *given_dev = mem->alloc(n * sizeof(float) + 4);
    int ok = p.r[0] && p.r[1] && given && given_dev;
    for (int i = 0; i < 2 && ok; ++i) {
        p.image[i] = mem->alloc(4 * pixels);
        p.rgba[i] = malloc(4 * pixels);
        p.hits[i] = malloc(pixels * sizeof(sc_hit));
        p.mask[i] = malloc(pixels);
        p.pos[i] = malloc(n * sizeof(float) + 1);
        ok = p.image[i] && p.rgba[i] && p.hits[i] && p.mask[i] && p.pos[i];
    }
    SCT_CHECK_MSG(ok, "%s: set up failed", name);
    const int has_triangles = m->triangle_count > 0;
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    sc_shading_desc normals_view;
    memset(&normals_view, 0, sizeof normals_view);
    normals_view.mode = SC_VIEW_NORMALS; /* smooth normals shown: the per-vertex sums take part */
    for (int i = 0; i < 2 && ok; ++i) SCT_CHECK_OK(sc_renderer_set_shading(p.r[i], &normals_view));
    /* 1: deformed, the normals view; positions read and copied back. */
    f.time = 0.37f;
    long hit = ok ? render_both(&p, &f, mem, name, "deformed frame") : -1;
    SCT_CHECK_MSG(hit > (has_triangles ? 0 : -1), "%s: deformed frame: %ld hit pixels", name, hit);
    if (hit >= 0) check_positions(&p, mem, n, NULL, name, "deformed frame");
    /* 2: shaded by a directional light casting shadows. */
    sc_light_desc light;
    memset(&light, 0, sizeof light);
    light.type = SC_LIGHT_DIRECTIONAL;
    light.direction[0] = -0.6f; light.direction[1] = -0.3f; light.direction[2] = -0.5f;
    const sc_render_options shadows = {0, 0, 1, 0};
    for (int i = 0; i < 2 && ok; ++i) {
        SCT_CHECK_OK(sc_renderer_set_shading(p.r[i], NULL));
        SCT_CHECK_OK(sc_renderer_set_lights(p.r[i], &light, 1));
        SCT_CHECK_OK(sc_renderer_set_options(p.r[i], &shadows));
    }
    f.time = 1.13f;
    if (ok) hit = render_both(&p, &f, mem, name, "frame with shadows");
    /* 3: the caller's positions, in the caller's order (every unused vertex's bits as given). */
    for (size_t i = 0; ok && i < n; ++i)
        given[i] = isfinite(m->positions[i]) ? m->positions[i] * 0.97f + 0.01f * sinf((float)i) : m->positions[i];
    if (ok) ok = mem->from_host(given_dev, given, n * sizeof(float)) == 0;
    f.positions = (const float *)given_dev;
    f.time = 2.0f;
    if (ok) hit = render_both(&p, &f, mem, name, "frame from caller positions");
    SCT_CHECK_MSG(hit > (has_triangles ? 0 : -1), "%s: frame from caller positions: %ld hit pixels", name, hit);
    if (hit >= 0) check_positions(&p, mem, n, given, name, "frame from caller positions");
    for (int i = 0; i < 2; ++i) {
        sc_renderer_destroy(p.r[i]);
        if (p.image[i]) mem->release(p.image[i]);
        free(p.rgba[i]);
        free(p.hits[i]);
        free(p.mask[i]);
        free(p.pos[i]);
    }
    if (given_dev) mem->release(given_dev);
    free(given);
}
