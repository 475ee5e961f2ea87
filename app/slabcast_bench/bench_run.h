/* bench_run.h - running the configurations of a sweep: for each, a renderer of its grid with its
 * model, camera and deformers (and with shadows on, the program's default light: app_default_light,
 * lights.h); timed frames each waited for (per-stage GPU times), then frames back to back (the frame
 * rate of a real-time loop), the counters of the last frame, the device memory the renderer took,
 * the pictures of --images, and the peers on the same work. */
#ifndef SLABCAST_BENCH_RUN_H
#define SLABCAST_BENCH_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_device.h"
#include "bench_floor.h"
#include "bench_model.h"
#include "bench_options.h"
#include "bench_peer.h"
#include "bench_sweep.h"
#include "slabcast.h"

/* Median, 95th percentile and maximum of one quantity over the timed frames (nearest rank). */
typedef struct bench_quant {
    double median, p95, max;
} bench_quant;

typedef enum bench_peer_status { BENCH_PEER_OK = 0, BENCH_PEER_SKIPPED, BENCH_PEER_FAILED } bench_peer_status;

/* One peer on one configuration. */
typedef struct bench_peer_row {
    const char *name;            /* the peer table's name */
    bench_peer_status status;
    bench_peer_result result;    /* valid when status is OK */
    double ratio;                /* our median frame / its median frame (< 1: ours is faster); NaN if unknown */
    char why[512];               /* skipped or failed: why */
} bench_peer_row;

/* Everything measured for one configuration. */
typedef struct bench_row {
    bench_config config;
    char model_name[208];        /* bench_model_short_name */
    int failed;                  /* the configuration could not run: error says why, the numbers are 0 */
    char error[768];
    sc_backend backend;
    int frames, warmup;
    sc_camera_desc camera;       /* the view rendered */
    float fov_degrees;
    /* Per stage (sc_stage) and, at SC_STAGE_COUNT, the frame (sc_frame_stats.frame_ms); ms. The
     * stages come from frames timed stage by stage (sc_render_options.stage_times); on an asynchronous
     * backend (CUDA) the frame from the same frames again without the stage events, as a program
     * that does not ask for stage times renders them, and frame_stage_events from the timed ones. */
    bench_quant stage[SC_STAGE_COUNT + 1];
    bench_quant frame_stage_events;
    bench_quant call;            /* host time of sc_renderer_render (sc_frame_stats.total_ms); ms */
    /* Back to back: `frames` frames with no wait between them on an asynchronous backend (CUDA), wall
     * time; on a synchronous one (cpu) the timed frames' wall time (each frame is done in its call, so
     * back to back is the same loop). */
    int back_to_back_frames;
    double back_to_back_ms;
    double fps;
    /* The last timed frame's counters. */
    uint64_t triangles, visible_triangles, references, ray_triangle_tests, ray_tests_performed, tiles,
        tiles_exited_early, hit_pixels;
    uint32_t capacity_grows, overflow_passes;
    /* Shadows (config.shadows): the light, and the last timed frame's shadow counters (0 when off). */
    sc_light_desc light;
    uint32_t shadow_lights, light_views, shadow_overflow_passes;
    uint64_t shadow_receivers, shadow_references, shadow_ray_tests, shadow_rays_blocked, shadow_rays_early;
    /* On a device: device memory the renderer took (free memory before it was created minus after the
     * frames); -1: unknown (on the host, the cpu backend: no API gives the renderer's host memory). */
    int64_t device_memory_bytes;
    /* The frame against its floor (bench_floor.h): the mesh's vertices, and per stage and for the frame
     * the bytes and tests the models give, their time at the run's measured limits and the median over
     * it. floor_known 0: no floor (the limits not measured, a count beyond 64 bits, or failed). */
    uint64_t vertices;
    int floor_known;
    bench_floor floor;
    bench_peer_row peers[BENCH_MAX_PEERS];
    unsigned peer_count;
} bench_row;

/* What all configurations of a run share. */
typedef struct bench_context {
    const bench_options *options;
    sc_backend backend;          /* resolved: never SC_BACKEND_DEFAULT */
    bench_device device;
    const bench_peer *peers[BENCH_MAX_PEERS];
    unsigned peer_count;
    bench_model model;           /* the model held */
} bench_context;

/* Resolves the backend (--backend auto: cuda when a GPU is there), reads the device, measures its
 * limits (unless --no-limits; a measurement that fails leaves device.limits_known 0 and its reason in
 * device.limits_why, and the run goes on without floors) and finds the peers. 0, or -1 with why
 * ("--backend cuda: ...: no CUDA device"). */
int bench_context_init(bench_context *ctx, const bench_options *o, char *why, size_t why_size);
void bench_context_free(bench_context *ctx);

/* Runs one configuration into *row (filled in any case: on failure row->failed and row->error, the
 * library's message or the peer's). Returns 0, or -1 on a failure (a failed peer included; a
 * skipped peer is not one). */
int bench_run_config(bench_context *ctx, const bench_config *config, bench_row *row);

/* The row's floor (row->floor, floor_known) from its last frame's counters, its mesh's vertices, its
 * target and grid and its stage medians, against the device's measured limits (bench_floor.h); no floor
 * for a failed row or without limits. bench_run_config calls it. */
void bench_row_floor(const bench_device *device, bench_row *row);

/* Called before each configuration runs (index from 0, of count), and with config NULL before a
 * failure is said on err (a progress line drawn over itself ends first). */
typedef void (*bench_progress_fn)(void *user, const bench_config *config, size_t index, size_t count);

/* Runs every configuration in order into rows[count]; a failure is said on err (naming the
 * configuration) and the sweep goes on. Returns the number of configurations that failed. */
size_t bench_run_sweep(bench_context *ctx, const bench_config *configs, size_t count, bench_row *rows,
                       bench_progress_fn progress, void *user, FILE *err);

#endif
