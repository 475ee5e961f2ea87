/* normals_cpu.h - smooth vertex normals on the host (normals_cpu.c), for the CPU backend's frames
 * and for the rest normals both backends deform along (internal). */
#ifndef SC_NORMALS_CPU_H
#define SC_NORMALS_CPU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Area-weighted smooth vertex normals of an indexed mesh. Vertices on no (non-degenerate) triangle
 * get (0, 0, 0). Accumulated serially in triangle order (deterministic), normalised on threads. */
void sc_cpu_vertex_normals(const float *positions, uint32_t num_vertices, const uint32_t *indices,
                           uint32_t num_triangles, uint32_t num_threads, float *normals);

#ifdef __cplusplus
}
#endif
#endif /* SC_NORMALS_CPU_H */
