/* demo_grid_levels.cu - `split-demo grid-levels`: the picture that explains slabcast. For one frame of
 * a model (the built-in mesh or a file, a camera, a deformer time) it shows, measures and checks how
 * the renderer's frustum grid (W/T x H/T screen tiles x S depth slabs) is built from triangles:
 *
 *  The renderer (public API, CUDA backend) renders the frame: its shaded image (frame.png), its
 *  per-stage GPU times and counts (sc_renderer_stats, median of --runs frames), the ray-triangle
 *  tests per pixel with S slabs and with 1 slab (SC_VIEW_TESTS_HEAT at the same heat maximum, with
 *  the renderer's own colour legend drawn in: tests-slabs.png, tests-noslabs.png), and this frame's
 *  deformed positions (sc_renderer_copy_positions, device memory).
 *
 *  The demo then builds the same kind of grid from those positions with its own kernels, written to
 *  be read and copied:
 *   bin      one thread per triangle: the view depths of its vertices, its screen bounding box widened
 *            by one pixel, the tiles that box touches, its depth key (nearest vertex depth), its
 *            reference count; the frame's depth range by a min / max reduction of the keys.
 *            Simplification: a triangle with a vertex behind the near plane, or wholly off screen,
 *            is dropped (the renderer clips the first kind). The code is gl_bin_triangle in
 *            grid_levels_host.h, compiled for both the device and the CPU reference.
 *   scan     the reference offsets (cub::DeviceScan::ExclusiveSum of the counts).
 *   emit     one thread per triangle writes one reference per tile of its range: tile id, tile
 *            column, key = row << slab_bits | slab (slab = floor((key - dmin) / (dmax - dmin) * S)),
 *            triangle id.
 *  and then two ways, from the same references:
 *   ours     level 1: split_multisplit by tile id (IDS rule; 128 x 128 = 16384 tiles at 1024^2 is
 *                     more than SPLIT_MAX_BUCKETS, so it is the unstable wide path) -> tile offsets;
 *            level 2: split_segmented by slab inside each tile (segments = tiles) -> cell offsets.
 *   thesis   level 1: stable split_multisplit by tile column (B = tiles_x);
 *            level 2: split_segmented by tile row inside each column;
 *            level 3: split_segmented by slab inside each (column, row) cell.
 *  The descriptors of every level are gl_desc_ours / gl_desc_thesis (grid_levels_host.c), the same
 *  ones the CPU test runs with the split library's references.
 *
 * Checks (before any time is printed; exit 1 naming the first mismatch):
 *  - the device's bins (tile range, key bits, visibility) equal the CPU reference's bin for bin (the
 *    same source, every float operation uncontracted and correctly rounded on both sides), and so do
 *    the depth range, the reference count and the four emitted arrays;
 *  - ours' cells and the thesis's cells each hold, cell by cell, the same multiset of triangle ids as
 *    the CPU reference grid (a counting sort by cell), after the first run and after the timed runs.
 *  The renderer's reference count differs from the demo's (it tests triangle edges against tiles;
 *  the demo takes whole bounding boxes): both are printed with their ratio, equality not required.
 *
 * Pictures (row 0 at the bottom, as the renderer's images), written to --out DIR:
 *  level1-tiles.png     references per tile, log colour scale, with a colour bar and its values;
 *  level2-slabs.png     non-empty slabs per tile (linear colour scale 0 .. S), and below it the
 *                       frame's histogram of references per slab (near to far);
 *  frame.png            the renderer's shaded frame;
 *  tests-slabs.png      ray-triangle tests per pixel with S slabs, the renderer's legend beside it;
 *  tests-noslabs.png    the same with 1 slab (every tile's triangles tested by every ray).
 *
 * Table (only after the checks pass): per level what it does, its count, its time (median of --runs
 * after a warm-up, CUDA events) for ours and the thesis way side by side, both ways timed whole, and
 * the renderer's own stage times and counts for the same frame.
 *
 * Usage: split-demo grid-levels [MODEL] [options] (--help). Exit 0 verified, 1 a check or a call
 * failed, 2 bad usage, 77 no CUDA device (1 when SLABCAST_REQUIRE_GPU=1).
 *
 * Files: this one holds the model, the camera, the renderer's frame, the checks and the run; the
 * options are grid_levels_options.c, the pictures (host code) grid_levels_pictures.c, the demo's grid
 * build on the device (kernels and their launches) grid_levels_build.cuh, included here only, and the
 * plain-C side shared with the CPU test grid_levels_host.c. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "demo.h"
#include "grid_levels_host.h"
#include "grid_levels_options.h"
#include "grid_levels_pictures.h"
#include "sc_mesh.h"
#include "slabcast.h"
#include "split.h"

#define W "grid-levels" /* the subcommand, in messages */

#include "grid_levels_build.cuh" /* the demo's grid build on the device (uses W) */

/* ---- the model, the camera, the renderer ---------------------------------------------------- */

/* Centre of the bounding box and the largest distance of a vertex from it (at least 1e-6). */
static void mesh_bounds(const sc_mesh *m, float centre[3], float *radius)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v = 0; v < m->vertex_count; ++v)
        for (int k = 0; k < 3; ++k) {
            const float x = m->positions[(size_t)v * 3 + k];
            lo[k] = fminf(lo[k], x), hi[k] = fmaxf(hi[k], x);
        }
    double r2 = 0;
    for (int k = 0; k < 3; ++k) centre[k] = m->vertex_count ? 0.5f * (lo[k] + hi[k]) : 0.0f;
    for (uint32_t v = 0; v < m->vertex_count; ++v) {
        double d2 = 0;
        for (int k = 0; k < 3; ++k) {
            const double d = (double)m->positions[(size_t)v * 3 + k] - centre[k];
            d2 += d * d;
        }
        r2 = d2 > r2 ? d2 : r2;
    }
    *radius = r2 > 1e-12 ? (float)sqrt(r2) : 1e-6f;
}

/* The renderer's camera: --camera, or the bounding sphere framed from the direction (0.4, 0.3, 1)
 * with a 40-degree field of view (narrowed to the smaller side on a tall target). The near plane
 * is 1/100 of the eye's distance to its target; the far plane lies well past the model. */
static sc_camera_desc make_camera(const gl_opts *o, const sc_mesh *m)
{
    float centre[3], radius;
    mesh_bounds(m, centre, &radius);
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    c.up[1] = 1;
    if (o->has_camera) {
        for (int k = 0; k < 3; ++k) c.eye[k] = o->camera[k], c.target[k] = o->camera[3 + k];
        c.fovy = o->camera[6] * 3.14159265f / 180.0f;
    } else {
        const double dir[3] = {0.4, 0.3, 1.0}, len = sqrt(0.16 + 0.09 + 1.0);
        const double half = 20.0 * 3.14159265358979 / 180.0;
        const double aspect = (double)o->width / o->height;
        const double fit = atan(tan(half) * (aspect < 1 ? aspect : 1)); /* the narrower half-angle */
        const double dist = radius * 1.1 / sin(fit);
        for (int k = 0; k < 3; ++k) c.target[k] = centre[k], c.eye[k] = (float)(centre[k] + dir[k] / len * dist);
        c.fovy = (float)(2 * half);
    }
    double d2 = 0, e2 = 0;
    for (int k = 0; k < 3; ++k) {
        d2 += ((double)c.target[k] - c.eye[k]) * ((double)c.target[k] - c.eye[k]);
        e2 += ((double)centre[k] - c.eye[k]) * ((double)centre[k] - c.eye[k]);
    }
    c.near_plane = (float)(sqrt(d2) * 0.01);
    c.far_plane = (float)(10.0 * (sqrt(d2) + sqrt(e2) + 4.0 * radius));
    return c;
}

/* What the demo keeps of the renderer's frame. */
typedef struct renderer_frame {
    sc_frame_stats stats;                /* the last shaded frame */
    double stage_ms[SC_STAGE_COUNT];     /* median of --runs frames */
    double frame_ms;
    uint64_t tests_slabs, tests_noslabs; /* ray-triangle tests with S slabs, with 1 slab */
    float heat_max;                      /* of both tests pictures */
} renderer_frame;

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n ? v[n / 2] : 0;
}

/* Renders the shaded frame 1 + runs times (the first is a warm-up: graph capture, first launches) and
 * keeps each stage's median GPU time; the image ends in host_rgba. */
static int render_shaded(sc_renderer *r, const gl_opts *o, void *d_rgba, uint8_t *host_rgba, renderer_frame *out)
{
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = o->time;
    f.rgba = d_rgba;
    double *ms = (double *)malloc((size_t)o->runs * (SC_STAGE_COUNT + 1) * sizeof *ms);
    if (!ms) {
        fprintf(stderr, "split-demo " W ": host allocation for %d timings failed\n", o->runs);
        return 1;
    }
    int rc = 0;
    for (int run = -1; rc == 0 && run < o->runs; ++run) {
        if (sc_renderer_render(r, &f) != SC_OK || sc_renderer_stats(r, &out->stats) != SC_OK) {
            fprintf(stderr, "split-demo " W ": rendering the frame failed: %s\n", sc_last_error());
            rc = 1;
            break;
        }
        if (run < 0) continue;
        for (int s = 0; s < SC_STAGE_COUNT; ++s) ms[(size_t)s * o->runs + run] = out->stats.stage_ms[s];
        ms[(size_t)SC_STAGE_COUNT * o->runs + run] = out->stats.frame_ms;
    }
    if (rc == 0) {
        for (int s = 0; s < SC_STAGE_COUNT; ++s) out->stage_ms[s] = median_of(ms + (size_t)s * o->runs, o->runs);
        out->frame_ms = median_of(ms + (size_t)SC_STAGE_COUNT * o->runs, o->runs);
        out->tests_slabs = out->stats.ray_triangle_tests;
    }
    free(ms);
    if (rc) return rc;
    DEMO_CUDA(W, cudaMemcpy(host_rgba, d_rgba, (size_t)o->width * o->height * 4, cudaMemcpyDeviceToHost));
    return 0;
}

/* ---- pictures ------------------------------------------------------------------------------- */

/* (The pictures themselves are grid_levels_pictures.c; this part reads the renderer's images back
 * from the device.) */

/* The two tests pictures: TESTS_HEAT with S slabs, then with 1 slab, at the same heat maximum. */
static int render_tests(sc_renderer *r, const gl_opts *o, void *d_rgba, uint8_t *host_rgba, renderer_frame *out)
{
    sc_shading_desc sh;
    memset(&sh, 0, sizeof sh);
    sh.mode = SC_VIEW_TESTS_HEAT;
    DEMO_SPLIT(W, sc_renderer_set_shading(r, &sh));
    sc_view_legend legend;
    DEMO_SPLIT(W, sc_renderer_get_view_legend(r, &legend));
    sh.heat_max = legend.max_value; /* the default resolved, then given explicitly to both */
    out->heat_max = sh.heat_max;
    DEMO_SPLIT(W, sc_renderer_set_shading(r, &sh));
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = o->time;
    f.rgba = d_rgba;
    sc_frame_stats st;
    const size_t bytes = (size_t)o->width * o->height * 4;
    DEMO_SPLIT(W, sc_renderer_render(r, &f));
    DEMO_SPLIT(W, sc_renderer_stats(r, &st));
    DEMO_CUDA(W, cudaMemcpy(host_rgba, d_rgba, bytes, cudaMemcpyDeviceToHost));
    char title[64];
    snprintf(title, sizeof title, "ray cast with %u slabs", o->slabs);
    if (gl_picture_tests(o, r, host_rgba, "tests-slabs.png", title)) return 1;
    DEMO_SPLIT(W, sc_renderer_set_grid(r, o->tile, 1));
    DEMO_SPLIT(W, sc_renderer_render(r, &f));
    DEMO_SPLIT(W, sc_renderer_stats(r, &st));
    out->tests_noslabs = st.ray_triangle_tests;
    DEMO_CUDA(W, cudaMemcpy(host_rgba, d_rgba, bytes, cudaMemcpyDeviceToHost));
    if (gl_picture_tests(o, r, host_rgba, "tests-noslabs.png", "ray cast with 1 slab")) return 1;
    DEMO_SPLIT(W, sc_renderer_set_grid(r, o->tile, o->slabs));
    return 0;
}

/* ---- the checks ----------------------------------------------------------------------------- */

/* Host copies and the CPU reference. */
typedef struct host_state {
    float *pos;
    gl_bin *bins_ref, *bins_dev;
    float dmin, dmax;
    uint64_t visible, refs;
    uint32_t *ref_arrays_ref, *ref_arrays_dev; /* 4 arrays of refs each: tile, column, key, triangle */
    uint32_t *cell_off_ref, *cell_tri_ref;     /* the reference grid */
    uint32_t *cell_off_dev, *cell_tri_dev;     /* a build's grid read back */
} host_state;

static void free_host(host_state *h)
{
    free(h->pos), free(h->bins_ref), free(h->bins_dev), free(h->ref_arrays_ref), free(h->ref_arrays_dev);
    free(h->cell_off_ref), free(h->cell_tri_ref), free(h->cell_off_dev), free(h->cell_tri_dev);
    memset(h, 0, sizeof *h);
}

static int host_alloc_failed(const char *what)
{
    fprintf(stderr, "split-demo " W ": host allocation for %s failed\n", what);
    return 1;
}

/* The CPU reference binning from the same positions, and the device's bins, range and total against it. */
static int check_bins(const dev_state *d, const sc_mesh *m, host_state *h, uint64_t *dev_refs)
{
    const size_t t = m->triangle_count;
    h->pos = (float *)malloc((size_t)m->vertex_count * 12 + 4);
    h->bins_ref = (gl_bin *)malloc(t * sizeof(gl_bin) + 4);
    h->bins_dev = (gl_bin *)malloc(t * sizeof(gl_bin) + 4);
    if (!h->pos || !h->bins_ref || !h->bins_dev) return host_alloc_failed("the triangles' bins");
    DEMO_CUDA(W, cudaMemcpy(h->pos, d->pos, (size_t)m->vertex_count * 12, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(h->bins_dev, d->bins, t * sizeof(gl_bin), cudaMemcpyDeviceToHost));
    unsigned bits[2];
    unsigned long long total = 0;
    DEMO_CUDA(W, cudaMemcpy(bits, d->depth_bits, sizeof bits, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(&total, d->offsets + t, sizeof total, cudaMemcpyDeviceToHost));
    h->visible = gl_bin_all(&d->cam, &d->g, h->pos, m->indices, m->triangle_count, h->bins_ref, &h->dmin, &h->dmax);
    h->refs = gl_count_refs(h->bins_ref, m->triangle_count);
    for (size_t i = 0; i < t; ++i) {
        const gl_bin *a = &h->bins_ref[i], *b = &h->bins_dev[i];
        if (a->visible != b->visible || (a->visible && (memcmp(&a->key, &b->key, 4) != 0 || a->tx0 != b->tx0 ||
                                                        a->tx1 != b->tx1 || a->ty0 != b->ty0 || a->ty1 != b->ty1))) {
            fprintf(stderr, "split-demo " W ": WRONG bin of triangle %zu: device %s tiles x %u..%u y %u..%u key %.9g, "
                            "CPU reference %s tiles x %u..%u y %u..%u key %.9g\n",
                    i, b->visible ? "visible" : "dropped", b->tx0, b->tx1, b->ty0, b->ty1, b->key,
                    a->visible ? "visible" : "dropped", a->tx0, a->tx1, a->ty0, a->ty1, a->key);
            return 1;
        }
    }
    float dmin = 0, dmax = 0;
    memcpy(&dmin, &bits[0], 4), memcpy(&dmax, &bits[1], 4);
    if (h->visible && (dmin != h->dmin || dmax != h->dmax)) {
        fprintf(stderr, "split-demo " W ": WRONG depth range: device %.9g .. %.9g, CPU reference %.9g .. %.9g\n", dmin,
                dmax, h->dmin, h->dmax);
        return 1;
    }
    if (total != h->refs) {
        fprintf(stderr, "split-demo " W ": WRONG reference count: device %llu, CPU reference %llu\n", total,
                (unsigned long long)h->refs);
        return 1;
    }
    *dev_refs = total;
    return 0;
}

/* The four emitted arrays against the CPU emission, entry by entry. */
static int check_emit(const dev_state *d, const sc_mesh *m, host_state *h)
{
    const size_t n = (size_t)h->refs, nn = n ? n : 1;
    h->ref_arrays_ref = (uint32_t *)malloc(4 * nn * 4);
    h->ref_arrays_dev = (uint32_t *)malloc(4 * nn * 4);
    if (!h->ref_arrays_ref || !h->ref_arrays_dev) return host_alloc_failed("the references");
    uint32_t *r = h->ref_arrays_ref;
    gl_emit_refs(&d->g, h->bins_ref, m->triangle_count, h->dmin, h->dmax, r, r + nn, r + 2 * nn, r + 3 * nn);
    const uint32_t *src[4] = {d->b.ref_tile, d->b.ref_col, d->b.ref_key, d->b.ref_tri};
    static const char *const names[4] = {"tile", "column", "key", "triangle"};
    for (int a = 0; a < 4; ++a) {
        uint32_t *dst = h->ref_arrays_dev + a * nn;
        DEMO_CUDA(W, cudaMemcpy(dst, src[a], n * 4, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < n; ++i)
            if (dst[i] != r[a * nn + i]) {
                fprintf(stderr, "split-demo " W ": WRONG emitted reference %zu: its %s is %u, the CPU emission's %u "
                                "(triangle %u)\n", i, names[a], dst[i], r[a * nn + i], r[3 * nn + i]);
                return 1;
            }
    }
    return 0;
}

/* A build's cells (ours or the thesis's) against the CPU reference grid. */
static int check_cells(const dev_state *d, host_state *h, int thesis, const char *when)
{
    const gl_grid *g = &d->g;
    const size_t cells = (size_t)g->tiles * g->slab_buckets, n = (size_t)h->refs;
    if (!h->cell_off_ref) {
        h->cell_off_ref = (uint32_t *)malloc((cells + 1) * 4);
        h->cell_tri_ref = (uint32_t *)malloc((n ? n : 1) * 4);
        h->cell_off_dev = (uint32_t *)malloc((cells + 1) * 4);
        h->cell_tri_dev = (uint32_t *)malloc((n ? n : 1) * 4);
        if (!h->cell_off_ref || !h->cell_tri_ref || !h->cell_off_dev || !h->cell_tri_dev)
            return host_alloc_failed("the grid's cells");
        gl_reference_cells(g, h->bins_ref, d->n_tri, h->dmin, h->dmax, h->cell_off_ref, h->cell_tri_ref);
    }
    DEMO_CUDA(W, cudaMemcpy(h->cell_off_dev, thesis ? d->b.t_cell_off : d->b.o_cell_off, (cells + 1) * 4,
                            cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(h->cell_tri_dev, thesis ? d->b.t_tri3 : d->b.o_tri2, n * 4, cudaMemcpyDeviceToHost));
    const gl_cells want = {GL_LAYOUT_OURS, h->cell_off_ref, h->cell_tri_ref};
    const gl_cells got = {thesis ? GL_LAYOUT_THESIS : GL_LAYOUT_OURS, h->cell_off_dev, h->cell_tri_dev};
    gl_mismatch bad;
    if (gl_compare_cells(g, &want, &got, &bad) == 0) return 0;
    const char *way = thesis ? "the thesis's three levels" : "ours (two levels)";
    if (bad.bad_total)
        fprintf(stderr, "split-demo " W ": WRONG grid of %s %s: %u references in all, the CPU reference %u (or "
                        "offsets that decrease)\n", way, when, bad.got_count, bad.want_count);
    else
        fprintf(stderr, "split-demo " W ": WRONG grid of %s %s: cell (tile %u, %u; slab %u) holds %u triangles, the "
                        "CPU reference %u; first difference: triangle %u where the reference has %u\n",
                way, when, bad.tx, bad.ty, bad.slab, bad.got_count, bad.want_count, bad.got_tri, bad.want_tri);
    return 1;
}

/* ---- the run -------------------------------------------------------------------------------- */

enum { T_BIN, T_SCAN, T_EMIT, T_OURS_1, T_OURS_2, T_THESIS_1, T_THESIS_2, T_THESIS_3, T_OURS, T_THESIS, T_COUNT };

static int time_all(dev_state *d, int runs, float ms[T_COUNT])
{
    static const demo_work_fn fns[T_COUNT] = {work_bin,      work_scan,     work_emit,     work_ours_1,
                                              work_ours_2,   work_thesis_1, work_thesis_2, work_thesis_3,
                                              work_ours_all, work_thesis_all};
    for (int i = 0; i < T_COUNT; ++i) {
        const int rc = demo_time(W, fns[i], d, 0, runs, &ms[i]);
        if (rc) return rc;
    }
    return 0;
}

static void print_table(const gl_opts *o, const dev_state *d, const host_state *h, const gl_stats *st,
                        const float ms[T_COUNT], const renderer_frame *rf)
{
    const gl_grid *g = &d->g;
    char c[T_COUNT][64];
    snprintf(c[T_BIN], 64, "%llu of %u triangles visible", (unsigned long long)h->visible, d->n_tri);
    snprintf(c[T_SCAN], 64, "%llu references", (unsigned long long)h->refs);
    snprintf(c[T_EMIT], 64, "%llu references", (unsigned long long)h->refs);
    snprintf(c[T_OURS_1], 64, "%u tiles hold refs, max %u", st->nonempty_tiles, st->max_per_tile);
    snprintf(c[T_OURS_2], 64, "%u cells hold refs, max %u", st->nonempty_cells, st->max_per_cell);
    snprintf(c[T_THESIS_1], 64, "%u columns hold refs, max %u", st->nonempty_columns, st->max_per_column);
    snprintf(c[T_THESIS_2], 64, "%u tiles hold refs, max %u", st->nonempty_tiles, st->max_per_tile);
    snprintf(c[T_THESIS_3], 64, "%u cells hold refs, max %u", st->nonempty_cells, st->max_per_cell);
    char l1[64], l2[64], t1[64], t2[64], t3[64];
    snprintf(l1, sizeof l1, "multisplit by tile (B = %u%s)", g->tiles, g->tiles > SPLIT_MAX_BUCKETS ? ", wide" : "");
    snprintf(l2, sizeof l2, "segmented split by slab (%u segs, B = %u)", g->tiles, g->slab_buckets);
    snprintf(t1, sizeof t1, "split by tile column (B = %u, stable)", g->tiles_x);
    snprintf(t2, sizeof t2, "segmented split by row (%u segs, B = %u)", g->tiles_x, g->tiles_y);
    snprintf(t3, sizeof t3, "segmented split by slab (%u segs, B = %u)", g->tiles, g->slab_buckets);
    printf("\n%-6s %-7s %-44s %-38s %9s %9s\n", "level", "way", "what", "count", "ours ms", "thesis ms");
    printf("%-6s %-7s %-44s %-38s %9.3f %9s\n", "0", "both", "bin: project, tile range, depth key", c[T_BIN],
           ms[T_BIN], "(shared)");
    printf("%-6s %-7s %-44s %-38s %9.3f %9s\n", "0", "both", "scan: reference offsets (CUB)", c[T_SCAN], ms[T_SCAN],
           "(shared)");
    printf("%-6s %-7s %-44s %-38s %9.3f %9s\n", "0", "both", "emit: one reference per (triangle, tile)", c[T_EMIT],
           ms[T_EMIT], "(shared)");
    printf("%-6s %-7s %-44s %-38s %9.3f %9s\n", "1", "ours", l1, c[T_OURS_1], ms[T_OURS_1], "");
    printf("%-6s %-7s %-44s %-38s %9s %9.3f\n", "1", "thesis", t1, c[T_THESIS_1], "", ms[T_THESIS_1]);
    printf("%-6s %-7s %-44s %-38s %9.3f %9s\n", "2", "ours", l2, c[T_OURS_2], ms[T_OURS_2], "");
    printf("%-6s %-7s %-44s %-38s %9s %9.3f\n", "2", "thesis", t2, c[T_THESIS_2], "", ms[T_THESIS_2]);
    printf("%-6s %-7s %-44s %-38s %9s %9.3f\n", "3", "thesis", t3, c[T_THESIS_3], "", ms[T_THESIS_3]);
    printf("%-6s %-7s %-44s %-38s %9.3f %9.3f\n", "all", "each", "every level of the way, timed as one", "", ms[T_OURS],
           ms[T_THESIS]);
    printf("ms: median of %d runs after 1 warm-up (CUDA events). Both ways give the same (tile, slab) cells.\n",
           o->runs);
    const sc_frame_stats *s = &rf->stats;
    printf("\nrenderer, same frame (GPU ms, median of %d frames):\n", o->runs);
    printf("  project %.3f  reduce %.3f  scan %.3f  emit %.3f  tile split %.3f  slab split %.3f  raycast %.3f  "
           "shade %.3f  frame %.3f\n",
           rf->stage_ms[SC_STAGE_PROJECT], rf->stage_ms[SC_STAGE_REDUCE], rf->stage_ms[SC_STAGE_SCAN],
           rf->stage_ms[SC_STAGE_EMIT], rf->stage_ms[SC_STAGE_TILE_SPLIT], rf->stage_ms[SC_STAGE_SLAB_SPLIT],
           rf->stage_ms[SC_STAGE_RAYCAST], rf->stage_ms[SC_STAGE_SHADE], rf->frame_ms);
    printf("  visible triangles %llu, references %llu (edge-tested against tiles), hit pixels %llu\n",
           (unsigned long long)s->visible_triangles, (unsigned long long)s->references,
           (unsigned long long)s->hit_pixels);
    printf("  ray-triangle tests: %llu with %u slabs, %llu with 1 slab (%.2fx), tiles that exited early %llu of %llu\n",
           (unsigned long long)rf->tests_slabs, o->slabs, (unsigned long long)rf->tests_noslabs,
           rf->tests_slabs ? (double)rf->tests_noslabs / (double)rf->tests_slabs : 0.0,
           (unsigned long long)s->tiles_exited_early, (unsigned long long)s->tiles);
    printf("  references: demo %llu (bounding boxes widened by a pixel), renderer %llu: ratio %.3f\n",
           (unsigned long long)h->refs, (unsigned long long)s->references,
           s->references ? (double)h->refs / (double)s->references : 0.0);
}

static int make_out_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0) return 0;
    struct stat sb;
    if (errno == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) return 0;
    fprintf(stderr, "split-demo " W ": --out '%s': cannot create the folder: %s\n", dir, strerror(errno));
    return 1;
}

/* Everything after the options: the renderer's frame and pictures, the demo's build, the checks, the
 * timings, the grid pictures and the table. */
static int run(const gl_opts *o, const sc_mesh *m, sc_renderer *r, dev_state *d, host_state *h, uint8_t *d_rgba,
               uint8_t *host_rgba)
{
    const sc_camera_desc cam = make_camera(o, m);
    if (gl_camera_make(cam.eye, cam.target, cam.up, cam.fovy * 180.0f / 3.14159265f, cam.near_plane, o->width,
                       o->height, &d->cam) != 0) {
        fprintf(stderr, "split-demo " W ": --camera: the eye equals the target or looks straight up or down (the "
                        "up direction is +y)\n");
        return 2;
    }
    gl_grid_make(o->width, o->height, o->tile, o->slabs, &d->g); /* checked by the options */
    sc_mesh_data view = sc_mesh_view(m);
    DEMO_SPLIT(W, sc_renderer_set_mesh(r, &view));
    DEMO_SPLIT(W, sc_renderer_set_camera(r, &cam));
    sc_deform_desc deform;
    memset(&deform, 0, sizeof deform);
    deform.twist.amount = 1.0f; /* radians per bounding radius about y, at 0.25 Hz */
    DEMO_SPLIT(W, sc_renderer_set_deform(r, &deform));

    renderer_frame rf;
    memset(&rf, 0, sizeof rf);
    if (render_shaded(r, o, d_rgba, host_rgba, &rf)) return 1;
    if (make_out_dir(o->out_dir) || gl_picture_frame(o, host_rgba)) return 1;
    if (alloc_triangles(d, m)) return 1;
    DEMO_SPLIT(W, sc_renderer_copy_positions(r, d->pos));
    DEMO_CUDA(W, cudaDeviceSynchronize());
    if (render_tests(r, o, d_rgba, host_rgba, &rf)) return 1;

    /* the demo's build, once, checked */
    if (work_bin(d, 0) || work_scan(d, 0)) return 1;
    DEMO_CUDA(W, cudaDeviceSynchronize());
    uint64_t refs = 0;
    if (check_bins(d, m, h, &refs)) return 1;
    if (refs >= UINT32_MAX) {
        fprintf(stderr, "split-demo " W ": %llu references: more than a split takes (2^32 - 1); lower --size or raise "
                        "--tile\n", (unsigned long long)refs);
        return 1;
    }
    if (alloc_references(d, (size_t)refs)) return 1;
    if (work_emit(d, 0) || work_ours_all(d, 0) || work_thesis_all(d, 0)) return 1;
    DEMO_CUDA(W, cudaDeviceSynchronize());
    if (check_emit(d, m, h) || check_cells(d, h, 0, "after its first run") || check_cells(d, h, 1, "after its first run"))
        return 1;
    printf("split-demo " W ": checked: %u triangles binned as the CPU reference does (bit for bit), %llu references "
           "emitted alike, ours' and the thesis's %u x %u x %u cells equal the CPU reference grid\n",
           d->n_tri, (unsigned long long)refs, d->g.tiles_x, d->g.tiles_y, d->g.slabs);
    fflush(stdout);

    float ms[T_COUNT];
    const int trc = time_all(d, o->runs, ms);
    if (trc) return trc;
    DEMO_CUDA(W, cudaDeviceSynchronize());
    if (check_cells(d, h, 0, "after the timed runs") || check_cells(d, h, 1, "after the timed runs")) return 1;

    gl_stats st;
    uint32_t *tile_refs = (uint32_t *)malloc((size_t)d->g.tiles * 4);
    uint32_t *tile_slabs = (uint32_t *)malloc((size_t)d->g.tiles * 4);
    uint64_t *slab_refs = (uint64_t *)malloc((size_t)d->g.slabs * 8);
    int rc = 0;
    if (!tile_refs || !tile_slabs || !slab_refs)
        rc = host_alloc_failed("the grid's statistics");
    if (rc == 0) {
        gl_grid_stats(&d->g, h->cell_off_ref, &st, tile_refs, tile_slabs, slab_refs);
        rc = gl_picture_tiles(o, &d->g, tile_refs, st.max_per_tile) || gl_picture_slabs(o, &d->g, tile_slabs, slab_refs);
    }
    free(tile_refs), free(tile_slabs), free(slab_refs);
    if (rc) return rc;
    print_table(o, d, h, &st, ms, &rf);
    return 0;
}

/* declared in demo.h too; C linkage, as the dispatch table (split_demo.c, plain C) calls it */
extern "C" int demo_grid_levels(int argc, char **argv);

int demo_grid_levels(int argc, char **argv)
{
    gl_opts o;
    const int parsed = gl_parse_options(argc, argv, &o);
    if (parsed == 1) return 0;
    if (parsed) return parsed;
    const int no_device = demo_require_device(W);
    if (no_device) return no_device;

    sc_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    const sc_status loaded = o.model ? sc_mesh_load_file(o.model, NULL, &mesh, NULL) : sc_mesh_default(0, &mesh);
    if (loaded != SC_OK) {
        fprintf(stderr, "split-demo " W ": loading %s failed: %s\n", o.model ? o.model : "the built-in mesh",
                sc_last_error());
        return 1;
    }
    printf("split-demo " W ": %s: %u triangles, %u vertices; %ux%u in tiles of %u, %u slabs, time %g\n",
           o.model ? o.model : "built-in mesh", mesh.triangle_count, mesh.vertex_count, o.width, o.height, o.tile,
           o.slabs, o.time);
    fflush(stdout);

    sc_renderer_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.backend = SC_BACKEND_CUDA;
    rd.width = o.width, rd.height = o.height, rd.tile_size = o.tile, rd.num_slabs = o.slabs;
    rd.stage_times = 1; /* the table shows each stage */
    sc_renderer *r = NULL;
    if (sc_renderer_create(&rd, &r) != SC_OK) {
        fprintf(stderr, "split-demo " W ": sc_renderer_create failed: %s\n", sc_last_error());
        sc_mesh_free(&mesh);
        return 1;
    }
    dev_state d;
    host_state h;
    memset(&d, 0, sizeof d);
    memset(&h, 0, sizeof h);
    const size_t image_bytes = (size_t)o.width * o.height * 4;
    uint8_t *d_rgba = NULL, *host_rgba = (uint8_t *)malloc(image_bytes);
    int rc = 0;
    if (!host_rgba)
        rc = host_alloc_failed("the image");
    else if (cudaMalloc((void **)&d_rgba, image_bytes) != cudaSuccess) {
        fprintf(stderr, "split-demo " W ": cudaMalloc of the %ux%u image failed: %s\n", o.width, o.height,
                cudaGetErrorString(cudaGetLastError()));
        rc = 1;
    }
    if (rc == 0) rc = run(&o, &mesh, r, &d, &h, d_rgba, host_rgba);
    if (rc == 0) printf("split-demo " W ": verified\n");
    free_dev(&d);
    free_host(&h);
    cudaFree(d_rgba);
    free(host_rgba);
    sc_renderer_destroy(r);
    sc_mesh_free(&mesh);
    return rc;
}
