/* project_cuda.cu - projection and classification of every triangle (classify.h, one thread per
 * triangle) fused with the two reductions that only need the classification:
 *  - the frame's depth range and visible count (warp shuffles, then one atomic per block), and
 *  - the number of references of every tile (the count pass of the tile grouping: for each tile a
 *    triangle overlaps, one increment of that tile's counter, aggregated over the warp's lanes that
 *    count the same tile at the same time (cooperative groups' labeled partition);
 * then one block scans the tile counts into tile offsets and emit's cursors, and sets the frame
 * totals (references, overflow, the count the slab split reads, slab range). All on the device. */
#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>
#include <math.h>

#include "backend_cuda.h"
#include "classify.h"
#include "render_tuning.h"
#include "sc_report.h"

namespace cg = cooperative_groups;

enum { PROJECT_WARPS = SC_CUDA_PROJECT_THREADS / 32 };
static_assert(SC_CUDA_PROJECT_THREADS % 32 == 0, "whole warps");

/* counts[tile] += 1 for every calling lane, one atomic per distinct tile among the lanes here. */
__device__ __forceinline__ void count_tile(uint32_t *counts, uint32_t tile)
{
    cg::coalesced_group peers = cg::labeled_partition(cg::coalesced_threads(), tile);
    if (peers.thread_rank() == 0) atomicAdd(&counts[tile], peers.size());
}

/* Visible keys are positive finite floats, whose bit patterns order like the floats: the minimum
 * is kept as the maximum of the complemented bits (the globals start zeroed). */
__global__ void __launch_bounds__(SC_CUDA_PROJECT_THREADS)
sc_project_kernel(sc_frame_params p, const float *pos, const uint32_t *idx, float *tri_keys, uint4 *tri_bins,
                  uint32_t *tile_counts, sc_cuda_globals *g)
{
    __shared__ uint32_t red[3][PROJECT_WARPS];
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t min_inv = 0, max_bits = 0, visible = 0;
    if (t < p.num_triangles) {
        const uint32_t *f = idx + 3 * (size_t)t;
        sc_tri_setup s;
        float key = INFINITY;
        if (sc_tri_classify(&p, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], &s)) {
            /* The record of the tiles for emit: a mask over the span when it has at most 32 tiles. */
            const uint32_t w = s.tx1 - s.tx0 + 1, h = s.ty1 - s.ty0 + 1;
            const bool small = w <= SC_CUDA_BINS_MASK_TILES && h <= SC_CUDA_BINS_MASK_TILES &&
                               w * h <= SC_CUDA_BINS_MASK_TILES;
            uint32_t count = 0, mask = 0, bit = 0;
            for (uint32_t ty = s.ty0; ty <= s.ty1; ++ty)
                for (uint32_t tx = s.tx0; tx <= s.tx1; ++tx, ++bit)
                    if (sc_tri_overlaps_tile(&p, &s, tx, ty)) {
                        count_tile(tile_counts, ty * p.tiles_x + tx);
                        ++count;
                        if (small) mask |= 1u << bit;
                    }
            if (count > 0) {
                key = s.depth_key;
                const uint32_t b = __float_as_uint(key);
                min_inv = ~b;
                max_bits = b;
                visible = 1;
                tri_bins[t] = make_uint4(s.ty0 * p.tiles_x + s.tx0,
                                         small ? (w - 1) | (h - 1) << 16 : SC_CUDA_BINS_RECLASSIFY, mask, b);
            }
        }
        tri_keys[t] = key;
    }
    for (int o = 16; o > 0; o >>= 1) {
        min_inv = max(min_inv, __shfl_down_sync(0xFFFFFFFFu, min_inv, o));
        max_bits = max(max_bits, __shfl_down_sync(0xFFFFFFFFu, max_bits, o));
        visible += __shfl_down_sync(0xFFFFFFFFu, visible, o);
    }
    const uint32_t warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31u) == 0) {
        red[0][warp] = min_inv;
        red[1][warp] = max_bits;
        red[2][warp] = visible;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < PROJECT_WARPS; ++w) {
            min_inv = max(min_inv, red[0][w]);
            max_bits = max(max_bits, red[1][w]);
            visible += red[2][w];
        }
        if (visible > 0) {
            atomicMax(&g->depth_min_inv, min_inv);
            atomicMax(&g->depth_max_bits, max_bits);
            atomicAdd(&g->visible, (unsigned long long)visible);
        }
    }
}

sc_status sc_cuda_project(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    SC_CUDA_CHECK(cudaMemsetAsync(st->tile_cursors, 0, (size_t)p->num_tiles * sizeof(uint32_t), s));
    uint32_t n = p->num_triangles;
    if (n == 0) return SC_OK;
    sc_project_kernel<<<(n + SC_CUDA_PROJECT_THREADS - 1) / SC_CUDA_PROJECT_THREADS, SC_CUDA_PROJECT_THREADS, 0, s>>>(
        *p, st->positions, st->indices, st->tri_keys, (uint4 *)st->tri_bins, st->tile_cursors, st->globals);
    SC_CUDA_CHECK_LAUNCH("sc_project_kernel");
    return SC_OK;
}

/* The depth range and the visible count are reduced by the project kernel. */
sc_status sc_cuda_reduce(const sc_cuda_state *st, cudaStream_t s)
{
    (void)st, (void)s;
    return SC_OK;
}

/* One block: exclusive scan of the tile counts (64-bit running total) into the tile offsets and
 * emit's cursors, entry num_tiles = the references; then the frame totals: overflow against the
 * capacity, the count the slab split reads (0 after an overflow), and the slab range (the near
 * plane for a frame with no visible triangle, as the CPU backend). */
__global__ void __launch_bounds__(SC_CUDA_TILE_SCAN_THREADS)
sc_tile_scan_kernel(uint32_t num_tiles, unsigned long long capacity, float near_plane, uint32_t *cursors,
                    uint32_t *tile_offsets, sc_cuda_globals *g)
{
    static_assert(SC_CUDA_TILE_SCAN_ITEMS % 4 == 0, "uint4 words");
    typedef cub::BlockScan<unsigned long long, SC_CUDA_TILE_SCAN_THREADS> scan_t;
    __shared__ typename scan_t::TempStorage temp;
    const uint32_t tid = threadIdx.x;
    const uint32_t round = SC_CUDA_TILE_SCAN_THREADS * SC_CUDA_TILE_SCAN_ITEMS;
    unsigned long long run = 0;
    for (uint32_t base = 0; base < num_tiles; base += round) {
        const uint32_t first = base + tid * SC_CUDA_TILE_SCAN_ITEMS;
        const bool whole = first + SC_CUDA_TILE_SCAN_ITEMS <= num_tiles; /* 16-byte aligned words */
        uint32_t c[SC_CUDA_TILE_SCAN_ITEMS];
        if (whole) {
#pragma unroll
            for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; k += 4) {
                const uint4 v = *(const uint4 *)(cursors + first + k);
                c[k] = v.x, c[k + 1] = v.y, c[k + 2] = v.z, c[k + 3] = v.w;
            }
        } else {
#pragma unroll
            for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; ++k) c[k] = first + k < num_tiles ? cursors[first + k] : 0u;
        }
        unsigned long long sum = 0;
#pragma unroll
        for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; ++k) sum += c[k];
        unsigned long long excl, total;
        scan_t(temp).ExclusiveSum(sum, excl, total);
        excl += run;
        uint32_t *o = c; /* the counts become their offsets in place */
#pragma unroll
        for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; ++k) {
            const uint32_t count = c[k];
            o[k] = (uint32_t)excl;
            excl += count;
        }
        if (whole) {
#pragma unroll
            for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; k += 4) {
                const uint4 v = make_uint4(o[k], o[k + 1], o[k + 2], o[k + 3]);
                *(uint4 *)(tile_offsets + first + k) = v;
                *(uint4 *)(cursors + first + k) = v;
            }
        } else {
#pragma unroll
            for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; ++k)
                if (first + k < num_tiles) tile_offsets[first + k] = cursors[first + k] = o[k];
        }
        run += total;
        __syncthreads(); /* temp is reused by the next round */
    }
    if (tid == 0) {
        const uint32_t overflow = run > capacity ? 1u : 0u;
        tile_offsets[num_tiles] = (uint32_t)run;
        g->references = run;
        g->overflow = overflow;
        g->split_count = overflow ? 0u : (uint32_t)run;
        if (g->visible == 0) {
            g->depth_min = g->depth_max = near_plane;
        } else {
            g->depth_min = __uint_as_float(~g->depth_min_inv);
            g->depth_max = __uint_as_float(g->depth_max_bits);
        }
    }
}

sc_status sc_cuda_scan(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    sc_tile_scan_kernel<<<1, SC_CUDA_TILE_SCAN_THREADS, 0, s>>>(p->num_tiles, (unsigned long long)st->ref_capacity,
                                                                p->near_plane, st->tile_cursors, st->tile_offsets,
                                                                st->globals);
    SC_CUDA_CHECK_LAUNCH("sc_tile_scan_kernel");
    return SC_OK;
}
