/* grid_scene.h - the scene and grid sequence of the grid-change tests (tile size and slab count
 * changed between frames, sc_renderer_set_grid; stats without waiting, sc_renderer_poll_stats),
 * shared by the CPU test and the GPU test. Header-only (static functions). */
#ifndef SC_GRID_SCENE_H
#define SC_GRID_SCENE_H

#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sctest.h"
#include "slabcast.h"

enum { GRID_W = 96, GRID_H = 72, GRID_FRAMES = 11, GRID_KINDS = 6 };

/* The grids of the references (index = kind): the default (8, 16) and others that cover 1-pixel
 * and widest tiles, a tile size that does not divide the target, 1 slab and the most slabs. */
static const uint32_t k_grid_kinds[GRID_KINDS][2] = {{8, 16}, {4, 64}, {16, 16}, {32, 1024}, {3, 5}, {1, 1}};

/* The grid asked for before frame i ({0, 0}: the defaults), and the kind in force after it (an
 * invalid request keeps the kind before: tile size 33, 1025 slabs). */
typedef struct grid_step {
    uint32_t tile_size, num_slabs;
    int valid;
    int kind;
} grid_step;

static const grid_step k_grid_steps[GRID_FRAMES] = {
    {4, 64, 1, 1}, {4, 64, 1, 1},   {16, 0, 1, 2}, {33, 16, 0, 2}, {32, 1024, 1, 3}, {0, 0, 1, 0},
    {3, 5, 1, 4},  {8, 1025, 0, 4}, {1, 1, 1, 5},  {0, 16, 1, 0},  {16, 16, 1, 2}};

/* The view mode of frame i: the grid shows in the tile heat map (tile size) and the slab mode
 * (slab count), the hits in the shaded image. */
static inline sc_view_mode grid_mode(uint32_t i)
{
    static const sc_view_mode modes[3] = {SC_VIEW_TILE_HEAT, SC_VIEW_SLAB, SC_VIEW_SHADED};
    return modes[i % 3];
}

/* The frame time of frame i. */
static inline float grid_time(uint32_t i) { return 0.29f * (float)(i + 1); }

/* The default knot, deformed. The caller frees with sc_mesh_free. */
static inline int grid_scene(sc_mesh *out) { return sc_mesh_default(24, out) == SC_OK; }

/* A renderer of the scene on `backend` created with the grid (tile_size, num_slabs) and stream (NULL
 * on failure, reported). */
static inline sc_renderer *grid_renderer(const sc_mesh *m, sc_backend backend, uint32_t tile_size,
                                         uint32_t num_slabs, cudaStream_t stream)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = GRID_W;
    d.height = GRID_H;
    d.tile_size = tile_size;
    d.num_slabs = num_slabs;
    d.stream = stream;
    /* Room for every frame's references from the start: a frame that overflows is rendered by the
     * CUDA backend's fallback, whose ray-triangle test count differs (no slab order), and the
     * tests compare the counts of renderers whose capacities grew differently. */
    d.initial_ref_capacity = (size_t)1 << 22;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "sc_renderer_create (%u, %u): %s", tile_size, num_slabs, sc_last_error());
        return NULL;
    }
    sc_mesh_data md = sc_mesh_view(m);
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = 0.5f;
    def.wave.amount = 0.02f;
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_set_deform(r, &def) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "set up: %s", sc_last_error());
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* Sets view mode `mode` on r (the other shading fields: defaults). */
static inline int grid_set_mode(sc_renderer *r, sc_view_mode mode)
{
    sc_shading_desc s;
    memset(&s, 0, sizeof s);
    s.mode = mode;
    return sc_renderer_set_shading(r, &s) == SC_OK;
}

/* Whether two stats are the same, field by field; the first field that differs in *what. */
static inline int grid_stats_equal(const sc_frame_stats *a, const sc_frame_stats *b, const char **what)
{
    for (int i = 0; i < SC_STAGE_COUNT; ++i)
        if (a->stage_ms[i] != b->stage_ms[i]) {
            *what = "stage_ms";
            return 0;
        }
#define GRID_FIELD(f)  \
    if (a->f != b->f) { \
        *what = #f;     \
        return 0;       \
    }
    GRID_FIELD(frame_ms);
    GRID_FIELD(total_ms);
    GRID_FIELD(triangles);
    GRID_FIELD(visible_triangles);
    GRID_FIELD(references);
    GRID_FIELD(ray_triangle_tests);
    GRID_FIELD(ray_tests_performed);
    GRID_FIELD(tiles);
    GRID_FIELD(tiles_exited_early);
    GRID_FIELD(hit_pixels);
    GRID_FIELD(capacity_grows);
    GRID_FIELD(overflow_passes);
    GRID_FIELD(depth_min);
    GRID_FIELD(depth_max);
    GRID_FIELD(frame);
#undef GRID_FIELD
    *what = "";
    return 1;
}

/* Tiles of the target in the grid of `kind`. */
static inline uint64_t grid_tiles(int kind)
{
    const uint32_t t = k_grid_kinds[kind][0];
    return (uint64_t)((GRID_W + t - 1) / t) * ((GRID_H + t - 1) / t);
}

#endif /* SC_GRID_SCENE_H */
