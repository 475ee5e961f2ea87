/* demo_grid.c - `split-demo grid`: building a data structure with the split library: the uniform
 * grid (cell lists) of N random 2-D points, as a particle simulation or a spatial hash keeps it, in two calls, then used.
 *   1. split_multisplit, stable, BITS rule, key = the point's cell id (cy * G + cx: 10 bits for
 *      G = 32), value = the point's index: values_out lists each cell's points in input order and
 *      bucket_offsets (G*G + 1 entries) is the grid's cell-start table. One call, no sort.
 *   2. split_gather: the 16-byte point records moved into cell order (the listed indices are the
 *      gather index), so each cell's points lie contiguous in memory for the queries.
 * The device arrays are then read back and every radius query (one per 1000 points) is answered by
 * visiting the cells within the radius, checked against a brute-force scan of all points; the grid
 * is checked against split_multisplit_ref. In an application the cell ids would come from a kernel
 * of its own; here the host computes them.
 * Usage: split-demo grid [N] (default 1000000). Exit 0 verified, 1 a check or a call failed (the
 * message names it), 2 bad usage, 77 no CUDA device (1 when SLABCAST_REQUIRE_GPU=1). */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "split.h"

enum { G = 32, CELL_BITS = 10 }; /* G * G = 2^CELL_BITS cells over [0, 1)^2 */

typedef struct point { float x, y, mass, id; } point; /* a 16-byte record */

static uint64_t rng_state = 0x5eedull;
static double rnd(void) /* splitmix64 to [0, 1) */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static uint32_t cell_of(float x, float y)
{
    uint32_t cx = (uint32_t)(x * G), cy = (uint32_t)(y * G);
    cx = cx < G ? cx : G - 1, cy = cy < G ? cy : G - 1;
    return cy * G + cx;
}

/* Points within r of (qx, qy), using the grid: cell starts, and the points in cell order. */
static size_t query_grid(const uint32_t *start, const point *sorted, float qx, float qy, float r)
{
    size_t hits = 0;
    const int x0 = (int)floorf((qx - r) * G), x1 = (int)floorf((qx + r) * G);
    const int y0 = (int)floorf((qy - r) * G), y1 = (int)floorf((qy + r) * G);
    for (int cy = y0 < 0 ? 0 : y0; cy <= (y1 < G ? y1 : G - 1); ++cy)
        for (int cx = x0 < 0 ? 0 : x0; cx <= (x1 < G ? x1 : G - 1); ++cx) {
            const uint32_t c = (uint32_t)(cy * G + cx);
            for (uint32_t i = start[c]; i < start[c + 1]; ++i) {
                const float dx = sorted[i].x - qx, dy = sorted[i].y - qy;
                hits += dx * dx + dy * dy <= r * r;
            }
        }
    return hits;
}

static size_t query_brute(const point *pts, size_t n, float qx, float qy, float r)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; ++i) {
        const float dx = pts[i].x - qx, dy = pts[i].y - qy;
        hits += dx * dx + dy * dy <= r * r;
    }
    return hits;
}

#define W "grid" /* the subcommand, in messages */

/* The timed build: the multisplit (phase 2: the work, asynchronous) and the gather. */
typedef struct grid_build {
    split_desc grid;
    void *temp;
    size_t temp_bytes;
    split_move_desc move;
} grid_build;

static int build_grid(void *ctx, cudaStream_t s)
{
    grid_build *b = ctx;
    DEMO_SPLIT(W, split_multisplit(b->temp, &b->temp_bytes, &b->grid, s));
    DEMO_SPLIT(W, split_gather(&b->move, s));
    return 0;
}

static void grid_usage(FILE *f)
{
    fprintf(f, "usage: split-demo grid [N]   (1 <= N < 2^31 points; default 1000000)\n");
}

int demo_grid(int argc, char **argv)
{
    size_t n = 1000000;
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        grid_usage(stdout);
        return 0;
    }
    if (argc > 2) {
        fprintf(stderr, "split-demo grid: unexpected argument '%s'\n", argv[2]);
        grid_usage(stderr);
        return 2;
    }
    if (argc > 1) {
        uint64_t v = 0;
        if (demo_parse_u64(argv[1], 1, ((uint64_t)1 << 31) - 1, &v) != 0) {
            fprintf(stderr, "split-demo grid: bad N '%s'\n", argv[1]);
            grid_usage(stderr);
            return 2;
        }
        n = (size_t)v;
    }
    const int no_device = demo_require_device(W);
    if (no_device) return no_device;
    rng_state = 0x5eedull; /* the same points on every call */
    /* the points, and their cell ids as keys (host) */
    point *pts = malloc(n * sizeof *pts), *sorted = malloc(n * sizeof *sorted);
    uint32_t *cell = malloc(n * 4), *idx = malloc(n * 4), *start = malloc((G * G + 1) * 4);
    uint32_t *ref_idx = malloc(n * 4), *ref_start = malloc((G * G + 1) * 4), *iota = malloc(n * 4);
    if (!pts || !sorted || !cell || !idx || !start || !ref_idx || !ref_start || !iota) {
        fprintf(stderr, "split-demo grid: host allocation for %zu points failed\n", n);
        return 1;
    }
    for (size_t i = 0; i < n; ++i) {
        /* clustered: half the points in a small disc, so cells differ in size by orders of magnitude */
        const double a = 6.283185307179586 * rnd(), rr = 0.05 * sqrt(rnd());
        pts[i].x = (float)(i % 2 ? rnd() : 0.3 + rr * cos(a));
        pts[i].y = (float)(i % 2 ? rnd() : 0.6 + rr * sin(a));
        pts[i].mass = (float)rnd(), pts[i].id = (float)i;
        cell[i] = cell_of(pts[i].x, pts[i].y);
        iota[i] = (uint32_t)i;
    }

    /* 1. the grid: one stable multisplit of (cell id, point index) by the cell id's 10 bits */
    uint32_t *d_cell, *d_iota, *d_idx, *d_start;
    point *d_pts, *d_sorted;
    DEMO_CUDA(W, cudaMalloc((void **)&d_cell, n * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&d_iota, n * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&d_idx, n * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&d_start, (G * G + 1) * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&d_pts, n * sizeof(point)));
    DEMO_CUDA(W, cudaMalloc((void **)&d_sorted, n * sizeof(point)));
    DEMO_CUDA(W, cudaMemcpy(d_cell, cell, n * 4, cudaMemcpyHostToDevice));
    DEMO_CUDA(W, cudaMemcpy(d_iota, iota, n * 4, cudaMemcpyHostToDevice));
    DEMO_CUDA(W, cudaMemcpy(d_pts, pts, n * sizeof(point), cudaMemcpyHostToDevice));

    split_desc grid = {0}; /* zero fields are the defaults */
    grid.key_type = SPLIT_KEY_U32;
    grid.n = n;
    grid.keys_in = d_cell;
    grid.values_in = d_iota; /* moved with the keys: the point indices, grouped by cell */
    grid.values_out = d_idx;
    grid.buckets.rule = SPLIT_BUCKETS_BITS;
    grid.buckets.bit_count = CELL_BITS; /* B = 1024 cells */
    grid.bucket_offsets = d_start;      /* the cell-start table */
    size_t temp_bytes = 0;
    void *temp = NULL;
    DEMO_SPLIT(W, split_multisplit(NULL, &temp_bytes, &grid, 0)); /* phase 1: the size */
    DEMO_CUDA(W, cudaMalloc(&temp, temp_bytes));

    /* 2. the records in cell order: a gather by the listed indices */
    split_move_desc move = {d_pts, d_sorted, sizeof(point), d_idx, n, 1};

    /* the build, timed: one warm-up (module load, first launches), then the median of RUNS builds */
    enum { RUNS = 21 };
    float ms = 0;
    grid_build build = {grid, temp, temp_bytes, move};
    {
        const int rc = demo_time(W, build_grid, &build, 0, RUNS, &ms);
        if (rc) return rc;
    }
    DEMO_CUDA(W, cudaMemcpy(idx, d_idx, n * 4, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(start, d_start, (G * G + 1) * 4, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(sorted, d_sorted, n * sizeof(point), cudaMemcpyDeviceToHost));

    /* the grid against the reference: same cell starts, same lists (stable: input order per cell) */
    split_desc ref = grid;
    ref.keys_in = cell, ref.values_in = iota, ref.values_out = ref_idx, ref.bucket_offsets = ref_start;
    DEMO_SPLIT(W, split_multisplit_ref(&ref));
    size_t bad = 0;
    for (size_t c = 0; c <= G * G; ++c) bad += start[c] != ref_start[c];
    for (size_t i = 0; i < n; ++i) bad += idx[i] != ref_idx[i] || sorted[i].id != pts[idx[i]].id;
    uint32_t biggest = 0;
    for (size_t c = 0; c < G * G; ++c) biggest = start[c + 1] - start[c] > biggest ? start[c + 1] - start[c] : biggest;

    /* radius queries through the grid against brute force */
    const float r = 0.75f / G;
    size_t queries = 0, hits = 0, wrong = 0;
    for (size_t i = 0; i < n; i += 1000, ++queries) {
        const size_t a = query_grid(start, sorted, pts[i].x, pts[i].y, r);
        const size_t b = query_brute(pts, n, pts[i].x, pts[i].y, r);
        hits += a, wrong += a != b;
    }
    printf("split-demo grid: %zu points, %d x %d cells (largest %u points): grid built by split_multisplit + "
           "split_gather in %.3f ms (GPU, median of 21)\n", n, G, G, biggest, ms);
    printf("split-demo grid: grid %s the reference; %zu radius queries, %zu points found, %zu wrong against "
           "brute force\n", bad ? "DIFFERS FROM" : "equals", queries, hits, wrong);
    cudaFree(d_cell), cudaFree(d_iota), cudaFree(d_idx), cudaFree(d_start), cudaFree(d_pts), cudaFree(d_sorted);
    cudaFree(temp);
    free(pts), free(sorted), free(cell), free(idx), free(start), free(ref_idx), free(ref_start), free(iota);
    if (bad || wrong) {
        fprintf(stderr, "split-demo grid: %zu grid entries and %zu queries wrong\n", bad, wrong);
        return 1;
    }
    printf("split-demo grid: verified\n");
    return 0;
}
