/* sort_kernels.cuh - SplitSort's own kernels (internal, CUDA device code; host side in sort.cu): every
 * pass's digit totals counted before the passes and 96-bit keys split into three word arrays by the
 * same read, and the 96-bit keys' word arrays joined again after the passes. */
#ifndef SPLIT_SORT_KERNELS_CUH
#define SPLIT_SORT_KERNELS_CUH

#include <stdint.h>

#include "split_launch.cuh"
#include "split_tuning.h"

/* Digit of pass `pass` of a key held as W 32-bit words (word 0 least significant): a digit never
 * straddles two words (SPLIT_SORT_RADIX_BITS divides 32). */
template <int W>
__device__ __forceinline__ uint32_t sort_digit(const uint32_t (&w)[W], uint32_t pass, uint32_t mask)
{
    static_assert(32 % SPLIT_SORT_RADIX_BITS == 0, "a digit within one word");
    const uint32_t bit = pass * (uint32_t)SPLIT_SORT_RADIX_BITS, word = bit / 32u;
    uint32_t v = w[0];
    if (W > 1 && word == 1u) v = w[W > 1 ? 1 : 0];
    if (W > 2 && word == 2u) v = w[W > 2 ? 2 : 0];
    return (v >> (bit % 32u)) & mask;
}

/* Every pass's digit totals in one read of the keys (W words each): totals[pass * 2^RADIX + digit] (zeroed
 * before; pass `passes` - 1 takes the digits under last_mask; passes 0: nothing counted). A block counts into shared memory (dynamic,
 * passes x 2^RADIX words), each thread adding a run of equal digits among its keys with one atomic, and
 * adds its nonzero counts to totals at the end. W = 3: also writes words 0, 1, 2 of key i to w0[i],
 * w1[i], w2[i] (the passes' word arrays). */
template <int W>
__global__ void __launch_bounds__(SPLIT_SORT_HIST_THREADS)
    sort_histogram_kernel(const uint32_t *keys, uint32_t n, uint32_t passes, uint32_t last_mask, uint32_t *totals,
                          uint32_t *w0, uint32_t *w1, uint32_t *w2)
{
    extern __shared__ uint32_t s_hist[];
    split_wait_prior_grids();
    constexpr uint32_t THREADS = SPLIT_SORT_HIST_THREADS, ITEMS = SPLIT_SORT_HIST_ITEMS, TILE = THREADS * ITEMS;
    constexpr uint32_t FULL_MASK = (1u << SPLIT_SORT_RADIX_BITS) - 1u;
    const uint32_t tid = threadIdx.x, bins = passes << SPLIT_SORT_RADIX_BITS;
    for (uint32_t i = tid; i < bins; i += THREADS) s_hist[i] = 0u;
    __syncthreads();
    for (uint64_t base = (uint64_t)blockIdx.x * TILE; base < n; base += (uint64_t)gridDim.x * TILE) {
        uint32_t key[ITEMS][W];
        bool valid[ITEMS];
#pragma unroll
        for (uint32_t j = 0; j < ITEMS; ++j) {
            const uint64_t i = base + (uint64_t)j * THREADS + tid;
            valid[j] = i < n;
            if (!valid[j]) {
#pragma unroll
                for (int k = 0; k < W; ++k) key[j][k] = 0u;
            } else if (W == 2) {
                const uint2 v = ((const uint2 *)keys)[i];
                key[j][0] = v.x;
                key[j][W > 1 ? 1 : 0] = v.y;
            } else {
#pragma unroll
                for (int k = 0; k < W; ++k) key[j][k] = keys[(uint64_t)W * i + k];
            }
        }
        if (W == 3) {
#pragma unroll
            for (uint32_t j = 0; j < ITEMS; ++j) {
                const uint64_t i = base + (uint64_t)j * THREADS + tid;
                if (valid[j]) {
                    w0[i] = key[j][0];
                    w1[i] = key[j][W > 1 ? 1 : 0];
                    w2[i] = key[j][W > 2 ? 2 : 0];
                }
            }
        }
        for (uint32_t pass = 0; pass < passes; ++pass) {
            const uint32_t mask = pass + 1u == passes ? last_mask : FULL_MASK;
            uint32_t *const h = s_hist + (pass << SPLIT_SORT_RADIX_BITS);
            uint32_t run = 0u, count = 0u;
#pragma unroll
            for (uint32_t j = 0; j < ITEMS; ++j) {
                if (!valid[j]) continue;
                const uint32_t d = sort_digit<W>(key[j], pass, mask);
                if (count && d == run) {
                    ++count;
                } else {
                    if (count) atomicAdd(h + run, count);
                    run = d;
                    count = 1u;
                }
            }
            if (count) atomicAdd(h + run, count);
        }
    }
    __syncthreads();
    for (uint32_t i = tid; i < bins; i += THREADS)
        if (s_hist[i]) atomicAdd(totals + i, s_hist[i]);
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
