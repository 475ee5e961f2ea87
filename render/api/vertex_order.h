/* vertex_order.h - the renderer's internal vertex order of a mesh (sc_renderer_desc.vertex_order;
 * internal to api/): the permutation of the caller's vertices and the mesh renumbered by it, which
 * sc_renderer_set_mesh hands to the backend. The caller never sees the internal order: the backends
 * take and give vertex-indexed arrays in the caller's order through the permutation. */
#ifndef SC_VERTEX_ORDER_H
#define SC_VERTEX_ORDER_H

#include <stdint.h>

#include "slabcast.h"

/* A mesh in the renderer's vertex order. new_of_old NULL: the internal order is the caller's (the
 * option keeps it, or the caller's order already is the first-use order) and the mesh is the
 * caller's own arrays; else every array here is this struct's (host memory, freed by
 * sc_vertex_order_free). */
typedef struct sc_vertex_order_mesh {
    sc_mesh_data mesh;             /* the mesh the backend gets */
    uint32_t *new_of_old;          /* per caller vertex: its index in the internal order */
    float *positions;              /* the permuted positions (vertex_count x 3) */
    uint32_t *indices;             /* the renumbered indices (triangle_count x 3) */
} sc_vertex_order_mesh;

/* The first-use order of mesh m (indices checked by the caller): the vertices numbered in the order
 * the triangles' corners first use them, those no triangle uses last in their order; triangles and
 * their corner order unchanged. O(vertices + triangles). OUT_OF_MEMORY (with a message naming call
 * and the bytes) when the host has no room for the permutation and the copy. */
sc_status sc_vertex_order_make(const sc_mesh_data *m, sc_vertex_order order, const char *call,
                               sc_vertex_order_mesh *out);
void sc_vertex_order_free(sc_vertex_order_mesh *v);

#endif /* SC_VERTEX_ORDER_H */
