/* multisplit_twolevel.cu - host side of the two-level kernel (twolevel_kernel.cuh): which splits take
 * it, its tiles, and its launch compiled for the rule and the payload. */
#include <atomic>

#include "twolevel_kernel.cuh"

int split_twolevel_eligible(int key64, uint32_t num_buckets, uint32_t payloads, int scatter_index)
{
    return !key64 && num_buckets > SPLIT_LOOKBACK_MAX_BUCKETS && num_buckets <= SPLIT_TL_MAX_BUCKETS &&
           payloads <= 1 && !scatter_index;
}

/* RECOMP kernels: the BITS rule with keys and a payload out (keys only: the two-pass split). */
static bool split_tl_recomp(int pay, int rule, int keys_out) { return rule == SPLIT_BUCKETS_BITS && keys_out && pay; }

uint32_t split_twolevel_tile_items(int pay, int rule, int keys_out)
{
    return split_tl_tile(pay != 0, split_tl_recomp(pay, rule, keys_out));
}

template <int RULE, bool PAY, bool RECOMP>
static sc_status split_launch_twolevel_in(const split_kernel_params &p, cudaStream_t stream)
{
    constexpr uint32_t tile = split_tl_tile(PAY, RECOMP);
    const split_tl_layout L = split_tl_layout_of<RULE, RECOMP>(p.rule.num_buckets, p.keys_out != NULL, PAY, tile);
    /* The largest layout it can use: B = 2048, keys out. */
    static std::atomic<unsigned long long> opted_in(0); /* a bit per device */
    const split_tl_layout M = split_tl_layout_of<RULE, RECOMP>(SPLIT_TL_MAX_BUCKETS, 1, PAY, tile);
    SC_TRY(split_allow_smem(split_twolevel_kernel<RULE, PAY, RECOMP>, L.total, M.total, opted_in));
    SC_CUDA_CHECK(split_launch_dependent(split_twolevel_kernel<RULE, PAY, RECOMP>, p.num_blocks, SPLIT_TL_THREADS, L.total,
                                         stream, p));
    return SC_OK;
}

template <int RULE>
static sc_status split_launch_twolevel_rule(const split_kernel_params &p, cudaStream_t stream)
{
    if (p.gather_index || p.num_values) return split_launch_twolevel_in<RULE, true, false>(p, stream);
    return split_launch_twolevel_in<RULE, false, false>(p, stream);
}

sc_status split_launch_twolevel(const split_kernel_params &p, int rule, cudaStream_t stream)
{
    return split_with_rule(rule, [&](auto r) -> sc_status {
        constexpr int RULE = decltype(r)::value;
        if constexpr (RULE == SPLIT_BUCKETS_BITS)
            if (split_tl_recomp(p.gather_index || p.num_values, RULE, p.keys_out != NULL))
                return split_launch_twolevel_in<RULE, true, true>(p, stream);
        return split_launch_twolevel_rule<RULE>(p, stream);
    });
}
