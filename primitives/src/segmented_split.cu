/* segmented_split.cu - split_segmented: a stable split inside each of many segments.
 *
 * Segments are classified by size on the device (the host never sees them):
 *  - B <= SEG_BALLOT_MAX_BUCKETS (<= SEG_BALLOT_MAX_RECORDS records): the ballot path. A record's
 *    bucket bits are exchanged by ballots, which give every lane the mask of the round's (32 records)
 *    records in its own record's bucket (its rank: the lanes below it) and the mask of records in
 *    bucket `lane` (lane b counts bucket b); a warp scan turns lane b's count into bucket b's start,
 *    and each record moves to start[bucket] + rank. A warp holds a chunk of SEG_BALLOT_ROUNDS rounds in
 *    registers (keys and values loaded at once: one memory round trip), so a segment of one chunk
 *    costs one pass; up to SEG_BALLOT_WARP_MAX_RECORDS the warp counts its chunks, then loads, ranks
 *    and moves them one by one; larger segments the whole block splits after its warps' own (a warp
 *    per chunk, the per-warp counts met in shared memory). The grid is what the device holds at once
 *    and every warp loops over the segments (no barrier between them). O(m) work, stable.
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
 * Launches: the small-segment kernel (which fills the work lists), one kernel for the medium
 * segments and the huge tiles' histograms and scans, and the huge scatter (only when n admits a
 * huge segment).
 * Work lists, counters and tile tables live in the caller's temporary storage. With
 * desc->num_records_device every kernel reads the record count c first and clamps the segment
 * bounds to it (seg_bounds), so records past c are never touched. */
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "sc_report.h"
#include "split.h"
#include "split_bucket.cuh"
#include "split_tuning.h"
#include "split_validate.h"

static_assert(SEG_WARP_MAX_RECORDS == (1 << SEG_WARP_INDEX_BITS), "warp index bits");
static_assert(SEG_SUBTILE == (1 << SEG_SUBTILE_INDEX_BITS), "sub-tile index bits");
static_assert(SEG_SUBTILE_INDEX_BITS + 11 <= 32 && SPLIT_MAX_BUCKETS <= 2048, "composite keys fit 32 bits");
static_assert(SEG_HUGE_TILE % SEG_SUBTILE == 0 && SEG_BLOCK_MAX_RECORDS >= SEG_HUGE_TILE, "tile sizes");
static_assert(SPLIT_MAX_BUCKETS % SEG_BLOCK_THREADS == 0, "bucket scan layout");
static_assert(SEG_BALLOT_MAX_BUCKETS == 32 && SEG_BALLOT_MAX_RECORDS >= SEG_WARP_MAX_RECORDS &&
              SEG_BALLOT_MAX_RECORDS <= SEG_BLOCK_MAX_RECORDS, "ballot path limits");
static_assert(SEG_BALLOT_ROUNDS >= 1 && 32 * SEG_BALLOT_ROUNDS <= SEG_BALLOT_WARP_MAX_RECORDS &&
              SEG_BALLOT_WARP_MAX_RECORDS <= SEG_BALLOT_MAX_RECORDS && SEG_BALLOT_BLOCK_LIST >= 1, "ballot chunk");

namespace {

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

/* The ballot path's masks for one round: *mine = lanes whose record is in this lane's record's
 * bucket, return value = lanes whose record is in bucket `lane`; both within `valid`. All 5 bits of
 * B <= 32, unrolled: a bit at or above the bucket bits is 0 in every bucket, so its ballot leaves
 * `mine` as it is and clears the return value of lanes >= 2^bits (no such bucket). */
__device__ __forceinline__ uint32_t ballot_masks(uint32_t b, uint32_t valid, uint32_t lane, uint32_t *mine)
{
    uint32_t same = valid, of_lane = valid;
#pragma unroll
    for (uint32_t k = 0; k < 5; ++k) {
        const uint32_t bal = __ballot_sync(0xFFFFFFFFu, (b >> k) & 1u);
        same &= bal ^ (((b >> k) & 1u) - 1u);
        of_lane &= bal ^ (((lane >> k) & 1u) - 1u);
    }
    *mine = same;
    return of_lane;
}

/* ---- the ballot path (B <= 32) ----
 * A warp chunk is up to BALLOT_WARP_RECORDS consecutive records [wlo, whi) held in registers: record
 * wlo + k*32 + lane in round k. Loading it issues every round's key (bucket) and value load at once,
 * so a chunk costs one memory round trip; the counts, ranks and moves then come from registers. */
enum {
    BALLOT_ROUNDS = SEG_BALLOT_ROUNDS,
    BALLOT_WARP_RECORDS = 32 * SEG_BALLOT_ROUNDS,
    BALLOT_BLOCK_RECORDS = SEG_WARP_KERNEL_WARPS * BALLOT_WARP_RECORDS
};

struct ballot_chunk {
    /* bucket | rank among the round's records of its bucket below this lane << 8 | this lane's
     * bucket's record count in the round << 16 (the last two after ballot_count) */
    uint32_t rec[BALLOT_ROUNDS];
    uint32_t val[BALLOT_ROUNDS]; /* values, when moved */
};

template <typename K, int RULE>
__device__ __forceinline__ void ballot_load_rule(const seg_params &p, uint32_t wlo, uint32_t whi, uint32_t lane,
                                                 bool vals, ballot_chunk &c)
{
    K key[BALLOT_ROUNDS];
#pragma unroll
    for (int k = 0; k < BALLOT_ROUNDS; ++k) { /* every load first, then the buckets */
        const uint32_t j = (uint32_t)k * 32u + lane, i = wlo + j;
        const bool in = j < whi - wlo;
        key[k] = RULE != SPLIT_BUCKETS_IDS && in ? __ldg((const K *)p.keys_in + i) : K(0);
        c.val[k] = vals && in ? __ldg(p.vals_in + i) : 0u;
    }
#pragma unroll
    for (int k = 0; k < BALLOT_ROUNDS; ++k) {
        const uint32_t j = (uint32_t)k * 32u + lane;
        c.rec[k] = j < whi - wlo ? split_bucket<K, RULE>(p.r, key[k], wlo + j, (const K *)p.r.boundaries) : 0u;
    }
}

/* Loads the chunk [wlo, whi) (wlo <= whi, at most BALLOT_WARP_RECORDS records): buckets, and values
 * when `vals`. Records past whi get bucket 0 and are never used. */
template <typename K>
__device__ __forceinline__ void ballot_load(const seg_params &p, uint32_t wlo, uint32_t whi, uint32_t lane, bool vals,
                                            ballot_chunk &c)
{
    switch (p.rule) {
    case SPLIT_BUCKETS_BITS: ballot_load_rule<K, SPLIT_BUCKETS_BITS>(p, wlo, whi, lane, vals, c); break;
    case SPLIT_BUCKETS_IDS: ballot_load_rule<K, SPLIT_BUCKETS_IDS>(p, wlo, whi, lane, vals, c); break;
    case SPLIT_BUCKETS_RANGE: ballot_load_rule<K, SPLIT_BUCKETS_RANGE>(p, wlo, whi, lane, vals, c); break;
    default: ballot_load_rule<K, SPLIT_BUCKETS_BOUNDARIES>(p, wlo, whi, lane, vals, c); break;
    }
}

/* The ballots of a loaded chunk: packs each record's in-round rank and each lane's per-round count
 * into c.rec; returns lane b's count of bucket b in the chunk (0 for lanes >= nb). */
__device__ __forceinline__ uint32_t ballot_count(ballot_chunk &c, uint32_t wlo, uint32_t whi, uint32_t lane,
                                                 uint32_t nb)
{
    const uint32_t below = (1u << lane) - 1u, m = whi - wlo;
    uint32_t cnt = 0;
#pragma unroll
    for (int k = 0; k < BALLOT_ROUNDS; ++k) {
        const uint32_t r = (uint32_t)k * 32u;
        if (r >= m) break; /* warp-uniform */
        const uint32_t valid = m - r >= 32u ? 0xFFFFFFFFu : (1u << (m - r)) - 1u;
        uint32_t mine;
        const uint32_t oc = (uint32_t)__popc(ballot_masks(c.rec[k], valid, lane, &mine));
        c.rec[k] |= (uint32_t)__popc(mine & below) << 8 | oc << 16;
        cnt += oc;
    }
    return lane < nb ? cnt : 0u;
}

/* Moves a counted chunk: lane b's `run` is where the chunk's first record of bucket b goes. */
template <typename K>
__device__ __forceinline__ void ballot_write(const seg_params &p, const ballot_chunk &c, uint32_t wlo, uint32_t whi,
                                             uint32_t lane, uint32_t run)
{
    const uint32_t m = whi - wlo;
#pragma unroll
    for (int k = 0; k < BALLOT_ROUNDS; ++k) {
        const uint32_t r = (uint32_t)k * 32u;
        if (r >= m) break; /* warp-uniform */
        const uint32_t x = c.rec[k];
        const uint32_t dst = __shfl_sync(0xFFFFFFFFu, run, x & 0xFFu) + ((x >> 8) & 0xFFu);
        if (r + lane < m) {
            const uint32_t src = wlo + r + lane;
            if (p.keys_out) ((K *)p.keys_out)[dst] = __ldg((const K *)p.keys_in + src);
            if (p.vals_out) p.vals_out[dst] = c.val[k];
            if (p.gather) p.gather[dst] = src;
            if (p.scatter) p.scatter[src] = dst;
        }
        run += x >> 16;
    }
}

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

/* One warp splits segment s = [lo, hi) of at most BALLOT_WARP_RECORDS records in one pass. */
template <typename K>
__device__ __forceinline__ void ballot_warp_segment(const seg_params &p, uint32_t s, uint32_t lo, uint32_t hi,
                                                    uint32_t lane, uint32_t nb)
{
    ballot_chunk c;
    ballot_load<K>(p, lo, hi, lane, p.vals_out != nullptr, c);
    const uint32_t cnt = ballot_count(c, lo, hi, lane, nb);
    const uint32_t start = lo + warp_exclusive_sum(cnt, lane);
    if (p.bucket_offsets && lane < nb) p.bucket_offsets[(size_t)s * nb + lane] = start;
    ballot_write<K>(p, c, lo, hi, lane, start);
}

/* The end of the warp chunk starting at wlo < hi. */
__device__ __forceinline__ uint32_t ballot_chunk_end(uint32_t wlo, uint32_t hi)
{
    return hi - wlo > (uint32_t)BALLOT_WARP_RECORDS ? wlo + (uint32_t)BALLOT_WARP_RECORDS : hi;
}

/* One warp splits segment s = [lo, hi) of several chunks: a counting pass over the chunks, then
 * each chunk again (with its values), ranked and moved. */
template <typename K>
__device__ void ballot_warp_segment_chunks(const seg_params &p, uint32_t s, uint32_t lo, uint32_t hi, uint32_t lane,
                                           uint32_t nb)
{
    uint32_t cnt = 0;
    for (uint32_t wlo = lo; wlo < hi; wlo = ballot_chunk_end(wlo, hi)) {
        const uint32_t whi = ballot_chunk_end(wlo, hi);
        ballot_chunk c;
        ballot_load<K>(p, wlo, whi, lane, false, c);
        cnt += ballot_count(c, wlo, whi, lane, nb);
    }
    uint32_t run = lo + warp_exclusive_sum(cnt, lane);
    if (p.bucket_offsets && lane < nb) p.bucket_offsets[(size_t)s * nb + lane] = run;
    for (uint32_t wlo = lo; wlo < hi; wlo = ballot_chunk_end(wlo, hi)) {
        const uint32_t whi = ballot_chunk_end(wlo, hi);
        ballot_chunk c;
        ballot_load<K>(p, wlo, whi, lane, p.vals_out != nullptr, c);
        const uint32_t n_chunk = ballot_count(c, wlo, whi, lane, nb);
        ballot_write<K>(p, c, wlo, whi, lane, run);
        run += n_chunk;
    }
}

struct ballot_smem {
    uint32_t counts[2][SEG_WARP_KERNEL_WARPS][32]; /* a block chunk's per-warp counts, by chunk parity */
    uint32_t big[SEG_BALLOT_BLOCK_LIST];           /* segments left to the whole block */
    uint32_t num_big;
};

/* Warp w's chunk of the block chunk starting `done` records into [lo, hi). */
__device__ __forceinline__ void ballot_warp_range(uint32_t lo, uint32_t hi, uint32_t done, uint32_t warp,
                                                  uint32_t &wlo, uint32_t &whi)
{
    const uint32_t m = hi - lo, at = done + warp * (uint32_t)BALLOT_WARP_RECORDS;
    wlo = at < m ? lo + at : hi;
    whi = hi - wlo > (uint32_t)BALLOT_WARP_RECORDS ? wlo + (uint32_t)BALLOT_WARP_RECORDS : hi;
}

/* The whole block splits segment s = [lo, hi) (block-uniform arguments): block chunks of
 * BALLOT_BLOCK_RECORDS records, warp w taking chunk w of each; per-warp counts meet in shared memory
 * and every warp derives the same bucket starts. One pass when the segment is one block chunk, else a
 * counting pass first. Ends with a barrier. */
template <typename K>
__device__ void ballot_block_segment(const seg_params &p, ballot_smem &sm, uint32_t s, uint32_t lo, uint32_t hi,
                                     uint32_t warp, uint32_t lane, uint32_t nb)
{
    const uint32_t m = hi - lo;
    const bool multi = m > (uint32_t)BALLOT_BLOCK_RECORDS;
    uint32_t base = 0; /* lane b: start of bucket b's records not yet placed (the same in every warp) */
    if (multi) {
        uint32_t cnt = 0;
        for (uint32_t done = 0; done < m; done += BALLOT_BLOCK_RECORDS) {
            uint32_t wlo, whi;
            ballot_warp_range(lo, hi, done, warp, wlo, whi);
            ballot_chunk c;
            ballot_load<K>(p, wlo, whi, lane, false, c);
            cnt += ballot_count(c, wlo, whi, lane, nb);
        }
        sm.counts[1][warp][lane] = cnt;
        __syncthreads();
        uint32_t tot = 0;
#pragma unroll
        for (int w = 0; w < SEG_WARP_KERNEL_WARPS; ++w) tot += sm.counts[1][w][lane];
        base = lo + warp_exclusive_sum(tot, lane);
    }
    /* chunk j writes counts[j & 1]: the barrier of chunk j - 1 (or the counting pass) lies between
     * it and every read of that buffer before */
    uint32_t j = 0;
    for (uint32_t done = 0; done < m; done += BALLOT_BLOCK_RECORDS, ++j) {
        uint32_t wlo, whi;
        ballot_warp_range(lo, hi, done, warp, wlo, whi);
        ballot_chunk c;
        ballot_load<K>(p, wlo, whi, lane, p.vals_out != nullptr, c);
        const uint32_t cnt = ballot_count(c, wlo, whi, lane, nb);
        uint32_t(*cs)[32] = sm.counts[j & 1u];
        cs[warp][lane] = cnt;
        __syncthreads();
        uint32_t before = 0, tot = 0;
#pragma unroll
        for (int w = 0; w < SEG_WARP_KERNEL_WARPS; ++w) {
            const uint32_t v = cs[w][lane];
            before += (uint32_t)w < warp ? v : 0u;
            tot += v;
        }
        if (!multi) base = lo + warp_exclusive_sum(tot, lane);
        if (j == 0 && warp == 0 && p.bucket_offsets && lane < nb) p.bucket_offsets[(size_t)s * nb + lane] = base;
        ballot_write<K>(p, c, wlo, whi, lane, base + before);
        base += tot;
    }
    __syncthreads(); /* the next block-path segment reuses the counts */
}

/* B <= 32: every warp of the grid takes segments warp, warp + W, ... (W warps in all; no barrier
 * between them). A segment of one chunk the warp splits in one pass, one of up to
 * SEG_BALLOT_WARP_MAX_RECORDS in two; larger ones up to SEG_BALLOT_MAX_RECORDS go to the block's list
 * (the warp splits them itself when the list is full) and the whole block splits them at the end;
 * larger still go to the work lists. */
template <typename K>
__global__ void __launch_bounds__(SEG_WARP_KERNEL_WARPS * 32, SEG_BALLOT_BLOCKS_PER_SM) seg_ballot_kernel(seg_params p)
{
    __shared__ ballot_smem sm;
    const uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const uint32_t nb = p.r.num_buckets, count = seg_count(p);
    if (blockIdx.x == 0 && threadIdx.x == 0 && p.bucket_offsets) p.bucket_offsets[(size_t)p.S * nb] = count;
    if (threadIdx.x == 0) sm.num_big = 0;
    __syncthreads();
    const size_t stride = (size_t)gridDim.x * SEG_WARP_KERNEL_WARPS;
    for (size_t s = (size_t)blockIdx.x * SEG_WARP_KERNEL_WARPS + warp; s < p.S; s += stride) {
        uint32_t lo, hi;
        seg_bounds(p, count, (uint32_t)s, lo, hi);
        const uint32_t m = hi - lo;
        if (m <= (uint32_t)BALLOT_WARP_RECORDS) {
            ballot_warp_segment<K>(p, (uint32_t)s, lo, hi, lane, nb);
            continue;
        }
        bool chunks = m <= (uint32_t)SEG_BALLOT_WARP_MAX_RECORDS;
        if (!chunks && m <= (uint32_t)SEG_BALLOT_MAX_RECORDS) { /* to the block's list, or itself if full */
            uint32_t slot = 0;
            if (lane == 0) slot = atomicAdd(&sm.num_big, 1u);
            slot = __shfl_sync(0xFFFFFFFFu, slot, 0);
            if (slot < (uint32_t)SEG_BALLOT_BLOCK_LIST && lane == 0) sm.big[slot] = (uint32_t)s;
            chunks = slot >= (uint32_t)SEG_BALLOT_BLOCK_LIST;
        } else if (!chunks && lane == 0) {
            enqueue_large(p, (uint32_t)s, m);
        }
        if (chunks) ballot_warp_segment_chunks<K>(p, (uint32_t)s, lo, hi, lane, nb);
    }
    __syncthreads();
    const uint32_t num_big = min(sm.num_big, (uint32_t)SEG_BALLOT_BLOCK_LIST);
    for (uint32_t q = 0; q < num_big; ++q) {
        const uint32_t t = sm.big[q];
        uint32_t lo, hi;
        seg_bounds(p, count, t, lo, hi);
        ballot_block_segment<K>(p, sm, t, lo, hi, warp, lane, nb);
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
    const uint32_t h = p.tile_huge[t], s = p.huge_list[3 * h], first = p.huge_list[3 * h + 1];
    uint32_t begin, end;
    seg_bounds(p, records, s, begin, end);
    lo = begin + (t - first) * (uint32_t)SEG_HUGE_TILE;
    hi = min(end, lo + (uint32_t)SEG_HUGE_TILE);
}

/* Huge segment h, once all its tiles are counted: tile_base columns become absolute starts, bucket
 * offsets written. tile_base is read through L2 (__ldcg): other blocks wrote it in this launch. */
__device__ void huge_scan_segment(const seg_params &p, block_smem &sm, uint32_t records, uint32_t h)
{
    const uint32_t tid = threadIdx.x, nb = p.r.num_buckets;
    const uint32_t s = p.huge_list[3 * h], first = p.huge_list[3 * h + 1], tiles = p.huge_list[3 * h + 2];
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
    const uint32_t tid = threadIdx.x, nb = p.r.num_buckets;
    const uint32_t medium = *(volatile uint32_t *)&p.counters[0], tiles = *(volatile uint32_t *)&p.counters[2];
    const uint32_t records = seg_count(p);
    for (uint32_t w = blockIdx.x; w < medium + tiles; w += gridDim.x) {
        if (w < medium) {
            medium_segment<K>(p, sm, records, p.medium_list[w]);
            continue;
        }
        const uint32_t t = w - medium, h = p.tile_huge[t];
        uint32_t lo, hi;
        huge_tile_range(p, records, t, lo, hi);
        for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS) sm.run[b] = 0;
        __syncthreads();
        for (uint32_t i = lo + tid; i < hi; i += SEG_BLOCK_THREADS) atomicAdd(&sm.run[bucket_of<K>(p, i)], 1u);
        __syncthreads();
        for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS) p.tile_base[(size_t)t * nb + b] = sm.run[b];
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
    const uint32_t tiles = *(volatile uint32_t *)&p.counters[2], records = seg_count(p);
    for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        uint32_t lo, hi;
        huge_tile_range(p, records, t, lo, hi);
        for (uint32_t b = tid; b < nb; b += SEG_BLOCK_THREADS)
            sm.base[b] = p.tile_base[(size_t)t * nb + b], sm.run[b] = 0;
        __syncthreads();
        block_range<K>(p, sm, lo, hi);
    }
}

size_t align_up(size_t x) { return (x + SEG_TEMP_ALIGN - 1) / SEG_TEMP_ALIGN * SEG_TEMP_ALIGN; }

/* Capacities of the work lists, from n and S alone. */
struct seg_layout {
    size_t medium_cap, huge_cap, tile_cap;
    size_t off_medium, off_huge, off_huge_done, off_tile_huge, off_tile_base, total;
};

seg_layout make_layout(size_t n, size_t S, uint32_t nb)
{
    seg_layout l;
    l.medium_cap = n / (SEG_WARP_MAX_RECORDS + 1);
    if (l.medium_cap > S) l.medium_cap = S;
    l.huge_cap = n / (SEG_BLOCK_MAX_RECORDS + 1);
    if (l.huge_cap > S) l.huge_cap = S;
    l.tile_cap = n / SEG_HUGE_TILE + l.huge_cap; /* sum of ceil(m / tile) over huge segments */
    size_t at = align_up(4 * sizeof(uint32_t));
    l.off_medium = at;
    at += align_up((l.medium_cap + 1) * sizeof(uint32_t));
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

/* With B <= SEG_BALLOT_MAX_BUCKETS the ballot kernel splits every segment up to
 * SEG_BALLOT_MAX_RECORDS itself: the medium list then stays empty. */
constexpr bool ballot_takes_medium = SEG_BALLOT_MAX_RECORDS >= SEG_BLOCK_MAX_RECORDS;

template <typename K>
sc_status launch_all(const seg_params &p, const seg_layout &l, cudaStream_t stream)
{
    const bool ballot = p.r.num_buckets <= SEG_BALLOT_MAX_BUCKETS;
    int dev = 0, sms = 0;
    SC_CUDA_CHECK(cudaGetDevice(&dev));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (sms < 1) sms = 1;
    size_t warp_blocks = ((size_t)p.S + SEG_WARP_KERNEL_WARPS - 1) / SEG_WARP_KERNEL_WARPS;
    if (ballot) {
        /* the blocks the device holds at once, each warp looping over its segments */
        const uint32_t grid = grid_for(warp_blocks, (size_t)sms * SEG_BALLOT_BLOCKS_PER_SM);
        seg_ballot_kernel<K><<<grid, SEG_WARP_KERNEL_WARPS * 32, 0, stream>>>(p);
        SC_CUDA_CHECK_LAUNCH("seg_ballot_kernel");
    } else {
        seg_warp_kernel<K><<<grid_for(warp_blocks, SEG_WARP_MAX_GRID), SEG_WARP_KERNEL_WARPS * 32, 0, stream>>>(p);
        SC_CUDA_CHECK_LAUNCH("seg_warp_kernel");
    }
    const size_t medium_items = ballot && ballot_takes_medium ? 0 : l.medium_cap;
    const size_t large_items = medium_items + (l.huge_cap > 0 ? l.tile_cap : 0);
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

} // namespace

extern "C" sc_status split_segmented(void *temp, size_t *temp_bytes, const split_desc *d, cudaStream_t stream)
{
    static const char who[] = "split_segmented";
    SC_TRY(split_validate_temp_arg(temp_bytes, who));
    split_checked c;
    SC_TRY(split_validate_desc(d, SPLIT_ENTRY_SEGMENTED, temp != NULL, who, &c));
    const uint32_t nb = c.num_buckets;
    const seg_layout l = make_layout(d->n, d->num_segments, nb);
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
    p.r.start_bit = d->buckets.start_bit;
    p.r.bit_mask = ((uint64_t)1 << d->buckets.bit_count) - 1u;
    p.r.bucket_ids = d->buckets.bucket_ids;
    p.r.range_base = d->buckets.range_base;
    p.r.range_delta = d->buckets.range_delta;
    p.r.boundaries = d->buckets.boundaries;
    char *t = (char *)temp;
    p.counters = (uint32_t *)t;
    p.medium_list = (uint32_t *)(t + l.off_medium);
    p.huge_list = (uint32_t *)(t + l.off_huge);
    p.tile_huge = (uint32_t *)(t + l.off_tile_huge);
    p.huge_done = (uint32_t *)(t + l.off_huge_done);
    p.tile_base = (uint32_t *)(t + l.off_tile_base);
    SC_CUDA_CHECK(cudaMemsetAsync(p.counters, 0, 4 * sizeof(uint32_t), stream));
    if (d->key_type == SPLIT_KEY_U32) return launch_all<uint32_t>(p, l, stream);
    return launch_all<uint64_t>(p, l, stream);
}
