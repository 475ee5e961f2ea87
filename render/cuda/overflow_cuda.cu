/* overflow_cuda.cu - the overflow fallback: a frame whose references exceed the reference buffer is
 * binned and ray cast on the device in passes, with no host round trip and no triangle dropped.
 *
 * One cooperative kernel (all its blocks resident, grid-wide barriers between phases) that returns at
 * once unless finalize set globals.overflow (the whole grid reads the same flag, so no block waits
 * at a barrier the others skip). Then:
 *  0. tile offsets: an exclusive scan of project's per-tile counts (64-bit, in one block), written
 *     also to the 32-bit tile offsets that the tile heat view reads;
 *  per pass, over the tiles [lo, hi) whose references fit the buffer (at least one tile: the
 *  buffer holds >= the mesh's triangles, and a triangle lands in a tile at most once):
 *  1. cursors of those tiles = their offsets minus the pass's base;
 *  2. emit: every visible triangle writes its id into each of its tiles inside [lo, hi), at a slot
 *     taken from the tile's cursor (the tiles project counted: its record, or the same
 *     classification again for spans of more than 32 tiles);
 *  3. ray cast: a block per tile, a thread per ray, each ray against all the tile's references (one
 *     slab: no early exit), with raycast.h's test and tie rule (the CPU ray cast's), so hits
 *     (triangle, depth, barycentrics) equal the slab ray cast's bit for bit. Tests are counted per
 *     ray and reference actually tested; no tile exits early.
 * Only the counters differ from a frame that fits (more tests, none exited); the host grows the
 * buffer once it reads the frame's reference count (backend_cuda.cu). */
#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>
#include <math.h>

#include "backend_cuda.h"
#include "bins_cuda.cuh"
#include "classify.h"
#include "intersect.h"
#include "raycast.h"
#include "render_tuning.h"
#include "sc_report.h"

namespace cg = cooperative_groups;

enum { OVF_THREADS = SC_CUDA_OVERFLOW_THREADS, OVF_SCAN_ITEMS = SC_CUDA_OVERFLOW_SCAN_ITEMS };
static_assert(OVF_THREADS % 32 == 0, "whole warps");

/* One tile: every ray of it against the references values[begin, end). */
__device__ static void ovf_raycast_tile(const sc_frame_params &p, uint32_t tile, const uint32_t *values,
                                        uint32_t begin, uint32_t end, const uint32_t *idx, const float *pos,
                                        sc_hit *hits, uint32_t *tests_out, unsigned long long &tests_sum,
                                        unsigned long long &hits_sum)
{
    const uint32_t ts = p.tile_size;
    const uint32_t x0 = (tile % p.tiles_x) * ts, y0 = (tile / p.tiles_x) * ts;
    for (uint32_t j = threadIdx.x; j < ts * ts; j += blockDim.x) {
        const uint32_t x = x0 + j % ts, y = y0 + j / ts;
        if (x >= p.width || y >= p.height) continue;
        float dir[3];
        sc_pixel_ray_dir(&p, x, y, dir);
        sc_ray ray;
        sc_ray_setup(&ray, p.eye, dir);
        sc_ray_best best = sc_ray_best_none();
        for (uint32_t k = begin; k < end; ++k) {
            const uint32_t tri = values[k];
            const uint32_t *f = idx + 3 * (size_t)tri;
            sc_ray_test_triangle(&ray, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], tri,
                                 p.near_plane, p.far_plane, &best);
        }
        const size_t px = (size_t)y * p.width + x;
        hits[px] = sc_hit{best.tri, best.t, best.u, best.v};
        tests_out[px] = end - begin;
        tests_sum += end - begin;
        hits_sum += best.tri != SC_NO_HIT;
    }
}

__global__ void __launch_bounds__(OVF_THREADS)
sc_overflow_kernel(const sc_cuda_frame_consts *__restrict__ fc, sc_cuda_globals *g, unsigned long long capacity, const float *pos,
                   const uint32_t *idx, const float *tri_keys, const uint4 *tri_bins, const uint32_t *counts,
                   unsigned long long *offsets64, uint32_t *tile_offsets, uint32_t *cursors, uint32_t *values,
                   sc_hit *hits, uint32_t *tests_out)
{
    if (!g->overflow) return; /* the same for every block */
    cg::grid_group grid = cg::this_grid();
    sc_frame_params p = fc->p;
    const uint32_t T = p.num_tiles;
    p.depth_min = g->depth_min;
    p.depth_max = g->depth_max;

    /* 0. Tile offsets (block 0). */
    if (blockIdx.x == 0) {
        typedef cub::BlockScan<unsigned long long, OVF_THREADS> scan_t;
        __shared__ typename scan_t::TempStorage temp;
        unsigned long long run = 0;
        for (uint32_t base = 0; base < T; base += OVF_THREADS * OVF_SCAN_ITEMS) {
            unsigned long long c[OVF_SCAN_ITEMS], sum = 0;
#pragma unroll
            for (int k = 0; k < OVF_SCAN_ITEMS; ++k) {
                const uint32_t i = base + threadIdx.x * OVF_SCAN_ITEMS + k;
                c[k] = i < T ? counts[i] : 0u;
                sum += c[k];
            }
            unsigned long long excl, total;
            scan_t(temp).ExclusiveSum(sum, excl, total);
            excl += run;
#pragma unroll
            for (int k = 0; k < OVF_SCAN_ITEMS; ++k) {
                const uint32_t i = base + threadIdx.x * OVF_SCAN_ITEMS + k;
                if (i < T) {
                    offsets64[i] = excl;
                    tile_offsets[i] = (uint32_t)excl;
                }
                excl += c[k];
            }
            run += total;
            __syncthreads(); /* temp is reused */
        }
        if (threadIdx.x == 0) {
            offsets64[T] = run;
            tile_offsets[T] = (uint32_t)run;
        }
    }
    grid.sync();

    unsigned long long tests_sum = 0, hits_sum = 0;
    uint32_t passes = 0;
    for (uint32_t lo = 0; lo < T; ++passes) {
        /* The pass: tiles [lo, hi), the most whose references fit the buffer (at least one). */
        const unsigned long long base = offsets64[lo];
        uint32_t a = lo + 1, b = T; /* the answer lies in [a, b] */
        while (a < b) {
            const uint32_t m = a + (b - a + 1) / 2;
            if (offsets64[m] - base <= capacity) a = m;
            else b = m - 1;
        }
        const uint32_t hi = a;
        /* 1. Cursors. */
        for (uint32_t tile = lo + grid.thread_rank(); tile < hi; tile += grid.size())
            cursors[tile] = (uint32_t)(offsets64[tile] - base);
        grid.sync();
        /* 2. Emit. */
        for (uint32_t t = grid.thread_rank(); t < p.num_triangles; t += grid.size())
            if (tri_keys[t] < INFINITY)
                sc_cuda_visit_tiles(p, t, tri_bins[t], pos, idx, lo, hi,
                                    [&](uint32_t tile) { values[atomicAdd(&cursors[tile], 1u)] = t; });
        grid.sync();
        /* 3. Ray cast. */
        for (uint32_t tile = lo + blockIdx.x; tile < hi; tile += gridDim.x)
            ovf_raycast_tile(p, tile, values, (uint32_t)(offsets64[tile] - base),
                             (uint32_t)(offsets64[tile + 1] - base), idx, pos, hits, tests_out, tests_sum, hits_sum);
        grid.sync(); /* the next pass reuses the buffer and the cursors */
        lo = hi;
    }
    for (int o = 16; o > 0; o >>= 1) {
        tests_sum += __shfl_down_sync(0xFFFFFFFFu, tests_sum, o);
        hits_sum += __shfl_down_sync(0xFFFFFFFFu, hits_sum, o);
    }
    if ((threadIdx.x & 31u) == 0) {
        sc_cuda_stripe *ctr = &g->stripes[blockIdx.x % SC_CUDA_STRIPES];
        if (tests_sum) {
            atomicAdd(&ctr->tests, tests_sum);
            atomicAdd(&ctr->performed, tests_sum); /* every ray of a tile against all its references */
        }
        if (hits_sum) atomicAdd(&ctr->hit_pixels, hits_sum);
    }
    if (grid.thread_rank() == 0) g->passes = passes;
}

sc_status sc_cuda_overflow_blocks(int *blocks)
{
    uint32_t sms = 1;
    int per_sm = 0;
    SC_TRY(sc_cuda_device_sms(&sms));
    SC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sc_overflow_kernel, OVF_THREADS, 0));
    if (per_sm < 1)
        return SC_FAIL(SC_ERROR_CUDA, "renderer (CUDA): the overflow kernel cannot be resident (%d blocks per SM)",
                       per_sm);
    *blocks = per_sm * (int)sms;
    return SC_OK;
}

sc_status sc_cuda_overflow(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    (void)p;
    const sc_cuda_frame_consts *fc = st->consts;
    sc_cuda_globals *g = st->globals;
    unsigned long long capacity = (unsigned long long)st->ref_capacity;
    const float *pos = st->positions, *tri_keys = st->tri_keys;
    const uint32_t *idx = st->indices, *counts = st->tile_counts;
    const uint4 *tri_bins = (const uint4 *)st->tri_bins;
    unsigned long long *offsets64 = st->tile_offsets64;
    uint32_t *tile_offsets = st->tile_offsets, *cursors = st->tile_cursors, *values = st->ref_values[0];
    sc_hit *hits = st->hits;
    uint32_t *tests = st->tests;
    void *args[] = {&fc, &g, &capacity, &pos, &idx, &tri_keys, &tri_bins, &counts, &offsets64, &tile_offsets,
                    &cursors, &values, &hits, &tests};
    /* Cooperative (all blocks resident, grid barriers), as a launch attribute: capturable in a graph. */
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.gridDim = dim3(st->overflow_blocks);
    cfg.blockDim = dim3(OVF_THREADS);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    SC_CUDA_CHECK(cudaLaunchKernelExC(&cfg, (const void *)sc_overflow_kernel, args));
    SC_CUDA_CHECK_LAUNCH("sc_overflow_kernel");
    return SC_OK;
}
