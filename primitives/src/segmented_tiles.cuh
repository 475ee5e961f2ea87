/* segmented_tiles.cuh - block-wide ranking of a range of a segment and the huge segments' tiles
 * (internal, CUDA), shared by both paths of the segmented split: sub-tiles of SEG_SUBTILE records
 * ranked by a block radix sort of (bucket, index) keys and written bucket run by bucket run; a huge
 * segment's tiles counted per tile, then scanned down each bucket's column of tiles. The bucket scan
 * is CUB's BlockScan: its temporary storage shares a union with the radix sort's. */
#ifndef SPLIT_SEGMENTED_TILES_CUH
#define SPLIT_SEGMENTED_TILES_CUH

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "segmented_params.cuh"

namespace {

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
        for (uint32_t t0 = first; t0 < first + tiles; t0 += SEG_HUGE_SCAN_BATCH) {
            uint32_t c[SEG_HUGE_SCAN_BATCH];
#pragma unroll
            for (int k = 0; k < SEG_HUGE_SCAN_BATCH; ++k)
                c[k] = t0 + k < first + tiles ? __ldcg(p.tile_base + (size_t)(t0 + k) * nb + b) : 0u;
#pragma unroll
            for (int k = 0; k < SEG_HUGE_SCAN_BATCH; ++k) {
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

} // namespace

#endif /* SPLIT_SEGMENTED_TILES_CUH */
