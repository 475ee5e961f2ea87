/* twolevel_kernel.cuh - the scatter kernel of two-level tiles (internal, CUDA device code): splits of 32-bit keys
 * into SPLIT_LOOKBACK_MAX_BUCKETS < B <= SPLIT_TL_MAX_BUCKETS buckets that move the keys and at most one
 * payload stream (the values or the gather index), no scatter index, any rule (split_twolevel_eligible;
 * the BITS rule's keys and values without an index take the two-pass split instead, multisplit.cu).
 *
 * Tile order with tile rows, as the look-back kernel's: blocks take tiles in input order from a
 * counter, so every bucket's output grows at one front; the count kernel's tile rows and the scan of
 * its (bucket x column) table give each tile its global start per bucket, with nothing to wait for.
 * (In column order every block would write its own front of every bucket: partial sectors.) Per tile of
 * split_tl_tile records:
 *  1. load: warp w takes the w-th slice of the tile in ITEMS rounds of 32 consecutive records (the
 *     (warp, round, lane) order is the input order, which makes the ranking stable);
 *  2. first local pass, by the low L = ceil(log2 B) - 8 bits of the bucket: SPLIT_TL_LOW_BITS ballots
 *     give lane l the round's lanes of low part l, lane l counts them in a register; one shared atomic
 *     per record builds the tile's histogram of the B buckets;
 *  3. offsets: the block's scan of the histogram gives every bucket's tile-local start, s_goff = its
 *     global start - that; the low parts' starts per warp; the tile is staged in shared memory in
 *     low-part order;
 *  4. second local pass, by the high 8 bits, over the staged order (its slices and rounds): the shared
 *     atomicOr match and per-warp counters of the tile-order kernel (split_rank_atomic_or); the starts
 *     of the 256 high parts per warp; the tile is staged again, now sorted by bucket, stable;
 *  5. staged record j goes to s_goff[its bucket] + j: each bucket's run to consecutive addresses.
 * The bucket of a staged record is recomputed from its key (BITS rule, keys and a payload moved) or
 * staged with it (16 bits). Two local passes beat one pass of 11 ballots with per-warp counters of
 * all B buckets, and __match_any_sync, at these B. */
#ifndef SPLIT_TWOLEVEL_KERNEL_CUH
#define SPLIT_TWOLEVEL_KERNEL_CUH

#include "multisplit_kernels.cuh"
#include "sc_cuda_arch.h"

/* Records per thread: RECOMP (keys and a payload, the bucket recomputed from the key, ranks kept two
 * to a register), else with a payload stream or not (bucket and rank in a register). */
__host__ __device__ constexpr uint32_t split_tl_items(bool pay, bool recomp)
{
    return recomp ? SPLIT_TL_ITEMS_RECOMP : pay ? SPLIT_TL_ITEMS_PAY : SPLIT_TL_ITEMS;
}
__host__ __device__ constexpr uint32_t split_tl_tile(bool pay, bool recomp) { return split_tl_items(pay, recomp) * SPLIT_TL_THREADS; }

/* Dynamic shared memory (byte offsets; same code on host and device). */
typedef struct split_tl_layout {
    uint32_t bounds, run, goff, scratch, wlow, match, wc; /* rule table, per-bucket, scan, per-warp */
    uint32_t key, pay, bkt;                               /* staged tile */
    uint32_t total;
} split_tl_layout;

/* RECOMP: a staged record's bucket is recomputed from its key, not staged. */
template <int RULE, bool RECOMP>
__host__ __device__ inline split_tl_layout split_tl_layout_of(uint32_t nb, int keys_out, int pay, uint32_t tile)
{
    split_tl_layout L;
    uint32_t o = 0;
    L.bounds = split_carve(o, split_rule_smem_bytes<uint32_t, RULE>(nb));
    L.run = split_carve(o, nb * 4);
    L.goff = split_carve(o, nb * 4);
    L.scratch = split_carve(o, SPLIT_WARP_LANES * 4);
    L.wlow = split_carve(o, SPLIT_TL_WARPS * (1u << SPLIT_TL_LOW_BITS) * 4);
    L.match = split_carve(o, SPLIT_TL_WARPS * SPLIT_TL_HIGH_BUCKETS * 4);
    L.wc = split_carve(o, SPLIT_TL_WARPS * SPLIT_TL_HIGH_BUCKETS * 4);
    L.key = split_carve(o, keys_out ? tile * 4 : 0);
    L.pay = split_carve(o, pay ? tile * 4 : 0);
    L.bkt = split_carve(o, RECOMP ? 0 : tile * 2);
    L.total = o;
    return L;
}

/* The kernel's phases (numbered 1 to 5 above) are __device__ __forceinline__ free functions: the
 * kernel's locals by value (the fields of p it reads once and the shared-memory pointers, passed in
 * rather than read again from p), the tile's register arrays (keys, payloads, ranks) by reference to
 * the same arrays, the rank helpers as closures over the tile's locals; so every instantiation
 * compiles to the same registers, spills and code as the single function did (a per-block state
 * struct with member functions did not: less spilling in most instantiations, more in the BITS rule's
 * payload kernels). */

/* 2. First pass: rank by the low part (kept by keep); the tile's histogram in s_goff; the warp's
 * counts of the low parts in s_wlow[warp]. */
template <int RULE, int ITEMS, bool FULL, typename Keep>
__device__ __forceinline__ void split_tl_first_pass(const split_kernel_params &p, const Keep &keep, const uint32_t (&key)[ITEMS],
                                                    const uint32_t (&bit_tests)[SPLIT_TL_LOW_BITS],
                                                    const uint32_t (&lane_masks)[SPLIT_TL_LOW_BITS], const uint32_t *s_bounds,
                                                    uint32_t *s_goff, uint32_t *s_wlow, uint32_t sb, uint32_t mask,
                                                    uint32_t low_mask, uint64_t tile_base, uint32_t tile_n, uint32_t wbase,
                                                    uint32_t lane, uint32_t warp, uint32_t lt)
{
    constexpr uint32_t NLOW = 1u << SPLIT_TL_LOW_BITS;
    uint32_t lane_count = 0;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        const uint32_t off = wbase + (uint32_t)r * 32u + lane;
        const bool valid = FULL || off < tile_n;
        const uint32_t b = valid ? split_bucket_fast<uint32_t, RULE>(p.rule, sb, mask, key[r], tile_base + off, s_bounds)
                                 : 0u;
        const uint32_t lo = b & low_mask;
        const uint32_t valid_mask = FULL ? SPLIT_FULL_MASK : __ballot_sync(SPLIT_FULL_MASK, valid);
        const uint32_t lanes = split_match_lane<SPLIT_TL_LOW_BITS>(lo, bit_tests, valid_mask, lane_masks);
        const uint32_t before = __shfl_sync(SPLIT_FULL_MASK, lane_count, lo);
        const uint32_t mine = __shfl_sync(SPLIT_FULL_MASK, lanes, lo);
        lane_count += __popc(lanes);
        keep(r, b, before + __popc(mine & lt));
        if (valid) atomicAdd(&s_goff[b], 1u);
    }
    if (lane < NLOW) s_wlow[warp * NLOW + lane] = lane_count;
}

/* 3. Offsets. The histogram: thread t's buckets [hbegin, hend), the block's scan; s_goff becomes the
 * global start - the local start. The low parts' starts per warp (the last warp; lane l owns low part l). */
__device__ __forceinline__ void split_tl_offsets(uint32_t *s_goff, const uint32_t *s_run, uint32_t *s_scratch, uint32_t *s_wlow,
                                                 uint32_t hbegin, uint32_t hend, uint32_t lane, uint32_t warp)
{
    constexpr uint32_t NLOW = 1u << SPLIT_TL_LOW_BITS;
    uint32_t sum = 0;
    for (uint32_t b = hbegin; b < hend; ++b) sum += s_goff[b];
    uint32_t run = split_block_exclusive_sum(sum, s_scratch, lane, warp);
    for (uint32_t b = hbegin; b < hend; ++b) {
        const uint32_t c = s_goff[b];
        s_goff[b] = s_run[b] - run;
        run += c;
    }
    if (warp == SPLIT_TL_WARPS - 1) {
        uint32_t total = 0;
        if (lane < NLOW)
#pragma unroll
            for (uint32_t w = 0; w < SPLIT_TL_WARPS; ++w) total += s_wlow[w * NLOW + lane];
        const uint32_t start = split_warp_inclusive_sum(total, lane) - total;
        if (lane < NLOW) split_warp_starts<SPLIT_TL_WARPS>(s_wlow + lane, NLOW, start);
    }
}

/* Stages the warp's records at starts[(bucket >> shift) & part_mask] + rank. */
template <int ITEMS, bool FULL, bool PAY, bool RECOMP, typename BucketOf, typename RankOf>
__device__ __forceinline__ void split_tl_stage(const BucketOf &bucket_of, const RankOf &rank_of, const uint32_t (&key)[ITEMS],
                                               const uint32_t (&pay)[ITEMS], const uint32_t *starts, uint32_t shift,
                                               uint32_t part_mask, uint32_t *s_key, uint32_t *s_pay, uint16_t *s_bkt,
                                               const uint32_t *keys_out, uint32_t tile_n, uint32_t wbase, uint32_t lane)
{
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        if (!FULL && wbase + (uint32_t)r * 32u + lane >= tile_n) continue;
        const uint32_t b = bucket_of(r);
        const uint32_t pos = starts[(b >> shift) & part_mask] + rank_of(r);
        if (keys_out) s_key[pos] = key[r];
        if (PAY) s_pay[pos] = pay[r];
        if (!RECOMP) s_bkt[pos] = (uint16_t)b;
    }
}

/* 4. Second pass over the staged order: rank by the high part (kept by keep); then the high parts'
 * starts per warp (thread t owns high part t). */
template <int RULE, int ITEMS, bool FULL, bool PAY, bool RECOMP, typename Keep>
__device__ __forceinline__ void split_tl_second_pass(const split_kernel_params &p, const Keep &keep, uint32_t (&key)[ITEMS],
                                                     uint32_t (&pay)[ITEMS], const uint32_t *s_bounds, const uint32_t *s_key,
                                                     const uint32_t *s_pay, const uint16_t *s_bkt, uint32_t *s_match,
                                                     uint32_t *s_wc, uint32_t *s_scratch, const uint32_t *keys_out, uint32_t sb,
                                                     uint32_t mask, uint32_t low_bits, uint32_t tile_n, uint32_t wbase,
                                                     uint32_t tid, uint32_t lane, uint32_t warp, uint32_t lt)
{
    constexpr uint32_t NHIGH = SPLIT_TL_HIGH_BUCKETS;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        const uint32_t j = wbase + (uint32_t)r * 32u + lane;
        const bool valid = FULL || j < tile_n;
        uint32_t b = 0;
        if (valid) {
            if (keys_out) key[r] = s_key[j];
            if (PAY) pay[r] = s_pay[j];
            b = RECOMP ? split_bucket_fast<uint32_t, RULE>(p.rule, sb, mask, key[r], 0, s_bounds) : s_bkt[j];
        }
        const uint32_t hi = b >> low_bits;
        const uint32_t rank = split_rank_atomic_or(hi, valid, FULL, s_match + warp * NHIGH, s_wc + warp * NHIGH, lane, lt);
        keep(r, b, rank);
    }
    __syncthreads();
    const bool owner = tid < NHIGH;
    uint32_t count = 0;
    if (owner)
#pragma unroll
        for (uint32_t w = 0; w < SPLIT_TL_WARPS; ++w) count += s_wc[w * NHIGH + tid];
    const uint32_t start = split_block_exclusive_sum(count, s_scratch, lane, warp);
    if (owner) split_warp_starts<SPLIT_TL_WARPS>(s_wc + tid, NHIGH, start);
}

/* 5. Write: staged record j to its bucket's global start - local start + j. */
template <int RULE, int ITEMS, bool FULL, bool PAY, bool RECOMP>
__device__ __forceinline__ void split_tl_write(const split_kernel_params &p, const uint32_t *s_bounds, const uint32_t *s_key,
                                               const uint32_t *s_pay, const uint16_t *s_bkt, const uint32_t *s_goff,
                                               uint32_t *keys_out, uint32_t *pay_out, uint32_t sb, uint32_t mask, uint32_t tid,
                                               uint32_t tile_n)
{
#pragma unroll(SPLIT_TL_WRITE_UNROLL)
    for (int k = 0; k < ITEMS; ++k) {
        const uint32_t j = tid + (uint32_t)k * SPLIT_TL_THREADS;
        if (!FULL && j >= tile_n) break;
        uint32_t kv = 0, b;
        if (keys_out) kv = s_key[j];
        if (RECOMP) b = split_bucket_fast<uint32_t, RULE>(p.rule, sb, mask, kv, 0, s_bounds);
        else b = s_bkt[j];
        const uint32_t d = s_goff[b] + j;
        if (keys_out) keys_out[d] = kv;
        if (PAY) pay_out[d] = s_pay[j];
    }
}

/* One tile (phases 1 to 5). */
template <int RULE, bool PAY, bool RECOMP, int ITEMS, bool FULL>
__device__ __forceinline__ void split_tl_tile(const split_kernel_params &p, const uint32_t (&bit_tests)[SPLIT_TL_LOW_BITS],
                                              const uint32_t (&lane_masks)[SPLIT_TL_LOW_BITS], const uint32_t *s_bounds,
                                              uint32_t *s_run, uint32_t *s_goff, uint32_t *s_scratch, uint32_t *s_wlow,
                                              uint32_t *s_match, uint32_t *s_wc, uint32_t *s_key, uint32_t *s_pay, uint16_t *s_bkt,
                                              const uint32_t *keys_in, uint32_t *keys_out, const uint32_t *values_in,
                                              uint32_t *pay_out, const uint32_t *rows, uint32_t tile, uint64_t tile_base,
                                              uint32_t tile_n, uint32_t low_bits, uint32_t low_mask, uint32_t hbegin,
                                              uint32_t hend, uint32_t sb, uint32_t mask, uint32_t nb, uint32_t tid, uint32_t lane,
                                              uint32_t warp, uint32_t wbase, uint32_t lt)
{
    constexpr uint32_t NLOW = 1u << SPLIT_TL_LOW_BITS, NHIGH = SPLIT_TL_HIGH_BUCKETS;
    /* 1. Load (registers only; in flight while the counters are cleared). */
    uint32_t key[ITEMS], pay[ITEMS];
    split_load_slice<uint32_t, ITEMS, FULL>(keys_in, tile_base, wbase, lane, tile_n, key);
    if (PAY) split_load_payload_slice<ITEMS, FULL>(values_in, tile_base, wbase, lane, tile_n, pay);
    /* The tile's global start per bucket (tile rows), read while the keys load. */
    const uint32_t col = tile / p.count_col_tiles;
    for (uint32_t b = tid; b < nb; b += SPLIT_TL_THREADS) {
        s_goff[b] = 0u;
        s_run[b] = p.table_offsets[(size_t)b * p.count_cols + col] + rows[(size_t)tile * nb + b];
    }
    for (uint32_t j = tid; j < SPLIT_TL_WARPS * NHIGH; j += SPLIT_TL_THREADS) s_wc[j] = 0u;
    __syncthreads();

    /* Ranks: RECOMP two to a register (the bucket is recomputed from key[r]), else bucket | rank << 16. */
    uint32_t rk[RECOMP ? ITEMS / 2 : ITEMS];
#pragma unroll
    for (int r = 0; r < (int)(sizeof rk / sizeof rk[0]); ++r) rk[r] = 0u;
    auto keep = [&](int r, uint32_t b, uint32_t rank) {
        if (RECOMP) rk[r >> 1] = (r & 1) ? ((rk[r >> 1] & 0xFFFFu) | (rank << 16)) : ((rk[r >> 1] & 0xFFFF0000u) | rank);
        else rk[r] = b | (rank << 16);
    };
    auto rank_of = [&](int r) -> uint32_t { return RECOMP ? (rk[r >> 1] >> ((r & 1) * 16)) & 0xFFFFu : rk[r] >> 16; };
    auto bucket_of = [&](int r) -> uint32_t {
        return RECOMP ? split_bucket_fast<uint32_t, RULE>(p.rule, sb, mask, key[r], 0, s_bounds) : rk[r] & 0xFFFFu;
    };

    /* 2. First pass: rank by the low part; the tile's histogram. */
    split_tl_first_pass<RULE, ITEMS, FULL>(p, keep, key, bit_tests, lane_masks, s_bounds, s_goff, s_wlow, sb, mask, low_mask,
                                           tile_base, tile_n, wbase, lane, warp, lt);
    __syncthreads();
    /* 3. Offsets; stage in low-part order. */
    split_tl_offsets(s_goff, s_run, s_scratch, s_wlow, hbegin, hend, lane, warp);
    __syncthreads();
    split_tl_stage<ITEMS, FULL, PAY, RECOMP>(bucket_of, rank_of, key, pay, s_wlow + warp * NLOW, 0u, low_mask, s_key, s_pay,
                                             s_bkt, keys_out, tile_n, wbase, lane);
    __syncthreads();
    /* 4. Second pass over the staged order: rank by the high part; stage sorted by bucket. */
    split_tl_second_pass<RULE, ITEMS, FULL, PAY, RECOMP>(p, keep, key, pay, s_bounds, s_key, s_pay, s_bkt, s_match, s_wc,
                                                         s_scratch, keys_out, sb, mask, low_bits, tile_n, wbase, tid, lane,
                                                         warp, lt);
    __syncthreads();
    split_tl_stage<ITEMS, FULL, PAY, RECOMP>(bucket_of, rank_of, key, pay, s_wc + warp * NHIGH, low_bits, NHIGH - 1u, s_key,
                                             s_pay, s_bkt, keys_out, tile_n, wbase, lane);
    __syncthreads();
    /* 5. Write. */
    split_tl_write<RULE, ITEMS, FULL, PAY, RECOMP>(p, s_bounds, s_key, s_pay, s_bkt, s_goff, keys_out, pay_out, sb, mask, tid,
                                                   tile_n);
}

/* PAY: one payload stream, the gather index (p.gather_index) or the values (p.values_in[0]). RECOMP:
 * BITS rule with keys and a payload out (split_tl_recomp). */
template <int RULE, bool PAY, bool RECOMP>
__global__ void __launch_bounds__(SPLIT_TL_THREADS, SC_MIN_BLOCKS(SPLIT_TL_THREADS, SPLIT_TL_BLOCKS_PER_SM)) split_twolevel_kernel(split_kernel_params p)
{
    split_wait_prior_grids();
    constexpr int ITEMS = (int)split_tl_items(PAY, RECOMP);
    constexpr uint32_t TILE = split_tl_tile(PAY, RECOMP), WARP_ITEMS = (uint32_t)ITEMS * SPLIT_WARP_LANES;
    static_assert(!RECOMP || RULE == SPLIT_BUCKETS_BITS, "only the BITS rule recomputes buckets");
    static_assert(ITEMS % 2 == 0, "ranks are packed two to a register");
    constexpr uint32_t NLOW = 1u << SPLIT_TL_LOW_BITS, NHIGH = SPLIT_TL_HIGH_BUCKETS;
    static_assert(TILE < 65536, "ranks and positions are kept in 16 bits");
    static_assert(NLOW <= SPLIT_WARP_LANES, "a lane per low part");
    static_assert(NHIGH <= SPLIT_TL_THREADS, "a thread per high part");
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t nb = p.rule.num_buckets, tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    uint32_t *const keys_out = (uint32_t *)p.keys_out;
    uint32_t *const gather_index = p.gather_index;
    const uint32_t *const values_in = PAY && !gather_index ? p.values_in[0] : NULL;
    uint32_t *const pay_out = PAY ? (gather_index ? gather_index : p.values_out[0]) : NULL;
    const split_tl_layout L = split_tl_layout_of<RULE, RECOMP>(nb, keys_out != NULL, PAY, TILE);
    uint32_t *s_bounds = (uint32_t *)(smem + L.bounds);
    uint32_t *s_run = (uint32_t *)(smem + L.run);       /* the tile's global start per bucket */
    uint32_t *s_goff = (uint32_t *)(smem + L.goff);     /* histogram, then global start - local start */
    uint32_t *s_scratch = (uint32_t *)(smem + L.scratch);
    uint32_t *s_wlow = (uint32_t *)(smem + L.wlow);     /* [warp][low part] counts, then starts */
    uint32_t *s_match = (uint32_t *)(smem + L.match);   /* [warp][high part] lane bits, 0 between rounds */
    uint32_t *s_wc = (uint32_t *)(smem + L.wc);         /* [warp][high part] counters, then starts */
    uint32_t *s_key = (uint32_t *)(smem + L.key);
    uint32_t *s_pay = (uint32_t *)(smem + L.pay);
    uint16_t *s_bkt = (uint16_t *)(smem + L.bkt);
    const uint32_t *keys_in = (const uint32_t *)p.keys_in;
    const uint32_t sb = p.rule.start_bit & 31u, mask = (uint32_t)p.rule.bit_mask;
    /* Low bits: ceil(log2 B) - SPLIT_TL_HIGH_BITS (1 .. SPLIT_TL_LOW_BITS, B > 256). */
    const uint32_t low_bits = 32u - __clz(nb - 1u) - SPLIT_TL_HIGH_BITS, low_mask = (1u << low_bits) - 1u;
    const uint32_t lt = split_lanemask_lt();
    const uint32_t wbase = warp * WARP_ITEMS;
    uint32_t lane_masks[SPLIT_TL_LOW_BITS], bit_tests[SPLIT_TL_LOW_BITS];
    split_lane_masks<SPLIT_TL_LOW_BITS>(lane, lane_masks);
    split_bucket_bit_tests<SPLIT_TL_LOW_BITS>(bit_tests);
    /* Per thread of the histogram scan: buckets [begin, end). */
    const uint32_t per = (nb + SPLIT_TL_THREADS - 1) / SPLIT_TL_THREADS;
    const uint32_t hbegin = tid * per < nb ? tid * per : nb, hend = hbegin + per < nb ? hbegin + per : nb;

    split_load_boundaries<uint32_t, RULE>(p.rule, s_bounds);
    for (uint32_t j = tid; j < SPLIT_TL_WARPS * NHIGH; j += SPLIT_TL_THREADS) s_match[j] = 0u;
    split_write_bucket_offsets(p);

    const uint32_t *const rows = p.tile_rows;
    /* The tile counter's value is broadcast through s_scratch[31] (the scans use the first
     * SPLIT_TL_WARPS words); the barrier also orders the previous tile's reads of the staging area,
     * s_goff, s_run and s_wc before this tile's writes. */
    split_for_each_tile<TILE, true>(p, &s_scratch[31], [&](auto full_tag, uint32_t tile, uint64_t tile_base, uint32_t tile_n) {
        split_tl_tile<RULE, PAY, RECOMP, ITEMS, decltype(full_tag)::value>(
            p, bit_tests, lane_masks, s_bounds, s_run, s_goff, s_scratch, s_wlow, s_match, s_wc, s_key, s_pay, s_bkt, keys_in, keys_out,
            values_in, pay_out, rows, tile, tile_base, tile_n, low_bits, low_mask, hbegin, hend, sb, mask, nb, tid, lane, warp, wbase, lt);
    });
}

#endif /* SPLIT_TWOLEVEL_KERNEL_CUH */
