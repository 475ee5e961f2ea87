/* warp_rank.cuh - warp-level ranking of a round's 32 records by bucket (internal, CUDA): ballots over
 * the bucket bits (a lane's peers, or the lanes of bucket `lane`), and the stable rank by a shared
 * atomicOr match for many buckets. Every lane of the warp calls them. */
#ifndef SPLIT_WARP_RANK_CUH
#define SPLIT_WARP_RANK_CUH

#include "warp_scan.cuh"

/* Ballot match of a round's buckets, NB ballots (NB at least the bits of any valid bucket; compile
 * time, so the ballots unroll). lane_masks[k] = bit k of the lane ? 0 : ~0 (split_lane_masks). */
template <int NB>
__device__ __forceinline__ void split_lane_masks(uint32_t lane, uint32_t (&lane_masks)[NB])
{
#pragma unroll
    for (int k = 0; k < NB; ++k) lane_masks[k] = ((lane >> k) & 1u) - 1u;
}

/* Lanes of this round (among valid_mask) with the same bucket as the calling lane. */
template <int NB>
__device__ __forceinline__ uint32_t split_match(uint32_t bucket, uint32_t valid_mask)
{
    uint32_t mine = valid_mask;
#pragma unroll
    for (int k = 0; k < NB; ++k) {
        const uint32_t bit = (bucket >> k) & 1u;
        mine &= __ballot_sync(SPLIT_FULL_MASK, bit) ^ (bit - 1u);
    }
    return mine;
}

/* Lanes of this round (among valid_mask) whose bucket's low NB bits equal the lane index (its bucket,
 * when it has no more bits). Bit k of the bucket is
 * (x & tests[k]) != 0: x the bucket and tests[k] = 1 << k (split_bucket_bit_tests), or x the 32-bit key
 * itself and tests[k] its bit of the field (split_key_bit_tests). A masked test is one LOP3 into a
 * predicate, so a bit costs that, the ballot and one LOP3; the shifted test `(bucket >> k) & 1`
 * compiles to about five instructions a bit. */
template <int NB, int N>
__device__ __forceinline__ uint32_t split_match_lane(uint32_t x, const uint32_t (&tests)[N], uint32_t valid_mask,
                                                     const uint32_t (&lane_masks)[N])
{
    static_assert(NB <= N && NB <= 5, "the first NB of N tests, one per bit of the lane index");
    uint32_t lanes = valid_mask;
#pragma unroll
    for (int k = 0; k < NB; ++k) lanes &= __ballot_sync(SPLIT_FULL_MASK, (x & tests[k]) != 0u) ^ lane_masks[k];
    return lanes;
}

/* Tests of split_match_lane on the bucket: bit k. */
template <int NB>
__device__ __forceinline__ void split_bucket_bit_tests(uint32_t (&tests)[NB])
{
#pragma unroll
    for (int k = 0; k < NB; ++k) tests[k] = 1u << k;
}

/* Tests of split_match_lane on a 32-bit key whose bucket is (key >> sb) & mask (the BITS rule): the
 * key's bit sb + k where bit k is in the mask, else none (the bucket's bit k is then 0). */
template <int NB>
__device__ __forceinline__ void split_key_bit_tests(uint32_t sb, uint32_t mask, uint32_t (&tests)[NB])
{
#pragma unroll
    for (int k = 0; k < NB; ++k) tests[k] = ((mask >> k) & 1u) && sb + (uint32_t)k < 32u ? 1u << (sb + (uint32_t)k) : 0u;
}

/* Stable rank of a round's record among the warp's records of its bucket b (B <= 2^16): the warp's
 * counter s_wc_w[b] (records of b in the earlier rounds) plus the round's lanes of b before this one.
 * The lanes of lane 0's bucket find each other by one ballot, the others by a shared atomicOr of lane
 * bits into s_match_w[b] (kept 0 between rounds): skewed input (one bucket holding most records) then
 * makes few lanes collide on one word. Every lane of the warp calls it; invalid lanes (valid false) get 0 and change
 * nothing; FULL: every lane is valid. */
__device__ __forceinline__ uint32_t split_rank_atomic_or(uint32_t b, bool valid, bool full, uint32_t *s_match_w,
                                                         uint32_t *s_wc_w, uint32_t lane, uint32_t lt)
{
    const uint32_t k = valid ? b : 0u;
    const uint32_t b0 = __shfl_sync(SPLIT_FULL_MASK, b, 0); /* by every lane, not under `valid &&` */
    const bool in0 = valid && b == b0;
    const uint32_t group0 = __ballot_sync(SPLIT_FULL_MASK, in0);
    const uint32_t valid_mask = full ? SPLIT_FULL_MASK : __ballot_sync(SPLIT_FULL_MASK, valid);
    uint32_t peers = group0;
    if (group0 != valid_mask) { /* warp-uniform */
        if (valid && !in0) atomicOr(&s_match_w[k], 1u << lane);
        __syncwarp();
        if (valid && !in0) peers = s_match_w[k];
    }
    if (!valid) peers = 0u;
    const uint32_t base = valid ? s_wc_w[k] : 0u;
    __syncwarp();
    if (valid && lane == 31u - __clz(peers)) {
        s_wc_w[k] = base + __popc(peers);
        if (!in0) s_match_w[k] = 0u;
    }
    __syncwarp();
    return base + __popc(peers & lt);
}

#endif /* SPLIT_WARP_RANK_CUH */
