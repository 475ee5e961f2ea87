/* test_sort.cu - split_sort (SplitSort) on the GPU against split_sort_ref, exact equality (gpu).
 * Keys of 32, 64 and 96 bits, key_bits_used below the width, key-only / key-value / records (by
 * (key, index) then split_gather) / both. Keys mix random words with a few small values so equal
 * keys are common (stability is checked through values and records). Each case runs directly
 * and replayed from a captured CUDA graph, outputs poisoned before each run, guard words checked.
 * Sizes: 0, 1, 31, 32, 33, 255..257, 2047..2049 (tile +-1), 4097 on every key configuration;
 * 10^6+7 on every key configuration; 2^24 for 32- and 96-bit keys; 2^28 only with an argument
 * containing "large". "sanitize_mid" is a mid-size case for compute-sanitizer. */
#include <stdlib.h>
#include <string.h>

#include "sctest.h"
#include "sctest_cuda.h"
#include "split.h"

enum { GUARD = 4 };
static cudaStream_t g_stream;

static void *dev_alloc(size_t bytes)
{
    void *d = NULL;
    return cudaMalloc(&d, bytes + GUARD * 4) == cudaSuccess ? d : NULL;
}

static int same_and_guarded(const void *dev, const void *ref, size_t bytes)
{
    unsigned char *h = (unsigned char *)malloc(bytes + GUARD * 4);
    if (!h) return 0;
    cudaMemcpy(h, dev, bytes + GUARD * 4, cudaMemcpyDeviceToHost);
    int ok = (bytes == 0 || memcmp(h, ref, bytes) == 0);
    for (size_t k = 0; k < GUARD * 4; ++k) ok &= h[bytes + k] == 0xAB;
    free(h);
    return ok;
}

static void sort_case(uint32_t key_bits, uint32_t used, uint32_t n, int values, size_t record_bytes, uint64_t seed)
{
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    size_t kbytes = (size_t)n * (key_bits / 8), rbytes = (size_t)n * record_bytes;
    uint32_t *keys = (uint32_t *)malloc(kbytes + 4), *vin = (uint32_t *)malloc((size_t)n * 4 + 4);
    unsigned char *rin = (unsigned char *)malloc(rbytes + 4);
    void *ref_keys = malloc(kbytes + 4);
    uint32_t *ref_vals = (uint32_t *)malloc((size_t)n * 4 + 4);
    unsigned char *ref_recs = (unsigned char *)malloc(rbytes + 4);
    SCT_REQUIRE(keys && vin && rin && ref_keys && ref_vals && ref_recs);
    uint32_t small = 1 + sct_rng_below(&rng, 16);
    for (size_t w = 0; w < kbytes / 4; ++w) keys[w] = sct_rng_below(&rng, 4) ? sct_rng_u32(&rng) : sct_rng_below(&rng, small);
    for (size_t i = 0; i < n; ++i) vin[i] = (uint32_t)i ^ 0x5a5a5a5au;
    for (size_t i = 0; i < rbytes; ++i) rin[i] = (unsigned char)(sct_rng_u32(&rng) >> 24);
    split_sort_desc ref = {key_bits, used, n, keys, ref_keys, values ? vin : NULL, values ? ref_vals : NULL,
                           record_bytes ? rin : NULL, record_bytes ? ref_recs : NULL, record_bytes};
    SCT_REQUIRE_OK(split_sort_ref(&ref));

    void *d_keys = dev_alloc(kbytes), *d_keys_out = dev_alloc(kbytes);
    uint32_t *d_vin = values ? (uint32_t *)dev_alloc((size_t)n * 4) : NULL;
    uint32_t *d_vout = values ? (uint32_t *)dev_alloc((size_t)n * 4) : NULL;
    void *d_rin = record_bytes ? dev_alloc(rbytes) : NULL, *d_rout = record_bytes ? dev_alloc(rbytes) : NULL;
    SCT_REQUIRE(d_keys && d_keys_out && (!values || (d_vin && d_vout)) && (!record_bytes || (d_rin && d_rout)));
    SCT_CUDA(cudaMemcpy(d_keys, keys, kbytes, cudaMemcpyHostToDevice));
    if (values) SCT_CUDA(cudaMemcpy(d_vin, vin, (size_t)n * 4, cudaMemcpyHostToDevice));
    if (record_bytes) SCT_CUDA(cudaMemcpy(d_rin, rin, rbytes, cudaMemcpyHostToDevice));
    split_sort_desc d = {key_bits, used, n, d_keys, d_keys_out, d_vin, d_vout, d_rin, d_rout, record_bytes};
    size_t temp_bytes = 0;
    void *temp = NULL;
    SCT_REQUIRE_OK(split_sort(NULL, &temp_bytes, &d, g_stream));
    SCT_CUDA_REQUIRE(cudaMalloc(&temp, temp_bytes));
    for (int run = 0; run < 2; ++run) {
        SCT_CUDA(cudaMemsetAsync(d_keys_out, 0xAB, kbytes + GUARD * 4, g_stream));
        if (values) SCT_CUDA(cudaMemsetAsync(d_vout, 0xAB, (size_t)n * 4 + GUARD * 4, g_stream));
        if (record_bytes) SCT_CUDA(cudaMemsetAsync(d_rout, 0xAB, rbytes + GUARD * 4, g_stream));
        SCT_CUDA(cudaStreamSynchronize(g_stream));
        if (run == 0) {
            SCT_CHECK_OK(split_sort(temp, &temp_bytes, &d, g_stream));
        } else {
            cudaGraph_t graph = NULL;
            cudaGraphExec_t exec = NULL;
            SCT_CUDA(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
            sc_status st = split_sort(temp, &temp_bytes, &d, g_stream);
            SCT_CUDA(cudaStreamEndCapture(g_stream, &graph));
            SCT_CHECK_MSG(st == SC_OK, "captured split_sort failed: %s", sc_last_error());
            if (graph) {
                SCT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
                SCT_CUDA(cudaGraphLaunch(exec, g_stream));
            }
            SCT_CUDA(cudaStreamSynchronize(g_stream));
            if (exec) cudaGraphExecDestroy(exec);
            if (graph) cudaGraphDestroy(graph);
        }
        SCT_CUDA(cudaStreamSynchronize(g_stream));
        int ok_k = same_and_guarded(d_keys_out, ref_keys, kbytes);
        int ok_v = !values || same_and_guarded(d_vout, ref_vals, (size_t)n * 4);
        int ok_r = !record_bytes || same_and_guarded(d_rout, ref_recs, rbytes);
        SCT_CHECK_MSG(ok_k && ok_v && ok_r, "%s: bits=%u used=%u n=%u values=%d record_bytes=%zu: keys %s values %s records %s",
                      run ? "graph" : "direct", key_bits, used, n, values, record_bytes, ok_k ? "ok" : "WRONG",
                      ok_v ? "ok" : "WRONG", ok_r ? "ok" : "WRONG");
    }
    /* keys_in is never modified */
    {
        uint32_t *h = (uint32_t *)malloc(kbytes + 4);
        cudaMemcpy(h, d_keys, kbytes, cudaMemcpyDeviceToHost);
        SCT_CHECK_MSG(kbytes == 0 || memcmp(h, keys, kbytes) == 0, "keys_in was modified");
        free(h);
    }
    cudaFree(d_keys); cudaFree(d_keys_out); cudaFree(d_vin); cudaFree(d_vout); cudaFree(d_rin); cudaFree(d_rout);
    cudaFree(temp);
    free(keys); free(vin); free(rin); free(ref_keys); free(ref_vals); free(ref_recs);
}

static const uint32_t k_bits[][2] = {{32, 0}, {32, 12}, {32, 1}, {64, 0}, {64, 40}, {96, 0}, {96, 33}, {96, 70}};
enum { NUM_BITS = sizeof k_bits / sizeof k_bits[0] };

static void test_small_sizes_every_key_configuration(void)
{
    static const uint32_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 2047, 2048, 2049, 4097};
    static const size_t recs[] = {0, 0, 4, 12, 20};
    uint64_t seed = sct_base_seed();
    unsigned k = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (int b = 0; b < NUM_BITS; ++b, ++k) {
            sort_case(k_bits[b][0], k_bits[b][1], sizes[s], k % 2 == 1, recs[k % 5], ++seed);
            if (sct_current_failed() > 4) return;
        }
}

static void test_million_every_key_configuration(void)
{
    uint64_t seed = sct_base_seed() * 3;
    for (int b = 0; b < NUM_BITS; ++b) sort_case(k_bits[b][0], k_bits[b][1], 1000007, b % 2 == 0, b % 3 == 0 ? 16 : 0, ++seed);
}

static void test_2p24(void)
{
    uint64_t seed = sct_base_seed() * 5;
    sort_case(32, 0, 1u << 24, 1, 0, ++seed);
    sort_case(96, 0, 1u << 24, 0, 8, ++seed);
}

static void test_sanitize_mid(void)
{
    uint64_t seed = sct_base_seed() * 7;
    sort_case(96, 0, 20011, 1, 12, ++seed);
    sort_case(64, 20, 20011, 0, 4, ++seed);
}

static void test_large_2p28(void)
{
    uint64_t seed = sct_base_seed() * 11;
    sort_case(32, 0, 1u << 28, 1, 0, ++seed);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "sort");
    sct_require_cuda();
    int large = 0;
    for (int i = 1; i < argc; ++i) large |= strstr(argv[i], "large") != NULL;
    if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) sct_skip_all("no stream");
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_small_sizes_every_key_configuration);
    SCT_RUN(test_million_every_key_configuration);
    SCT_RUN(test_2p24);
    if (large) SCT_RUN(test_large_2p28);
    cudaStreamDestroy(g_stream);
    return sct_end();
}
