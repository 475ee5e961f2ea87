/* normals_cases.c - the seeded mesh of the smooth-normals tests, the reference per-vertex normals
 * and the check of a frame (normals_cases.h). The mesh: a height field of 181 x 149 vertices (two
 * triangles a cell, diagonals and a few windings flipped at random), with fins, touching fans,
 * degenerate, cancelling and non-finite triangles and isolated vertices added, then vertices and
 * triangles shuffled. Clusters whose face normals overflow sit far behind the camera. */
#include "normals_cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sc_frame.h"
#include "sc_render_testing.h"
#include "sctest.h"

enum { GX = 181, GY = 149 };

typedef struct builder {
    float *pos;
    uint32_t *idx;
    uint32_t nv, nt, cap_v, cap_t;
} builder;

static uint32_t add_v(builder *b, float x, float y, float z)
{
    if (b->nv >= b->cap_v) return 0; /* never: the capacities are counted below */
    float *p = b->pos + 3 * (size_t)b->nv;
    p[0] = x; p[1] = y; p[2] = z;
    return b->nv++;
}

static void add_t(builder *b, uint32_t a, uint32_t c, uint32_t d)
{
    if (b->nt >= b->cap_t) return;
    uint32_t *t = b->idx + 3 * (size_t)b->nt++;
    t[0] = a; t[1] = c; t[2] = d;
}

static float jitter(sct_rng *rng, float amount) { return amount * (float)(2.0 * sct_rng_unit(rng) - 1.0); }

static uint32_t grid_v(uint32_t i, uint32_t j) { return j * GX + i; }

int nc_mesh_make(uint64_t seed, sc_mesh *out)
{
    memset(out, 0, sizeof *out);
    sct_rng rng;
    sct_rng_seed(&rng, seed ^ 0x6e6f726d616c73ull);
    builder b = {0};
    b.cap_v = GX * GY + 4096;
    b.cap_t = 2 * (GX - 1) * (GY - 1) + 4096;
    b.pos = malloc(3 * sizeof(float) * b.cap_v);
    b.idx = malloc(3 * sizeof(uint32_t) * b.cap_t);
    if (!b.pos || !b.idx) {
        free(b.pos);
        free(b.idx);
        sct_fail(__FILE__, __LINE__, "out of memory for the normals mesh");
        return -1;
    }
    /* The height field over [-1, 1] x [-0.8, 0.8], facing +z. */
    for (uint32_t j = 0; j < GY; ++j)
        for (uint32_t i = 0; i < GX; ++i) {
            const float x = -1.0f + 2.0f * (float)i / (float)(GX - 1), y = -0.8f + 1.6f * (float)j / (float)(GY - 1);
            add_v(&b, x, y, 0.12f * sinf(3.0f * x) * cosf(2.0f * y) + jitter(&rng, 0.004f));
        }
    for (uint32_t j = 0; j + 1 < GY; ++j)
        for (uint32_t i = 0; i + 1 < GX; ++i) {
            const uint32_t a = grid_v(i, j), c = a + 1, d = a + GX, e = d + 1;
            const int flip = sct_rng_below(&rng, 50) == 0; /* a triangle wound the other way */
            if (sct_rng_below(&rng, 2)) {
                add_t(&b, a, c, e);
                if (flip) add_t(&b, a, d, e); else add_t(&b, a, e, d);
            } else {
                add_t(&b, a, c, d);
                if (flip) add_t(&b, c, d, e); else add_t(&b, c, e, d);
            }
        }
    const uint32_t grid_tris = b.nt;
#define RANDOM_GRID() grid_v(1 + sct_rng_below(&rng, GX - 2), 1 + sct_rng_below(&rng, GY - 2))
    /* Fins: a third triangle on a grid edge, its apex a new vertex above it or a grid vertex. */
    for (int k = 0; k < 211; ++k) {
        const uint32_t a = RANDOM_GRID(), c = a + 1;
        const float *pa = b.pos + 3 * (size_t)a, *pc = b.pos + 3 * (size_t)c;
        uint32_t apex;
        if (k % 6 == 5) {
            apex = grid_v(sct_rng_below(&rng, GX), sct_rng_below(&rng, GY));
        } else {
            apex = add_v(&b, 0.5f * (pa[0] + pc[0]) + jitter(&rng, 0.01f), 0.5f * (pa[1] + pc[1]) + jitter(&rng, 0.02f),
                         0.5f * (pa[2] + pc[2]) + 0.03f + 0.1f * (float)sct_rng_unit(&rng));
        }
        add_t(&b, a, c, apex);
    }
    /* Fans touching the surface's fan at one grid vertex (bowties), on opposite sides. */
    for (int k = 0; k < 53; ++k) {
        const uint32_t g = RANDOM_GRID();
        const float *p = b.pos + 3 * (size_t)g;
        uint32_t q[4];
        for (int s = 0; s < 4; ++s) {
            const float sx = s < 2 ? 1.0f : -1.0f, dy = (s & 1) ? 0.01f : -0.01f;
            q[s] = add_v(&b, p[0] + sx * (0.02f + jitter(&rng, 0.005f)), p[1] + dy, p[2] + 0.05f + jitter(&rng, 0.02f));
        }
        add_t(&b, g, q[0], q[1]);
        add_t(&b, g, q[3], q[2]);
    }
    /* Degenerate: a corner repeated, all three corners one vertex, collinear corners (dyadic
     * coordinates: the cross product is exactly 0). */
    for (int k = 0; k < 61; ++k) {
        const uint32_t a = RANDOM_GRID(), c = RANDOM_GRID();
        if (k % 3 == 0) add_t(&b, a, a, c);
        else if (k % 3 == 1) add_t(&b, a, c, a);
        else add_t(&b, c, a, a);
    }
    for (int k = 0; k < 19; ++k) {
        const uint32_t a = RANDOM_GRID();
        add_t(&b, a, a, a);
    }
    for (int k = 0; k < 13; ++k) {
        const float x = (float)((int)sct_rng_below(&rng, 12) - 6) / 8.0f;
        const float y = (float)((int)sct_rng_below(&rng, 10) - 5) / 8.0f;
        const uint32_t p0 = add_v(&b, x, y, 0.75f), p1 = add_v(&b, x + 0.0625f, y, 0.75f),
                       p2 = add_v(&b, x + 0.125f, y, 0.75f);
        if (k & 1) add_t(&b, p0, p1, p2); else add_t(&b, p2, p0, p1);
        if (k % 4 == 0) add_t(&b, RANDOM_GRID(), p1, p1); /* and one corner of them repeated with a grid vertex */
    }
    /* Opposite windings: grid triangles doubled reversed, and a pair alone whose sums cancel to 0. */
    for (int k = 0; k < 17; ++k) {
        const uint32_t *t = b.idx + 3 * (size_t)sct_rng_below(&rng, grid_tris);
        add_t(&b, t[0], t[2], t[1]);
    }
    {
        const uint32_t q1 = add_v(&b, 0.3f, 0.2f, 0.5f), q2 = add_v(&b, 0.45f, 0.2f, 0.55f);
        const uint32_t q3 = add_v(&b, 0.3f, 0.4f, 0.5f);
        add_t(&b, q1, q2, q3);
        add_t(&b, q1, q3, q2);
    }
    /* Non-finite vertices (the renderer drops their triangles with a warning; their face normals
     * are not finite and left out of the sums). */
    {
        const uint32_t nf[4] = {add_v(&b, NAN, 0.0f, 0.0f), add_v(&b, 0.0f, INFINITY, 0.0f),
                                add_v(&b, -INFINITY, 1.0f, 2.0f), add_v(&b, 0.0f, 0.0f, NAN)};
        for (int k = 0; k < 23; ++k) {
            const uint32_t a = RANDOM_GRID();
            add_t(&b, a, a + 1, nf[k % 4]);
            if (k % 5 == 0) add_t(&b, nf[k % 4], a + GX, a);
        }
    }
    /* Far behind the camera (never visible): a face normal that overflows (4e38) at a vertex whose
     * other triangle is finite, and two finite face normals (1.44e38 each) whose sum's length
     * overflows (its normal is 0). */
    {
        const float z = 1e20f, d = 2e19f;
        const uint32_t A = add_v(&b, 0.0f, 0.0f, z), B = add_v(&b, d, 0.0f, z), C = add_v(&b, 0.0f, d, z);
        const uint32_t D = add_v(&b, 1.0f, 0.0f, z), E = add_v(&b, 0.0f, 1.0f, z);
        add_t(&b, A, B, C);
        add_t(&b, A, D, E);
        const float z2 = 2e20f, s = 1.2e19f;
        const uint32_t P = add_v(&b, 0.0f, 0.0f, z2), Q1 = add_v(&b, s, 0.0f, z2), Q2 = add_v(&b, 0.0f, s, z2),
                       Q3 = add_v(&b, -s, 0.0f, z2);
        add_t(&b, P, Q1, Q2);
        add_t(&b, P, Q2, Q3);
    }
    /* Isolated vertices. */
    for (int k = 0; k < 89; ++k)
        add_v(&b, jitter(&rng, 1.0f), jitter(&rng, 1.0f), jitter(&rng, 0.5f));
#undef RANDOM_GRID
    /* The caller's numbering: vertices and triangles shuffled (seeded). */
    const uint32_t V = b.nv, T = b.nt;
    uint32_t *perm = malloc(sizeof(uint32_t) * V), *tperm = malloc(sizeof(uint32_t) * T);
    out->positions = malloc(3 * sizeof(float) * V);
    out->indices = malloc(3 * sizeof(uint32_t) * T);
    if (!perm || !tperm || !out->positions || !out->indices) {
        free(perm); free(tperm); free(b.pos); free(b.idx);
        sc_mesh_free(out);
        sct_fail(__FILE__, __LINE__, "out of memory for the normals mesh");
        return -1;
    }
    for (uint32_t v = 0; v < V; ++v) perm[v] = v;
    for (uint32_t v = V; v > 1; --v) {
        const uint32_t j = sct_rng_below(&rng, v), t = perm[v - 1];
        perm[v - 1] = perm[j];
        perm[j] = t;
    }
    for (uint32_t t = 0; t < T; ++t) tperm[t] = t;
    for (uint32_t t = T; t > 1; --t) {
        const uint32_t j = sct_rng_below(&rng, t), x = tperm[t - 1];
        tperm[t - 1] = tperm[j];
        tperm[j] = x;
    }
    for (uint32_t v = 0; v < V; ++v)
        memcpy(out->positions + 3 * (size_t)perm[v], b.pos + 3 * (size_t)v, 3 * sizeof(float));
    for (uint32_t t = 0; t < T; ++t)
        for (int k = 0; k < 3; ++k) out->indices[3 * (size_t)t + k] = perm[b.idx[3 * (size_t)tperm[t] + k]];
    out->vertex_count = V;
    out->triangle_count = T;
    free(perm); free(tperm); free(b.pos); free(b.idx);
    return 0;
}

void nc_reference_normals(const float *pos, uint32_t num_vertices, const uint32_t *idx, uint32_t num_triangles,
                          float *normals)
{
    memset(normals, 0, sizeof(float) * 3 * (size_t)num_vertices);
    for (uint32_t t = 0; t < num_triangles; ++t) {
        const uint32_t *f = idx + 3 * (size_t)t;
        const float *a = pos + 3 * (size_t)f[0], *b = pos + 3 * (size_t)f[1], *c = pos + 3 * (size_t)f[2];
        float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        if (!isfinite(n[0]) || !isfinite(n[1]) || !isfinite(n[2])) continue;
        for (int k = 0; k < 3; ++k) {
            float *o = normals + 3 * (size_t)f[k];
            o[0] += n[0]; o[1] += n[1]; o[2] += n[2];
        }
    }
    for (uint32_t v = 0; v < num_vertices; ++v) {
        float *n = normals + 3 * (size_t)v;
        float l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (l > 0.0f && isfinite(l)) {
            n[0] /= l; n[1] /= l; n[2] /= l;
        } else {
            n[0] = n[1] = n[2] = 0.0f;
        }
    }
}

void nc_moved_positions(const sc_mesh *m, uint64_t seed, float *out)
{
    sct_rng rng;
    sct_rng_seed(&rng, seed ^ 0x6d6f766564ull);
    for (uint32_t v = 0; v < m->vertex_count; ++v) {
        const float *p = m->positions + 3 * (size_t)v;
        float *o = out + 3 * (size_t)v;
        const int near = isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]) && fabsf(p[0]) < 2.0f &&
                         fabsf(p[1]) < 2.0f && fabsf(p[2]) < 2.0f;
        for (int k = 0; k < 3; ++k) o[k] = near ? p[k] + jitter(&rng, k == 2 ? 0.02f : 0.004f) : p[k];
    }
}

static void quiet(sc_log_level level, const char *message, void *user)
{
    (void)level;
    (void)message;
    (void)user;
}

sc_renderer *nc_renderer(sc_backend backend, const sc_mesh *m, sc_vertex_order order)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = NC_W;
    d.height = NC_H;
    d.num_threads = 2;
    d.vertex_order = order;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "create: %s", sc_last_error());
        return NULL;
    }
    const sc_mesh_data md = sc_mesh_view(m);
    sc_set_log_callback(quiet, NULL, SC_LOG_WARNING); /* the triangles with a non-finite vertex */
    const sc_status s = sc_renderer_set_mesh(r, &md);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    sc_camera_desc cam;
    memset(&cam, 0, sizeof cam);
    cam.eye[0] = 0.2f; cam.eye[1] = -0.35f; cam.eye[2] = 1.7f;
    cam.near_plane = 0.01f;
    cam.far_plane = 100.0f;
    sc_shading_desc sh;
    memset(&sh, 0, sizeof sh);
    sh.mode = SC_VIEW_NORMALS;
    if (s != SC_OK || sc_renderer_set_camera(r, &cam) != SC_OK || sc_renderer_set_shading(r, &sh) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "set up: %s", sc_last_error());
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* Pixel (x, y) of hit h in the normals view from per-vertex normals vn, as sc_shade_pixel computed
 * it from the per-vertex normals array: the normals interpolated, normalised, turned towards the
 * viewer, mapped to colours. */
static uint32_t reference_pixel(const sc_frame_params *p, const uint32_t *idx, const float *vn, sc_hit h, uint32_t x,
                                uint32_t y)
{
    float dir[3], n[3];
    sc_pixel_ray_dir(p, x, y, dir);
    const uint32_t *f = idx + 3 * (size_t)h.tri;
    const float *n0 = vn + 3 * (size_t)f[0], *n1 = vn + 3 * (size_t)f[1], *n2 = vn + 3 * (size_t)f[2];
    float w0 = 1.0f - h.u - h.v;
    for (int k = 0; k < 3; ++k) n[k] = w0 * n0[k] + h.u * n1[k] + h.v * n2[k];
    float l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (l > 0.0f) { n[0] /= l; n[1] /= l; n[2] /= l; }
    if (n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] > 0.0f) {
        n[0] = -n[0]; n[1] = -n[1]; n[2] = -n[2];
    }
    uint32_t packed = 0xFFu << 24;
    for (int k = 0; k < 3; ++k) {
        float c = 0.5f * (n[k] + 1.0f);
        c = c > 0.0f ? (c < 1.0f ? c : 1.0f) : 0.0f;
        packed |= (uint32_t)(c * 255.0f + 0.5f) << (8 * k);
    }
    return packed;
}

void nc_check_frame(sc_renderer *r, const sc_mesh *m, const uint8_t *img, const char *what)
{
    const uint32_t V = m->vertex_count;
    const size_t npix = (size_t)NC_W * NC_H;
    float *pos = malloc(3 * sizeof(float) * V), *ref = malloc(3 * sizeof(float) * V);
    float *got = malloc(3 * sizeof(float) * V);
    sc_hit *hits = malloc(sizeof(sc_hit) * npix);
    if (!pos || !ref || !got || !hits) {
        sct_fail(__FILE__, __LINE__, "%s: out of memory", what);
        free(pos); free(ref); free(got); free(hits);
        return;
    }
    sc_frame_stats st;
    SCT_CHECK_OK(sc_renderer_stats(r, &st));
    SCT_CHECK_MSG(st.stage_ms[SC_STAGE_NORMALS] == 0.0, "%s: the normals stage took %g ms (no stage computes them)",
                  what, st.stage_ms[SC_STAGE_NORMALS]);
    SCT_CHECK_OK(sc_renderer_read_positions(r, pos));
    SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
    SCT_CHECK_OK(sc_renderer_testing_read_normals(r, got));
    nc_reference_normals(pos, V, m->indices, m->triangle_count, ref);
    /* The normals, per vertex. */
    uint64_t differ = 0, zero = 0;
    uint32_t first = 0;
    for (uint32_t v = 0; v < V; ++v) {
        if (memcmp(got + 3 * (size_t)v, ref + 3 * (size_t)v, 3 * sizeof(float)) != 0 && differ++ == 0) first = v;
        zero += ref[3 * (size_t)v] == 0.0f && ref[3 * (size_t)v + 1] == 0.0f && ref[3 * (size_t)v + 2] == 0.0f;
    }
    const float *g = got + 3 * (size_t)first, *w = ref + 3 * (size_t)first;
    SCT_CHECK_MSG(differ == 0, "%s: %llu of %u vertex normals differ from the per-vertex reference; the first, vertex "
                  "%u: %.9g %.9g %.9g, reference %.9g %.9g %.9g", what, (unsigned long long)differ, V, first,
                  (double)g[0], (double)g[1], (double)g[2], (double)w[0], (double)w[1], (double)w[2]);
    /* Isolated vertices, the cancelling pair, the overflowing length: some normals are 0. */
    SCT_CHECK_MSG(zero >= 89 + 3 + 1 && zero < V / 4, "%s: %llu zero normals", what, (unsigned long long)zero);
    /* The pixels. */
    sc_frame_params p;
    sc_renderer_testing_frame_params(r, &p);
    uint64_t hit = 0, wrong = 0;
    size_t first_px = 0;
    for (size_t i = 0; i < npix; ++i) {
        if (hits[i].tri == SC_NO_HIT) continue;
        ++hit;
        const uint32_t want = reference_pixel(&p, m->indices, ref, hits[i], (uint32_t)(i % NC_W), (uint32_t)(i / NC_W));
        uint32_t have;
        memcpy(&have, img + 4 * i, 4);
        if (have != want && wrong++ == 0) first_px = i;
    }
    SCT_CHECK_MSG(hit > npix / 3, "%s: %llu hit pixels of %zu", what, (unsigned long long)hit, npix);
    SCT_CHECK_MSG(wrong == 0, "%s: %llu of %llu hit pixels differ from the per-vertex normals' shading; the first "
                  "(%zu, %zu)", what, (unsigned long long)wrong, (unsigned long long)hit, first_px % NC_W,
                  first_px / NC_W);
    free(pos); free(ref); free(got); free(hits);
}
