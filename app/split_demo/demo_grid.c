/* demo_grid.c - `split-demo grid`: building a data structure with the split library: the 3-D uniform
 * grid (cell lists) of N static points, as a particle simulation or a spatial hash keeps it, then
 * used for neighbour queries (grid3d.h; `split-demo particles` rebuilds the same grid every step).
 *   Points: g3_initial_point (grid3d_host.h), generated on the device: uniform in the unit box, plus
 *     four dense clusters holding a quarter of the points, so cells hold very different numbers.
 *   Build (timed): a kernel writes each point's cell id (G^3 cells of side 1/G); ONE unstable
 *     split_multisplit with the IDS rule (bucket = cell id, the wide path when G^3 > 2048) writes
 *     the gather index and the cell offsets (G^3 + 1 entries, the grid's cell-start table); one
 *     split_gather moves the 16-byte point records into cell order. No sort.
 *   Query (timed): for every point, the other points within the radius r (at most 0.999 of the cell
 *     side) among the 27 cells around its cell, counted with the sum of their ids.
 * Checks, before any time is printed (exit 1 naming the first mismatch; g3_check_result): the
 * records form a permutation of the ids and hold the generated positions; the CPU builds the grid
 * of the same points with split_multisplit_ref: identical cell offsets, and each cell holds the same
 * point ids (the GPU's order within a cell is unspecified); every point's neighbour count and id sum
 * equal the CPU's count through its grid (a seeded sample of 8192 points above 2^20 points) and
 * brute force (every point up to 20000 points, else a sample); the device's total equals the sum of
 * the counts. After the timed runs the offsets, counts and id sums are compared again with the
 * verified ones.
 * Usage: split-demo grid [N] [--n N] [--grid G] [--radius R] [--runs R]. Exit 0 verified, 1 a check
 * or a call failed (the message names it), 2 bad usage, 77 no CUDA device (1 when
 * SLABCAST_REQUIRE_GPU=1). */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "grid3d.h"

#define W "grid" /* the subcommand, in messages */

enum { GRID_MAX_POINTS = 1 << 26 };

typedef struct grid_opts {
    uint64_t n;
    uint32_t g;   /* 0: chosen from n (and the radius) */
    double r;     /* 0: 0.75 of the cell side */
    int runs;
} grid_opts;

static void grid_usage(FILE *f)
{
    fprintf(f,
            "usage: split-demo grid [N] [--n N] [--grid G] [--radius R] [--runs R]\n"
            "  builds the 3-D uniform grid of N points (cell ids, one split_multisplit, one split_gather), counts\n"
            "  every point's neighbours within R through the 27 cells around it, checks both against the CPU,\n"
            "  then times them\n"
            "  N, --n N      points, 1 .. %d (default 1000000): uniform in the unit box plus 4 dense clusters\n"
            "  --grid G      cells per side, 1 .. %d (default: the largest with G^3 <= N / 4, and R within a cell)\n"
            "  --radius R    neighbour radius in box units, > 0 and at most 0.999 / G (default 0.75 / G)\n"
            "  --runs R      timed runs of the build and of the query, 1 .. 1000 (default 21): the median after\n"
            "                1 warm-up\n",
            (int)GRID_MAX_POINTS, (int)G3_MAX_G);
}

static int bad_usage(const char *what, const char *value, const char *valid)
{
    return demo_bad_value("split-demo " W, what, value, valid, grid_usage);
}

/* 0 parsed, 1 --help printed (exit 0), 2 bad usage (printed). */
static int parse_grid_options(int argc, char **argv, grid_opts *o)
{
    o->n = 1000000, o->g = 0, o->r = 0, o->runs = 21;
    int have_n = 0;
    for (int a = 1; a < argc; ++a) {
        const char *arg = argv[a];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            grid_usage(stdout);
            return 1;
        }
        if (arg[0] != '-') { /* the positional N */
            if (have_n) {
                fprintf(stderr, "split-demo " W ": unexpected argument '%s' (N is already %llu)\n", arg,
                        (unsigned long long)o->n);
                grid_usage(stderr);
                return 2;
            }
            if (demo_parse_u64(arg, 1, GRID_MAX_POINTS, &o->n) != 0)
                return bad_usage("N", arg, "a whole number of points, 1 .. 67108864");
            have_n = 1;
            continue;
        }
        static const char *const names[] = {"--n", "--grid", "--radius", "--runs"};
        const char *value = NULL;
        const int count = (int)(sizeof names / sizeof names[0]);
        const int which = demo_option("split-demo " W, argc, argv, &a, names, count, &value);
        if (which < 0) {
            grid_usage(stderr);
            return 2;
        }
        uint64_t v = 0;
        switch (which) {
        case 0:
            if (have_n) return bad_usage(names[which], value, "N given once (positionally or with --n)");
            if (demo_parse_u64(value, 1, GRID_MAX_POINTS, &o->n) != 0)
                return bad_usage(names[which], value, "a whole number of points, 1 .. 67108864");
            have_n = 1;
            break;
        case 1:
            if (demo_parse_u64(value, 1, G3_MAX_G, &v) != 0) return bad_usage(names[which], value, "1 .. 256");
            o->g = (uint32_t)v;
            break;
        case 2:
            if (g3_parse_positive(value, &o->r) != 0 || o->r > G3_MAX_RADIUS_CELLS)
                return bad_usage(names[which], value, "a number > 0 and at most 0.999 / G (e.g. 0.01)");
            break;
        default:
            if (demo_parse_u64(value, 1, 1000, &v) != 0) return bad_usage(names[which], value, "1 .. 1000");
            o->runs = (int)v;
            break;
        }
    }
    return 0;
}

/* ---- the GPU work ---- */

typedef struct grid_state {
    g3_gpu_grid grid;
    g3_point *points, *sorted;   /* input order, cell order */
    uint32_t *count;             /* by id */
    uint64_t *id_sum;            /* by id */
    unsigned long long *total;   /* the sum of the counts */
    float r2;
} grid_state;

static int build_grid(void *ctx, cudaStream_t s)
{
    grid_state *st = ctx;
    if (g3_grid_cells(&st->grid, st->points, s) || g3_grid_bin(&st->grid, s)) return 1;
    return g3_grid_reorder(&st->grid, st->points, st->sorted, sizeof(g3_point), s);
}

static int query_grid(void *ctx, cudaStream_t s)
{
    grid_state *st = ctx;
    return g3_grid_count(&st->grid, st->sorted, st->r2, st->count, st->id_sum, st->total, s);
}

static void free_state(grid_state *st)
{
    g3_grid_destroy(&st->grid);
    cudaFree(st->points), cudaFree(st->sorted), cudaFree(st->count), cudaFree(st->id_sum), cudaFree(st->total);
}

/* Host copies of the result. */
typedef struct grid_host {
    g3_point *sorted;
    uint32_t *offsets, *count;
    uint64_t *id_sum;
    unsigned long long total;
} grid_host;

static int copy_back(const grid_state *st, grid_host *h, int with_points)
{
    const size_t n = st->grid.n;
    if (with_points) DEMO_CUDA(W, cudaMemcpy(h->sorted, st->sorted, n * sizeof(g3_point), cudaMemcpyDeviceToHost));
    const size_t offset_bytes = ((size_t)st->grid.num_cells + 1) * 4;
    DEMO_CUDA(W, cudaMemcpy(h->offsets, st->grid.offsets, offset_bytes, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(h->count, st->count, n * 4, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(h->id_sum, st->id_sum, n * 8, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(&h->total, st->total, sizeof h->total, cudaMemcpyDeviceToHost));
    return 0;
}

static int alloc_host(grid_host *h, size_t n, uint32_t cells, int with_points)
{
    memset(h, 0, sizeof *h);
    h->sorted = with_points ? malloc(n * sizeof(g3_point)) : NULL;
    h->offsets = malloc(((size_t)cells + 1) * 4);
    h->count = malloc(n * 4);
    h->id_sum = malloc(n * 8);
    if ((with_points && !h->sorted) || !h->offsets || !h->count || !h->id_sum) {
        fprintf(stderr, "split-demo " W ": host allocation for the copies of %zu points failed\n", n);
        return 1;
    }
    return 0;
}

static void free_host(grid_host *h)
{
    free(h->sorted), free(h->offsets), free(h->count), free(h->id_sum);
}

/* The build and the query once, and every check (before any timing). */
static int run_and_check(grid_state *st, grid_host *h, float r)
{
    if (build_grid(st, 0)) return 1;
    DEMO_CUDA(W, cudaMemsetAsync(st->total, 0, sizeof *st->total, 0));
    if (query_grid(st, 0)) return 1;
    DEMO_CUDA(W, cudaDeviceSynchronize());
    if (copy_back(st, h, 1)) return 1;
    char msg[640];
    if (g3_check_result(h->sorted, NULL, h->offsets, h->count, h->id_sum, h->total, st->grid.n, st->grid.g, r, 0, 0,
                        msg, sizeof msg)) {
        fprintf(stderr, "split-demo " W ": WRONG: %s\n", msg);
        return 1;
    }
    return 0;
}

/* After the timed runs: the same offsets, counts and id sums as the verified run. */
static int recheck(const grid_state *st, const grid_host *verified, grid_host *again)
{
    if (copy_back(st, again, 0)) return 1;
    const size_t n = st->grid.n;
    for (uint32_t c = 0; c <= st->grid.num_cells; ++c)
        if (again->offsets[c] != verified->offsets[c]) {
            fprintf(stderr, "split-demo " W ": WRONG after the timed runs: cell offset %u is %u, %u before\n", c,
                    again->offsets[c], verified->offsets[c]);
            return 1;
        }
    for (size_t k = 0; k < n; ++k)
        if (again->count[k] != verified->count[k] || again->id_sum[k] != verified->id_sum[k]) {
            fprintf(stderr, "split-demo " W ": WRONG after the timed runs: point %zu has %u neighbours (id sum %llu), "
                            "%u (id sum %llu) before\n", k, again->count[k], (unsigned long long)again->id_sum[k],
                    verified->count[k], (unsigned long long)verified->id_sum[k]);
            return 1;
        }
    return 0;
}

int demo_grid(int argc, char **argv)
{
    grid_opts o;
    const int parsed = parse_grid_options(argc, argv, &o);
    if (parsed == 1) return 0;
    if (parsed) return parsed;
    const size_t n = (size_t)o.n;
    uint32_t g = 0;
    float r = 0;
    /* the points in input and cell order, a count and an id sum each (n <= 2^26: no overflow) */
    const int started = g3_demo_start(W, n, o.g, o.r, n * (2 * sizeof(g3_point) + 4 + 8), "points", "N or --grid", &g, &r);
    if (started) return started;

    grid_state st;
    memset(&st, 0, sizeof st);
    st.r2 = g3_radius2(r);
    grid_host h, again;
    memset(&again, 0, sizeof again);
    int rc = alloc_host(&h, n, g * g * g, 1);
    if (rc == 0) rc = alloc_host(&again, n, g * g * g, 0);
    if (rc == 0 && g3_grid_create(&st.grid, W, n, g)) rc = 1;
    if (rc == 0) {
        rc = 1;
        DEMO_CUDA(W, cudaMalloc((void **)&st.points, n * sizeof(g3_point)));
        DEMO_CUDA(W, cudaMalloc((void **)&st.sorted, n * sizeof(g3_point)));
        DEMO_CUDA(W, cudaMalloc((void **)&st.count, n * 4));
        DEMO_CUDA(W, cudaMalloc((void **)&st.id_sum, n * 8));
        DEMO_CUDA(W, cudaMalloc((void **)&st.total, sizeof *st.total));
        rc = g3_generate(W, st.points, NULL, n, 0);
    }
    if (rc == 0) rc = run_and_check(&st, &h, r);
    float build_ms = 0, query_ms = 0;
    if (rc == 0) rc = demo_time(W, build_grid, &st, 0, o.runs, &build_ms);
    if (rc == 0) rc = demo_time(W, query_grid, &st, 0, o.runs, &query_ms);
    if (rc == 0) {
        DEMO_CUDA(W, cudaMemset(st.total, 0, sizeof *st.total));
        rc = recheck(&st, &h, &again);
    }
    if (rc == 0) {
        uint32_t empty = 0, most = 0;
        const uint32_t cells = g * g * g;
        g3_cell_stats(h.offsets, cells, &empty, &most);
        printf("split-demo " W ": %zu points (a quarter in 4 dense clusters), %u^3 = %u cells of side %.6g, radius "
               "%.6g\n", n, g, cells, 1.0 / g, r);
        printf("split-demo " W ": checked against the CPU: cell offsets and each cell's points (split_multisplit_ref), "
               "neighbour counts and id sums of %s through the CPU grid and of %s by brute force\n",
               n <= G3_CHECK_ALL_MAX ? "every point" : "8192 sampled points",
               n <= G3_BRUTE_ALL_MAX ? "every point" : "sampled points");
        printf("split-demo " W ": cells %u, points %zu, empty cells %u, max per cell %u, neighbours per point %.2f\n",
               cells, n, empty, most, (double)h.total / (double)n);
        printf("split-demo " W ": build %.3f ms (cell ids + split_multisplit + split_gather: %.1f Mpoints/s), query "
               "%.3f ms (27-cell neighbour count: %.1f Mpoints/s); median of %d after 1 warm-up\n",
               build_ms, build_ms > 0 ? n / (build_ms * 1e3) : 0.0, query_ms,
               query_ms > 0 ? n / (query_ms * 1e3) : 0.0, o.runs);
        printf("split-demo " W ": verified\n");
    }
    free_state(&st);
    free_host(&h);
    free_host(&again);
    return rc;
}
