/* wide_kernels.cuh - the kernels of the wide unstable multisplit (internal, CUDA device code; host side
 * in multisplit_wide.cu): the count kernel (one atomicAdd per distinct bucket of a warp round), the
 * place kernel (each record takes the next slot of its bucket's cursor) and the bucket offsets. */
#ifndef SPLIT_WIDE_KERNELS_CUH
#define SPLIT_WIDE_KERNELS_CUH

#include <stdint.h>

#include "multisplit_internal.h"

static const unsigned WIDE_FULL_MASK = 0xFFFFFFFFu;
static const uint32_t WIDE_NO_BUCKET = 0xFFFFFFFFu; /* lanes past the records: no bucket (B <= 2^24) */

/* Parameters of the wide kernels, passed by value. */
typedef struct wide_params {
    split_rule_params rule;
    uint32_t n;                  /* records of the descriptor */
    const uint32_t *count_dev;   /* optional device record count: c = min(*count_dev, n) */
    const void *keys_in;         /* NULL: keys not read (IDS rule, keys not moved) */
    void *keys_out;
    const uint32_t *values_in;
    uint32_t *values_out;
    uint32_t *gather_index;
    uint32_t *scatter_index;
    uint32_t *counts;            /* count kernel: B counters, zeroed */
    uint32_t *cursors;           /* place kernel: B cursors, the exclusive scan of the counts */
    uint32_t *last_offset;       /* place kernel: bucket_offsets[B] (the record count c), or NULL */
} wide_params;

__device__ __forceinline__ uint32_t wide_records(const wide_params &p)
{
    if (p.count_dev == NULL) return p.n;
    const uint32_t c = *p.count_dev;
    return c < p.n ? c : p.n;
}

/* The lane's SPLIT_WIDE_LANE_ITEMS consecutive records from `first` (16-byte loads when VEC and all
 * of them lie below c; past c: zeros). */
__device__ __forceinline__ void wide_load_keys(const uint32_t *keys, uint64_t first, bool full, uint32_t c,
                                               uint32_t (&k)[SPLIT_WIDE_LANE_ITEMS], bool vec)
{
    if (vec && full) {
        const uint4 q = __ldg((const uint4 *)(keys + first));
        k[0] = q.x; k[1] = q.y; k[2] = q.z; k[3] = q.w;
        return;
    }
#pragma unroll
    for (int j = 0; j < SPLIT_WIDE_LANE_ITEMS; ++j) k[j] = first + j < c ? __ldg(keys + first + j) : 0u;
}

__device__ __forceinline__ void wide_load_keys(const uint64_t *keys, uint64_t first, bool full, uint32_t c,
                                               uint64_t (&k)[SPLIT_WIDE_LANE_ITEMS], bool vec)
{
    if (vec && full) {
#pragma unroll
        for (int h = 0; h < SPLIT_WIDE_LANE_ITEMS / 2; ++h) {
            const ulonglong2 q = __ldg((const ulonglong2 *)(keys + first) + h);
            k[2 * h] = q.x;
            k[2 * h + 1] = q.y;
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < SPLIT_WIDE_LANE_ITEMS; ++j)
        k[j] = first + j < c ? (uint64_t)__ldg((const unsigned long long *)keys + first + j) : 0ull;
}

/* Count kernel: counts[bucket] += records of the bucket among [0, c). */
template <typename KeyT, int RULE, bool VEC>
__global__ void __launch_bounds__(SPLIT_WIDE_THREADS) split_wide_count_kernel(wide_params p)
{
    const uint32_t c = wide_records(p);
    const uint32_t lane = threadIdx.x & 31u;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    const KeyT *keys = (const KeyT *)p.keys_in;
    const KeyT *bounds = (const KeyT *)p.rule.boundaries; /* searched in global memory (B may be huge) */
    for (uint64_t chunk = warp * SPLIT_WIDE_CHUNK; chunk < c; chunk += warps * SPLIT_WIDE_CHUNK) {
        const uint64_t first = chunk + (uint64_t)lane * SPLIT_WIDE_LANE_ITEMS;
        const bool full = first + SPLIT_WIDE_LANE_ITEMS <= c;
        KeyT k[SPLIT_WIDE_LANE_ITEMS];
        if (RULE != SPLIT_BUCKETS_IDS) wide_load_keys(keys, first, full, c, k, VEC);
        else
#pragma unroll
            for (int j = 0; j < SPLIT_WIDE_LANE_ITEMS; ++j) k[j] = 0;
#pragma unroll
        for (int j = 0; j < SPLIT_WIDE_LANE_ITEMS; ++j) {
            const uint64_t i = first + j;
            const bool valid = i < c;
            const uint32_t b =
                valid ? split_bucket<KeyT, RULE>(p.rule, k[j], i, bounds) : WIDE_NO_BUCKET;
            const uint32_t peers = __match_any_sync(WIDE_FULL_MASK, b);
            if (valid && lane == (uint32_t)(__ffs(peers) - 1)) atomicAdd(p.counts + b, (uint32_t)__popc(peers));
        }
    }
}

/* Place kernel: each record of [0, c) takes the next slot of its bucket's cursor. */
template <typename KeyT, int RULE, bool VEC>
__global__ void __launch_bounds__(SPLIT_WIDE_THREADS) split_wide_place_kernel(wide_params p)
{
    const uint32_t c = wide_records(p);
    if (p.last_offset != NULL && blockIdx.x == 0 && threadIdx.x == 0) *p.last_offset = c;
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t lanes_below = (1u << lane) - 1u;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    const KeyT *keys = (const KeyT *)p.keys_in;
    KeyT *keys_out = (KeyT *)p.keys_out;
    const KeyT *bounds = (const KeyT *)p.rule.boundaries;
    for (uint64_t chunk = warp * SPLIT_WIDE_CHUNK; chunk < c; chunk += warps * SPLIT_WIDE_CHUNK) {
        const uint64_t first = chunk + (uint64_t)lane * SPLIT_WIDE_LANE_ITEMS;
        const bool full = first + SPLIT_WIDE_LANE_ITEMS <= c;
        KeyT k[SPLIT_WIDE_LANE_ITEMS];
        uint32_t v[SPLIT_WIDE_LANE_ITEMS], slot[SPLIT_WIDE_LANE_ITEMS];
        if (keys != NULL) wide_load_keys(keys, first, full, c, k, VEC);
        else
#pragma unroll
            for (int j = 0; j < SPLIT_WIDE_LANE_ITEMS; ++j) k[j] = 0;
        if (p.values_in != NULL) wide_load_keys(p.values_in, first, full, c, v, VEC);
#pragma unroll
        for (int j = 0; j < SPLIT_WIDE_LANE_ITEMS; ++j) {
            const uint64_t i = first + j;
            const bool valid = i < c;
            const uint32_t b = valid ? split_bucket<KeyT, RULE>(p.rule, k[j], i, bounds) : WIDE_NO_BUCKET;
            const uint32_t peers = __match_any_sync(WIDE_FULL_MASK, b);
            const int leader = __ffs(peers) - 1;
            uint32_t base = 0;
            if (valid && lane == (uint32_t)leader) base = atomicAdd(p.cursors + b, (uint32_t)__popc(peers));
            base = __shfl_sync(WIDE_FULL_MASK, base, leader);
            slot[j] = base + (uint32_t)__popc(peers & lanes_below);
            if (!valid || slot[j] >= c) continue; /* wrong caller counts: dropped, never out of bounds */
            if (keys_out != NULL) keys_out[slot[j]] = k[j];
            if (p.values_out != NULL) p.values_out[slot[j]] = v[j];
            if (p.gather_index != NULL) p.gather_index[slot[j]] = (uint32_t)i;
        }
        if (p.scatter_index != NULL) {
            if (VEC && full) {
                *(uint4 *)(p.scatter_index + first) = make_uint4(slot[0], slot[1], slot[2], slot[3]);
            } else {
#pragma unroll
                for (int j = 0; j < SPLIT_WIDE_LANE_ITEMS; ++j)
                    if (first + j < c) p.scatter_index[first + j] = slot[j];
            }
        }
    }
}

/* bucket_offsets[b] = starts[b] for b < B, bucket_offsets[B] = c. */
/* The exclusive scan's output: each start into the place kernel's cursors and, when the caller asks
 * for them, its bucket offsets (one pass over the B starts instead of a copy after the scan). */
struct wide_scan_out {
    uint32_t *cursors, *offsets;
    __device__ void operator()(ptrdiff_t i, uint32_t start) const
    {
        cursors[i] = start;
        if (offsets != NULL) offsets[i] = start;
    }
};

/* bucket_offsets[B] = the record count, when no place kernel runs to write it. */
__global__ void split_wide_last_offset_kernel(uint32_t n, const uint32_t *count_dev, uint32_t *last_offset)
{
    uint32_t c = n;
    if (count_dev != NULL && *count_dev < n) c = *count_dev;
    *last_offset = c;
}

#endif /* SPLIT_WIDE_KERNELS_CUH */
