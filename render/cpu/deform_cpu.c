/* deform_cpu.c - the deform stage of the CPU backend: this frame's positions from the rest pose
 * (sc_deform_vertex per vertex, in parallel), or the caller's positions (taken into the backend's
 * vertex order, vertex_order_cpu.c). */
#include <string.h>

#include "backend_cpu.h"
#include "cpu_parallel.h"
#include "render_tuning.h"

typedef struct deform_ctx {
    sc_cpu_state *st;
    const sc_deform_eval *e;
    uint32_t num_vertices;
} deform_ctx;

static void deform_chunk(void *arg, uint32_t item, uint32_t worker)
{
    (void)worker;
    deform_ctx *c = arg;
    uint32_t v0 = item * SC_CPU_VERTICES_PER_TASK, v1 = v0 + SC_CPU_VERTICES_PER_TASK;
    if (v1 > c->num_vertices) v1 = c->num_vertices;
    for (uint32_t v = v0; v < v1; ++v)
        sc_deform_vertex(c->e, c->st->rest_positions + 3 * (size_t)v, c->st->rest_normals + 3 * (size_t)v,
                         c->st->positions + 3 * (size_t)v);
}

void sc_cpu_deform(sc_cpu_state *st, const sc_frame_params *p, const sc_deform_eval *e, const float *external)
{
    size_t bytes = sizeof(float) * 3 * (size_t)p->num_vertices;
    if (bytes == 0) {
        return;
    } else if (external) {
        sc_cpu_positions_from_caller(st, external);
    } else if (e->effects == 0) {
        memcpy(st->positions, st->rest_positions, bytes);
    } else {
        deform_ctx c = {st, e, p->num_vertices};
        sc_cpu_parallel_for(st->threads, (p->num_vertices + SC_CPU_VERTICES_PER_TASK - 1) / SC_CPU_VERTICES_PER_TASK, deform_chunk, &c);
    }
}
