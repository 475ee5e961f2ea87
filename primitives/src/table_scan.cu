/* table_scan.cu - the exclusive scan of a split's (bucket x column) count table (internal, CUDA).
 * Tables of up to SPLIT_SMALL_SCAN_MAX entries (few buckets: B <= 8 at 1024 columns, and the B given
 * totals of a two-pass split's second pass) take one block of SPLIT_SMALL_SCAN_THREADS threads in one launch;
 * larger ones CUB's DeviceScan (two launches: its tile states, then the scan). */
#include <cub/device/device_scan.cuh>

#include "multisplit_kernels.cuh"

/* Entry i = row * THREADS + thread (rows of the block's width, loaded coalesced): each warp scans its
 * part of every row, warp 0 scans the ROWS x warps warp totals in entry order, every thread adds its
 * warp's prefix. */
template <int ROWS>
__global__ void __launch_bounds__(SPLIT_SMALL_SCAN_THREADS) split_small_scan_kernel(const uint32_t *in, uint32_t *out, uint32_t n)
{
    constexpr uint32_t T = SPLIT_SMALL_SCAN_THREADS, WARPS = T / 32, TOTALS = ROWS * WARPS;
    static_assert(TOTALS % 32 == 0, "warp 0 scans whole chunks of warp totals");
    __shared__ uint32_t s_prefix[TOTALS]; /* [row][warp]: the warp's total, then its exclusive prefix */
    split_wait_prior_grids();   /* the count kernel's table */
    split_release_dependents(); /* the scatter kernel may be scheduled; it waits for this one */
    const uint32_t t = threadIdx.x, lane = t & 31u, warp = t >> 5;
    uint32_t v[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const uint32_t i = (uint32_t)r * T + t;
        v[r] = i < n ? in[i] : 0u;
    }
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const uint32_t incl = split_warp_inclusive_sum(v[r], lane);
        if (lane == 31) s_prefix[r * WARPS + warp] = incl;
        v[r] = incl - v[r];
    }
    __syncthreads();
    if (warp == 0) {
        constexpr uint32_t PER_LANE = TOTALS / 32; /* lane l: totals [l * PER_LANE, (l + 1) * PER_LANE) */
        uint32_t sum = 0;
        for (uint32_t k = 0; k < PER_LANE; ++k) sum += s_prefix[lane * PER_LANE + k];
        uint32_t run = split_warp_inclusive_sum(sum, lane) - sum;
        for (uint32_t k = 0; k < PER_LANE; ++k) {
            const uint32_t x = s_prefix[lane * PER_LANE + k];
            s_prefix[lane * PER_LANE + k] = run;
            run += x;
        }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const uint32_t i = (uint32_t)r * T + t;
        if (i < n) out[i] = v[r] + s_prefix[r * WARPS + warp];
    }
}

template <int ROWS>
static sc_status split_launch_small_scan(const uint32_t *in, uint32_t *out, uint32_t n, cudaStream_t stream)
{
    SC_CUDA_CHECK(split_launch_dependent(split_small_scan_kernel<ROWS>, 1, SPLIT_SMALL_SCAN_THREADS, 0, stream, in, out, n));
    return SC_OK;
}

sc_status split_table_scan(const uint32_t *counts, uint32_t *offsets, size_t entries, void *cub_temp, size_t cub_bytes,
                           cudaStream_t stream)
{
    static_assert(SPLIT_SMALL_SCAN_MAX == 8 * SPLIT_SMALL_SCAN_THREADS, "rows of the small scan: 1, 2, 4 or 8");
    if (entries == 0) return SC_OK;
    if (entries <= SPLIT_SMALL_SCAN_MAX) {
        const uint32_t n = (uint32_t)entries, rows = (n + SPLIT_SMALL_SCAN_THREADS - 1) / SPLIT_SMALL_SCAN_THREADS;
        if (rows <= 1) return split_launch_small_scan<1>(counts, offsets, n, stream);
        if (rows <= 2) return split_launch_small_scan<2>(counts, offsets, n, stream);
        if (rows <= 4) return split_launch_small_scan<4>(counts, offsets, n, stream);
        return split_launch_small_scan<8>(counts, offsets, n, stream);
    }
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp, cub_bytes, counts, offsets, (int)entries, stream));
    return SC_OK;
}
