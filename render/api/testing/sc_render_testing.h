/* testing/sc_render_testing.h - test-only views of a renderer's state, for the renderer's own tests
 * (tests/render). Not part of the public API: not installed, no stability promise. Each function
 * copies or points at what the front end or the backend holds; none changes the renderer. */
#ifndef SC_RENDER_TESTING_H
#define SC_RENDER_TESTING_H

#include <stdint.h>

#include "sc_backend_ops.h"
#include "sc_frame.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Nonzero when a renderer of this backend can be created here (CPU: always; CUDA: built, and a
 * device is present). */
int sc_renderer_testing_backend_available(sc_backend backend);

/* The frame layout of the next frame (grid, camera, options, mesh counts), with the depth range of
 * the last frame rendered (CUDA: waits for it, as sc_renderer_stats does). */
void sc_renderer_testing_frame_params(const sc_renderer *r, sc_frame_params *out);

/* The rest mesh's bounding-box centre and bounding radius (the deformation's C and R). */
void sc_renderer_testing_mesh_bounds(const sc_renderer *r, float center[3], float *radius);

/* The shading in force, defaults resolved. */
void sc_renderer_testing_shading(const sc_renderer *r, sc_shading_desc *out);

/* The backend's buffers of the last frame (sc_backend_buffers: backend memory, NULL where the
 * backend has none), valid until the next call on the renderer. */
sc_status sc_renderer_testing_buffers(const sc_renderer *r, sc_backend_buffers *out);

/* The smooth vertex normals of this frame's positions (3 floats a vertex, host memory, the caller's
 * vertex order): sc_vertex_normal (render/core/vertex_normal.h) of every vertex, computed in the
 * call by the backend (CUDA: a kernel over the vertices, after the frames enqueued; waits), the same
 * function the backends shade with at the hit pixels. Before any frame: of the rest pose.
 * INVALID_ARGUMENT: NULL, or no mesh set. */
sc_status sc_renderer_testing_read_normals(const sc_renderer *r, float *out);

#ifdef __cplusplus
}
#endif
#endif /* SC_RENDER_TESTING_H */
