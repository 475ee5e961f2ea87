/* warp_scan.cuh - warp-level scans of the split library (internal, CUDA): every lane of the warp
 * calls them; shuffles up by 1, 2, 4, 8, 16 (the Kogge-Stone pattern, five SHFL and five predicated
 * adds). */
#ifndef SPLIT_WARP_SCAN_CUH
#define SPLIT_WARP_SCAN_CUH

#include <stdint.h>

#define SPLIT_FULL_MASK 0xFFFFFFFFu

/* The lanes below this one. */
__device__ inline uint32_t split_lanemask_lt(void)
{
    uint32_t m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

/* Inclusive sum of v over the lanes up to this one (every lane of the warp calls it). */
__device__ __forceinline__ uint32_t split_warp_inclusive_sum(uint32_t v, uint32_t lane)
{
#pragma unroll
    for (uint32_t off = 1; off < 32; off <<= 1) {
        const uint32_t y = __shfl_up_sync(SPLIT_FULL_MASK, v, off);
        if (lane >= off) v += y;
    }
    return v;
}

/* Exclusive sum of v over the lanes before this one (every lane of the warp calls it). */
__device__ __forceinline__ uint32_t split_warp_exclusive_sum(uint32_t v, uint32_t lane)
{
    return split_warp_inclusive_sum(v, lane) - v;
}

#endif /* SPLIT_WARP_SCAN_CUH */
