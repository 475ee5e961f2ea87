/* split_bucket.cuh - device bucket rules of the split library (internal, CUDA).
 * split_rule_params is a plain struct passed by value to kernels; split_bucket<KeyT, RULE>() maps a
 * record to its bucket exactly as split_bucket_of_ref() does on the host. The boundaries table is
 * searched in shared memory (split_load_boundaries copies it there; at most 2047 keys). */
#ifndef SPLIT_BUCKET_CUH
#define SPLIT_BUCKET_CUH

#include <stdint.h>

#include <type_traits>

#include "split.h"

typedef struct split_rule_params {
    uint32_t num_buckets;       /* B, resolved */
    uint32_t start_bit;         /* BITS */
    uint64_t bit_mask;          /* BITS: 2^bit_count - 1 */
    const uint32_t *bucket_ids; /* IDS: n entries (an id >= B is taken as B - 1 on the device) */
    uint64_t range_base;        /* RANGE */
    uint64_t range_delta;       /* RANGE, > 0 */
    uint64_t range_magic;       /* RANGE: ceil(2^64 / delta) for 2 <= delta <= 2^32, else 0 (split_range_magic) */
    const void *boundaries;     /* BOUNDARIES: B - 1 sorted keys of the key type (device) */
} split_rule_params;

/* split_rule_params.range_magic of a RANGE delta (host and device). */
static inline uint64_t split_range_magic(uint64_t delta)
{
    return delta >= 2 && delta <= ((uint64_t)1 << 32) ? UINT64_MAX / delta + 1 : 0;
}

/* f(std::integral_constant<int, RULE>()) for a runtime rule (host): the one switch from a descriptor's
 * rule to the kernels compiled per rule. */
template <typename F>
inline auto split_with_rule(int rule, F &&f) -> decltype(f(std::integral_constant<int, SPLIT_BUCKETS_BITS>()))
{
    switch (rule) {
    case SPLIT_BUCKETS_BITS: return f(std::integral_constant<int, SPLIT_BUCKETS_BITS>());
    case SPLIT_BUCKETS_IDS: return f(std::integral_constant<int, SPLIT_BUCKETS_IDS>());
    case SPLIT_BUCKETS_RANGE: return f(std::integral_constant<int, SPLIT_BUCKETS_RANGE>());
    default: return f(std::integral_constant<int, SPLIT_BUCKETS_BOUNDARIES>());
    }
}

/* Bytes of shared memory the rule needs for B buckets with keys of KeyT. */
template <typename KeyT, int RULE>
__host__ __device__ inline uint32_t split_rule_smem_bytes(uint32_t num_buckets)
{
    return RULE == SPLIT_BUCKETS_BOUNDARIES ? (uint32_t)((num_buckets - 1) * sizeof(KeyT)) : 0u;
}

/* Block-wide copy of the boundaries into s_bounds; the caller synchronises before use. */
template <typename KeyT, int RULE>
__device__ inline void split_load_boundaries(const split_rule_params &p, KeyT *s_bounds)
{
    if (RULE != SPLIT_BUCKETS_BOUNDARIES) return;
    const KeyT *g = (const KeyT *)p.boundaries;
    for (uint32_t j = threadIdx.x; j + 1 < p.num_buckets; j += blockDim.x) s_bounds[j] = g[j];
}

/* Number of entries of the sorted table t[0 .. count) that are <= key (upper bound). */
template <typename KeyT>
__device__ inline uint32_t split_upper_bound(const KeyT *t, uint32_t count, KeyT key)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (t[mid] <= key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Bucket of record i with key `key` (key unused by IDS). */
template <typename KeyT, int RULE>
__device__ inline uint32_t split_bucket(const split_rule_params &p, KeyT key, uint64_t i, const KeyT *s_bounds)
{
    if (RULE == SPLIT_BUCKETS_BITS) return (uint32_t)(((uint64_t)key >> p.start_bit) & p.bit_mask);
    if (RULE == SPLIT_BUCKETS_IDS) {
        uint32_t id = __ldg(p.bucket_ids + i);
        return id < p.num_buckets ? id : p.num_buckets - 1;
    }
    if (RULE == SPLIT_BUCKETS_RANGE) {
        uint64_t k = (uint64_t)key;
        if (k < p.range_base) return 0;
        const uint64_t x = k - p.range_base;
        /* x < 2^32 and 2 <= delta <= 2^32: x * ceil(2^64 / delta) / 2^64 is off x / delta by less than
         * x / 2^64 < 1 / delta, so its floor is the quotient (a multiply instead of a 64-bit
         * division: H100, 2^26 keys, see PERFORMANCE.md). */
        uint64_t q;
        if ((x >> 32) == 0 && p.range_magic) q = __umul64hi(x, p.range_magic);
        else if (p.range_delta == 1) q = x;
        else q = x / p.range_delta;
        return q < (uint64_t)(p.num_buckets - 1) ? (uint32_t)q : p.num_buckets - 1;
    }
    return split_upper_bound<KeyT>(s_bounds, p.num_buckets - 1, key);
}

#endif /* SPLIT_BUCKET_CUH */
