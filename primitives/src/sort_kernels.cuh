/* sort_kernels.cuh - SplitSort's own kernels (internal, CUDA device code; host side in sort.cu): the
 * 96-bit keys split into three word arrays before the passes and joined again after them. */
#ifndef SPLIT_SORT_KERNELS_CUH
#define SPLIT_SORT_KERNELS_CUH

#include <stdint.h>

__global__ void sort_deinterleave_kernel(const uint32_t *keys, uint32_t n, uint32_t *w0, uint32_t *w1, uint32_t *w2)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    w0[i] = keys[3 * i];
    w1[i] = keys[3 * i + 1];
    w2[i] = keys[3 * i + 2];
}

__global__ void sort_interleave_kernel(const uint32_t *w0, const uint32_t *w1, const uint32_t *w2, uint32_t n, uint32_t *keys)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    keys[3 * i] = w0[i];
    keys[3 * i + 1] = w1[i];
    keys[3 * i + 2] = w2[i];
}

#endif /* SPLIT_SORT_KERNELS_CUH */
