/* multisplit_lookback.cu - host side of the look-back kernel (lookback_kernel.cuh): its tiles, blocks
 * per SM, and the launch of the kernel compiled for the key type, rule, outputs and ballots. */
#include "lookback_kernel.cuh"

uint32_t split_lookback_tile_items(int key64, int out, uint32_t num_buckets, int look)
{
    return split_lb_tile(key64 != 0, out, num_buckets <= SPLIT_LB_BALLOT_MAX_BUCKETS, look != 0);
}

int split_lookback_ahead(int key64, int out, uint32_t num_buckets)
{
    return split_lb_ahead(key64 != 0, out, num_buckets <= SPLIT_LB_BALLOT_MAX_BUCKETS);
}

uint32_t split_lookback_blocks_per_sm(int key64, int out, uint32_t num_buckets, int look)
{
    return (uint32_t)split_lb_blocks_per_sm(key64 != 0, out, num_buckets <= SPLIT_LB_BALLOT_MAX_BUCKETS, look != 0);
}

template <typename KeyT, int RULE, int OUT, int NB, bool LOOK>
static sc_status split_launch_lookback_kernel(const split_kernel_params &p, cudaStream_t stream)
{
    const uint32_t tile = split_lb_tile(sizeof(KeyT) == 8, OUT, NB > 0, LOOK);
    const uint32_t payloads = (p.gather_index ? 1u : 0u) + p.num_values;
    const split_lb_layout L = split_lb_layout_of<KeyT, RULE>(p.rule.num_buckets, p.keys_out != NULL, payloads, tile);
    /* The largest layout it can use; keys out is the larger one (a key per staged record against a byte). */
    static std::atomic<unsigned long long> opted_in(0); /* a bit per device */
    const split_lb_layout M = split_lb_layout_of<KeyT, RULE>(NB > 0 ? SPLIT_LB_BALLOT_MAX_BUCKETS : SPLIT_LOOKBACK_MAX_BUCKETS, 1,
                                                             OUT == SPLIT_LB_OUT_ANY ? SPLIT_MAX_VALUE_STREAMS + 1u
                                                             : OUT == SPLIT_LB_OUT_PAYLOADS ? 1u : 0u,
                                                             tile);
    SC_TRY(split_allow_smem(split_lookback_kernel<KeyT, RULE, OUT, NB, LOOK>, L.total, M.total, opted_in));
    SC_CUDA_CHECK(split_launch_dependent(split_lookback_kernel<KeyT, RULE, OUT, NB, LOOK>, p.num_blocks, SPLIT_LB_THREADS,
                                         L.total, stream, p));
    return SC_OK;
}

/* The kernels that take tiles one ahead need tile rows; with given totals (no tile rows) the same
 * kernel looks back instead (LOOK), compiled for the BITS rule only: the second pass of a two-pass
 * split is its one caller (split_job_run). */
template <typename KeyT, int RULE, int OUT, int NB>
static sc_status split_launch_lookback_out(const split_kernel_params &p, cudaStream_t stream)
{
    if constexpr (split_lb_ahead(sizeof(KeyT) == 8, OUT, NB > 0)) {
        if (!p.tile_rows) {
            if constexpr (RULE == SPLIT_BUCKETS_BITS) return split_launch_lookback_kernel<KeyT, RULE, OUT, NB, true>(p, stream);
            else return SC_FAIL(SC_ERROR_UNSUPPORTED, "split: given bucket totals need the BITS rule here");
        }
    }
    return split_launch_lookback_kernel<KeyT, RULE, OUT, NB, false>(p, stream);
}

template <typename KeyT, int RULE, int NB>
static sc_status split_launch_lookback_nb(const split_kernel_params &p, cudaStream_t stream)
{
    const uint32_t payloads = (p.gather_index ? 1u : 0u) + p.num_values;
    if (p.scatter_index || payloads > 1) return split_launch_lookback_out<KeyT, RULE, SPLIT_LB_OUT_ANY, NB>(p, stream);
    if (payloads) return split_launch_lookback_out<KeyT, RULE, SPLIT_LB_OUT_PAYLOADS, NB>(p, stream);
    return split_launch_lookback_out<KeyT, RULE, SPLIT_LB_OUT_KEYS, NB>(p, stream);
}

/* Ballots per round: B <= 2 one, B <= 8 three, B <= 32 five, B <= 64 six (one kernel per count; B = 4
 * pays one ballot more than it needs); 0 above (the shared atomicOr match). */
template <typename KeyT, int RULE>
static sc_status split_launch_lookback_rule(const split_kernel_params &p, cudaStream_t stream)
{
    const uint32_t nb = p.rule.num_buckets;
    if (nb <= 2) return split_launch_lookback_nb<KeyT, RULE, 1>(p, stream);
    if (nb <= 8) return split_launch_lookback_nb<KeyT, RULE, 3>(p, stream);
    if (nb <= 32) return split_launch_lookback_nb<KeyT, RULE, 5>(p, stream);
    if (nb <= SPLIT_LB_BALLOT_MAX_BUCKETS) return split_launch_lookback_nb<KeyT, RULE, 6>(p, stream);
    return split_launch_lookback_nb<KeyT, RULE, 0>(p, stream);
}

template <typename KeyT>
sc_status split_launch_lookback(const split_kernel_params &p, int rule, cudaStream_t stream)
{
    return split_with_rule(rule, [&](auto r) { return split_launch_lookback_rule<KeyT, decltype(r)::value>(p, stream); });
}

template sc_status split_launch_lookback<uint32_t>(const split_kernel_params &, int, cudaStream_t);
template sc_status split_launch_lookback<uint64_t>(const split_kernel_params &, int, cudaStream_t);
