/* test_gather_scatter.cu - split_gather / split_scatter on the GPU against the references, exactly,
 * on seeded random permutations: record sizes 4 .. 512 bytes, 1, 2 and 7 passes, 16/8/4-byte word
 * paths (offset pointers), each case direct and from a captured CUDA graph; bad arguments (odd
 * record sizes, misaligned src / dst, NULL src / dst / index with n > 0, src == dst, n >= 2^32, a
 * NULL descriptor) rejected with every byte of the poisoned destination untouched (gpu); num_passes = 0
 * (the library's model picks the count): the same result, and split_move_passes reports the count the
 * model gives for the device's L2 (move_model.h). Pass "large" to also run 2^28 records of 4 bytes. */
#include <stdlib.h>
#include <string.h>

#include "move_model.h"
#include "sc_report.h"
#include "split.h"
#include "sctest.h"
#include "sctest_cuda.h"

static void permutation(sct_rng *rng, uint32_t *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) p[i] = (uint32_t)i;
    for (size_t i = n; i > 1; --i) {
        size_t j = sct_rng_below(rng, (uint32_t)i);
        uint32_t t = p[i - 1];
        p[i - 1] = p[j], p[j] = t;
    }
}

/* shift_words: src/dst offset by this many 4-byte words from the 256-byte aligned allocation. */
static void run_case(size_t n, size_t rb, uint32_t passes, int gather, size_t shift_words, double *ms_out)
{
    char label[160];
    snprintf(label, sizeof label, "%s n=%zu record=%zu passes=%u shift=%zu", gather ? "gather" : "scatter", n, rb,
             passes, shift_words);
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() ^ (n * 2654435761u) ^ ((uint64_t)rb << 40) ^ ((uint64_t)passes << 52) ^
                           ((uint64_t)gather << 60));
    const size_t words = n * rb / 4, bytes = words * 4;
    uint32_t *src = (uint32_t *)malloc(bytes + 4), *ref = (uint32_t *)malloc(bytes + 4), *got = (uint32_t *)malloc(bytes + 4);
    uint32_t *idx = (uint32_t *)malloc(n * 4 + 4);
    permutation(&rng, idx, n);
    for (size_t w = 0; w < words; ++w) src[w] = sct_rng_u32(&rng);
    memset(ref, 0xAB, bytes + 4);
    split_move_desc h = {src, ref, rb, idx, n, passes};
    SCT_CHECK_OK(gather ? split_gather_ref(&h) : split_scatter_ref(&h));
    uint32_t *dsrc = NULL, *ddst = NULL, *didx = NULL;
    size_t pad = shift_words * 4 + 4;
    SCT_CUDA(cudaMalloc(&dsrc, bytes + pad));
    SCT_CUDA(cudaMalloc(&ddst, bytes + pad));
    SCT_CUDA(cudaMalloc(&didx, n * 4 + 4));
    SCT_CUDA(cudaMemcpy(dsrc + shift_words, src, bytes, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemcpy(didx, idx, n * 4, cudaMemcpyHostToDevice));
    cudaStream_t stream;
    SCT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    split_move_desc d = {dsrc + shift_words, ddst + shift_words, rb, didx, n, passes};
    for (int mode = 0; mode < 2 && !sct_current_failed(); ++mode) {
        SCT_CUDA(cudaMemset(ddst, 0xAB, bytes + pad));
        SCT_CUDA(cudaDeviceSynchronize()); /* legacy-stream poison vs the non-blocking stream */
        if (mode == 0) {
            SCT_CHECK_OK(gather ? split_gather(&d, stream) : split_scatter(&d, stream));
        } else {
            cudaGraph_t graph;
            cudaGraphExec_t exec;
            SCT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
            SCT_CHECK_OK(gather ? split_gather(&d, stream) : split_scatter(&d, stream));
            SCT_CUDA(cudaStreamEndCapture(stream, &graph));
            SCT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
            SCT_CUDA(cudaGraphLaunch(exec, stream));
            SCT_CUDA(cudaStreamSynchronize(stream));
            if (ms_out) {
                cudaEvent_t e0, e1;
                cudaEventCreate(&e0), cudaEventCreate(&e1);
                cudaEventRecord(e0, stream);
                for (int r = 0; r < 10; ++r) cudaGraphLaunch(exec, stream);
                cudaEventRecord(e1, stream);
                cudaEventSynchronize(e1);
                float t = 0;
                cudaEventElapsedTime(&t, e0, e1);
                *ms_out = t / 10;
                cudaEventDestroy(e0), cudaEventDestroy(e1);
            }
            cudaGraphExecDestroy(exec);
            cudaGraphDestroy(graph);
        }
        SCT_CUDA(cudaStreamSynchronize(stream));
        SCT_CUDA(cudaMemcpy(got, ddst + shift_words, bytes + 4, cudaMemcpyDeviceToHost));
        if (memcmp(got, ref, bytes + 4) != 0) {
            size_t w = 0;
            while (w <= words && got[w] == ref[w]) ++w;
            sct_fail(__FILE__, __LINE__, "%s [%s]: word %zu differs (ref %u, gpu %u)", label, mode ? "graph" : "direct", w,
                     ref[w], got[w]);
        }
    }
    cudaStreamDestroy(stream);
    cudaFree(dsrc), cudaFree(ddst), cudaFree(didx);
    free(src), free(ref), free(got), free(idx);
}

static const size_t records[] = {4, 8, 12, 16, 20, 64, 128, 512};
static const uint32_t pass_counts[] = {1, 2, 7};

static void test_small_sizes_full_grid(void)
{
    static const size_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
        for (size_t r = 0; r < 8; ++r)
            for (int p = 0; p < 3; ++p)
                for (int g = 0; g < 2; ++g) run_case(sizes[k], records[r], pass_counts[p], g, 0, NULL);
}

static void test_million_records(void)
{
    for (size_t r = 0; r < 8; ++r)
        for (int p = 0; p < 3; ++p)
            for (int g = 0; g < 2; ++g) {
                if (records[r] >= 128 && p == 1) continue; /* keeps the run short; 1 and 7 passes kept */
                run_case(1000007, records[r], pass_counts[p], g, 0, NULL);
            }
}

static void test_word_widths(void)
{
    /* 16-byte records at offsets 0, 4, 8 bytes: 16-, 4- and 8-byte words */
    for (size_t shift = 0; shift < 4; ++shift)
        for (int g = 0; g < 2; ++g) {
            run_case(100003, 16, 1, g, shift, NULL);
            run_case(100003, 24, 2, g, shift, NULL);
        }
}

static void test_2p24(void)
{
    static const size_t rbs[] = {4, 16};
    for (int k = 0; k < 2; ++k)
        for (int g = 0; g < 2; ++g) {
            double ms = 0;
            run_case((size_t)1 << 24, rbs[k], 1, g, 0, &ms);
            printf("      %s 2^24 x %zu B: %.3f ms, %.0f GB/s (read + write, index excluded)\n", g ? "gather" : "scatter",
                   rbs[k], ms, 2.0 * (double)((size_t)1 << 24) * (double)rbs[k] / (ms * 1e6));
            run_case((size_t)1 << 24, rbs[k], 7, g, 0, NULL);
        }
}

/* num_passes = 0 at sizes where the model picks one pass and where, with a cache of tens of MB, it
 * picks several (2^24 records of 4 and 8 bytes: the indexed side a few times the L2): the moved
 * records must equal the reference's, and split_move_passes must report the model's count for this
 * device's L2 size. */
static void test_model_pass_count(void)
{
    int dev = 0, l2 = 0;
    SCT_CUDA(cudaGetDevice(&dev));
    SCT_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    static const struct { size_t n, rb; } cases[] = {
        {0, 4}, {1, 12}, {1000007, 4}, {1000007, 20}, {1000007, 128}, {(size_t)1 << 24, 4}, {(size_t)1 << 24, 8},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
        for (int g = 0; g < 2; ++g) {
            const size_t n = cases[c].n, rb = cases[c].rb;
            /* split_move_passes reads only the descriptor: addresses apart, never dereferenced */
            split_move_desc d = {(const void *)((uintptr_t)1 << 40), (void *)((uintptr_t)2 << 40), rb,
                                 (const uint32_t *)((uintptr_t)3 << 40), n, 0};
            uint32_t passes = 0;
            SCT_CHECK_OK(split_move_passes(&d, !g, &passes));
            const uint32_t want = n ? split_move_model_passes(n, rb, (uint64_t)l2, !g) : 1u;
            SCT_CHECK_MSG(passes == want, "%s n=%zu record=%zu: split_move_passes says %u passes, the model %u",
                          g ? "gather" : "scatter", n, rb, passes, want);
            if (n >= ((size_t)1 << 24))
                printf("      %s 2^24 x %zu B: the model picks %u pass%s (L2 %d MB)\n", g ? "gather" : "scatter", rb,
                       passes, passes == 1 ? "" : "es", l2 >> 20);
            run_case(n, rb, 0, g, 0, NULL);
        }
}

static void test_sanitize_mid(void)
{
    static const size_t rbs[] = {4, 12, 16, 64, 512};
    for (int k = 0; k < 5; ++k)
        for (int g = 0; g < 2; ++g) run_case(20011, rbs[k], k % 2 ? 7 : 1, g, k == 2 ? 1 : 0, NULL);
    for (int g = 0; g < 2; ++g) run_case(20011, 8, 0, g, 0, NULL);
}

static void quiet(sc_log_level level, const char *message, void *user) { (void)level, (void)message, (void)user; }

enum { BAD_DST_BYTES = 1024 };

/* Bytes of the destination allocation (BAD_DST_BYTES) that are no longer the 0xAB poison. */
static size_t dst_written(const void *dst)
{
    unsigned char h[BAD_DST_BYTES];
    if (cudaMemcpy(h, dst, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return sizeof h;
    size_t w = 0;
    for (size_t i = 0; i < sizeof h; ++i) w += h[i] != 0xAB;
    return w;
}

/* One call that must return SC_ERROR_INVALID_ARGUMENT, name the entry point in sc_last_error() and
 * leave the whole poisoned destination as it was. */
static void expect_rejected(int gather, const split_move_desc *d, const void *dst, const char *what)
{
    const char *who = gather ? "split_gather" : "split_scatter";
    sc_clear_error();
    const sc_status st = gather ? split_gather(d, 0) : split_scatter(d, 0);
    SCT_CHECK_MSG(st == SC_ERROR_INVALID_ARGUMENT, "%s, %s: returned %s, expected SC_ERROR_INVALID_ARGUMENT (%s)", who,
                  what, sc_status_name(st), sc_last_error());
    SCT_CHECK_MSG(strstr(sc_last_error(), who) != NULL, "%s, %s: sc_last_error() does not name it: \"%s\"", who, what,
                  sc_last_error());
    SCT_CUDA(cudaDeviceSynchronize());
    const size_t w = dst_written(dst);
    if (w) {
        sct_fail(__FILE__, __LINE__, "%s, %s: the rejected call wrote %zu of the %d destination bytes", who, what, w,
                 (int)BAD_DST_BYTES);
        SCT_CUDA(cudaMemset((void *)dst, 0xAB, BAD_DST_BYTES));
        SCT_CUDA(cudaDeviceSynchronize());
    }
}

/* Gather and scatter each: record_bytes 0 / 2 / 6 / 2^32, src misaligned by 2, dst by 1, NULL src,
 * dst and index with n = 8, src == dst, n = 2^32 and a NULL descriptor, each returning
 * SC_ERROR_INVALID_ARGUMENT with a message naming the call; after every call all 1024 bytes of the
 * poisoned destination are checked. n = 0 with NULL pointers is accepted. Then a valid gather into
 * the same buffer writes exactly its 128 bytes (the check reads the buffer the calls would write). */
static void test_bad_arguments_write_nothing(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    uint32_t *src = NULL, *dst = NULL, *idx = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc(&src, BAD_DST_BYTES));
    SCT_CUDA_REQUIRE(cudaMalloc(&dst, BAD_DST_BYTES));
    SCT_CUDA_REQUIRE(cudaMalloc(&idx, 64));
    SCT_CUDA(cudaMemset(src, 0x11, BAD_DST_BYTES));
    SCT_CUDA(cudaMemset(dst, 0xAB, BAD_DST_BYTES));
    SCT_CUDA(cudaMemset(idx, 0, 64));
    SCT_CUDA(cudaDeviceSynchronize());
    split_move_desc d = {src, dst, 16, idx, 8, 1}, b;
    for (int g = 0; g < 2; ++g) {
        static const size_t bad_rb[] = {0, 2, 6, (size_t)1 << 32};
        for (int k = 0; k < 4; ++k) {
            char what[48];
            snprintf(what, sizeof what, "record_bytes = %zu", bad_rb[k]);
            b = d, b.record_bytes = bad_rb[k];
            expect_rejected(g, &b, dst, what);
        }
        b = d, b.src = (const char *)src + 2;
        expect_rejected(g, &b, dst, "src misaligned by 2 bytes");
        b = d, b.dst = (char *)dst + 1;
        expect_rejected(g, &b, dst, "dst misaligned by 1 byte");
        b = d, b.src = NULL;
        expect_rejected(g, &b, dst, "src NULL");
        b = d, b.dst = NULL;
        expect_rejected(g, &b, dst, "dst NULL");
        b = d, b.index = NULL;
        expect_rejected(g, &b, dst, "index NULL");
        b = d, b.src = dst;
        expect_rejected(g, &b, dst, "src == dst");
        b = d, b.n = (size_t)1 << 32;
        expect_rejected(g, &b, dst, "n = 2^32");
        expect_rejected(g, NULL, dst, "desc NULL");
    }
    /* n = 0 with NULL pointers is a valid empty move */
    const split_move_desc z = {NULL, NULL, 16, NULL, 0, 1};
    SCT_CHECK_OK(split_gather(&z, 0));
    SCT_CHECK_OK(split_scatter(&z, 0));
    /* the valid gather: 8 records of 16 bytes, all record 0 of src (0x11 bytes), the rest untouched */
    SCT_CHECK_OK(split_gather(&d, 0));
    SCT_CUDA(cudaDeviceSynchronize());
    unsigned char h[BAD_DST_BYTES];
    SCT_CUDA(cudaMemcpy(h, dst, sizeof h, cudaMemcpyDeviceToHost));
    size_t wrong = 0;
    for (size_t i = 0; i < sizeof h; ++i) wrong += h[i] != (i < 8 * 16 ? 0x11 : 0xAB);
    SCT_CHECK_MSG(wrong == 0, "valid gather: %zu of the %d destination bytes wrong", wrong, (int)BAD_DST_BYTES);
    cudaFree(src), cudaFree(dst), cudaFree(idx);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

static void test_large_2p28(void)
{
    run_case((size_t)1 << 28, 4, 1, 1, 0, NULL);
    run_case((size_t)1 << 28, 4, 2, 0, 0, NULL);
    run_case((size_t)1 << 28, 4, 0, 0, 0, NULL);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "gather_scatter");
    sct_require_cuda();
    int large = 0;
    for (int i = 1; i < argc; ++i) large |= strstr(argv[i], "large") != NULL;
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_bad_arguments_write_nothing);
    SCT_RUN(test_small_sizes_full_grid);
    SCT_RUN(test_word_widths);
    SCT_RUN(test_million_records);
    SCT_RUN(test_2p24);
    SCT_RUN(test_model_pass_count);
    if (large) SCT_RUN(test_large_2p28);
    return sct_end();
}
