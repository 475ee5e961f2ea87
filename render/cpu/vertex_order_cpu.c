/* vertex_order_cpu.c - the CPU backend's positions between the caller's vertex order and its own
 * (sc_backend_ops.h: the permutation new_of_old given at set_mesh): the caller's frame positions in,
 * this frame's positions out (read_positions, copy_positions), in parallel over vertex ranges. The
 * bytes move as they are (a NaN keeps its payload), so a round trip gives back the caller's floats. */
#include <string.h>

#include "backend_cpu.h"
#include "cpu_parallel.h"
#include "render_tuning.h"

typedef struct permute_ctx {
    const uint32_t *new_of_old;
    const float *from;
    float *to;
    uint32_t num_vertices;
    int to_caller;                 /* 0: to[new_of_old[v]] = from[v]; 1: to[v] = from[new_of_old[v]] */
} permute_ctx;

static void permute_chunk(void *arg, uint32_t item, uint32_t worker)
{
    (void)worker;
    const permute_ctx *c = arg;
    uint32_t v0 = item * SC_CPU_VERTICES_PER_TASK, v1 = v0 + SC_CPU_VERTICES_PER_TASK;
    if (v1 > c->num_vertices) v1 = c->num_vertices;
    for (uint32_t v = v0; v < v1; ++v) {
        const size_t in = 3 * (size_t)(c->to_caller ? c->new_of_old[v] : v);
        const size_t out = 3 * (size_t)(c->to_caller ? v : c->new_of_old[v]);
        memcpy(c->to + out, c->from + in, 3 * sizeof(float));
    }
}

static void permute(const sc_cpu_state *st, const float *from, float *to, int to_caller)
{
    const uint32_t n = st->num_vertices;
    if (n == 0) return;
    if (!st->new_of_old) {
        memcpy(to, from, 3 * sizeof(float) * (size_t)n);
        return;
    }
    permute_ctx c = {st->new_of_old, from, to, n, to_caller};
    sc_cpu_parallel_for(st->threads, (n + SC_CPU_VERTICES_PER_TASK - 1) / SC_CPU_VERTICES_PER_TASK, permute_chunk, &c);
}

void sc_cpu_positions_from_caller(sc_cpu_state *st, const float *caller)
{
    permute(st, caller, st->positions, 0);
}

void sc_cpu_positions_to_caller(const sc_cpu_state *st, float *out)
{
    permute(st, st->positions, out, 1);
}
