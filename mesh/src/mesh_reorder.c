/* mesh_reorder.c - vertices renumbered in the order the triangles first use them (as meshoptimizer's
 * vertex-fetch optimisation does), so a pass over the triangles in order reads their vertices nearly
 * in order too. Triangles, their order and their corners' order are kept. */
#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sc_report.h"

sc_status sc_mesh_reorder_vertices(sc_mesh *m, uint32_t *old_of_new)
{
    if (!m || (m->triangle_count && !m->indices) || (m->vertex_count && !m->positions))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_reorder_vertices: NULL mesh");
    const uint32_t V = m->vertex_count;
    const size_t n = 3 * (size_t)m->triangle_count;
    for (size_t i = 0; i < n; ++i)
        if (m->indices[i] >= V)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_reorder_vertices: triangle %zu has vertex index %u >= %u",
                           i / 3, m->indices[i], V);
    uint32_t *new_of_old = malloc(((size_t)V + 1) * sizeof *new_of_old);
    float *pos = malloc(((size_t)V * 3 + 1) * sizeof *pos);
    if (!new_of_old || !pos) {
        free(new_of_old);
        free(pos);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_mesh_reorder_vertices: out of host memory for %u vertices", V);
    }
    memset(new_of_old, 0xFF, (size_t)V * sizeof *new_of_old);
    uint32_t next = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t v = m->indices[i];
        if (new_of_old[v] == UINT32_MAX) new_of_old[v] = next++;
        m->indices[i] = new_of_old[v];
    }
    for (uint32_t v = 0; v < V; ++v) /* unused vertices last, in their order */
        if (new_of_old[v] == UINT32_MAX) new_of_old[v] = next++;
    for (uint32_t v = 0; v < V; ++v) {
        memcpy(pos + 3 * (size_t)new_of_old[v], m->positions + 3 * (size_t)v, 3 * sizeof *pos);
        if (old_of_new) old_of_new[new_of_old[v]] = v;
    }
    memcpy(m->positions, pos, (size_t)V * 3 * sizeof *pos);
    free(pos);
    free(new_of_old);
    return SC_OK;
}
