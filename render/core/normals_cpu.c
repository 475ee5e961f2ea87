/* normals_cpu.c - the vertex -> triangle adjacency (the one-rings) and smooth vertex normals over it
 * on the host: sc_vertex_normal (vertex_normal.h) per vertex, in parallel. */
#include <string.h>

#include "cpu_parallel.h"
#include "normals_cpu.h"
#include "render_tuning.h"

void sc_vertex_adjacency(const uint32_t *idx, uint32_t num_vertices, uint32_t num_triangles, uint32_t *adj_offsets,
                         uint32_t *adj_tris)
{
    const size_t t3 = 3 * (size_t)num_triangles;
    /* Counts, then their inclusive sums: adj_offsets[v] = the end of v's triangles. Filled from the
     * last corner back, each vertex's end moves down to its start, and its triangles come out in
     * triangle order. */
    memset(adj_offsets, 0, sizeof(uint32_t) * ((size_t)num_vertices + 1));
    for (size_t i = 0; i < t3; ++i) adj_offsets[idx[i]] += 1;
    for (uint32_t v = 1; v < num_vertices; ++v) adj_offsets[v] += adj_offsets[v - 1];
    for (size_t i = t3; i-- > 0;) adj_tris[--adj_offsets[idx[i]]] = (uint32_t)(i / 3);
    adj_offsets[num_vertices] = (uint32_t)t3;
}

typedef struct normals_ctx {
    const sc_mesh_rings *m;
    const uint32_t *new_of_old;
    uint32_t num_vertices;
    float *out;
} normals_ctx;

static void normals_chunk(void *arg, uint32_t item, uint32_t worker)
{
    (void)worker;
    const normals_ctx *c = arg;
    uint32_t v0 = item * SC_CPU_NORMALS_PER_TASK, v1 = v0 + SC_CPU_NORMALS_PER_TASK;
    if (v1 > c->num_vertices) v1 = c->num_vertices;
    for (uint32_t v = v0; v < v1; ++v)
        sc_vertex_normal(c->m, c->new_of_old ? c->new_of_old[v] : v, c->out + 3 * (size_t)v);
}

void sc_cpu_vertex_normals(const sc_mesh_rings *m, uint32_t num_vertices, const uint32_t *new_of_old,
                           uint32_t num_threads, float *out)
{
    normals_ctx c = {m, new_of_old, num_vertices, out};
    const uint32_t items = num_vertices / SC_CPU_NORMALS_PER_TASK + (num_vertices % SC_CPU_NORMALS_PER_TASK != 0);
    sc_cpu_parallel_for(num_threads, items, normals_chunk, &c);
}
