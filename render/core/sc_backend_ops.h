/* sc_backend_ops.h - what a backend of the renderer is (internal): a table of functions over an
 * opaque state, which the front end (api/renderer.c) calls and which never calls the front end back.
 * The front end validates every argument, resolves every default and decides every capacity before
 * a call; a backend computes and returns its results (capacities, references needed, stats).
 *
 * A backend lives in a room of its own (cpu/, cuda/), includes only core/ headers besides its own,
 * and exports one table (sc_backend_cpu_ops, sc_backend_cuda_ops) that api/backend_registry.c
 * lists.
 *
 * Vertex order: a backend holds the mesh in the renderer's internal vertex order (the front end's
 * choice, sc_renderer_desc.vertex_order) and is given at set_mesh the permutation new_of_old (per
 * caller vertex, its internal index; NULL: the two orders are one). Every vertex-indexed array that
 * crosses the API is in the caller's order: the backend takes the caller's frame positions through
 * the permutation (positions[new_of_old[v]] = caller[v]) and gives read_positions and copy_positions
 * back through it (out[v] = positions[new_of_old[v]]). */
#ifndef SC_BACKEND_OPS_H
#define SC_BACKEND_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "deform.h"
#include "sc_frame.h"
#include "sc_status.h"
#include "shade.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a backend can do beyond the common calls (sc_backend_ops.caps). */
enum {
    SC_BACKEND_CAP_SYNCHRONOUS = 1u << 0, /* a frame is complete when render returns: its time on
                                             the host is its frame time */
    SC_BACKEND_CAP_SURFACE = 1u << 1,     /* writes CUDA surfaces (sc_frame_desc.surface) */
    SC_BACKEND_CAP_RADIX_BINNING = 1u << 2 /* builds the grid by radix sort (SC_BINNING_RADIX_SORT) */
};

/* Creation inputs, resolved by the front end. */
typedef struct sc_backend_config {
    sc_frame_params grid;          /* target and grid sizes (the camera fields are not used) */
    uint32_t num_threads;          /* host worker threads, 1 .. SC_CPU_MAX_THREADS */
    size_t host_memory_limit;      /* bytes the backend's host buffers may take */
    cudaStream_t stream;           /* the stream of every call (CUDA); NULL: the default stream */
    sc_binning binning;            /* how the grid is built (RADIX_SORT: only a backend with
                                      SC_BACKEND_CAP_RADIX_BINNING gets it) */
} sc_backend_config;

/* One frame's inputs, resolved by the front end. */
typedef struct sc_backend_frame {
    const sc_frame_params *params; /* grid, camera, cull and flat flags (depth range: the backend's) */
    /* shade->lights: the frame's lights; shade->shadow_lights > 0: a shadow pass for those with
     * lights[i].shadows (the contract of slabcast.h, grids of render/core/shadow.h). */
    const sc_deform_eval *deform;  /* this frame's deformation (unused when positions is set) */
    const float *positions;        /* the caller's deformed positions (backend memory, the caller's
                                      vertex order), or NULL */
    const sc_shade_params *shade;
    void *rgba;                    /* output image (backend memory), or NULL */
    size_t pitch;                  /* its bytes per row (resolved: never 0) */
    unsigned long long surface;    /* SC_BACKEND_CAP_SURFACE: a surface to write when rgba is NULL */
    int stage_times;               /* nonzero: time each stage (CUDA: event records between them) */
    uint64_t serial;               /* the frame's number (>= 1, increasing), returned by poll */
} sc_backend_frame;

/* A backend's intermediate buffers of the last frame, in its memory (host for the CPU backend,
 * device for CUDA), for tests (api/sc_render_testing.h); NULL where the backend has none. */
typedef struct sc_backend_buffers {
    const uint32_t *tri_tiles;     /* per triangle: tiles it is binned to (0: culled) */
    const float *tri_keys;         /* per triangle: depth key (+inf when binned to no tile) */
    const uint32_t *tile_offsets;  /* per tile + 1: first reference of the tile */
    const uint32_t *tests;         /* per pixel: ray-triangle tests */
    const uint32_t *shadow_tests;  /* per pixel: shadow-ray tests over all lights */
    const uint32_t *new_of_old;    /* per caller vertex: its internal index; NULL: the caller's order
                                      (the CPU backend's; the CUDA backend gives none) */
} sc_backend_buffers;

typedef struct sc_backend_ops {
    sc_backend kind;
    const char *name;
    unsigned caps;                 /* SC_BACKEND_CAP_* */
    /* Nonzero when create can succeed on this machine (CUDA: a device is present). */
    int (*available)(void);
    sc_status (*create)(const sc_backend_config *config, void **state);
    void (*destroy)(void *state);  /* NULL is ignored */
    /* The grid changed size; on failure the backend keeps the previous grid. */
    sc_status (*resize)(void *state, const sc_frame_params *grid);
    /* Copies the mesh, given in the internal vertex order (indices checked by the front end), and
     * the permutation new_of_old (vertex_count entries, host memory read during the call only; NULL:
     * the internal order is the caller's). */
    sc_status (*set_mesh)(void *state, const sc_mesh_data *mesh, const uint32_t *new_of_old);
    /* Grows the reference buffers to at least ref_capacity (<= SC_MAX_REF_CAPACITY); *capacity: what
     * the buffers hold afterwards (a backend may hold more than asked). */
    sc_status (*reserve)(void *state, size_t ref_capacity, size_t *capacity);
    /* Renders (or enqueues) one frame. SC_ERROR_CAPACITY (not reported): the references do not fit
     * the buffer; *refs_needed says how many, the front end grows (reserve) and calls again. */
    sc_status (*render)(void *state, const sc_backend_frame *frame, size_t *refs_needed);
    /* Waits for the frames in flight and returns the last one's stats: the stage times, frame_ms
     * (unless SYNCHRONOUS), the counters and the depth range; the front end fills the rest. */
    sc_status (*finish)(void *state, sc_frame_stats *out);
    /* Without waiting: the stats (as finish fills them) of the most recent frame that has finished,
     * and its sc_backend_frame.serial; *serial = 0 (and *out zero) when none has. The frames it may
     * return are the last SC_FRAME_RECORDS rendered (render_tuning.h). */
    sc_status (*poll)(void *state, sc_frame_stats *out, uint64_t *serial);
    /* Copies the hit buffer / this frame's positions (the caller's vertex order) to host memory. */
    sc_status (*read_hits)(void *state, sc_hit *out);
    sc_status (*read_positions)(void *state, float *out);
    /* For tests (sc_renderer_testing_read_normals): the smooth vertex normals of this frame's
     * positions (sc_vertex_normal, vertex_normal.h), computed in the call, into host memory in the
     * caller's vertex order. No frame computes them per vertex (shade computes the hit pixels'
     * own); CUDA: a kernel over the vertices after the frames enqueued, into a device buffer
     * allocated for the call and freed before it returns; waits. */
    sc_status (*read_normals)(void *state, float *out);
    /* Copies the last frame's shadow mask (a byte per pixel, bit i: in shadow for light i) to host
     * memory (zero when the frame had no shadow pass). */
    sc_status (*read_shadows)(void *state, uint8_t *out);
    /* Copies this frame's positions (the caller's vertex order) to the backend's memory (host for
     * CPU, device for CUDA), after the frames rendered: CPU in the call; CUDA device to device on the
     * renderer's stream, without waiting (sc_renderer_copy_positions). */
    sc_status (*copy_positions)(void *state, float *dst);
    sc_status (*buffers)(void *state, sc_backend_buffers *out);
    /* Fills info's available, unavailable_reason, buffer_memory, device_timed, worker_threads, device
     * and device_name (the front end fills the rest from kind and caps). */
    void (*describe)(sc_backend_info *info);
    /* Optional (NULL: UNSUPPORTED): measures the device's copy bandwidth and ray-triangle test rate
     * (sc_backend_measure_limits) with no renderer, allocating and freeing its buffers in the call.
     * num_threads: host worker threads (resolved by the front end: 1 .. SC_CPU_MAX_THREADS). Called
     * only when available() says the backend runs here. */
    sc_status (*measure_limits)(uint32_t num_threads, sc_device_limits *out);
    /* Optional (NULL: UNSUPPORTED): sort-last by hit keys (slabcast.h "Hit keys"). set_share: after
     * every set_mesh, the whole mesh's id of each triangle (ids: host memory, one per triangle, read
     * during the call; NULL: first + t) and the ids the renderer owns (owned_first .. owned_end - 1);
     * may allocate. The others run in backend memory after the frames rendered, on the renderer's
     * stream, with no wait and no allocation: hit_keys writes the last frame's per-pixel keys (owned
     * hits only), resolve_keys and shade_keys write the pixels whose winner the renderer owns
     * (shade_keys: with the last frame's camera, options and shading; background: the pixels without
     * a hit too). */
    sc_status (*set_share)(void *state, const uint32_t *ids, uint32_t first, uint32_t owned_first, uint32_t owned_end);
    sc_status (*hit_keys)(void *state, uint64_t *keys);
    sc_status (*resolve_keys)(void *state, const uint64_t *winners, sc_hit *hits);
    sc_status (*shade_keys)(void *state, const uint64_t *winners, void *rgba, size_t pitch, int background);
    /* Optional (NULL: UNSUPPORTED), no renderer, device memory of the current device, on stream s:
     * acc[i] = min(acc[i], part[i]) (keys); hits from keys (u = v = 0); per pixel of a width x height
     * image, part's packed RGBA8 word (width words a row) over acc's (pitch bytes a row) where part's
     * is not zero: an image that holds its owner's pixels (alpha 255: never zero) and zeros elsewhere,
     * copied over the image of the others whatever acc holds there. */
    sc_status (*keys_min)(uint64_t *acc, const uint64_t *part, uint64_t count, cudaStream_t s);
    sc_status (*hits_from_keys)(sc_hit *hits, const uint64_t *keys, uint64_t count, cudaStream_t s);
    sc_status (*pixels_over)(void *acc, size_t pitch, const uint32_t *part, uint32_t width, uint32_t height,
                            cudaStream_t s);
} sc_backend_ops;

#ifdef __cplusplus
}
#endif
#endif /* SC_BACKEND_OPS_H */
