/* test_render_keys.c - sort-last by hit keys, what runs without a GPU (cpu): the 64-bit key (its
 * order is the composite's, it decodes back to the hit's id and depth) and the host composites of
 * keys and hits agreeing; halo shares (sc_mesh_share_make_halo): owned ranges covering the mesh
 * once, the halo exactly the triangles around the owned ones, each owned vertex's one-ring the whole
 * mesh's in order, so its smooth normal is the whole mesh's bit for bit; the sort-last frame on the
 * CPU backend with halo shares: the owners' keys composited equal one renderer's hits, and each
 * pixel taken from its owner's own image equals one renderer's image (smooth and flat shading, the
 * normals view); the API's refusals (the CPU backend has no keys; groups without a device).
 * test_render_group_gpu runs the device composite and the renderer group. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "composite.h"
#include "normals_cpu.h"
#include "sctest.h"
#include "vertex_normal.h"

/* Seeded hits with many equal depths: the host composite of keys is the composite of hits, and a
 * key decodes to its hit. */
static void test_key_encoding(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() ^ 0x6b657973u);
    const float depths[] = {0.001f, 0.5f, 0.5f, 1.0f, 1.0000001f, 3.0e38f, 7.25f, 1e-30f};
    enum { N = 8192 };
    sc_hit *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    uint64_t *ka = malloc(N * sizeof *ka), *kb = malloc(N * sizeof *kb);
    SCT_REQUIRE(a && b && ka && kb);
    for (int i = 0; i < N; ++i) {
        sc_hit *h[2] = {&a[i], &b[i]};
        for (int j = 0; j < 2; ++j) {
            const uint32_t pick = sct_rng_below(&rng, 10);
            h[j]->tri = pick >= 8 ? SC_NO_HIT : (pick == 7 ? 0xFFFFFFFEu : sct_rng_below(&rng, 4) * 999983u);
            h[j]->depth = h[j]->tri == SC_NO_HIT ? INFINITY : depths[sct_rng_below(&rng, 8)];
            h[j]->u = (float)sct_rng_unit(&rng);
            h[j]->v = (float)sct_rng_unit(&rng);
        }
        ka[i] = sc_hit_key(a[i].tri, a[i].depth);
        kb[i] = sc_hit_key(b[i].tri, b[i].depth);
    }
    SCT_CHECK_OK(sc_hits_composite(a, b, N));
    SCT_CHECK_OK(sc_hit_keys_composite(ka, kb, N));
    uint64_t wrong = 0;
    for (int i = 0; i < N; ++i) {
        if (ka[i] != sc_hit_key(a[i].tri, a[i].depth)) ++wrong;
        if (ka[i] == SC_HIT_KEY_NONE) {
            if (a[i].tri != SC_NO_HIT) ++wrong;
            continue;
        }
        float depth;
        const uint32_t bits = (uint32_t)(ka[i] >> 32);
        memcpy(&depth, &bits, sizeof depth);
        if ((uint32_t)ka[i] != a[i].tri || depth != a[i].depth) ++wrong;
    }
    SCT_CHECK_EQ_U64(wrong, 0);
    SCT_CHECK_OK(sc_hit_keys_composite(NULL, NULL, 0));
    SCT_CHECK(sc_hit_keys_composite(ka, NULL, 1) == SC_ERROR_INVALID_ARGUMENT);
    free(a);
    free(b);
    free(ka);
    free(kb);
}

/* One-ring of vertex v of a mesh as whole-mesh triangle ids (ids NULL: the mesh is whole), into out;
 * returns its length. */
static uint32_t ring_ids(const uint32_t *off, const uint32_t *adj, const uint32_t *ids, uint32_t v, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t j = off[v]; j < off[v + 1]; ++j) out[n++] = ids ? ids[adj[j]] : adj[j];
    return n;
}

/* The halo shares of m in `parts`: coverage, the halo's rule, the one-rings and smooth normals. */
static void check_halo(const sc_mesh_data *m, uint32_t parts, const char *what)
{
    const uint32_t V = m->vertex_count, T = m->triangle_count;
    uint32_t *off = malloc(((size_t)V + 1) * sizeof *off), *adj = malloc((3 * (size_t)T + 1) * sizeof *adj);
    uint32_t *owner = malloc(((size_t)T + 1) * sizeof *owner);
    uint32_t *ra = malloc((3 * (size_t)T + 1) * sizeof *ra), *rb = malloc((3 * (size_t)T + 1) * sizeof *rb);
    SCT_REQUIRE(off && adj && owner && ra && rb);
    sc_vertex_adjacency(m->indices, V, T, off, adj);
    const sc_mesh_rings whole = {off, adj, m->indices, m->positions};
    for (uint32_t t = 0; t < T; ++t) owner[t] = UINT32_MAX;
    uint64_t bad = 0;
    for (uint32_t k = 0; k < parts; ++k) {
        sc_mesh_share sh, plain;
        SCT_REQUIRE_OK(sc_mesh_share_make_halo(m, parts, k, &sh));
        SCT_REQUIRE_OK(sc_mesh_share_make(m, parts, k, &plain));
        const sc_share_desc *d = &sh.share;
        /* The owned range is the plain share's; ids ascending, owned ones all present. */
        SCT_CHECK(d->owned_first == plain.share.first_triangle);
        SCT_CHECK(d->owned_count == plain.mesh.triangle_count);
        SCT_CHECK(d->has_frame && d->triangle_ids == sh.triangle_ids);
        for (uint32_t t = d->owned_first; t < d->owned_first + d->owned_count; ++t) {
            if (owner[t] != UINT32_MAX) ++bad;
            owner[t] = k;
        }
        /* The halo: exactly the triangles using a vertex of an owned triangle. */
        unsigned char *mark = calloc((size_t)V + 1, 1), *in = calloc((size_t)T + 1, 1);
        SCT_REQUIRE(mark && in);
        for (uint32_t t = d->owned_first; t < d->owned_first + d->owned_count; ++t)
            for (int j = 0; j < 3; ++j) mark[m->indices[3 * (size_t)t + j]] = 1;
        for (uint32_t i = 0; i < sh.mesh.triangle_count; ++i) {
            const uint32_t id = sh.triangle_ids[i];
            if (i > 0 && id <= sh.triangle_ids[i - 1]) ++bad;
            if (id >= T) {
                ++bad;
                continue;
            }
            in[id] = 1;
            /* The share's triangle is the whole mesh's, corner for corner. */
            for (int j = 0; j < 3; ++j)
                if (memcmp(sh.mesh.positions + 3 * (size_t)sh.mesh.indices[3 * (size_t)i + j],
                           m->positions + 3 * (size_t)m->indices[3 * (size_t)id + j], 3 * sizeof(float)))
                    ++bad;
        }
        for (uint32_t t = 0; t < T; ++t) {
            const uint32_t *f = m->indices + 3 * (size_t)t;
            const int want = (t >= d->owned_first && t < d->owned_first + d->owned_count) || mark[f[0]] || mark[f[1]] ||
                             mark[f[2]];
            if (want != in[t]) ++bad;
        }
        /* Each owned triangle's corners: the share's one-ring (as whole ids, in order) and smooth normal
         * are the whole mesh's. */
        const uint32_t sv = sh.mesh.vertex_count, st = sh.mesh.triangle_count;
        uint32_t *soff = malloc(((size_t)sv + 1) * sizeof *soff), *sadj = malloc((3 * (size_t)st + 1) * sizeof *sadj);
        SCT_REQUIRE(soff && sadj);
        sc_vertex_adjacency(sh.mesh.indices, sv, st, soff, sadj);
        const sc_mesh_rings part = {soff, sadj, sh.mesh.indices, sh.mesh.positions};
        for (uint32_t i = 0; i < st; ++i) {
            const uint32_t id = sh.triangle_ids[i];
            if (id < d->owned_first || id >= d->owned_first + d->owned_count) continue;
            for (int j = 0; j < 3; ++j) {
                const uint32_t lv = sh.mesh.indices[3 * (size_t)i + j], wv = m->indices[3 * (size_t)id + j];
                const uint32_t na = ring_ids(soff, sadj, sh.triangle_ids, lv, ra), nb = ring_ids(off, adj, NULL, wv, rb);
                if (na != nb || memcmp(ra, rb, na * sizeof *ra)) ++bad;
                float a[3], b[3];
                sc_vertex_normal(&part, lv, a);
                sc_vertex_normal(&whole, wv, b);
                if (memcmp(a, b, sizeof a)) ++bad;
            }
        }
        free(soff);
        free(sadj);
        free(mark);
        free(in);
        sc_mesh_share_free(&sh);
        sc_mesh_share_free(&plain);
    }
    for (uint32_t t = 0; t < T; ++t)
        if (owner[t] == UINT32_MAX) ++bad;
    SCT_CHECK_MSG(bad == 0, "%s in %u shares: %llu violations", what, parts, (unsigned long long)bad);
    free(off);
    free(adj);
    free(owner);
    free(ra);
    free(rb);
}

static void test_halo_shares(void)
{
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(23, &m) == SC_OK);
    const sc_mesh_data md = sc_mesh_view(&m);
    const uint32_t parts[] = {1, 2, 3, 7, 64};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i) check_halo(&md, parts[i], "knot");
    sc_mesh_free(&m);
    /* More shares than triangles: empty shares own nothing and hold nothing. */
    static const float pos[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    static const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
    const sc_mesh_data quad = {pos, 4, idx, 2};
    check_halo(&quad, 5, "quad");
    sc_mesh_share sh;
    SCT_REQUIRE_OK(sc_mesh_share_make_halo(&quad, 5, 0, &sh));
    SCT_CHECK(sh.mesh.triangle_count == 0 && sh.share.owned_count == 0);
    sc_mesh_share_free(&sh);
    SCT_CHECK(sc_mesh_share_make_halo(&quad, 0, 0, &sh) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_mesh_share_make_halo(&quad, 2, 2, &sh) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_mesh_share_make_halo(NULL, 2, 0, &sh) == SC_ERROR_INVALID_ARGUMENT);
    const uint32_t bad_idx[] = {0, 1, 2, 0, 2, 4};
    const sc_mesh_data bad = {pos, 4, bad_idx, 2};
    SCT_CHECK(sc_mesh_share_make_halo(&bad, 2, 0, &sh) == SC_ERROR_INVALID_ARGUMENT);
}

static sc_renderer *cpu_renderer(uint32_t w, uint32_t h, int flat, sc_view_mode mode)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = w;
    d.height = h;
    d.num_threads = 2;
    d.flat_shading = flat;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) return NULL;
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = 0.6f;
    def.wave.amount = 0.05f;
    sc_shading_desc sd;
    memset(&sd, 0, sizeof sd);
    sd.mode = mode;
    if (sc_renderer_set_deform(r, &def) != SC_OK || sc_renderer_set_shading(r, &sd) != SC_OK) {
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* The sort-last frame with halo shares on the CPU backend, against one renderer: the owners' keys
 * composited, then each pixel's hit and colour from the share that owns its winner (the background
 * from share 0). */
static void check_sort_last_cpu(const sc_mesh_data *m, uint32_t w, uint32_t h, uint32_t parts, int flat,
                                sc_view_mode mode)
{
    const size_t n = (size_t)w * h;
    sc_hit *want = malloc(n * sizeof *want), *hits = malloc(parts * n * sizeof *hits);
    uint32_t *want_img = malloc(n * 4), *img = malloc(parts * n * 4), *owner_first = malloc(parts * 8);
    uint64_t *acc = malloc(n * sizeof *acc), *keys = malloc(n * sizeof *keys);
    SCT_REQUIRE(want && hits && want_img && img && owner_first && acc && keys);
    uint32_t *owner_end = owner_first + parts;
    sc_renderer *whole = cpu_renderer(w, h, flat, mode);
    SCT_REQUIRE(whole);
    SCT_REQUIRE_OK(sc_renderer_set_mesh(whole, m));
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = 0.7f;
    f.rgba = want_img;
    SCT_REQUIRE_OK(sc_renderer_render(whole, &f));
    SCT_REQUIRE_OK(sc_renderer_read_hits(whole, want));
    for (size_t i = 0; i < n; ++i) acc[i] = SC_HIT_KEY_NONE;
    for (uint32_t k = 0; k < parts; ++k) {
        sc_mesh_share sh;
        SCT_REQUIRE_OK(sc_mesh_share_make_halo(m, parts, k, &sh));
        sc_renderer *r = cpu_renderer(w, h, flat, mode);
        SCT_REQUIRE(r);
        SCT_REQUIRE_OK(sc_renderer_set_mesh_share(r, &sh.mesh, &sh.share));
        f.rgba = img + k * n;
        SCT_REQUIRE_OK(sc_renderer_render(r, &f));
        SCT_REQUIRE_OK(sc_renderer_read_hits(r, hits + k * n));
        owner_first[k] = sh.share.owned_first;
        owner_end[k] = sh.share.owned_first + sh.share.owned_count;
        /* The owned keys: a halo triangle's hit counts for its owner only. */
        for (size_t i = 0; i < n; ++i) {
            const sc_hit *x = &hits[k * n + i];
            const int mine = x->tri != SC_NO_HIT && x->tri >= owner_first[k] && x->tri < owner_end[k];
            keys[i] = mine ? sc_hit_key(x->tri, x->depth) : SC_HIT_KEY_NONE;
        }
        SCT_CHECK_OK(sc_hit_keys_composite(acc, keys, n));
        sc_renderer_destroy(r);
        sc_mesh_share_free(&sh);
    }
    uint64_t wrong_hits = 0, wrong_px = 0, hit = 0;
    size_t first_px = 0;
    uint32_t got_px = 0;
    for (size_t i = 0; i < n; ++i) {
        hit += want[i].tri != SC_NO_HIT;
        if (acc[i] != sc_hit_key(want[i].tri, want[i].depth)) ++wrong_hits;
        uint32_t owner = acc[i] == SC_HIT_KEY_NONE ? 0 : parts;
        for (uint32_t k = 0; k < parts && owner == parts; ++k) {
            const sc_hit *x = &hits[k * n + i];
            if (x->tri != SC_NO_HIT && x->tri >= owner_first[k] && x->tri < owner_end[k] &&
                sc_hit_key(x->tri, x->depth) == acc[i])
                owner = k;
        }
        if (owner == parts) {
            ++wrong_hits;
            continue;
        }
        if (acc[i] != SC_HIT_KEY_NONE && memcmp(&hits[owner * n + i], &want[i], sizeof want[i])) ++wrong_hits;
        const uint32_t px = img[owner * n + i];
        if (px != want_img[i] && wrong_px++ == 0) {
            first_px = i;
            got_px = px;
        }
    }
    SCT_CHECK_MSG(wrong_hits == 0 && wrong_px == 0 && hit > 0,
                  "%ux%u, %u halo shares, %s, mode %s: %llu wrong hits, %llu wrong pixels (first %zu: %08x, want "
                  "%08x), %llu hit",
                  w, h, parts, flat ? "flat" : "smooth", sc_view_mode_name(mode), (unsigned long long)wrong_hits,
                  (unsigned long long)wrong_px, first_px, got_px, want_img[first_px], (unsigned long long)hit);
    sc_renderer_destroy(whole);
    free(want);
    free(hits);
    free(want_img);
    free(img);
    free(owner_first);
    free(acc);
    free(keys);
}

static void test_sort_last_cpu(void)
{
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(37, &m) == SC_OK);
    const sc_mesh_data md = sc_mesh_view(&m);
    check_sort_last_cpu(&md, 203, 151, 2, 0, SC_VIEW_SHADED);
    check_sort_last_cpu(&md, 203, 151, 3, 0, SC_VIEW_SHADED);
    check_sort_last_cpu(&md, 97, 160, 3, 1, SC_VIEW_SHADED);
    check_sort_last_cpu(&md, 160, 97, 5, 0, SC_VIEW_NORMALS);
    sc_mesh_free(&m);
}

/* What the API refuses without a device or on the CPU backend. */
static void test_refusals(void)
{
    sc_renderer *r = cpu_renderer(16, 12, 0, SC_VIEW_SHADED);
    SCT_REQUIRE(r);
    uint64_t keys[16 * 12];
    sc_hit hits[16 * 12];
    SCT_CHECK(sc_renderer_hit_keys(NULL, keys) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_renderer_hit_keys(r, keys) == SC_ERROR_UNSUPPORTED);
    SCT_CHECK(strstr(sc_last_error(), "sc_hits_composite") != NULL);
    SCT_CHECK(sc_renderer_resolve_keys(r, keys, hits) == SC_ERROR_UNSUPPORTED);
    SCT_CHECK(sc_renderer_shade_keys(r, keys, hits, 0, 1) == SC_ERROR_UNSUPPORTED);
    sc_renderer_destroy(r);
    /* The owned range must stay below SC_NO_HIT. */
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(4, &m) == SC_OK);
    const sc_mesh_data md = sc_mesh_view(&m);
    r = cpu_renderer(16, 12, 0, SC_VIEW_SHADED);
    SCT_REQUIRE(r);
    sc_share_desc s;
    memset(&s, 0, sizeof s);
    s.owned_first = SC_NO_HIT - 3;
    s.owned_count = 4;
    SCT_CHECK(sc_renderer_set_mesh_share(r, &md, &s) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "owned") != NULL);
    s.owned_count = 3;
    SCT_CHECK_OK(sc_renderer_set_mesh_share(r, &md, &s));
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
    /* Device composites and groups: refused without CUDA or a device, never a crash. */
    sc_backend_info info;
    SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_CUDA, &info));
    SCT_CHECK(sc_hit_keys_composite_device(NULL, NULL, 1, NULL) ==
              (info.built ? SC_ERROR_INVALID_ARGUMENT : SC_ERROR_UNSUPPORTED));
    if (!info.available) {
        sc_group_desc gd;
        memset(&gd, 0, sizeof gd);
        gd.renderer.width = 16;
        gd.renderer.height = 12;
        sc_renderer_group *g = (sc_renderer_group *)1;
        SCT_CHECK(sc_renderer_group_create(&gd, &g) == SC_ERROR_UNSUPPORTED);
        SCT_CHECK(g == NULL);
    }
    sc_group_desc gd;
    memset(&gd, 0, sizeof gd);
    gd.renderer.backend = SC_BACKEND_CPU;
    gd.renderer.width = 16;
    gd.renderer.height = 12;
    sc_renderer_group *g = NULL;
    SCT_CHECK(sc_renderer_group_create(&gd, &g) ==
              (info.built ? SC_ERROR_INVALID_ARGUMENT : SC_ERROR_UNSUPPORTED));
    sc_renderer_group_destroy(NULL);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_keys");
    SCT_RUN(test_key_encoding);
    SCT_RUN(test_halo_shares);
    SCT_RUN(test_sort_last_cpu);
    SCT_RUN(test_refusals);
    return sct_end();
}
