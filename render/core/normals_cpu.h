/* normals_cpu.h - the mesh's one-rings and smooth vertex normals on the host (normals_cpu.c), for
 * both backends (internal): the vertex -> triangle adjacency built at set_mesh (the CPU backend
 * keeps it for shading, the CUDA backend uploads it), the rest normals the deformers move along, and
 * the CPU backend's on-demand read of a frame's normals. Every normal is sc_vertex_normal
 * (vertex_normal.h), the function both backends shade with. */
#ifndef SC_NORMALS_CPU_H
#define SC_NORMALS_CPU_H

#include <stdint.h>

#include "vertex_normal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The vertex -> triangle adjacency of an indexed mesh (indices < num_vertices): adj_offsets
 * (num_vertices + 1 entries) and adj_tris (3 x num_triangles), per vertex its triangles in triangle
 * order, a triangle listed once per corner that uses the vertex. Serial, one pass to count and one
 * to fill; no memory besides the two arrays. */
void sc_vertex_adjacency(const uint32_t *indices, uint32_t num_vertices, uint32_t num_triangles, uint32_t *adj_offsets,
                         uint32_t *adj_tris);

/* The smooth normals (sc_vertex_normal) of the num_vertices vertices of m, on threads: out[v] is the
 * normal of vertex new_of_old[v] (NULL: of vertex v), so a mesh held in another vertex order gives
 * its normals in the caller's. */
void sc_cpu_vertex_normals(const sc_mesh_rings *m, uint32_t num_vertices, const uint32_t *new_of_old,
                           uint32_t num_threads, float *out);

#ifdef __cplusplus
}
#endif
#endif /* SC_NORMALS_CPU_H */
