/* backend_cpu.h - the CPU backend's frame state and stages (internal). One stage per file:
 * deform_cpu.c, project_cpu.c (project + reduce), bin_cpu.c (scan, emit, tile split, slab split),
 * raycast_cpu.c, shadow_cpu.c, shade_cpu.c (the hit pixels' smooth normals too; the adjacency and
 * the rest normals come from core/normals_cpu.c); vertex_order_cpu.c moves positions between the
 * caller's vertex order and the backend's; backend_cpu.c runs them and exports the backend's table
 * (sc_backend_cpu_ops, sc_backend_ops.h). */
#ifndef SC_BACKEND_CPU_H
#define SC_BACKEND_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "deform.h"
#include "sc_backend_ops.h"
#include "sc_frame.h"
#include "shade.h"
#include "slabcast.h"

typedef struct sc_cpu_state {
    uint32_t threads;
    sc_frame_params grid;          /* the target and grid the buffers are sized for */
    uint32_t num_vertices, num_triangles;
    sc_frame_stats stats;          /* the last frame's (sc_backend_ops.finish) */
    uint64_t serial;               /* its sc_backend_frame.serial; 0: none complete (sc_backend_ops.poll) */
    /* Host memory: the bound (sc_renderer_desc.host_memory_limit resolved) and the bytes held by the
     * mesh copies, the grid and pixel buffers, and the reference buffers. */
    size_t memory_limit, mesh_bytes, grid_bytes, ref_bytes;
    /* Mesh, in the renderer's internal vertex order: rest pose and its normals, deformed pose
     * (num_vertices x 3), indices (num_triangles x 3), the vertex -> triangle adjacency in triangle
     * order (num_vertices + 1 offsets, 3 x num_triangles triangles: the one-rings shading computes
     * the smooth normals from, sc_vertex_normal); per caller vertex its internal index (NULL: the
     * caller's order; vertex_order_cpu.c takes positions between the two). */
    float *rest_positions, *rest_normals;
    float *positions;
    uint32_t *indices;
    uint32_t *adj_offsets, *adj_tris;
    uint32_t *new_of_old;
    /* Per triangle: tiles overlapped (0: culled), first reference, depth key (+inf when culled), and
     * (visible ones, written by emit) the pixels whose centres it may cover: x0 | x1 << 16, then
     * y0 | y1 << 16 (sc_tri_setup.px0 ..; sides are at most 16384 pixels), so the ray cast tests it
     * against those rays of a tile only. */
    uint32_t *tri_tiles;
    uint32_t *tri_offsets;
    float *tri_keys;
    uint32_t *tri_pixels;          /* per triangle: px0, px1, py0, py1 of sc_tri_setup (4 words: a
                                      target may be 65536 pixels or more wide) */
    /* References: key = tile | slab << tile_bits, value = triangle id. Ping-pong buffers. */
    size_t ref_capacity;
    uint32_t *ref_keys, *ref_values, *ref_keys_tmp, *ref_values_tmp;
    size_t num_refs;
    /* Offsets: high-digit groups of the two-level tile split, tiles ((1 << tile_bits) + 1 entries),
     * cells ((num_tiles << slab_bits) + 1 entries). */
    uint32_t *group_offsets;
    uint32_t *tile_offsets;
    uint32_t *cell_offsets;
    size_t group_cap, tile_cap, cell_cap;
    /* Per pixel. */
    sc_hit *hits;
    uint32_t *tests;
    size_t pixel_cap;
    /* The shadow pass (shadow_cpu.c), allocated with its first frame: per pixel the mask (bit i: in
     * shadow for light i), shadow-ray tests, the ray's origin and light depth, its light tile, the
     * receivers grouped by tile; per light tile (all views) receiver offsets and cursors; per (tile,
     * slab) cell caster offsets and cursors. */
    uint8_t *shadow_mask;
    uint32_t *shadow_tests;
    float *shadow_org;
    uint32_t *shadow_tile, *shadow_recv, *shadow_recv_offsets, *shadow_cursor;
    uint32_t *shadow_cell_offsets, *shadow_cell_cursor;
    float *shadow_tile_wmax;       /* per light tile: its farthest receiver's depth (-inf: none) */
    size_t shadow_pixels, shadow_bytes;
    uint32_t shadow_grid;          /* G the per-tile buffers are sized for */
    struct sc_cpu_shadow_work *shadow_work; /* the pass's working state (shadow_cpu.c) */
} sc_cpu_state;

typedef struct sc_cpu_counters {
    uint64_t visible_triangles;
    uint64_t ray_triangle_tests;
    uint64_t ray_tests_performed;
    uint64_t tiles_exited_early;
    uint64_t hit_pixels;
} sc_cpu_counters;

/* deform_cpu.c: positions = external (if given, the caller's vertex order), else the deformed (or
 * rest) pose. */
void sc_cpu_deform(sc_cpu_state *st, const sc_frame_params *p, const sc_deform_eval *e, const float *external);
/* vertex_order_cpu.c: the caller's positions (caller order) into positions (internal order); this
 * frame's positions out in the caller's order. */
void sc_cpu_positions_from_caller(sc_cpu_state *st, const float *caller);
void sc_cpu_positions_to_caller(const sc_cpu_state *st, float *out);
/* project_cpu.c: per-triangle tile counts and depth keys; then the frame's depth range. */
void sc_cpu_project(sc_cpu_state *st, const sc_frame_params *p);
void sc_cpu_reduce_depth(const sc_cpu_state *st, const sc_frame_params *p, float *depth_min, float *depth_max,
                         uint64_t *visible);
/* bin_cpu.c */
uint64_t sc_cpu_scan(sc_cpu_state *st, const sc_frame_params *p);   /* returns the total */
void sc_cpu_emit(sc_cpu_state *st, const sc_frame_params *p);       /* total <= capacity */
sc_status sc_cpu_tile_split(sc_cpu_state *st, const sc_frame_params *p);
sc_status sc_cpu_slab_split(sc_cpu_state *st, const sc_frame_params *p);
/* raycast_cpu.c: hits and tests per pixel. */
void sc_cpu_raycast(sc_cpu_state *st, const sc_frame_params *p, sc_cpu_counters *c);
/* shadow_cpu.c: the shadow pass of every light with shadows (s->shadow_lights > 0); SC_ERROR_CAPACITY
 * with *refs_needed when the caster references exceed the reference buffer. Adds the shadow counters
 * to *stats and the times of the four shadow stages to stage_ms[0..3]. */
sc_status sc_cpu_shadows(sc_cpu_state *st, const sc_frame_params *p, const sc_shade_params *s, size_t *refs_needed,
                         sc_frame_stats *stats, double *stage_ms);
void sc_cpu_free_shadows(sc_cpu_state *st);      /* the per-pixel and per-tile buffers */
void sc_cpu_free_shadow_work(sc_cpu_state *st);  /* the working state */
/* backend_cpu.c: whether `bytes` for one part (now holding `held`) fit the host memory bound. */
sc_status sc_cpu_check_memory(const sc_cpu_state *st, size_t held, size_t bytes, const char *call, const char *what,
                              const char *lower);
/* shade_cpu.c */
void sc_cpu_shade(const sc_cpu_state *st, const sc_frame_params *p, const sc_shade_params *s, uint8_t *rgba,
                  size_t pitch);

/* limits_cpu.c: the host's copy bandwidth and ray-triangle test rate over num_threads workers
 * (sc_backend_ops.measure_limits). */
sc_status sc_cpu_measure_limits(uint32_t num_threads, sc_device_limits *out);

#endif /* SC_BACKEND_CPU_H */
