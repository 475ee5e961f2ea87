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

/* The per-tile reference counts of project: 64-bit words after emit's cursors in st->tile_cursors
 * (sc_cuda_tile_counts), low half = references of single-tile triangles (project gives each its
 * rank there, so emit places it without an atomic), high half = the other references (emit takes
 * their slots from the cursors, which the scan starts past the single-tile ranks). */
static unsigned long long *tile_counts64(const sc_cuda_state *st, uint32_t num_tiles)
{
    return (unsigned long long *)(st->tile_cursors + sc_cuda_cursor_words(num_tiles));
}

/* counts[tile] += 1 (low half when single, else high half) for every calling lane, one atomic per
 * distinct (tile, kind) among the lanes here; returns the lane's rank among the tile's single-tile
 * references (0 when not single). */
__device__ __forceinline__ uint32_t count_tile(unsigned long long *counts, uint32_t tile, bool single)
{
    cg::coalesced_group peers = cg::labeled_partition(cg::coalesced_threads(), tile << 1 | (uint32_t)single);
    if (!single) {
        if (peers.thread_rank() == 0) atomicAdd(&counts[tile], (unsigned long long)peers.size() << 32);
        return 0;
    }
    uint32_t base = 0;
    if (peers.thread_rank() == 0) base = (uint32_t)atomicAdd(&counts[tile], (unsigned long long)peers.size());
    return peers.shfl(base, 0) + peers.thread_rank();
}

/* Visible keys are positive finite floats, whose bit patterns order like the floats: the minimum
 * is kept as the maximum of the complemented bits (the globals start zeroed). */
__global__ void __launch_bounds__(SC_CUDA_PROJECT_THREADS)
sc_project_kernel(sc_frame_params p, const float *pos, const uint32_t *idx, float *tri_keys, uint4 *tri_bins,
                  unsigned long long *tile_counts, sc_cuda_globals *g)
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
            const bool single = w == 1 && h == 1;
            uint32_t count = 0, mask = 0, bit = 0, rank = 0;
            for (uint32_t ty = s.ty0; ty <= s.ty1; ++ty)
                for (uint32_t tx = s.tx0; tx <= s.tx1; ++tx, ++bit)
                    if (sc_tri_overlaps_tile(&p, &s, tx, ty)) {
                        rank = count_tile(tile_counts, ty * p.tiles_x + tx, single);
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
                                         small ? (w - 1) | (h - 1) << 16 : SC_CUDA_BINS_RECLASSIFY, mask, rank);
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
    /* The counts are zero here: set at resize, cleared by every scan after reading them. */
    uint32_t n = p->num_triangles;
    if (n == 0) return SC_OK;
    sc_project_kernel<<<(n + SC_CUDA_PROJECT_THREADS - 1) / SC_CUDA_PROJECT_THREADS, SC_CUDA_PROJECT_THREADS, 0, s>>>(
        *p, st->positions, st->indices, st->tri_keys, (uint4 *)st->tri_bins, tile_counts64(st, p->num_tiles),
        st->globals);
    SC_CUDA_CHECK_LAUNCH("sc_project_kernel");
    return SC_OK;
}

/* The depth range and the visible count are reduced by the project kernel. */
sc_status sc_cuda_reduce(const sc_cuda_state *st, cudaStream_t s)
{
    (void)st, (void)s;
    return SC_OK;
}

/* One block: exclusive scan of the tile counts (64-bit running total) into the tile offsets, and
 * emit's cursors (offset + the tile's single-tile references, which emit places by their ranks);
 * the counts are cleared for the next frame; entry num_tiles = the references; then the frame
 * totals: overflow against the capacity, the count the slab split reads (0 after an overflow), and
 * the slab range (the near plane for a frame with no visible triangle, as the CPU backend).
 * Rounds of THREADS * ITEMS tiles: coalesced global reads and writes (tile base + r * THREADS +
 * thread), a per-thread run of ITEMS consecutive tiles through shared memory, one block scan. */
__global__ void __launch_bounds__(SC_CUDA_TILE_SCAN_THREADS)
sc_tile_scan_kernel(uint32_t num_tiles, unsigned long long capacity, float near_plane, unsigned long long *counts,
                    uint32_t *cursors, uint32_t *tile_offsets, sc_cuda_globals *g)
{
    static_assert(SC_CUDA_TILE_SCAN_ITEMS % 4 == 0, "uint4 words");
    typedef cub::BlockScan<unsigned long long, SC_CUDA_TILE_SCAN_THREADS> scan_t;
    enum { ROUND = SC_CUDA_TILE_SCAN_THREADS * SC_CUDA_TILE_SCAN_ITEMS };
    __shared__ typename scan_t::TempStorage temp;
    __shared__ __align__(16) uint32_t stage[ROUND];
    const uint32_t tid = threadIdx.x;
    unsigned long long run = 0;
    for (uint32_t base = 0; base < num_tiles; base += ROUND) {
        /* Coalesced: counts -> (single-tile references kept for the cursors, totals staged). */
        uint32_t lo[SC_CUDA_TILE_SCAN_ITEMS];
#pragma unroll
        for (int r = 0; r < SC_CUDA_TILE_SCAN_ITEMS; ++r) {
            const uint32_t i = base + r * SC_CUDA_TILE_SCAN_THREADS + tid;
            unsigned long long v = 0;
            if (i < num_tiles) {
                v = counts[i];
                counts[i] = 0ull;
            }
            lo[r] = (uint32_t)v;
            stage[r * SC_CUDA_TILE_SCAN_THREADS + tid] = (uint32_t)v + (uint32_t)(v >> 32);
        }
        __syncthreads();
        /* This thread's ITEMS consecutive tiles: scan, offsets back in place. */
        uint32_t c[SC_CUDA_TILE_SCAN_ITEMS];
#pragma unroll
        for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; k += 4) {
            const uint4 v = *(const uint4 *)&stage[tid * SC_CUDA_TILE_SCAN_ITEMS + k];
            c[k] = v.x, c[k + 1] = v.y, c[k + 2] = v.z, c[k + 3] = v.w;
        }
        unsigned long long sum = 0;
#pragma unroll
        for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; ++k) sum += c[k];
        unsigned long long excl, total;
        scan_t(temp).ExclusiveSum(sum, excl, total);
        excl += run;
#pragma unroll
        for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; ++k) {
            const uint32_t count = c[k];
            c[k] = (uint32_t)excl;
            excl += count;
        }
#pragma unroll
        for (int k = 0; k < SC_CUDA_TILE_SCAN_ITEMS; k += 4)
            *(uint4 *)&stage[tid * SC_CUDA_TILE_SCAN_ITEMS + k] = make_uint4(c[k], c[k + 1], c[k + 2], c[k + 3]);
        __syncthreads();
        /* Coalesced: offsets and cursors out. */
#pragma unroll
        for (int r = 0; r < SC_CUDA_TILE_SCAN_ITEMS; ++r) {
            const uint32_t i = base + r * SC_CUDA_TILE_SCAN_THREADS + tid;
            if (i < num_tiles) {
                const uint32_t o = stage[r * SC_CUDA_TILE_SCAN_THREADS + tid];
                tile_offsets[i] = o;
                cursors[i] = o + lo[r];
            }
        }
        run += total;
        __syncthreads(); /* temp and stage are reused by the next round */
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
                                                                p->near_plane, tile_counts64(st, p->num_tiles),
                                                                st->tile_cursors, st->tile_offsets,
                                                                st->globals);
    SC_CUDA_CHECK_LAUNCH("sc_tile_scan_kernel");
    return SC_OK;
}
