/* multisplit_kernels.cuh - the count and scatter kernels of split / multisplit (internal, CUDA).
 *
 * Records are read in tiles of SPLIT_TILE_ITEMS: warp w of the block takes the w-th slice of the
 * tile, in rounds of 32 consecutive records (coalesced loads, and the (warp, round, lane) order is
 * the input order, which makes the ranking stable).
 *  - count kernel: per-block bucket counts into the column-major table (entry b * G + g).
 *  - scatter kernel: per tile, rank every record inside its bucket (warp path: ballots over the
 *    bits of the bucket id and popcounts, per-lane counters; block path: per-warp counters in
 *    shared memory, or shared atomics for the unstable variant), turn ranks into tile-local
 *    positions (scan over warps and over buckets), reorder the tile in shared memory, and write
 *    it out position by position so each bucket's run is written by consecutive threads. */
#ifndef MULTISPLIT_KERNELS_CUH
#define MULTISPLIT_KERNELS_CUH

#include <atomic>

#include "multisplit_internal.h"
#include "sc_report.h"

#define SPLIT_FULL_MASK 0xFFFFFFFFu
#define SPLIT_NO_BUCKET 0xFFFFFFFFu

/* Offsets (bytes) of the scatter kernel's dynamic shared memory; same code on host and device. */
typedef struct split_smem_layout {
    uint32_t bounds, run, start, cnt, scratch, region; /* region: warp counters, then the staged tile */
    uint32_t key, val, idx, dst;                       /* inside region (after the counters are used) */
    uint32_t total;
} split_smem_layout;

__host__ __device__ inline uint32_t split_align16(uint32_t x) { return (x + 15u) & ~15u; }

template <typename KeyT, int RULE, int MODE>
__host__ __device__ inline split_smem_layout split_scatter_layout(uint32_t nb, uint32_t num_values, int keys_out,
                                                                   int gather)
{
    split_smem_layout L;
    uint32_t o = 0;
    L.bounds = o; o = split_align16(o + split_rule_smem_bytes<KeyT, RULE>(nb));
    L.run = o; o = split_align16(o + nb * 4);
    L.start = o; o = split_align16(o + nb * 4);
    L.cnt = o; o = split_align16(o + nb * 4);
    L.scratch = o; o = split_align16(o + SPLIT_WARP_LANES * 4);
    L.region = o;
    uint32_t counters = MODE == SPLIT_MODE_WARP ? SPLIT_BLOCK_WARPS * SPLIT_WARP_LANES * 4
                      : MODE == SPLIT_MODE_BLOCK_STABLE ? SPLIT_BLOCK_WARPS * nb * 2 : 0;
    uint32_t s = 0;
    L.key = o + s; s = split_align16(s + (keys_out ? SPLIT_TILE_ITEMS * (uint32_t)sizeof(KeyT) : 0));
    L.val = o + s; s = split_align16(s + num_values * SPLIT_TILE_ITEMS * 4);
    L.idx = o + s; s = split_align16(s + (gather ? SPLIT_TILE_ITEMS * 4 : 0));
    L.dst = o + s; s = split_align16(s + SPLIT_TILE_ITEMS * 4);
    o += split_align16(counters > s ? counters : s);
    L.total = o;
    return L;
}

template <typename KeyT, int RULE, int WARP>
__host__ __device__ inline uint32_t split_count_smem(uint32_t nb, uint32_t *hist_offset)
{
    uint32_t o = split_align16(split_rule_smem_bytes<KeyT, RULE>(nb));
    *hist_offset = o;
    return o + (WARP ? SPLIT_BLOCK_WARPS * SPLIT_WARP_LANES * 4 : nb * 4);
}

__device__ inline uint32_t split_lanemask_lt(void)
{
    uint32_t m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

/* Bit mask of the lanes of this round whose bucket equals `target`, from the ballots of the bucket
 * id's bits (nbits ballots; no shared memory). */
__device__ inline void split_warp_masks(uint32_t bucket, uint32_t valid_mask, uint32_t nbits, uint32_t lane,
                                        uint32_t *same_as_mine, uint32_t *same_as_lane)
{
    uint32_t mine = valid_mask, lanes = valid_mask;
    for (uint32_t k = 0; k < nbits; ++k) {
        uint32_t bal = __ballot_sync(SPLIT_FULL_MASK, (bucket >> k) & 1u);
        mine &= ((bucket >> k) & 1u) ? bal : ~bal;
        lanes &= ((lane >> k) & 1u) ? bal : ~bal;
    }
    *same_as_mine = mine;
    *same_as_lane = lanes;
}

/* Exclusive scan of in[0 .. count) into out (shared arrays) by the whole block; ends synchronised. */
__device__ inline void split_block_exclusive_scan(const uint32_t *in, uint32_t *out, uint32_t count, uint32_t *scratch)
{
    const uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const uint32_t per = (count + SPLIT_BLOCK_THREADS - 1) / SPLIT_BLOCK_THREADS;
    const uint32_t begin = tid * per < count ? tid * per : count;
    const uint32_t end = begin + per < count ? begin + per : count;
    uint32_t sum = 0;
    for (uint32_t j = begin; j < end; ++j) sum += in[j];
    uint32_t incl = sum;
    for (uint32_t off = 1; off < 32; off <<= 1) {
        uint32_t y = __shfl_up_sync(SPLIT_FULL_MASK, incl, off);
        if (lane >= off) incl += y;
    }
    if (lane == 31) scratch[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        uint32_t v = lane < SPLIT_BLOCK_WARPS ? scratch[lane] : 0, w = v;
        for (uint32_t off = 1; off < 32; off <<= 1) {
            uint32_t y = __shfl_up_sync(SPLIT_FULL_MASK, w, off);
            if (lane >= off) w += y;
        }
        if (lane < SPLIT_BLOCK_WARPS) scratch[lane] = w - v;
    }
    __syncthreads();
    uint32_t run = scratch[warp] + incl - sum;
    for (uint32_t j = begin; j < end; ++j) {
        uint32_t c = in[j];
        out[j] = run;
        run += c;
    }
    __syncthreads();
}

template <typename KeyT, int RULE, int WARP>
__global__ void __launch_bounds__(SPLIT_BLOCK_THREADS) split_count_kernel(split_kernel_params p)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t nb = p.rule.num_buckets, tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    uint32_t hist_off;
    split_count_smem<KeyT, RULE, WARP>(nb, &hist_off);
    KeyT *s_bounds = (KeyT *)smem;
    uint32_t *s_hist = (uint32_t *)(smem + hist_off);
    split_load_boundaries<KeyT, RULE>(p.rule, s_bounds);
    if (!WARP)
        for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) s_hist[b] = 0;
    __syncthreads();
    const KeyT *keys = (const KeyT *)p.keys_in;
    const uint32_t tile_begin = blockIdx.x * p.tiles_per_block;
    const uint32_t tile_end = min(tile_begin + p.tiles_per_block, p.num_tiles);
    uint32_t lane_count = 0;
    for (uint32_t tile = tile_begin; tile < tile_end; ++tile) {
        const uint64_t tile_base = (uint64_t)tile * SPLIT_TILE_ITEMS;
#pragma unroll 4
        for (uint32_t r = 0; r < SPLIT_ROUNDS_PER_WARP; ++r) {
            const uint64_t i = tile_base + (uint64_t)warp * SPLIT_WARP_LANES * SPLIT_ROUNDS_PER_WARP + r * 32u + lane;
            const bool valid = i < p.n;
            KeyT key = (valid && keys) ? keys[i] : (KeyT)0;
            uint32_t b = valid ? split_bucket<KeyT, RULE>(p.rule, key, i, s_bounds) : SPLIT_NO_BUCKET;
            if (WARP) {
                uint32_t mine, lanes;
                split_warp_masks(b, __ballot_sync(SPLIT_FULL_MASK, valid), p.ballot_bits, lane, &mine, &lanes);
                lane_count += __popc(lanes);
            } else {
                uint32_t peers = __match_any_sync(SPLIT_FULL_MASK, b);
                if (valid && lane == (uint32_t)(__ffs(peers) - 1)) atomicAdd(&s_hist[b], (uint32_t)__popc(peers));
            }
        }
    }
    if (WARP) s_hist[warp * SPLIT_WARP_LANES + lane] = lane_count;
    __syncthreads();
    for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) {
        uint32_t c = 0;
        if (WARP)
            for (uint32_t w = 0; w < SPLIT_BLOCK_WARPS; ++w) c += s_hist[w * SPLIT_WARP_LANES + b];
        else
            c = s_hist[b];
        p.table_counts[(size_t)b * p.num_blocks + blockIdx.x] = c;
    }
}

template <typename KeyT, int RULE, int MODE>
__global__ void __launch_bounds__(SPLIT_BLOCK_THREADS) split_scatter_kernel(split_kernel_params p)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t nb = p.rule.num_buckets, tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const split_smem_layout L = split_scatter_layout<KeyT, RULE, MODE>(nb, p.num_values, p.keys_out != NULL,
                                                                       p.gather_index != NULL);
    KeyT *s_bounds = (KeyT *)(smem + L.bounds);
    uint32_t *s_run = (uint32_t *)(smem + L.run);
    uint32_t *s_start = (uint32_t *)(smem + L.start);
    uint32_t *s_cnt = (uint32_t *)(smem + L.cnt);
    uint32_t *s_scratch = (uint32_t *)(smem + L.scratch);
    uint32_t *s_wcount = (uint32_t *)(smem + L.region);  /* warp path: [warp][lane] */
    uint16_t *s_whist = (uint16_t *)(smem + L.region);   /* block path: [warp][bucket] */
    KeyT *s_key = (KeyT *)(smem + L.key);
    uint32_t *s_val = (uint32_t *)(smem + L.val);
    uint32_t *s_idx = (uint32_t *)(smem + L.idx);
    uint32_t *s_dst = (uint32_t *)(smem + L.dst);
    const KeyT *keys_in = (const KeyT *)p.keys_in;
    KeyT *keys_out = (KeyT *)p.keys_out;
    const uint32_t nv = p.num_values;

    split_load_boundaries<KeyT, RULE>(p.rule, s_bounds);
    for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) s_run[b] = p.table_offsets[(size_t)b * p.num_blocks + blockIdx.x];

    const uint32_t tile_begin = blockIdx.x * p.tiles_per_block;
    const uint32_t tile_end = min(tile_begin + p.tiles_per_block, p.num_tiles);
    for (uint32_t tile = tile_begin; tile < tile_end; ++tile) {
        const uint64_t tile_base = (uint64_t)tile * SPLIT_TILE_ITEMS;
        const uint32_t tile_n = (uint32_t)min((uint64_t)SPLIT_TILE_ITEMS, (uint64_t)p.n - tile_base);
        if (MODE == SPLIT_MODE_BLOCK_STABLE)
            for (uint32_t j = tid; j < SPLIT_BLOCK_WARPS * nb; j += SPLIT_BLOCK_THREADS) s_whist[j] = 0;
        if (MODE == SPLIT_MODE_BLOCK_UNSTABLE)
            for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) s_cnt[b] = 0;
        __syncthreads();

        KeyT key[SPLIT_ROUNDS_PER_WARP];
        uint32_t bucket[SPLIT_ROUNDS_PER_WARP], rank[SPLIT_ROUNDS_PER_WARP];
        uint32_t val[SPLIT_ROUNDS_PER_WARP][SPLIT_MAX_VALUE_STREAMS];
        uint32_t lane_count = 0;
        const uint32_t lt = split_lanemask_lt();
#pragma unroll
        for (uint32_t r = 0; r < SPLIT_ROUNDS_PER_WARP; ++r) {
            const uint32_t off = warp * SPLIT_WARP_LANES * SPLIT_ROUNDS_PER_WARP + r * 32u + lane;
            const uint64_t i = tile_base + off;
            const bool valid = off < tile_n;
            key[r] = (valid && keys_in) ? keys_in[i] : (KeyT)0;
#pragma unroll
            for (uint32_t v = 0; v < SPLIT_MAX_VALUE_STREAMS; ++v) val[r][v] = (valid && v < nv) ? p.values_in[v][i] : 0u;
            const uint32_t b = valid ? split_bucket<KeyT, RULE>(p.rule, key[r], i, s_bounds) : SPLIT_NO_BUCKET;
            bucket[r] = b;
            if (MODE == SPLIT_MODE_WARP) {
                uint32_t mine, lanes;
                split_warp_masks(b, __ballot_sync(SPLIT_FULL_MASK, valid), p.ballot_bits, lane, &mine, &lanes);
                uint32_t before = __shfl_sync(SPLIT_FULL_MASK, lane_count, valid ? b : 0u);
                rank[r] = before + __popc(mine & lt);
                lane_count += __popc(lanes);
            } else if (MODE == SPLIT_MODE_BLOCK_STABLE) {
                const uint32_t peers = __match_any_sync(SPLIT_FULL_MASK, b);
                uint32_t base = 0;
                if (valid) base = s_whist[warp * nb + b];
                rank[r] = base + __popc(peers & lt);
                __syncwarp();
                if (valid && lane == 31u - __clz(peers)) s_whist[warp * nb + b] = (uint16_t)(base + __popc(peers));
                __syncwarp();
            } else {
                const uint32_t peers = __match_any_sync(SPLIT_FULL_MASK, b);
                const uint32_t leader = (uint32_t)__ffs(peers) - 1u;
                uint32_t base = 0;
                if (valid && lane == leader) base = atomicAdd(&s_cnt[b], (uint32_t)__popc(peers));
                base = __shfl_sync(SPLIT_FULL_MASK, base, leader);
                rank[r] = base + __popc(peers & lt);
            }
        }
        if (MODE == SPLIT_MODE_WARP) s_wcount[warp * SPLIT_WARP_LANES + lane] = lane_count;
        __syncthreads();
        /* Per bucket: exclusive prefix over warps (in place) and the tile's count. */
        if (MODE != SPLIT_MODE_BLOCK_UNSTABLE) {
            for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) {
                uint32_t sum = 0;
                for (uint32_t w = 0; w < SPLIT_BLOCK_WARPS; ++w) {
                    uint32_t c;
                    if (MODE == SPLIT_MODE_WARP) {
                        c = s_wcount[w * SPLIT_WARP_LANES + b];
                        s_wcount[w * SPLIT_WARP_LANES + b] = sum;
                    } else {
                        c = s_whist[w * nb + b];
                        s_whist[w * nb + b] = (uint16_t)sum;
                    }
                    sum += c;
                }
                s_cnt[b] = sum;
            }
            __syncthreads();
        }
        split_block_exclusive_scan(s_cnt, s_start, nb, s_scratch);

        uint32_t lpos[SPLIT_ROUNDS_PER_WARP], gpos[SPLIT_ROUNDS_PER_WARP];
#pragma unroll
        for (uint32_t r = 0; r < SPLIT_ROUNDS_PER_WARP; ++r) {
            const uint32_t b = bucket[r];
            if (b == SPLIT_NO_BUCKET) continue;
            uint32_t within = rank[r];
            if (MODE == SPLIT_MODE_WARP) within += s_wcount[warp * SPLIT_WARP_LANES + b];
            if (MODE == SPLIT_MODE_BLOCK_STABLE) within += s_whist[warp * nb + b];
            lpos[r] = s_start[b] + within;
            gpos[r] = s_run[b] + within;
            if (p.scatter_index) {
                const uint64_t i = tile_base + warp * SPLIT_WARP_LANES * SPLIT_ROUNDS_PER_WARP + r * 32u + lane;
                p.scatter_index[i] = gpos[r];
            }
        }
        __syncthreads(); /* the counters' region becomes the staging area */
#pragma unroll
        for (uint32_t r = 0; r < SPLIT_ROUNDS_PER_WARP; ++r) {
            if (bucket[r] == SPLIT_NO_BUCKET) continue;
            const uint32_t lp = lpos[r];
            s_dst[lp] = gpos[r];
            if (keys_out) s_key[lp] = key[r];
#pragma unroll
            for (uint32_t v = 0; v < SPLIT_MAX_VALUE_STREAMS; ++v)
                if (v < nv) s_val[v * SPLIT_TILE_ITEMS + lp] = val[r][v];
            if (p.gather_index)
                s_idx[lp] = (uint32_t)(tile_base + warp * SPLIT_WARP_LANES * SPLIT_ROUNDS_PER_WARP + r * 32u + lane);
        }
        __syncthreads();
        for (uint32_t j = tid; j < tile_n; j += SPLIT_BLOCK_THREADS) {
            const uint32_t d = s_dst[j];
            if (keys_out) keys_out[d] = s_key[j];
            for (uint32_t v = 0; v < nv; ++v) p.values_out[v][d] = s_val[v * SPLIT_TILE_ITEMS + j];
            if (p.gather_index) p.gather_index[d] = s_idx[j];
        }
        for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) s_run[b] += s_cnt[b];
        __syncthreads();
    }
}

/* ---- typed launchers ---- */
template <typename KeyT, int RULE, int WARP>
static sc_status split_launch_count_rule(const split_kernel_params &p, cudaStream_t stream)
{
    uint32_t hist_off;
    const uint32_t smem = split_count_smem<KeyT, RULE, WARP>(p.rule.num_buckets, &hist_off);
    split_count_kernel<KeyT, RULE, WARP><<<p.num_blocks, SPLIT_BLOCK_THREADS, smem, stream>>>(p);
    SC_CUDA_CHECK_LAUNCH("split_count_kernel");
    return SC_OK;
}

template <typename KeyT, int RULE, int MODE>
static sc_status split_launch_scatter_rule(const split_kernel_params &p, cudaStream_t stream)
{
    const split_smem_layout L = split_scatter_layout<KeyT, RULE, MODE>(p.rule.num_buckets, p.num_values,
                                                                       p.keys_out != NULL, p.gather_index != NULL);
    /* Opt in once per kernel to the largest layout it can ever use (B = 2048, every stream), so
     * later calls, graph captures included, make no attribute call at all. */
    static std::atomic<int> opted_in(0);
    if (L.total > SPLIT_DEFAULT_SMEM_BYTES && !opted_in.load(std::memory_order_acquire)) {
        const split_smem_layout M = split_scatter_layout<KeyT, RULE, MODE>(SPLIT_MAX_BUCKETS, SPLIT_MAX_VALUE_STREAMS, 1, 1);
        SC_CUDA_CHECK(cudaFuncSetAttribute(split_scatter_kernel<KeyT, RULE, MODE>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)M.total));
        opted_in.store(1, std::memory_order_release);
    }
    split_scatter_kernel<KeyT, RULE, MODE><<<p.num_blocks, SPLIT_BLOCK_THREADS, L.total, stream>>>(p);
    SC_CUDA_CHECK_LAUNCH("split_scatter_kernel");
    return SC_OK;
}

template <typename KeyT, int RULE>
static sc_status split_launch_scatter_mode(const split_kernel_params &p, int mode, cudaStream_t stream)
{
    if (mode == SPLIT_MODE_WARP) return split_launch_scatter_rule<KeyT, RULE, SPLIT_MODE_WARP>(p, stream);
    if (mode == SPLIT_MODE_BLOCK_STABLE) return split_launch_scatter_rule<KeyT, RULE, SPLIT_MODE_BLOCK_STABLE>(p, stream);
    return split_launch_scatter_rule<KeyT, RULE, SPLIT_MODE_BLOCK_UNSTABLE>(p, stream);
}

template <typename KeyT>
sc_status split_launch_count(const split_kernel_params &p, int rule, int mode, cudaStream_t stream)
{
    const bool warp = mode == SPLIT_MODE_WARP;
    switch (rule) {
    case SPLIT_BUCKETS_BITS:
        return warp ? split_launch_count_rule<KeyT, SPLIT_BUCKETS_BITS, 1>(p, stream)
                    : split_launch_count_rule<KeyT, SPLIT_BUCKETS_BITS, 0>(p, stream);
    case SPLIT_BUCKETS_IDS:
        return warp ? split_launch_count_rule<KeyT, SPLIT_BUCKETS_IDS, 1>(p, stream)
                    : split_launch_count_rule<KeyT, SPLIT_BUCKETS_IDS, 0>(p, stream);
    case SPLIT_BUCKETS_RANGE:
        return warp ? split_launch_count_rule<KeyT, SPLIT_BUCKETS_RANGE, 1>(p, stream)
                    : split_launch_count_rule<KeyT, SPLIT_BUCKETS_RANGE, 0>(p, stream);
    default:
        return warp ? split_launch_count_rule<KeyT, SPLIT_BUCKETS_BOUNDARIES, 1>(p, stream)
                    : split_launch_count_rule<KeyT, SPLIT_BUCKETS_BOUNDARIES, 0>(p, stream);
    }
}

template <typename KeyT>
sc_status split_launch_scatter(const split_kernel_params &p, int rule, int mode, cudaStream_t stream)
{
    switch (rule) {
    case SPLIT_BUCKETS_BITS: return split_launch_scatter_mode<KeyT, SPLIT_BUCKETS_BITS>(p, mode, stream);
    case SPLIT_BUCKETS_IDS: return split_launch_scatter_mode<KeyT, SPLIT_BUCKETS_IDS>(p, mode, stream);
    case SPLIT_BUCKETS_RANGE: return split_launch_scatter_mode<KeyT, SPLIT_BUCKETS_RANGE>(p, mode, stream);
    default: return split_launch_scatter_mode<KeyT, SPLIT_BUCKETS_BOUNDARIES>(p, mode, stream);
    }
}

#endif /* MULTISPLIT_KERNELS_CUH */
