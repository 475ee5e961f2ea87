/* normals_cases.h - what the smooth-normals tests (CPU and CUDA backends) share: a seeded mesh of
 * an awkward size with every kind of vertex the smooth normals meet (non-manifold ones: fins on
 * edges shared by three triangles, fans touching at one vertex; isolated vertices; degenerate
 * triangles: a corner repeated, all three corners one vertex, collinear corners, opposite windings
 * that cancel; non-finite ones: a NaN or infinite vertex, a face normal that overflows, a sum whose
 * length overflows), vertices and triangles in a seeded shuffled order; the per-vertex normals as
 * the renderer computed them in a stage of their own before shading took them over (a plain serial
 * pass over the triangles, kept here as the reference); and the check of a renderer's frame against
 * it, bit for bit: sc_renderer_testing_read_normals, and every hit pixel of the normals view
 * (shaded from the reference normals as sc_shade_pixel shaded them from the per-vertex array). */
#ifndef SC_NORMALS_CASES_H
#define SC_NORMALS_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "sc_mesh.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { NC_W = 200, NC_H = 152 };

/* The mesh of the seed into *out (free with sc_mesh_free). Returns 0, or -1 (reported). */
int nc_mesh_make(uint64_t seed, sc_mesh *out);

/* The reference: the smooth normals the renderer's normals stage computed, written plainly: each
 * triangle's face normal (e1 x e2), when finite, added to its three corners in triangle order, then
 * each sum normalised, (0, 0, 0) when its length is zero or not finite. */
void nc_reference_normals(const float *positions, uint32_t num_vertices, const uint32_t *indices,
                          uint32_t num_triangles, float *out);

/* The mesh's positions moved (a frame's caller positions): every vertex with finite coordinates
 * near the grid jittered by a seeded amount, the others as they are. */
void nc_moved_positions(const sc_mesh *m, uint64_t seed, float *out);

/* A renderer of backend (NC_W x NC_H, 2 host threads) holding the mesh in `order`, its camera on the
 * grid, smooth shading in the normals view; NULL (reported) on failure. */
sc_renderer *nc_renderer(sc_backend backend, const sc_mesh *m, sc_vertex_order order);

/* Checks r's last frame, whose image (host copy) is img: the normals read back and every hit pixel
 * against the reference over the frame's positions, bit for bit; the normals stage's time is 0. */
void nc_check_frame(sc_renderer *r, const sc_mesh *m, const uint8_t *img, const char *what);

#ifdef __cplusplus
}
#endif

#endif /* SC_NORMALS_CASES_H */
