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

/* Place kernel, block-aggregated: each record of [0, c) takes the next slot of its bucket's cursor. A
 * block takes tiles of SPLIT_WIDE_TILE
 * consecutive records, grid-stride. Each tile's distinct buckets go into a shared-memory hash table
 * (one shared atomic per distinct bucket of a warp round, __match_any_sync), each record's rank in its
 * bucket within the tile with it; a block-wide scan of the table's counts places every bucket's run in
 * the tile's shared staging; each distinct bucket of the tile takes its slots with one global atomic
 * on its cursor; the tile is reordered into runs in shared memory and written out, consecutive threads
 * writing consecutive slots of a run. On clustered keys (few distinct buckets a tile, as the renderer's
 * references by tile) a tile costs a few global atomics and whole-line writes instead of an atomic per
 * distinct bucket of every warp round and scattered words. */
template <typename KeyT, int RULE>
__global__ void __launch_bounds__(SPLIT_WIDE_THREADS) split_wide_place_block_kernel(wide_params p)
{
    enum { T = SPLIT_WIDE_THREADS, ITEMS = SPLIT_WIDE_TILE / SPLIT_WIDE_THREADS, H = SPLIT_WIDE_SLOTS, PER = H / T };
    static_assert(H % T == 0 && (H & (H - 1)) == 0 && H >= SPLIT_WIDE_TILE, "a slot for every record of a tile");
    __shared__ uint32_t hkey[H]; /* the slot's bucket; after the scan, its first slot minus its local start */
    __shared__ uint32_t hcnt[H]; /* the slot's records in the tile; after the scan, its local start */
    __shared__ KeyT skey[SPLIT_WIDE_TILE];
    __shared__ uint32_t sval[SPLIT_WIDE_TILE], spos[SPLIT_WIDE_TILE], sidx[SPLIT_WIDE_TILE];
    __shared__ uint32_t wsum[T / 32];
    const uint32_t c = wide_records(p);
    if (p.last_offset != NULL && blockIdx.x == 0 && threadIdx.x == 0) *p.last_offset = c;
    const uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const uint32_t lanes_below = (1u << lane) - 1u;
    const KeyT *keys = (const KeyT *)p.keys_in;
    KeyT *keys_out = (KeyT *)p.keys_out;
    const KeyT *bounds = (const KeyT *)p.rule.boundaries;
    const uint32_t log2h = 31u - (uint32_t)__clz(H);
    for (uint64_t base = (uint64_t)blockIdx.x * SPLIT_WIDE_TILE; base < c;
         base += (uint64_t)gridDim.x * SPLIT_WIDE_TILE) {
#pragma unroll
        for (int q = 0; q < PER; ++q) {
            hkey[q * T + tid] = WIDE_NO_BUCKET;
            hcnt[q * T + tid] = 0;
        }
        KeyT k[ITEMS];
        uint32_t v[ITEMS], slot[ITEMS], rank[ITEMS];
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const uint64_t i = base + (uint64_t)j * T + tid;
            k[j] = (keys != NULL && i < c) ? keys[i] : (KeyT)0;
            v[j] = (p.values_in != NULL && i < c) ? __ldg(p.values_in + i) : 0u;
        }
        __syncthreads(); /* the table is empty */
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const uint64_t i = base + (uint64_t)j * T + tid;
            const bool valid = i < c;
            const uint32_t b = valid ? split_bucket<KeyT, RULE>(p.rule, k[j], i, bounds) : WIDE_NO_BUCKET;
            const uint32_t peers = __match_any_sync(WIDE_FULL_MASK, b);
            const int leader = __ffs(peers) - 1;
            uint32_t s = 0, r = 0;
            if (valid && lane == (uint32_t)leader) {
                s = (b * 0x9E3779B1u) >> (32u - log2h);
                for (;;) {
                    const uint32_t old = atomicCAS(&hkey[s], WIDE_NO_BUCKET, b);
                    if (old == WIDE_NO_BUCKET || old == b) break;
                    s = (s + 1u) & (H - 1u);
                }
                r = atomicAdd(&hcnt[s], (uint32_t)__popc(peers));
            }
            slot[j] = __shfl_sync(WIDE_FULL_MASK, s, leader);
            rank[j] = __shfl_sync(WIDE_FULL_MASK, r, leader) + (uint32_t)__popc(peers & lanes_below);
        }
        __syncthreads(); /* every record counted */
        /* Local starts: an exclusive scan of the counts in slot order, PER slots a thread. */
        uint32_t cnt[PER], sum = 0;
#pragma unroll
        for (int q = 0; q < PER; ++q) {
            cnt[q] = hcnt[tid * PER + q];
            sum += cnt[q];
        }
        uint32_t incl = sum;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const uint32_t y = __shfl_up_sync(WIDE_FULL_MASK, incl, d);
            if (lane >= (uint32_t)d) incl += y;
        }
        if (lane == 31u) wsum[warp] = incl;
        __syncthreads();
        uint32_t start = incl - sum;
        for (uint32_t w = 0; w < warp; ++w) start += wsum[w];
        /* Each distinct bucket takes its slots: one global atomic each, independent of one another. */
        uint32_t first[PER];
#pragma unroll
        for (int q = 0; q < PER; ++q)
            first[q] = cnt[q] ? atomicAdd(p.cursors + hkey[tid * PER + q], cnt[q]) : 0u;
#pragma unroll
        for (int q = 0; q < PER; ++q) {
            hkey[tid * PER + q] = first[q] - start;
            hcnt[tid * PER + q] = start;
            start += cnt[q];
        }
        __syncthreads(); /* the runs placed */
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const uint64_t i = base + (uint64_t)j * T + tid;
            if (i >= c) continue;
            const uint32_t lp = hcnt[slot[j]] + rank[j];
            const uint32_t gp = hkey[slot[j]] + lp;
            skey[lp] = k[j];
            sval[lp] = v[j];
            spos[lp] = gp;
            sidx[lp] = (uint32_t)i;
            if (p.scatter_index != NULL) p.scatter_index[i] = gp;
        }
        __syncthreads(); /* the tile staged in runs */
        const uint32_t in_tile = c - base < (uint64_t)SPLIT_WIDE_TILE ? (uint32_t)(c - base) : (uint32_t)SPLIT_WIDE_TILE;
        for (uint32_t lp = tid; lp < in_tile; lp += T) {
            const uint32_t gp = spos[lp];
            if (gp >= c) continue; /* wrong caller counts: dropped, never out of bounds */
            if (keys_out != NULL) keys_out[gp] = skey[lp];
            if (p.values_out != NULL) p.values_out[gp] = sval[lp];
            if (p.gather_index != NULL) p.gather_index[gp] = sidx[lp];
        }
        /* No barrier here: the next tile's table clear touches only hkey and hcnt (read last before
         * the barrier above), and its staging comes after two more barriers. */
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
