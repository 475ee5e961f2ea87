/* vertex_normal.h - the smooth normal of a vertex, the one function both backends compute it with
 * (internal): at shade time for the three vertices of a hit triangle (shade.h), for the rest normals
 * the deformers move along (normals_cpu.c), and on demand for the test-only read of a frame's normals.
 *
 * The normal of vertex v is the sum of the unnormalised face normals (e1 x e2, e1 = b - a,
 * e2 = c - a) of its triangles, in the order of the vertex -> triangle adjacency (the one-rings,
 * sc_mesh_rings: per vertex its triangles in triangle order, a triangle that uses the vertex twice
 * listed twice), a face normal with a non-finite component left out, normalised; (0, 0, 0) when the
 * sum is zero or not finite (an isolated vertex, only degenerate or non-finite triangles). This is
 * exactly what a serial pass over the triangles in order, adding each face normal to its three
 * corners, accumulates per vertex, so the result is one function of the positions, the indices and
 * the vertex. Plain float operations (the CUDA backend is compiled with --fmad=false, the C in ISO
 * mode, -std=c11, which leaves contraction off), so both backends give the same bits. */
#ifndef SC_VERTEX_NORMAL_H
#define SC_VERTEX_NORMAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "sc_hd.h"

/* A mesh with its one-rings: what the smooth normals are computed from (the backend's memory). */
typedef struct sc_mesh_rings {
    const uint32_t *adj_offsets;   /* per vertex + 1: the first entry of its triangles in adj_tris */
    const uint32_t *adj_tris;      /* 3 x triangles: per vertex its triangles, in triangle order */
    const uint32_t *indices;       /* 3 x triangles */
    const float *positions;        /* 3 x vertices: this frame's (or the rest) positions */
} sc_mesh_rings;

/* The unnormalised face normal of triangle f (three vertex indices) over positions pos. */
SC_HD static inline void sc_face_normal(const float *pos, const uint32_t *f, float n[3])
{
    const float *a = pos + 3 * (size_t)f[0], *b = pos + 3 * (size_t)f[1], *c = pos + 3 * (size_t)f[2];
    const float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

/* The smooth normal of vertex v (see the top of this file). */
SC_HD static inline void sc_vertex_normal(const sc_mesh_rings *m, uint32_t v, float out[3])
{
    float o[3] = {0.0f, 0.0f, 0.0f};
    for (uint32_t j = m->adj_offsets[v], end = m->adj_offsets[v + 1]; j < end; ++j) {
        float n[3];
        sc_face_normal(m->positions, m->indices + 3 * (size_t)m->adj_tris[j], n);
        if (!isfinite(n[0]) || !isfinite(n[1]) || !isfinite(n[2])) continue;
        o[0] += n[0]; o[1] += n[1]; o[2] += n[2];
    }
    const float l = sqrtf(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    if (l > 0.0f && isfinite(l)) {
        out[0] = o[0] / l; out[1] = o[1] / l; out[2] = o[2] / l;
    } else {
        out[0] = out[1] = out[2] = 0.0f;
    }
}

#endif /* SC_VERTEX_NORMAL_H */
