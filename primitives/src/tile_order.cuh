/* tile_order.cuh - what the scatter kernels share (internal, CUDA): shared-memory layouts, tiles taken
 * in input order from a counter, a warp's slice of a tile, the words blocks publish to each other, and
 * the bucket offsets block 0 writes. */
#ifndef SPLIT_TILE_ORDER_CUH
#define SPLIT_TILE_ORDER_CUH

#include <type_traits>

#include "multisplit_internal.h"
#include "split_launch.cuh"

#define SPLIT_NO_POS 0xFFFFFFFFu

__host__ __device__ inline uint32_t split_align16(uint32_t x) { return (x + 15u) & ~15u; }
/* Shared-memory layouts: `bytes` placed at offset o, which moves past them (16-byte aligned); returns
 * their offset. */
__host__ __device__ inline uint32_t split_carve(uint32_t &o, uint32_t bytes)
{
    const uint32_t at = o;
    o = split_align16(o + bytes);
    return at;
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
        while (split_load_relaxed(p.scan_done) < p.scan_chunks) __nanosleep(SPLIT_SCAN_POLL_NS);
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

#endif /* SPLIT_TILE_ORDER_CUH */
