/* table_scan_block.cuh - one chunk of the exclusive scan of a split's (bucket x column) count table,
 * scanned by one block (internal, CUDA). The table scan kernel (table_scan.cu) runs a chunk per
 * block; the look-back kernel (multisplit_lookback.cu) runs the chunks itself before its tiles. */
#ifndef TABLE_SCAN_BLOCK_CUH
#define TABLE_SCAN_BLOCK_CUH

#include "multisplit_kernels.cuh"

/* A chunk's published total: this flag | the total (status words zeroed before the scan). */
#define SPLIT_SCAN_PUBLISHED (1ull << 63)

/* Shared memory of split_scan_chunk: the warp totals of every row, then the chunks before it. */
template <uint32_t THREADS, int ROWS>
struct split_scan_chunk_smem {
    uint32_t prefix[ROWS * (THREADS / 32)];
    uint32_t before;
};

/* Chunk `chunk` of `chunks` = entries [chunk * ROWS * THREADS, (chunk + 1) * ROWS * THREADS) of in
 * (n entries), entry row * THREADS + thread within it (rows of the block's width, loaded coalesced),
 * into out: each warp scans its part of every row, warp 0 scans the ROWS x warps warp totals in entry
 * order, every thread adds its warp's prefix. Several chunks (status not NULL): the chunk publishes its
 * total into status[chunk] (unless it is the last) and adds the totals of the chunks before it, which
 * warp 0 reads in parallel. Every chunk publishes before it waits and waits only for chunks of lower
 * index; the caller makes sure those are taken by running blocks. Every thread of the block calls it;
 * it begins and ends without a barrier of its own around `s`. */
template <uint32_t THREADS, int ROWS>
__device__ __forceinline__ void split_scan_chunk(const uint32_t *in, uint32_t *out, uint32_t n, unsigned long long *status,
                                                 uint32_t chunk, uint32_t chunks, split_scan_chunk_smem<THREADS, ROWS> &s)
{
    constexpr uint32_t WARPS = THREADS / 32, TOTALS = ROWS * WARPS;
    static_assert(THREADS % 32 == 0 && TOTALS % 32 == 0, "warp 0 scans whole chunks of warp totals");
    const uint32_t t = threadIdx.x, lane = t & 31u, warp = t >> 5;
    const uint32_t base = chunk * (uint32_t)ROWS * THREADS;
    uint32_t v[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const uint32_t i = base + (uint32_t)r * THREADS + t;
        v[r] = i < n ? in[i] : 0u;
    }
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const uint32_t incl = split_warp_inclusive_sum(v[r], lane);
        if (lane == 31) s.prefix[r * WARPS + warp] = incl;
        v[r] = incl - v[r];
    }
    __syncthreads();
    if (warp == 0) {
        /* Warp 0 scans the ROWS x WARPS warp totals in entry order: each lane a run of PER_LANE of them
         * serially, then one warp scan over the lanes' sums (a generic block scan of one value per
         * thread does not fit rows of warp totals). Lane l: totals [l * PER_LANE, (l + 1) * PER_LANE). */
        constexpr uint32_t PER_LANE = TOTALS / 32;
        uint32_t sum = 0;
        for (uint32_t k = 0; k < PER_LANE; ++k) sum += s.prefix[lane * PER_LANE + k];
        const uint32_t incl = split_warp_inclusive_sum(sum, lane);
        uint32_t run = incl - sum;
        for (uint32_t k = 0; k < PER_LANE; ++k) {
            const uint32_t x = s.prefix[lane * PER_LANE + k];
            s.prefix[lane * PER_LANE + k] = run;
            run += x;
        }
        uint32_t before = 0;
        if (status) {
            if (lane == 31 && chunk + 1 < chunks) split_store_relaxed(status + chunk, SPLIT_SCAN_PUBLISHED | incl);
            for (uint32_t j = lane; j < chunk; j += 32u) {
                unsigned long long w;
                do {
                    w = split_load_relaxed(status + j);
                } while (!(w & SPLIT_SCAN_PUBLISHED));
                before += (uint32_t)w;
            }
            before = __shfl_sync(SPLIT_FULL_MASK, split_warp_inclusive_sum(before, lane), 31);
        }
        if (lane == 0) s.before = before;
    }
    __syncthreads();
    const uint32_t before = s.before;
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const uint32_t i = base + (uint32_t)r * THREADS + t;
        if (i < n) out[i] = v[r] + s.prefix[r * WARPS + warp] + before;
    }
}

/* A chunk per block (split_scan_chunk): blockIdx.x of gridDim.x; status NULL when there is one. */
template <int ROWS>
__global__ void __launch_bounds__(SPLIT_SMALL_SCAN_THREADS)
    split_small_scan_kernel(const uint32_t *in, uint32_t *out, uint32_t n, unsigned long long *status)
{
    __shared__ split_scan_chunk_smem<SPLIT_SMALL_SCAN_THREADS, ROWS> s;
    split_wait_prior_grids();   /* the count kernel's table (and the zeroed status) */
    split_release_dependents(); /* the scatter kernel may be scheduled; it waits for this one */
    split_scan_chunk<SPLIT_SMALL_SCAN_THREADS, ROWS>(in, out, n, status, blockIdx.x, gridDim.x, s);
}

#endif /* TABLE_SCAN_BLOCK_CUH */
