/* test_render_normals.c - smooth normals computed where a pixel needs them (cpu): the one
 * vertex-normal function (render/core/vertex_normal.h, sc_vertex_normal over the one-rings of
 * normals_cpu.h's sc_vertex_adjacency) gives, bit for bit, the per-vertex normals the renderer's
 * former normals stage computed (a serial pass over the triangles, kept in normals_cases.c as the
 * reference), on a seeded mesh of awkward size with non-manifold, isolated, degenerate and
 * non-finite cases; the threaded and permuted host pass too; and the CPU backend's frames (rest pose
 * and caller positions, both vertex orders) read back the same normals and shade every hit pixel of
 * the normals view as the per-vertex normals did, with the normals stage at 0 ms. The CUDA backend's
 * side is test_render_normals_gpu. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "normals_cases.h"
#include "normals_cpu.h"
#include "sctest.h"
#include "slabcast.h"
#include "vertex_normal.h"

/* The adjacency's shape: offsets from 0 to 3T, nondecreasing; each vertex's triangles in
 * increasing order, each listed as often as it uses the vertex, and nothing else. */
static void check_adjacency(const sc_mesh *m, const uint32_t *off, const uint32_t *adj, const char *what)
{
    const uint32_t V = m->vertex_count, T = m->triangle_count;
    SCT_CHECK_MSG(off[0] == 0 && off[V] == 3 * T, "%s: offsets %u .. %u for %u triangles", what, off[0], off[V], T);
    uint64_t bad = 0;
    for (uint32_t v = 0; v < V && bad == 0; ++v) {
        if (off[v] > off[v + 1]) {
            ++bad;
            break;
        }
        for (uint32_t j = off[v]; j < off[v + 1]; ++j) {
            const uint32_t t = adj[j];
            if (t >= T || (j > off[v] && adj[j - 1] > t)) {
                ++bad;
                break;
            }
            const uint32_t *f = m->indices + 3 * (size_t)t;
            const uint32_t uses = (f[0] == v) + (f[1] == v) + (f[2] == v);
            uint32_t listed = 0;
            for (uint32_t i = off[v]; i < off[v + 1]; ++i) listed += adj[i] == t;
            bad += uses == 0 || listed != uses;
        }
    }
    SCT_CHECK_MSG(bad == 0, "%s: the adjacency is not each vertex's triangles in triangle order", what);
}

static uint64_t count_differ(const float *a, const float *b, uint32_t V, uint32_t *first)
{
    uint64_t n = 0;
    for (uint32_t v = 0; v < V; ++v)
        if (memcmp(a + 3 * (size_t)v, b + 3 * (size_t)v, 3 * sizeof(float)) != 0 && n++ == 0) *first = v;
    return n;
}

/* sc_vertex_normal per vertex, and sc_cpu_vertex_normals on 3 threads (plain and through a
 * permutation), against the reference, on the rest pose and on moved positions. */
static void test_vertex_normal_equals_per_vertex(void)
{
    for (uint64_t s = 0; s < 3; ++s) {
        const uint64_t seed = sct_base_seed() + s;
        sc_mesh m;
        SCT_REQUIRE(nc_mesh_make(seed, &m) == 0);
        const uint32_t V = m.vertex_count, T = m.triangle_count;
        uint32_t *off = malloc(sizeof(uint32_t) * ((size_t)V + 1)), *adj = malloc(sizeof(uint32_t) * 3 * (size_t)T);
        uint32_t *perm = malloc(sizeof(uint32_t) * V);
        float *moved = malloc(3 * sizeof(float) * V), *ref = malloc(3 * sizeof(float) * V);
        float *got = malloc(3 * sizeof(float) * V);
        SCT_REQUIRE(off && adj && perm && moved && ref && got);
        char what[96];
        snprintf(what, sizeof what, "seed %llu (%u vertices, %u triangles)", (unsigned long long)seed, V, T);
        sc_vertex_adjacency(m.indices, V, T, off, adj);
        check_adjacency(&m, off, adj, what);
        nc_moved_positions(&m, seed, moved);
        sct_rng rng;
        sct_rng_seed(&rng, seed);
        for (uint32_t v = 0; v < V; ++v) perm[v] = v;
        for (uint32_t v = V; v > 1; --v) {
            const uint32_t j = sct_rng_below(&rng, v), t = perm[v - 1];
            perm[v - 1] = perm[j];
            perm[j] = t;
        }
        for (int pose = 0; pose < 2; ++pose) {
            const float *pos = pose ? moved : m.positions;
            const char *pose_name = pose ? "moved" : "rest";
            nc_reference_normals(pos, V, m.indices, T, ref);
            const sc_mesh_rings rings = {off, adj, m.indices, pos};
            for (uint32_t v = 0; v < V; ++v) sc_vertex_normal(&rings, v, got + 3 * (size_t)v);
            uint32_t first = 0;
            uint64_t n = count_differ(got, ref, V, &first);
            SCT_CHECK_MSG(n == 0, "%s, %s: %llu normals differ (sc_vertex_normal); the first: vertex %u", what,
                          pose_name, (unsigned long long)n, first);
            memset(got, 0xFF, 3 * sizeof(float) * V);
            sc_cpu_vertex_normals(&rings, V, NULL, 3, got);
            n = count_differ(got, ref, V, &first);
            SCT_CHECK_MSG(n == 0, "%s, %s: %llu normals differ (host pass); the first: vertex %u", what, pose_name,
                          (unsigned long long)n, first);
            sc_cpu_vertex_normals(&rings, V, perm, 3, got);
            n = 0;
            for (uint32_t v = 0; v < V; ++v)
                n += memcmp(got + 3 * (size_t)v, ref + 3 * (size_t)perm[v], 3 * sizeof(float)) != 0;
            SCT_CHECK_MSG(n == 0, "%s, %s: %llu normals differ (host pass through a permutation)", what, pose_name,
                          (unsigned long long)n);
            /* Not vacuous: zero normals (isolated, cancelled, overflowing length), unit ones. */
            uint64_t zero = 0, unit = 0;
            for (uint32_t v = 0; v < V; ++v) {
                const float *r = ref + 3 * (size_t)v;
                const float l = sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
                zero += l == 0.0f;
                unit += fabsf(l - 1.0f) < 1e-5f;
            }
            SCT_CHECK_MSG(zero >= 89 + 3 + 1 && zero + unit == V && unit > V / 2,
                          "%s, %s: %llu zero, %llu unit normals", what, pose_name, (unsigned long long)zero,
                          (unsigned long long)unit);
        }
        free(off); free(adj); free(perm); free(moved); free(ref); free(got);
        sc_mesh_free(&m);
    }
}

/* The overflow cases on their own: a vertex whose other face normal overflows keeps the finite
 * one's direction; a sum whose length overflows gives 0; an empty mesh and one of isolated vertices
 * give no adjacency. */
static void test_edge_cases(void)
{
    const float z = 1e20f;
    const float pos[] = {0, 0, z, 2e19f, 0, z, 0, 2e19f, z, 1, 0, z, 0, 1, z,
                         0, 0, 2 * z, 1.2e19f, 0, 2 * z, 0, 1.2e19f, 2 * z, -1.2e19f, 0, 2 * z, 5, 5, 5};
    const uint32_t idx[] = {0, 1, 2, 0, 3, 4, 5, 6, 7, 5, 7, 8};
    const uint32_t V = 10, T = 4;
    uint32_t off[11], adj[12];
    float got[30], ref[30];
    sc_vertex_adjacency(idx, V, T, off, adj);
    const sc_mesh_rings rings = {off, adj, idx, pos};
    for (uint32_t v = 0; v < V; ++v) sc_vertex_normal(&rings, v, got + 3 * v);
    nc_reference_normals(pos, V, idx, T, ref);
    uint32_t first = 0;
    SCT_CHECK_MSG(count_differ(got, ref, V, &first) == 0, "vertex %u differs", first);
    SCT_CHECK(got[0] == 0.0f && got[1] == 0.0f && got[2] == 1.0f);          /* the overflowing face left out */
    SCT_CHECK(got[15] == 0.0f && got[16] == 0.0f && got[17] == 0.0f);       /* the length overflows */
    SCT_CHECK(got[27] == 0.0f && got[28] == 0.0f && got[29] == 0.0f);       /* isolated */
    SCT_CHECK(off[9] == off[10] && off[10] == 12);
    uint32_t off0[1] = {7};
    sc_vertex_adjacency(NULL, 0, 0, off0, NULL);
    SCT_CHECK(off0[0] == 0);
    uint32_t off3[4] = {9, 9, 9, 9};
    sc_vertex_adjacency(NULL, 3, 0, off3, NULL);
    SCT_CHECK(off3[0] == 0 && off3[1] == 0 && off3[2] == 0 && off3[3] == 0);
}

/* The CPU backend: frames of the rest pose and of caller positions, both vertex orders. */
static void test_cpu_frames(void)
{
    sc_mesh m;
    SCT_REQUIRE(nc_mesh_make(sct_base_seed(), &m) == 0);
    const size_t npix = (size_t)NC_W * NC_H;
    uint8_t *img = malloc(4 * npix);
    float *moved = malloc(3 * sizeof(float) * m.vertex_count);
    SCT_REQUIRE(img && moved);
    nc_moved_positions(&m, sct_base_seed(), moved);
    const sc_vertex_order orders[2] = {SC_VERTEX_ORDER_KEEP, SC_VERTEX_ORDER_FIRST_USE};
    for (int o = 0; o < 2; ++o) {
        sc_renderer *r = nc_renderer(SC_BACKEND_CPU, &m, orders[o]);
        if (!r) continue;
        for (int frame = 0; frame < 2; ++frame) {
            sc_frame_desc f;
            memset(&f, 0, sizeof f);
            f.rgba = img;
            f.positions = frame ? moved : NULL;
            memset(img, 0, 4 * npix);
            SCT_CHECK_OK(sc_renderer_render(r, &f));
            char what[96];
            snprintf(what, sizeof what, "cpu, %s order, %s", o ? "first-use" : "caller's",
                     frame ? "caller positions" : "rest pose");
            nc_check_frame(r, &m, img, what);
        }
        sc_renderer_destroy(r);
    }
    free(img);
    free(moved);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_normals");
    SCT_RUN(test_vertex_normal_equals_per_vertex);
    SCT_RUN(test_edge_cases);
    SCT_RUN(test_cpu_frames);
    return sct_end();
}
