/* lookback_kernel.cuh - the scatter kernel of tile order (internal, CUDA device code): every split that moves
 * records into B <= SPLIT_LOOKBACK_MAX_BUCKETS buckets, every rule, 32- and 64-bit keys, any outputs.
 *
 * Blocks of SPLIT_LB_THREADS threads take tiles (split_lb_tile records) in input order from a counter
 * (split_kernel_params.tile_counter), so each bucket's output grows at one front. The kernels that move
 * a payload first scan the count table themselves (split_lb_scan_table), instead of a table scan
 * launch before them. Per tile:
 *  1. load: warp w takes the w-th slice of the tile in ITEMS rounds of 32 consecutive records
 *     (coalesced; the (warp, round, lane) order is the input order, which makes the ranking stable);
 *     with tile rows, thread b loads bucket b's global start in the tile; loaded once the previous
 *     tile is written, or (key-only splits ranked by ballots) once it is staged (AHEAD);
 *  2. rank inside the warp: B <= SPLIT_LB_BALLOT_MAX_BUCKETS: NB ballots over the bucket bits give lane
 *     L the round's lanes of bucket L, one shuffle of that mask gives each record its peers, and lane
 *     L counts bucket L in a register (s_wc[warp][L] at the end; B = 33 .. 64: the lanes whose bucket's
 *     low five bits are L, split by a sixth ballot, and buckets L and L + 32 in two 16-bit halves of
 *     the register); above: the round's lanes of lane 0's
 *     bucket find each other by a ballot, the others by a shared atomicOr of lane bits into
 *     s_match[warp][bucket], and the warp's counter s_wc[warp][bucket] gives the records before them;
 *     the BITS rule keeps two ranks to a register and recomputes the bucket from the key;
 *  3. offsets (thread t owns bucket t): the tile's count of bucket t over the warps, the block's scan
 *     of the counts (tile-local starts), s_wc becomes each warp's tile-local start per bucket; the
 *     global start comes from the tile rows or, with given totals, by publishing the count at once
 *     (SPLIT_LB_AGGREGATE), looking back over the earlier tiles' status words and publishing the
 *     inclusive count (SPLIT_LB_INCLUSIVE);
 *  4. the tile is reordered in shared memory by its local positions and written out position by
 *     position, so each bucket's run goes to consecutive addresses (its global start + local position);
 *     the bucket of a staged record is recomputed from its key (BITS rule) or staged with it (one
 *     byte). One payload stream (the gather index or the values, SPLIT_LB_OUT_PAYLOADS) is loaded
 *     after the tile is staged and staged again over the keys' local positions once the keys are
 *     written; with more outputs (SPLIT_LB_OUT_ANY) stream 0 is loaded before the ranking and written
 *     with the keys, and further streams are read by each staged record's tile index.
 * Compared with the general kernel (multisplit_kernels.cuh, B > SPLIT_LOOKBACK_MAX_BUCKETS) the tiles
 * are two to three times as large, whole tiles run without per-record tests, and the bucket of a
 * staged key is not stored twice. */
#ifndef SPLIT_LOOKBACK_KERNEL_CUH
#define SPLIT_LOOKBACK_KERNEL_CUH

#include <type_traits>

#include "sc_cuda_arch.h"
#include "table_scan_block.cuh"

/* Look-back status words (split_kernel_params.tile_status): a 30-bit count and a flag; 0 = not yet
 * published. Relaxed device-scope accesses: the count and its flag travel in one word. */
#define SPLIT_LB_AGGREGATE 0x40000000u /* the tile's own count */
#define SPLIT_LB_INCLUSIVE 0x80000000u /* the sum over this tile and all before it */
#define SPLIT_LB_VALUE 0x3FFFFFFFu

/* Sum of bucket j's counts over the tiles before `tile` (spins until each tile it needs has
 * published; a tile publishes its aggregate before it looks back, so no wait is circular). A word at
 * a time: loading several at once costs registers in every kernel, also those that never look back. */
__device__ inline uint32_t split_lb_exclusive(const uint32_t *status, uint32_t tile, uint32_t nb, uint32_t j)
{
    uint32_t excl = 0;
    for (uint32_t t = tile; t-- > 0;) {
        const uint32_t *w = status + (size_t)t * nb + j;
        uint32_t s = split_load_relaxed(w);
        while (s == 0) s = split_load_relaxed(w);
        excl += s & SPLIT_LB_VALUE;
        if (s & SPLIT_LB_INCLUSIVE) break;
    }
    return excl;
}

typedef split_scan_chunk_smem<SPLIT_LB_THREADS, SPLIT_LB_SCAN_ROWS> split_lb_scan_smem;

/* The table scan (split_kernel_params.scan_claim): the block takes chunks from *scan_claim and scans
 * them until none is left, so every chunk a tile waits for belongs to a running block; each chunk's
 * offsets are written before it counts itself done. */
__device__ __forceinline__ void split_lb_scan_table(const split_kernel_params &p, split_lb_scan_smem &s, uint32_t *s_slot)
{
    for (;;) {
        if (threadIdx.x == 0) *s_slot = atomicAdd(p.scan_claim, 1u);
        __syncthreads();
        const uint32_t chunk = *s_slot;
        if (chunk >= p.scan_chunks) {
            __syncthreads(); /* read by every thread before thread 0 writes *s_slot again (a tile) */
            return;
        }
        split_scan_chunk<SPLIT_LB_THREADS, SPLIT_LB_SCAN_ROWS>(p.scan_in, p.scan_out, p.count_cols * p.rule.num_buckets,
                                                               p.scan_status, chunk, p.scan_chunks, s);
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) atomicAdd(p.scan_done, 1u);
    }
}

/* Dynamic shared memory of the tile-order kernel (byte offsets; same code on host and device). */
typedef struct split_lb_layout {
    uint32_t bounds, goff, scratch, match, wc; /* rule table, per-bucket offsets, scan, per-warp words */
    uint32_t table_scan;                       /* split_scan_chunk's (the table scanned here) */
    uint32_t key, pay, orig, bkt;              /* staged tile */
    uint32_t total;
} split_lb_layout;

/* Nonzero when the kernel recomputes a staged record's bucket from its key instead of staging it. */
template <typename KeyT, int RULE>
__host__ __device__ inline bool split_lb_recompute(int keys_out)
{
    return RULE == SPLIT_BUCKETS_BITS && keys_out;
}

/* Records per thread and per tile, by key type, outputs (SPLIT_LB_OUT_*) and ranking; registers decide
 * (split_tuning.h): key-only splits ranked by ballots run more blocks per SM of
 * fewer records; one payload stream is loaded after the ranking, so it costs few records or none;
 * several streams or the scatter index hold registers through the ranking, so fewer. */
/* The 32-bit key-only kernels ranked by ballots: fewer registers, so more blocks per SM of smaller
 * tiles, and they take tiles one ahead (the kernel's tile loop) when they have tile rows; looking back
 * over given totals (look) they take the tiles of the other key-only kernels, as fewer tiles wait less
 * on each other (the second pass of a two-pass split, SPLIT_TWO_PASS_HIGH_BITS). */
__host__ __device__ constexpr bool split_lb_ahead(bool key64, int out, bool ballots)
{
    return !key64 && out == SPLIT_LB_OUT_KEYS && ballots;
}

__host__ __device__ constexpr uint32_t split_lb_items(bool key64, int out, bool ballots, bool look)
{
    return key64 ? (out == SPLIT_LB_OUT_ANY ? SPLIT_LB_ITEMS_ANY64
                   : out == SPLIT_LB_OUT_PAYLOADS ? SPLIT_LB_ITEMS_PAIRS64
                                                  : SPLIT_LB_ITEMS_KEYS64)
           : out == SPLIT_LB_OUT_ANY ? SPLIT_LB_ITEMS_ANY
           : out == SPLIT_LB_OUT_PAYLOADS ? (ballots ? SPLIT_LB_ITEMS_PAIRS_BALLOTS : SPLIT_LB_ITEMS_PAIRS)
           : ballots ? (look ? SPLIT_LB_ITEMS_LOOK : SPLIT_LB_ITEMS_BALLOTS)
                     : SPLIT_LB_ITEMS;
}
__host__ __device__ constexpr uint32_t split_lb_tile(bool key64, int out, bool ballots, bool look)
{
    return split_lb_items(key64, out, ballots, look) * SPLIT_LB_THREADS;
}

/* Blocks per SM. */
__host__ __device__ constexpr int split_lb_blocks_per_sm(bool key64, int out, bool ballots, bool look)
{
    return split_lb_ahead(key64, out, ballots) && !look ? SPLIT_LB_BLOCKS_PER_SM_BALLOTS : SPLIT_LB_BLOCKS_PER_SM;
}

template <typename KeyT, int RULE>
__host__ __device__ inline split_lb_layout split_lb_layout_of(uint32_t nb, int keys_out, uint32_t payloads, uint32_t tile)
{
    split_lb_layout L;
    uint32_t o = 0;
    L.bounds = split_carve(o, split_rule_smem_bytes<KeyT, RULE>(nb));
    L.goff = split_carve(o, nb * 4);
    L.scratch = split_carve(o, SPLIT_WARP_LANES * 4);
    L.match = split_carve(o, SPLIT_LB_WARPS * nb * 4);
    L.wc = split_carve(o, SPLIT_LB_WARPS * nb * 4);
    L.table_scan = split_carve(o, (uint32_t)sizeof(split_lb_scan_smem));
    L.key = split_carve(o, keys_out ? tile * (uint32_t)sizeof(KeyT) : 0);
    L.pay = split_carve(o, payloads ? tile * 4 : 0);
    L.orig = split_carve(o, payloads > 1 ? tile * 2 : 0);
    L.bkt = split_carve(o, split_lb_recompute<KeyT, RULE>(keys_out) ? 0 : tile);
    L.total = o;
    return L;
}

/* The kernel's phases (numbered 1 to 4 above) are __device__ __forceinline__ free functions. They take
 * the kernel's locals by reference (const references for its scalars and pointers, as its lambdas
 * captured them when it was one function), its register arrays (keys, ranks, payloads) as references
 * to the same arrays, and the per-tile helpers (the bucket of a round, keeping its rank) as closures
 * over the tile's locals: so every instantiation compiles to the same registers, spills and code as
 * the single function did. Taken by value, the runtime has_pay, num_payloads and recompute let the
 * optimizer restructure the SPLIT_LB_OUT_ANY kernels (other spills in 14 of them); a per-block state
 * struct with member functions spilled more in about half of the instantiations. */

/* A table offset: PAY kernels read it through L2 (the table is scanned in this launch). */
template <bool PAY>
__device__ __forceinline__ uint32_t split_lb_table_offset(const split_kernel_params &p, size_t i)
{
    return PAY ? __ldcg(p.table_offsets + i) : p.table_offsets[i];
}

/* Payload stream q of record i of the tile (q = 0 is the gather index when it is asked for). */
__device__ __forceinline__ const uint32_t *split_lb_payload_in(const split_kernel_params &p, const uint32_t *gather_index,
                                                               uint32_t q, uint64_t i)
{
    if (gather_index) --q; /* q = 0: the gather index, not read from memory */
    return p.values_in[q] + i;
}
__device__ __forceinline__ uint32_t *split_lb_payload_out(const split_kernel_params &p, uint32_t *gather_index, uint32_t q)
{
    if (gather_index) {
        if (q == 0) return gather_index;
        --q;
    }
    return p.values_out[q];
}

/* 1 (LOOK): the tile's bucket counts, a shared atomic a record into s_goff (cleared before the
 * barrier), published at once, so the tiles after it wait less for them (the ranking gives them only at
 * its end). Compiled into the LOOK kernels alone: its code slows the others even where it never runs. */
template <int ITEMS, bool FULL, bool PACK, int BW, typename BucketAt>
__device__ __forceinline__ void split_lb_publish_count(const BucketAt &bucket_at, const uint32_t (&bw)[BW],
                                                       uint32_t *const &s_goff, uint32_t *const &status, const uint32_t &tile,
                                                       const uint32_t &nb, const uint32_t &tid)
{
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        const uint32_t b = PACK ? bucket_at(r) : bw[r];
        if (FULL || b != SPLIT_NO_BUCKET) atomicAdd(&s_goff[b], 1u);
    }
    __syncthreads();
    if (tid < nb) split_store_relaxed(status + (size_t)tile * nb + tid, (tile ? SPLIT_LB_AGGREGATE : SPLIT_LB_INCLUSIVE) | s_goff[tid]);
}

/* 2. Rank inside the warp: NB ballots (NB > 0) or the shared atomicOr match (NB == 0); each round's
 * rank kept by keep_rank, the warp's counts left in s_wc[warp][bucket]. */
template <typename KeyT, int RULE, int NB, int ITEMS, bool FULL, int NBM, int BW, typename BucketAt, typename KeepRank>
__device__ __forceinline__ void split_lb_rank(const BucketAt &bucket_at, const KeepRank &keep_rank, const KeyT (&key)[ITEMS],
                                              const uint32_t (&bw)[BW], const uint32_t (&bit_tests)[NBM],
                                              const uint32_t (&lane_masks)[NBM], uint32_t *const &s_match,
                                              uint32_t *const &s_wc, const uint32_t &nb, const uint32_t &lane,
                                              const uint32_t &warp, const uint32_t &lt)
{
    constexpr bool PACK = RULE == SPLIT_BUCKETS_BITS, HI = NB == 6;
    constexpr bool KEY_BITS = RULE == SPLIT_BUCKETS_BITS && sizeof(KeyT) == 4;
    uint32_t lane_count = 0;
#pragma unroll
    for (int r = 0; r < ITEMS && NB > 0; ++r) {
        const uint32_t b = PACK ? bucket_at(r) : bw[r];
        const bool valid = FULL || b != SPLIT_NO_BUCKET;
        const uint32_t valid_mask = FULL ? SPLIT_FULL_MASK : __ballot_sync(SPLIT_FULL_MASK, valid);
        const uint32_t x = KEY_BITS ? (uint32_t)key[r] : b;
        const uint32_t lanes = split_match_lane<HI ? 5 : NBM>(x, bit_tests, valid_mask, lane_masks);
        if constexpr (HI) {
            const bool up = (x & bit_tests[5]) != 0u;
            const uint32_t ups = __ballot_sync(SPLIT_FULL_MASK, up);
            const uint32_t src = valid ? b & 31u : 0u;
            const uint32_t before = __shfl_sync(SPLIT_FULL_MASK, lane_count, src);
            const uint32_t mine = __shfl_sync(SPLIT_FULL_MASK, lanes, src) & (up ? ups : ~ups);
            const uint32_t n_up = __popc(lanes & ups);
            lane_count += __popc(lanes) - n_up + (n_up << 16);
            keep_rank(r, b, (up ? before >> 16 : before & 0xFFFFu) + __popc(mine & lt));
        } else {
            const uint32_t src = valid ? b : 0u;
            const uint32_t before = __shfl_sync(SPLIT_FULL_MASK, lane_count, src);
            const uint32_t mine = __shfl_sync(SPLIT_FULL_MASK, lanes, src);
            lane_count += __popc(lanes);
            keep_rank(r, b, before + __popc(mine & lt));
        }
    }
    if (NB > 0 && lane < nb) s_wc[warp * nb + lane] = HI ? lane_count & 0xFFFFu : lane_count;
    if (HI && lane + 32u < nb) s_wc[warp * nb + lane + 32u] = lane_count >> 16;
#pragma unroll
    for (int r = 0; r < ITEMS && NB == 0; ++r) {
        const uint32_t b = PACK ? bucket_at(r) : bw[r];
        const bool valid = FULL || b != SPLIT_NO_BUCKET;
        keep_rank(r, b, split_rank_atomic_or(b, valid, FULL, s_match + warp * nb, s_wc + warp * nb, lane, lt));
    }
}

/* 3. Offsets: thread t owns bucket t; s_wc becomes each warp's tile-local start, s_goff the global
 * start minus the local one (from the tile rows: goff_in (AH) or s_goff; else looking back). */
template <bool PAY, bool LOOK, bool AH>
__device__ __forceinline__ void split_lb_offsets(const split_kernel_params &p, uint32_t *const &s_goff,
                                                 uint32_t *const &s_scratch, uint32_t *const &s_wc, uint32_t *const &status,
                                                 const uint32_t *const &rows, const uint32_t &tile, const uint32_t &goff_in,
                                                 const uint32_t &nb, const uint32_t &tid, const uint32_t &lane,
                                                 const uint32_t &warp)
{
    const bool owner = tid < nb;
    uint32_t count = 0;
    if (owner) {
#pragma unroll
        for (uint32_t w = 0; w < SPLIT_LB_WARPS; ++w) count += s_wc[w * nb + tid];
        /* Published before the scan and the look-back, so later tiles find it early. */
        if (!LOOK && !rows) split_store_relaxed(status + (size_t)tile * nb + tid, (tile ? SPLIT_LB_AGGREGATE : SPLIT_LB_INCLUSIVE) | count);
    }
    const uint32_t local = split_block_exclusive_sum(count, s_scratch, lane, warp);
    if (owner) {
        split_warp_starts<SPLIT_LB_WARPS>(s_wc + tid, nb, local);
        if (rows) {
            s_goff[tid] = (AH ? goff_in : s_goff[tid]) - local;
        } else {
            const uint32_t excl = split_lb_exclusive(status, tile, nb, tid);
            if (tile) split_store_relaxed(status + (size_t)tile * nb + tid, SPLIT_LB_INCLUSIVE | (excl + count));
            s_goff[tid] = split_lb_table_offset<PAY>(p, (size_t)tid * p.count_cols) + excl - local;
        }
    }
}

/* 4. Local positions; the scatter index straight from them; stage the tile. LATE: the local positions
 * two to a register in lp16 (16 bits each, 0xFFFF past the end), kept for staging the payload after
 * the keys are written. */
template <typename KeyT, int RULE, int OUT, int ITEMS, bool FULL, int BW, int LP, typename BucketAt>
__device__ __forceinline__ void split_lb_stage(const BucketAt &bucket_at, const KeyT (&key)[ITEMS], const uint32_t (&bw)[BW],
                                               const uint32_t (&pay0)[ITEMS], uint32_t (&lp16)[LP], KeyT *const &s_key,
                                               uint32_t *const &s_pay, uint8_t *const &s_bkt, uint16_t *const &s_orig,
                                               const uint32_t *const &s_wc, const uint32_t *const &s_goff,
                                               KeyT *const &keys_out, uint32_t *const &scatter_index, const uint64_t &tile_base,
                                               const bool &recompute, const bool &has_pay, const uint32_t &num_payloads,
                                               const uint32_t &nb, const uint32_t &wbase, const uint32_t &lane,
                                               const uint32_t &warp)
{
    constexpr bool PACK = RULE == SPLIT_BUCKETS_BITS, LATE = OUT == SPLIT_LB_OUT_PAYLOADS, SIDX = OUT == SPLIT_LB_OUT_ANY;
    uint32_t lpos[ITEMS];
#pragma unroll
    for (int r = 0; r < (ITEMS + 1) / 2; ++r) lp16[r] = 0u;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        const uint32_t b = PACK ? bucket_at(r) : bw[r] & 0xFFFFu;
        if (!FULL && (PACK ? b : bw[r]) == SPLIT_NO_BUCKET) {
            lpos[r] = SPLIT_NO_POS;
            if (LATE) lp16[r >> 1] |= 0xFFFFu << ((r & 1) * 16);
            continue;
        }
        lpos[r] = s_wc[warp * nb + b] + (PACK ? (bw[r >> 1] >> ((r & 1) * 16)) & 0xFFFFu : bw[r] >> 16);
        if (LATE) lp16[r >> 1] |= lpos[r] << ((r & 1) * 16);
        if (keys_out) s_key[lpos[r]] = key[r];
        if (!recompute) s_bkt[lpos[r]] = (uint8_t)b;
        if (has_pay && !LATE) s_pay[lpos[r]] = pay0[r];
        if (has_pay && num_payloads > 1) s_orig[lpos[r]] = (uint16_t)(wbase + (uint32_t)r * 32u + lane);
    }
    if (SIDX && scatter_index) {
        uint32_t *const sidx = scatter_index + tile_base + wbase + lane;
#pragma unroll
        for (int r = 0; r < ITEMS; ++r)
            if (FULL || lpos[r] != SPLIT_NO_POS) sidx[r * 32] = s_goff[PACK ? bucket_at(r) : bw[r] & 0xFFFFu] + lpos[r];
    }
}

/* Write the staged tile: staged record j goes to its bucket's global start minus the bucket's local
 * start, plus j. K: keys staged (then recompute is RULE == BITS), WK: keys written; P: a payload
 * written to pout, staged (s_pay[j]) or, FROM_TILE, read from the tile's input pin by the record's tile
 * index s_orig[j]. LATE, BITS rule (SLOT): the keys' pass (SAVE) leaves each staged record's
 * destination in the first 32-bit word of its key's slot, and the payload pass that would recompute the
 * bucket from the staged key (DST) reads that word instead (a 32-bit access for 64-bit keys too). */
template <typename KeyT, int RULE, int OUT, int ITEMS, bool FULL, bool K, bool WK, bool P, bool FROM_TILE>
__device__ __forceinline__ void split_lb_write(const split_kernel_params &p, const KeyT *const &s_bounds, KeyT *const &s_key,
                                               const uint32_t *const &s_pay, const uint8_t *const &s_bkt,
                                               const uint16_t *const &s_orig, const uint32_t *const &s_goff,
                                               KeyT *const &keys_out, uint32_t *const &pout, const uint32_t *const &pin,
                                               const uint32_t &sb, const uint32_t &mask, const uint32_t &tid,
                                               const uint32_t &tile_n)
{
    constexpr bool PAY = OUT != SPLIT_LB_OUT_KEYS, LATE = OUT == SPLIT_LB_OUT_PAYLOADS;
    constexpr bool SLOT = LATE && RULE == SPLIT_BUCKETS_BITS;
    constexpr bool SAVE = SLOT && WK && !P, DST = SLOT && K && !WK && P && !FROM_TILE;
    constexpr uint32_t SLOT_WORDS = sizeof(KeyT) / 4;
#pragma unroll(PAY || sizeof(KeyT) == 8 ? ITEMS : SPLIT_LB_KEYS_WRITE_UNROLL)
    for (int k = 0; k < ITEMS; ++k) {
        const uint32_t j = tid + (uint32_t)k * SPLIT_LB_THREADS;
        if (!FULL && j >= tile_n) break;
        KeyT kv = (KeyT)0;
        if (K && !DST) kv = s_key[j];
        uint32_t d;
        if (DST) {
            d = ((const uint32_t *)s_key)[j * SLOT_WORDS];
        } else {
            const uint32_t b = RULE == SPLIT_BUCKETS_BITS && K ? split_bucket_fast<KeyT, RULE>(p.rule, sb, mask, kv, 0, s_bounds)
                                                               : (uint32_t)s_bkt[j];
            d = s_goff[b] + j;
        }
        if (WK) keys_out[d] = kv;
        if (SAVE) ((uint32_t *)s_key)[j * SLOT_WORDS] = d; /* read again by this thread only (DST) */
        if (P) pout[d] = FROM_TILE ? pin[s_orig[j]] : s_pay[j];
    }
}

/* 4 (after the barrier). The staged tile written out: LATE (one payload stream): the keys, then the
 * payload staged over its local positions and written where its key went (BITS rule: the destination
 * the keys' pass left in the key's slot, a 32-bit word for 64-bit keys too, which saves the bucket and
 * its offset's shared-memory read; else the bucket again from the staged key or byte). Payload streams
 * 1..: staged record j reads its value from the tile (by its tile index; the tile's few kilobytes stay
 * in cache) and writes it where its key went; no local position is kept in registers for them. */
template <typename KeyT, int RULE, int OUT, int ITEMS, bool FULL, int LP>
__device__ __forceinline__ void split_lb_write_tile(const split_kernel_params &p, const uint32_t (&pay0)[ITEMS],
                                                    const uint32_t (&lp16)[LP], const KeyT *const &s_bounds, KeyT *const &s_key,
                                                    uint32_t *const &s_pay, const uint8_t *const &s_bkt,
                                                    const uint16_t *const &s_orig, const uint32_t *const &s_goff,
                                                    KeyT *const &keys_out, uint32_t *const &gather_index,
                                                    const uint64_t &tile_base, const bool &recompute, const bool &has_pay,
                                                    const uint32_t &num_payloads, const uint32_t &sb, const uint32_t &mask,
                                                    const uint32_t &tid, const uint32_t &tile_n)
{
    constexpr bool PAY = OUT != SPLIT_LB_OUT_KEYS, LATE = OUT == SPLIT_LB_OUT_PAYLOADS;
    /* K, WK, P, FROM_TILE as split_lb_write's, as std::true_type or std::false_type. */
    auto write = [&](auto k, auto wk, auto pt, auto ft, uint32_t *pout, const uint32_t *pin) {
        split_lb_write<KeyT, RULE, OUT, ITEMS, FULL, decltype(k)::value, decltype(wk)::value, decltype(pt)::value,
                       decltype(ft)::value>(p, s_bounds, s_key, s_pay, s_bkt, s_orig, s_goff, keys_out, pout, pin, sb, mask,
                                            tid, tile_n);
    };
    using T = std::true_type;
    using F = std::false_type;
    if (LATE && has_pay) {
        if (keys_out) write(T(), T(), F(), F(), (uint32_t *)NULL, (const uint32_t *)NULL);
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
            const uint32_t pos = (lp16[r >> 1] >> ((r & 1) * 16)) & 0xFFFFu;
            if (FULL || pos != 0xFFFFu) s_pay[pos] = pay0[r];
        }
        __syncthreads();
        if (recompute) write(T(), F(), T(), F(), split_lb_payload_out(p, gather_index, 0), (const uint32_t *)NULL);
        else write(F(), F(), T(), F(), split_lb_payload_out(p, gather_index, 0), (const uint32_t *)NULL);
    } else if (has_pay && keys_out) write(T(), T(), T(), F(), split_lb_payload_out(p, gather_index, 0), (const uint32_t *)NULL);
    else if (has_pay) write(F(), F(), T(), F(), split_lb_payload_out(p, gather_index, 0), (const uint32_t *)NULL);
    else if (keys_out) write(T(), T(), F(), F(), (uint32_t *)NULL, (const uint32_t *)NULL);
    for (uint32_t q = 1; PAY && q < num_payloads; ++q) {
        if (keys_out)
            write(T(), F(), T(), T(), split_lb_payload_out(p, gather_index, q), split_lb_payload_in(p, gather_index, q, tile_base));
        else
            write(F(), F(), T(), T(), split_lb_payload_out(p, gather_index, q), split_lb_payload_in(p, gather_index, q, tile_base));
    }
}

/* One tile, its keys loaded (key). AH (the AHEAD kernels' loop): claim is the next tile (thread 0),
 * passed on into next; that tile's keys and bucket tid's global start in it (goff_in) are loaded by
 * load_tile once this tile is staged. */
template <typename KeyT, int RULE, int OUT, int NB, bool LOOK, int ITEMS, bool FULL, bool AH, int NBM, typename LoadTile>
__device__ __forceinline__ void split_lb_tile(const split_kernel_params &p, const LoadTile &load_tile, const KeyT (&key)[ITEMS],
                                              uint32_t &next, const uint32_t &goff_in, const uint32_t (&bit_tests)[NBM],
                                              const uint32_t (&lane_masks)[NBM], const KeyT *const &s_bounds,
                                              uint32_t *const &s_goff, uint32_t *const &s_scratch, uint32_t *const &s_match,
                                              uint32_t *const &s_wc, KeyT *const &s_key, uint32_t *const &s_pay,
                                              uint8_t *const &s_bkt, uint16_t *const &s_orig, KeyT *const &keys_out,
                                              uint32_t *const &gather_index, uint32_t *const &scatter_index,
                                              uint32_t *const &status, const uint32_t *const &rows, const uint32_t &tile,
                                              const uint64_t &tile_base, const uint32_t &tile_n, const uint32_t &claim,
                                              const bool &has_pay, const bool &recompute, const uint32_t &num_payloads,
                                              const uint32_t &sb, const uint32_t &mask, const uint32_t &nb, const uint32_t &tid,
                                              const uint32_t &lane, const uint32_t &warp, const uint32_t &wbase,
                                              const uint32_t &lt)
{
    constexpr bool LATE = OUT == SPLIT_LB_OUT_PAYLOADS;
    /* 1. The keys are in flight. */
    if (NB == 0)
        for (uint32_t j = tid; j < SPLIT_LB_WARPS * nb; j += SPLIT_LB_THREADS) s_wc[j] = 0u;
    /* Bucket of round r's record (SPLIT_NO_BUCKET past the end). PACK (BITS rule): recomputed from the
     * key when needed, and the ranks kept two to a register (fewer registers). */
    constexpr bool PACK = RULE == SPLIT_BUCKETS_BITS;
    auto bucket_at = [&](int r) -> uint32_t {
        const uint32_t off = wbase + (uint32_t)r * 32u + lane;
        return FULL || off < tile_n ? split_bucket_fast<KeyT, RULE>(p.rule, sb, mask, key[r], tile_base + off, s_bounds)
                                    : SPLIT_NO_BUCKET;
    };
    /* !PACK: bucket | rank inside the warp's run << 16; PACK: rank of round 2i | rank of 2i + 1 << 16. */
    uint32_t bw[PACK ? (ITEMS + 1) / 2 : ITEMS];
#pragma unroll
    for (int r = 0; r < (int)(sizeof bw / sizeof bw[0]); ++r) bw[r] = PACK ? 0u : bucket_at(r);
    auto keep_rank = [&](int r, uint32_t b, uint32_t rank) {
        if (PACK) bw[r >> 1] |= rank << ((r & 1) * 16);
        else bw[r] = b == SPLIT_NO_BUCKET ? SPLIT_NO_BUCKET : (b | (rank << 16));
    };
    /* Payload stream 0 (coalesced, in input order). LATE (one payload stream): loaded after the tile is
     * staged, in flight through the barrier and the keys' writes, so the ranking holds no payload
     * registers (larger tiles; see SPLIT_LB_ITEMS_PAIRS); several streams or the scatter index
     * (SPLIT_LB_OUT_ANY): before the ranking, overlapping it. */
    uint32_t pay0[ITEMS];
    auto load_pay0 = [&]() {
        split_load_payload_slice<ITEMS, FULL>(gather_index ? NULL : p.values_in[0], tile_base, wbase, lane, tile_n, pay0);
    };
    if (has_pay && !LATE) load_pay0();
    if (LOOK && tid < nb) s_goff[tid] = 0u;
    __syncthreads(); /* counters cleared (and the boundaries loaded) */
    if (LOOK) split_lb_publish_count<ITEMS, FULL, PACK>(bucket_at, bw, s_goff, status, tile, nb, tid);

    /* 2. Rank inside the warp. */
    split_lb_rank<KeyT, RULE, NB, ITEMS, FULL>(bucket_at, keep_rank, key, bw, bit_tests, lane_masks, s_match, s_wc, nb, lane, warp,
                                               lt);
    if (AH && tid == 0) s_scratch[31] = claim;
    __syncthreads();
    if (AH) next = s_scratch[31];

    /* 3. Offsets. */
    split_lb_offsets<OUT != SPLIT_LB_OUT_KEYS, LOOK, AH>(p, s_goff, s_scratch, s_wc, status, rows, tile, goff_in, nb, tid, lane,
                                                         warp);
    __syncthreads();

    /* 4. Local positions, the scatter index, the staged tile; then written out. */
    uint32_t lp16[(ITEMS + 1) / 2];
    split_lb_stage<KeyT, RULE, OUT, ITEMS, FULL>(bucket_at, key, bw, pay0, lp16, s_key, s_pay, s_bkt, s_orig, s_wc, s_goff,
                                                 keys_out, scatter_index, tile_base, recompute, has_pay, num_payloads, nb,
                                                 wbase, lane, warp);
    if (has_pay && LATE) load_pay0(); /* in flight through the barrier and the keys' writes */
    if (AH && next < p.num_tiles) load_tile(next); /* the key registers are free */
    __syncthreads();
    split_lb_write_tile<KeyT, RULE, OUT, ITEMS, FULL>(p, pay0, lp16, s_bounds, s_key, s_pay, s_bkt, s_orig, s_goff, keys_out,
                                                      gather_index, tile_base, recompute, has_pay, num_payloads, sb, mask,
                                                      tid, tile_n);
}

/* OUT: the keys only (SPLIT_LB_OUT_KEYS), also one payload stream (the gather index or the values), or
 * anything (SPLIT_LB_OUT_ANY: the scatter index, several payload streams); compiled apart so the common
 * kernels keep no registers or shared memory for what they do not write.
 *
 * The next tile is taken once this one is written: thread 0 claims it from the counter and passes it
 * on through s_scratch[31] (the scan uses the first SPLIT_LB_WARPS words); its keys, and with tile rows
 * thread b's bucket b's global start in it, are loaded after that barrier. AHEAD (key-only splits
 * ranked by ballots; always with tile rows): the next tile is claimed while this one is ranked and
 * passed on before the barrier after the ranking, and its keys are loaded as soon as this tile is
 * staged, in flight through its writes; no barrier separates two tiles (each write to shared memory
 * below follows a barrier that the previous tile's reads of the same words precede: s_goff is written
 * after the scan's): the keys no longer wait at the first ballot. Payload splits and B = 256 take their
 * tiles after the writes (loading ahead holds registers they need), and so do the kernels looking back
 * over given totals (a tile claimed ahead would publish its counts a tile late, and the tiles after it
 * wait): with given totals these kernels are compiled again (LOOK) to take their tiles as the others
 * do. */
template <typename KeyT, int RULE, int OUT, int NB, bool LOOK>
__global__ void __launch_bounds__(SPLIT_LB_THREADS,
                                     SC_MIN_BLOCKS(SPLIT_LB_THREADS, split_lb_blocks_per_sm(sizeof(KeyT) == 8, OUT, NB > 0, LOOK)))
    split_lookback_kernel(split_kernel_params p)
{
    split_wait_prior_grids();
    constexpr bool PAY = OUT != SPLIT_LB_OUT_KEYS, SIDX = OUT == SPLIT_LB_OUT_ANY;
    /* Tiles taken one ahead (tile rows); LOOK: the kernel that would, looking back instead. */
    constexpr bool AHEAD = split_lb_ahead(sizeof(KeyT) == 8, OUT, NB > 0) && !LOOK;
    constexpr int ITEMS = (int)split_lb_items(sizeof(KeyT) == 8, OUT, NB > 0, LOOK);
    constexpr uint32_t TILE = ITEMS * SPLIT_LB_THREADS, WARP_ITEMS = (uint32_t)ITEMS * SPLIT_WARP_LANES;
    static_assert(SPLIT_LOOKBACK_MAX_BUCKETS <= SPLIT_LB_THREADS, "a thread per bucket in the offsets phase");
    static_assert(TILE < 65536, "ranks are kept in 16 bits");
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t nb = p.rule.num_buckets, tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    KeyT *const keys_out = (KeyT *)p.keys_out;
    uint32_t *const gather_index = p.gather_index;
    const uint32_t num_payloads = SIDX ? (gather_index ? 1u : 0u) + p.num_values : PAY ? 1u : 0u;
    const bool has_pay = PAY && num_payloads != 0;
    const split_lb_layout L = split_lb_layout_of<KeyT, RULE>(nb, keys_out != NULL, num_payloads, TILE);
    /* PAY kernels: the table scanned here first (scan_claim), before anything else holds registers;
     * its entries are read once every chunk is done. Key-only splits keep the table scan launch (its
     * code alone, never run, slows them). */
    if (PAY && p.scan_claim) {
        split_lb_scan_table(p, *(split_lb_scan_smem *)(smem + L.table_scan), (uint32_t *)(smem + L.scratch) + 31);
        split_wait_table(p);
    }
    KeyT *s_bounds = (KeyT *)(smem + L.bounds);
    uint32_t *s_goff = (uint32_t *)(smem + L.goff);
    uint32_t *s_scratch = (uint32_t *)(smem + L.scratch);
    uint32_t *s_match = (uint32_t *)(smem + L.match); /* [warp][bucket] lane bits, kept 0 between rounds */
    uint32_t *s_wc = (uint32_t *)(smem + L.wc);       /* [warp][bucket] counters, then tile-local starts */
    KeyT *s_key = (KeyT *)(smem + L.key);
    uint32_t *s_pay = (uint32_t *)(smem + L.pay);
    uint8_t *s_bkt = (uint8_t *)(smem + L.bkt);
    uint16_t *s_orig = (uint16_t *)(smem + L.orig); /* more than one payload stream: tile index of staged j */
    const KeyT *keys_in = (const KeyT *)p.keys_in;
    const uint32_t sb = p.rule.start_bit & 31u, mask = (uint32_t)p.rule.bit_mask;
    const bool recompute = split_lb_recompute<KeyT, RULE>(keys_out != NULL);
    uint32_t *const scatter_index = p.scatter_index;
    uint32_t *const status = p.tile_status;
    const uint32_t *const rows = p.tile_rows; /* NULL: look back over status */
    const uint32_t lt = split_lanemask_lt();
    const uint32_t wbase = warp * WARP_ITEMS;
    constexpr int NBM = NB > 0 ? NB : 1;
    uint32_t lane_masks[NBM], bit_tests[NBM];
    split_lane_masks<NBM>(lane, lane_masks);
    /* The ballots test the key's own bits with the BITS rule of 32-bit keys (no bucket needed); the
     * bucket's bits as immediate tests would save a register a bit but run slower. */
    constexpr bool KEY_BITS = RULE == SPLIT_BUCKETS_BITS && sizeof(KeyT) == 4;
    if (KEY_BITS) split_key_bit_tests<NBM>(sb, mask, bit_tests);
    else split_bucket_bit_tests<NBM>(bit_tests);

    split_load_boundaries<KeyT, RULE>(p.rule, s_bounds);
    if (NB == 0)
        for (uint32_t j = tid; j < SPLIT_LB_WARPS * nb; j += SPLIT_LB_THREADS) s_match[j] = 0u;
    split_write_bucket_offsets(p);

    /* Bucket b's global start in tile t from the tile rows (thread b). */
    auto tile_row_start = [&](uint32_t t) -> uint32_t {
        const uint32_t row = rows[(size_t)t * nb + tid]; /* in flight through the wait */
        return split_lb_table_offset<PAY>(p, (size_t)tid * p.count_cols + t / p.count_col_tiles) + row;
    };
    /* The tile's keys (registers; AHEAD: and bucket tid's global start in it, goff_in) and the next
     * tile (AHEAD, passed on by thread 0). */
    KeyT key[ITEMS];
    uint32_t goff_in = 0, next = 0;
    /* AHEAD: tile t's keys, and bucket tid's global start in it. */
    auto load_tile = [&](uint32_t t) {
        const uint64_t base = (uint64_t)t * TILE;
        const uint32_t n_t = split_tile_extent<TILE>(t, p.n);
        if (n_t == TILE) split_load_slice<KeyT, ITEMS, true>(keys_in, base, wbase, lane, n_t, key);
        else split_load_slice<KeyT, ITEMS, false>(keys_in, base, wbase, lane, n_t, key);
        if (tid < nb) goff_in = tile_row_start(t);
    };
    if constexpr (AHEAD) { /* rows != NULL (split_job_run) */
        if (tid == 0) s_scratch[31] = atomicAdd(p.tile_counter, 1u);
        __syncthreads();
        uint32_t tile = s_scratch[31];
        if (tile < p.num_tiles) load_tile(tile);
        while (tile < p.num_tiles) {
            const uint32_t claim = tid == 0 ? atomicAdd(p.tile_counter, 1u) : 0u;
            const uint64_t tile_base = (uint64_t)tile * TILE;
            const uint32_t tile_n = split_tile_extent<TILE>(tile, p.n);
            if (tile_n == TILE)
                split_lb_tile<KeyT, RULE, OUT, NB, LOOK, ITEMS, true, true>(
                    p, load_tile, key, next, goff_in, bit_tests, lane_masks, s_bounds, s_goff, s_scratch, s_match, s_wc, s_key, s_pay,
                    s_bkt, s_orig, keys_out, gather_index, scatter_index, status, rows, tile, tile_base, tile_n, claim, has_pay, recompute,
                    num_payloads, sb, mask, nb, tid, lane, warp, wbase, lt);
            else
                split_lb_tile<KeyT, RULE, OUT, NB, LOOK, ITEMS, false, true>(
                    p, load_tile, key, next, goff_in, bit_tests, lane_masks, s_bounds, s_goff, s_scratch, s_match, s_wc, s_key, s_pay,
                    s_bkt, s_orig, keys_out, gather_index, scatter_index, status, rows, tile, tile_base, tile_n, claim, has_pay, recompute,
                    num_payloads, sb, mask, nb, tid, lane, warp, wbase, lt);
            tile = next;
        }
    } else {
        /* The barrier that takes a tile also orders the previous tile's reads of shared memory
         * before this tile's writes; the keys are loaded after it (loaded at the end of the previous
         * tile and carried over, the one-payload kernels spilled 240 bytes). */
        split_for_each_tile<TILE, true>(p, &s_scratch[31], [&](auto full_tag, uint32_t tile, uint64_t tile_base, uint32_t tile_n) {
            constexpr bool FULL = decltype(full_tag)::value;
            split_load_slice<KeyT, ITEMS, FULL>(keys_in, tile_base, wbase, lane, tile_n, key);
            if (rows && tid < nb) s_goff[tid] = tile_row_start(tile); /* no register held through the ranking */
            split_lb_tile<KeyT, RULE, OUT, NB, LOOK, ITEMS, FULL, false>(
                p, load_tile, key, next, goff_in, bit_tests, lane_masks, s_bounds, s_goff, s_scratch, s_match, s_wc, s_key, s_pay,
                s_bkt, s_orig, keys_out, gather_index, scatter_index, status, rows, tile, tile_base, tile_n, 0u, has_pay, recompute,
                num_payloads, sb, mask, nb, tid, lane, warp, wbase, lt);
        });
    }
}

#endif /* SPLIT_LOOKBACK_KERNEL_CUH */
