/* split_bucket.cuh - device bucket rules of the split library (internal, CUDA).
 * split_rule_params (split_rules.h) is passed by value to kernels; split_bucket<KeyT, RULE>() maps a
 * record to its bucket exactly as split_bucket_of_ref() does on the host. The multisplit kernels keep
 * a boundaries table in shared memory with an index of slots (split_load_boundaries,
 * split_bounds_lookup); the others search it in global memory. */
#ifndef SPLIT_BUCKET_CUH
#define SPLIT_BUCKET_CUH

#include <stdint.h>

#include <type_traits>

#include "sc_report.h"
#include "split.h"
#include "split_rules.h"
#include "split_tuning.h"

/* An unknown rule at split_with_rule: SC_ERROR_INVALID_ARGUMENT with a message, as the result type R
 * (a status, or a null kernel pointer for callers that pick a kernel). */
template <typename R>
inline R split_rule_unknown(int rule)
{
    const sc_status st = SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "split: bucket rule %d is not a split_bucket_rule", rule);
    if constexpr (std::is_same<R, sc_status>::value) return st;
    else return R();
}

/* f(std::integral_constant<int, RULE>()) for a runtime rule (host): the one switch from a descriptor's
 * rule to the kernels compiled per rule. */
template <typename F>
inline auto split_with_rule(int rule, F &&f) -> decltype(f(std::integral_constant<int, SPLIT_BUCKETS_BITS>()))
{
    static_assert(SPLIT_RULE_COUNT == 4, "split_with_rule dispatches four rules: add the new rule's case");
    switch ((split_bucket_rule)rule) {
    case SPLIT_BUCKETS_BITS: return f(std::integral_constant<int, SPLIT_BUCKETS_BITS>());
    case SPLIT_BUCKETS_IDS: return f(std::integral_constant<int, SPLIT_BUCKETS_IDS>());
    case SPLIT_BUCKETS_RANGE: return f(std::integral_constant<int, SPLIT_BUCKETS_RANGE>());
    case SPLIT_BUCKETS_BOUNDARIES: return f(std::integral_constant<int, SPLIT_BUCKETS_BOUNDARIES>());
    }
    return split_rule_unknown<decltype(f(std::integral_constant<int, SPLIT_BUCKETS_BITS>()))>(rule);
}

/* Shared-memory form of a BOUNDARIES table (the multisplit kernels; split_load_boundaries writes it):
 * a header (the smallest boundary, a shift), SPLIT_BOUNDS_SLOTS + 1 slot starts, then the table. Slot
 * s holds the keys [min + s * 2^shift, min + (s + 1) * 2^shift); its start is the bucket of its first
 * key, so a key's bucket lies between its slot's start and the next one's and is found by a search of
 * those few entries (uniform keys: about B / SPLIT_BOUNDS_SLOTS) instead of the whole table. */
enum {
    SPLIT_BOUNDS_HEADER_BYTES = 16, /* the smallest boundary (8 bytes), the shift (4), padding */
    SPLIT_BOUNDS_SLOT_BYTES = ((SPLIT_BOUNDS_SLOTS + 1) * 2 + 15) / 16 * 16
};

/* Bytes of shared memory the rule needs for B buckets with keys of KeyT. */
template <typename KeyT, int RULE>
__host__ __device__ inline uint32_t split_rule_smem_bytes(uint32_t num_buckets)
{
    return RULE == SPLIT_BUCKETS_BOUNDARIES
               ? (uint32_t)(SPLIT_BOUNDS_HEADER_BYTES + SPLIT_BOUNDS_SLOT_BYTES + (num_buckets - 1) * sizeof(KeyT))
               : 0u;
}

/* Entries of the sorted table t that are <= key (upper bound), searched in [lo, hi) (the answer known
 * to lie in [lo, hi]). */
template <typename KeyT>
__device__ inline uint32_t split_upper_bound_in(const KeyT *t, uint32_t lo, uint32_t hi, KeyT key)
{
    while (lo < hi) {
        const uint32_t mid = (lo + hi) >> 1;
        if (t[mid] <= key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Block-wide: the rule's shared-memory form into s_region (BOUNDARIES only); the caller synchronises
 * before use. Every thread of the block calls it (it synchronises once: the slot starts are searched in
 * the copied table; B <= SPLIT_BOUNDS_DIRECT_MAX_BUCKETS needs no slots). */
template <typename KeyT, int RULE>
__device__ inline void split_load_boundaries(const split_rule_params &p, KeyT *s_region)
{
    if (RULE != SPLIT_BUCKETS_BOUNDARIES) return;
    const KeyT *g = (const KeyT *)p.boundaries;
    const uint32_t count = p.num_buckets - 1;
    unsigned char *base = (unsigned char *)s_region;
    uint16_t *slots = (uint16_t *)(base + SPLIT_BOUNDS_HEADER_BYTES);
    KeyT *table = (KeyT *)(base + SPLIT_BOUNDS_HEADER_BYTES + SPLIT_BOUNDS_SLOT_BYTES);
    for (uint32_t j = threadIdx.x; j < count; j += blockDim.x) table[j] = g[j];
    /* count 0 (one bucket): every key in bucket 0. */
    const uint64_t lo_key = count ? (uint64_t)g[0] : 0, span = count ? (uint64_t)g[count - 1] - lo_key : 0;
    const int span_bits = span ? 64 - __clzll((long long)span) : 0;
    const int slot_bits = 31 - __clz((int)SPLIT_BOUNDS_SLOTS);
    const uint32_t shift = span_bits > slot_bits ? (uint32_t)(span_bits - slot_bits) : 0u;
    if (threadIdx.x == 0) {
        *(uint64_t *)base = lo_key;
        *(uint32_t *)(base + 8) = shift;
    }
    if (p.num_buckets <= SPLIT_BOUNDS_DIRECT_MAX_BUCKETS) return; /* uniform over the block */
    __syncthreads();
    for (uint32_t s = threadIdx.x; s <= SPLIT_BOUNDS_SLOTS; s += blockDim.x) {
        uint32_t start = count;
        const uint64_t off = (uint64_t)s << shift;
        if (s < SPLIT_BOUNDS_SLOTS && off <= span) start = split_upper_bound_in<KeyT>(table, 0, count, (KeyT)(lo_key + off));
        slots[s] = (uint16_t)start;
    }
}

/* BOUNDARIES bucket of a key from the shared-memory form: the upper bound within its slot (B up to
 * SPLIT_BOUNDS_DIRECT_MAX_BUCKETS: in the whole table). A table that is not sorted gives some bucket of
 * [0, B) (never one out of range). */
template <typename KeyT>
__device__ __forceinline__ uint32_t split_bounds_lookup(const KeyT *s_region, uint32_t num_buckets, KeyT key)
{
    const unsigned char *base = (const unsigned char *)s_region;
    const KeyT *table = (const KeyT *)(base + SPLIT_BOUNDS_HEADER_BYTES + SPLIT_BOUNDS_SLOT_BYTES);
    if (num_buckets <= SPLIT_BOUNDS_DIRECT_MAX_BUCKETS) return split_upper_bound_in<KeyT>(table, 0, num_buckets - 1, key);
    const uint64_t lo_key = *(const uint64_t *)base;
    if ((uint64_t)key < lo_key) return 0;
    const uint32_t shift = *(const uint32_t *)(base + 8);
    const uint16_t *slots = (const uint16_t *)(base + SPLIT_BOUNDS_HEADER_BYTES);
    uint64_t s = ((uint64_t)key - lo_key) >> shift;
    if (s >= SPLIT_BOUNDS_SLOTS) s = SPLIT_BOUNDS_SLOTS - 1;
    return split_upper_bound_in<KeyT>(table, slots[s], slots[s + 1], key);
}

/* Bucket of record i with key `key` (key unused by IDS). */
template <typename KeyT, int RULE>
__device__ inline uint32_t split_bucket(const split_rule_params &p, KeyT key, uint64_t i, const KeyT *s_bounds)
{
    static_assert(SPLIT_RULE_COUNT == 4 && RULE >= 0 && RULE < SPLIT_RULE_COUNT,
                  "split_bucket computes four rules: add the new rule's case");
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
         * division). */
        uint64_t q;
        if ((x >> 32) == 0 && p.range_magic) q = __umul64hi(x, p.range_magic);
        else if (p.range_delta == 1) q = x;
        else q = x / p.range_delta;
        return q < (uint64_t)(p.num_buckets - 1) ? (uint32_t)q : p.num_buckets - 1;
    }
    return split_upper_bound_in<KeyT>(s_bounds, 0, p.num_buckets - 1, key);
}

/* split_bucket, with the BITS rule of 32-bit keys in 32-bit arithmetic (sb = start_bit & 31, mask =
 * the field mask; an empty field has start_bit 0 and mask 0, see split_field_start). */
template <typename KeyT, int RULE>
__device__ __forceinline__ uint32_t split_bucket_fast(const split_rule_params &r, uint32_t sb, uint32_t mask, KeyT key,
                                                      uint64_t i, const KeyT *s_bounds)
{
    if (RULE == SPLIT_BUCKETS_BITS && sizeof(KeyT) == 4) return ((uint32_t)key >> sb) & mask;
    if (RULE == SPLIT_BUCKETS_BOUNDARIES) return split_bounds_lookup<KeyT>(s_bounds, r.num_buckets, key);
    return split_bucket<KeyT, RULE>(r, key, i, s_bounds);
}

#endif /* SPLIT_BUCKET_CUH */
