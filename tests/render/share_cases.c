/* share_cases.c - sort-last over shares of a mesh against one renderer (share_cases.h). */
#include "share_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sctest.h"
#include "sctest_models.h"

static sc_renderer *make_renderer(sc_backend backend, const share_case *c)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = c->width;
    d.height = c->height;
    d.cull_back_faces = c->cull_back_faces;
    d.num_threads = 2;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: sc_renderer_create: %s", c->what, sc_last_error());
        return NULL;
    }
    if (c->deform) {
        sc_deform_desc def;
        memset(&def, 0, sizeof def);
        def.twist.amount = 0.6f;
        def.wave.amount = 0.05f;
        if (sc_renderer_set_deform(r, &def) != SC_OK) {
            sct_fail(__FILE__, __LINE__, "%s: sc_renderer_set_deform: %s", c->what, sc_last_error());
            sc_renderer_destroy(r);
            return NULL;
        }
    }
    return r;
}

/* Share k of an interleaved cut: the mesh's vertices, the triangles t % parts == k, their ids. */
typedef struct interleaved {
    uint32_t *indices, *ids, count;
} interleaved;

static int interleaved_make(const sc_mesh *m, uint32_t parts, uint32_t k, interleaved *out)
{
    out->count = 0;
    out->indices = malloc((3 * (size_t)m->triangle_count + 1) * sizeof *out->indices);
    out->ids = malloc(((size_t)m->triangle_count + 1) * sizeof *out->ids);
    if (!out->indices || !out->ids) return -1;
    for (uint32_t t = k; t < m->triangle_count; t += parts) {
        memcpy(out->indices + 3 * (size_t)out->count, m->indices + 3 * (size_t)t, 3 * sizeof(uint32_t));
        out->ids[out->count++] = t;
    }
    return 0;
}

static void interleaved_free(interleaved *s)
{
    free(s->indices);
    free(s->ids);
}

/* Compares the composite with the whole renderer's hits; returns the hit pixels. */
static uint64_t compare(const sc_hit *want, const sc_hit *got, uint64_t n, const char *what, int frame)
{
    uint64_t wrong = 0, first = 0, hit = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (want[i].tri != SC_NO_HIT) ++hit;
        if (memcmp(&want[i], &got[i], sizeof want[i]) != 0 && wrong++ == 0) first = i;
    }
    SCT_CHECK_MSG(wrong == 0,
                  "%s, frame %d: %llu of %llu pixels differ; first %llu: whole tri %u depth %a u %a v %a, "
                  "composite tri %u depth %a u %a v %a",
                  what, frame, (unsigned long long)wrong, (unsigned long long)n, (unsigned long long)first,
                  want[first].tri, (double)want[first].depth, (double)want[first].u, (double)want[first].v,
                  got[first].tri, (double)got[first].depth, (double)got[first].u, (double)got[first].v);
    return hit;
}

void share_check(sc_backend backend, const sc_mesh *m, const share_case *c)
{
    const uint64_t n = (uint64_t)c->width * c->height;
    sc_hit *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got), *part = malloc(n * sizeof *part);
    sc_renderer **rs = calloc(c->parts, sizeof *rs);
    sc_mesh_share *shares = calloc(c->parts, sizeof *shares);
    interleaved *inter = calloc(c->parts, sizeof *inter);
    sc_renderer *whole = make_renderer(backend, c);
    SCT_REQUIRE(want && got && part && rs && shares && inter);
    const sc_mesh_data md = sc_mesh_view(m);
    if (whole) SCT_CHECK_OK(sc_renderer_set_mesh(whole, &md));
    sc_share_desc frame;
    memset(&frame, 0, sizeof frame);
    frame.has_frame = 1;
    SCT_CHECK_OK(sc_mesh_frame(&md, frame.frame_center, &frame.frame_radius));
    for (uint32_t k = 0; k < c->parts; ++k) {
        rs[k] = make_renderer(backend, c);
        if (!rs[k]) continue;
        if (c->cut == SHARE_EVEN) {
            if (sc_mesh_share_make(&md, c->parts, k, &shares[k]) != SC_OK) {
                sct_fail(__FILE__, __LINE__, "%s: sc_mesh_share_make %u of %u: %s", c->what, k, c->parts, sc_last_error());
                continue;
            }
            SCT_CHECK_OK(sc_renderer_set_mesh_share(rs[k], &shares[k].mesh, &shares[k].share));
        } else {
            SCT_REQUIRE(interleaved_make(m, c->parts, k, &inter[k]) == 0);
            sc_mesh_data sm = md;
            sm.indices = inter[k].indices;
            sm.triangle_count = inter[k].count;
            sc_share_desc sd = frame;
            sd.triangle_ids = inter[k].ids;
            SCT_CHECK_OK(sc_renderer_set_mesh_share(rs[k], &sm, &sd));
        }
    }
    uint64_t hits = 0;
    for (int frame_i = 0; frame_i < 2 && whole; ++frame_i) {
        sc_frame_desc f;
        memset(&f, 0, sizeof f);
        f.time = frame_i ? 0.9f : 0.0f;
        SCT_CHECK_OK(sc_renderer_render(whole, &f));
        SCT_CHECK_OK(sc_renderer_read_hits(whole, want));
        for (uint64_t i = 0; i < n; ++i) {
            got[i].tri = SC_NO_HIT;
            got[i].depth = INFINITY;
            got[i].u = got[i].v = 0.0f;
        }
        /* Shares in reverse order: the composite does not depend on it. */
        for (uint32_t k = c->parts; k-- > 0;) {
            if (!rs[k]) continue;
            SCT_CHECK_OK(sc_renderer_render(rs[k], &f));
            SCT_CHECK_OK(sc_renderer_read_hits(rs[k], part));
            SCT_CHECK_OK(sc_hits_composite(got, part, n));
        }
        hits += compare(want, got, n, c->what, frame_i);
    }
    SCT_CHECK_MSG(hits > 0, "%s: no pixel hit: the case tests nothing", c->what);
    for (uint32_t k = 0; k < c->parts; ++k) {
        sc_renderer_destroy(rs[k]);
        sc_mesh_share_free(&shares[k]);
        interleaved_free(&inter[k]);
    }
    sc_renderer_destroy(whole);
    free(rs);
    free(shares);
    free(inter);
    free(want);
    free(got);
    free(part);
}

void share_cases_knot(sc_backend backend)
{
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(37, &m) == SC_OK); /* 5476 triangles */
    const share_case cases[] = {
        {"knot, 1 share", 203, 151, 1, SHARE_EVEN, 0, 1},
        {"knot, 2 even shares", 203, 151, 2, SHARE_EVEN, 0, 1},
        {"knot, 7 even shares", 203, 151, 7, SHARE_EVEN, 0, 1},
        {"knot, 3 even shares, culling", 160, 97, 3, SHARE_EVEN, 1, 1},
        {"knot, 3 interleaved shares", 203, 151, 3, SHARE_INTERLEAVED, 0, 1},
        {"knot, 5 interleaved shares, culling, rest pose", 97, 160, 5, SHARE_INTERLEAVED, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) share_check(backend, &m, &cases[i]);
    sc_mesh_free(&m);

    /* Two triangles of one quad facing the camera in five shares: three shares are empty. */
    static const float quad_pos[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    static const uint32_t quad_idx[] = {0, 1, 2, 0, 2, 3};
    sc_mesh q;
    memset(&q, 0, sizeof q);
    q.positions = malloc(sizeof quad_pos);
    q.indices = malloc(sizeof quad_idx);
    SCT_REQUIRE(q.positions && q.indices);
    memcpy(q.positions, quad_pos, sizeof quad_pos);
    memcpy(q.indices, quad_idx, sizeof quad_idx);
    q.vertex_count = 4;
    q.triangle_count = 2;
    const share_case qc = {"quad, 5 shares (3 empty)", 61, 47, 5, SHARE_EVEN, 0, 1};
    share_check(backend, &q, &qc);
    sc_mesh_free(&q);
}

void share_cases_model(sc_backend backend, const char *file, uint32_t width, uint32_t height, uint32_t parts)
{
    char path[512];
    if (!sct_model_path(file, path, sizeof path)) {
        char why[200];
        snprintf(why, sizeof why, "%s not found (SLABCAST_MODELS, ../shared/models, out/models)", file);
        sct_skip(why);
        return;
    }
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &m, NULL));
    char what[160];
    snprintf(what, sizeof what, "%s, %u even shares", file, parts);
    const share_case even = {what, width, height, parts, SHARE_EVEN, 0, 1};
    share_check(backend, &m, &even);
    char what2[160];
    snprintf(what2, sizeof what2, "%s, %u interleaved shares, culling", file, parts + 1);
    const share_case inter = {what2, width, height, parts + 1, SHARE_INTERLEAVED, 1, 1};
    share_check(backend, &m, &inter);
    sc_mesh_free(&m);
}
