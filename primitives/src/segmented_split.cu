/* segmented_split.cu - split_segmented: a stable split inside each of many segments.
 *
 * Segments are classified by size on the device (the host never sees them):
 *  - B <= SEG_BALLOT_MAX_BUCKETS: the ballot path, one cooperative kernel (seg_ballot_kernel). A
 *    record's bucket bits are exchanged by ballots, which give every lane the mask of the round's (32
 *    records) records in its own record's bucket (its rank: the lanes below it) and the mask of records
 *    in bucket `lane` (lane b counts bucket b); a warp scan turns lane b's count into bucket b's start,
 *    and each record moves to start[bucket] + rank. A warp holds a chunk of up to SEG_BALLOT_ROUNDS
 *    rounds in registers (the smallest of 2, SEG_BALLOT_ROUNDS / 2 and SEG_BALLOT_ROUNDS rounds that
 *    holds the segment; every round's key and value loaded at once: one memory round trip). The blocks
 *    split the segments in record-balanced shares (a merge path over segments and records); in a
 *    block, segments above one warp chunk (up to SEG_BALLOT_MAX_RECORDS) are split by all its warps
 *    first, then the warps take the others one at a time. Larger ("huge") segments are listed per
 *    block and split after grid-wide barriers in the same kernel, as tiles like the multi-block path
 *    below. O(m) work, stable; with no huge segment the kernel ends at its first grid barrier.
 *  - small, larger B (<= SEG_WARP_MAX_RECORDS): one warp per segment. Each record gets the key
 *    (bucket << 8 | local index), unique inside the segment; its rank is the number of smaller keys
 *    (comparisons against the segment's keys in shared memory), which is the stable order. The
 *    sorted keys in shared memory give the moves (coalesced writes) and, by binary search, the
 *    segment's bucket offsets. The same kernel appends the larger segments to two work lists.
 *  - medium (<= SEG_BLOCK_MAX_RECORDS): one block per segment: histogram in shared memory, scan,
 *    then sub-tiles of SEG_SUBTILE records ranked by a block radix sort of (bucket, index) keys and
 *    written bucket run by bucket run.
 *  - huge: tiles of SEG_HUGE_TILE records over many blocks: per-tile histograms, a per-segment scan
 *    down each bucket's column of tiles, then each tile ranked like a medium segment.
 * Launches, B > 32: a counter reset, the small-segment kernel (which fills the work lists), one kernel
 * for the medium segments and the huge tiles' histograms and scans, and the huge scatter (only when n
 * admits a huge segment). B <= 32: the ballot kernel alone.
 * Work lists, counters and tile tables live in the caller's temporary storage. With
 * desc->num_records_device every kernel reads the record count c first and clamps the segment
 * bounds to it (seg_bounds), so records past c are never touched. */
#include <cooperative_groups.h>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <string.h>

#include <atomic>

#include "sc_report.h"
#include "split.h"
#include "split_bucket.cuh"
#include "split_occupancy.cuh"
#include "split_tuning.h"
#include "split_validate.h"

static_assert(SEG_WARP_MAX_RECORDS == (1 << SEG_WARP_INDEX_BITS), "warp index bits");
static_assert(SEG_SUBTILE == (1 << SEG_SUBTILE_INDEX_BITS), "sub-tile index bits");
static_assert(SEG_SUBTILE_INDEX_BITS + SPLIT_MAX_BITS <= 32, "composite keys fit 32 bits");
static_assert(SEG_HUGE_TILE % SEG_SUBTILE == 0 && SEG_BLOCK_MAX_RECORDS >= SEG_HUGE_TILE, "tile sizes");
static_assert(SPLIT_MAX_BUCKETS % SEG_BLOCK_THREADS == 0, "bucket scan layout");
static_assert(SEG_BALLOT_MAX_BUCKETS == 32 && SEG_BALLOT_MAX_RECORDS <= (1u << 30), "ballot path limits");

namespace {

namespace cg = cooperative_groups;

enum { BUCKETS_PER_THREAD = SPLIT_MAX_BUCKETS / SEG_BLOCK_THREADS, SCAN_BATCH = 16 };

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
 * where it stays in L1). The IDS rule never reads keys (keys_in may be NULL then). */
template <typename K>
__device__ __forceinline__ uint32_t bucket_of(const seg_params &p, uint32_t i)
{
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

/* Appends segment s of m > the small limit records to the medium or the huge work list. */
__device__ __forceinline__ void enqueue_large(const seg_params &p, uint32_t s, uint32_t m)
{
    if (m <= SEG_BLOCK_MAX_RECORDS) {
        p.medium_list[atomicAdd(&p.counters[0], 1u)] = s;
    } else {
        uint32_t tiles = (m + SEG_HUGE_TILE - 1) / SEG_HUGE_TILE;
        uint32_t h = atomicAdd(&p.counters[1], 1u);
        uint32_t first = atomicAdd(&p.counters[2], tiles);
        p.huge_list[3 * h] = s;
        p.huge_list[3 * h + 1] = first;
        p.huge_list[3 * h + 2] = tiles;
        p.huge_done[h] = 0;
        for (uint32_t t = 0; t < tiles; ++t) p.tile_huge[first + t] = h;
    }
}

/* Number of entries of sorted[0, m) below x. */
__device__ __forceinline__ uint32_t lower_bound(const uint32_t *sorted, uint32_t m, uint32_t x)
{
    uint32_t lo = 0, hi = m;
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (sorted[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* One warp ranks the m <= 32*IT records of a segment: ck[] receives the sorted composite keys. */
template <typename K, int IT>
__device__ __forceinline__ void warp_rank(const seg_params &p, uint32_t lo, uint32_t m, uint32_t lane, uint32_t *ck)
{
    uint32_t mine[IT], rank[IT];
#pragma unroll
    for (int k = 0; k < IT; ++k) {
        uint32_t i = (uint32_t)k * 32u + lane;
        mine[k] = 0xFFFFFFFFu;
        rank[k] = 0;
        if (i < m) {
            mine[k] = (bucket_of<K>(p, lo + i) << SEG_WARP_INDEX_BITS) | i;
            ck[i] = mine[k];
        }
    }
    __syncwarp();
    for (uint32_t j = 0; j < m; ++j) {
        uint32_t x = ck[j];
#pragma unroll
        for (int k = 0; k < IT; ++k) rank[k] += x < mine[k];
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < IT; ++k)
        if ((uint32_t)k * 32u + lane < m) ck[rank[k]] = mine[k];
    __syncwarp();
}

template <typename K>
__global__ void __launch_bounds__(SEG_WARP_KERNEL_WARPS * 32) seg_warp_kernel(seg_params p)
{
    __shared__ uint32_t keys_smem[SEG_WARP_KERNEL_WARPS][SEG_WARP_MAX_RECORDS];
    const uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    uint32_t *ck = keys_smem[warp];
    const uint32_t nb = p.r.num_buckets, count = seg_count(p);
    if (blockIdx.x == 0 && threadIdx.x == 0 && p.bucket_offsets) p.bucket_offsets[(size_t)p.S * nb] = count;
    for (uint32_t s = blockIdx.x * SEG_WARP_KERNEL_WARPS + warp; s < p.S; s += gridDim.x * SEG_WARP_KERNEL_WARPS) {
        uint32_t lo, hi;
        seg_bounds(p, count, s, lo, hi);
        const uint32_t m = hi - lo;
        if (m > SEG_WARP_MAX_RECORDS) {
            if (lane == 0) enqueue_large(p, s, m);
            continue;
        }
        if (m <= 32) warp_rank<K, 1>(p, lo, m, lane, ck);
        else if (m <= 64) warp_rank<K, 2>(p, lo, m, lane, ck);
        else if (m <= 128) warp_rank<K, 4>(p, lo, m, lane, ck);
        else warp_rank<K, SEG_WARP_MAX_RECORDS / 32>(p, lo, m, lane, ck);
        for (uint32_t q = lane; q < m; q += 32) {
            uint32_t c = ck[q];
            move_record<K>(p, lo + (c & (SEG_WARP_MAX_RECORDS - 1u)), lo + q);
        }
        if (p.bucket_offsets) {
            uint32_t *bo = p.bucket_offsets + (size_t)s * nb;
            for (uint32_t b = lane; b < nb; b += 32) bo[b] = lo + lower_bound(ck, m, b << SEG_WARP_INDEX_BITS);
        }
        __syncwarp();
    }
}

typedef cub::BlockRadixSort<uint32_t, SEG_BLOCK_THREADS, SEG_BLOCK_ITEMS> block_sort;
typedef cub::BlockScan<uint32_t, SEG_BLOCK_THREADS> block_scan;

struct block_smem {
    union {
        typename block_sort::TempStorage sort;
        typename block_scan::TempStorage scan;
    } cub;
    uint32_t sorted[SEG_SUBTILE];
    uint32_t base[SPLIT_MAX_BUCKETS];      /* absolute output start of each bucket in this range */
    uint32_t run[SPLIT_MAX_BUCKETS];       /* records of each bucket already written */
    uint32_t sub_start[SPLIT_MAX_BUCKETS]; /* first sorted position of each bucket in the sub-tile */
};

/* Ranks and moves records [lo, hi) whose buckets start at sm.base[b] (run[] zeroed by the caller). */
template <typename K>
__device__ void block_range(const seg_params &p, block_smem &sm, uint32_t lo, uint32_t hi)
{
    const uint32_t tid = threadIdx.x;
    for (uint32_t sub = lo; sub < hi; sub += SEG_SUBTILE) {
        const uint32_t cnt = min((uint32_t)SEG_SUBTILE, hi - sub);
        uint32_t keys[SEG_BLOCK_ITEMS];
#pragma unroll
        for (int k = 0; k < SEG_BLOCK_ITEMS; ++k) {
            uint32_t i = tid * SEG_BLOCK_ITEMS + k;
            keys[k] = i < cnt ? (bucket_of<K>(p, sub + i) << SEG_SUBTILE_INDEX_BITS) | i : 0xFFFFFFFFu;
        }
        block_sort(sm.cub.sort).Sort(keys, SEG_SUBTILE_INDEX_BITS, SEG_SUBTILE_INDEX_BITS + (int)p.bucket_bits);
#pragma unroll
        for (int k = 0; k < SEG_BLOCK_ITEMS; ++k) sm.sorted[tid * SEG_BLOCK_ITEMS + k] = keys[k];
        __syncthreads();
        for (uint32_t q = tid; q < cnt; q += SEG_BLOCK_THREADS) {
            uint32_t b = sm.sorted[q] >> SEG_SUBTILE_INDEX_BITS;
            if (q == 0 || (sm.sorted[q - 1] >> SEG_SUBTILE_INDEX_BITS) != b) sm.sub_start[b] = q;
        }
        __syncthreads();
        for (uint32_t q = tid; q < cnt; q += SEG_BLOCK_THREADS) {
            uint32_t c = sm.sorted[q], b = c >> SEG_SUBTILE_INDEX_BITS;
            move_record<K>(p, sub + (c & (SEG_SUBTILE - 1u)), sm.base[b] + sm.run[b] + (q - sm.sub_start[b]));
        }
        __syncthreads();
        for (uint32_t q = tid; q < cnt; q += SEG_BLOCK_THREADS) {
            uint32_t b = sm.sorted[q] >> SEG_SUBTILE_INDEX_BITS;
            if (q == cnt - 1 || (sm.sorted[q + 1] >> SEG_SUBTILE_INDEX_BITS) != b) sm.run[b] += q - sm.sub_start[b] + 1;
        }
        __syncthreads();
    }
}

/* In-place exclusive scan of v[0, B) plus `start` (B <= SPLIT_MAX_BUCKETS, entries past B are 0);
 * returns nothing, every thread sees the result after the final barrier. */
__device__ void block_exclusive_scan(block_smem &sm, uint32_t *v, uint32_t nb, uint32_t start)
{
    const uint32_t tid = threadIdx.x;
    uint32_t loc[BUCKETS_PER_THREAD], sum = 0;
#pragma unroll
    for (int k = 0; k < BUCKETS_PER_THREAD; ++k) {
        uint32_t b = tid * BUCKETS_PER_THREAD + k;
        loc[k] = b < nb ? v[b] : 0u;
        sum += loc[k];
    }
    uint32_t excl;
    block_scan(sm.cub.scan).ExclusiveSum(sum, excl);
    excl += start;
#pragma unroll
    for (int k = 0; k < BUCKETS_PER_THREAD; ++k) {
        uint32_t b = tid * BUCKETS_PER_THREAD + k;
        if (b < nb) v[b] = excl;
        excl += loc[k];
    }
    __syncthreads();
}

/* One block splits medium segment s (all of it). */
template <typename K>
__device__ void medium_segment(const seg_params &p, block_smem &sm, uint32_t records, uint32_t s)
{
    const uint32_t tid = threadIdx.x, nb = p.r.num_buckets;
    uint32_t lo, hi;
    seg_bounds(p, records, s, lo, hi);
    for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS) sm.base[b] = 0, sm.run[b] = 0;
    __syncthreads();
    for (uint32_t i = lo + tid; i < hi; i += SEG_BLOCK_THREADS) atomicAdd(&sm.base[bucket_of<K>(p, i)], 1u);
    __syncthreads();
    block_exclusive_scan(sm, sm.base, nb, lo);
    if (p.bucket_offsets)
        for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS) p.bucket_offsets[(size_t)s * nb + b] = sm.base[b];
    block_range<K>(p, sm, lo, hi);
}

__device__ __forceinline__ void huge_tile_range(const seg_params &p, uint32_t records, uint32_t t, uint32_t &lo,
                                                uint32_t &hi)
{
    const uint32_t h = __ldcg(p.tile_huge + t), s = __ldcg(p.huge_list + 3 * h), first = __ldcg(p.huge_list + 3 * h + 1);
    uint32_t begin, end;
    seg_bounds(p, records, s, begin, end);
    lo = begin + (t - first) * (uint32_t)SEG_HUGE_TILE;
    hi = min(end, lo + (uint32_t)SEG_HUGE_TILE);
}

/* Huge tile t's bucket counts into its tile_base column (block-wide; ends synchronised). */
template <typename K>
__device__ void huge_tile_count(const seg_params &p, block_smem &sm, uint32_t records, uint32_t t)
{
    const uint32_t tid = threadIdx.x, nb = p.r.num_buckets;
    uint32_t lo, hi;
    huge_tile_range(p, records, t, lo, hi);
    for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS) sm.run[b] = 0;
    __syncthreads();
    for (uint32_t i = lo + tid; i < hi; i += SEG_BLOCK_THREADS) atomicAdd(&sm.run[bucket_of<K>(p, i)], 1u);
    __syncthreads();
    for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS) p.tile_base[(size_t)t * nb + b] = sm.run[b];
    __syncthreads();
}

/* Huge segment h, once all its tiles are counted: tile_base columns become absolute starts, bucket
 * offsets written. tile_base is read through L2 (__ldcg): other blocks wrote it in this launch. */
__device__ void huge_scan_segment(const seg_params &p, block_smem &sm, uint32_t records, uint32_t h)
{
    const uint32_t tid = threadIdx.x, nb = p.r.num_buckets;
    const uint32_t s = __ldcg(p.huge_list + 3 * h), first = __ldcg(p.huge_list + 3 * h + 1);
    const uint32_t tiles = __ldcg(p.huge_list + 3 * h + 2);
    for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS) {
        /* a serial walk down column b, loads batched so they overlap */
        uint32_t run = 0;
        for (uint32_t t0 = first; t0 < first + tiles; t0 += SCAN_BATCH) {
            uint32_t c[SCAN_BATCH];
#pragma unroll
            for (int k = 0; k < SCAN_BATCH; ++k)
                c[k] = t0 + k < first + tiles ? __ldcg(p.tile_base + (size_t)(t0 + k) * nb + b) : 0u;
#pragma unroll
            for (int k = 0; k < SCAN_BATCH; ++k) {
                if (t0 + k < first + tiles) p.tile_base[(size_t)(t0 + k) * nb + b] = run;
                run += c[k];
            }
        }
        sm.base[b] = run;
    }
    __syncthreads();
    uint32_t lo, hi;
    seg_bounds(p, records, s, lo, hi);
    block_exclusive_scan(sm, sm.base, nb, lo);
    for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS) {
        const uint32_t start = sm.base[b];
        if (p.bucket_offsets) p.bucket_offsets[(size_t)s * nb + b] = start;
        for (uint32_t t = first; t < first + tiles; ++t) p.tile_base[(size_t)t * nb + b] += start;
    }
    __syncthreads();
}

/* Everything between the small-segment kernel and the huge scatter, in one launch: work item w is
 * medium segment w (one block splits it) or, past them, huge tile w - medium (one block counts its
 * buckets into tile_base). The block that counts the last tile of a huge segment (a per-segment
 * counter, after a fence) then scans that segment's columns, so the scatter kernel that follows
 * finds every tile's absolute starts. No block waits on another. */
template <typename K>
__global__ void __launch_bounds__(SEG_BLOCK_THREADS) seg_large_kernel(seg_params p)
{
    __shared__ block_smem sm;
    __shared__ uint32_t last_tile;
    const uint32_t tid = threadIdx.x;
    /* Final: written by seg_warp_kernel's classification, which has completed (plain launches in one
     * stream), so plain loads. */
    const uint32_t medium = p.counters[0], tiles = p.counters[2];
    const uint32_t records = seg_count(p);
    for (uint32_t w = blockIdx.x; w < medium + tiles; w += gridDim.x) {
        if (w < medium) {
            medium_segment<K>(p, sm, records, p.medium_list[w]);
            continue;
        }
        const uint32_t t = w - medium, h = p.tile_huge[t];
        huge_tile_count<K>(p, sm, records, t);
        __threadfence();
        __syncthreads();
        if (tid == 0) last_tile = atomicAdd(&p.huge_done[h], 1u) + 1u == p.huge_list[3 * h + 2];
        __syncthreads();
        if (last_tile) {
            __threadfence();
            huge_scan_segment(p, sm, records, h);
        }
        __syncthreads();
    }
}

template <typename K>
__global__ void __launch_bounds__(SEG_BLOCK_THREADS) seg_huge_scatter_kernel(seg_params p)
{
    __shared__ block_smem sm;
    const uint32_t tid = threadIdx.x, nb = p.r.num_buckets;
    const uint32_t tiles = p.counters[2], records = seg_count(p); /* final: seg_warp_kernel's */
    for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        uint32_t lo, hi;
        huge_tile_range(p, records, t, lo, hi);
        for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS)
            sm.base[b] = p.tile_base[(size_t)t * nb + b], sm.run[b] = 0;
        __syncthreads();
        block_range<K>(p, sm, lo, hi);
    }
}

/* ---- the ballot path (B <= SEG_BALLOT_MAX_BUCKETS): one cooperative kernel ----
 * Block g of G owns the segments whose middle lies in share g of the "merge path" of segments and
 * records, f(s) = s * SEG_BALLOT_SEGMENT_WEIGHT + (lo_s + hi_s) / 2 (bounds clamped to the record
 * count c; increasing in s), share g = [F g / G, F (g+1) / G) with F = S * weight + c: every block gets
 * about the same records and weighted segments (ballot_partition, a search in the offsets). It stages
 * the clamped starts of up to SEG_BALLOT_STAGE of its segments at a time in shared memory; the whole
 * block splits the window's segments above one warp chunk first (each warp one part; counts meet in
 * shared memory), then its warps take the others one at a time from a shared counter, each in the
 * smallest of 2, SEG_BALLOT_ROUNDS / 2 and SEG_BALLOT_ROUNDS rounds that holds it. Segments above
 * SEG_BALLOT_MAX_RECORDS ("huge") are listed in the block's slot of the temporary storage (no counter
 * to zero first) and, after a grid-wide barrier, split by the whole grid in phases separated by grid
 * barriers: the huge list and tile table built from the slots, every tile's bucket counts, each
 * segment's columns scanned, every tile ranked and moved. With no huge segment anywhere the kernel ends
 * after its first grid barrier. */
enum {
    BW = SEG_WARP_KERNEL_WARPS, /* warps per block */
    BT = BW * 32,               /* threads per block (== SEG_BLOCK_THREADS) */
    CR = SEG_BALLOT_ROUNDS,     /* rounds of 32 records in a warp chunk */
    CHUNK = 32 * CR,            /* records of a warp chunk (one pass) */
    BLOCK_CHUNK = BW * CHUNK,   /* records of a block chunk */
    HALF_R = CR / 2 > 2 ? CR / 2 : 2,
    STAGE = SEG_BALLOT_STAGE    /* segments per staging window */
};
static_assert((int)BT == (int)SEG_BLOCK_THREADS, "the huge path shares the ballot kernel's blocks");
static_assert(CR >= 4 && CR <= 16 && (CR & (CR - 1)) == 0, "warp chunk rounds: 4, 8 or 16");
static_assert((int)SEG_BALLOT_MAX_RECORDS >= (int)BLOCK_CHUNK && SEG_BALLOT_MAX_RECORDS >= SEG_BLOCK_MAX_RECORDS,
              "the ballot path takes every segment below the huge tier");

__device__ __forceinline__ uint32_t warp_exclusive_sum(uint32_t v, uint32_t lane)
{
    uint32_t incl = v;
#pragma unroll
    for (uint32_t o = 1; o < 32; o <<= 1) {
        const uint32_t u = __shfl_up_sync(0xFFFFFFFFu, incl, o);
        if (lane >= o) incl += u;
    }
    return incl - v;
}

/* A warp chunk: records [lo, lo + m), m <= 32 * R, record lo + k*32 + lane in round k. Loads every
 * round's key and value at once (one memory round trip), then the buckets into rec[] (0 past m). */
template <typename K, int RULE, int R>
__device__ __forceinline__ void chunk_load(const seg_params &p, uint32_t lo, uint32_t m, uint32_t lane, bool vals,
                                           uint32_t (&rec)[R], uint32_t (&val)[R])
{
    K key[R];
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const uint32_t j = (uint32_t)k * 32u + lane;
        key[k] = RULE != SPLIT_BUCKETS_IDS && j < m ? __ldg((const K *)p.keys_in + lo + j) : K(0);
        val[k] = vals && j < m ? __ldg(p.vals_in + lo + j) : 0u;
    }
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const uint32_t j = (uint32_t)k * 32u + lane;
        rec[k] = j < m ? split_bucket<K, RULE>(p.r, key[k], lo + j, (const K *)p.r.boundaries) : 0u;
    }
}

/* The ballots of a loaded chunk: rec[k] becomes bucket | (rank among the round's records of its
 * bucket below this lane) << 8 | (count of bucket `lane` in the round) << 16. All 5 bits of B <= 32,
 * unrolled: a bit above the bucket bits is 0 in every bucket, so its ballot leaves `same` as it is and
 * clears `of` of lanes >= 2^bits (no such bucket). Returns lane b's count of bucket b in the chunk (0
 * for lanes >= nb). */
template <int R>
__device__ __forceinline__ uint32_t chunk_count(uint32_t (&rec)[R], uint32_t m, uint32_t lane, uint32_t nb)
{
    const uint32_t below = (1u << lane) - 1u;
    uint32_t cnt = 0;
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const uint32_t r = (uint32_t)k * 32u;
        if (r >= m) break; /* warp-uniform */
        const uint32_t valid = m - r >= 32u ? 0xFFFFFFFFu : (1u << (m - r)) - 1u;
        const uint32_t b = rec[k];
        uint32_t same = valid, of = valid;
#pragma unroll
        for (uint32_t j = 0; j < 5; ++j) {
            const uint32_t bal = __ballot_sync(0xFFFFFFFFu, (b >> j) & 1u);
            same &= bal ^ (((b >> j) & 1u) - 1u);
            of &= bal ^ (((lane >> j) & 1u) - 1u);
        }
        const uint32_t oc = (uint32_t)__popc(of);
        rec[k] = b | (uint32_t)__popc(same & below) << 8 | oc << 16;
        cnt += oc;
    }
    return lane < nb ? cnt : 0u;
}

/* Moves a counted chunk: lane b's `run` is where the chunk's first record of bucket b goes. */
template <typename K, int R>
__device__ __forceinline__ void chunk_write(const seg_params &p, const uint32_t (&rec)[R], const uint32_t (&val)[R],
                                            uint32_t lo, uint32_t m, uint32_t lane, uint32_t run, bool vals)
{
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const uint32_t r = (uint32_t)k * 32u;
        if (r >= m) break; /* warp-uniform */
        const uint32_t x = rec[k];
        const uint32_t dst = __shfl_sync(0xFFFFFFFFu, run, x & 0xFFu) + ((x >> 8) & 0xFFu);
        if (r + lane < m) {
            const uint32_t src = lo + r + lane;
            if (p.keys_out) ((K *)p.keys_out)[dst] = __ldg((const K *)p.keys_in + src);
            if (vals) p.vals_out[dst] = val[k];
            if (p.gather) p.gather[dst] = src;
            if (p.scatter) p.scatter[src] = dst;
        }
        run += x >> 16;
    }
}

struct ballot_smem {
    uint32_t lo[STAGE + 1];      /* the window's segment starts, clamped to the record count */
    uint32_t big[STAGE];         /* the window's segments above a warp chunk (window-local index) */
    uint32_t counts[BW][32];     /* block segments: per-warp bucket counts */
};

/* Bucket `lane`'s count in the warps before `warp` and in all BW warps, from sm.counts (written and
 * synchronised by the caller). */
__device__ __forceinline__ void warps_before_total(const ballot_smem &sm, uint32_t warp, uint32_t lane, uint32_t &before,
                                                   uint32_t &tot)
{
    before = 0;
    tot = 0;
#pragma unroll
    for (int w = 0; w < BW; ++w) {
        const uint32_t v = sm.counts[w][lane];
        before += (uint32_t)w < warp ? v : 0u;
        tot += v;
    }
}

struct ballot_ctl {
    uint32_t num_big, next;      /* this window: block segments listed, next segment to take */
    uint32_t nhuge, huge_tiles;  /* huge segments listed by this block, and their tiles */
    uint32_t sb, se;             /* the block's segments [sb, se) */
    uint32_t sums[4];            /* huge path: block sums */
};

/* Splits records [wlo, wlo + wm), wm <= 32 * R, of segment s (which starts at seg_lo) in one pass.
 * Alone (block false): the warp holds the whole segment. Block (block-uniform, every warp calls it):
 * each warp holds one part; the per-warp counts meet in shared memory, every warp derives the same
 * bucket starts (barriers before and after). */
template <typename K, int RULE, int R>
__device__ __forceinline__ void chunk_segment(const seg_params &p, ballot_smem &sm, uint32_t s, uint32_t seg_lo,
                                              uint32_t wlo, uint32_t wm, uint32_t warp, uint32_t lane, uint32_t nb,
                                              bool block)
{
    const bool vals = p.vals_out != nullptr;
    uint32_t rec[R], val[R];
    chunk_load<K, RULE, R>(p, wlo, wm, lane, vals, rec, val);
    const uint32_t cnt = chunk_count<R>(rec, wm, lane, nb);
    uint32_t tot = cnt, before = 0;
    if (block) {
        sm.counts[warp][lane] = cnt;
        __syncthreads();
        warps_before_total(sm, warp, lane, before, tot);
    }
    const uint32_t base = seg_lo + warp_exclusive_sum(tot, lane);
    if ((!block || warp == 0) && p.bucket_offsets && lane < nb) p.bucket_offsets[(size_t)s * nb + lane] = base;
    chunk_write<K, R>(p, rec, val, wlo, wm, lane, base + before, vals);
    if (block) __syncthreads(); /* the counts are reused */
}

/* The whole block splits segment s = [lo, hi) of more than a block chunk (block-uniform arguments): a
 * counting pass over block chunks (warp w: chunk w of each), then each block chunk ranked and moved.
 * Ends with a barrier. */
template <typename K, int RULE>
__device__ void ballot_block_multi(const seg_params &p, ballot_smem &sm, uint32_t s, uint32_t lo, uint32_t hi,
                                   uint32_t warp, uint32_t lane, uint32_t nb)
{
    const uint32_t m = hi - lo;
    const bool vals = p.vals_out != nullptr;
    uint32_t rec[CR], val[CR], cnt = 0;
    for (uint32_t done = 0; done < m; done += BLOCK_CHUNK) {
        const uint32_t at = done + warp * (uint32_t)CHUNK;
        const uint32_t wlo = at < m ? lo + at : hi, wm = min((uint32_t)CHUNK, hi - wlo);
        chunk_load<K, RULE, CR>(p, wlo, wm, lane, false, rec, val);
        cnt += chunk_count<CR>(rec, wm, lane, nb);
    }
    sm.counts[warp][lane] = cnt;
    __syncthreads();
    uint32_t tot = 0;
#pragma unroll
    for (int w = 0; w < BW; ++w) tot += sm.counts[w][lane];
    uint32_t base = lo + warp_exclusive_sum(tot, lane);
    if (warp == 0 && p.bucket_offsets && lane < nb) p.bucket_offsets[(size_t)s * nb + lane] = base;
    __syncthreads();
    for (uint32_t done = 0; done < m; done += BLOCK_CHUNK) {
        const uint32_t at = done + warp * (uint32_t)CHUNK;
        const uint32_t wlo = at < m ? lo + at : hi, wm = min((uint32_t)CHUNK, hi - wlo);
        chunk_load<K, RULE, CR>(p, wlo, wm, lane, vals, rec, val);
        sm.counts[warp][lane] = chunk_count<CR>(rec, wm, lane, nb);
        __syncthreads();
        uint32_t before;
        warps_before_total(sm, warp, lane, before, tot);
        chunk_write<K, CR>(p, rec, val, wlo, wm, lane, base + before, vals);
        base += tot;
        __syncthreads();
    }
}

/* f(s) of the partition: the merge-path position of segment s's middle. */
__device__ __forceinline__ uint64_t merge_path_mid(const seg_params &p, uint32_t count, uint32_t s)
{
    const uint32_t lo = min(__ldg(p.off + s), count), hi = max(lo, min(__ldg(p.off + s + 1), count));
    return (uint64_t)s * SEG_BALLOT_SEGMENT_WEIGHT + (((uint64_t)lo + hi) >> 1);
}

/* The block's segments [ctl.sb, ctl.se): warp 0 finds the first segment whose f reaches the share's
 * start, warp 1 the first past its end (32-ary searches, one probe per lane and round). */
__device__ void ballot_partition(const seg_params &p, ballot_ctl &ctl, uint32_t count, uint32_t g, uint32_t G)
{
    const uint32_t warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    if (warp < 2) {
        const uint64_t F = (uint64_t)p.S * SEG_BALLOT_SEGMENT_WEIGHT + count, D = F * (g + warp) / G;
        uint32_t lo = 0, hi = p.S; /* the answer lies in [lo, hi] (hi: S, or known to reach D) */
        while (lo < hi) {
            const uint32_t len = hi - lo, step = (len + 31u) / 32u;
            const uint64_t q = (uint64_t)lo + (uint64_t)lane * step;
            const bool below = q < hi && merge_path_mid(p, count, (uint32_t)q) < D;
            /* the probes below D are a prefix; the answer follows the last of them, up to the next probe */
            const uint32_t c = (uint32_t)__popc(__ballot_sync(0xFFFFFFFFu, below));
            if (c == 0) {
                hi = lo;
            } else {
                const uint32_t nlo = lo + (c - 1) * step + 1;
                hi = (uint32_t)min((uint64_t)lo + (uint64_t)c * step, (uint64_t)hi);
                lo = nlo;
            }
        }
        if (lane == 0) (warp ? ctl.se : ctl.sb) = lo;
    }
    __syncthreads();
}

/* Huge segments of the ballot path: block g's slot holds up to p.slot_cap (segment, tiles) pairs. */
__device__ __forceinline__ uint32_t *huge_slot(const seg_params &p, uint32_t g)
{
    return p.slots + (size_t)g * p.slot_cap * 2;
}

/* The huge segments the blocks listed, split by the whole grid (after the grid barrier that follows
 * the listing; grid-uniform return when there are none). */
template <typename K>
__device__ void ballot_huge(const seg_params &p, block_smem &sm, ballot_ctl &ctl, uint32_t records, uint32_t g,
                            uint32_t G, cg::grid_group &grid)
{
    const uint32_t tid = threadIdx.x, nb = p.r.num_buckets;
    /* Huge segments anywhere? Every block reads every slot count (the same answer grid-wide). */
    bool any = false;
    for (uint32_t i = tid; i < G; i += BT) any |= __ldcg(p.slot_count + i) != 0;
    if (!__syncthreads_or(any)) return;
    /* The huge list and tile table: this block's entries follow those of the blocks before it. */
    if (tid < 4) ctl.sums[tid] = 0;
    __syncthreads();
    uint32_t h_before = 0, t_before = 0, h_all = 0, t_all = 0;
    for (uint32_t i = tid; i < G; i += BT) {
        const uint32_t hc = __ldcg(p.slot_count + i), tc = __ldcg(p.slot_tiles + i);
        h_all += hc, t_all += tc;
        if (i < g) h_before += hc, t_before += tc;
    }
    atomicAdd(&ctl.sums[0], h_before), atomicAdd(&ctl.sums[1], t_before);
    atomicAdd(&ctl.sums[2], h_all), atomicAdd(&ctl.sums[3], t_all);
    __syncthreads();
    const uint32_t H = ctl.sums[2], T = ctl.sums[3], *slot = huge_slot(p, g);
    uint32_t first = ctl.sums[1];
    for (uint32_t j = 0; j < ctl.nhuge; ++j) {
        const uint32_t h = ctl.sums[0] + j, s = __ldcg(slot + 2 * j), tiles = __ldcg(slot + 2 * j + 1);
        if (tid == 0) p.huge_list[3 * h] = s, p.huge_list[3 * h + 1] = first, p.huge_list[3 * h + 2] = tiles;
        for (uint32_t t = tid; t < tiles; t += BT) p.tile_huge[first + t] = h;
        first += tiles;
    }
    grid.sync();
    /* Every huge tile's bucket counts. */
    for (uint32_t t = g; t < T; t += G) huge_tile_count<K>(p, sm, records, t);
    grid.sync();
    /* Each huge segment's columns scanned into absolute starts, its bucket offsets written. */
    for (uint32_t h = g; h < H; h += G) huge_scan_segment(p, sm, records, h);
    grid.sync();
    /* Every huge tile ranked and moved. */
    for (uint32_t t = g; t < T; t += G) {
        uint32_t lo, hi;
        huge_tile_range(p, records, t, lo, hi);
        for (uint32_t b = tid; b < nb; b += BT)
            sm.base[b] = __ldcg(p.tile_base + (size_t)t * nb + b), sm.run[b] = 0;
        __syncthreads();
        block_range<K>(p, sm, lo, hi);
    }
}

template <typename K, int RULE>
__global__ void __launch_bounds__(BT, SEG_BALLOT_BLOCKS_PER_SM) seg_ballot_kernel(seg_params p)
{
    __shared__ union {
        ballot_smem a;
        block_smem b;
    } sm;
    __shared__ ballot_ctl ctl;
    const uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5, g = blockIdx.x, G = gridDim.x;
    const uint32_t nb = p.r.num_buckets, count = seg_count(p);
    if (g == 0 && tid == 0 && p.bucket_offsets) p.bucket_offsets[(size_t)p.S * nb] = count;
    if (tid == 0) ctl.nhuge = 0, ctl.huge_tiles = 0;
    ballot_partition(p, ctl, count, g, G);
    const uint32_t sb = ctl.sb, se = max(ctl.sb, ctl.se);
    for (uint32_t w0 = sb; w0 < se; w0 += STAGE) {
        const uint32_t wn = min((uint32_t)STAGE, se - w0);
        for (uint32_t j = tid; j <= wn; j += BT) sm.a.lo[j] = min(__ldg(p.off + w0 + j), count);
        if (tid == 0) ctl.num_big = 0, ctl.next = 0;
        __syncthreads();
        for (uint32_t j = tid; j < wn; j += BT) { /* list the segments above a warp chunk */
            const uint32_t lo = sm.a.lo[j], m = max(lo, sm.a.lo[j + 1]) - lo;
            if (m <= (uint32_t)CHUNK) continue;
            if (m <= (uint32_t)SEG_BALLOT_MAX_RECORDS) {
                sm.a.big[atomicAdd(&ctl.num_big, 1u)] = j;
            } else {
                const uint32_t tiles = (m + SEG_HUGE_TILE - 1) / SEG_HUGE_TILE;
                uint32_t *slot = huge_slot(p, g) + 2 * atomicAdd(&ctl.nhuge, 1u);
                slot[0] = w0 + j;
                slot[1] = tiles;
                atomicAdd(&ctl.huge_tiles, tiles);
            }
        }
        __syncthreads();
        /* The listed segments with the whole block first (block-uniform), then the warps take the rest
         * one at a time. One call site per chunk size, shared by the block and the warps. */
        const uint32_t num_big = ctl.num_big;
        uint32_t q = 0;
        for (;;) {
            uint32_t s, seg_lo, wlo, wm;
            bool block;
            if (q < num_big) {
                const uint32_t j = sm.a.big[q++], hi = sm.a.lo[j + 1];
                s = w0 + j;
                seg_lo = sm.a.lo[j];
                const uint32_t m = hi - seg_lo;
                if (m > (uint32_t)BLOCK_CHUNK) {
                    ballot_block_multi<K, RULE>(p, sm.a, s, seg_lo, hi, warp, lane, nb);
                    continue;
                }
                const uint32_t part = ((m + BW - 1) / BW + 31u) & ~31u, at = warp * part; /* part <= CHUNK */
                wlo = at < m ? seg_lo + at : hi;
                wm = min(part, hi - wlo);
                block = true;
            } else {
                uint32_t j = 0;
                if (lane == 0) j = atomicAdd(&ctl.next, 1u);
                j = __shfl_sync(0xFFFFFFFFu, j, 0);
                if (j >= wn) break;
                seg_lo = sm.a.lo[j];
                const uint32_t m = max(seg_lo, sm.a.lo[j + 1]) - seg_lo;
                if (m > (uint32_t)CHUNK) continue; /* listed */
                s = w0 + j;
                wlo = seg_lo;
                wm = m;
                block = false;
                if (m <= 64u) {
                    chunk_segment<K, RULE, 2>(p, sm.a, s, seg_lo, wlo, wm, warp, lane, nb, false);
                    continue;
                }
                if (m <= 32u * HALF_R) {
                    chunk_segment<K, RULE, HALF_R>(p, sm.a, s, seg_lo, wlo, wm, warp, lane, nb, false);
                    continue;
                }
            }
            chunk_segment<K, RULE, CR>(p, sm.a, s, seg_lo, wlo, wm, warp, lane, nb, block);
        }
        __syncthreads(); /* before the next window is staged */
    }
    if (tid == 0) p.slot_count[g] = ctl.nhuge, p.slot_tiles[g] = ctl.huge_tiles;
    if (!p.may_huge) return; /* grid-uniform: n admits no segment above SEG_BALLOT_MAX_RECORDS */
    cg::grid_group grid = cg::this_grid();
    grid.sync();
    ballot_huge<K>(p, sm.b, ctl, count, g, G, grid);
}

size_t align_up(size_t x) { return (x + SEG_TEMP_ALIGN - 1) / SEG_TEMP_ALIGN * SEG_TEMP_ALIGN; }

/* The temporary storage, from n, S, B and the ballot path's grid alone. B > 32: counters, the medium
 * and huge work lists and the tile tables. Ballot path: per-block huge slots (counts, tiles, pairs)
 * and the tile tables. */
struct seg_layout {
    size_t medium_cap, huge_cap, tile_cap, slot_cap;
    size_t off_medium, off_huge, off_huge_done, off_tile_huge, off_tile_base;
    size_t off_slot_count, off_slot_tiles, off_slots, total;
};

seg_layout make_layout(size_t n, size_t S, uint32_t nb, uint32_t grid)
{
    const bool ballot = nb <= SEG_BALLOT_MAX_BUCKETS;
    seg_layout l;
    memset(&l, 0, sizeof l);
    l.medium_cap = ballot ? 0 : n / (SEG_WARP_MAX_RECORDS + 1);
    if (l.medium_cap > S) l.medium_cap = S;
    l.huge_cap = n / ((ballot ? SEG_BALLOT_MAX_RECORDS : SEG_BLOCK_MAX_RECORDS) + 1);
    if (l.huge_cap > S) l.huge_cap = S;
    l.tile_cap = n / SEG_HUGE_TILE + l.huge_cap; /* sum of ceil(m / tile) over huge segments */
    size_t at = align_up(4 * sizeof(uint32_t));
    if (ballot) {
        /* block g owns the segments whose merge-path middle lies in a range of at most ceil(F / grid)
         * items; the middles of two huge segments lie more than SEG_BALLOT_MAX_RECORDS apart */
        const size_t F = S * SEG_BALLOT_SEGMENT_WEIGHT + n, share = (F + grid - 1) / grid;
        l.slot_cap = share ? (share - 1) / (SEG_BALLOT_MAX_RECORDS + 1) + 1 : 1;
        if (l.slot_cap > l.huge_cap) l.slot_cap = l.huge_cap;
        l.off_slot_count = at;
        at += align_up(grid * sizeof(uint32_t));
        l.off_slot_tiles = at;
        at += align_up(grid * sizeof(uint32_t));
        l.off_slots = at;
        at += align_up((2 * l.slot_cap * grid + 1) * sizeof(uint32_t));
    } else {
        l.off_medium = at;
        at += align_up((l.medium_cap + 1) * sizeof(uint32_t));
    }
    l.off_huge = at;
    at += align_up((3 * l.huge_cap + 3) * sizeof(uint32_t));
    l.off_huge_done = at;
    at += align_up((l.huge_cap + 1) * sizeof(uint32_t));
    l.off_tile_huge = at;
    at += align_up((l.tile_cap + 1) * sizeof(uint32_t));
    l.off_tile_base = at;
    at += align_up((l.tile_cap * nb + 1) * sizeof(uint32_t));
    l.total = at;
    return l;
}

uint32_t grid_for(size_t work, size_t cap) { return (uint32_t)(work < cap ? (work ? work : 1) : cap); }

/* The ballot kernel of a key type and rule. */
typedef void (*seg_kernel_fn)(seg_params);

seg_kernel_fn ballot_kernel_for(split_key_type kt, int rule)
{
    const bool u64 = kt == SPLIT_KEY_U64;
    return split_with_rule(rule, [&](auto r) -> seg_kernel_fn {
        return u64 ? seg_ballot_kernel<uint64_t, decltype(r)::value> : seg_ballot_kernel<uint32_t, decltype(r)::value>;
    });
}

/* The ballot path's cooperative grid: the blocks the device holds at once (at most
 * SEG_BALLOT_BLOCKS_PER_SM per SM), and no more than one per SEG_BALLOT_MIN_SHARE merge-path items.
 * The occupancy query is made once per device and kernel (split_blocks_per_sm). */
sc_status ballot_grid(split_key_type kt, int rule, size_t n, size_t S, uint32_t *grid)
{
    static split_occ_cache occ_cache[8]; /* (64-bit keys) x 4 + rule */
    const int slot = (kt == SPLIT_KEY_U64 ? 4 : 0) + (rule & 3);
    int dev = 0, sms = 0, occ = 0;
    SC_TRY(split_blocks_per_sm(ballot_kernel_for(kt, rule), BT, 0, occ_cache[slot], &dev, &occ));
    if (occ < 1) return SC_FAIL(SC_ERROR_CUDA, "split_segmented: the ballot kernel cannot be resident");
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (occ > SEG_BALLOT_BLOCKS_PER_SM) occ = SEG_BALLOT_BLOCKS_PER_SM;
    if (sms < 1) sms = 1;
    const size_t F = S * SEG_BALLOT_SEGMENT_WEIGHT + n;
    *grid = grid_for((F + SEG_BALLOT_MIN_SHARE - 1) / SEG_BALLOT_MIN_SHARE, (size_t)sms * (size_t)occ);
    return SC_OK;
}

template <typename K>
sc_status launch_wide_b(const seg_params &p, const seg_layout &l, cudaStream_t stream)
{
    SC_CUDA_CHECK(cudaMemsetAsync(p.counters, 0, 4 * sizeof(uint32_t), stream));
    uint32_t sms = 1;
    SC_TRY(sc_cuda_device_sms(&sms));
    const size_t warp_blocks = ((size_t)p.S + SEG_WARP_KERNEL_WARPS - 1) / SEG_WARP_KERNEL_WARPS;
    seg_warp_kernel<K><<<grid_for(warp_blocks, SEG_WARP_MAX_GRID), SEG_WARP_KERNEL_WARPS * 32, 0, stream>>>(p);
    SC_CUDA_CHECK_LAUNCH("seg_warp_kernel");
    const size_t large_items = l.medium_cap + (l.huge_cap > 0 ? l.tile_cap : 0);
    if (large_items == 0) return SC_OK;
    /* The work lists are usually empty (and at most a few blocks' worth of work): the grid is what
     * the device holds at once, not one block per possible item. */
    size_t cap = (size_t)sms * SEG_LARGE_BLOCKS_PER_SM;
    if (cap > SEG_MAX_GRID) cap = SEG_MAX_GRID;
    seg_large_kernel<K><<<grid_for(large_items, cap), SEG_BLOCK_THREADS, 0, stream>>>(p);
    SC_CUDA_CHECK_LAUNCH("seg_large_kernel");
    if (l.huge_cap > 0) {
        seg_huge_scatter_kernel<K><<<grid_for(l.tile_cap, cap), SEG_BLOCK_THREADS, 0, stream>>>(p);
        SC_CUDA_CHECK_LAUNCH("seg_huge_scatter_kernel");
    }
    return SC_OK;
}

/* The ballot path: one cooperative launch (a launch attribute, so it is captured into graphs). */
sc_status launch_ballot(const seg_params &p, split_key_type kt, uint32_t grid, cudaStream_t stream)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(BT);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    SC_CUDA_CHECK(cudaLaunchKernelEx(&cfg, ballot_kernel_for(kt, p.rule), p));
    SC_CUDA_CHECK_LAUNCH("seg_ballot_kernel");
    return SC_OK;
}

} // namespace

extern "C" sc_status split_segmented(void *temp, size_t *temp_bytes, const split_desc *d, cudaStream_t stream)
{
    static const char who[] = "split_segmented";
    SC_TRY(split_validate_temp_arg(temp, temp_bytes, who));
    split_checked c;
    SC_TRY(split_validate_desc(d, SPLIT_ENTRY_SEGMENTED, temp != NULL, temp, temp ? *temp_bytes : 0, who, &c));
    const uint32_t nb = c.num_buckets;
    const bool ballot = nb <= SEG_BALLOT_MAX_BUCKETS;
    uint32_t grid = 1;
    if (ballot && d->num_segments > 0) SC_TRY(ballot_grid(d->key_type, (int)d->buckets.rule, d->n, d->num_segments, &grid));
    const seg_layout l = make_layout(d->n, d->num_segments, nb, grid);
    if (!temp) {
        *temp_bytes = l.total;
        return SC_OK;
    }
    SC_TRY(split_validate_temp_size(*temp_bytes, l.total, who));
    if (d->num_segments == 0) { /* n == 0: only the last bucket offset */
        if (d->bucket_offsets) SC_CUDA_CHECK(cudaMemsetAsync(d->bucket_offsets, 0, sizeof(uint32_t), stream));
        return SC_OK;
    }
    seg_params p;
    memset(&p, 0, sizeof p);
    p.keys_in = d->keys_in;
    p.keys_out = d->keys_out;
    p.vals_in = d->values_in;
    p.vals_out = d->values_out;
    p.bucket_offsets = d->bucket_offsets;
    p.gather = d->gather_index;
    p.scatter = d->scatter_index;
    p.off = d->segment_offsets;
    p.count_dev = d->num_records_device;
    p.S = (uint32_t)d->num_segments;
    p.n = (uint32_t)d->n;
    p.bucket_bits = 1;
    while ((1u << p.bucket_bits) < nb) ++p.bucket_bits;
    p.rule = (int)d->buckets.rule;
    p.r.num_buckets = nb;
    p.r.start_bit = split_field_start(&d->buckets);
    p.r.bit_mask = ((uint64_t)1 << d->buckets.bit_count) - 1u;
    p.r.bucket_ids = d->buckets.bucket_ids;
    p.r.range_base = d->buckets.range_base;
    p.r.range_delta = d->buckets.range_delta;
    p.r.range_magic = split_range_magic(d->buckets.range_delta);
    p.r.boundaries = d->buckets.boundaries;
    char *t = (char *)temp;
    p.counters = (uint32_t *)t;
    p.medium_list = (uint32_t *)(t + l.off_medium);
    p.huge_list = (uint32_t *)(t + l.off_huge);
    p.tile_huge = (uint32_t *)(t + l.off_tile_huge);
    p.huge_done = (uint32_t *)(t + l.off_huge_done);
    p.tile_base = (uint32_t *)(t + l.off_tile_base);
    if (ballot) {
        p.slot_count = (uint32_t *)(t + l.off_slot_count);
        p.slot_tiles = (uint32_t *)(t + l.off_slot_tiles);
        p.slots = (uint32_t *)(t + l.off_slots);
        p.slot_cap = (uint32_t)l.slot_cap;
        p.may_huge = l.huge_cap > 0;
        return launch_ballot(p, d->key_type, grid, stream);
    }
    if (d->key_type == SPLIT_KEY_U32) return launch_wide_b<uint32_t>(p, l, stream);
    return launch_wide_b<uint64_t>(p, l, stream);
}
