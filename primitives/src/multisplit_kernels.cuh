/* multisplit_kernels.cuh - the count kernel of every split and the general scatter kernel (B >
 * SPLIT_LOOKBACK_MAX_BUCKETS when the two-level kernel does not apply: 64-bit keys, the scatter index,
 * several payload streams) (internal, CUDA). The look-back kernel (B <= SPLIT_LOOKBACK_MAX_BUCKETS,
 * multisplit_lookback.cu) and the two-level kernel (multisplit_twolevel.cu) are the others.
 *
 * Column c is the tiles [c * count_col_tiles, (c + 1) * count_col_tiles), a block of the count kernel
 * each. Every scatter kernel takes its tiles in input order from a counter (so every bucket's output
 * grows at one front) and finds a tile's global start per bucket in the scanned table and the tile
 * rows.
 *  - count kernel: per-column bucket counts into the column-major table (entry b * C + c) and, with
 *    tile rows, each tile's counts of the tiles before it in its column; the order of counting does
 *    not matter, so each thread reads 16-byte vectors of consecutive keys (whole
 *    steps without per-item tests, the column's tail with them), one shared atomic per record into
 *    the lane's copy of the histogram (copies interleaved per bucket).
 *  - general scatter kernel: per tile, warp w takes the w-th slice of the tile in ITEMS rounds of 32
 *    consecutive records (coalesced loads; the (warp, round, lane) order is the input order, which
 *    makes the ranking stable). Every record finds the lanes of its bucket by 11 ballots over the bits
 *    of the bucket id; it is ranked by per-warp counters in shared memory (stable) or by one shared
 *    atomic per bucket and round (unstable); the per-bucket prefix over warps and the scan over
 *    buckets give tile-local positions, the tile is reordered in shared memory (key, bucket, index)
 *    and written position by position so each bucket's run is written by consecutive threads at
 *    (bucket's global offset + local position). Value streams follow one at a time through one
 *    staging buffer (few registers, high occupancy). */
#ifndef MULTISPLIT_KERNELS_CUH
#define MULTISPLIT_KERNELS_CUH

#include <atomic>
#include <type_traits>

#include "multisplit_internal.h"
#include "sc_report.h"

#define SPLIT_FULL_MASK 0xFFFFFFFFu
#define SPLIT_NO_BUCKET 0xFFFFFFFFu
#define SPLIT_NO_POS 0xFFFFFFFFu

/* Programmatic dependent launch (sm_90). A kernel launched by split_launch_dependent may be scheduled
 * while the kernel before it in the stream is still running; its first statement is
 * split_wait_prior_grids(), which returns once the kernels before it have completed and their writes
 * are visible, so nothing it reads or writes in global memory is touched early. A kernel calls
 * split_release_dependents() to let the next one be scheduled before it ends (the next one still
 * waits for its completion). Elsewhere (older GPUs, plain launches) both are no-ops. */
__device__ __forceinline__ void split_wait_prior_grids()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void split_release_dependents()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
template <typename... KArgs, typename... Args>
static cudaError_t split_launch_dependent(void (*kernel)(KArgs...), uint32_t grid, uint32_t block, size_t smem,
                                         cudaStream_t stream, Args &&...args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...);
}

/* Offsets (bytes) of the scatter kernel's dynamic shared memory; same code on host and device.
 * The stable path's counters share their space with the staged tile (a barrier separates them). */
typedef struct split_smem_layout {
    uint32_t bounds, start, goff, cnt, run, scratch, counters; /* per-bucket arrays, per-warp counters */
    uint32_t key, val, idx, bkt;                               /* staged tile */
    uint32_t total;
} split_smem_layout;

__host__ __device__ inline uint32_t split_align16(uint32_t x) { return (x + 15u) & ~15u; }
/* Shared-memory layouts: `bytes` placed at offset o, which moves past them (16-byte aligned); returns
 * their offset. */
__host__ __device__ inline uint32_t split_carve(uint32_t &o, uint32_t bytes)
{
    const uint32_t at = o;
    o = split_align16(o + bytes);
    return at;
}

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

/* Count kernel: boundaries, then `copies` interleaved copies of the B counters, entry b * copies + copy,
 * then those of the extra field (split_kernel_params.extra_totals; extra_nb x extra_copies). */
template <typename KeyT, int RULE>
__host__ __device__ inline uint32_t split_count_smem(const split_kernel_params &p, uint32_t *hist_offset, uint32_t *extra_offset)
{
    uint32_t o = split_align16(split_rule_smem_bytes<KeyT, RULE>(p.rule.num_buckets));
    *hist_offset = o;
    o = split_align16(o + p.count_copies * p.rule.num_buckets * 4);
    *extra_offset = o;
    return o + (p.extra_totals ? p.extra_copies * p.extra_nb * 4 : 0u);
}

__device__ inline uint32_t split_lanemask_lt(void)
{
    uint32_t m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

/* Ballot match of a round's buckets, NB ballots (NB at least the bits of any valid bucket; compile
 * time, so the ballots unroll). lane_masks[k] = bit k of the lane ? 0 : ~0 (split_lane_masks). */
template <int NB>
__device__ __forceinline__ void split_lane_masks(uint32_t lane, uint32_t (&lane_masks)[NB])
{
#pragma unroll
    for (int k = 0; k < NB; ++k) lane_masks[k] = ((lane >> k) & 1u) - 1u;
}

/* Lanes of this round (among valid_mask) with the same bucket as the calling lane. */
template <int NB>
__device__ __forceinline__ uint32_t split_match(uint32_t bucket, uint32_t valid_mask)
{
    uint32_t mine = valid_mask;
#pragma unroll
    for (int k = 0; k < NB; ++k) {
        const uint32_t bit = (bucket >> k) & 1u;
        mine &= __ballot_sync(SPLIT_FULL_MASK, bit) ^ (bit - 1u);
    }
    return mine;
}

/* Lanes of this round (among valid_mask) whose bucket's low NB bits equal the lane index (its bucket,
 * when it has no more bits). Bit k of the bucket is
 * (x & tests[k]) != 0: x the bucket and tests[k] = 1 << k (split_bucket_bit_tests), or x the 32-bit key
 * itself and tests[k] its bit of the field (split_key_bit_tests). A masked test is one LOP3 into a
 * predicate, so a bit costs that, the ballot and one LOP3; the shifted test `(bucket >> k) & 1` had
 * compiled to about five instructions a bit (H100 SASS of the B = 32 key-only kernel: 33 instructions
 * a round against 9 for B = 2). */
template <int NB, int N>
__device__ __forceinline__ uint32_t split_match_lane(uint32_t x, const uint32_t (&tests)[N], uint32_t valid_mask,
                                                     const uint32_t (&lane_masks)[N])
{
    static_assert(NB <= N && NB <= 5, "the first NB of N tests, one per bit of the lane index");
    uint32_t lanes = valid_mask;
#pragma unroll
    for (int k = 0; k < NB; ++k) lanes &= __ballot_sync(SPLIT_FULL_MASK, (x & tests[k]) != 0u) ^ lane_masks[k];
    return lanes;
}

/* Tests of split_match_lane on the bucket: bit k. */
template <int NB>
__device__ __forceinline__ void split_bucket_bit_tests(uint32_t (&tests)[NB])
{
#pragma unroll
    for (int k = 0; k < NB; ++k) tests[k] = 1u << k;
}

/* Tests of split_match_lane on a 32-bit key whose bucket is (key >> sb) & mask (the BITS rule): the
 * key's bit sb + k where bit k is in the mask, else none (the bucket's bit k is then 0). */
template <int NB>
__device__ __forceinline__ void split_key_bit_tests(uint32_t sb, uint32_t mask, uint32_t (&tests)[NB])
{
#pragma unroll
    for (int k = 0; k < NB; ++k) tests[k] = ((mask >> k) & 1u) && sb + (uint32_t)k < 32u ? 1u << (sb + (uint32_t)k) : 0u;
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

/* Inclusive sum of v over the lanes up to this one (every lane of the warp calls it). */
__device__ __forceinline__ uint32_t split_warp_inclusive_sum(uint32_t v, uint32_t lane)
{
#pragma unroll
    for (uint32_t off = 1; off < 32; off <<= 1) {
        const uint32_t y = __shfl_up_sync(SPLIT_FULL_MASK, v, off);
        if (lane >= off) v += y;
    }
    return v;
}

/* Exclusive sum of v over the block's threads; scratch holds a word per warp. Synchronises once; the
 * caller synchronises before scratch is written again. */
__device__ __forceinline__ uint32_t split_block_exclusive_sum(uint32_t v, uint32_t *scratch, uint32_t lane, uint32_t warp)
{
    const uint32_t incl = split_warp_inclusive_sum(v, lane);
    if (lane == 31) scratch[warp] = incl;
    __syncthreads();
    uint32_t before = 0;
    for (uint32_t w = 0; w < warp; ++w) before += scratch[w];
    return before + incl - v;
}

/* Tile order: the next tile from the counter, broadcast through *s_slot (every thread calls it; the
 * caller's barriers since its last read of *s_slot keep this write after them). */
__device__ __forceinline__ uint32_t split_take_tile(uint32_t *counter, uint32_t *s_slot)
{
    if (threadIdx.x == 0) *s_slot = atomicAdd(counter, 1u);
    __syncthreads();
    return *s_slot;
}

/* Records of tile t (of TILE records) in a split of n: TILE but for the last tile. */
template <uint32_t TILE>
__device__ __forceinline__ uint32_t split_tile_extent(uint32_t t, uint32_t n)
{
    return (uint32_t)min((uint64_t)TILE, (uint64_t)n - (uint64_t)t * TILE);
}

/* Relaxed device-scope loads and stores of the words blocks publish to each other (look-back status
 * words, the table scan's chunk totals): a count and its flag travel in one word. */
__device__ __forceinline__ void split_store_relaxed(uint32_t *p, uint32_t v)
{
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void split_store_relaxed(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ uint32_t split_load_relaxed(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ unsigned long long split_load_relaxed(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* The table scanned by the look-back kernel's blocks (split_kernel_params.scan_claim): the block waits
 * until every chunk is done (thread 0 polls, so the blocks' polls do not crowd the chunks' own
 * accesses; every thread of the block calls it); table_offsets is then read with __ldcg (never from a
 * line cached before). */
__device__ __forceinline__ void split_wait_table(const split_kernel_params &p)
{
    if (threadIdx.x == 0) {
        while (split_load_relaxed(p.scan_done) < p.scan_chunks) __nanosleep(64);
        __threadfence();
    }
    __syncthreads();
}

/* Tile order: the block takes tiles of TILE records from the counter until none is left and runs
 * body(full, tile, tile_base, tile_n) on each, full a std::integral_constant<bool, tile_n == TILE> when
 * DISPATCH_FULL (two copies of the body: whole tiles without per-record tests), else always false. */
template <uint32_t TILE, bool DISPATCH_FULL, typename Body>
__device__ __forceinline__ void split_for_each_tile(const split_kernel_params &p, uint32_t *s_slot, Body &&body)
{
    for (;;) {
        const uint32_t tile = split_take_tile(p.tile_counter, s_slot);
        if (tile >= p.num_tiles) return;
        const uint64_t tile_base = (uint64_t)tile * TILE;
        const uint32_t tile_n = split_tile_extent<TILE>(tile, p.n);
        if constexpr (DISPATCH_FULL) {
            if (tile_n == TILE) body(std::true_type(), tile, tile_base, tile_n);
            else body(std::false_type(), tile, tile_base, tile_n);
        } else {
            body(std::false_type(), tile, tile_base, tile_n);
        }
    }
}

/* Tile order: a warp's slice of a tile, ITEMS rounds of 32 consecutive records from wbase (the
 * (round, lane) order is the input order); past tile_n (when not FULL) or without keys_in: 0. */
template <typename KeyT, int ITEMS, bool FULL>
__device__ __forceinline__ void split_load_slice(const KeyT *keys_in, uint64_t tile_base, uint32_t wbase, uint32_t lane,
                                                 uint32_t tile_n, KeyT (&key)[ITEMS])
{
    const KeyT *const kin = keys_in + tile_base + wbase + lane; /* record r * 32 of the lane */
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        const uint32_t off = wbase + (uint32_t)r * 32u + lane;
        key[r] = ((FULL || off < tile_n) && keys_in) ? kin[r * 32] : (KeyT)0;
    }
}

/* Tile order: a warp's slice of one payload stream, as split_load_slice: values_in's records or
 * (values_in NULL: the gather index) the records' indices; past tile_n (when not FULL): 0. */
template <int ITEMS, bool FULL>
__device__ __forceinline__ void split_load_payload_slice(const uint32_t *values_in, uint64_t tile_base, uint32_t wbase,
                                                         uint32_t lane, uint32_t tile_n, uint32_t (&pay)[ITEMS])
{
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        const uint32_t off = wbase + (uint32_t)r * 32u + lane;
        pay[r] = FULL || off < tile_n ? (values_in ? values_in[tile_base + off] : (uint32_t)(tile_base + off)) : 0u;
    }
}

/* Block 0 of a scatter kernel writes the B + 1 bucket offsets (table_offsets[b * count_cols], n) when
 * asked for (no launch of their own). A kernel that scans the table itself (scan_claim) calls it after
 * split_wait_table; the offsets are read with __ldcg for it. */
__device__ __forceinline__ void split_write_bucket_offsets(const split_kernel_params &p)
{
    if (!p.bucket_offsets || blockIdx.x != 0) return;
    const uint32_t nb = p.rule.num_buckets;
    for (uint32_t b = threadIdx.x; b <= nb; b += blockDim.x)
        p.bucket_offsets[b] = b < nb ? __ldcg(p.table_offsets + (size_t)b * p.count_cols) : p.n;
}

/* One bucket's per-warp counts (c[w * stride], W warps) become the warps' starts from `start`; returns
 * the start after them. */
template <int W>
__device__ __forceinline__ uint32_t split_warp_starts(uint32_t *c, uint32_t stride, uint32_t start)
{
#pragma unroll
    for (uint32_t w = 0; w < (uint32_t)W; ++w) {
        const uint32_t x = c[w * stride];
        c[w * stride] = start;
        start += x;
    }
    return start;
}

/* Lets kernel use `most` bytes of dynamic shared memory when a launch needs more than the default
 * (`need`), once per kernel and device: the attribute belongs to the current device, so `devices`
 * holds a bit per device ordinal below 64 that has it (later calls there, graph captures included,
 * make no attribute call); devices from 64 on set it at every such call. */
template <typename K>
static sc_status split_allow_smem(K kernel, uint32_t need, uint32_t most, std::atomic<unsigned long long> &devices)
{
    if (need <= SPLIT_DEFAULT_SMEM_BYTES) return SC_OK;
    int dev = 0;
    SC_CUDA_CHECK(cudaGetDevice(&dev));
    const unsigned long long bit = dev >= 0 && dev < 64 ? 1ull << dev : 0ull;
    if (bit && (devices.load(std::memory_order_acquire) & bit)) return SC_OK;
    SC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most));
    devices.fetch_or(bit, std::memory_order_release);
    return SC_OK;
}

/* Stable rank of a round's record among the warp's records of its bucket b (B <= 2^16): the warp's
 * counter s_wc_w[b] (records of b in the earlier rounds) plus the round's lanes of b before this one.
 * The lanes of lane 0's bucket find each other by one ballot, the others by a shared atomicOr of lane
 * bits into s_match_w[b] (kept 0 between rounds): skewed input (one bucket holding most records) then
 * makes few lanes collide on one word (H100, 2^26 keys, B = 256, 75 % in one bucket: see
 * PERFORMANCE.md). Every lane of the warp calls it; invalid lanes (valid false) get 0 and change
 * nothing; FULL: every lane is valid. */
__device__ __forceinline__ uint32_t split_rank_atomic_or(uint32_t b, bool valid, bool full, uint32_t *s_match_w,
                                                         uint32_t *s_wc_w, uint32_t lane, uint32_t lt)
{
    const uint32_t k = valid ? b : 0u;
    const uint32_t b0 = __shfl_sync(SPLIT_FULL_MASK, b, 0); /* by every lane, not under `valid &&` */
    const bool in0 = valid && b == b0;
    const uint32_t group0 = __ballot_sync(SPLIT_FULL_MASK, in0);
    const uint32_t valid_mask = full ? SPLIT_FULL_MASK : __ballot_sync(SPLIT_FULL_MASK, valid);
    uint32_t peers = group0;
    if (group0 != valid_mask) { /* warp-uniform */
        if (valid && !in0) atomicOr(&s_match_w[k], 1u << lane);
        __syncwarp();
        if (valid && !in0) peers = s_match_w[k];
    }
    if (!valid) peers = 0u;
    const uint32_t base = valid ? s_wc_w[k] : 0u;
    __syncwarp();
    if (valid && lane == 31u - __clz(peers)) {
        s_wc_w[k] = base + __popc(peers);
        if (!in0) s_match_w[k] = 0u;
    }
    __syncwarp();
    return base + __popc(peers & lt);
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
    const uint32_t incl = split_warp_inclusive_sum(sum, lane);
    if (lane == 31) scratch[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        const uint32_t v = lane < SPLIT_BLOCK_WARPS ? scratch[lane] : 0, w = split_warp_inclusive_sum(v, lane);
        if (lane < SPLIT_BLOCK_WARPS) scratch[SPLIT_WARP_LANES - SPLIT_BLOCK_WARPS + lane] = w - v;
    }
    __syncthreads();
    uint32_t run = scratch[SPLIT_WARP_LANES - SPLIT_BLOCK_WARPS + warp] + incl - sum;
    for (uint32_t j = begin; j < end; ++j) {
        const uint32_t c = s_cnt[j];
        s_start[j] = run;
        s_goff[j] = s_run[j] - run;
        run += c;
    }
    __syncthreads();
}

/* Loads V consecutive items at base (16-byte vector when aligned and whole), items at or past end
 * are set to 0. */
template <typename T, int V>
__device__ inline void split_load_vector(const T *ptr, uint64_t base, uint64_t end, bool aligned, T (&out)[V])
{
    static_assert(V * sizeof(T) == 16, "one 16-byte vector");
    if (aligned && base + V <= end) {
        const uint4 q = __ldg((const uint4 *)(ptr + base));
        const T *t = (const T *)&q;
#pragma unroll
        for (int k = 0; k < V; ++k) out[k] = t[k];
    } else {
#pragma unroll
        for (int k = 0; k < V; ++k) out[k] = base + k < end ? ptr[base + k] : (T)0;
    }
}

/* Buckets of one count step: U 16-byte vectors of keys (or U * V / 4 of bucket ids) per thread.
 * CHECKED: items at or past `end` get SPLIT_NO_BUCKET and the vectors may be unaligned; otherwise
 * the whole step lies before `end` and the inputs are 16-byte aligned (no per-item test). */
template <typename KeyT, int RULE, bool CHECKED>
__device__ __forceinline__ void split_count_step(const split_kernel_params &p, const KeyT *keys, const uint32_t *ids,
                                                 uint32_t step, uint32_t end, bool aligned, uint32_t tid,
                                                 const KeyT *s_bounds, uint32_t sb, uint32_t mask,
                                                 uint32_t (&b)[SPLIT_COUNT_VECTORS * (16 / sizeof(KeyT))])
{
    constexpr int V = 16 / (int)sizeof(KeyT);
    constexpr int U = SPLIT_COUNT_VECTORS;
    constexpr int VI = 4;
    constexpr int UI = U * V / VI;
    const uint32_t nb = p.rule.num_buckets;
    if (RULE == SPLIT_BUCKETS_IDS) {
#pragma unroll
        for (int u = 0; u < UI; ++u) {
            uint32_t id[VI];
            if (CHECKED) {
                const uint64_t base = (uint64_t)step + ((uint64_t)u * SPLIT_BLOCK_THREADS + tid) * VI;
                split_load_vector<uint32_t, VI>(ids, base, end, aligned, id);
#pragma unroll
                for (int k = 0; k < VI; ++k)
                    b[u * VI + k] = base + k < end ? (id[k] < nb ? id[k] : nb - 1) : SPLIT_NO_BUCKET;
            } else {
                const uint4 q = __ldg((const uint4 *)(ids + step + ((uint32_t)u * SPLIT_BLOCK_THREADS + tid) * VI));
                id[0] = q.x, id[1] = q.y, id[2] = q.z, id[3] = q.w;
#pragma unroll
                for (int k = 0; k < VI; ++k) b[u * VI + k] = id[k] < nb ? id[k] : nb - 1;
            }
        }
    } else {
        KeyT key[U][V];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            if (CHECKED) {
                split_load_vector<KeyT, V>(keys, (uint64_t)step + ((uint64_t)u * SPLIT_BLOCK_THREADS + tid) * V, end, aligned,
                                           key[u]);
            } else {
                const uint4 q = __ldg((const uint4 *)(keys + step + ((uint32_t)u * SPLIT_BLOCK_THREADS + tid) * V));
                const KeyT *t = (const KeyT *)&q;
#pragma unroll
                for (int k = 0; k < V; ++k) key[u][k] = t[k];
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int k = 0; k < V; ++k) {
                const uint64_t i = (uint64_t)step + ((uint64_t)u * SPLIT_BLOCK_THREADS + tid) * V + k;
                if (CHECKED)
                    b[u * V + k] = i < end ? split_bucket_fast<KeyT, RULE>(p.rule, sb, mask, key[u][k], i, s_bounds)
                                           : SPLIT_NO_BUCKET;
                else
                    b[u * V + k] = split_bucket_fast<KeyT, RULE>(p.rule, sb, mask, key[u][k], i, s_bounds);
            }
    }
}

/* Counts the buckets of one step by one shared atomic per record into the lane's copy of the
 * histogram (lanes share a copy only every `copies` lanes, so even a warp of one bucket serialises
 * little). Every B: for B <= 32 these atomics beat ballots per round (H100, 2^26 keys, B = 32: count
 * kernel 165 -> 93 us; the split 0.424 -> 0.390 ms). */
template <bool CHECKED, int ITEMS>
__device__ __forceinline__ void split_count_add(const uint32_t (&b)[ITEMS], uint32_t *s_hist, uint32_t copies, uint32_t copy)
{
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
        if (!CHECKED || b[k] != SPLIT_NO_BUCKET) atomicAdd(&s_hist[b[k] * copies + copy], 1u);
}

/* split_count_add, and with EXTRA the buckets b hold both fields (the extra one above field_bits) and
 * are split first. */
template <bool EXTRA, bool CHECKED, int ITEMS>
__device__ __forceinline__ void split_count_add2(uint32_t (&b)[ITEMS], uint32_t *s_hist, uint32_t copies, uint32_t copy,
                                                 uint32_t *s_extra, uint32_t extra_copies, uint32_t extra_copy,
                                                 uint32_t field_bits, uint32_t nb)
{
    if (EXTRA) {
        uint32_t b2[ITEMS];
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            b2[k] = b[k] == SPLIT_NO_BUCKET ? SPLIT_NO_BUCKET : b[k] >> field_bits;
            b[k] = b[k] == SPLIT_NO_BUCKET ? SPLIT_NO_BUCKET : b[k] & (nb - 1u);
        }
        split_count_add<CHECKED>(b2, s_extra, extra_copies, extra_copy);
    }
    split_count_add<CHECKED>(b, s_hist, copies, copy);
}

/* EXTRA (BITS rule only): also the totals of the next field up (split_kernel_params.extra_totals), from
 * the same reads. */
template <typename KeyT, int RULE, bool EXTRA>
__global__ void __launch_bounds__(SPLIT_BLOCK_THREADS, RULE == SPLIT_BUCKETS_RANGE ? 1 : SPLIT_COUNT_BLOCKS_PER_SM)
    split_count_kernel(split_kernel_params p)
{
    split_release_dependents(); /* the scan may be scheduled now; it waits for this kernel to complete */
    extern __shared__ __align__(16) unsigned char smem[];
    constexpr int V = 16 / (int)sizeof(KeyT);           /* keys per 16-byte vector */
    constexpr int U = SPLIT_COUNT_VECTORS;              /* vectors per thread per step */
    constexpr int VI = 4;                               /* bucket ids per 16-byte vector */
    constexpr int UI = U * V / VI;                      /* id vectors per step */
    constexpr uint32_t STEP = (uint32_t)U * V * SPLIT_BLOCK_THREADS;
    static_assert(UI >= 1 && UI * VI == U * V, "a count step must cover whole bucket-id vectors");
    const uint32_t nb = p.rule.num_buckets, tid = threadIdx.x, lane = tid & 31u;
    const uint32_t copies = p.count_copies, copy = lane & (copies - 1u);
    uint32_t hist_off, extra_off;
    split_count_smem<KeyT, RULE>(p, &hist_off, &extra_off);
    KeyT *s_bounds = (KeyT *)smem;
    uint32_t *s_hist = (uint32_t *)(smem + hist_off);
    uint32_t *s_extra = (uint32_t *)(smem + extra_off);
    const uint32_t extra_copies = EXTRA ? p.extra_copies : 1u, extra_copy = lane & (extra_copies - 1u);
    const uint32_t field_bits = EXTRA ? 31u - __clz(nb) : 0u; /* EXTRA: B is 2^field_bits */
    split_load_boundaries<KeyT, RULE>(p.rule, s_bounds);
    const KeyT *keys = (const KeyT *)p.keys_in;
    const uint32_t *ids = p.rule.bucket_ids;
    const uint64_t chunk = (uint64_t)p.count_col_tiles * p.tile_items;
    const bool aligned = RULE == SPLIT_BUCKETS_IDS ? ids && ((uintptr_t)ids & 15u) == 0
                                                   : keys && ((uintptr_t)keys & 15u) == 0;
    const uint32_t sb = p.rule.start_bit & 31u;
    /* EXTRA: the bucket of both fields at once, split after the step. */
    const uint32_t mask = EXTRA ? (nb * p.extra_nb - 1u) : (uint32_t)p.rule.bit_mask;
    if (EXTRA)
        for (uint32_t b = tid; b < p.extra_nb * extra_copies; b += SPLIT_BLOCK_THREADS) s_extra[b] = 0;
    /* Tile rows (split_kernel_params.tile_rows): the histogram is cleared only at a column's end, so
     * after tile t it holds the column's counts through t: tile t + 1's row. */
    uint32_t *const rows = p.tile_rows;
    if (rows && blockIdx.x == 0 && tid == 0) { /* the scatter kernel's, before it runs */
        *p.tile_counter = 0;
        if (p.scan_claim) *p.scan_claim = *p.scan_done = 0;
    }
    if (blockIdx.x == 0)
        for (uint32_t k = tid; k < p.scan_chunks; k += SPLIT_BLOCK_THREADS) p.scan_status[k] = 0ull; /* the scan's, likewise */
    for (uint32_t b = tid; b < nb * copies; b += SPLIT_BLOCK_THREADS) s_hist[b] = 0;
    for (uint32_t col = blockIdx.x; col < p.count_cols; col += gridDim.x) {
        __syncthreads(); /* boundaries loaded; the histogram is clear */
        const uint64_t begin64 = (uint64_t)col * chunk;
        const uint32_t col_end = (uint32_t)(begin64 + chunk < (uint64_t)p.n ? begin64 + chunk : (uint64_t)p.n);
        /* A segment: the whole column, or with tile rows one tile. */
        const uint32_t seg = rows ? p.tile_items : (uint32_t)chunk;
        if (rows && begin64 < col_end)
            for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) rows[(size_t)(begin64 / p.tile_items) * nb + b] = 0u;
        for (uint32_t begin = (uint32_t)begin64; begin < col_end; begin = col_end - begin > seg ? begin + seg : col_end) {
            const uint32_t end = col_end - begin > seg ? begin + seg : col_end;
            uint32_t step = begin;
            if (aligned) {
                for (; end - step >= STEP; step += STEP) {
                    uint32_t b[U * V];
                    split_count_step<KeyT, RULE, false>(p, keys, ids, step, end, aligned, tid, s_bounds, sb, mask, b);
                    split_count_add2<EXTRA, false>(b, s_hist, copies, copy, s_extra, extra_copies, extra_copy, field_bits, nb);
                }
            }
            for (; step < end; step = end - step > STEP ? step + STEP : end) {
                uint32_t b[U * V];
                split_count_step<KeyT, RULE, true>(p, keys, ids, step, end, aligned, tid, s_bounds, sb, mask, b);
                split_count_add2<EXTRA, true>(b, s_hist, copies, copy, s_extra, extra_copies, extra_copy, field_bits, nb);
            }
            __syncthreads();
            /* Each thread reads its buckets' copies, and clears them at the column's end (the next
             * segment's atomics come after the barrier that follows): the next tile's row, or the
             * column's total. */
            const bool last = end == col_end;
            for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) {
                uint32_t c = 0;
                for (uint32_t k = 0; k < copies; ++k) {
                    c += s_hist[b * copies + k];
                    if (last) s_hist[b * copies + k] = 0;
                }
                if (rows && !last) rows[(size_t)(end / p.tile_items) * nb + b] = c;
                else p.table_counts[(size_t)b * p.count_cols + col] = c;
            }
            __syncthreads();
        }
    }
    if (EXTRA) {
        for (uint32_t b = tid; b < p.extra_nb; b += SPLIT_BLOCK_THREADS) {
            uint32_t c = 0;
            for (uint32_t k = 0; k < extra_copies; ++k) c += s_extra[b * extra_copies + k];
            if (c) atomicAdd(&p.extra_totals[b], c);
        }
    }
}

/* Writes a staged tile: item j goes to s_goff[s_bkt[j]] + j of each output given (NULL: not written). */
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

template <typename KeyT, int RULE, int MODE>
__global__ void __launch_bounds__(SPLIT_BLOCK_THREADS, SPLIT_SCATTER_MIN_BLOCKS) split_scatter_kernel(split_kernel_params p)
{
    split_wait_prior_grids();
    constexpr int ITEMS = SPLIT_BLOCK_PATH_ITEMS, NB = SPLIT_MAX_BITS; /* ballots: bits of a bucket id */
    constexpr uint32_t TILE = SPLIT_BLOCK_TILE_ITEMS, WARP_ITEMS = (uint32_t)ITEMS * SPLIT_WARP_LANES;
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t nb = p.rule.num_buckets, tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const split_smem_layout L = split_scatter_layout<KeyT, RULE, MODE>(nb, p.num_values, p.keys_out != NULL,
                                                                       p.gather_index != NULL);
    KeyT *s_bounds = (KeyT *)(smem + L.bounds);
    uint32_t *s_start = (uint32_t *)(smem + L.start);
    uint32_t *s_goff = (uint32_t *)(smem + L.goff);
    uint32_t *s_cnt = (uint32_t *)(smem + L.cnt);
    uint32_t *s_run = (uint32_t *)(smem + L.run);
    uint32_t *s_scratch = (uint32_t *)(smem + L.scratch);
    uint16_t *s_whist = (uint16_t *)(smem + L.counters);   /* stable: [warp][bucket] */
    KeyT *s_key = (KeyT *)(smem + L.key);
    uint32_t *s_val = (uint32_t *)(smem + L.val);
    uint32_t *s_idx = (uint32_t *)(smem + L.idx);
    uint16_t *s_bkt = (uint16_t *)(smem + L.bkt);
    const KeyT *keys_in = (const KeyT *)p.keys_in;
    KeyT *keys_out = (KeyT *)p.keys_out;
    const uint32_t nv = p.num_values;
    const uint32_t sb = p.rule.start_bit & 31u, mask = (uint32_t)p.rule.bit_mask;
    uint32_t *const gather_index = p.gather_index;
    uint32_t *const scatter_index = p.scatter_index;

    split_load_boundaries<KeyT, RULE>(p.rule, s_bounds);
    split_write_bucket_offsets(p);
    __syncthreads();

    const uint32_t lt = split_lanemask_lt();
    const uint32_t wbase = warp * WARP_ITEMS;
    const uint32_t *const rows = p.tile_rows;
    __shared__ uint32_t s_tile;
    split_for_each_tile<TILE, false>(p, &s_tile, [&](auto, uint32_t tile, uint64_t tile_base, uint32_t tile_n) {
        /* Load the warp's slice first (registers only), so the loads are in flight during the
         * tile start and its table read; then the buckets, then rank round by round. */
        KeyT key[ITEMS];
        uint32_t br[ITEMS]; /* bucket | rank << 16 inside the warp (stable: before the warp's counter) */
        split_load_slice<KeyT, ITEMS, false>(keys_in, tile_base, wbase, lane, tile_n, key);
        if (MODE == SPLIT_MODE_BLOCK_STABLE) {
            __syncthreads(); /* the previous tile's staging area (aliased with the counters) is read */
            uint32_t *w32 = (uint32_t *)s_whist;
            for (uint32_t j = tid; j < SPLIT_BLOCK_WARPS * nb / 2; j += SPLIT_BLOCK_THREADS) w32[j] = 0;
        }
        if (MODE == SPLIT_MODE_BLOCK_UNSTABLE)
            for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS) s_cnt[b] = 0;
        /* The tile's global start per bucket (tile rows); s_run was last read by the previous
         * tile's split_tile_offsets, which ends synchronised. */
        const uint32_t col = tile / p.count_col_tiles;
        for (uint32_t b = tid; b < nb; b += SPLIT_BLOCK_THREADS)
            s_run[b] = p.table_offsets[(size_t)b * p.count_cols + col] + rows[(size_t)tile * nb + b];
        __syncthreads();

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
        /* Value stream 0, loaded now so its loads overlap the tile's offsets phase. */
        uint32_t val0[ITEMS];
        if (nv) split_load_payload_slice<ITEMS, false>(p.values_in[0], tile_base, wbase, lane, tile_n, val0);
        __syncthreads();

        /* Tile counts, local starts, global offsets. */
        split_tile_offsets<MODE>(s_whist, s_cnt, s_start, s_goff, s_run, nb, s_scratch);

        /* Local positions (and the scatter index, written straight from them). */
        uint32_t lpos[ITEMS];
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
        /* Value stream 0 goes with the keys; streams 1.. reuse its staging buffer. */
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
            /* The common combinations with the absent outputs as constants (no per-item tests). */
            KeyT *kout = v == 0 ? keys_out : NULL;
            uint32_t *gout = v == 0 ? gather_index : NULL;
            if (kout && !gout && !vout)
                split_write_tile<KeyT, ITEMS>(tile_n, tid, s_bkt, s_goff, s_key, s_idx, s_val, kout, NULL, NULL);
            else if (kout && !gout && vout)
                split_write_tile<KeyT, ITEMS>(tile_n, tid, s_bkt, s_goff, s_key, s_idx, s_val, kout, NULL, vout);
            else
                split_write_tile<KeyT, ITEMS>(tile_n, tid, s_bkt, s_goff, s_key, s_idx, s_val, kout, gout, vout);
        }
    });
}

/* ---- typed launchers ---- */
template <typename KeyT, int RULE>
static sc_status split_launch_count_rule(const split_kernel_params &p, cudaStream_t stream)
{
    uint32_t hist_off, extra_off;
    const uint32_t smem = split_count_smem<KeyT, RULE>(p, &hist_off, &extra_off);
    if (RULE == SPLIT_BUCKETS_BITS && p.extra_totals)
        split_count_kernel<KeyT, RULE, true><<<p.count_cols, SPLIT_BLOCK_THREADS, smem, stream>>>(p);
    else
        split_count_kernel<KeyT, RULE, false><<<p.count_cols, SPLIT_BLOCK_THREADS, smem, stream>>>(p);
    SC_CUDA_CHECK_LAUNCH("split_count_kernel");
    return SC_OK;
}

template <typename KeyT, int RULE, int MODE>
static sc_status split_launch_scatter_in(const split_kernel_params &p, cudaStream_t stream)
{
    const split_smem_layout L = split_scatter_layout<KeyT, RULE, MODE>(p.rule.num_buckets, p.num_values,
                                                                       p.keys_out != NULL, p.gather_index != NULL);
    /* The largest layout it can ever use: B = 2048, every stream. */
    static std::atomic<unsigned long long> opted_in(0); /* a bit per device */
    const split_smem_layout M = split_scatter_layout<KeyT, RULE, MODE>(SPLIT_MAX_BUCKETS, SPLIT_MAX_VALUE_STREAMS, 1, 1);
    SC_TRY(split_allow_smem(split_scatter_kernel<KeyT, RULE, MODE>, L.total, M.total, opted_in));
    SC_CUDA_CHECK(split_launch_dependent(split_scatter_kernel<KeyT, RULE, MODE>, p.num_blocks, SPLIT_BLOCK_THREADS, L.total,
                                         stream, p));
    return SC_OK;
}

template <typename KeyT, int RULE>
static sc_status split_launch_scatter_mode(const split_kernel_params &p, int mode, cudaStream_t stream)
{
    if (mode == SPLIT_MODE_BLOCK_STABLE) return split_launch_scatter_in<KeyT, RULE, SPLIT_MODE_BLOCK_STABLE>(p, stream);
    return split_launch_scatter_in<KeyT, RULE, SPLIT_MODE_BLOCK_UNSTABLE>(p, stream);
}

template <typename KeyT>
sc_status split_launch_count(const split_kernel_params &p, int rule, cudaStream_t stream)
{
    return split_with_rule(rule, [&](auto r) { return split_launch_count_rule<KeyT, decltype(r)::value>(p, stream); });
}

template <typename KeyT>
sc_status split_launch_scatter(const split_kernel_params &p, int rule, int mode, cudaStream_t stream)
{
    return split_with_rule(rule, [&](auto r) { return split_launch_scatter_mode<KeyT, decltype(r)::value>(p, mode, stream); });
}

#endif /* MULTISPLIT_KERNELS_CUH */
