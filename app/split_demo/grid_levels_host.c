/* grid_levels_host.c - the plain-C side of `split-demo grid-levels` (grid_levels_host.h): grid and
 * camera set-up, the CPU reference binning (the same inline code the device runs), the reference
 * layout, the reference grid by counting sort, the cell-by-cell multiset comparison, statistics,
 * heat-map colours, and the split descriptors of both grid builds with their CPU-reference runs.
 *
 * Bit-exact agreement with the device: this file is compiled as ISO C11 (no GNU extensions), under
 * which GCC does not contract a * b + c into an FMA (-ffp-contract=off); clang is told the same by the
 * pragma below. The device side uses __fmul_rn / __fadd_rn / __fdiv_rn, which are never contracted. */
#include "grid_levels_host.h"

#include <stdlib.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

int gl_grid_make(uint32_t width, uint32_t height, uint32_t tile, uint32_t slabs, gl_grid *out)
{
    if (width == 0 || height == 0 || tile == 0 || slabs == 0 || slabs > 1024) return -1;
    gl_grid g;
    memset(&g, 0, sizeof g);
    g.width = width, g.height = height, g.tile = tile, g.slabs = slabs;
    g.tiles_x = (uint32_t)(((uint64_t)width + tile - 1) / tile);
    g.tiles_y = (uint32_t)(((uint64_t)height + tile - 1) / tile);
    if (g.tiles_x > SPLIT_MAX_BUCKETS || g.tiles_y > SPLIT_MAX_BUCKETS) return -1;
    g.tiles = g.tiles_x * g.tiles_y; /* <= 2^22 */
    while ((1u << g.slab_bits) < slabs) ++g.slab_bits;
    g.slab_buckets = 1u << g.slab_bits;
    if ((uint64_t)g.tiles * g.slab_buckets >= (UINT64_C(1) << 32)) return -1;
    *out = g;
    return 0;
}

static int finite3(const float v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static void normalize3(float v[3])
{
    const float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= len, v[1] /= len, v[2] /= len;
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

int gl_camera_make(const float eye[3], const float target[3], const float up[3], float fovy_degrees,
                   float near_plane, uint32_t width, uint32_t height, gl_camera *out)
{
    if (!finite3(eye) || !finite3(target) || !finite3(up) || !(fovy_degrees > 0 && fovy_degrees < 180) ||
        !(near_plane > 0) || !isfinite(near_plane) || width == 0 || height == 0)
        return -1;
    gl_camera c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < 3; ++i) c.eye[i] = eye[i], c.forward[i] = target[i] - eye[i];
    if (c.forward[0] == 0 && c.forward[1] == 0 && c.forward[2] == 0) return -1;
    normalize3(c.forward);
    cross3(c.forward, up, c.right);
    const float rlen = sqrtf(c.right[0] * c.right[0] + c.right[1] * c.right[1] + c.right[2] * c.right[2]);
    if (!(rlen > 1e-6f)) return -1; /* up parallel to the view direction */
    normalize3(c.right);
    cross3(c.right, c.forward, c.up);
    const double half = fovy_degrees * (3.14159265358979323846 / 360.0);
    c.proj_y = (float)(1.0 / tan(half));
    c.proj_x = (float)(1.0 / tan(half) * (double)height / (double)width);
    c.near_plane = near_plane;
    *out = c;
    return 0;
}

uint64_t gl_bin_all(const gl_camera *c, const gl_grid *g, const float *positions, const uint32_t *indices,
                    uint32_t triangle_count, gl_bin *bins, float *dmin, float *dmax)
{
    uint64_t visible = 0;
    float lo = INFINITY, hi = -INFINITY;
    for (uint32_t t = 0; t < triangle_count; ++t) {
        const uint32_t *v = indices + (size_t)t * 3;
        bins[t] = gl_bin_triangle(c, g, positions + (size_t)v[0] * 3, positions + (size_t)v[1] * 3,
                                  positions + (size_t)v[2] * 3);
        if (!bins[t].visible) continue;
        ++visible;
        lo = fminf(lo, bins[t].key), hi = fmaxf(hi, bins[t].key);
    }
    *dmin = visible ? lo : 0.0f;
    *dmax = visible ? hi : 0.0f;
    return visible;
}

uint64_t gl_count_refs(const gl_bin *bins, uint32_t triangle_count)
{
    uint64_t total = 0;
    for (uint32_t t = 0; t < triangle_count; ++t) total += gl_bin_refs(&bins[t]);
    return total;
}

void gl_emit_refs(const gl_grid *g, const gl_bin *bins, uint32_t triangle_count, float dmin, float dmax,
                  uint32_t *ref_tile, uint32_t *ref_col, uint32_t *ref_key, uint32_t *ref_tri)
{
    size_t r = 0;
    for (uint32_t t = 0; t < triangle_count; ++t) {
        const gl_bin *b = &bins[t];
        if (!b->visible) continue;
        const uint32_t slab = gl_slab_of(b->key, dmin, dmax, g->slabs);
        for (uint32_t ty = b->ty0; ty <= b->ty1; ++ty)
            for (uint32_t tx = b->tx0; tx <= b->tx1; ++tx, ++r) {
                ref_tile[r] = ty * g->tiles_x + tx;
                ref_col[r] = tx;
                ref_key[r] = gl_ref_key(ty, slab, g->slab_bits);
                ref_tri[r] = t;
            }
    }
}

void gl_reference_cells(const gl_grid *g, const gl_bin *bins, uint32_t triangle_count, float dmin, float dmax,
                        uint32_t *offsets, uint32_t *tris)
{
    const size_t cells = (size_t)g->tiles * g->slab_buckets;
    memset(offsets, 0, (cells + 1) * sizeof *offsets);
    for (int pass = 0; pass < 2; ++pass) { /* pass 0 counts, pass 1 places */
        for (uint32_t t = 0; t < triangle_count; ++t) {
            const gl_bin *b = &bins[t];
            if (!b->visible) continue;
            const uint32_t slab = gl_slab_of(b->key, dmin, dmax, g->slabs);
            for (uint32_t ty = b->ty0; ty <= b->ty1; ++ty)
                for (uint32_t tx = b->tx0; tx <= b->tx1; ++tx) {
                    const size_t cell = (size_t)gl_cell_index(g, GL_LAYOUT_OURS, tx, ty, slab);
                    if (pass == 0)
                        ++offsets[cell + 1];
                    else
                        tris[offsets[cell]++] = t;
                }
        }
        if (pass == 0)
            for (size_t c = 0; c < cells; ++c) offsets[c + 1] += offsets[c];
        else /* the placing advanced each start to the next cell's: shift back */
            for (size_t c = cells; c > 0; --c) offsets[c] = offsets[c - 1];
    }
    offsets[0] = 0;
}

static int cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The cell (tx, ty, s) of a grid as a sorted copy in buf (capacity cap); returns its count. */
static uint32_t sorted_cell(const gl_grid *g, const gl_cells *c, uint32_t tx, uint32_t ty, uint32_t s,
                            uint32_t *buf, size_t cap)
{
    const size_t i = (size_t)gl_cell_index(g, c->layout, tx, ty, s);
    const uint32_t begin = c->offsets[i], end = c->offsets[i + 1];
    const uint32_t count = end >= begin ? end - begin : 0;
    const uint32_t take = count <= cap ? count : (uint32_t)cap;
    memcpy(buf, c->tris + begin, (size_t)take * sizeof *buf);
    qsort(buf, take, sizeof *buf, cmp_u32);
    return count;
}

int gl_compare_cells(const gl_grid *g, const gl_cells *want, const gl_cells *got, gl_mismatch *bad)
{
    const size_t cells = (size_t)g->tiles * g->slab_buckets;
    memset(bad, 0, sizeof *bad);
    bad->want_tri = bad->got_tri = UINT32_MAX;
    if (want->offsets[cells] != got->offsets[cells] || got->offsets[0] != 0) {
        bad->bad_total = 1;
        bad->want_count = want->offsets[cells], bad->got_count = got->offsets[cells];
        return 1;
    }
    /* each cell's count bounds its copy: the largest cell of either grid */
    uint32_t cap = 0;
    for (size_t i = 0; i < cells; ++i) {
        const uint32_t a = want->offsets[i + 1] - want->offsets[i], b = got->offsets[i + 1] - got->offsets[i];
        if (got->offsets[i + 1] < got->offsets[i]) { /* decreasing offsets: report the cell as it is */
            bad->tx = (uint32_t)(i / g->slab_buckets), bad->bad_total = 1;
            return 1;
        }
        cap = a > cap ? a : cap, cap = b > cap ? b : cap;
    }
    uint32_t *wa = malloc(((size_t)cap + 1) * sizeof *wa), *ga = malloc(((size_t)cap + 1) * sizeof *ga);
    int rc = 0;
    if (!wa || !ga) {
        bad->bad_total = 1; /* no memory to compare: reported as a failure, never as a pass */
        rc = 1;
    }
    for (uint32_t ty = 0; rc == 0 && ty < g->tiles_y; ++ty)
        for (uint32_t tx = 0; rc == 0 && tx < g->tiles_x; ++tx)
            for (uint32_t s = 0; rc == 0 && s < g->slab_buckets; ++s) {
                const uint32_t nw = sorted_cell(g, want, tx, ty, s, wa, cap);
                const uint32_t ng = sorted_cell(g, got, tx, ty, s, ga, cap);
                const uint32_t common = nw < ng ? nw : ng;
                uint32_t k = 0;
                while (k < common && wa[k] == ga[k]) ++k;
                if (nw == ng && k == common) continue;
                bad->tx = tx, bad->ty = ty, bad->slab = s, bad->want_count = nw, bad->got_count = ng;
                bad->want_tri = k < nw ? wa[k] : UINT32_MAX;
                bad->got_tri = k < ng ? ga[k] : UINT32_MAX;
                rc = 1;
            }
    free(wa), free(ga);
    return rc;
}

void gl_grid_stats(const gl_grid *g, const uint32_t *offsets, gl_stats *out, uint32_t *tile_refs,
                   uint32_t *tile_slabs, uint64_t *slab_refs)
{
    memset(out, 0, sizeof *out);
    out->references = offsets[(size_t)g->tiles * g->slab_buckets];
    if (slab_refs) memset(slab_refs, 0, g->slabs * sizeof *slab_refs);
    for (uint32_t tx = 0; tx < g->tiles_x; ++tx) {
        uint32_t column = 0;
        for (uint32_t ty = 0; ty < g->tiles_y; ++ty) {
            const uint32_t tile = ty * g->tiles_x + tx;
            const size_t first = (size_t)tile * g->slab_buckets;
            uint32_t in_tile = 0, nonempty = 0;
            for (uint32_t s = 0; s < g->slab_buckets; ++s) {
                const uint32_t count = offsets[first + s + 1] - offsets[first + s];
                in_tile += count;
                if (count) ++nonempty, ++out->nonempty_cells;
                if (count > out->max_per_cell) out->max_per_cell = count;
                if (slab_refs && s < g->slabs) slab_refs[s] += count;
            }
            if (in_tile) ++out->nonempty_tiles;
            if (in_tile > out->max_per_tile) out->max_per_tile = in_tile;
            if (tile_refs) tile_refs[tile] = in_tile;
            if (tile_slabs) tile_slabs[tile] = nonempty;
            column += in_tile;
        }
        if (column) ++out->nonempty_columns;
        if (column > out->max_per_column) out->max_per_column = column;
    }
}

void gl_heat_colour(float t, uint8_t rgb[3])
{
    static const float stops[6][3] = {
        {0.00f, 0.00f, 0.00f}, {0.30f, 0.05f, 0.45f}, {0.80f, 0.10f, 0.25f},
        {0.98f, 0.50f, 0.05f}, {0.99f, 0.90f, 0.20f}, {1.00f, 1.00f, 1.00f},
    };
    t = t > 0 ? (t < 1 ? t : 1) : 0;
    const float x = t * 5.0f;
    int i = (int)x;
    if (i > 4) i = 4;
    const float f = x - (float)i;
    for (int k = 0; k < 3; ++k) {
        const float v = stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f;
        rgb[k] = (uint8_t)(v * 255.0f + 0.5f);
    }
}

float gl_log_place(double v, double vmax)
{
    if (!(vmax > 0)) return 0;
    if (v < 0) v = 0;
    return (float)(log2(1.0 + v) / log2(1.0 + vmax));
}

/* ---- the two builds ---- */

static split_desc base_desc(const gl_build_bufs *b, const uint32_t *keys_in, uint32_t *keys_out,
                            const uint32_t *tri_in, uint32_t *tri_out, uint32_t *offsets)
{
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = b->n;
    d.keys_in = keys_in, d.keys_out = keys_out;
    d.values_in = tri_in, d.values_out = tri_out;
    d.bucket_offsets = offsets;
    return d;
}

/* The level by slab: the key's low slab_bits bits, inside each of num_segments segments. */
static void by_slab(const gl_grid *g, split_desc *d, const uint32_t *segments, size_t num_segments)
{
    d->buckets.rule = SPLIT_BUCKETS_BITS;
    d->buckets.start_bit = 0;
    d->buckets.bit_count = g->slab_bits;
    d->buckets.num_buckets = g->slab_buckets;
    d->segment_offsets = segments;
    d->num_segments = num_segments;
}

split_desc gl_desc_ours(const gl_grid *g, const gl_build_bufs *b, int level)
{
    if (level == 1) { /* by tile id: B = tiles, unstable (the wide path when tiles > SPLIT_MAX_BUCKETS) */
        split_desc d = base_desc(b, b->ref_key, b->o_key1, b->ref_tri, b->o_tri1, b->o_tile_off);
        d.buckets.rule = SPLIT_BUCKETS_IDS;
        d.buckets.bucket_ids = b->ref_tile;
        d.buckets.num_buckets = g->tiles;
        d.unstable = 1;
        return d;
    }
    split_desc d = base_desc(b, b->o_key1, b->o_key2, b->o_tri1, b->o_tri2, b->o_cell_off);
    by_slab(g, &d, b->o_tile_off, g->tiles);
    return d;
}

split_desc gl_desc_thesis(const gl_grid *g, const gl_build_bufs *b, int level)
{
    if (level == 1) { /* by tile column: B = tiles_x, stable */
        split_desc d = base_desc(b, b->ref_key, b->t_key1, b->ref_tri, b->t_tri1, b->t_col_off);
        d.buckets.rule = SPLIT_BUCKETS_IDS;
        d.buckets.bucket_ids = b->ref_col;
        d.buckets.num_buckets = g->tiles_x;
        return d;
    }
    if (level == 2) { /* by tile row inside each column: row = key / 2^slab_bits (RANGE rule) */
        split_desc d = base_desc(b, b->t_key1, b->t_key2, b->t_tri1, b->t_tri2, b->t_colrow_off);
        d.buckets.rule = SPLIT_BUCKETS_RANGE;
        d.buckets.range_base = 0;
        d.buckets.range_delta = (uint64_t)1 << g->slab_bits;
        d.buckets.num_buckets = g->tiles_y;
        d.segment_offsets = b->t_col_off;
        d.num_segments = g->tiles_x;
        return d;
    }
    split_desc d = base_desc(b, b->t_key2, b->t_key3, b->t_tri2, b->t_tri3, b->t_cell_off);
    by_slab(g, &d, b->t_colrow_off, (size_t)g->tiles_x * g->tiles_y);
    return d;
}

sc_status gl_build_ours_ref(const gl_grid *g, const gl_build_bufs *b)
{
    split_desc d = gl_desc_ours(g, b, 1);
    sc_status st = split_multisplit_ref(&d);
    if (st != SC_OK) return st;
    d = gl_desc_ours(g, b, 2);
    return split_segmented_ref(&d);
}

sc_status gl_build_thesis_ref(const gl_grid *g, const gl_build_bufs *b)
{
    split_desc d = gl_desc_thesis(g, b, 1);
    sc_status st = split_multisplit_ref(&d);
    if (st != SC_OK) return st;
    d = gl_desc_thesis(g, b, 2);
    if ((st = split_segmented_ref(&d)) != SC_OK) return st;
    d = gl_desc_thesis(g, b, 3);
    return split_segmented_ref(&d);
}
