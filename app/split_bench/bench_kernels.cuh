/* bench_kernels.cuh - device helpers shared by split_bench's generators and checks. */
#ifndef BENCH_KERNELS_CUH
#define BENCH_KERNELS_CUH

#include <stdint.h>

#include "bench.h"

/* splitmix64's finaliser: a bijective 64-bit mix. */
__host__ __device__ __forceinline__ uint64_t bench_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Word w of record r of a record array filled with `seed`. */
__host__ __device__ __forceinline__ uint32_t bench_record_word(uint64_t seed, uint64_t r, uint32_t w)
{
    return (uint32_t)bench_mix64((seed << 40) ^ (r << 8) ^ w);
}

/* The bucket of a uint32 key under a rule, written from split.h's definitions (independently of the
 * library's own bucket code). */
__device__ __forceinline__ uint32_t bench_bucket(const bench_rule &r, uint32_t key)
{
    if (r.rule == SPLIT_BUCKETS_BITS) return (key >> r.start_bit) & r.mask;
    if (r.rule == SPLIT_BUCKETS_RANGE) {
        if (key < r.base) return 0;
        uint32_t q = (key - r.base) / r.delta;
        return q < r.num_buckets - 1 ? q : r.num_buckets - 1;
    }
    uint32_t first = 0, count = r.num_buckets - 1; /* boundaries <= key */
    while (count > 0) {
        uint32_t half = count / 2;
        if (r.boundaries[first + half] <= key) {
            first += half + 1;
            count -= half + 1;
        } else {
            count = half;
        }
    }
    return first;
}

#endif /* BENCH_KERNELS_CUH */
