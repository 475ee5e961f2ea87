/* project_cuda.cu - projection and classification of every triangle (classify.h, one thread per
 * triangle) fused with the reductions that only need the classification:
 *  - the frame's depth range and visible count (warp reductions, then one atomic per block on its stripe
 *    of the counters, backend_cuda.h),
 *  - the number of references of every tile (the count pass of the tile multisplit, handed to the
 *    split library as its bucket counts: for each tile a triangle overlaps, one increment of that
 *    tile's counter, aggregated over the warp's lanes that count the same tile at the same time,
 *    cooperative groups' labeled partition), and the frame's reference total;
 * then finalize (one warp) sums the stripes and sets the frame totals: the slab range, overflow
 * against the capacity, the count the splits read and where each stripe's references go. All on the device. */
#include <cooperative_groups.h>
#include <math.h>

#include "backend_cuda.h"
#include "classify.h"
#include "render_tuning.h"
#include "sc_cuda_arch.h"
#include "sc_report.h"

namespace cg = cooperative_groups;

enum {
    PROJECT_WARPS = SC_CUDA_PROJECT_THREADS / 32,
    PROJECT_BIG_SPAN = SC_CUDA_BIG_SPAN_TILES, /* a triangle spanning more tiles is binned by its block together */
    PROJECT_BIG = 16                           /* ... at most this many per block (the rest by their own thread) */
};
static_assert(SC_CUDA_PROJECT_THREADS % 32 == 0, "whole warps");

/* counts[tile] += 1 for every calling lane, one atomic per distinct tile among the lanes here. */
__device__ __forceinline__ void count_tile(uint32_t *counts, uint32_t tile)
{
    cg::coalesced_group peers = cg::labeled_partition(cg::coalesced_threads(), tile);
    if (peers.thread_rank() == 0) atomicAdd(&counts[tile], peers.size());
}

/* The frame totals from project's reductions, by one warp (lane k reads stripe k): the stripes'
 * sums, each stripe's emit range (it starts where the ranges of the stripes before it end), overflow
 * against the capacity, the count the splits read (0 after an overflow: the fallback bins the frame
 * instead; the frame graph's IF node runs it), and the slab range (the near plane for a frame with no
 * visible triangle, as the CPU backend). */
static_assert(SC_CUDA_STRIPES == 32, "finalize: a lane per stripe");
__device__ static void finalize_frame(unsigned long long capacity, float near_plane, int has_cond,
                                      cudaGraphConditionalHandle cond, sc_cuda_globals *g)
{
    const uint32_t lane = threadIdx.x;
    sc_cuda_stripe *st = &g->stripes[lane];
    const unsigned long long mine = st->references;
    unsigned long long refs = mine, visible = st->visible;
    uint32_t min_inv = st->depth_min_inv, max_bits = st->depth_max_bits;
    for (int o = 1; o < 32; o <<= 1) { /* inclusive scan of the references, the other reductions */
        const unsigned long long r = __shfl_up_sync(0xFFFFFFFFu, refs, o);
        if (lane >= (uint32_t)o) refs += r;
        visible += __shfl_xor_sync(0xFFFFFFFFu, visible, o);
        min_inv = max(min_inv, __shfl_xor_sync(0xFFFFFFFFu, min_inv, o));
        max_bits = max(max_bits, __shfl_xor_sync(0xFFFFFFFFu, max_bits, o));
    }
    st->emit_cursor = refs - mine;
    if (lane != 31) return;
    g->references = refs;
    g->visible = visible;
    const uint32_t overflow = refs > capacity ? 1u : 0u;
    g->overflow = overflow;
    g->split_count = overflow ? 0u : (uint32_t)refs;
    if (has_cond) cudaGraphSetConditional(cond, overflow); /* the frame graph's IF node: the overflow fallback */
    if (visible == 0) {
        g->depth_min = g->depth_max = near_plane;
    } else {
        g->depth_min = __uint_as_float(~min_inv);
        g->depth_max = __uint_as_float(max_bits);
    }
}

/* Visible keys are positive finite floats, whose bit patterns order like the floats: the minimum
 * is kept as the maximum of the complemented bits (the globals start zeroed). */
__global__ void __launch_bounds__(SC_CUDA_PROJECT_THREADS, SC_MIN_BLOCKS(SC_CUDA_PROJECT_THREADS, SC_CUDA_PROJECT_MIN_BLOCKS))
sc_project_kernel(const sc_cuda_frame_consts *__restrict__ fc, const float *pos, const uint32_t *idx, float *tri_keys, uint4 *tri_bins,
                  uint32_t *tile_counts, sc_cuda_globals *g)
{
    __shared__ uint32_t red[3][PROJECT_WARPS];
    const sc_frame_params p = fc->p;
    __shared__ unsigned long long red_refs[PROJECT_WARPS];
    __shared__ uint32_t s_big[PROJECT_BIG], s_nbig, s_big_count;
    if (threadIdx.x == 0) s_nbig = 0;
    __syncthreads();
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t min_inv = 0, max_bits = 0, visible = 0;
    unsigned long long refs = 0;
    if (t < p.num_triangles) {
        const uint32_t *f = idx + 3 * (size_t)t;
        sc_tri_setup s;
        float key = INFINITY;
        bool big = false;
        if (sc_tri_classify(&p, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], &s)) {
            /* The record of the tiles for emit: a mask over the span when it has at most 32 tiles. */
            const uint32_t w = s.tx1 - s.tx0 + 1, h = s.ty1 - s.ty0 + 1;
            if ((uint64_t)w * h > PROJECT_BIG_SPAN) {
                const uint32_t e = atomicAdd(&s_nbig, 1u);
                if (e < PROJECT_BIG) {
                    s_big[e] = t;
                    big = true;
                }
            }
            if (!big) { /* else binned below by the whole block */
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
                    refs = count;
                    tri_bins[t] = make_uint4(s.ty0 * p.tiles_x + s.tx0,
                                             small ? (w - 1) | (h - 1) << 16 : SC_CUDA_BINS_RECLASSIFY, mask, count);
                }
            }
        }
        if (!big) tri_keys[t] = key;
    }
    /* The block's big triangles: its threads take the tiles of each in turn (each tile once, so no
     * aggregation), their count summed in shared memory; thread 0 writes the record and adds the
     * triangle to its own reductions. The classification is the thread's own, made again. */
    __syncthreads();
    const uint32_t nbig = min(s_nbig, (uint32_t)PROJECT_BIG);
    for (uint32_t e = 0; e < nbig; ++e) {
        const uint32_t tb = s_big[e];
        const uint32_t *f = idx + 3 * (size_t)tb;
        sc_tri_setup s;
        sc_tri_classify(&p, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], &s);
        if (threadIdx.x == 0) s_big_count = 0;
        __syncthreads();
        const uint32_t w = s.tx1 - s.tx0 + 1, area = w * (s.ty1 - s.ty0 + 1);
        uint32_t c = 0;
        for (uint32_t i = threadIdx.x; i < area; i += blockDim.x) {
            const uint32_t tx = s.tx0 + i % w, ty = s.ty0 + i / w;
            if (sc_tri_overlaps_tile(&p, &s, tx, ty)) {
                atomicAdd(&tile_counts[ty * p.tiles_x + tx], 1u);
                ++c;
            }
        }
        if (c) atomicAdd(&s_big_count, c);
        __syncthreads();
        if (threadIdx.x == 0) {
            const uint32_t count = s_big_count;
            float key = INFINITY;
            if (count > 0) {
                key = s.depth_key;
                const uint32_t b = __float_as_uint(key);
                min_inv = max(min_inv, ~b);
                max_bits = max(max_bits, b);
                visible += 1;
                refs += count;
                tri_bins[tb] = make_uint4(s.ty0 * p.tiles_x + s.tx0, SC_CUDA_BINS_RECLASSIFY, SC_CUDA_BINS_BIG, count);
            }
            tri_keys[tb] = key;
        }
        __syncthreads(); /* s_big_count is read before the next triangle zeroes it */
    }
#if __CUDA_ARCH__ >= 800
    /* One warp reduction instruction each. A thread's references are below 2^36 (at most 17 spans of
     * at most 2^31 tiles), so the sums of their low 16 bits and of the rest fit 32 bits. */
    min_inv = __reduce_max_sync(0xFFFFFFFFu, min_inv);
    max_bits = __reduce_max_sync(0xFFFFFFFFu, max_bits);
    visible = __reduce_add_sync(0xFFFFFFFFu, visible);
    refs = ((unsigned long long)__reduce_add_sync(0xFFFFFFFFu, (uint32_t)(refs >> 16)) << 16) +
           __reduce_add_sync(0xFFFFFFFFu, (uint32_t)refs & 0xFFFFu);
#else
    for (int o = 16; o > 0; o >>= 1) {
        min_inv = max(min_inv, __shfl_down_sync(0xFFFFFFFFu, min_inv, o));
        max_bits = max(max_bits, __shfl_down_sync(0xFFFFFFFFu, max_bits, o));
        visible += __shfl_down_sync(0xFFFFFFFFu, visible, o);
        refs += __shfl_down_sync(0xFFFFFFFFu, refs, o);
    }
#endif
    const uint32_t warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31u) == 0) {
        red[0][warp] = min_inv;
        red[1][warp] = max_bits;
        red[2][warp] = visible;
        red_refs[warp] = refs;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < PROJECT_WARPS; ++w) {
            min_inv = max(min_inv, red[0][w]);
            max_bits = max(max_bits, red[1][w]);
            visible += red[2][w];
            refs += red_refs[w];
        }
        if (visible > 0) {
            sc_cuda_stripe *st = &g->stripes[SC_CUDA_STRIPE_OF_TRIANGLE(blockIdx.x * blockDim.x)];
            atomicMax(&st->depth_min_inv, min_inv);
            atomicMax(&st->depth_max_bits, max_bits);
            atomicAdd(&st->visible, (unsigned long long)visible);
            atomicAdd(&st->references, refs);
        }
    }
}

sc_status sc_cuda_project(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    /* The counts are zero here: cleared at the start of the frame (backend_cuda.cu). */
    uint32_t n = p->num_triangles;
    if (n == 0) return SC_OK;
    sc_project_kernel<<<(n + SC_CUDA_PROJECT_THREADS - 1) / SC_CUDA_PROJECT_THREADS, SC_CUDA_PROJECT_THREADS, 0, s>>>(
        st->consts, st->positions, st->indices, st->tri_keys, (uint4 *)st->tri_bins, st->tile_counts, st->globals);
    SC_CUDA_CHECK_LAUNCH("sc_project_kernel");
    return SC_OK;
}

/* One warp: the frame totals (see finalize_frame). A launch of its own: finalizing in the last
 * block of project (a fence and a counter per block) is slower. */
__global__ void sc_finalize_kernel(unsigned long long capacity, const sc_cuda_frame_consts *fc, int has_cond,
                                   cudaGraphConditionalHandle cond, sc_cuda_globals *g)
{
    finalize_frame(capacity, fc->p.near_plane, has_cond, cond, g);
}

sc_status sc_cuda_finalize(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    (void)p;
    sc_finalize_kernel<<<1, 32, 0, s>>>((unsigned long long)st->ref_capacity, st->consts, st->has_overflow_cond,
                                       (cudaGraphConditionalHandle)st->overflow_cond, st->globals);
    SC_CUDA_CHECK_LAUNCH("sc_finalize_kernel");
    return SC_OK;
}
