/* vertex_order_cases.h - what the vertex-order tests (CPU and CUDA backends) share: seeded meshes
 * whose caller numbering is far from the order the triangles first use the vertices (shuffled,
 * reversed, with unused vertices among the used ones, a non-finite unused vertex, triangles dropped
 * for a non-finite vertex), a reference of the first-use order, and the check that a renderer with
 * SC_VERTEX_ORDER_KEEP and one with the default (first-use) give the same bits: hits, images, shadow
 * masks, positions read and copied back, on deformed frames and on frames from caller positions. */
#ifndef SC_VERTEX_ORDER_CASES_H
#define SC_VERTEX_ORDER_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "sc_mesh.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    VO_SCENE_COUNT = 5,            /* the small scenes, 0 .. VO_SCENE_COUNT - 1 */
    VO_SCENE_IN_ORDER = 4,         /* the scene already in first-use order */
    VO_SCENE_LARGE = VO_SCENE_COUNT /* more vertices than the CUDA backend's read staging holds */
};

/* Scene k (0 .. VO_SCENE_LARGE) from the seed into *out (free with sc_mesh_free); *name its name.
 * Returns 0, or -1 (reported) when it cannot be built. */
int vo_scene_make(int k, uint64_t seed, sc_mesh *out, const char **name);

/* The first-use order of a mesh (indices in range), written plainly: per caller vertex, its index
 * in the order the triangles' corners first use the vertices, unused ones after them in their order. */
void vo_first_use_ref(const sc_mesh_data *m, uint32_t *new_of_old);

/* Memory of a backend (host for the CPU backend, device for CUDA) as the check needs it. */
typedef struct vo_memory {
    void *(*alloc)(size_t bytes);
    void (*release)(void *p);
    int (*to_host)(void *host, const void *src, size_t bytes);   /* 0: done */
    int (*from_host)(void *dst, const void *host, size_t bytes); /* 0: done */
} vo_memory;

/* Renders the mesh with two renderers of `backend`, SC_VERTEX_ORDER_KEEP and the default, over the
 * same frames (deformed, in the normals view; shaded with a shadowing light; from caller positions)
 * and checks that every output is the same, bit for bit, and that positions read or copied back are
 * in the caller's order (the caller's own bits on a frame from caller positions). sctest failures
 * name the scene. */
void vo_check_scene(sc_backend backend, const vo_memory *mem, const sc_mesh *mesh, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* SC_VERTEX_ORDER_CASES_H */
