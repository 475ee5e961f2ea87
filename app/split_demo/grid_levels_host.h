/* grid_levels_host.h - the plain-C side of `split-demo grid-levels` (demo_grid_levels.cu), shared with
 * its CPU test (tests/demo/test_grid_levels_ref.c):
 *   - the demo's camera (look-at + perspective, resolved on the host) and the binning of one triangle:
 *     view depths, screen bounding box widened by one pixel, tile range, depth key (nearest vertex
 *     depth), and the slab of a key. gl_bin_triangle and gl_slab_of are inline and also
 *     __host__ __device__ under nvcc: the device kernels and the CPU reference run the SAME source.
 *     Every float operation goes through GL_ADD / GL_SUB / GL_MUL / GL_DIV: on the device these are
 *     __fadd_rn / __fsub_rn / __fmul_rn / __fdiv_rn (never fused into an FMA, division correctly
 *     rounded), on the host plain IEEE single operations (C11 without extensions: no contraction,
 *     see grid_levels_host.c), so host and device give the same bits;
 *   - the reference layout: for each visible triangle, in id order, one reference per tile of its
 *     range, rows bottom to top, tiles left to right, as four arrays (tile id, tile column, key =
 *     row << slab_bits | slab, triangle id): the device's emit kernel writes the same arrays;
 *   - the split descriptors of the two grid builds (the same for the device and the CPU references):
 *       ours:   level 1 split_multisplit by tile id (IDS rule, unstable: B = tiles may exceed
 *               SPLIT_MAX_BUCKETS, the wide path), level 2 split_segmented by slab inside each tile;
 *       thesis: level 1 stable split_multisplit by tile column (B = tiles_x), level 2 split_segmented
 *               by tile row inside each column, level 3 split_segmented by slab inside each
 *               (column, row) cell;
 *     and both builds with the split library's CPU references;
 *   - the CPU reference grid (a counting sort of the references by cell, triangles in id order), the
 *     cell-by-cell multiset comparison, the per-tile / per-slab statistics and the heat-map colours.
 * Slab buckets: the slab is a bit field of the key (BITS rule), so a level by slab has
 * 2^slab_bits >= S buckets (slab_bits = ceil(log2 S)); buckets S .. 2^slab_bits - 1 stay empty.
 * Plain C; usable from .c and .cu files alike. */
#ifndef SPLIT_DEMO_GRID_LEVELS_HOST_H
#define SPLIT_DEMO_GRID_LEVELS_HOST_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "split.h"

#ifdef __CUDACC__
#define GL_HD __host__ __device__
#else
#define GL_HD
#endif

#if defined(__CUDA_ARCH__)
#define GL_ADD(a, b) __fadd_rn((a), (b))
#define GL_SUB(a, b) __fsub_rn((a), (b))
#define GL_MUL(a, b) __fmul_rn((a), (b))
#define GL_DIV(a, b) __fdiv_rn((a), (b))
#else
#define GL_ADD(a, b) ((a) + (b))
#define GL_SUB(a, b) ((a) - (b))
#define GL_MUL(a, b) ((a) * (b))
#define GL_DIV(a, b) ((a) / (b))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The demo's camera: an orthonormal basis (right, up, forward) at eye and the projection scales. */
typedef struct gl_camera {
    float eye[3], right[3], up[3], forward[3];
    float proj_x, proj_y; /* 1 / tan(fovy / 2) / aspect, 1 / tan(fovy / 2); aspect = width / height */
    float near_plane;     /* a vertex nearer than this (view depth) drops its triangle */
} gl_camera;

/* The grid: target size, tile edge, slab count, and what follows from them. */
typedef struct gl_grid {
    uint32_t width, height, tile, slabs;
    uint32_t tiles_x, tiles_y, tiles; /* ceil(width / tile), ceil(height / tile), their product */
    uint32_t slab_bits;               /* ceil(log2 slabs): the slab's field in a key */
    uint32_t slab_buckets;            /* 2^slab_bits: the buckets of a level by slab */
} gl_grid;

/* One triangle's binning: tiles [tx0, tx1] x [ty0, ty1] and its depth key, when visible. */
typedef struct gl_bin {
    uint32_t tx0, ty0, tx1, ty1;
    float key;        /* nearest vertex depth */
    uint32_t visible; /* 0: dropped (a vertex behind the near plane, wholly off screen, not finite) */
} gl_bin;

/* Which numbering of cells: ours (tile-major: (ty * tiles_x + tx) * slab_buckets + slab) or the
 * thesis's (column-major: (tx * tiles_y + ty) * slab_buckets + slab). */
typedef enum gl_layout { GL_LAYOUT_OURS = 0, GL_LAYOUT_THESIS } gl_layout;

GL_HD static inline float gl_dot_from(const float p[3], const float eye[3], const float axis[3])
{
    const float ax = GL_SUB(p[0], eye[0]), ay = GL_SUB(p[1], eye[1]), az = GL_SUB(p[2], eye[2]);
    return GL_ADD(GL_ADD(GL_MUL(ax, axis[0]), GL_MUL(ay, axis[1])), GL_MUL(az, axis[2]));
}

/* Screen coordinate in pixels of a view-space offset r at depth d: (0.5 + 0.5 * (r / d) * proj) * size. */
GL_HD static inline float gl_screen(float r, float d, float proj, float size)
{
    return GL_MUL(GL_ADD(0.5f, GL_MUL(GL_MUL(GL_DIV(r, d), proj), 0.5f)), size);
}

/* Tile index of a pixel coordinate: floor(s) widened by `widen` pixels, clamped to the screen. */
GL_HD static inline uint32_t gl_tile_of(float s, float widen, uint32_t size, uint32_t tile)
{
    float px = GL_ADD(floorf(s), widen);
    px = px < 0.0f ? 0.0f : px;
    px = px > (float)(size - 1) ? (float)(size - 1) : px;
    return (uint32_t)px / tile;
}

/* Bins one triangle (vertices p0, p1, p2): depths along forward; dropped when a vertex is nearer than
 * the near plane (the renderer clips such triangles; the demo leaves them out) or not finite, or when
 * its screen box lies wholly off screen; otherwise the box widened by one pixel on every side gives
 * the tile range, and the key is the nearest vertex depth. */
GL_HD static inline gl_bin gl_bin_triangle(const gl_camera *c, const gl_grid *g, const float p0[3],
                                           const float p1[3], const float p2[3])
{
    gl_bin b = {0, 0, 0, 0, 0.0f, 0};
    const float *p[3] = {p0, p1, p2};
    float xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY, key = INFINITY;
    for (int v = 0; v < 3; ++v) {
        const float d = gl_dot_from(p[v], c->eye, c->forward);
        if (!(d >= c->near_plane) || !(d <= 3.0e38f)) return b; /* behind the near plane, NaN or inf */
        const float x = gl_screen(gl_dot_from(p[v], c->eye, c->right), d, c->proj_x, (float)g->width);
        const float y = gl_screen(gl_dot_from(p[v], c->eye, c->up), d, c->proj_y, (float)g->height);
        if (!(x == x) || !(y == y)) return b;
        xmin = fminf(xmin, x), xmax = fmaxf(xmax, x);
        ymin = fminf(ymin, y), ymax = fmaxf(ymax, y);
        key = fminf(key, d);
    }
    /* wholly off screen: its widened box misses the pixels [0, width) x [0, height) */
    if (xmax < -1.0f || ymax < -1.0f || xmin >= (float)g->width + 1.0f || ymin >= (float)g->height + 1.0f)
        return b;
    b.tx0 = gl_tile_of(xmin, -1.0f, g->width, g->tile), b.tx1 = gl_tile_of(xmax, 1.0f, g->width, g->tile);
    b.ty0 = gl_tile_of(ymin, -1.0f, g->height, g->tile), b.ty1 = gl_tile_of(ymax, 1.0f, g->height, g->tile);
    b.key = key;
    b.visible = 1;
    return b;
}

/* References of a bin: the tiles of its range (0 when dropped). */
GL_HD static inline uint64_t gl_bin_refs(const gl_bin *b)
{
    return b->visible ? (uint64_t)(b->tx1 - b->tx0 + 1) * (uint64_t)(b->ty1 - b->ty0 + 1) : 0;
}

/* The slab of a depth key: floor((key - dmin) / (dmax - dmin) * S), clamped to 0 .. S-1; 0 when
 * the frame's depth range is empty. */
GL_HD static inline uint32_t gl_slab_of(float key, float dmin, float dmax, uint32_t slabs)
{
    if (!(dmax > dmin)) return 0;
    const float s = floorf(GL_MUL(GL_DIV(GL_SUB(key, dmin), GL_SUB(dmax, dmin)), (float)slabs));
    if (!(s > 0.0f)) return 0;
    return s >= (float)(slabs - 1) ? slabs - 1 : (uint32_t)s;
}

/* The key of a reference: the tile row above the slab's field. */
GL_HD static inline uint32_t gl_ref_key(uint32_t ty, uint32_t slab, uint32_t slab_bits)
{
    return ty << slab_bits | slab;
}

GL_HD static inline uint64_t gl_cell_index(const gl_grid *g, gl_layout layout, uint32_t tx, uint32_t ty, uint32_t s)
{
    const uint64_t cell = layout == GL_LAYOUT_OURS ? (uint64_t)ty * g->tiles_x + tx : (uint64_t)tx * g->tiles_y + ty;
    return cell * g->slab_buckets + s;
}

/* ---- host functions (grid_levels_host.c) ---- */

/* The grid of a target size, tile edge and slab count. Returns 0, or -1 when a value is out of range:
 * width or height 0, tile 0, slabs 0 or over 1024, tiles_x or tiles_y over SPLIT_MAX_BUCKETS (a level
 * of the thesis's build splits by them), or a cell count (tiles * 2^slab_bits) of 2^32 or more. */
int gl_grid_make(uint32_t width, uint32_t height, uint32_t tile, uint32_t slabs, gl_grid *out);

/* The camera from eye, target, up, the vertical field of view in degrees and the near plane, for a
 * width x height target. Returns 0, or -1 when eye == target, up is parallel to the view direction,
 * the field of view is not in (0, 180) or a value is not finite. */
int gl_camera_make(const float eye[3], const float target[3], const float up[3], float fovy_degrees,
                   float near_plane, uint32_t width, uint32_t height, gl_camera *out);

/* Bins every triangle (positions: vertex_count x 3 floats; indices: triangle_count x 3, each
 * < vertex_count) into bins[]; *dmin, *dmax the least and greatest key of the visible triangles
 * (both 0 when none is visible). Returns the number of visible triangles. */
uint64_t gl_bin_all(const gl_camera *c, const gl_grid *g, const float *positions, const uint32_t *indices,
                    uint32_t triangle_count, gl_bin *bins, float *dmin, float *dmax);

/* The references of all bins (the sum of gl_bin_refs). */
uint64_t gl_count_refs(const gl_bin *bins, uint32_t triangle_count);

/* Writes the references of every visible triangle in the reference layout (see the file head):
 * ref_tile[], ref_col[], ref_key[], ref_tri[], each gl_count_refs entries. */
void gl_emit_refs(const gl_grid *g, const gl_bin *bins, uint32_t triangle_count, float dmin, float dmax,
                  uint32_t *ref_tile, uint32_t *ref_col, uint32_t *ref_key, uint32_t *ref_tri);

/* A grid of cells: cells + 1 offsets and the triangle ids of each cell, in a layout. */
typedef struct gl_cells {
    gl_layout layout;
    const uint32_t *offsets; /* tiles * slab_buckets + 1 entries */
    const uint32_t *tris;    /* offsets[cells] entries */
} gl_cells;

/* The CPU reference grid: a counting sort of the references by cell (ours layout), the triangles of a
 * cell in id order. offsets: tiles * slab_buckets + 1 entries; tris: the reference count. */
void gl_reference_cells(const gl_grid *g, const gl_bin *bins, uint32_t triangle_count, float dmin, float dmax,
                        uint32_t *offsets, uint32_t *tris);

/* The first difference of `got` from `want` (ours layout), cell by cell as multisets of triangle ids.
 * Returns 0 when every cell matches; otherwise 1 with *bad filled. */
typedef struct gl_mismatch {
    uint32_t tx, ty, slab;
    uint32_t want_count, got_count;
    uint32_t want_tri, got_tri; /* the first differing ids in ascending order (UINT32_MAX: none) */
    int bad_total;              /* the reference totals differ (then only the counts are meaningful) */
} gl_mismatch;
int gl_compare_cells(const gl_grid *g, const gl_cells *want, const gl_cells *got, gl_mismatch *bad);

/* Statistics of a grid (ours layout) for the table and the pictures. tile_refs and tile_slabs
 * (tiles entries each) and slab_refs (slabs entries) may be NULL. */
typedef struct gl_stats {
    uint64_t references;
    uint32_t nonempty_tiles, max_per_tile;
    uint32_t nonempty_cells, max_per_cell;
    uint32_t nonempty_columns, max_per_column; /* the thesis's level 1 */
} gl_stats;
void gl_grid_stats(const gl_grid *g, const uint32_t *offsets, gl_stats *out, uint32_t *tile_refs,
                   uint32_t *tile_slabs, uint64_t *slab_refs);

/* Heat-map colour of t in [0, 1] (clamped): black, purple, red, orange, yellow, white. */
void gl_heat_colour(float t, uint8_t rgb[3]);
/* The place of v on a log scale of 0 .. vmax: log2(1 + v) / log2(1 + vmax) (0 when vmax is 0). */
float gl_log_place(double v, double vmax);

/* ---- the two grid builds: their descriptors, and their runs with the CPU references ---- */

/* The arrays of the builds (device pointers for the demo, host pointers for the references).
 * Inputs: n references in the reference layout. Outputs: keys (k*) and triangle ids (t*) after each
 * level, and the offsets of each level. */
typedef struct gl_build_bufs {
    size_t n;
    const uint32_t *ref_tile, *ref_col, *ref_key, *ref_tri;
    /* ours */
    uint32_t *o_key1, *o_tri1, *o_tile_off;      /* level 1: by tile; tiles + 1 offsets */
    uint32_t *o_key2, *o_tri2, *o_cell_off;      /* level 2: by slab; tiles * slab_buckets + 1 */
    /* thesis */
    uint32_t *t_key1, *t_tri1, *t_col_off;       /* level 1: by column; tiles_x + 1 */
    uint32_t *t_key2, *t_tri2, *t_colrow_off;    /* level 2: by row; tiles_x * tiles_y + 1 */
    uint32_t *t_key3, *t_tri3, *t_cell_off;      /* level 3: by slab; tiles * slab_buckets + 1 */
} gl_build_bufs;

/* The descriptors of each level (level 1 .. 2 ours, 1 .. 3 thesis). */
split_desc gl_desc_ours(const gl_grid *g, const gl_build_bufs *b, int level);
split_desc gl_desc_thesis(const gl_grid *g, const gl_build_bufs *b, int level);

/* Both builds with the split library's CPU references (split_multisplit_ref, split_segmented_ref).
 * Returns SC_OK or the failing call's status. */
sc_status gl_build_ours_ref(const gl_grid *g, const gl_build_bufs *b);
sc_status gl_build_thesis_ref(const gl_grid *g, const gl_build_bufs *b);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_GRID_LEVELS_HOST_H */
