/* two_pass_kernels.cuh - the two-pass split's own kernel (internal, CUDA device code; host side in
 * multisplit.cu): the bucket offsets searched in the grouped keys of the last pass. */
#ifndef SPLIT_TWO_PASS_KERNELS_CUH
#define SPLIT_TWO_PASS_KERNELS_CUH

#include "multisplit_kernels.cuh"

/* bucket_offsets[b] = first j with bucket(keys[j]) >= b (keys grouped by bucket ascending);
 * bucket_offsets[B] = n. A warp per entry narrows [lo, hi) by 32 probes at once, about log_33 n steps
 * of one load each, where a thread's binary search takes log_2 n. */
template <typename KeyT>
__global__ void split_offsets_search_kernel(const KeyT *keys, uint32_t n, uint32_t start_bit, uint32_t mask,
                                            uint32_t num_buckets, uint32_t *bucket_offsets)
{
    split_wait_prior_grids(); /* the keys of the split's last pass */
    const uint32_t lane = threadIdx.x & 31u, b = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (b > num_buckets) return; /* the whole warp */
    auto below = [&](uint32_t j) { return (uint32_t)(((uint64_t)keys[j] >> start_bit) & mask) < b; };
    /* The answer lies in [lo, hi]: the records before lo are below b, those from hi on are not. */
    uint32_t lo = b == num_buckets ? n : 0u, hi = n;
    while (hi - lo > 32u) {
        const uint32_t step = (hi - lo) / 33u; /* lane i probes lo + (i + 1) step < hi */
        const uint32_t c = __popc(__ballot_sync(SPLIT_FULL_MASK, below(lo + (lane + 1u) * step)));
        hi = c < 32u ? lo + (c + 1u) * step : hi; /* probe c is not below */
        lo = c ? lo + c * step + 1u : lo;         /* probe c - 1 is */
    }
    const uint32_t m = __ballot_sync(SPLIT_FULL_MASK, lo + lane < hi && below(lo + lane));
    if (lane == 0) bucket_offsets[b] = lo + __popc(m);
}

#endif /* SPLIT_TWO_PASS_KERNELS_CUH */
