/* project_cpu.c - projection and classification of every triangle (tile count and depth key,
 * classify.h), then the frame's depth range by a min / max reduction over visible triangles. */
#include <math.h>

#include "backend_cpu.h"
#include "classify.h"
#include "cpu_parallel.h"
#include "render_tuning.h"

typedef struct project_ctx {
    sc_cpu_state *st;
    const sc_frame_params *p;
} project_ctx;

static void project_chunk(void *arg, uint32_t item, uint32_t worker)
{
    (void)worker;
    project_ctx *c = arg;
    const sc_frame_params *p = c->p;
    sc_cpu_state *st = c->st;
    uint32_t t0 = item * SC_CPU_TRIANGLES_PER_TASK, t1 = t0 + SC_CPU_TRIANGLES_PER_TASK;
    if (t1 > p->num_triangles) t1 = p->num_triangles;
    for (uint32_t t = t0; t < t1; ++t) {
        const uint32_t *f = st->indices + 3 * (size_t)t;
        sc_tri_setup s;
        uint32_t count = 0;
        float key = INFINITY;
        if (sc_tri_classify(p, st->positions + 3 * (size_t)f[0], st->positions + 3 * (size_t)f[1],
                            st->positions + 3 * (size_t)f[2], &s)) {
            count = sc_tri_tile_count(p, &s);
            if (count > 0) key = s.depth_key;
        }
        st->tri_tiles[t] = count;
        st->tri_keys[t] = key;
    }
}

static uint32_t num_chunks(uint32_t n) { return (n + SC_CPU_TRIANGLES_PER_TASK - 1) / SC_CPU_TRIANGLES_PER_TASK; }

void sc_cpu_project(sc_cpu_state *st, const sc_frame_params *p)
{
    project_ctx c = {st, p};
    sc_cpu_parallel_for(st->threads, num_chunks(p->num_triangles), project_chunk, &c);
}

typedef struct reduce_ctx {
    const sc_cpu_state *st;
    uint32_t num_triangles;
    float lo[SC_CPU_MAX_THREADS], hi[SC_CPU_MAX_THREADS];
    uint64_t visible[SC_CPU_MAX_THREADS];
} reduce_ctx;

static void reduce_chunk(void *arg, uint32_t item, uint32_t worker)
{
    reduce_ctx *c = arg;
    uint32_t t0 = item * SC_CPU_TRIANGLES_PER_TASK, t1 = t0 + SC_CPU_TRIANGLES_PER_TASK;
    if (t1 > c->num_triangles) t1 = c->num_triangles;
    float lo = c->lo[worker], hi = c->hi[worker];
    uint64_t vis = 0;
    for (uint32_t t = t0; t < t1; ++t) {
        if (c->st->tri_tiles[t] == 0) continue;
        float k = c->st->tri_keys[t];
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
        ++vis;
    }
    c->lo[worker] = lo;
    c->hi[worker] = hi;
    c->visible[worker] += vis;
}

void sc_cpu_reduce_depth(const sc_cpu_state *st, const sc_frame_params *p, float *depth_min, float *depth_max,
                         uint64_t *visible)
{
    reduce_ctx c;
    c.st = st;
    c.num_triangles = p->num_triangles;
    for (int i = 0; i < SC_CPU_MAX_THREADS; ++i) {
        c.lo[i] = INFINITY;
        c.hi[i] = -INFINITY;
        c.visible[i] = 0;
    }
    sc_cpu_parallel_for(st->threads, num_chunks(p->num_triangles), reduce_chunk, &c);
    float lo = INFINITY, hi = -INFINITY;
    uint64_t vis = 0;
    for (int i = 0; i < SC_CPU_MAX_THREADS; ++i) {
        lo = c.lo[i] < lo ? c.lo[i] : lo;
        hi = c.hi[i] > hi ? c.hi[i] : hi;
        vis += c.visible[i];
    }
    if (vis == 0) lo = hi = p->near_plane; /* empty frame: any range */
    *depth_min = lo;
    *depth_max = hi;
    *visible = vis;
}
