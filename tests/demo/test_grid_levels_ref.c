/* test_grid_levels_ref.c - the CPU side of `split-demo grid-levels` (app/split_demo/demo_grid_levels.cu),
 * without a GPU (cpu), on the demo's own host code (app/split_demo/grid_levels_host.c):
 *  - binning of hand-made triangles with known tiles and slabs, seen by a camera at the origin looking
 *    down -z with a 90-degree field of view on a 64 x 64 target (a point (x, y, -d) lands on pixel
 *    x = 32 + 32 x / d): a triangle inside one tile, one whose widened box crosses a tile border, one
 *    half a pixel past the border, one with a vertex behind the camera, one nearer than the near
 *    plane, one wholly off screen and one just off screen (its widened box still touches the edge),
 *    two at equal depth; the slabs of keys spread over the depth range, the empty range;
 *  - grids of awkward sizes (67 x 45 in tiles of 8, 1 x 1, 100 x 3 in tiles of 7, 1024 x 1024 with
 *    16384 tiles: the wide multisplit path), slab counts that are and are not powers of two, random
 *    triangles: the CPU two-level build (split_multisplit_ref by tile + split_segmented_ref by slab)
 *    and the three-level build of the thesis (column, row, slab) give the same cells, and both equal
 *    the reference grid (a counting sort by cell);
 *  - the comparison catches crafted wrong grids: a triangle moved to another cell, a triangle id
 *    changed, a reference dropped; and passes a reordering inside a cell (cells are multisets);
 *  - statistics of a small known grid; the heat-map colours at both ends; the log scale. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid_levels_host.h"
#include "sctest.h"
#include "split.h"

/* ---- hand-made triangles ---- */

static gl_camera origin_camera(uint32_t w, uint32_t h, float near_plane)
{
    const float eye[3] = {0, 0, 0}, target[3] = {0, 0, -1}, up[3] = {0, 1, 0};
    gl_camera c;
    memset(&c, 0, sizeof c);
    SCT_CHECK(gl_camera_make(eye, target, up, 90.0f, near_plane, w, h, &c) == 0);
    return c;
}

/* World x (or y) at depth d of pixel coordinate s on a 64-pixel axis: (s - 32) / 32 * d. */
static float world_of(float s, float d)
{
    return (s - 32.0f) / 32.0f * d;
}

/* Bins the triangle whose pixel box is [sx0, sx1] x [sy0, sy1] at depth d (a right triangle with its
 * corner at (sx0, sy0)... its box is exactly that), on the 64 x 64 target. */
static gl_bin bin_box(const gl_camera *c, const gl_grid *g, float sx0, float sx1, float sy0, float sy1, float d)
{
    const float p0[3] = {world_of(sx0, d), world_of(sy0, d), -d};
    const float p1[3] = {world_of(sx1, d), world_of(sy0, d), -d};
    const float p2[3] = {world_of(sx0, d), world_of(sy1, d), -d};
    return gl_bin_triangle(c, g, p0, p1, p2);
}

static void check_tiles(gl_bin b, uint32_t tx0, uint32_t tx1, uint32_t ty0, uint32_t ty1, const char *what)
{
    SCT_CHECK_MSG(b.visible, "%s: dropped", what);
    SCT_CHECK_MSG(b.tx0 == tx0 && b.tx1 == tx1 && b.ty0 == ty0 && b.ty1 == ty1,
                  "%s: tiles x %u..%u y %u..%u, expected x %u..%u y %u..%u", what, b.tx0, b.tx1, b.ty0, b.ty1, tx0, tx1,
                  ty0, ty1);
}

static void test_hand_made_triangles(void)
{
    gl_grid g;
    SCT_REQUIRE(gl_grid_make(64, 64, 8, 16, &g) == 0);
    SCT_CHECK(g.tiles_x == 8 && g.tiles_y == 8 && g.tiles == 64 && g.slab_bits == 4 && g.slab_buckets == 16);
    const gl_camera c = origin_camera(64, 64, 0.01f);
    SCT_CHECK(c.proj_x == 1.0f && c.proj_y == 1.0f && c.forward[2] == -1.0f && c.right[0] == 1.0f && c.up[1] == 1.0f);

    /* pixels 18 .. 22 x 26 .. 30: widened 17 .. 23 x 25 .. 31, inside tile (2, 3) */
    gl_bin one = bin_box(&c, &g, 18, 22, 26, 30, 1);
    check_tiles(one, 2, 2, 3, 3, "one tile");
    SCT_CHECK(one.key == 1.0f && gl_bin_refs(&one) == 1);
    /* 18 .. 26: widened to 27, across the border at 24 */
    check_tiles(bin_box(&c, &g, 18, 26, 26, 30, 2), 2, 3, 3, 3, "across a border");
    /* the one-pixel widening: 17.0 stays in tile 2 (16 .. 23), 16.5 reaches pixel 15 of tile 1;
     * 22.5 widens to 23 (tile 2), 23.0 to 24 (tile 3) */
    check_tiles(bin_box(&c, &g, 17.0f, 22.5f, 26, 30, 1), 2, 2, 3, 3, "17 .. 22.5");
    check_tiles(bin_box(&c, &g, 16.5f, 22.5f, 26, 30, 1), 1, 2, 3, 3, "16.5 .. 22.5");
    check_tiles(bin_box(&c, &g, 17.0f, 23.0f, 26, 30, 1), 2, 3, 3, 3, "17 .. 23");
    /* a box covering the screen and more: clamped to every tile */
    gl_bin all = bin_box(&c, &g, -100, 200, -50, 300, 4);
    check_tiles(all, 0, 7, 0, 7, "whole screen");
    SCT_CHECK(gl_bin_refs(&all) == 64);

    /* a vertex behind the camera (depth -1), one nearer than the near plane: dropped */
    const float behind[3][3] = {{0, 0, -1}, {0.1f, 0, -1}, {0, 0.1f, 1}};
    SCT_CHECK(!gl_bin_triangle(&c, &g, behind[0], behind[1], behind[2]).visible);
    const float too_near[3][3] = {{0, 0, -1}, {0.1f, 0, -1}, {0, 0.1f, -0.005f}};
    SCT_CHECK(!gl_bin_triangle(&c, &g, too_near[0], too_near[1], too_near[2]).visible);
    SCT_CHECK(gl_bin_refs(&(gl_bin){0, 0, 5, 5, 1.0f, 0}) == 0);
    /* wholly off screen (right, top, left, bottom): dropped */
    SCT_CHECK(!bin_box(&c, &g, 70, 80, 10, 20, 1).visible);
    SCT_CHECK(!bin_box(&c, &g, 10, 20, 66, 90, 1).visible);
    SCT_CHECK(!bin_box(&c, &g, -30, -1.5f, 10, 20, 1).visible);
    SCT_CHECK(!bin_box(&c, &g, 10, 20, -30, -2, 1).visible);
    /* just off screen: the widened box touches pixel 63 (or 0): kept, in the edge tile */
    check_tiles(bin_box(&c, &g, 64.5f, 70, 10, 12, 1), 7, 7, 1, 1, "just right of the screen");
    check_tiles(bin_box(&c, &g, 10, 12, -20, -0.5f, 1), 1, 1, 0, 0, "just below the screen");
    /* a non-finite vertex: dropped */
    const float nan_tri[3][3] = {{0, 0, -1}, {NAN, 0, -1}, {0, 0.1f, -1}};
    SCT_CHECK(!gl_bin_triangle(&c, &g, nan_tri[0], nan_tri[1], nan_tri[2]).visible);

    /* two triangles at equal depth: equal keys, the same slab */
    const gl_bin a = bin_box(&c, &g, 10, 12, 10, 12, 3), b = bin_box(&c, &g, 41, 44, 41, 44, 3);
    SCT_CHECK(a.visible && b.visible && a.key == b.key && a.key == 3.0f);
    SCT_CHECK(gl_slab_of(a.key, 1.0f, 5.0f, 16) == gl_slab_of(b.key, 1.0f, 5.0f, 16));
    /* slabs over the range 1 .. 5 with 16 slabs: (key - 1) / 4 * 16 */
    SCT_CHECK_EQ_U64(gl_slab_of(1.0f, 1.0f, 5.0f, 16), 0);
    SCT_CHECK_EQ_U64(gl_slab_of(3.0f, 1.0f, 5.0f, 16), 8);
    SCT_CHECK_EQ_U64(gl_slab_of(1.25f, 1.0f, 5.0f, 16), 1);
    SCT_CHECK_EQ_U64(gl_slab_of(1.2499f, 1.0f, 5.0f, 16), 0);
    SCT_CHECK_EQ_U64(gl_slab_of(5.0f, 1.0f, 5.0f, 16), 15); /* the farthest key: clamped into the last slab */
    SCT_CHECK_EQ_U64(gl_slab_of(0.5f, 1.0f, 5.0f, 16), 0);  /* below the range: clamped */
    SCT_CHECK_EQ_U64(gl_slab_of(2.0f, 2.0f, 2.0f, 16), 0);  /* an empty range */
    SCT_CHECK_EQ_U64(gl_slab_of(4.9f, 1.0f, 5.0f, 1), 0);   /* one slab */

    /* the whole frame of these triangles through gl_bin_all, the emitted references and the grid */
    float pos[7 * 9];
    const float boxes[7][5] = {
        {18, 22, 26, 30, 1}, {18, 26, 26, 30, 2}, {10, 12, 10, 12, 3}, {41, 44, 41, 44, 3},
        {70, 80, 10, 20, 1}, {64.5f, 70, 10, 12, 5}, {-100, 200, -50, 300, 4},
    };
    for (int t = 0; t < 7; ++t) {
        const float *bx = boxes[t];
        const float v[3][3] = {{world_of(bx[0], bx[4]), world_of(bx[2], bx[4]), -bx[4]},
                               {world_of(bx[1], bx[4]), world_of(bx[2], bx[4]), -bx[4]},
                               {world_of(bx[0], bx[4]), world_of(bx[3], bx[4]), -bx[4]}};
        memcpy(pos + t * 9, v, sizeof v);
    }
    uint32_t idx[7 * 3];
    for (uint32_t i = 0; i < 21; ++i) idx[i] = i;
    gl_bin bins[7];
    float dmin = 0, dmax = 0;
    SCT_CHECK_EQ_U64(gl_bin_all(&c, &g, pos, idx, 7, bins, &dmin, &dmax), 6);
    SCT_CHECK(dmin == 1.0f && dmax == 5.0f);
    const uint64_t refs = gl_count_refs(bins, 7);
    SCT_CHECK_EQ_U64(refs, 1 + 2 + 1 + 1 + 1 + 64);
    uint32_t tile[70], col[70], key[70], tri[70], off[64 * 16 + 1], cell_tri[70];
    gl_emit_refs(&g, bins, 7, dmin, dmax, tile, col, key, tri);
    /* triangle 1 (depth 2, slab 4) references tiles (2, 3) and (3, 3), left to right */
    SCT_CHECK(tri[1] == 1 && tile[1] == 3 * 8 + 2 && col[1] == 2 && key[1] == (3u << 4 | 4));
    SCT_CHECK(tri[2] == 1 && tile[2] == 3 * 8 + 3 && col[2] == 3 && key[2] == (3u << 4 | 4));
    /* triangle 6 (depth 4: slab 12) covers everything; its first reference is tile (0, 0) */
    SCT_CHECK(tri[6] == 6 && tile[6] == 0 && key[6] == 12);
    gl_reference_cells(&g, bins, 7, dmin, dmax, off, cell_tri);
    SCT_CHECK_EQ_U64(off[64 * 16], refs);
    /* cell (tile (2, 3), slab 0) holds triangle 0; (2, 3) slab 12 holds 6 */
    const size_t c0 = (size_t)gl_cell_index(&g, GL_LAYOUT_OURS, 2, 3, 0);
    SCT_CHECK(off[c0 + 1] - off[c0] == 1 && cell_tri[off[c0]] == 0);
    const size_t c12 = (size_t)gl_cell_index(&g, GL_LAYOUT_OURS, 2, 3, 12);
    SCT_CHECK(off[c12 + 1] - off[c12] == 1 && cell_tri[off[c12]] == 6);
    /* tile (7, 1): triangle 5 (depth 5: the last slab) and 6 */
    const size_t c15 = (size_t)gl_cell_index(&g, GL_LAYOUT_OURS, 7, 1, 15);
    SCT_CHECK(off[c15 + 1] - off[c15] == 1 && cell_tri[off[c15]] == 5);
    gl_stats st;
    uint32_t tile_refs[64], tile_slabs[64];
    uint64_t slab_refs[16];
    gl_grid_stats(&g, off, &st, tile_refs, tile_slabs, slab_refs);
    SCT_CHECK_EQ_U64(st.references, refs);
    SCT_CHECK_EQ_U64(st.nonempty_tiles, 64);
    SCT_CHECK_EQ_U64(st.max_per_tile, 3); /* tile (2, 3): triangles 0, 1, 6 */
    SCT_CHECK_EQ_U64(tile_refs[3 * 8 + 2], 3);
    SCT_CHECK_EQ_U64(tile_slabs[3 * 8 + 2], 3);
    SCT_CHECK_EQ_U64(st.nonempty_cells, 64 + 6);
    SCT_CHECK_EQ_U64(st.max_per_cell, 1);
    SCT_CHECK_EQ_U64(slab_refs[12], 64);
    SCT_CHECK_EQ_U64(slab_refs[8], 2);
    SCT_CHECK_EQ_U64(st.nonempty_columns, 8);
}

/* ---- the builds on random frames ---- */

typedef struct frame {
    gl_grid g;
    gl_bin *bins;
    uint32_t n_tri;
    float dmin, dmax;
    size_t refs;
    uint32_t *ref_tile, *ref_col, *ref_key, *ref_tri;
    uint32_t *ref_off, *ref_cells;     /* the reference grid */
    gl_build_bufs b;
    uint32_t *arena;                   /* every output array of the builds */
} frame;

static void free_frame(frame *f)
{
    free(f->bins), free(f->ref_tile), free(f->ref_col), free(f->ref_key), free(f->ref_tri);
    free(f->ref_off), free(f->ref_cells), free(f->arena);
    memset(f, 0, sizeof *f);
}

/* n_tri random triangles in front of a camera at (0, 0, 3) looking at the origin, most of them small,
 * some large, some partly behind the camera or off screen. Returns 0 on success. */
static int make_frame(frame *f, uint32_t w, uint32_t h, uint32_t tile, uint32_t slabs, uint32_t n_tri, uint64_t seed)
{
    memset(f, 0, sizeof *f);
    if (gl_grid_make(w, h, tile, slabs, &f->g) != 0) return -1;
    const float eye[3] = {0, 0, 3}, target[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    gl_camera c;
    if (gl_camera_make(eye, target, up, 50.0f, 0.01f, w, h, &c) != 0) return -1;
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    float *pos = malloc((size_t)n_tri * 9 * sizeof *pos);
    uint32_t *idx = malloc((size_t)n_tri * 3 * sizeof *idx);
    f->bins = malloc((size_t)n_tri * sizeof *f->bins);
    if (!pos || !idx || !f->bins) return free(pos), free(idx), -1;
    for (uint32_t t = 0; t < n_tri; ++t) {
        const float size = sct_rng_below(&rng, 50) == 0 ? 0.6f : 0.05f;
        const float cx = (float)(sct_rng_unit(&rng) * 4 - 2), cy = (float)(sct_rng_unit(&rng) * 4 - 2);
        const float cz = (float)(sct_rng_unit(&rng) * 5 - 3.2); /* a few beyond the eye at z 3 */
        for (int v = 0; v < 3; ++v) {
            pos[t * 9 + v * 3 + 0] = cx + (float)(sct_rng_unit(&rng) - 0.5) * size;
            pos[t * 9 + v * 3 + 1] = cy + (float)(sct_rng_unit(&rng) - 0.5) * size;
            pos[t * 9 + v * 3 + 2] = cz + (float)(sct_rng_unit(&rng) - 0.5) * size;
            idx[t * 3 + v] = t * 3 + (uint32_t)v;
        }
    }
    f->n_tri = n_tri;
    gl_bin_all(&c, &f->g, pos, idx, n_tri, f->bins, &f->dmin, &f->dmax);
    free(pos), free(idx);
    f->refs = (size_t)gl_count_refs(f->bins, n_tri);
    const size_t n = f->refs ? f->refs : 1, cells = (size_t)f->g.tiles * f->g.slab_buckets;
    f->ref_tile = malloc(n * 4), f->ref_col = malloc(n * 4), f->ref_key = malloc(n * 4), f->ref_tri = malloc(n * 4);
    f->ref_off = malloc((cells + 1) * 4), f->ref_cells = malloc(n * 4);
    const size_t tiles = f->g.tiles, cols = f->g.tiles_x;
    const size_t arena = 10 * n + (tiles + 1) + 2 * (cells + 1) + (cols + 1) + (tiles + 1);
    f->arena = calloc(arena, 4);
    if (!f->ref_tile || !f->ref_col || !f->ref_key || !f->ref_tri || !f->ref_off || !f->ref_cells || !f->arena)
        return -1;
    gl_emit_refs(&f->g, f->bins, n_tri, f->dmin, f->dmax, f->ref_tile, f->ref_col, f->ref_key, f->ref_tri);
    gl_reference_cells(&f->g, f->bins, n_tri, f->dmin, f->dmax, f->ref_off, f->ref_cells);
    uint32_t *p = f->arena;
    gl_build_bufs *b = &f->b;
    b->n = f->refs;
    b->ref_tile = f->ref_tile, b->ref_col = f->ref_col, b->ref_key = f->ref_key, b->ref_tri = f->ref_tri;
    b->o_key1 = p, p += n, b->o_tri1 = p, p += n, b->o_key2 = p, p += n, b->o_tri2 = p, p += n;
    b->t_key1 = p, p += n, b->t_tri1 = p, p += n, b->t_key2 = p, p += n, b->t_tri2 = p, p += n;
    b->t_key3 = p, p += n, b->t_tri3 = p, p += n;
    b->o_tile_off = p, p += tiles + 1, b->o_cell_off = p, p += cells + 1, b->t_cell_off = p, p += cells + 1;
    b->t_col_off = p, p += cols + 1, b->t_colrow_off = p;
    return 0;
}

static void report(const char *what, const gl_mismatch *m)
{
    if (m->bad_total)
        fprintf(stderr, "%s: reference totals differ (%u expected, %u found) or offsets decrease\n", what,
                m->want_count, m->got_count);
    else
        fprintf(stderr, "%s: cell tile (%u, %u) slab %u: %u references expected, %u found; first difference: "
                        "triangle %u expected, %u found\n",
                what, m->tx, m->ty, m->slab, m->want_count, m->got_count, m->want_tri, m->got_tri);
}

static void check_builds(uint32_t w, uint32_t h, uint32_t tile, uint32_t slabs, uint32_t n_tri, uint64_t seed)
{
    frame f;
    SCT_REQUIRE(make_frame(&f, w, h, tile, slabs, n_tri, seed) == 0);
    SCT_CHECK_MSG(f.refs > n_tri / 4, "%ux%u: only %zu references", w, h, f.refs);
    printf("      %ux%u tile %u, %u slabs: %u triangles, %zu references\n", w, h, tile, slabs, n_tri, f.refs);
    SCT_CHECK_MSG(gl_build_ours_ref(&f.g, &f.b) == SC_OK, "%ux%u tile %u, %u slabs: ours: %s", w, h, tile, slabs,
                  sc_last_error());
    SCT_CHECK_MSG(gl_build_thesis_ref(&f.g, &f.b) == SC_OK, "%ux%u tile %u, %u slabs: thesis: %s", w, h, tile, slabs,
                  sc_last_error());
    const gl_cells want = {GL_LAYOUT_OURS, f.ref_off, f.ref_cells};
    const gl_cells ours = {GL_LAYOUT_OURS, f.b.o_cell_off, f.b.o_tri2};
    const gl_cells thesis = {GL_LAYOUT_THESIS, f.b.t_cell_off, f.b.t_tri3};
    gl_mismatch m;
    const int bad_ours = gl_compare_cells(&f.g, &want, &ours, &m);
    if (bad_ours) report("ours", &m);
    const int bad_thesis = gl_compare_cells(&f.g, &want, &thesis, &m);
    if (bad_thesis) report("thesis", &m);
    const int bad_both = gl_compare_cells(&f.g, &ours, &thesis, &m);
    SCT_CHECK_MSG(!bad_ours && !bad_thesis && !bad_both, "%ux%u tile %u, %u slabs, %u triangles: cells differ", w, h,
                  tile, slabs, n_tri);
    /* the keys travelled with the triangles: every key of ours' level 2 is its cell's row and slab */
    uint32_t bad_keys = 0;
    for (uint32_t t = 0; t < f.g.tiles; ++t)
        for (uint32_t s = 0; s < f.g.slab_buckets; ++s) {
            const size_t cell = (size_t)t * f.g.slab_buckets + s;
            for (uint32_t r = f.b.o_cell_off[cell]; r < f.b.o_cell_off[cell + 1]; ++r)
                bad_keys += f.b.o_key2[r] != gl_ref_key(t / f.g.tiles_x, s, f.g.slab_bits);
        }
    SCT_CHECK_EQ_U64(bad_keys, 0);
    /* the thesis's level 1 offsets: each column's references */
    gl_stats st;
    gl_grid_stats(&f.g, f.ref_off, &st, NULL, NULL, NULL);
    SCT_CHECK_EQ_U64(st.references, f.refs);
    uint32_t max_col = 0;
    for (uint32_t x = 0; x < f.g.tiles_x; ++x) {
        const uint32_t c = f.b.t_col_off[x + 1] - f.b.t_col_off[x];
        max_col = c > max_col ? c : max_col;
    }
    SCT_CHECK_EQ_U64(max_col, st.max_per_column);
    free_frame(&f);
}

static void test_builds_agree(void)
{
    check_builds(64, 64, 8, 16, 500, 1);
    check_builds(67, 45, 8, 5, 2000, 2);   /* partial edge tiles, 5 slabs in 8 buckets */
    check_builds(1, 1, 8, 16, 50, 3);      /* one tile */
    check_builds(100, 3, 7, 1, 300, 4);    /* one slab, one row of tiles, tile 7 */
    check_builds(333, 250, 32, 1024, 3000, 5);
    check_builds(1024, 1024, 8, 16, 20000, 6); /* 16384 tiles: level 1 of ours on the wide path */
    check_builds(200, 150, 1, 3, 400, 7);  /* 1-pixel tiles */
}

/* ---- the comparison fails on crafted wrong grids ---- */

static void test_compare_catches_errors(void)
{
    frame f;
    SCT_REQUIRE(make_frame(&f, 64, 48, 8, 4, 800, 11) == 0);
    SCT_REQUIRE(f.refs > 100);
    const size_t cells = (size_t)f.g.tiles * f.g.slab_buckets;
    const gl_cells want = {GL_LAYOUT_OURS, f.ref_off, f.ref_cells};
    uint32_t *off = malloc((cells + 1) * 4), *tri = malloc(f.refs * 4);
    SCT_REQUIRE(off && tri);
    gl_mismatch m;
    const gl_cells got = {GL_LAYOUT_OURS, off, tri};

    /* a correct copy passes, and so does one with a cell's triangles in another order */
    memcpy(off, f.ref_off, (cells + 1) * 4), memcpy(tri, f.ref_cells, f.refs * 4);
    SCT_CHECK(gl_compare_cells(&f.g, &want, &got, &m) == 0);
    size_t big = 0; /* a cell with at least two triangles */
    while (big < cells && off[big + 1] - off[big] < 2) ++big;
    SCT_REQUIRE(big < cells);
    const uint32_t first = off[big], tmp = tri[first];
    tri[first] = tri[first + 1], tri[first + 1] = tmp;
    SCT_CHECK(gl_compare_cells(&f.g, &want, &got, &m) == 0);

    /* a triangle id changed in that cell: caught there */
    memcpy(tri, f.ref_cells, f.refs * 4);
    tri[first + 1] = f.n_tri + 5;
    SCT_CHECK(gl_compare_cells(&f.g, &want, &got, &m) == 1);
    SCT_CHECK_EQ_U64((uint64_t)(m.ty * f.g.tiles_x + m.tx) * f.g.slab_buckets + m.slab, big);
    SCT_CHECK(m.want_count == m.got_count && m.want_tri == f.ref_cells[first + 1] && m.got_tri != m.want_tri);

    /* a triangle moved into the next cell (the boundary between them shifted by one) */
    memcpy(tri, f.ref_cells, f.refs * 4);
    off[big + 1] -= 1;
    SCT_CHECK(gl_compare_cells(&f.g, &want, &got, &m) == 1);
    SCT_CHECK_EQ_U64((uint64_t)(m.ty * f.g.tiles_x + m.tx) * f.g.slab_buckets + m.slab, big);
    SCT_CHECK(m.want_count == m.got_count + 1);

    /* a reference dropped: the totals differ */
    memcpy(off, f.ref_off, (cells + 1) * 4);
    off[cells] -= 1;
    SCT_CHECK(gl_compare_cells(&f.g, &want, &got, &m) == 1 && m.bad_total);

    /* the thesis's layout read as ours: caught (cells land elsewhere) */
    SCT_REQUIRE(gl_build_thesis_ref(&f.g, &f.b) == SC_OK);
    const gl_cells thesis_as_ours = {GL_LAYOUT_OURS, f.b.t_cell_off, f.b.t_tri3};
    const gl_cells thesis = {GL_LAYOUT_THESIS, f.b.t_cell_off, f.b.t_tri3};
    SCT_CHECK(gl_compare_cells(&f.g, &want, &thesis, &m) == 0);
    SCT_CHECK(gl_compare_cells(&f.g, &want, &thesis_as_ours, &m) == 1);
    free(off), free(tri);
    free_frame(&f);
}

/* ---- grid limits, colours, scales ---- */

static void test_grid_limits_and_colours(void)
{
    gl_grid g;
    SCT_CHECK(gl_grid_make(0, 10, 8, 16, &g) == -1);
    SCT_CHECK(gl_grid_make(10, 10, 0, 16, &g) == -1);
    SCT_CHECK(gl_grid_make(10, 10, 8, 0, &g) == -1);
    SCT_CHECK(gl_grid_make(10, 10, 8, 1025, &g) == -1);
    SCT_CHECK(gl_grid_make(2048 * 8, 8, 8, 16, &g) == 0);
    SCT_CHECK(gl_grid_make(2049 * 8, 8, 8, 16, &g) == -1); /* 2049 columns: over SPLIT_MAX_BUCKETS */
    SCT_CHECK(gl_grid_make(16384, 16384, 8, 1024, &g) == -1); /* 2^22 tiles x 2^10 slabs: 2^32 cells */
    SCT_CHECK(gl_grid_make(10, 10, 8, 1, &g) == 0 && g.slab_bits == 0 && g.slab_buckets == 1);
    SCT_CHECK(gl_grid_make(10, 10, 8, 17, &g) == 0 && g.slab_bits == 5 && g.slab_buckets == 32);
    const float eye[3] = {0, 0, 0}, up[3] = {0, 1, 0}, same[3] = {0, 0, 0}, above[3] = {0, 5, 0};
    gl_camera c;
    SCT_CHECK(gl_camera_make(eye, same, up, 60, 0.01f, 10, 10, &c) == -1);
    SCT_CHECK(gl_camera_make(eye, above, up, 60, 0.01f, 10, 10, &c) == -1);
    SCT_CHECK(gl_camera_make(eye, up, (const float[3]){0, 0, 1}, 180, 0.01f, 10, 10, &c) == -1);
    uint8_t rgb[3];
    gl_heat_colour(0.0f, rgb);
    SCT_CHECK(rgb[0] == 0 && rgb[1] == 0 && rgb[2] == 0);
    gl_heat_colour(1.0f, rgb);
    SCT_CHECK(rgb[0] == 255 && rgb[1] == 255 && rgb[2] == 255);
    gl_heat_colour(7.0f, rgb);
    SCT_CHECK(rgb[0] == 255 && rgb[1] == 255 && rgb[2] == 255);
    SCT_CHECK(gl_log_place(0, 100) == 0.0f && gl_log_place(100, 100) == 1.0f && gl_log_place(5, 0) == 0.0f);
    SCT_CHECK(fabsf(gl_log_place(15, 255) - 0.5f) < 1e-6f);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "grid_levels_ref");
    SCT_RUN(test_hand_made_triangles);
    SCT_RUN(test_builds_agree);
    SCT_RUN(test_compare_catches_errors);
    SCT_RUN(test_grid_limits_and_colours);
    return sct_end();
}
