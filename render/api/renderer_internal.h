/* renderer_internal.h - the renderer object and the backend interface (internal).
 * renderer.c validates arguments, resolves defaults, keeps the frame layout (sc_frame_params) and
 * dispatches to a backend: sc_backend_cpu_* here (backend_cpu.c), sc_backend_cuda_* later, each
 * running the same stages over the same grid with the same rules. */
#ifndef SC_RENDERER_INTERNAL_H
#define SC_RENDERER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "deform.h"
#include "sc_frame.h"
#include "slabcast.h"

struct sc_cpu_state;
struct sc_cuda_state;

struct sc_renderer {
    sc_backend backend;
    sc_renderer_desc desc;         /* defaults resolved */
    sc_frame_params params;        /* grid + camera; depth range filled per frame */
    sc_camera_desc camera;         /* defaults resolved */
    int camera_set;                /* 0: a default view of the mesh */
    sc_deform_desc deform;
    sc_shading_desc shading;       /* defaults resolved */
    int has_mesh;
    float mesh_center[3];          /* rest bounding-box centre */
    float mesh_radius;             /* rest bounding radius about the centre (> 0) */
    size_t ref_capacity;           /* current reference buffer size */
    sc_frame_stats stats;
    struct sc_cpu_state *cpu;
    struct sc_cuda_state *cuda;
};

/* The most (triangle, tile) references a frame may have: reference offsets are 32-bit. */
#define SC_MAX_REF_CAPACITY ((size_t)UINT32_MAX - 1)

/* Overflow-checked size arithmetic: 0 (and *out untouched) when the result does not fit a size_t. */
static inline int sc_size_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return 0;
    *out = a * b;
    return 1;
}
static inline int sc_size_add(size_t a, size_t b, size_t *out)
{
    if (b > SIZE_MAX - a) return 0;
    *out = a + b;
    return 1;
}

/* Bytes as "16.0 GiB" (buf of at least 32 chars), for messages about memory. */
const char *sc_format_bytes(double bytes, char *buf, size_t size);

/* Host: the deformation of this frame as per-vertex constants (deform_eval.c). */
void sc_deform_evaluate(const sc_deform_desc *desc, const float center[3], float radius, float time,
                        sc_deform_eval *out);

/* Host: area-weighted smooth vertex normals of an indexed mesh (normals_cpu.c). Vertices on no
 * (non-degenerate) triangle get (0, 0, 0). */
void sc_cpu_vertex_normals(const float *positions, uint32_t num_vertices, const uint32_t *indices,
                           uint32_t num_triangles, uint32_t num_threads, float *normals);

/* Monotonic clock in milliseconds. */
double sc_now_ms(void);

/* ---- CPU backend (backend_cpu.c) ---- */
sc_status sc_backend_cpu_create(sc_renderer *r);
void sc_backend_cpu_destroy(sc_renderer *r);
sc_status sc_backend_cpu_set_mesh(sc_renderer *r, const sc_mesh_data *mesh);
sc_status sc_backend_cpu_resize(sc_renderer *r);               /* after r->params changed size */
/* One attempt at a frame: SC_ERROR_CAPACITY (not reported) when the references overflowed, with
 * *refs_needed set; the caller grows with sc_backend_cpu_reserve and retries. */
sc_status sc_backend_cpu_render(sc_renderer *r, const sc_frame_desc *frame, size_t *refs_needed);
sc_status sc_backend_cpu_reserve(sc_renderer *r, size_t ref_capacity);
sc_status sc_backend_cpu_read_hits(const sc_renderer *r, sc_hit *out);
sc_status sc_backend_cpu_read_positions(const sc_renderer *r, float *out);

#endif /* SC_RENDERER_INTERNAL_H */
