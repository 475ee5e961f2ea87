/* bench_floor.h - the frame against its floor: per stage, the bytes the stage must move at least (a
 * model of the minimal exchange the design needs, from the mesh, the target and the frame's counters)
 * and, for the ray cast and the shadow cast, their ray-triangle tests; with the device's limits
 * measured in the same run (sc_backend_measure_limits: copy bandwidth, test rate), each stage's floor
 * time and how far the measured time is above it. The models, stage by stage, are in docs/BENCH.md;
 * they are lower bounds of DRAM traffic, and a stage whose data stays in the L2 (or a CPU's caches)
 * can beat them: its fraction of the copy bandwidth then exceeds 1 and its "x floor" falls below 1.
 * Plain C over sc_frame_stats' counters; no device call. */
#ifndef SLABCAST_BENCH_FLOOR_H
#define SLABCAST_BENCH_FLOOR_H

#include <stdint.h>

#include "slabcast.h"

/* What a frame's floor is computed from. */
typedef struct bench_floor_input {
    /* The mesh, the target and the grid. */
    uint64_t vertices, triangles;
    uint64_t pixels;                 /* width x height */
    uint64_t tiles;                  /* tiles of the grid (sc_frame_stats.tiles) */
    uint32_t tile_size, num_slabs;
    int reads_normals;               /* a deformer on moves points along the rest normal
                                        (sc_deformer_reads_normals) */
    /* The frame's counters (sc_frame_stats). */
    uint64_t visible_triangles, references, ray_triangle_tests, ray_tests_performed, tiles_exited_early, hit_pixels;
    uint32_t shadow_lights;
    uint64_t shadow_receivers, shadow_references, shadow_ray_tests;
} bench_floor_input;

/* The bytes each stage must move (index sc_stage) and the tests of the two casts (0 for the other
 * stages). A stage without a floor of its own (normals: no stage; reduce and scan: fused into project
 * and the tile split by the design) has 0 bytes. Returns 0, or -1 when a count does not fit 64 bits
 * (then every entry is 0). */
int bench_floor_bytes(const bench_floor_input *in, uint64_t bytes[SC_STAGE_COUNT], uint64_t tests[SC_STAGE_COUNT]);

/* One stage's floor (or, at SC_STAGE_COUNT, the frame's: the sums). */
typedef struct bench_floor_stage {
    uint64_t bytes;                  /* the model's bytes */
    uint64_t tests;                  /* ray-triangle tests (the casts; the frame: both casts') */
    double bytes_ms;                 /* bytes / copy bandwidth */
    double tests_ms;                 /* tests / test rate (0 without tests) */
    double ms;                       /* the floor: the larger of the two; the frame: the stages' sum */
    double ratio;                    /* "x floor": measured median / ms; NaN without a floor */
    double frac_copy;                /* bytes / measured median / copy bandwidth (= bytes_ms / median): the
                                        fraction of the copy bandwidth achieved; NaN without bytes */
    double frac_tests;               /* tests_ms / median: the fraction of the test rate; NaN without tests */
} bench_floor_stage;

typedef struct bench_floor {
    bench_floor_stage stage[SC_STAGE_COUNT + 1]; /* per sc_stage, then the frame */
} bench_floor;

/* The floor of a frame whose stages' median times are median_ms[0 .. SC_STAGE_COUNT] (the last: the
 * frame's), against the limits. Returns 0, or -1 when the counts overflow or the limits are not
 * positive and finite (then *out holds no floor: every ms and ratio NaN). */
int bench_floor_compute(const bench_floor_input *in, const sc_device_limits *limits, const double *median_ms,
                        bench_floor *out);

#endif
