/* render_test_util.h - scene builders and the tiled-versus-brute-force comparison shared by the
 * renderer's tests. Header-only (static functions); include once per test binary. */
#ifndef SC_RENDER_TEST_UTIL_H
#define SC_RENDER_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "brute_force.h"
#include "intersect.h"
#include "sc_mesh.h"
#include "sc_render_testing.h"
#include "sctest.h"
#include "slabcast.h"

#define TEST_PI 3.14159265358979323846

/* A growable mesh for building scenes. */
typedef struct test_mesh {
    sc_mesh m;
    uint32_t vcap, tcap;
} test_mesh;

static inline uint32_t tm_vertex(test_mesh *t, float x, float y, float z)
{
    if (t->m.vertex_count == t->vcap) {
        t->vcap = t->vcap ? 2 * t->vcap : 64;
        t->m.positions = realloc(t->m.positions, sizeof(float) * 3 * t->vcap);
    }
    float *v = t->m.positions + 3 * (size_t)t->m.vertex_count;
    v[0] = x; v[1] = y; v[2] = z;
    return t->m.vertex_count++;
}

static inline void tm_triangle(test_mesh *t, uint32_t a, uint32_t b, uint32_t c)
{
    if (t->m.triangle_count == t->tcap) {
        t->tcap = t->tcap ? 2 * t->tcap : 64;
        t->m.indices = realloc(t->m.indices, sizeof(uint32_t) * 3 * t->tcap);
    }
    uint32_t *f = t->m.indices + 3 * (size_t)t->m.triangle_count++;
    f[0] = a; f[1] = b; f[2] = c;
}

static inline void tm_tri3(test_mesh *t, const float a[3], const float b[3], const float c[3])
{
    uint32_t i = tm_vertex(t, a[0], a[1], a[2]);
    uint32_t j = tm_vertex(t, b[0], b[1], b[2]);
    uint32_t k = tm_vertex(t, c[0], c[1], c[2]);
    tm_triangle(t, i, j, k);
}

static inline float rng_range(sct_rng *r, float lo, float hi) { return lo + (hi - lo) * (float)sct_rng_unit(r); }

/* A closed UV sphere (convex: all vertices on the sphere), rotated by a seeded random rotation,
 * counter-clockwise faces outwards. stacks >= 2, slices >= 3. */
static inline void tm_sphere(test_mesh *t, const float c[3], float radius, uint32_t stacks, uint32_t slices, uint64_t seed)
{
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    /* Random rotation from a random unit quaternion. */
    float q[4];
    float n = 0;
    for (int i = 0; i < 4; ++i) { q[i] = rng_range(&rng, -1, 1); n += q[i] * q[i]; }
    n = sqrtf(n);
    for (int i = 0; i < 4; ++i) q[i] /= n;
    float w = q[0], x = q[1], y = q[2], z = q[3];
    float R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                     {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                     {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    uint32_t base = t->m.vertex_count;
    for (uint32_t i = 0; i <= stacks; ++i) {
        double th = TEST_PI * (double)i / (double)stacks;
        uint32_t ring = (i == 0 || i == stacks) ? 1 : slices;
        for (uint32_t j = 0; j < ring; ++j) {
            double ph = 2 * TEST_PI * (double)j / (double)slices;
            float p[3] = {(float)(sin(th) * cos(ph)), (float)cos(th), (float)(sin(th) * sin(ph))};
            float o[3];
            for (int k = 0; k < 3; ++k) o[k] = c[k] + radius * (R[k][0] * p[0] + R[k][1] * p[1] + R[k][2] * p[2]);
            tm_vertex(t, o[0], o[1], o[2]);
        }
    }
    /* Vertex index of (stack i, slice j). */
#define SPH(i, j) ((i) == 0 ? base : (i) == stacks ? base + 1 + (stacks - 1) * slices : base + 1 + ((i) - 1) * slices + ((j) % slices))
    for (uint32_t i = 0; i < stacks; ++i)
        for (uint32_t j = 0; j < slices; ++j) {
            uint32_t a = SPH(i, j), b = SPH(i, j + 1), cc = SPH(i + 1, j), d = SPH(i + 1, j + 1);
            if (i != 0) tm_triangle(t, a, b, d);
            if (i + 1 != stacks) tm_triangle(t, a, d, cc);
            else tm_triangle(t, a, b, cc);
        }
#undef SPH
}

/* The renderer's frame layout (sc_render_testing.h). */
static inline sc_frame_params test_params(const sc_renderer *r)
{
    sc_frame_params p;
    sc_renderer_testing_frame_params(r, &p);
    return p;
}

/* The backend's buffers of the last frame (host memory on the CPU backend). */
static inline sc_backend_buffers test_buffers(const sc_renderer *r)
{
    sc_backend_buffers b;
    if (sc_renderer_testing_buffers(r, &b) != SC_OK) memset(&b, 0, sizeof b);
    return b;
}

static inline sc_renderer *make_renderer(uint32_t w, uint32_t h, uint32_t tile, uint32_t slabs, int cull)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = w;
    d.height = h;
    d.tile_size = tile;
    d.num_slabs = slabs;
    d.cull_back_faces = cull;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "sc_renderer_create(%ux%u, tile %u, slabs %u): %s", w, h, tile, slabs, sc_last_error());
        return NULL;
    }
    return r;
}

static inline void look(sc_renderer *r, float ex, float ey, float ez, float tx, float ty, float tz, float near_plane,
                 float far_plane)
{
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    c.eye[0] = ex; c.eye[1] = ey; c.eye[2] = ez;
    c.target[0] = tx; c.target[1] = ty; c.target[2] = tz;
    c.near_plane = near_plane;
    c.far_plane = far_plane;
    SCT_CHECK_OK(sc_renderer_set_camera(r, &c));
}

/* Renders one frame at `time` and compares every pixel with the brute force over the frame's
 * (deformed) positions: triangle id exactly, depth to 1e-6 relative. Returns mismatches (-1 on
 * error). Optionally returns the hits (caller frees). */
static inline long compare_with_brute_force(sc_renderer *r, const sc_mesh *m, float time, const char *what, sc_hit **hits_out)
{
    const sc_frame_params params = test_params(r), *p = &params;
    size_t npix = (size_t)p->width * p->height;
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    if (sc_renderer_render(r, &f) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: render failed: %s", what, sc_last_error());
        return -1;
    }
    sc_hit *got = malloc(npix * sizeof *got), *want = malloc(npix * sizeof *want);
    float *pos = malloc(sizeof(float) * 3 * ((size_t)m->vertex_count + 1));
    SCT_CHECK_OK(sc_renderer_read_hits(r, got));
    SCT_CHECK_OK(sc_renderer_read_positions(r, pos));
    sc_brute_force(p, pos, m->indices, m->triangle_count, 2, want);
    long bad = 0;
    for (size_t i = 0; i < npix; ++i) {
        int ok = got[i].tri == want[i].tri;
        if (ok && want[i].tri != SC_NO_HIT)
            ok = fabsf(got[i].depth - want[i].depth) <= 1e-6f * fabsf(want[i].depth) &&
                 fabsf(got[i].u - want[i].u) <= 1e-5f && fabsf(got[i].v - want[i].v) <= 1e-5f;
        if (!ok) {
            if (bad < 5)
                sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu): tiled tri %u depth %.9g, brute force tri %u depth %.9g",
                         what, i % p->width, i / p->width, got[i].tri, (double)got[i].depth, want[i].tri,
                         (double)want[i].depth);
            ++bad;
        }
    }
    if (bad) sct_fail(__FILE__, __LINE__, "%s: %ld of %zu pixels differ", what, bad, npix);
    free(want);
    free(pos);
    if (hits_out) *hits_out = got;
    else free(got);
    return bad;
}

#endif /* SC_RENDER_TEST_UTIL_H */
