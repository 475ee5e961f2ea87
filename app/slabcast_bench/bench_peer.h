/* bench_peer.h - another renderer timed beside ours on the same work (slabcast-bench --peers): the same
 * mesh after loading, the same deformation at the same times, the same camera and size. Each peer
 * renders the configuration's frames itself and reports its time per frame, and, for the last frame,
 * how many pixels see the same triangle as ours. */
#ifndef SLABCAST_BENCH_PEER_H
#define SLABCAST_BENCH_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "sc_mesh.h"
#include "slabcast.h"

/* The work of one configuration, as our renderer did it. */
typedef struct bench_peer_scene {
    const sc_mesh *mesh;             /* host mesh as loaded (and subdivided); rest positions */
    uint32_t width, height;
    uint32_t tile_size, num_slabs;   /* our grid (peers that build a grid use the same) */
    sc_camera_desc camera;
    sc_deform_desc deform;
    const float *times;              /* the frames' times, `frames` of them (warm-up frames excluded) */
    int frames, warmup;              /* warm-up frames are rendered at times[0] before the timed ones */
    uint32_t cpu_threads;            /* peers on the CPU backend: worker threads (--threads); 0: one per core */
    /* Our last frame's hit per pixel (host memory, width * height, row 0 at the bottom): the triangle
     * id, or SC_NO_HIT. */
    const sc_hit *our_hits;
} bench_peer_scene;

typedef struct bench_peer_result {
    double median_ms, p95_ms, max_ms; /* per frame, the peer's own timing (GPU time where it has one) */
    double agreement;                 /* fraction of pixels whose triangle (or miss) equals ours; < 0: not compared */
    char note[128];                   /* how it was timed ("GL timer queries", "CUDA events", ...) */
} bench_peer_result;

typedef struct bench_peer {
    const char *name;                 /* as --peers names it: "cpu", "cub-grid", "gl-raster" */
    const char *description;
    /* 0 and *out filled; 77 when the peer cannot run here (no GL, no GPU: why says so, the row is
     * marked skipped); -1 on a failure (why says so). */
    int (*run)(const bench_peer_scene *scene, bench_peer_result *out, char *why, size_t why_size);
} bench_peer;

/* ---- the peer table (bench_peers.c) ------------------------------------------------------------ */

/* The peers slabcast-bench knows by name, built or not: "cpu", "cub-grid", "gl-raster". A peer is in
 * the table only when its file is built (CMake defines BENCH_HAVE_PEER_<NAME> then). */
int bench_peer_known(const char *name);
/* The peers this build has, in table order. */
size_t bench_peer_count(void);
const bench_peer *bench_peer_at(size_t index);
/* The built peer named `name`, or NULL. */
const bench_peer *bench_peer_find(const char *name);
/* "cpu, cub-grid": the built peers' names, for messages. */
void bench_peer_list(char *buf, size_t size);

/* ---- helpers for peers ------------------------------------------------------------------------- */

/* Sets out's median, p95 and max from n frame times (n >= 1; nearest rank, as the program's own
 * quantiles); sorts ms in place. */
void bench_peer_set_times(double *ms, size_t n, bench_peer_result *out);
/* The fraction of pixels (0 .. 1) whose triangle id (SC_NO_HIT for a miss) equals ours; 1 for 0 pixels.
 * The second form takes the peer's ids as plain 32-bit values (an id buffer read back from GL). */
double bench_peer_agreement(const sc_hit *ours, const sc_hit *theirs, size_t pixels);
double bench_peer_agreement_ids(const sc_hit *ours, const uint32_t *their_ids, size_t pixels);

/* A peer that is this renderer with other settings (peer_renderer.c). */
typedef struct bench_renderer_peer {
    const char *name;                 /* for messages */
    sc_backend backend;
    sc_binning binning;
    int size_refs_to_scene;           /* nonzero: reference capacity = a probe frame's references + 2 % */
    const char *note;                 /* how it is timed, for the result's note */
} bench_renderer_peer;
int bench_peer_run_renderer(const bench_peer_scene *scene, const bench_renderer_peer *how, bench_peer_result *out,
                            char *why, size_t why_size);

/* The peers of this folder (each file defines one). */
extern const bench_peer bench_peer_cpu;
extern const bench_peer bench_peer_cub_grid;
extern const bench_peer bench_peer_gl_raster;

#endif
