/* column_kernel.cuh - the general scatter kernel (internal, CUDA): B > SPLIT_LOOKBACK_MAX_BUCKETS when
 * the two-level kernel does not apply (64-bit keys, the scatter index, several payload streams). Per
 * tile, warp w takes the w-th slice of the tile in ITEMS rounds of 32 consecutive records (coalesced
 * loads; the (warp, round, lane) order is the input order, which makes the ranking stable). Every
 * record finds the lanes of its bucket by 11 ballots over the bits of the bucket id; it is ranked by
 * per-warp counters in shared memory (stable) or by one shared atomic per bucket and round (unstable);
 * the per-bucket prefix over warps and the scan over buckets give tile-local positions, the tile is
 * reordered in shared memory (key, bucket, index) and written position by position so each bucket's
 * run is written by consecutive threads at (bucket's global offset + local position). Value streams
 * follow one at a time through one staging buffer (few registers, high occupancy). */
#ifndef SPLIT_COLUMN_KERNEL_CUH
#define SPLIT_COLUMN_KERNEL_CUH

#include "block_scan.cuh"
#include "sc_cuda_arch.h"
#include "tile_order.cuh"
#include "warp_rank.cuh"

/* Offsets (bytes) of the scatter kernel's dynamic shared memory; same code on host and device.
 * The stable path's counters share their space with the staged tile (a barrier separates them). */
typedef struct split_smem_layout {
    uint32_t bounds, start, goff, cnt, run, scratch, counters; /* per-bucket arrays, per-warp counters */
    uint32_t key, val, idx, bkt;                               /* staged tile */
    uint32_t total;
} split_smem_layout;

template <typename KeyT, int RULE, int MODE>
__host__ __device__ inline split_smem_layout split_scatter_layout(uint32_t nb, uint32_t num_values, int keys_out,
                                                                   int gather)
{
    const uint32_t tile = SPLIT_BLOCK_TILE_ITEMS;
    split_smem_layout L;
    uint32_t o = 0;
    L.bounds = split_carve(o, split_rule_smem_bytes<KeyT, RULE>(nb));
    L.start = split_carve(o, nb * 4);
    L.goff = split_carve(o, nb * 4);
    L.cnt = split_carve(o, nb * 4);
    L.run = split_carve(o, nb * 4);
    L.scratch = split_carve(o, SPLIT_WARP_LANES * 4);
    L.counters = o;
    /* The stable path's counters (aliased with the staged tile). */
    const uint32_t counters = split_align16(SPLIT_BLOCK_WARPS * nb * 2);
    uint32_t s = 0;
    L.key = o + split_carve(s, keys_out ? tile * (uint32_t)sizeof(KeyT) : 0);
    L.val = o + split_carve(s, num_values ? tile * 4 : 0);
    L.idx = o + split_carve(s, gather ? tile * 4 : 0);
    L.bkt = o + split_carve(s, tile * 2);
    if (MODE == SPLIT_MODE_BLOCK_STABLE && counters > s) s = counters;
    L.total = o + s;
    return L;
}

/* General scatter kernel, per tile: the tile's count per bucket (stable: from the per-warp counters, which
 * become exclusive prefixes over warps in place; the ranks add s_start; unstable: s_cnt as the
 * atomics left it), its exclusive scan
 * s_start, and the offset s_goff = global start (s_run, the tile's) - local start. Thread t owns the
 * buckets [t * per, (t + 1) * per) for s_cnt. Ends synchronised. */
template <int MODE>
__device__ inline void split_tile_offsets(uint16_t *s_whist, uint32_t *s_cnt, uint32_t *s_start, uint32_t *s_goff,
                                          uint32_t *s_run, uint32_t nb, uint32_t *scratch)
{
    const uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const uint32_t per = (nb + SPLIT_BLOCK_THREADS - 1) / SPLIT_BLOCK_THREADS;
    const uint32_t begin = tid * per < nb ? tid * per : nb;
    const uint32_t end = begin + per < nb ? begin + per : nb;
    uint32_t sum = 0;
    for (uint32_t j = begin; j < end; ++j) {
        uint32_t c;
        if (MODE == SPLIT_MODE_BLOCK_STABLE) {
            c = 0;
#pragma unroll
            for (uint32_t w = 0; w < SPLIT_BLOCK_WARPS; ++w) {
                const uint32_t x = s_whist[w * nb + j];
                s_whist[w * nb + j] = (uint16_t)c;
                c += x;
            }
            s_cnt[j] = c;
        } else {
            c = s_cnt[j];
        }
        sum += c;
    }
    uint32_t run = split_block_exclusive_sum_warp0<SPLIT_BLOCK_WARPS>(sum, scratch, lane, warp);
    for (uint32_t j = begin; j < end; ++j) {
        const uint32_t c = s_cnt[j];
        s_start[j] = run;
        s_goff[j] = s_run[j] - run;
        run += c;
    }
    __syncthreads();
}

template <typename KeyT, int ITEMS>
__device__ __forceinline__ void split_write_tile(uint32_t tile_n, uint32_t tid, const uint16_t *s_bkt, const uint32_t *s_goff,
                                                 const KeyT *s_key, const uint32_t *s_idx, const uint32_t *s_val,
                                                 KeyT *kout, uint32_t *gout, uint32_t *vout)
{
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const uint32_t j = tid + (uint32_t)k * SPLIT_BLOCK_THREADS;
        if (j >= tile_n) break;
        const uint32_t d = s_goff[s_bkt[j]] + j;
        if (kout) kout[d] = s_key[j];
        if (gout) gout[d] = s_idx[j];
        if (vout) vout[d] = s_val[j];
    }
}

/* The general scatter kernel's per-block state and its phases (MODE: SPLIT_MODE_BLOCK_STABLE or
 * _UNSTABLE). Every phase is forced inline into the one kernel: the state stays in registers as the
 * kernel's locals would. */
template <typename KeyT, int RULE, int MODE>
struct split_col_block {
    static constexpr int ITEMS = SPLIT_BLOCK_PATH_ITEMS, NB = SPLIT_MAX_BITS; /* ballots: bits of a bucket id */
    static constexpr uint32_t TILE = SPLIT_BLOCK_TILE_ITEMS, WARP_ITEMS = (uint32_t)ITEMS * SPLIT_WARP_LANES;

    const split_kernel_params &p;
    uint32_t nb, tid, lane, warp;
    KeyT *s_bounds;
    uint32_t *s_start, *s_goff, *s_cnt, *s_run, *s_scratch;
    uint16_t *s_whist; /* stable: [warp][bucket] */
    KeyT *s_key;
    uint32_t *s_val, *s_idx;
    uint16_t *s_bkt;
    const KeyT *keys_in;
    KeyT *keys_out;
    uint32_t nv;
    uint32_t sb, mask;
    uint32_t *gather_index, *scatter_index;
    uint32_t lt, wbase;
    const uint32_t *rows;

    __device__ __forceinline__ split_col_block(const split_kernel_params &params, unsigned char *smem) : p(params)
    {
        nb = p.rule.num_buckets, tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
        const split_smem_layout L = split_scatter_layout<KeyT, RULE, MODE>(nb, p.num_values, p.keys_out != NULL,
                                                                           p.gather_index != NULL);
        s_bounds = (KeyT *)(smem + L.bounds);
        s_start = (uint32_t *)(smem + L.start);
        s_goff = (uint32_t *)(smem + L.goff);
        s_cnt = (uint32_t *)(smem + L.cnt);
        s_run = (uint32_t *)(smem + L.run);
        s_scratch = (uint32_t *)(smem + L.scratch);
        s_whist = (uint16_t *)(smem + L.counters);
        s_key = (KeyT *)(smem + L.key);
        s_val = (uint32_t *)(smem + L.val);
        s_idx = (uint32_t *)(smem + L.idx);
        s_bkt = (uint16_t *)(smem + L.bkt);
        keys_in = (const KeyT *)p.keys_in;
        keys_out = (KeyT *)p.keys_out;
        nv = p.num_values;
        sb = p.rule.start_bit & 31u, mask = (uint32_t)p.rule.bit_mask;
        gather_index = p.gather_index;
        scatter_index = p.scatter_index;

        split_load_boundaries<KeyT, RULE>(p.rule, s_bounds);
        split_write_bucket_offsets(p);
        __syncthreads();

        lt = split_lanemask_lt();
        wbase = warp * WARP_ITEMS;
        rows = p.tile_rows;
    }

    /* The tile's counters cleared and its global start per bucket (tile rows); s_run was last read by
     * the previous tile's split_tile_offsets, which ends synchronised. */
    __device__ __forceinline__ void tile_start(uint32_t tile)
    {
        if (MODE == SPLIT_MODE_BLOCK_STABLE) {
            __syncthreads(); /* the previous tile's staging area (aliased with the counters) is read */
            uint32_t *w32 = (uint32_t *)s_whist;
            for (uint32_t j = tid; j < SPLIT_BLOCK_WARPS * nb / 2; j += SPLIT_BLOCK_THREADS) w32[j] = 0;
        }
        if (MODE == SPLIT_MODE_BLOCK_UNSTABLE)
            for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) s_cnt[b] = 0;
        const uint32_t col = tile / p.count_col_tiles;
        for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS)
            s_run[b] = p.table_offsets[(size_t)b * p.count_cols + col] + rows[(size_t)tile * nb + b];
        __syncthreads();
    }

    /* The buckets, then the rank of each record inside the warp round by round: br[r] = bucket | rank
     * << 16 (stable: before the warp's counter). */
    __device__ __forceinline__ void rank(uint64_t tile_base, uint32_t tile_n, const KeyT (&key)[ITEMS], uint32_t (&br)[ITEMS])
    {
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
            const uint32_t off = wbase + (uint32_t)r * 32u + lane;
            br[r] = off < tile_n ? split_bucket_fast<KeyT, RULE>(p.rule, sb, mask, key[r], tile_base + off, s_bounds)
                                 : SPLIT_NO_BUCKET;
        }
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
            const uint32_t b = br[r];
            const bool valid = b != SPLIT_NO_BUCKET;
            const uint32_t valid_mask = __ballot_sync(SPLIT_FULL_MASK, valid);
            const uint32_t peers = split_match<NB>(b, valid_mask);
            uint32_t rank;
            if (MODE == SPLIT_MODE_BLOCK_STABLE) {
                uint32_t base = 0;
                if (valid) base = s_whist[warp * nb + b];
                rank = base + __popc(peers & lt);
                __syncwarp();
                if (valid && lane == 31u - __clz(peers)) s_whist[warp * nb + b] = (uint16_t)(base + __popc(peers));
                __syncwarp();
            } else {
                const uint32_t leader = (uint32_t)(__ffs(peers) - 1) & 31u;
                uint32_t base = 0;
                if (valid && lane == leader) base = atomicAdd(&s_cnt[b], (uint32_t)__popc(peers));
                base = __shfl_sync(SPLIT_FULL_MASK, base, leader);
                rank = base + __popc(peers & lt);
            }
            br[r] = valid ? (b | (rank << 16)) : SPLIT_NO_BUCKET;
        }
    }

    /* Local positions (and the scatter index, written straight from them), then the tile staged in
     * shared memory (bucket, key, index). */
    __device__ __forceinline__ void stage(uint64_t tile_base, const KeyT (&key)[ITEMS], const uint32_t (&br)[ITEMS],
                                          uint32_t (&lpos)[ITEMS])
    {
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
            lpos[r] = SPLIT_NO_POS;
            if (br[r] == SPLIT_NO_BUCKET) continue;
            const uint32_t b = br[r] & 0xFFFFu, within = br[r] >> 16;
            if (MODE == SPLIT_MODE_BLOCK_STABLE)
                lpos[r] = s_whist[warp * nb + b] + within + s_start[b];
            else lpos[r] = s_start[b] + within;
        }
        if (scatter_index) {
#pragma unroll
            for (int r = 0; r < ITEMS; ++r)
                if (lpos[r] != SPLIT_NO_POS)
                    scatter_index[tile_base + wbase + (uint32_t)r * 32u + lane] = s_goff[br[r] & 0xFFFFu] + lpos[r];
        }
        if (MODE == SPLIT_MODE_BLOCK_STABLE) __syncthreads(); /* the staging area overwrites the counters */
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
            if (lpos[r] == SPLIT_NO_POS) continue;
            const uint32_t lp = lpos[r];
            s_bkt[lp] = (uint16_t)(br[r] & 0xFFFFu);
            if (keys_out) s_key[lp] = key[r];
            if (gather_index) s_idx[lp] = (uint32_t)(tile_base + wbase + (uint32_t)r * 32u + lane);
        }
    }

    /* The staged tile written out; value stream 0 goes with the keys, streams 1.. reuse its staging
     * buffer one at a time. The common combinations run with the absent outputs as constants (no
     * per-item tests). */
    __device__ __forceinline__ void write_streams(uint64_t tile_base, uint32_t tile_n, const uint32_t (&lpos)[ITEMS],
                                                  const uint32_t (&val0)[ITEMS])
    {
        for (uint32_t v = 0; v < (nv ? nv : 1u); ++v) {
            if (nv) {
                if (v == 0) {
#pragma unroll
                    for (int r = 0; r < ITEMS; ++r)
                        if (lpos[r] != SPLIT_NO_POS) s_val[lpos[r]] = val0[r];
                } else {
                    uint32_t val[ITEMS];
                    split_load_payload_slice<ITEMS, false>(p.values_in[v], tile_base, wbase, lane, tile_n, val);
                    __syncthreads(); /* the previous stream is written out */
#pragma unroll
                    for (int r = 0; r < ITEMS; ++r)
                        if (lpos[r] != SPLIT_NO_POS) s_val[lpos[r]] = val[r];
                }
            }
            __syncthreads();
            uint32_t *vout = nv ? p.values_out[v] : NULL;
            KeyT *kout = v == 0 ? keys_out : NULL;
            uint32_t *gout = v == 0 ? gather_index : NULL;
            if (kout && !gout && !vout)
                split_write_tile<KeyT, ITEMS>(tile_n, tid, s_bkt, s_goff, s_key, s_idx, s_val, kout, NULL, NULL);
            else if (kout && !gout && vout)
                split_write_tile<KeyT, ITEMS>(tile_n, tid, s_bkt, s_goff, s_key, s_idx, s_val, kout, NULL, vout);
            else
                split_write_tile<KeyT, ITEMS>(tile_n, tid, s_bkt, s_goff, s_key, s_idx, s_val, kout, gout, vout);
        }
    }

    /* One tile: the warp's slice loaded first (registers only), so the loads are in flight during the
     * tile start and its table read; value stream 0 loaded after the ranking, so its loads overlap the
     * tile's offsets phase. */
    __device__ __forceinline__ void tile_body(uint32_t tile, uint64_t tile_base, uint32_t tile_n)
    {
        KeyT key[ITEMS];
        uint32_t br[ITEMS];
        split_load_slice<KeyT, ITEMS, false>(keys_in, tile_base, wbase, lane, tile_n, key);
        tile_start(tile);
        rank(tile_base, tile_n, key, br);
        uint32_t val0[ITEMS];
        if (nv) split_load_payload_slice<ITEMS, false>(p.values_in[0], tile_base, wbase, lane, tile_n, val0);
        __syncthreads();
        /* Tile counts, local starts, global offsets. */
        split_tile_offsets<MODE>(s_whist, s_cnt, s_start, s_goff, s_run, nb, s_scratch);
        uint32_t lpos[ITEMS];
        stage(tile_base, key, br, lpos);
        write_streams(tile_base, tile_n, lpos, val0);
    }

    __device__ __forceinline__ void run(uint32_t *s_tile)
    {
        split_for_each_tile<TILE, false>(p, s_tile, [&](auto, uint32_t tile, uint64_t tile_base, uint32_t tile_n) {
            tile_body(tile, tile_base, tile_n);
        });
    }
};

template <typename KeyT, int RULE, int MODE>
__global__ void __launch_bounds__(SPLIT_BLOCK_THREADS, SC_MIN_BLOCKS(SPLIT_BLOCK_THREADS, SPLIT_SCATTER_MIN_BLOCKS)) split_scatter_kernel(split_kernel_params p)
{
    split_wait_prior_grids();
    extern __shared__ __align__(16) unsigned char smem[];
    split_col_block<KeyT, RULE, MODE> block(p, smem);
    __shared__ uint32_t s_tile;
    block.run(&s_tile);
}

#endif /* SPLIT_COLUMN_KERNEL_CUH */
