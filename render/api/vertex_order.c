/* vertex_order.c - the renderer's first-use vertex order (vertex_order.h): a permutation of the
 * caller's vertices computed at sc_renderer_set_mesh, and the mesh renumbered by it for the backend,
 * so that the stages that walk a vertex's triangles read the positions nearly in order. It never
 * changes the caller's arrays. */
#include "vertex_order.h"

#include <stdlib.h>
#include <string.h>

#include "sc_report.h"
#include "sizes.h"

void sc_vertex_order_free(sc_vertex_order_mesh *v)
{
    free(v->new_of_old);
    free(v->positions);
    free(v->indices);
    memset(v, 0, sizeof *v);
}

/* new_of_old of the first-use order; returns whether it is the identity. */
static int first_use(const sc_mesh_data *m, uint32_t *new_of_old)
{
    const uint32_t V = m->vertex_count;
    const size_t corners = 3 * (size_t)m->triangle_count;
    memset(new_of_old, 0xFF, (size_t)V * sizeof *new_of_old);
    uint32_t next = 0;
    for (size_t i = 0; i < corners; ++i) {
        const uint32_t v = m->indices[i];
        if (new_of_old[v] == UINT32_MAX) new_of_old[v] = next++;
    }
    for (uint32_t v = 0; v < V; ++v) /* unused vertices last, in their order */
        if (new_of_old[v] == UINT32_MAX) new_of_old[v] = next++;
    for (uint32_t v = 0; v < V; ++v)
        if (new_of_old[v] != v) return 0;
    return 1;
}

sc_status sc_vertex_order_make(const sc_mesh_data *m, sc_vertex_order order, const char *call,
                               sc_vertex_order_mesh *out)
{
    memset(out, 0, sizeof *out);
    out->mesh = *m;
    if (order == SC_VERTEX_ORDER_KEEP || m->vertex_count == 0) return SC_OK;
    const size_t V = m->vertex_count, corners = 3 * (size_t)m->triangle_count;
    size_t perm_bytes, pos_bytes, idx_bytes, total;
    if (!sc_size_mul(V, sizeof(uint32_t), &perm_bytes) || !sc_size_mul(3 * V, sizeof(float), &pos_bytes) ||
        !sc_size_mul(corners, sizeof(uint32_t), &idx_bytes) || !sc_size_add(perm_bytes, pos_bytes, &total) ||
        !sc_size_add(total, idx_bytes, &total))
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                       "%s: the first-use vertex order of %u vertices and %u triangles needs more bytes than a size_t "
                       "holds; set sc_renderer_desc.vertex_order = SC_VERTEX_ORDER_KEEP",
                       call, m->vertex_count, m->triangle_count);
    char need[32];
    out->new_of_old = malloc(perm_bytes);
    if (!out->new_of_old)
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                       "%s: out of host memory for the first-use vertex order of %u vertices (%s for the permutation "
                       "and the renumbered copy of the mesh); set sc_renderer_desc.vertex_order = "
                       "SC_VERTEX_ORDER_KEEP or free host memory",
                       call, m->vertex_count, sc_format_bytes((double)total, need, sizeof need));
    if (first_use(m, out->new_of_old)) { /* already in that order: the caller's arrays as they are */
        sc_vertex_order_free(out);
        out->mesh = *m;
        return SC_OK;
    }
    out->positions = malloc(pos_bytes);
    out->indices = malloc(idx_bytes ? idx_bytes : 1);
    if (!out->positions || !out->indices) {
        sc_vertex_order_free(out);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                       "%s: out of host memory for the first-use vertex order of %u vertices and %u triangles (%s for "
                       "the permutation and the renumbered copy of the mesh); set sc_renderer_desc.vertex_order = "
                       "SC_VERTEX_ORDER_KEEP or free host memory",
                       call, m->vertex_count, m->triangle_count, sc_format_bytes((double)total, need, sizeof need));
    }
    for (size_t v = 0; v < V; ++v) /* bytes as given: a NaN's payload stays */
        memcpy(out->positions + 3 * (size_t)out->new_of_old[v], m->positions + 3 * v, 3 * sizeof(float));
    for (size_t i = 0; i < corners; ++i) out->indices[i] = out->new_of_old[m->indices[i]];
    out->mesh.positions = out->positions;
    out->mesh.indices = out->indices;
    return SC_OK;
}
