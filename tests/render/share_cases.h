/* share_cases.h - what the sort-last tests (CPU and CUDA backends) share: a mesh cut into shares
 * (sc_mesh_share_make's even cuts, and interleaved shares with the whole mesh's triangle ids), one
 * renderer per share, their hits composited (sc_hits_composite) and compared with the hits of one
 * renderer given the whole mesh, bit for bit (triangle, depth, u, v), over deforming frames. */
#ifndef SC_SHARE_CASES_H
#define SC_SHARE_CASES_H

#include <stdint.h>

#include "sc_mesh.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cut: even (sc_mesh_share_make) or interleaved (share k: the triangles t with t % parts == k,
 * every vertex of the mesh, the ids given). */
typedef enum { SHARE_EVEN, SHARE_INTERLEAVED } share_cut;

typedef struct share_case {
    const char *what;
    uint32_t width, height;
    uint32_t parts;
    share_cut cut;
    int cull_back_faces;
    int deform;                    /* twist and wave */
} share_case;

/* Renders m whole and in shares on `backend`, two frames; each composite must equal the whole
 * renderer's hits (test failures are recorded; the number of hit pixels must be > 0). */
void share_check(sc_backend backend, const sc_mesh *m, const share_case *c);

/* The cases: the knot (several cuts, culling on and off, a mesh of two triangles in more shares
 * than triangles), and the shared models when present (skipped otherwise) at `model_size`. */
void share_cases_knot(sc_backend backend);
void share_cases_model(sc_backend backend, const char *file, uint32_t width, uint32_t height, uint32_t parts);

#ifdef __cplusplus
}
#endif
#endif /* SC_SHARE_CASES_H */
