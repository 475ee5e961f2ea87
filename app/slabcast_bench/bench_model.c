/* bench_model.c - reading, fitting and subdividing the sweep's models. */
#include "bench_model.h"

#include <stdio.h>
#include <string.h>

#include "sc_status.h"

void bench_model_init(bench_model *m)
{
    memset(m, 0, sizeof *m);
    m->model = -1;
}

void bench_model_free(bench_model *m)
{
    sc_mesh_free(&m->base);
    sc_mesh_free(&m->mesh);
    bench_model_init(m);
}

/* The library's last message after a context; returns -1. */
static int fail_library(const char *context, char *why, size_t why_size)
{
    const char *msg = sc_last_error();
    if (!msg[0]) msg = "failed (no reason was given)";
    snprintf(why, why_size, "%s: %s", context, msg);
    return -1;
}

/* Reads the file (or builds the built-in mesh) into m->base and fits it: a model outside float's
 * comfortable range is moved in place, as the slabcast program does, and said once on stderr. */
static int read_base(bench_model *m, uint32_t resolution, char *why, size_t why_size)
{
    if (!m->path) {
        if (sc_mesh_default(resolution, &m->base) != SC_OK) return fail_library("--resolution", why, why_size);
    } else {
        sc_mesh_report rep;
        if (sc_mesh_load_file(m->path, NULL, &m->base, &rep) != SC_OK) {
            snprintf(why, why_size, "%s", sc_last_error()[0] ? sc_last_error() : "loading failed");
            return -1;
        }
    }
    app_orbit orbit;
    app_fit fit;
    app_fit_mesh(m->base.positions, m->base.vertex_count, m->base.indices, m->base.triangle_count, &orbit, &fit);
    if (fit.moved)
        fprintf(stderr, "slabcast-bench: %s: the model (radius %.3g) is outside float's comfortable range; it is "
                        "rendered moved to the origin and scaled by 2^%d\n",
                m->path ? m->path : "built-in mesh", fit.radius, fit.scale_log2);
    return 0;
}

/* Refuses a subdivision past the loader's default triangle limit before any memory is spent. */
static int check_subdivision(uint32_t triangles, uint32_t levels, char *why, size_t why_size)
{
    uint64_t limit = SC_MESH_DEFAULT_MAX_TRIANGLES;
    /* 2^32 x 4^15 fits in 64 bits; more levels are over any limit anyway. */
    uint64_t t = (uint64_t)triangles << (2 * (levels > 15 ? 15 : levels));
    if (t <= limit) return 0;
    snprintf(why, why_size, "--subdivide %u: %u triangles would become %llu, over the limit of %llu triangles",
             levels, triangles, (unsigned long long)t, (unsigned long long)limit);
    return -1;
}

/* m->mesh: the base subdivided `levels` times, framed. */
static int make_level(bench_model *m, uint32_t levels, char *why, size_t why_size)
{
    sc_mesh_free(&m->mesh);
    m->has_mesh = 0;
    if (check_subdivision(m->base.triangle_count, levels, why, why_size) != 0) return -1;
    if (sc_mesh_subdivide_midpoint(&m->base, levels, &m->mesh) != SC_OK)
        return fail_library("--subdivide", why, why_size);
    app_fit_mesh(m->mesh.positions, m->mesh.vertex_count, m->mesh.indices, m->mesh.triangle_count, &m->orbit, NULL);
    m->subdivide = levels;
    m->has_mesh = 1;
    return 0;
}

int bench_model_prepare(bench_model *m, int model, const char *path, uint32_t resolution, uint32_t subdivide,
                        char *why, size_t why_size)
{
    if (m->model != model) {
        bench_model_free(m);
        m->model = model;
        m->path = path;
        if (read_base(m, resolution, m->error, sizeof m->error) != 0) m->failed = 1;
    }
    if (m->failed) {
        snprintf(why, why_size, "%s", m->error);
        return -1;
    }
    if (m->has_mesh && m->subdivide == subdivide) return 0;
    return make_level(m, subdivide, why, why_size);
}
