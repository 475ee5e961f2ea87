/* test_multi_device.cu - the split library on every CUDA device of the machine in turn (0, 1, ...,
 * then 0 again), each call on a stream of that device, each result equal to its reference: the
 * kernels that opt in to more than 48 KB of shared memory (stable B = 256 and 2048 by bits, B = 2048
 * by the RANGE rule), the wide unstable path (its occupancy query), the segmented split (its
 * cooperative grid sized per device), SplitSort and gather. The opt-in and the grid sizes belong to a
 * device, so a library that remembers them once per process fails on the second device. Skipped
 * (that test alone) with one device (gpu). */
#include <stdlib.h>
#include <string.h>

#include "sc_status.h"
#include "split.h"
#include "sctest.h"
#include "sctest_cuda.h"

enum { N = (1 << 20) + 3 };

typedef struct host_bufs {
    uint32_t *keys, *values, *seg, *idx;
    uint32_t *ref_keys, *ref_values, *ref_offsets, *got_keys, *got_values, *got_offsets;
    char *records, *ref_records, *got_records;
} host_bufs;

static int cmp_pair(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Unstable output: each bucket's (key, value) pairs as a sorted multiset, written over keys/values. */
static void canonical(uint32_t *keys, uint32_t *values, const uint32_t *offsets, uint32_t nb)
{
    uint64_t *pairs = (uint64_t *)malloc((size_t)N * 8);
    for (size_t i = 0; i < N; ++i) pairs[i] = (uint64_t)keys[i] << 32 | values[i];
    for (uint32_t b = 0; b < nb; ++b) qsort(pairs + offsets[b], offsets[b + 1] - offsets[b], 8, cmp_pair);
    for (size_t i = 0; i < N; ++i) keys[i] = (uint32_t)(pairs[i] >> 32), values[i] = (uint32_t)pairs[i];
    free(pairs);
}

static size_t mismatches(const void *a, const void *b, size_t bytes)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    size_t bad = 0;
    for (size_t i = 0; i < bytes; ++i) bad += x[i] != y[i];
    return bad;
}

/* One split_desc call (multisplit or segmented) on device buffers, against its reference. */
static void run_split(int dev, const char *what, split_desc d, int segmented, const host_bufs *h, cudaStream_t s)
{
    const uint32_t nb = d.buckets.num_buckets ? d.buckets.num_buckets : 1u << d.buckets.bit_count;
    const size_t offs = (segmented ? d.num_segments * nb : nb) + 1;
    split_desc r = d;
    r.keys_in = h->keys, r.values_in = h->values, r.segment_offsets = segmented ? h->seg : NULL;
    r.keys_out = h->ref_keys, r.values_out = h->ref_values, r.bucket_offsets = h->ref_offsets;
    SCT_CHECK_OK(segmented ? split_segmented_ref(&r) : split_multisplit_ref(&r));
    uint32_t *dk = NULL, *dv = NULL, *dko = NULL, *dvo = NULL, *doff = NULL, *dseg = NULL;
    void *temp = NULL;
    size_t tb = 0;
    SCT_CUDA(cudaMalloc(&dk, (size_t)N * 4)); SCT_CUDA(cudaMalloc(&dv, (size_t)N * 4));
    SCT_CUDA(cudaMalloc(&dko, (size_t)N * 4)); SCT_CUDA(cudaMalloc(&dvo, (size_t)N * 4));
    SCT_CUDA(cudaMalloc(&doff, offs * 4)); SCT_CUDA(cudaMalloc(&dseg, (d.num_segments + 1) * 4));
    SCT_CUDA(cudaMemcpy(dk, h->keys, (size_t)N * 4, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemcpy(dv, h->values, (size_t)N * 4, cudaMemcpyHostToDevice));
    if (segmented) SCT_CUDA(cudaMemcpy(dseg, h->seg, (d.num_segments + 1) * 4, cudaMemcpyHostToDevice));
    d.keys_in = dk, d.values_in = dv, d.keys_out = dko, d.values_out = dvo, d.bucket_offsets = doff;
    d.segment_offsets = segmented ? dseg : NULL;
    SCT_CHECK_OK(segmented ? split_segmented(NULL, &tb, &d, s) : split_multisplit(NULL, &tb, &d, s));
    SCT_CUDA(cudaMalloc(&temp, tb ? tb : 4));
    const sc_status st = segmented ? split_segmented(temp, &tb, &d, s) : split_multisplit(temp, &tb, &d, s);
    SCT_CHECK_MSG(st == SC_OK, "device %d, %s: %s", dev, what, sc_last_error());
    SCT_CUDA(cudaStreamSynchronize(s));
    SCT_CUDA(cudaMemcpy(h->got_keys, dko, (size_t)N * 4, cudaMemcpyDeviceToHost));
    SCT_CUDA(cudaMemcpy(h->got_values, dvo, (size_t)N * 4, cudaMemcpyDeviceToHost));
    SCT_CUDA(cudaMemcpy(h->got_offsets, doff, offs * 4, cudaMemcpyDeviceToHost));
    if (d.unstable) {
        canonical(h->got_keys, h->got_values, h->got_offsets, nb);
        canonical(h->ref_keys, h->ref_values, h->ref_offsets, nb);
    }
    const size_t bad = mismatches(h->got_keys, h->ref_keys, (size_t)N * 4) +
                       mismatches(h->got_values, h->ref_values, (size_t)N * 4) +
                       mismatches(h->got_offsets, h->ref_offsets, offs * 4);
    SCT_CHECK_MSG(bad == 0, "device %d, %s: %zu bytes differ from the reference", dev, what, bad);
    cudaFree(dk), cudaFree(dv), cudaFree(dko), cudaFree(dvo), cudaFree(doff), cudaFree(dseg), cudaFree(temp);
}

static void run_sort_and_gather(int dev, const host_bufs *h, cudaStream_t s)
{
    /* split_sort: 64-bit keys (pairs of the 32-bit words) with values */
    split_sort_desc r = {64, 0, N / 2, h->keys, h->ref_keys, h->values, h->ref_values, NULL, NULL, 0};
    SCT_CHECK_OK(split_sort_ref(&r));
    uint32_t *dk = NULL, *dv = NULL, *dko = NULL, *dvo = NULL;
    void *temp = NULL;
    size_t tb = 0;
    SCT_CUDA(cudaMalloc(&dk, (size_t)N * 4)); SCT_CUDA(cudaMalloc(&dv, (size_t)N * 4));
    SCT_CUDA(cudaMalloc(&dko, (size_t)N * 4)); SCT_CUDA(cudaMalloc(&dvo, (size_t)N * 4));
    SCT_CUDA(cudaMemcpy(dk, h->keys, (size_t)N * 4, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemcpy(dv, h->values, (size_t)N * 4, cudaMemcpyHostToDevice));
    split_sort_desc d = {64, 0, N / 2, dk, dko, dv, dvo, NULL, NULL, 0};
    SCT_CHECK_OK(split_sort(NULL, &tb, &d, s));
    SCT_CUDA(cudaMalloc(&temp, tb));
    const sc_status st = split_sort(temp, &tb, &d, s);
    SCT_CHECK_MSG(st == SC_OK, "device %d, split_sort: %s", dev, sc_last_error());
    SCT_CUDA(cudaStreamSynchronize(s));
    SCT_CUDA(cudaMemcpy(h->got_keys, dko, (size_t)(N / 2) * 8, cudaMemcpyDeviceToHost));
    SCT_CUDA(cudaMemcpy(h->got_values, dvo, (size_t)(N / 2) * 4, cudaMemcpyDeviceToHost));
    size_t bad = mismatches(h->got_keys, h->ref_keys, (size_t)(N / 2) * 8) +
                 mismatches(h->got_values, h->ref_values, (size_t)(N / 2) * 4);
    SCT_CHECK_MSG(bad == 0, "device %d, split_sort u64 pairs: %zu bytes differ from the reference", dev, bad);
    cudaFree(dk), cudaFree(dv), cudaFree(dko), cudaFree(dvo), cudaFree(temp);

    /* split_gather: 128-byte records by a permutation */
    const size_t rb = 128, bytes = (size_t)N * rb;
    split_move_desc mr = {h->records, h->ref_records, rb, h->idx, N, 1};
    SCT_CHECK_OK(split_gather_ref(&mr));
    char *src = NULL, *dst = NULL;
    uint32_t *didx = NULL;
    SCT_CUDA(cudaMalloc(&src, bytes)); SCT_CUDA(cudaMalloc(&dst, bytes)); SCT_CUDA(cudaMalloc(&didx, (size_t)N * 4));
    SCT_CUDA(cudaMemcpy(src, h->records, bytes, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemcpy(didx, h->idx, (size_t)N * 4, cudaMemcpyHostToDevice));
    split_move_desc m = {src, dst, rb, didx, N, 1};
    const sc_status gs = split_gather(&m, s);
    SCT_CHECK_MSG(gs == SC_OK, "device %d, split_gather: %s", dev, sc_last_error());
    SCT_CUDA(cudaStreamSynchronize(s));
    SCT_CUDA(cudaMemcpy(h->got_records, dst, bytes, cudaMemcpyDeviceToHost));
    bad = mismatches(h->got_records, h->ref_records, bytes);
    SCT_CHECK_MSG(bad == 0, "device %d, split_gather 128-byte records: %zu bytes differ", dev, bad);
    cudaFree(src), cudaFree(dst), cudaFree(didx);
}

static void run_all_on(int dev, const host_bufs *h)
{
    SCT_CUDA(cudaSetDevice(dev));
    cudaDeviceProp prop;
    SCT_CUDA(cudaGetDeviceProperties(&prop, dev));
    printf("      device %d: %s, %d SMs\n", dev, prop.name, prop.multiProcessorCount);
    cudaStream_t s;
    SCT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    static const uint32_t bits[] = {1, 5, 8, 11};
    for (int k = 0; k < 4; ++k) { /* stable, by bits: B = 2, 32, 256, 2048 */
        split_desc d;
        memset(&d, 0, sizeof d);
        d.key_type = SPLIT_KEY_U32, d.n = N, d.buckets.rule = SPLIT_BUCKETS_BITS, d.buckets.bit_count = bits[k];
        char what[64];
        snprintf(what, sizeof what, "multisplit stable bits B = %u", 1u << bits[k]);
        run_split(dev, what, d, 0, h, s);
    }
    split_desc d;
    memset(&d, 0, sizeof d); /* stable RANGE, B = 2048: the one-pass two-level kernel */
    d.key_type = SPLIT_KEY_U32, d.n = N, d.buckets.rule = SPLIT_BUCKETS_RANGE, d.buckets.num_buckets = 2048;
    d.buckets.range_delta = (1ull << 32) / 2048;
    run_split(dev, "multisplit stable RANGE B = 2048", d, 0, h, s);
    memset(&d, 0, sizeof d); /* the wide unstable path */
    d.key_type = SPLIT_KEY_U32, d.n = N, d.unstable = 1, d.buckets.rule = SPLIT_BUCKETS_BITS, d.buckets.bit_count = 14;
    run_split(dev, "multisplit unstable wide B = 16384", d, 0, h, s);
    static const uint32_t seg_bits[] = {4, 8};
    for (int k = 0; k < 2; ++k) { /* segmented: the cooperative ballot grid (B = 16) and B = 256 */
        memset(&d, 0, sizeof d);
        d.key_type = SPLIT_KEY_U32, d.n = N, d.num_segments = 16384, d.buckets.rule = SPLIT_BUCKETS_BITS;
        d.buckets.start_bit = 3, d.buckets.bit_count = seg_bits[k];
        char what[64];
        snprintf(what, sizeof what, "segmented B = %u", 1u << seg_bits[k]);
        run_split(dev, what, d, 1, h, s);
    }
    run_sort_and_gather(dev, h, s);
    SCT_CUDA(cudaStreamDestroy(s));
}

static void test_every_device_in_turn(void)
{
    int count = 0;
    SCT_CUDA_REQUIRE(cudaGetDeviceCount(&count));
    if (count < 2) {
        sct_skip("one CUDA device: the per-device state needs two to be tested");
        return;
    }
    host_bufs h;
    const size_t words = (size_t)N * 4;
    h.keys = (uint32_t *)malloc(words), h.values = (uint32_t *)malloc(words), h.idx = (uint32_t *)malloc(words);
    h.seg = (uint32_t *)malloc((16384 + 1) * 4);
    h.ref_keys = (uint32_t *)malloc(words + 8), h.ref_values = (uint32_t *)malloc(words);
    h.got_keys = (uint32_t *)malloc(words + 8), h.got_values = (uint32_t *)malloc(words);
    h.ref_offsets = (uint32_t *)malloc((16384 * 256 + 1) * 4), h.got_offsets = (uint32_t *)malloc((16384 * 256 + 1) * 4);
    h.records = (char *)malloc((size_t)N * 128), h.ref_records = (char *)malloc((size_t)N * 128);
    h.got_records = (char *)malloc((size_t)N * 128);
    SCT_REQUIRE(h.keys && h.values && h.idx && h.seg && h.ref_keys && h.ref_values && h.got_keys && h.got_values &&
                h.ref_offsets && h.got_offsets && h.records && h.ref_records && h.got_records);
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed());
    for (size_t i = 0; i < N; ++i) h.keys[i] = sct_rng_u32(&rng), h.values[i] = (uint32_t)i, h.idx[i] = (uint32_t)i;
    for (size_t i = N; i > 1; --i) {
        const uint32_t j = sct_rng_below(&rng, (uint32_t)i), t = h.idx[i - 1];
        h.idx[i - 1] = h.idx[j], h.idx[j] = t;
    }
    for (size_t i = 0; i < (size_t)N * 128; ++i) h.records[i] = (char)sct_rng_u32(&rng);
    for (size_t k = 0; k <= 16384; ++k) h.seg[k] = (uint32_t)((uint64_t)N * k / 16384); /* then some empty */
    for (size_t k = 1; k < 16384; k += 97) h.seg[k] = h.seg[k - 1];
    for (int dev = 0; dev <= count && !sct_current_failed(); ++dev) run_all_on(dev == count ? 0 : dev, &h);
    free(h.keys), free(h.values), free(h.idx), free(h.seg), free(h.ref_keys), free(h.ref_values);
    free(h.got_keys), free(h.got_values), free(h.ref_offsets), free(h.got_offsets);
    free(h.records), free(h.ref_records), free(h.got_records);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "multi_device");
    sct_require_cuda();
    SCT_RUN(test_every_device_in_turn);
    return sct_end();
}
