/* dense_scene.c - see dense_scene.h. */
#include "dense_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "brute_force_dense.h"
#include "sc_render_testing.h"
#include "sctest.h"
#include "sctest_models.h"

static double dense_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int dense_scene_load(const char *file, uint32_t levels, sc_mesh *out)
{
    char path[1024];
    memset(out, 0, sizeof *out);
    if (!sct_model_path(file, path, sizeof path)) return 77;
    const double t0 = dense_now();
    sc_mesh base;
    if (sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &base, NULL) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "loading %s: %s", path, sc_last_error());
        return -1;
    }
    if (levels == 0) {
        *out = base;
    } else {
        sc_status st = sc_mesh_subdivide_midpoint(&base, levels, out);
        sc_mesh_free(&base);
        if (st != SC_OK) {
            sct_fail(__FILE__, __LINE__, "subdividing %s %u times: %s", file, levels, sc_last_error());
            return -1;
        }
    }
    printf("  %s /%u: %u triangles, %u vertices (%.1f s)\n", file, levels, out->triangle_count, out->vertex_count,
           dense_now() - t0);
    return 0;
}

/* The same float arithmetic as app/common/orbit.c (app_bounds, app_orbit_frame, app_orbit_camera)
 * at its starting yaw, pitch and distance. */
sc_camera_desc dense_orbit_camera(const sc_mesh *m)
{
    float lo[3] = {-1.0f, -1.0f, -1.0f}, hi[3] = {1.0f, 1.0f, 1.0f};
    if (m->vertex_count > 0) {
        for (int k = 0; k < 3; ++k) lo[k] = hi[k] = m->positions[k];
        for (uint32_t i = 1; i < m->vertex_count; ++i)
            for (int k = 0; k < 3; ++k) {
                float v = m->positions[3 * (size_t)i + k];
                if (v < lo[k]) lo[k] = v;
                if (v > hi[k]) hi[k] = v;
            }
    }
    float center[3], r2 = 0.0f;
    for (int k = 0; k < 3; ++k) {
        center[k] = 0.5f * (lo[k] + hi[k]);
        float e = 0.5f * (hi[k] - lo[k]);
        r2 += e * e;
    }
    const float radius = r2 > 0.0f ? sqrtf(r2) : 1.0f, fovy = 0.7853982f, yaw = 0.6f, pitch = 0.35f;
    const float distance = 1.0f / sinf(0.5f * fovy);
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    const float d = distance * radius, cp = cosf(pitch);
    c.eye[0] = center[0] + d * cp * sinf(yaw);
    c.eye[1] = center[1] + d * sinf(pitch);
    c.eye[2] = center[2] + d * cp * cosf(yaw);
    for (int k = 0; k < 3; ++k) c.target[k] = center[k];
    c.up[1] = 1.0f;
    c.fovy = fovy;
    const float reach = 1.6f * radius;
    c.near_plane = d > reach ? (d - reach) * 0.5f : 0.001f * radius;
    if (c.near_plane < 1e-4f * radius) c.near_plane = 1e-4f * radius;
    c.far_plane = d + reach * 2.0f;
    return c;
}

sc_deform_desc dense_bench_deform(void)
{
    sc_deform_desc d;
    memset(&d, 0, sizeof d);
    d.twist.amount = 0.9f;
    d.wave.amount = 0.04f;
    return d;
}

static void dense_compare(const sc_hit *got, const sc_hit *want, const sc_frame_params *p, const char *what,
                          dense_diff *d)
{
    const size_t n = (size_t)p->width * p->height;
    memset(d, 0, sizeof *d);
    d->pixels = n;
    for (size_t i = 0; i < n; ++i) {
        const sc_hit g = got[i], w = want[i];
        if (w.tri != SC_NO_HIT) d->hits++;
        if (g.tri == w.tri && (w.tri == SC_NO_HIT || g.depth == w.depth)) continue;
        if (g.tri != SC_NO_HIT && w.tri != SC_NO_HIT && g.depth == w.depth) {
            if (d->ties < 5)
                printf("  %s: tie at pixel (%zu, %zu): tri %u and reference tri %u at depth %.9g\n", what,
                       i % p->width, i / p->width, g.tri, w.tri, (double)w.depth);
            d->ties++;
            continue;
        }
        if (d->wrong < 8)
            sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu): rendered tri %u depth %.9g, reference tri %u depth %.9g",
                     what, i % p->width, i / p->width, g.tri, (double)g.depth, w.tri, (double)w.depth);
        d->wrong++;
        if (g.tri == SC_NO_HIT) d->holes++;
    }
}

/* The twin's deformed positions at `time` against pos, bit for bit. */
static void dense_same_positions(sc_renderer *twin, const float *pos, uint32_t vertex_count, float time,
                                 const char *what)
{
    float *tpos = malloc(sizeof(float) * 3 * ((size_t)vertex_count + 1));
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    if (!tpos) {
        sct_fail(__FILE__, __LINE__, "%s: out of memory", what);
    } else if (sc_renderer_render(twin, &f) != SC_OK || sc_renderer_read_positions(twin, tpos) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: the CPU twin failed: %s", what, sc_last_error());
    } else {
        size_t differ = 0, first = 0;
        for (size_t k = 0; k < 3 * (size_t)vertex_count; ++k)
            if (memcmp(&pos[k], &tpos[k], sizeof(float)) != 0 && differ++ == 0) first = k;
        SCT_CHECK_MSG(differ == 0, "%s: %zu deformed coordinates differ from the CPU backend's; the first: vertex %zu "
                      "coordinate %zu, %.9g here, %.9g on the CPU", what, differ, first / 3, first % 3,
                      differ ? (double)pos[first] : 0.0, differ ? (double)tpos[first] : 0.0);
        if (differ == 0) printf("  %s: deformed positions equal the CPU backend's, bit for bit\n", what);
    }
    free(tpos);
}

int dense_check_frame(sc_renderer *r, sc_renderer *twin, const sc_frame_params *p, uint32_t vertex_count,
                      const uint32_t *indices, uint32_t triangle_count, float time, uint32_t num_threads,
                      const char *what, dense_diff *out)
{
    const size_t npix = (size_t)p->width * p->height;
    sc_hit *got = malloc(npix * sizeof *got), *want = malloc(npix * sizeof *want);
    float *pos = malloc(sizeof(float) * 3 * ((size_t)vertex_count + 1));
    int rc = -1;
    double t0 = dense_now(), t1 = t0, t2 = t0, tr = t0;
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    sc_bfd_stats bs;
    memset(&bs, 0, sizeof bs);
    if (!got || !want || !pos) {
        sct_fail(__FILE__, __LINE__, "%s: out of memory", what);
    } else if (sc_renderer_render(r, &f) != SC_OK || sc_renderer_read_hits(r, got) != SC_OK ||
               sc_renderer_read_positions(r, pos) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: render failed: %s", what, sc_last_error());
    } else {
        t1 = dense_now();
        if (twin) dense_same_positions(twin, pos, vertex_count, time, what);
        tr = dense_now(); /* the reference's time starts after the twin's */
        if (sc_brute_force_dense(p, pos, indices, triangle_count, num_threads, want, &bs) != 0) {
            sct_fail(__FILE__, __LINE__, "%s: the reference ran out of memory", what);
        } else {
            t2 = dense_now();
            dense_compare(got, want, p, what, out);
            rc = 0;
        }
    }
    if (rc == 0) {
        printf("  %s: %llu wrong pixels (%llu holes), %llu ties, of %llu hit pixels (%llu pixels); render %.1f s, "
               "reference %.1f s (%llu boxed, %llu whole-screen, %llu dropped triangles, %.3g ray tests)\n",
               what, (unsigned long long)out->wrong, (unsigned long long)out->holes, (unsigned long long)out->ties,
               (unsigned long long)out->hits, (unsigned long long)out->pixels, t1 - t0, t2 - tr,
               (unsigned long long)bs.boxed, (unsigned long long)bs.whole_screen, (unsigned long long)bs.skipped,
               (double)bs.ray_tests);
        fflush(stdout);
    }
    free(got);
    free(want);
    free(pos);
    return rc;
}

static uint32_t dense_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 64 ? 64u : (uint32_t)n;
}

void dense_check_frames(sc_backend backend, const sc_mesh *m, uint32_t w, uint32_t h, const float *times,
                        uint32_t num_times, const char *name)
{
    sc_renderer_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.backend = backend;
    desc.width = w;
    desc.height = h;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&desc, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "sc_renderer_create(%ux%u): %s", w, h, sc_last_error());
        return;
    }
    sc_mesh_data md = sc_mesh_view(m);
    sc_camera_desc cam = dense_orbit_camera(m);
    sc_deform_desc def = dense_bench_deform();
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    SCT_CHECK_OK(sc_renderer_set_camera(r, &cam));
    SCT_CHECK_OK(sc_renderer_set_deform(r, &def));
    const char *backend_name = backend == SC_BACKEND_CUDA ? "cuda" : "cpu";
    /* Another backend than the CPU: a CPU renderer of one pixel deforms the same mesh beside it, and
     * its positions must be the same bits (so the two backends' images are the same). */
    sc_renderer *twin = NULL;
    if (backend != SC_BACKEND_CPU) {
        sc_renderer_desc td = desc;
        td.backend = SC_BACKEND_CPU;
        td.width = td.height = 1;
        if (sc_renderer_create(&td, &twin) != SC_OK) {
            sct_fail(__FILE__, __LINE__, "sc_renderer_create(cpu twin): %s", sc_last_error());
        } else {
            SCT_CHECK_OK(sc_renderer_set_mesh(twin, &md));
            SCT_CHECK_OK(sc_renderer_set_camera(twin, &cam));
            SCT_CHECK_OK(sc_renderer_set_deform(twin, &def));
        }
    }
    for (uint32_t i = 0; i < num_times; ++i) {
        char what[128];
        snprintf(what, sizeof what, "%s: %s %ux%u t=%g", backend_name, name, w, h, (double)times[i]);
        dense_diff d;
        sc_frame_params params;
        sc_renderer_testing_frame_params(r, &params);
        if (dense_check_frame(r, twin, &params, m->vertex_count, m->indices, m->triangle_count, times[i],
                              dense_threads(), what, &d) != 0)
            continue;
        SCT_CHECK_MSG(d.hits > d.pixels / 20, "%s: only %llu hit pixels", what, (unsigned long long)d.hits);
        SCT_CHECK_MSG(d.wrong == 0, "%s: %llu wrong pixels (%llu holes), %llu ties", what,
                      (unsigned long long)d.wrong, (unsigned long long)d.holes, (unsigned long long)d.ties);
    }
    sc_renderer_destroy(twin);
    sc_renderer_destroy(r);
}

void dense_check_model(sc_backend backend, const char *file, uint32_t levels, uint32_t w, uint32_t h,
                       const float *times, uint32_t num_times)
{
    sc_mesh m;
    const int rc = dense_scene_load(file, levels, &m);
    char name[160];
    if (rc == 77) {
        snprintf(name, sizeof name, "%s not found (SLABCAST_MODELS, ../shared/models, out/models)", file);
        sct_skip(name);
        return;
    }
    if (rc != 0) return;
    snprintf(name, sizeof name, "%s subdivided %u times", file, levels);
    dense_check_frames(backend, &m, w, h, times, num_times, name);
    sc_mesh_free(&m);
}
