/* segmented_tiers.cuh - the kernels of the segmented split for B > SEG_BALLOT_MAX_BUCKETS (internal,
 * CUDA): small segments a warp each (seg_warp_kernel, which also lists the larger ones), medium
 * segments a block each and the huge segments' tile counts and scans (seg_large_kernel), the huge
 * tiles' ranking (seg_huge_scatter_kernel). */
#ifndef SPLIT_SEGMENTED_TIERS_CUH
#define SPLIT_SEGMENTED_TIERS_CUH

#include "segmented_tiles.cuh"

namespace {

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

} // namespace

#endif /* SPLIT_SEGMENTED_TIERS_CUH */
