/* table_scan.cu - the exclusive scan of a split's (bucket x column) count table (internal, CUDA), one
 * launch of blocks of SPLIT_SMALL_SCAN_THREADS threads. Tables of up to SPLIT_SMALL_SCAN_MAX entries (few
 * buckets: B <= 8 at 1024 columns, and the B given totals of a two-pass split's second pass) take one
 * block; larger ones a block per chunk of SPLIT_SMALL_SCAN_MAX entries, each adding the totals the
 * chunks before it publish (one launch, programmatic dependent, where a device-wide scan takes two).
 * The kernel is in table_scan_block.cuh. */
#include "table_scan_block.cuh"

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
