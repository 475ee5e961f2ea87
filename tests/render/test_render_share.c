/* test_render_share.c - sort-last over shares of a mesh on the CPU backend: shares rendered by
 * renderers of their own and composited equal one renderer of the whole mesh, bit for bit
 * (share_cases.c: even and interleaved cuts, culling on and off, deforming frames, empty shares,
 * the shared models when present); the composite's order (render/core/composite.h) against the
 * tie rule of one renderer on seeded hits, as a 64-bit key too; the share API's checks.
 * test_render_share_gpu is the CUDA backend's side. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "composite.h"
#include "share_cases.h"
#include "sctest.h"

static void test_knot_shares(void) { share_cases_knot(SC_BACKEND_CPU); }
static void test_bunny_shares(void) { share_cases_model(SC_BACKEND_CPU, "stanford-bunny.obj.xz", 333, 257, 4); }
static void test_dragon_shares(void) { share_cases_model(SC_BACKEND_CPU, "stanford-dragon.obj.xz", 320, 240, 3); }

/* Seeded hits with many equal depths: the composite keeps the better of each pair whatever their
 * order, by the tie rule of one renderer, and the keys order the same way. */
static void test_composite_order(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed());
    const float depths[] = {0.001f, 0.5f, 0.5f, 1.0f, 1.0000001f, 3.0e38f, 7.25f};
    enum { N = 4096 };
    sc_hit *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *ab = malloc(N * sizeof *ab),
           *ba = malloc(N * sizeof *ba);
    SCT_REQUIRE(a && b && ab && ba);
    for (int i = 0; i < N; ++i) {
        sc_hit *h[2] = {&a[i], &b[i]};
        for (int j = 0; j < 2; ++j) {
            const uint32_t pick = sct_rng_below(&rng, 9);
            h[j]->tri = pick >= 7 ? SC_NO_HIT : sct_rng_below(&rng, 5) * 1000003u;
            h[j]->depth = h[j]->tri == SC_NO_HIT ? INFINITY : depths[pick];
            h[j]->u = (float)sct_rng_unit(&rng);
            h[j]->v = (float)sct_rng_unit(&rng);
        }
    }
    memcpy(ab, a, N * sizeof *a);
    memcpy(ba, b, N * sizeof *b);
    SCT_CHECK_OK(sc_hits_composite(ab, b, N));
    SCT_CHECK_OK(sc_hits_composite(ba, a, N));
    uint64_t wrong = 0;
    for (int i = 0; i < N; ++i) {
        /* The expected winner, written from the rule: a hit beats no hit; nearer wins; equal depth,
         * lower id. Equal hits: either. */
        const sc_hit *w;
        if (a[i].tri == SC_NO_HIT) w = &b[i];
        else if (b[i].tri == SC_NO_HIT) w = &a[i];
        else if (a[i].depth != b[i].depth) w = a[i].depth < b[i].depth ? &a[i] : &b[i];
        else w = a[i].tri <= b[i].tri ? &a[i] : &b[i];
        const int same = a[i].tri == b[i].tri && a[i].depth == b[i].depth;
        if (!same && (memcmp(&ab[i], w, sizeof *w) || memcmp(&ba[i], w, sizeof *w))) ++wrong;
        if (same && (ab[i].tri != w->tri || ba[i].tri != w->tri)) ++wrong;
        const uint64_t ka = sc_hit_key(a[i].tri, a[i].depth), kb = sc_hit_key(b[i].tri, b[i].depth);
        const uint64_t kw = sc_hit_key(w->tri, w->depth);
        if ((ka < kb ? ka : kb) != kw) ++wrong;
    }
    SCT_CHECK_EQ_U64(wrong, 0);
    SCT_CHECK(sc_hit_key(SC_NO_HIT, 0.5f) == SC_HIT_KEY_NONE);
    SCT_CHECK(sc_hit_key(0xFFFFFFFEu, 3.0e38f) < SC_HIT_KEY_NONE);
    SCT_CHECK_OK(sc_hits_composite(NULL, NULL, 0));
    SCT_CHECK(sc_hits_composite(NULL, b, 1) == SC_ERROR_INVALID_ARGUMENT);
    free(a);
    free(b);
    free(ab);
    free(ba);
}

/* The share API's checks: each bad field named, the renderer left usable. */
static void test_share_checks(void)
{
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(6, &m) == SC_OK);
    const sc_mesh_data md = sc_mesh_view(&m);
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = 32;
    d.height = 24;
    d.num_threads = 1;
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    uint32_t *ids = malloc(md.triangle_count * sizeof *ids);
    SCT_REQUIRE(ids);
    for (uint32_t t = 0; t < md.triangle_count; ++t) ids[t] = 10 + 2 * t;
    sc_share_desc s;
    memset(&s, 0, sizeof s);
    s.triangle_ids = ids;
    SCT_CHECK_OK(sc_renderer_set_mesh_share(r, &md, &s));
    ids[7] = ids[6];
    SCT_CHECK(sc_renderer_set_mesh_share(r, &md, &s) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "triangle_ids") && strstr(sc_last_error(), "[7]"));
    ids[7] = ids[6] + 1;
    ids[md.triangle_count - 1] = SC_NO_HIT;
    SCT_CHECK(sc_renderer_set_mesh_share(r, &md, &s) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "SC_NO_HIT") != NULL);
    s.triangle_ids = NULL;
    s.first_triangle = SC_NO_HIT - md.triangle_count + 1; /* the last id would be SC_NO_HIT */
    SCT_CHECK(sc_renderer_set_mesh_share(r, &md, &s) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "first_triangle") != NULL);
    s.first_triangle = SC_NO_HIT - md.triangle_count; /* the last id is SC_NO_HIT - 1: fine */
    SCT_CHECK_OK(sc_renderer_set_mesh_share(r, &md, &s));
    s.has_frame = 1;
    s.frame_radius = 0.0f;
    SCT_CHECK(sc_renderer_set_mesh_share(r, &md, &s) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "frame_radius") != NULL);
    s.frame_radius = 2.0f;
    s.frame_center[1] = NAN;
    SCT_CHECK(sc_renderer_set_mesh_share(r, &md, &s) == SC_ERROR_INVALID_ARGUMENT);
    s.frame_center[1] = 0.0f;
    SCT_CHECK_OK(sc_renderer_set_mesh_share(r, &md, &s));
    /* The hits read back carry the share's ids. */
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    sc_hit *h = malloc(32 * 24 * sizeof *h);
    SCT_REQUIRE(h);
    SCT_CHECK_OK(sc_renderer_read_hits(r, h));
    uint64_t hit = 0, below = 0;
    for (int i = 0; i < 32 * 24; ++i)
        if (h[i].tri != SC_NO_HIT) {
            ++hit;
            if (h[i].tri < s.first_triangle) ++below;
        }
    SCT_CHECK(hit > 0);
    SCT_CHECK_EQ_U64(below, 0);
    /* Back to the whole mesh: ids as they are. */
    SCT_CHECK_OK(sc_renderer_set_mesh_share(r, &md, NULL));
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    SCT_CHECK_OK(sc_renderer_read_hits(r, h));
    uint64_t above = 0;
    for (int i = 0; i < 32 * 24; ++i)
        if (h[i].tri != SC_NO_HIT && h[i].tri >= md.triangle_count) ++above;
    SCT_CHECK_EQ_U64(above, 0);
    /* sc_mesh_share_make's checks, and its cuts covering every triangle once. */
    sc_mesh_share sh;
    SCT_CHECK(sc_mesh_share_make(&md, 0, 0, &sh) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_mesh_share_make(&md, 3, 3, &sh) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_mesh_share_make(NULL, 3, 0, &sh) == SC_ERROR_INVALID_ARGUMENT);
    uint32_t next = 0;
    for (uint32_t k = 0; k < 5; ++k) {
        SCT_REQUIRE_OK(sc_mesh_share_make(&md, 5, k, &sh));
        SCT_CHECK(sh.share.first_triangle == next);
        for (uint32_t t = 0; t < sh.mesh.triangle_count; ++t)
            for (int j = 0; j < 3; ++j) {
                const float *p = sh.mesh.positions + 3 * (size_t)sh.mesh.indices[3 * (size_t)t + j];
                const float *q = md.positions + 3 * (size_t)md.indices[3 * (size_t)(next + t) + j];
                SCT_CHECK(memcmp(p, q, 3 * sizeof(float)) == 0);
            }
        next += sh.mesh.triangle_count;
        sc_mesh_share_free(&sh);
    }
    SCT_CHECK(next == md.triangle_count);
    free(h);
    free(ids);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_share");
    SCT_RUN(test_composite_order);
    SCT_RUN(test_share_checks);
    SCT_RUN(test_knot_shares);
    SCT_RUN(test_bunny_shares);
    SCT_RUN(test_dragon_shares);
    return sct_end();
}
