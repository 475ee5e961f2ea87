/* multisplit_wide.cu - the wide unstable multisplit (B up to SPLIT_MAX_WIDE_BUCKETS, internal).
 * Taken by split_multisplit / split_index for unstable calls with B > SPLIT_MAX_BUCKETS, with the
 * caller's bucket_counts or with num_records_device (multisplit.cu routes them here).
 *   1. counts: cudaMemsetAsync + count kernel (one atomicAdd per distinct bucket of a warp round,
 *      __match_any_sync), skipped when the caller gives bucket_counts;
 *   2. exclusive scan of the B counts (CUB) into the cursors and, in the same pass, the bucket
 *      offsets (the record count c as their last entry, written by the place kernel);
 *   3. place kernel: every record takes slot = cursor[bucket]++ and writes its key, value and indices
 *      there, block-aggregated (wide_kernels.cuh): a block ranks a tile's records by bucket in shared
 *      memory, takes one atomicAdd per distinct bucket of the tile and writes the tile's runs whole
 *      (the renderer's tile split, clustered by tile: 0.024 ms for the dragon's 0.77M references
 *      against 0.037 with an atomicAdd per distinct bucket of every warp round, H100).
 * Records [0, c), c = min(*num_records_device, n) (n without it); slots >= c (wrong caller counts)
 * are dropped, so nothing is written outside the outputs. Temporary storage: counts (B, unless
 * given) | cursors (B) | CUB scan storage. No allocation, no synchronisation. */
#include <stdint.h>
#include <string.h>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/tabulate_output_iterator.h>

#include "multisplit_internal.h"
#include "sc_report.h"
#include "split.h"
#include "split_occupancy.cuh"
#include "split_validate.h"
#include "wide_kernels.cuh"

static_assert(SPLIT_WIDE_LANE_ITEMS * sizeof(uint32_t) == 16, "one uint4 of uint32_t per lane");
static_assert(SPLIT_WIDE_THREADS % 32 == 0, "whole warps");
static_assert((1u << SPLIT_WIDE_MAX_BITS) == (uint32_t)SPLIT_MAX_WIDE_BUCKETS, "bits and buckets agree");

static size_t wide_align(size_t x) { return (x + SPLIT_TEMP_ALIGN - 1) / SPLIT_TEMP_ALIGN * SPLIT_TEMP_ALIGN; }

/* Launches a grid-stride kernel with at most one wave: min(want, SMs x its resident blocks per SM)
 * blocks (ncu: the renderer's tile split ran 1.33 waves with a fixed 8 blocks per SM, 6 resident).
 * `occ` caches the kernel's resident blocks per device (split_blocks_per_sm). */
template <typename Kernel>
static sc_status wide_launch_one(Kernel kernel, split_occ_cache &occ, const wide_params &p, uint64_t want, int sms,
                                 cudaStream_t stream, const char *name)
{
    int dev = 0, per_sm = 0;
    SC_TRY(split_blocks_per_sm(kernel, SPLIT_WIDE_THREADS, 0, occ, &dev, &per_sm));
    const uint64_t cap = (uint64_t)(sms > 0 ? sms : 1) * (uint64_t)(per_sm > 0 ? per_sm : 1);
    const uint32_t blocks = (uint32_t)(want < cap ? want : cap);
    kernel<<<blocks, SPLIT_WIDE_THREADS, 0, stream>>>(p);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return sc_cuda_report(e, name, __FILE__, __LINE__);
    return SC_OK;
}

/* Launches the count (place = 0; for the key type, rule and alignment) or place (place = 1; for the key
 * type and rule) kernel. */
template <typename KeyT, int RULE>
static sc_status wide_launch_rule(const wide_params &p, int place, bool vec, uint64_t want, int sms,
                                  cudaStream_t stream)
{
    static split_occ_cache occ[3]; /* one per kernel below: count scalar, count vector, place */
    split_occ_cache &o = occ[place ? 2 : (vec ? 1 : 0)];
    if (place)
        return wide_launch_one(split_wide_place_block_kernel<KeyT, RULE>, o, p, want, sms, stream,
                               "launch of split_wide_place_block_kernel");
    return vec ? wide_launch_one(split_wide_count_kernel<KeyT, RULE, true>, o, p, want, sms, stream,
                                 "launch of split_wide_count_kernel")
               : wide_launch_one(split_wide_count_kernel<KeyT, RULE, false>, o, p, want, sms, stream,
                                 "launch of split_wide_count_kernel");
}

template <typename KeyT>
static sc_status wide_launch(const wide_params &p, int rule, int place, bool vec, uint64_t want, int sms,
                             cudaStream_t stream)
{
    return split_with_rule(rule, [&](auto r) {
        return wide_launch_rule<KeyT, decltype(r)::value>(p, place, vec, want, sms, stream);
    });
}

int split_wide_selected(const split_desc *d, uint32_t num_buckets)
{
    return d->unstable && (num_buckets > (uint32_t)SPLIT_MAX_BUCKETS || d->bucket_counts != NULL ||
                           d->num_records_device != NULL);
}

/* Layout: counts (B, none with bucket_counts) | cursors (B) | CUB scan storage. */
static sc_status wide_layout(const split_desc *d, uint32_t num_buckets, size_t *counts_bytes, size_t *cursor_bytes,
                             size_t *cub_bytes)
{
    *counts_bytes = d->bucket_counts != NULL ? 0 : wide_align((size_t)num_buckets * sizeof(uint32_t));
    *cursor_bytes = wide_align((size_t)num_buckets * sizeof(uint32_t));
    *cub_bytes = 0;
    cudaError_t err = cub::DeviceScan::ExclusiveSum(NULL, *cub_bytes, (const uint32_t *)NULL,
                                                    thrust::make_tabulate_output_iterator(wide_scan_out{NULL, NULL}),
                                                    (int)num_buckets, (cudaStream_t)0);
    if (err != cudaSuccess)
        return sc_cuda_report(err, "cub::DeviceScan::ExclusiveSum (size query)", __FILE__, __LINE__);
    *cub_bytes = wide_align(*cub_bytes);
    return SC_OK;
}

sc_status split_wide_temp_bytes(const split_desc *d, uint32_t num_buckets, size_t *bytes)
{
    size_t counts, cursors, cub_bytes;
    SC_TRY(wide_layout(d, num_buckets, &counts, &cursors, &cub_bytes));
    *bytes = counts + cursors + cub_bytes;
    return SC_OK;
}

static int aligned16(const void *ptr) { return ((uintptr_t)ptr & 15u) == 0; }

sc_status split_wide_run(void *temp, size_t temp_bytes, const split_desc *d, uint32_t num_buckets,
                         cudaStream_t stream)
{
    const uint32_t n = (uint32_t)d->n, nb = num_buckets;
    size_t counts_bytes, cursor_bytes, cub_bytes;
    SC_TRY(wide_layout(d, nb, &counts_bytes, &cursor_bytes, &cub_bytes));
    if (temp_bytes < counts_bytes + cursor_bytes + cub_bytes)
        return SC_FAIL(SC_ERROR_TEMP_STORAGE, "split: temporary storage of %zu bytes is smaller than the %zu needed",
                       temp_bytes, counts_bytes + cursor_bytes + cub_bytes);
    if (n == 0) {
        if (d->bucket_offsets)
            SC_CUDA_CHECK(cudaMemsetAsync(d->bucket_offsets, 0, ((size_t)nb + 1) * sizeof(uint32_t), stream));
        return SC_OK;
    }
    const split_buckets *b = &d->buckets;
    wide_params p;
    memset(&p, 0, sizeof p);
    SC_TRY(split_rule_params_of(b, nb, &p.rule));
    p.n = n;
    p.count_dev = d->num_records_device;
    /* Keys are read only when the rule needs them or they move. */
    p.keys_in = (b->rule != SPLIT_BUCKETS_IDS || d->keys_out) ? d->keys_in : NULL;
    p.keys_out = d->keys_out;
    p.values_in = d->values_in;
    p.values_out = d->values_out;
    p.gather_index = d->gather_index;
    p.scatter_index = d->scatter_index;
    char *t = (char *)temp;
    p.counts = counts_bytes ? (uint32_t *)t : NULL;
    p.cursors = (uint32_t *)(t + counts_bytes);
    void *cub_temp = t + counts_bytes + cursor_bytes;
    const uint32_t *counts = d->bucket_counts != NULL ? d->bucket_counts : p.counts;
    /* 16-byte loads (and scatter_index stores) when every such stream is aligned. */
    const bool vec = aligned16(p.keys_in) && aligned16(p.values_in) && aligned16(p.scatter_index);

    uint32_t device_sms = 1;
    SC_TRY(sc_cuda_device_sms(&device_sms));
    const int sms = (int)device_sms;
    const uint64_t chunks_per_block = SPLIT_WIDE_THREADS / 32;
    const uint64_t want = ((uint64_t)n + (uint64_t)SPLIT_WIDE_CHUNK * chunks_per_block - 1) /
                          ((uint64_t)SPLIT_WIDE_CHUNK * chunks_per_block);
    const int key64 = d->key_type == SPLIT_KEY_U64;

    if (d->bucket_counts == NULL) {
        SC_CUDA_CHECK(cudaMemsetAsync(p.counts, 0, (size_t)nb * sizeof(uint32_t), stream));
        if (key64) SC_TRY(wide_launch<uint64_t>(p, (int)b->rule, 0, vec, want, sms, stream));
        else SC_TRY(wide_launch<uint32_t>(p, (int)b->rule, 0, vec, want, sms, stream));
    }
    /* The scan writes the cursors and the bucket offsets together; the place kernel (or, without one,
     * a one-thread kernel) writes the offsets' last entry, the record count. */
    size_t cb = cub_bytes;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(
        cub_temp, cb, counts, thrust::make_tabulate_output_iterator(wide_scan_out{p.cursors, d->bucket_offsets}),
        (int)nb, stream));
    p.last_offset = d->bucket_offsets ? d->bucket_offsets + nb : NULL;
    if (d->keys_out || d->values_out || d->gather_index || d->scatter_index) {
        if (key64) SC_TRY(wide_launch<uint64_t>(p, (int)b->rule, 1, vec, want, sms, stream));
        else SC_TRY(wide_launch<uint32_t>(p, (int)b->rule, 1, vec, want, sms, stream));
    } else if (p.last_offset) {
        split_wide_last_offset_kernel<<<1, 1, 0, stream>>>(n, p.count_dev, p.last_offset);
        SC_CUDA_CHECK_LAUNCH("split_wide_last_offset_kernel");
    }
    return SC_OK;
}
