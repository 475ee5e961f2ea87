/* bench_peer.h - another renderer timed beside ours on the same work (slabcast-bench --peers): the same
 * mesh after loading, the same deformation at the same times, the same camera and size, and with
 * shadows on the same light. Each peer renders the configuration's frames itself and reports its time
 * per frame, and, for the last frame, how many pixels see the same triangle as ours (or, for a peer
 * that computes shadows, how many pixels get the same shadow decision). */
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
    sc_vertex_order vertex_order;    /* peers that are this renderer: its vertex order (--vertex-order) */
    /* Our last frame's hit per pixel (host memory, width * height, row 0 at the bottom): the triangle
     * id, or SC_NO_HIT. */
    const sc_hit *our_hits;
    /* The framing of the mesh (bench_model.h): its rest bounding-box centre and radius. */
    float framing_center[3];
    float framing_radius;
    /* Shadows on: the one light (app_default_light, lights.h) with sc_render_options.shadows on, and our last
     * frame's shadow mask (sc_renderer_read_shadows: bit 0 set where the pixel is in shadow; host
     * memory, width * height, row 0 at the bottom). Off: shadows 0, our_shadows NULL. */
    int shadows;
    sc_light_desc light;
    const uint8_t *our_shadows;
    /* --images: the folder a peer writes its pictures in (NULL: none), and the configuration's number
     * (the table's #) that names them: "<dir>/<peer>-<number>.png". */
    const char *image_dir;
    unsigned config_number;
} bench_peer_scene;

typedef struct bench_peer_result {
    double median_ms, p95_ms, max_ms; /* per frame, the peer's own timing (GPU time where it has one) */
    double agreement;                 /* fraction of pixels whose triangle (or miss) equals ours, or for a
                                         peer with needs_shadows, of pixels both hit whose shadow decision
                                         equals ours; < 0: not compared */
    char note[128];                   /* how it was timed ("GL timer queries", "CUDA events", ...) */
    char detail[384];                 /* the peer's own numbers for people (its passes' times, where it
                                         differs from ours); "" none */
} bench_peer_result;

typedef struct bench_peer {
    const char *name;                 /* as --peers names it: "cpu", "cub-grid", "gl-raster" */
    const char *description;
    /* 0 and *out filled; 77 when the peer cannot run here (no GL, no GPU, a scene it does not do: why
     * says so, the row is marked skipped); -1 on a failure (why says so). */
    int (*run)(const bench_peer_scene *scene, bench_peer_result *out, char *why, size_t why_size);
    int needs_shadows;                /* nonzero: compares shadows (slabcast-bench refuses it without
                                         --shadows on; configurations with shadows off skip it) */
} bench_peer;

/* ---- the peer table (bench_peers.c) ------------------------------------------------------------ */

/* The peers slabcast-bench knows by name, built or not: "cpu", "cub-grid", "gl-raster", "gl-shadowmap".
 * A peer is in the table only when its file is built (CMake defines BENCH_HAVE_PEER_<NAME> then). */
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

/* Shadow decisions as peers and pictures take them: a byte per pixel, row 0 at the bottom. */
enum { BENCH_LIT = 0, BENCH_SHADOWED = 1, BENCH_NO_HIT = 255 };

/* Ours: BENCH_NO_HIT where our hit is SC_NO_HIT, else bit 0 of our shadow mask (light 0). */
void bench_our_decisions(const sc_hit *hits, const uint8_t *shadow_mask, size_t pixels, uint8_t *out);

/* How a peer's shadow decisions compare with ours, over the pixels both hit. */
typedef struct bench_shadow_compare {
    uint64_t both_hit;                /* pixels where both hit (the ones compared) */
    uint64_t only_ours, only_theirs;  /* pixels only one of the two hit (not compared) */
    uint64_t differ;                  /* compared pixels whose decisions differ ... */
    uint64_t they_lit;                /* ... lit in theirs where ours is in shadow */
    uint64_t they_shadowed;           /* ... in shadow in theirs where ours is lit */
    uint64_t differ_at_edges;         /* differing pixels within BENCH_EDGE_RADIUS pixels of an edge of
                                         our shadows (a hit pixel of ours with the other decision) */
    double agreement;                 /* 1 - differ / both_hit; 1 when nothing is compared */
} bench_shadow_compare;

#define BENCH_EDGE_RADIUS 2

/* Compares two decision images (bench_our_decisions' bytes) of width x height. */
void bench_shadow_compare_decisions(const uint8_t *ours, const uint8_t *theirs, uint32_t width, uint32_t height,
                                    bench_shadow_compare *out);

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
extern const bench_peer bench_peer_gl_shadowmap;

#endif
