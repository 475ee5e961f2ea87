/* table_scan.cu - the exclusive scan of a split's (bucket x column) count table (internal, CUDA), one
 * launch of blocks of SPLIT_SMALL_SCAN_THREADS threads. Tables of up to SPLIT_SMALL_SCAN_MAX entries (few
 * buckets: B <= 8 at 1024 columns, and the B given totals of a two-pass split's second pass) take one
 * block; larger ones a block per chunk of SPLIT_SMALL_SCAN_MAX entries, each adding the totals the
 * chunks before it publish (it replaced CUB's DeviceScan, two launches without programmatic dependent
 * launch: H100, 2^24 keys, B = 32 0.102 -> 0.099 ms, B = 256 0.135 -> 0.131). */
#include "multisplit_kernels.cuh"

/* Chunk k = blockIdx.x: entries [k * ROWS * THREADS, (k + 1) * ROWS * THREADS), entry row * THREADS +
 * thread within it (rows of the block's width, loaded coalesced): each warp scans its part of every
 * row, warp 0 scans the ROWS x warps warp totals in entry order, every thread adds its warp's prefix.
 * Several chunks (status not NULL, zeroed before the launch): chunk k publishes its total into
 * status[k] (SPLIT_SCAN_PUBLISHED | total) and adds the totals of the chunks before it, which warp 0
 * reads in parallel. Every chunk publishes before it waits and waits only for chunks of lower index
 * (launched before it), so no wait is circular. */
#define SPLIT_SCAN_PUBLISHED (1ull << 63)

template <int ROWS>
__global__ void __launch_bounds__(SPLIT_SMALL_SCAN_THREADS)
    split_small_scan_kernel(const uint32_t *in, uint32_t *out, uint32_t n, unsigned long long *status)
{
    constexpr uint32_t T = SPLIT_SMALL_SCAN_THREADS, WARPS = T / 32, TOTALS = ROWS * WARPS;
    static_assert(TOTALS % 32 == 0, "warp 0 scans whole chunks of warp totals");
    __shared__ uint32_t s_prefix[TOTALS]; /* [row][warp]: the warp's total, then its exclusive prefix */
    __shared__ uint32_t s_before;         /* the totals of the chunks before this one */
    split_wait_prior_grids();   /* the count kernel's table (and the zeroed status) */
    split_release_dependents(); /* the scatter kernel may be scheduled; it waits for this one */
    const uint32_t t = threadIdx.x, lane = t & 31u, warp = t >> 5, chunk = blockIdx.x;
    const uint32_t base = chunk * (uint32_t)ROWS * T;
    uint32_t v[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const uint32_t i = base + (uint32_t)r * T + t;
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
        const uint32_t incl = split_warp_inclusive_sum(sum, lane);
        uint32_t run = incl - sum;
        for (uint32_t k = 0; k < PER_LANE; ++k) {
            const uint32_t x = s_prefix[lane * PER_LANE + k];
            s_prefix[lane * PER_LANE + k] = run;
            run += x;
        }
        uint32_t before = 0;
        if (status) {
            if (lane == 31 && chunk + 1 < gridDim.x) split_store_relaxed(status + chunk, SPLIT_SCAN_PUBLISHED | incl);
            for (uint32_t j = lane; j < chunk; j += 32u) {
                unsigned long long w;
                do {
                    w = split_load_relaxed(status + j);
                } while (!(w & SPLIT_SCAN_PUBLISHED));
                before += (uint32_t)w;
            }
            before = __shfl_sync(SPLIT_FULL_MASK, split_warp_inclusive_sum(before, lane), 31);
        }
        if (lane == 0) s_before = before;
    }
    __syncthreads();
    const uint32_t before = s_before;
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const uint32_t i = base + (uint32_t)r * T + t;
        if (i < n) out[i] = v[r] + s_prefix[r * WARPS + warp] + before;
    }
}

template <int ROWS>
static sc_status split_launch_small_scan(const uint32_t *in, uint32_t *out, uint32_t n, cudaStream_t stream)
{
    SC_CUDA_CHECK(split_launch_dependent(split_small_scan_kernel<ROWS>, 1, SPLIT_SMALL_SCAN_THREADS, 0, stream, in, out, n,
                                         (unsigned long long *)NULL));
    return SC_OK;
}

sc_status split_table_scan(const uint32_t *counts, uint32_t *offsets, size_t entries, unsigned long long *status,
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
    if (status && entries <= UINT32_MAX) {
        const uint32_t n = (uint32_t)entries, chunks = split_table_scan_chunks(entries);
        if (chunks <= SPLIT_SCAN_DEPENDENT_MAX_CHUNKS) {
            SC_CUDA_CHECK(split_launch_dependent(split_small_scan_kernel<8>, chunks, SPLIT_SMALL_SCAN_THREADS, 0, stream,
                                                 counts, offsets, n, status));
        } else {
            split_small_scan_kernel<8><<<chunks, SPLIT_SMALL_SCAN_THREADS, 0, stream>>>(counts, offsets, n, status);
            SC_CUDA_CHECK_LAUNCH("split_small_scan_kernel");
        }
        return SC_OK;
    }
    return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "split: a count table of %zu entries needs its scan status words", entries);
}
