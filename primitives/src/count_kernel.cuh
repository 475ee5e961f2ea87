/* count_kernel.cuh - the count kernel of every split (internal, CUDA): per-column bucket counts into
 * the column-major table (entry b * C + c) and, with tile rows, each tile's counts of the tiles before
 * it in its column; the order of counting does not matter, so each thread reads 16-byte vectors of
 * consecutive keys (whole steps without per-item tests, the column's tail with them), one shared
 * atomic per record into the lane's copy of the histogram (copies interleaved per bucket). Column c is
 * the tiles [c * count_col_tiles, (c + 1) * count_col_tiles), a block each. */
#ifndef SPLIT_COUNT_KERNEL_CUH
#define SPLIT_COUNT_KERNEL_CUH

#include "sc_cuda_arch.h"
#include "tile_order.cuh"

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
 * little). Every B: for B <= 32 too these atomics beat ballots per round. */
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
__global__ void __launch_bounds__(SPLIT_BLOCK_THREADS,
                                     RULE == SPLIT_BUCKETS_RANGE ? 1 : SC_MIN_BLOCKS(SPLIT_BLOCK_THREADS, SPLIT_COUNT_BLOCKS_PER_SM))
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

#endif /* SPLIT_COUNT_KERNEL_CUH */
