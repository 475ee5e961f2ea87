/* gather_scatter_kernel.cuh - the move kernel of split_gather / split_scatter (internal, CUDA device
 * code; host side in gather_scatter.cu): thread g moves word g of the contiguous side, the indexed side
 * as whole runs of words; a record's word by a division by an invariant divisor. Included by
 * gather_scatter.cu alone (anonymous namespace). */
#ifndef SPLIT_GATHER_SCATTER_KERNEL_CUH
#define SPLIT_GATHER_SCATTER_KERNEL_CUH

#include <stdint.h>

#include "split_tuning.h"

namespace {

/* Division by an invariant 32-bit divisor d >= 1 (Granlund-Montgomery): q = (hi(x*m) + x) >> s. */
struct fast_div {
    uint32_t m, s;
};

fast_div make_fast_div(uint32_t d)
{
    uint32_t s = 0;
    while (((uint64_t)1 << s) < d) ++s;
    fast_div f;
    f.m = (uint32_t)((((uint64_t)1 << 32) * (((uint64_t)1 << s) - d)) / d + 1);
    f.s = s;
    return f;
}

__device__ __forceinline__ uint32_t div_by(fast_div f, uint32_t x)
{
    return (uint32_t)(((uint64_t)__umulhi(x, f.m) + x) >> f.s);
}

template <typename W, bool GATHER, bool WIDE>
__global__ void __launch_bounds__(MOVE_THREADS) move_kernel(const W *__restrict__ src, W *__restrict__ dst,
                                                            const uint32_t *__restrict__ index, uint64_t total,
                                                            uint32_t wpr, fast_div fd, uint64_t win_lo, uint64_t win_hi)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += stride) {
        uint32_t rec, w;
        if (WIDE) {
            rec = (uint32_t)(g / wpr);
            w = (uint32_t)(g - (uint64_t)rec * wpr);
        } else {
            rec = div_by(fd, (uint32_t)g);
            w = (uint32_t)g - rec * wpr;
        }
        const uint32_t j = __ldg(index + rec);
        if (j < win_lo || j >= win_hi) continue;
        const uint64_t other = (uint64_t)j * wpr + w;
        if (GATHER) dst[g] = __ldg(src + other);
        else dst[other] = __ldg(src + g);
    }
}

} // namespace

#endif /* SPLIT_GATHER_SCATTER_KERNEL_CUH */
