/* multisplit_column_launch.cuh - host launchers of the count kernel and the general scatter kernel
 * (internal, CUDA host code), templates instantiated per key type by multisplit_u32.cu and
 * multisplit_u64.cu. */
#ifndef SPLIT_MULTISPLIT_COLUMN_LAUNCH_CUH
#define SPLIT_MULTISPLIT_COLUMN_LAUNCH_CUH

#include "column_kernel.cuh"
#include "count_kernel.cuh"

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

#endif /* SPLIT_MULTISPLIT_COLUMN_LAUNCH_CUH */
