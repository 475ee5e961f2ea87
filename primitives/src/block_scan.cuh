/* block_scan.cuh - block-level scans of the split library (internal, CUDA): every thread of the
 * block calls them. Each scans the warps with split_warp_inclusive_sum and the warp totals through a
 * few words of shared memory the caller provides (its own layout, so kernels keep their shared-memory
 * plans). */
#ifndef SPLIT_BLOCK_SCAN_CUH
#define SPLIT_BLOCK_SCAN_CUH

#include "split_tuning.h"
#include "warp_scan.cuh"

/* Exclusive sum of v over the block's threads; scratch holds a word per warp. Synchronises once; the
 * caller synchronises before scratch is written again. */
__device__ __forceinline__ uint32_t split_block_exclusive_sum(uint32_t v, uint32_t *scratch, uint32_t lane, uint32_t warp)
{
    const uint32_t incl = split_warp_inclusive_sum(v, lane);
    if (lane == 31) scratch[warp] = incl;
    __syncthreads();
    uint32_t before = 0;
    for (uint32_t w = 0; w < warp; ++w) before += scratch[w];
    return before + incl - v;
}

/* Exclusive sum of v over the block's threads (WARPS warps), the warp totals scanned by warp 0:
 * scratch holds SPLIT_WARP_LANES words, of which the last WARPS receive the warps' exclusive starts.
 * Synchronises twice; the caller synchronises before scratch is written again. */
template <uint32_t WARPS>
__device__ __forceinline__ uint32_t split_block_exclusive_sum_warp0(uint32_t v, uint32_t *scratch, uint32_t lane,
                                                                    uint32_t warp)
{
    const uint32_t incl = split_warp_inclusive_sum(v, lane);
    if (lane == 31) scratch[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        const uint32_t x = lane < WARPS ? scratch[lane] : 0, w = split_warp_inclusive_sum(x, lane);
        if (lane < WARPS) scratch[SPLIT_WARP_LANES - WARPS + lane] = w - x;
    }
    __syncthreads();
    return scratch[SPLIT_WARP_LANES - WARPS + warp] + incl - v;
}

/* One bucket's per-warp counts (c[w * stride], W warps) become the warps' starts from `start`; returns
 * the start after them. */
template <int W>
__device__ __forceinline__ uint32_t split_warp_starts(uint32_t *c, uint32_t stride, uint32_t start)
{
#pragma unroll
    for (uint32_t w = 0; w < (uint32_t)W; ++w) {
        const uint32_t x = c[w * stride];
        c[w * stride] = start;
        start += x;
    }
    return start;
}

#endif /* SPLIT_BLOCK_SCAN_CUH */
