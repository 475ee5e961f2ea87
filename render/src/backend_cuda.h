/* backend_cuda.h - the CUDA backend of the renderer (internal): the sc_backend_cuda_* interface that
 * renderer.c dispatches to (mirroring sc_backend_cpu_*), the backend's device state, and the stage
 * launchers of its .cu files (one stage per file: deform_cuda.cu, project_cuda.cu, bin_cuda.cu,
 * raycast_cuda.cu, shade_cuda.cu; backend_cuda.cu runs them).
 *
 * A frame is enqueued on the renderer's stream with no host wait and no allocation: deform,
 * normals, project (+ depth range and per-tile reference counts), scan of the tile counts (+ frame
 * totals), emit (each reference straight into its tile's range), slab split, ray cast, shade (the
 * reduce and tile split stages are fused into project and emit: bin_cuda.cu). Sizes that only the
 * device knows (the depth range, the number of references) stay in device memory (sc_cuda_globals)
 * and are read by the kernels that need them; the slab split reads the reference count there.
 *
 * Capacity: the scan kernel sets globals.overflow when the references exceed the buffer; then
 * emit, ray cast and shade do nothing. At the end of the frame one async copy brings the globals
 * (counters, depth range, overflow) into pinned host memory and an event is recorded; the host waits
 * on that one event after the whole frame has been enqueued, and only then decides: overflow means
 * SC_ERROR_CAPACITY with the needed size, renderer.c grows the buffer (the only allocation) and
 * redoes the frame. The same wait makes the per-stage event times readable. */
#ifndef SC_BACKEND_CUDA_H
#define SC_BACKEND_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "sc_frame.h"
#include "sc_status.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sc_renderer;

/* Nonzero when the CUDA runtime finds at least one device. */
int sc_backend_cuda_available(void);
sc_status sc_backend_cuda_create(struct sc_renderer *r);
void sc_backend_cuda_destroy(struct sc_renderer *r);
sc_status sc_backend_cuda_set_mesh(struct sc_renderer *r, const sc_mesh_data *mesh);
sc_status sc_backend_cuda_resize(struct sc_renderer *r);          /* after r->params changed size */
/* One attempt at a frame: SC_ERROR_CAPACITY (not reported) when the references overflowed, with
 * *refs_needed set; the caller grows with sc_backend_cuda_reserve and retries. */
sc_status sc_backend_cuda_render(struct sc_renderer *r, const sc_frame_desc *frame, size_t *refs_needed);
sc_status sc_backend_cuda_reserve(struct sc_renderer *r, size_t ref_capacity);
sc_status sc_backend_cuda_read_hits(const struct sc_renderer *r, sc_hit *out);
sc_status sc_backend_cuda_read_positions(const struct sc_renderer *r, float *out);

#ifdef __cplusplus
}
#endif

/* Launch shapes of the CUDA stages (threads per block; the ray cast uses one block per tile:
 * SC_CUDA_RAYCAST_WARPS warps for tiles of at most 64 pixels, a cluster of four such blocks for tiles
 * of 9..16 pixels per edge (one per 8x8 quadrant), else one warp per 8x8 quadrant). */
enum {
    SC_CUDA_DEFORM_THREADS = 256,
    SC_CUDA_NORMALS_THREADS = 256,
    SC_CUDA_PROJECT_THREADS = 128,
    SC_CUDA_TILE_SCAN_THREADS = 512,  /* one block scans the tile counts ... */
    SC_CUDA_TILE_SCAN_ITEMS = 16,     /* ... this many per thread per round (8K tiles, 32 KB staged) */
    SC_CUDA_EMIT_THREADS = 128,
    SC_CUDA_RAYCAST_WARPS = 4,     /* warps per tile of at most 64 pixels (raycast_cuda.cu) */
    SC_CUDA_RAYCAST_MIN_BLOCKS = 6, /* ... resident blocks asked of the compiler (at most 85 registers) */
    SC_CUDA_RAYCAST_BATCH_32 = 256, /* triangles staged per batch, tiles of 17..32 pixels per edge */
    SC_CUDA_RAYCAST_CULL_MARGIN = 4, /* quadrant cull of tiles of 9..16: this many binning margins */
    SC_CUDA_SHADE_BLOCK_X = 32,
    SC_CUDA_SHADE_BLOCK_Y = 4
};

/* Frame values known only on the device, one struct in device memory, zeroed at the start of every
 * frame and copied back to the host at its end. */
typedef struct sc_cuda_globals {
    uint32_t depth_min_inv;        /* reduce: atomic max of ~bits(key) (keys are positive floats) */
    uint32_t depth_max_bits;       /* reduce: atomic max of bits(key) */
    float depth_min, depth_max;    /* finalize: the frame's slab range (near plane when empty) */
    uint32_t overflow;             /* finalize: 1 when references > capacity (frame to be redone) */
    uint32_t split_count;          /* finalize: references the slab split reads (0 after an overflow) */
    unsigned long long visible;    /* triangles binned to at least one tile */
    unsigned long long references; /* (triangle, tile) references */
    unsigned long long tests;      /* ray-triangle tests */
    unsigned long long exited;     /* tiles that stopped before a later non-empty slab */
    unsigned long long hit_pixels;
} sc_cuda_globals;

/* The tiles of a visible triangle as project found them, for emit (one 16-byte record: x = first
 * tile of its span (ty0 * tiles_x + tx0), y = span width - 1 | (span height - 1) << 16, or
 * SC_CUDA_BINS_RECLASSIFY when the span has more than 32 tiles (emit classifies it again), z = the
 * span's tiles the triangle overlaps, bit dy * width + dx, w = for a single-tile triangle (y = 0)
 * its rank among the tile's single-tile references, else 0). */
enum { SC_CUDA_BINS_MASK_TILES = 32 };
#define SC_CUDA_BINS_RECLASSIFY 0x80000000u

/* 32-bit words of emit's cursors before the 64-bit tile counts (16-byte aligned). */
static inline size_t sc_cuda_cursor_words(uint32_t num_tiles) { return ((size_t)num_tiles + 3) & ~(size_t)3; }

/* One triangle as the ray cast loads it into shared memory. */
typedef struct sc_cuda_tri {
    float a[3], b[3], c[3];
    uint32_t id;
} sc_cuda_tri;

/* Shading inputs resolved on the host. */
typedef struct sc_cuda_shade_params {
    int mode;                      /* sc_view_mode */
    float light[3];                /* unit vector towards the light */
    float ambient;
    float albedo[3];
    float bg_bottom[3], bg_top[3];
    float heat_max_tile, heat_max_tests;
    uint8_t *rgba;                 /* NULL: write surface (when nonzero) */
    size_t pitch;
    unsigned long long surface;
} sc_cuda_shade_params;

typedef struct sc_cuda_state {
    cudaStream_t stream;
    /* Mesh (device): rest and deformed positions and normals (V x 3), indices (T x 3), and the
     * vertex -> triangle adjacency in triangle order (V + 1 offsets, 3T triangle ids). */
    float *rest_positions, *rest_normals, *positions, *normals;
    uint32_t *indices;
    uint32_t *adj_offsets, *adj_tris;
    uint32_t num_vertices, num_triangles;
    /* Per triangle: depth key (+inf: binned to no tile); the tiles it is binned to (project writes
     * them for visible triangles, emit reads them: 4 words per triangle, SC_CUDA_BINS_*). */
    float *tri_keys;
    uint32_t *tri_bins;
    /* References (key = tile | slab << tile_bits, value = triangle id): pair 0 grouped by tile (emit),
     * pair 1 by (tile, slab) (slab split). */
    size_t ref_capacity;
    uint32_t *ref_keys[2], *ref_values[2];
    unsigned char *split_temp;
    size_t split_temp_bytes;
    /* Per tile: emit's cursors (num_tiles, padded to sc_cuda_cursor_words), then project's 64-bit
     * reference counts (num_tiles; zero between frames: project_cuda.cu); tile offsets (num_tiles +
     * 1, entry num_tiles = the frame's references); cells (num_tiles << slab_bits) + 1. */
    uint32_t *tile_cursors, *tile_offsets, *cell_offsets;
    size_t cursor_cap, tile_cap, cell_cap;
    /* Per pixel. */
    sc_hit *hits;
    uint32_t *tests;
    size_t pixel_cap;
    /* Frame values: device struct and its pinned host copy. */
    sc_cuda_globals *globals, *host_globals;
    /* Events: stage boundaries (SC_STAGE_COUNT + 1) and the end of the frame. */
    struct CUevent_st *events[SC_STAGE_COUNT + 1];
    struct CUevent_st *done;
    uint32_t final_refs;           /* which ref pair holds the slab-ordered references */
    /* Set while a frame's project has been enqueued but its scan (which zeroes the tile counts
     * again) has not: a frame that stopped in between leaves counts behind, cleared next frame. */
    int counts_dirty;
} sc_cuda_state;

#ifdef __cplusplus
#include "deform.h"

/* deform_cuda.cu */
sc_status sc_cuda_deform(const sc_cuda_state *st, const sc_deform_eval *e, cudaStream_t s);
sc_status sc_cuda_normals(const sc_cuda_state *st, cudaStream_t s);
/* project_cuda.cu: classification with the depth reduction and the per-tile counts (project;
 * reduce enqueues nothing), scan of the tile counts and frame totals. */
sc_status sc_cuda_project(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_reduce(const sc_cuda_state *st, cudaStream_t s);
sc_status sc_cuda_scan(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* bin_cuda.cu: emit grouped by tile (tile split enqueues nothing), slab split; split temp size for
 * the current grid. */
sc_status sc_cuda_emit(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_split_temp_bytes(sc_cuda_state *st, const sc_frame_params *p, size_t *bytes);
sc_status sc_cuda_tile_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_slab_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* raycast_cuda.cu */
sc_status sc_cuda_raycast(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* shade_cuda.cu */
sc_status sc_cuda_shade(const sc_cuda_state *st, const sc_frame_params *p, const sc_cuda_shade_params *sp,
                        cudaStream_t s);
#endif

#endif /* SC_BACKEND_CUDA_H */
