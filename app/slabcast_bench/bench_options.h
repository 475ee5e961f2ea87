/* bench_options.h - command line of slabcast-bench: the lists whose cartesian product is the sweep,
 * how many frames each configuration renders, the outputs and the peers. */
#ifndef SLABCAST_BENCH_OPTIONS_H
#define SLABCAST_BENCH_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "slabcast.h"

/* Valid ranges (printed by --help, enforced by bench_parse_options). */
#define BENCH_MAX_LIST 64u          /* values of one list option (--size, --slabs, --tile, ...) */
#define BENCH_MAX_MODELS 64u        /* models on one command line */
#define BENCH_MAX_PEERS 8u          /* peers named by --peers */
#define BENCH_MAX_VIEWS 360u        /* --views: 1 .. this */
#define BENCH_MAX_FRAMES 100000u    /* --frames: 1 .. this */
#define BENCH_MAX_WARMUP 10000u     /* --warmup: 0 .. this */
#define BENCH_MAX_CONFIGS 4096u     /* configurations of one sweep (the product of the lists) */

/* Frames per configuration when --frames / --warmup are not given: enough on a backend timed on the
 * GPU (CUDA) for stable quantiles of sub-millisecond stages, few on one timed on the host (the CPU
 * backend: a frame there takes up to seconds). */
#define BENCH_DEFAULT_FRAMES_DEVICE 200
#define BENCH_DEFAULT_WARMUP_DEVICE 20
#define BENCH_DEFAULT_FRAMES_HOST 3
#define BENCH_DEFAULT_WARMUP_HOST 1

typedef struct bench_size {
    uint32_t width, height;
} bench_size;

typedef struct bench_options {
    /* Models in command-line order; NULL is the built-in mesh ("builtin" on the command line). None
     * given: one built-in mesh. */
    const char *models[BENCH_MAX_MODELS];
    unsigned model_count;
    bench_size sizes[BENCH_MAX_LIST];
    unsigned size_count;
    uint32_t tiles[BENCH_MAX_LIST];
    unsigned tile_count;
    uint32_t slabs[BENCH_MAX_LIST];
    unsigned slab_count;
    uint32_t subdivides[BENCH_MAX_LIST];
    unsigned subdivide_count;
    unsigned deforms[BENCH_MAX_LIST];   /* deformer sets (APP_DEFORM_BIT), one per set ("/"-separated) */
    unsigned deform_count;
    int shadows[BENCH_MAX_LIST];        /* --shadows off,on: 0 off, 1 on (the default light, bench_model.h) */
    unsigned shadow_count;
    uint32_t views;                     /* views on the orbit around the model, 1 .. BENCH_MAX_VIEWS */
    int has_camera;                     /* --camera: camera[] = eye xyz, target xyz, fov in degrees */
    float camera[7];
    int frames;                         /* timed frames per configuration; 0: the backend's default */
    int warmup;                         /* warm-up frames; -1: the backend's default */
    sc_backend backend;                 /* SC_BACKEND_DEFAULT: cuda when a GPU is there, else cpu */
    uint32_t resolution;                /* built-in mesh; 0: the library's default (1M triangles) */
    uint32_t threads;                   /* cpu backend worker threads; 0: one per core */
    float start_time, time_step;        /* frame i is at start_time + i * time_step */
    const char *json_path, *csv_path, *plot_path; /* NULL: not written */
    const char *images_dir;             /* --images: shadow decision pictures go there; NULL: none */
    sc_vertex_order vertex_order;       /* --vertex-order: the renderer's sc_renderer_desc.vertex_order
                                           (first-use: SC_VERTEX_ORDER_FIRST_USE, the default; as-loaded:
                                           SC_VERTEX_ORDER_KEEP) */
    const char *peers[BENCH_MAX_PEERS]; /* peer names, checked against the peer table */
    unsigned peer_count;
    uint32_t gpus[BENCH_MAX_LIST];      /* --gpus: share counts of the scaling run (bench_gpus.h); none:
                                           the sweep */
    unsigned gpu_count;
    int no_limits;                      /* --no-limits: the device's limits are not measured, so no
                                           configuration has a floor (bench_floor.h) */
    int verbose;
    int help;
} bench_options;

/* Parses argv into *out (defaults first). Returns 0, or -1 after writing one line to err that names
 * the option, the value and what is valid ("slabcast-bench: --slabs '0': out of range; valid: ..."). */
int bench_parse_options(int argc, char **argv, bench_options *out, FILE *err);
void bench_print_usage(FILE *f);

/* The frame counts in force for a backend (the defaults resolved): device_timed is its
 * sc_backend_info.device_timed (bench_device.device_timed), which picks the GPU's defaults. */
int bench_frames_for(const bench_options *o, int device_timed);
int bench_warmup_for(const bench_options *o, int device_timed);

/* "auto", "cuda", "cpu". */
const char *bench_backend_name(sc_backend backend);
/* --vertex-order's names: "first-use" (SC_VERTEX_ORDER_FIRST_USE), "as-loaded" (SC_VERTEX_ORDER_KEEP). */
const char *bench_vertex_order_name(sc_vertex_order order);

#endif
