/* backend_cuda.h - the CUDA backend of the renderer (internal): the backend's device state and the
 * stage launchers of its .cu files (one stage per file: deform_cuda.cu, project_cuda.cu,
 * bin_cuda.cu, overflow_cuda.cu, raycast_cuda.cu, shade_cuda.cu; vertex_order_cuda.cu moves
 * positions between the caller's vertex order and the backend's); backend_cuda.cu runs them behind
 * the backend table sc_backend_cuda_ops (sc_backend_ops.h), which the front end calls.
 *
 * A frame is enqueued on the renderer's stream with no host wait and no allocation: deform,
 * then one CUDA graph (captured once per mesh, target size and capacity; one per ring slot) for
 * project (+ depth range, per-tile reference counts, the frame's reference total), finalize
 * (slab range, overflow), emit (one reference per (triangle, tile), appended per warp), the tile
 * multisplit and the slab segmented split (split.h), ray cast, the overflow fallback, the shadow
 * pass, shade (which computes the smooth normals of the hit pixels from the one-rings: no stage
 * computes normals per vertex, and SC_STAGE_NORMALS reports 0 ms). Sizes
 * that only the device knows (the depth range, the number of references) stay in device memory
 * (sc_cuda_globals) and are read by the kernels and split calls that need them. What changes from
 * frame to frame (camera, shading, output) reaches the graph's kernels through one device struct
 * (sc_cuda_frame_consts), copied from the slot's pinned copy at the start of the frame; so do the
 * per-frame options (culling in project; flat shading in shade); a change in which lights cast
 * shadows changes the graph's shadow pass: a slot whose graph was captured with other shadows
 * captures it again (host work only) before its next frame.
 *
 * Capacity, with no host round trip: when the frame's references exceed the reference buffer,
 * finalize sets globals.overflow; emit, the splits and the slab ray cast then do nothing, and the
 * overflow kernel (overflow_cuda.cu) redoes the binning and ray cast of the frame on the device in
 * passes over ranges of tiles whose references fit the buffer (the buffer holds at least one tile's
 * worth: ref capacity >= triangles), so the image is exact and no triangle is dropped. At the end of
 * every frame one async copy brings the globals into a pinned slot of a small ring
 * (SC_CUDA_FRAMES_IN_FLIGHT) and an event is recorded. A later sc_renderer_render reads finished
 * slots without waiting (cudaEventQuery); a frame that overflowed makes it answer SC_ERROR_CAPACITY
 * with the references needed, and the front end grows the buffer (its size policy; the only
 * allocation, with a stream wait) before the next frame is enqueued. The host waits only when the
 * ring is full (it is that many frames ahead), when the caller asks for the stats or the hits, or
 * when a buffer grows or the grid changes; the stats of the newest finished frame are read without
 * waiting (sc_backend_ops.poll). */
#ifndef SC_BACKEND_CUDA_H
#define SC_BACKEND_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "render_tuning.h"
#include "sc_backend_ops.h"
#include "sc_frame.h"
#include "sc_status.h"
#include "shade.h"
#include "shadow.h"
#include "slabcast.h"

/* The frame counters that every block of a stage adds to, striped: a block adds to stripe
 * (its first triangle / SC_CUDA_STRIPE_TRIANGLES) % SC_CUDA_STRIPES in project and emit (so a stripe's
 * emit cursor covers exactly the references its project blocks counted), stripe blockIdx.x %
 * SC_CUDA_STRIPES in the ray cast and the overflow fallback. finalize sums the binning's stripes into
 * the globals and sets each stripe's emit cursor to the start of its range; the host sums the ray
 * cast's counts (read_stats). */
typedef struct __align__(128) sc_cuda_stripe {
    uint32_t depth_min_inv;          /* project: atomic max of ~bits(key) (keys are positive floats) */
    uint32_t depth_max_bits;         /* project: atomic max of bits(key) */
    unsigned long long visible;      /* project: triangles binned to at least one tile */
    unsigned long long references;   /* project: (triangle, tile) references */
    unsigned long long emit_cursor;  /* emit: the stripe's next reference (finalize: its first) */
    unsigned long long tests;        /* ray cast and overflow fallback: ray-triangle tests */
    unsigned long long performed;    /* ray cast and overflow fallback: the tests run (ray_tests_performed) */
    unsigned long long exited;       /* ray cast: tiles that stopped before a later non-empty slab */
    unsigned long long hit_pixels;   /* ray cast and overflow fallback */
} sc_cuda_stripe;

/* Triangles of a stripe's run in project and emit: an emit warp's rounds (a project block lies in
 * one). */
enum { SC_CUDA_STRIPE_TRIANGLES = 32 * SC_CUDA_EMIT_ROUNDS };
static_assert(SC_CUDA_STRIPE_TRIANGLES % SC_CUDA_PROJECT_THREADS == 0, "a project block in one stripe run");

/* Frame values known only on the device, one struct in device memory, zeroed at the start of every
 * frame and copied back to the host at its end. */
typedef struct sc_cuda_globals {
    float depth_min, depth_max;    /* finalize: the frame's slab range (near plane when empty) */
    uint32_t overflow;             /* finalize: 1 when references > capacity (the fallback runs) */
    uint32_t split_count;          /* finalize: references the splits read (0 after an overflow) */
    uint32_t passes;               /* overflow fallback: passes it ran (0: no overflow) */
    uint32_t reserved;             /* (keeps the counters below 8-byte aligned) */
    unsigned long long visible;    /* finalize: triangles binned to at least one tile (the stripes' sum) */
    unsigned long long references; /* finalize: (triangle, tile) references (the stripes' sum) */
    /* The shadow pass (shadow_cuda.cu), summed over the lights with shadows. */
    unsigned long long shadow_receivers, shadow_references, shadow_references_max, shadow_tests;
    unsigned long long shadow_blocked, shadow_early;
    uint32_t shadow_lights, light_views, shadow_overflow, reserved2;
    sc_cuda_stripe stripes[SC_CUDA_STRIPES];
} sc_cuda_globals;

/* The stripe a block of project or emit adds to: that of its first triangle t0. */
#define SC_CUDA_STRIPE_OF_TRIANGLE(t0) (((t0) / SC_CUDA_STRIPE_TRIANGLES) % SC_CUDA_STRIPES)

/* The tiles of a visible triangle as project found them, for emit and the overflow fallback (one
 * 16-byte record: x = first tile of its span (ty0 * tiles_x + tx0), y = span width - 1 | (span
 * height - 1) << 16, or SC_CUDA_BINS_RECLASSIFY when the span has more than 32 tiles (the reader
 * classifies it again), z = the span's tiles the triangle overlaps, bit dy * width + dx (with
 * RECLASSIFY: SC_CUDA_BINS_BIG when project's block binned it together, a span of more than
 * SC_CUDA_BIG_SPAN_TILES, so emit's block writes it together too; else 0), w = the number of tiles it
 * overlaps, its references). */
enum { SC_CUDA_BINS_MASK_TILES = 32, SC_CUDA_BINS_BIG = 1 };
#define SC_CUDA_BINS_RECLASSIFY 0x80000000u

/* Buckets of the tile multisplit: 2^tile_bits (tiles past num_tiles stay empty). */
static inline size_t sc_cuda_tile_buckets(uint32_t tile_bits) { return (size_t)1 << tile_bits; }

/* One triangle as the ray cast loads it into shared memory. */
typedef struct sc_cuda_tri {
    float a[3], b[3], c[3];
    uint32_t id;
} sc_cuda_tri;

/* This frame's shading: the front end's resolved inputs and the output. */
typedef struct sc_cuda_shade_params {
    sc_shade_params s;
    uint8_t *rgba;                 /* NULL: write surface (when nonzero) */
    size_t pitch;
    unsigned long long surface;
} sc_cuda_shade_params;

/* Everything a frame's graph kernels take that may change between frames: the frame layout with
 * this frame's camera, and the shading inputs (mode, light, output buffer or surface). */
typedef struct sc_cuda_frame_consts {
    sc_frame_params p;
    sc_cuda_shade_params shade;
} sc_cuda_frame_consts;

/* One light's shadow grid of the frame on the device (shadow_cuda.cu), zeroed when the frame's shadow
 * pass starts: the receivers' bounds per view (floats as order-preserving integers, minima inverted:
 * u0, u1, v0, v1, w0, w1, extent, count, then the world box x0, x1, y0, y1, z0, z1), the grid fitted
 * to them, the receivers (compacted), the caster references appended, and what the splits read (0
 * after an overflow). */
enum { SC_CUDA_SHADOW_BOUNDS = 14 };
/* A caster reference's record, written by the emit for the cast: triangle, its vertex indices, then
 * its image's bounds x0, x1, y0, y1 (floats), 32 bytes (one memory sector). */
enum { SC_CUDA_SHADOW_REC_WORDS = 8 };
typedef struct sc_cuda_shadow_light {
    uint32_t bounds[SC_SHADOW_MAX_VIEWS][SC_CUDA_SHADOW_BOUNDS];
    sc_shadow_grid grid;
    unsigned long long cursor;
    uint32_t receivers;
    uint32_t split_count;
    uint32_t overflow;
    uint32_t primary;              /* the view with the most receivers: the vertices' light coordinates' */
    uint32_t receivers_done;       /* receivers kernel blocks done (the last one fits the grid) */
    uint32_t emit_done;            /* emit blocks done (the last one checks the count against the capacity) */
} sc_cuda_shadow_light;

/* The light grid's fixed shape: tiles of every view and the key's bit fields. */
typedef struct sc_shadow_grid_shape {
    uint32_t num_tiles, tile_bits, slab_bits;
} sc_shadow_grid_shape;

typedef struct sc_cuda_state {
    cudaStream_t stream;           /* the caller's (NULL: the legacy default stream) */
    uint32_t num_threads;          /* host threads (the adjacency and rest normals of a mesh) */
    sc_frame_params grid;          /* the target and grid the buffers are sized for */
    cudaStream_t capture_stream;   /* private, for capturing the frame graphs */
    /* Mesh (device): rest positions and normals, deformed positions (V x 3), indices (T x 3), and
     * the vertex -> triangle adjacency in triangle order (V + 1 offsets, 3T triangle ids: the
     * one-rings shade computes the smooth normals from, sc_vertex_normal). */
    float *rest_positions, *rest_normals, *positions;
    uint32_t *indices;
    uint32_t *adj_offsets, *adj_tris;
    uint32_t num_vertices, num_triangles;
    /* The mesh is held in the renderer's internal vertex order: per caller vertex its internal index
     * (V; NULL: the internal order is the caller's), and read_positions' staging buffer (at most
     * SC_CUDA_READ_CHUNK_VERTICES x 3 floats; NULL with new_of_old) (vertex_order_cuda.cu). */
    uint32_t *new_of_old;
    float *positions_stage;
    /* Per triangle: depth key (+inf: binned to no tile); the tiles it is binned to (project writes
     * them for visible triangles, emit reads them: 4 words per triangle, SC_CUDA_BINS_*). */
    float *tri_keys;
    uint32_t *tri_bins;
    /* References (key = tile | slab << tile_bits, value = triangle id): pair 0 in triangle order
     * (emit), pair 1 grouped by tile (tile multisplit), then values of pair 0 by (tile, slab) (slab
     * split; the ray cast reads them). The overflow fallback uses ref_values[0] as its window. */
    size_t ref_capacity;
    uint32_t *ref_keys[2], *ref_values[2];
    unsigned char *split_temp;     /* temporary storage of both splits (the larger) */
    size_t split_temp_bytes;
    /* Per tile bucket (2^tile_bits): project's reference counts (zeroed at the start of every frame)
     * and the fallback's cursors; tile offsets (2^tile_bits + 1, entry num_tiles = the frame's
     * references; the fallback's also in 64 bits); cells (num_tiles << slab_bits) + 1. */
    uint32_t *tile_counts, *tile_cursors, *tile_offsets, *cell_offsets;
    unsigned long long *tile_offsets64;
    size_t count_cap, cursor_cap, tile_cap, off64_cap, cell_cap;
    /* The whole mesh's ids of a share's triangles (sc_backend_ops.set_share): per triangle
     * (device; NULL: share_first + t), and the ids the renderer owns. */
    uint32_t *share_ids;
    uint32_t share_first, owned_first, owned_end;
    /* Per pixel. */
    sc_hit *hits;
    uint32_t *tests;
    size_t pixel_cap;
    /* The shadow pass, allocated with the first frame that has shadows (shadow_cuda.cu): per pixel
     * the mask (bytes, padded to words), shadow tests, the ray origin and light depth (float4), the
     * receivers' light tiles and pixels, compacted (pixels 0) and grouped by light tile (pixels 1);
     * per light tile (bucket) receiver offsets; per (tile, slab) cell caster offsets (the casters'
     * triangles themselves in ref_values[1]); the lights' device grids;
     * the splits' temporary storage. shadow_pixels: the pixels they hold (0: none). */
    uint8_t *shadow_mask;
    uint32_t *shadow_tests;
    float *shadow_org;
    uint32_t *recv_keys, *recv_values[2];
    uint32_t *recv_offsets, *shadow_cells;
    uint32_t *shadow_tile_wmax;    /* per light tile: its farthest receiver's depth (order-preserving) */
    uint32_t *shadow_tile_box;     /* ... its receivers' light coordinate bounds (4 words, see the keys kernel) */
    uint32_t *recv_counts;         /* ... its receivers (the receivers' split's bucket counts) */
    size_t shadow_tile_words;      /* one allocation at shadow_tile_box: box, wmax, recv_counts, zeroed by
                                    * the receivers kernel every pass */
    uint32_t *shadow_recs;         /* per caster reference: triangle, vertex indices, image (8 words) */
    float *shadow_vlight;          /* per vertex: light coordinates in the light's primary view (4 floats) */
    size_t shadow_vlight_capacity; /* the vertices shadow_vlight holds */
    size_t shadow_recs_capacity;   /* the references shadow_recs holds (the reference capacity) */
    sc_cuda_shadow_light *shadow_lights_dev;
    unsigned char *shadow_temp;
    size_t shadow_temp_bytes, shadow_pixels;
    uint32_t shadow_tiles;         /* light tiles the per-tile buffers hold (the mesh's grid) */
    size_t shadow_sized_refs;      /* the reference capacity the split storage is sized for */
    int shadow_fallback_blocks;    /* blocks of the overflow fallback's grid-stride launch */
    /* Frame values on the device, and the ring of frames in flight: each slot a pinned copy of a
     * frame's globals, its stage events (SC_STAGE_COUNT + 1; the last one ends the frame), what the
     * host knew when it enqueued the frame, and whether the slot waits to be read. */
    sc_cuda_globals *globals;
    sc_cuda_frame_consts *consts;  /* device: this frame's constants */
    struct sc_cuda_slot {
        sc_cuda_globals *host;
        sc_cuda_frame_consts *host_consts; /* pinned source of the frame's constants copy */
        struct CUgraphExec_st *graph;      /* project .. shade with this slot's events; NULL: capture */
        uint32_t graph_shadows;            /* the lights with shadows it was captured with (bit i) */
        int graph_timed;                   /* ... and whether with the stage boundaries' events */
        uint32_t recorded;                 /* bit i: its frame records events[i] (a boundary not
                                              recorded: the stage before it is fused into the next
                                              or, untimed, every stage reports 0 ms) */
        struct CUevent_st *events[SC_STAGE_COUNT + 1];
        int pending;
        uint64_t serial;                   /* its frame's sc_backend_frame.serial; 0: none */
    } slots[SC_CUDA_FRAMES_IN_FLIGHT];
    uint32_t next_slot;            /* the slot of the next frame (the oldest in flight when full) */
    uint32_t newest_slot;          /* the slot of the last frame enqueued */
    uint64_t frames;               /* frames enqueued */
    size_t grow_to;                /* > ref_capacity: a finished frame needed this many references */
    int overflow_blocks;           /* co-resident blocks of the overflow kernel (cooperative launch) */
    cudaStream_t body_stream;      /* private, for capturing the overflow kernel into its IF node */
    unsigned long long overflow_cond; /* the graph being captured: the IF node's condition handle,
                                         set by the frame's finalize (cudaGraphSetConditional) */
    int has_overflow_cond;         /* 0: no graph (SLABCAST_CUDA_GRAPHS=0): the overflow kernel is
                                      launched every frame and checks the flag itself */
    int use_graphs;                /* 1 unless SLABCAST_CUDA_GRAPHS=0 (for profilers that cannot see
                                      kernels inside graphs with conditional nodes) */
    int clusters;                  /* 1: the Hopper paths (sm_90+ and SLABCAST_CUDA_PORTABLE is not 1):
                                      the 9..16-pixel tiles as thread-block clusters; 0: the portable
                                      paths (sc_cuda_hopper_paths) */
} sc_cuda_state;

#ifdef __cplusplus
#include "deform.h"

/* deform_cuda.cu: the deform stage, which also stores the frame's constants c into st->consts (the
 * deform kernel's parameter; a copy from c, pinned host memory, when no kernel deforms); and, on demand (read_normals, not per frame), the smooth
 * normals of this frame's positions (sc_vertex_normal) into out (device memory, V x 3, the caller's
 * vertex order), enqueued on s with no allocation and no wait. */
sc_status sc_cuda_deform(const sc_cuda_state *st, const sc_deform_eval *e, const sc_cuda_frame_consts *c,
                         cudaStream_t s);
sc_status sc_cuda_vertex_normals(const sc_cuda_state *st, float *out, cudaStream_t s);
/* vertex_order_cuda.cu, enqueued on s with no allocation and no wait: the caller's positions (device
 * memory, the caller's vertex order) into st->positions (internal order); and the positions of the
 * caller's vertices first .. first + count - 1 from st->positions into dst (device memory). */
sc_status sc_cuda_positions_from_caller(const sc_cuda_state *st, const float *caller, cudaStream_t s);
sc_status sc_cuda_positions_to_caller(const sc_cuda_state *st, uint32_t first, uint32_t count, float *dst,
                                      cudaStream_t s);
/* project_cuda.cu: classification with the depth reduction, the per-tile counts and the reference
 * total (project; the depth reduction is part of it), then the frame totals (finalize: slab range, overflow,
 * the condition of the overflow fallback's IF node). */
sc_status sc_cuda_project(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_finalize(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* bin_cuda.cu: emit in triangle order, the tile multisplit and the slab split (split.h); the split
 * temporary storage for the current grid and capacity. */
sc_status sc_cuda_emit(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_split_temp_bytes(sc_cuda_state *st, const sc_frame_params *p, size_t *bytes);
sc_status sc_cuda_tile_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_slab_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* bin_cuda.cu, for the radix-sort binning (SC_BINNING_RADIX_SORT): the emit of the split binning with
 * the cell as key (tile << slab_bits | slab), into (keys, values) instead of pair 0. */
sc_status sc_cuda_emit_cells(const sc_cuda_state *st, const sc_frame_params *p, uint32_t *keys, uint32_t *values,
                             cudaStream_t s);
/* bin_radix_cuda.cu: the radix-sort binning, the grid of bin_cuda.cu's splits built the way tile
 * renderers bin (a key per reference, CUB's radix sort, each cell's range from the sorted keys). The
 * temporary storage of the sort and the scan (one buffer, used one after the other) for grid p and
 * the state's reference capacity, kept where the split binning keeps the split library's
 * (st->split_temp); the three stages of a frame, in the slots of the split binning's: emit (cell
 * keys into pair 1, the unused tail padded), sort (pair 1 -> pair 0), ranges (cell and tile
 * offsets). */
sc_status sc_cuda_radix_temp_bytes(const sc_cuda_state *st, const sc_frame_params *p, size_t *bytes);
sc_status sc_cuda_radix_emit(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_radix_sort(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_radix_ranges(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* overflow_cuda.cu: the whole binning and ray cast of an overflowing frame, in passes over tile
 * ranges (does nothing when the frame fits); the blocks its cooperative launch may use. */
sc_status sc_cuda_overflow(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_overflow_blocks(int *blocks);
/* raycast_cuda.cu */
sc_status sc_cuda_raycast(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* raycast_pairs_cuda.cu: the same ray cast for tiles of at most 64 pixels, by (triangle, pixel) pairs. */
sc_status sc_cuda_raycast_pairs(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* shadow_cuda.cu: the shadow pass of the lights in light_mask (bit i: light i), mark(ctx) called at
 * the ends of the receivers, emit and split stages (of the first light; the later lights' passes fall
 * in the cast stage); the grid shape; the temporary storage its splits need. */
sc_status sc_cuda_shadows(sc_cuda_state *st, const sc_frame_params *p, uint32_t light_mask, cudaStream_t s,
                          sc_status (*mark)(void *ctx), void *mark_ctx);
void sc_cuda_shadow_shape(const sc_cuda_state *st, sc_shadow_grid_shape *shape);
/* backend_cuda.cu: INVALID_ARGUMENT (naming `what`) unless p is device or managed memory. */
sc_status sc_cuda_require_device_memory(const void *p, const char *what);
sc_status sc_cuda_shadow_temp_bytes(const sc_cuda_state *st, size_t pixels, size_t *bytes);
/* shade_cuda.cu */
sc_status sc_cuda_shade(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
/* Sort-last by hit keys: backend_cuda.cu set_share; keys_cuda.cu hit_keys, resolve_keys, keys_min,
 * hits_from_keys, pixels_over; shade_keys_cuda.cu shade_keys. */
extern "C" {
sc_status sc_cuda_set_share(void *state, const uint32_t *ids, uint32_t first, uint32_t owned_first, uint32_t owned_end);
sc_status sc_cuda_hit_keys(void *state, uint64_t *keys);
sc_status sc_cuda_resolve_keys(void *state, const uint64_t *winners, sc_hit *hits);
sc_status sc_cuda_shade_keys(void *state, const uint64_t *winners, void *rgba, size_t pitch, int background);
sc_status sc_cuda_keys_min(uint64_t *acc, const uint64_t *part, uint64_t count, cudaStream_t s);
sc_status sc_cuda_hits_from_keys(sc_hit *hits, const uint64_t *keys, uint64_t count, cudaStream_t s);
sc_status sc_cuda_pixels_over(void *acc, size_t pitch, const uint32_t *part, uint32_t width, uint32_t height,
                             cudaStream_t s);
}
/* limits_cuda.cu: the current device's copy bandwidth and ray-triangle test rate
 * (sc_backend_ops.measure_limits; num_threads is the host's, unused). */
sc_status sc_cuda_measure_limits(uint32_t num_threads, sc_device_limits *out);
#endif

#endif /* SC_BACKEND_CUDA_H */
