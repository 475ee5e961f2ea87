/* segmented_params.cuh - the segmented split's kernel parameters and per-record helpers (internal,
 * CUDA; included by segmented_split.cu alone, hence the anonymous namespace). */
#ifndef SPLIT_SEGMENTED_PARAMS_CUH
#define SPLIT_SEGMENTED_PARAMS_CUH

#include <stdint.h>

#include "split.h"
#include "split_bucket.cuh"
#include "split_tuning.h"
#include "warp_scan.cuh"

static_assert(SEG_WARP_MAX_RECORDS == (1 << SEG_WARP_INDEX_BITS), "warp index bits");
static_assert(SEG_SUBTILE == (1 << SEG_SUBTILE_INDEX_BITS), "sub-tile index bits");
static_assert(SEG_SUBTILE_INDEX_BITS + SPLIT_MAX_BITS <= 32, "composite keys fit 32 bits");
static_assert(SEG_HUGE_TILE % SEG_SUBTILE == 0 && SEG_BLOCK_MAX_RECORDS >= SEG_HUGE_TILE, "tile sizes");
static_assert(SPLIT_MAX_BUCKETS % SEG_BLOCK_THREADS == 0, "bucket scan layout");
static_assert(SEG_BALLOT_MAX_BUCKETS == 32 && SEG_BALLOT_MAX_RECORDS <= (1u << 30), "ballot path limits");


namespace {

enum { BUCKETS_PER_THREAD = SPLIT_MAX_BUCKETS / SEG_BLOCK_THREADS };

struct seg_params {
    const void *keys_in;
    void *keys_out;
    const uint32_t *vals_in;
    uint32_t *vals_out;
    uint32_t *bucket_offsets;  /* S*B+1 or NULL */
    uint32_t *gather;
    uint32_t *scatter;
    const uint32_t *off;       /* S+1 */
    const uint32_t *count_dev; /* NULL or the device's record count (clamped to n) */
    uint32_t S, n;
    uint32_t bucket_bits;      /* >= 1, B <= 2^bucket_bits */
    int rule;                  /* split_bucket_rule */
    split_rule_params r;       /* split_bucket.cuh */
    /* temporary storage */
    uint32_t *counters;        /* [0] medium segments, [1] huge segments, [2] huge tiles */
    uint32_t *medium_list;     /* segment ids */
    uint32_t *huge_list;       /* 3 per huge segment: segment id, first tile, tiles */
    uint32_t *tile_huge;       /* tile -> huge list entry */
    uint32_t *tile_base;       /* tile * B + b: counts, then absolute start of b in the tile */
    uint32_t *huge_done;       /* per huge segment: tiles counted so far */
    /* ballot path */
    uint32_t *slot_count;      /* per block: huge segments it listed */
    uint32_t *slot_tiles;      /* per block: their tiles */
    uint32_t *slots;           /* per block: slot_cap (segment, tiles) pairs */
    uint32_t slot_cap;
    int may_huge;              /* n admits a segment above SEG_BALLOT_MAX_RECORDS */
};

/* The bucket of record i under the runtime rule (the boundaries table is searched in global memory,
 * where it stays in L1). The IDS rule never reads keys (keys_in may be NULL then). The default is the
 * BOUNDARIES rule: the host (split_rule_params_of) has rejected every other value, and a device switch
 * has no error to report. Kept in this form: the same switch as a shared helper taking the rule's
 * parameters and the keys apart compiles to other register allocations. */
template <typename K>
__device__ __forceinline__ uint32_t bucket_of(const seg_params &p, uint32_t i)
{
    static_assert(SPLIT_RULE_COUNT == 4, "bucket_of computes four rules: add the new rule's case");
    switch (p.rule) {
    case SPLIT_BUCKETS_IDS: return split_bucket<K, SPLIT_BUCKETS_IDS>(p.r, K(0), i, nullptr);
    case SPLIT_BUCKETS_BITS: return split_bucket<K, SPLIT_BUCKETS_BITS>(p.r, __ldg((const K *)p.keys_in + i), i, nullptr);
    case SPLIT_BUCKETS_RANGE: return split_bucket<K, SPLIT_BUCKETS_RANGE>(p.r, __ldg((const K *)p.keys_in + i), i, nullptr);
    default:
        return split_bucket<K, SPLIT_BUCKETS_BOUNDARIES>(p.r, __ldg((const K *)p.keys_in + i), i, (const K *)p.r.boundaries);
    }
}

template <typename K>
__device__ __forceinline__ void move_record(const seg_params &p, uint32_t src, uint32_t dst)
{
    if (p.keys_out) ((K *)p.keys_out)[dst] = __ldg((const K *)p.keys_in + src);
    if (p.vals_out) p.vals_out[dst] = __ldg(p.vals_in + src);
    if (p.gather) p.gather[dst] = src;
    if (p.scatter) p.scatter[src] = dst;
}

/* The records this call processes: n, or the device count when one is given. */
__device__ __forceinline__ uint32_t seg_count(const seg_params &p)
{
    return p.count_dev ? min(*p.count_dev, p.n) : p.n;
}

/* Segment s clamped to the first `count` records. */
__device__ __forceinline__ void seg_bounds(const seg_params &p, uint32_t count, uint32_t s, uint32_t &lo, uint32_t &hi)
{
    lo = min(p.off[s], count);
    hi = max(lo, min(p.off[s + 1], count));
}

} // namespace

#endif /* SPLIT_SEGMENTED_PARAMS_CUH */
