/* test_gather_scatter_ref.c - split_gather_ref / split_scatter_ref against a word-by-word brute
 * force on seeded permutations, record sizes 4 .. 512 bytes, 1, 2 and 7 passes; bad arguments
 * (misalignment, odd or too large record sizes, NULL src / dst / index with n > 0, src == dst,
 * n >= 2^32, out-of-range or repeated indices) rejected with nothing written; n = 0 with NULL
 * pointers accepted (cpu). */
#include <stdlib.h>
#include <string.h>

#include "split.h"
#include "sctest.h"

static void permutation(sct_rng *rng, uint32_t *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) p[i] = (uint32_t)i;
    for (size_t i = n; i > 1; --i) {
        size_t j = sct_rng_below(rng, (uint32_t)i);
        uint32_t t = p[i - 1];
        p[i - 1] = p[j], p[j] = t;
    }
}

static void test_matches_brute_force(void)
{
    static const size_t recs[] = {4, 8, 12, 16, 20, 64, 128, 512};
    static const size_t ns[] = {0, 1, 31, 32, 33, 255, 256, 257, 1001};
    static const uint32_t passes[] = {0, 1, 2, 7};
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed());
    for (size_t r = 0; r < 8; ++r)
        for (size_t k = 0; k < 9; ++k)
            for (size_t p = 0; p < 4; ++p) {
                size_t n = ns[k], rb = recs[r], words = n * rb / 4;
                uint32_t *src = malloc(words * 4 + 4), *dst = malloc(words * 4 + 4), *idx = malloc(n * 4 + 4);
                permutation(&rng, idx, n);
                for (size_t w = 0; w < words; ++w) src[w] = sct_rng_u32(&rng);
                split_move_desc d = {src, dst, rb, idx, n, passes[p]};
                memset(dst, 0xAB, words * 4 + 4);
                SCT_CHECK_OK(split_gather_ref(&d));
                int bad = 0;
                for (size_t i = 0; i < n; ++i)
                    for (size_t w = 0; w < rb / 4; ++w) bad += dst[i * rb / 4 + w] != src[(size_t)idx[i] * rb / 4 + w];
                memset(dst, 0xAB, words * 4 + 4);
                SCT_CHECK_OK(split_scatter_ref(&d));
                for (size_t i = 0; i < n; ++i)
                    for (size_t w = 0; w < rb / 4; ++w) bad += dst[(size_t)idx[i] * rb / 4 + w] != src[i * rb / 4 + w];
                bad += dst[words] != 0xABABABABu;
                SCT_CHECK_MSG(bad == 0, "record %zu n %zu passes %u: %d wrong words", rb, n, passes[p], bad);
                free(src), free(dst), free(idx);
            }
}

static void quiet(sc_log_level level, const char *message, void *user) { (void)level, (void)message, (void)user; }

static void test_bad_arguments_write_nothing(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    uint32_t src[17], dst[17], idx[4] = {2, 0, 3, 1}, rep[4] = {2, 0, 2, 1}, oor[4] = {2, 0, 4, 1};
    for (int i = 0; i < 17; ++i) src[i] = (uint32_t)i;
    memset(dst, 0xAB, sizeof dst);
    split_move_desc d = {src, dst, 16, idx, 4, 1};
    split_move_desc b = d;
    b.record_bytes = 6;
    SCT_CHECK(split_gather_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.record_bytes = 0;
    SCT_CHECK(split_scatter_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.src = (const char *)src + 2;
    SCT_CHECK(split_gather_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.dst = (char *)dst + 1;
    SCT_CHECK(split_scatter_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.index = oor;
    SCT_CHECK(split_gather_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.index = rep;
    SCT_CHECK(split_scatter_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.index = NULL;
    SCT_CHECK(split_gather_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_scatter_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.src = NULL;
    SCT_CHECK(split_gather_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_scatter_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.dst = NULL;
    SCT_CHECK(split_gather_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_scatter_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.dst = src;
    SCT_CHECK(split_gather_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.src = dst;
    SCT_CHECK(split_scatter_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.n = (size_t)1 << 32;
    SCT_CHECK(split_scatter_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.record_bytes = (size_t)1 << 32;
    SCT_CHECK(split_gather_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_gather_ref(NULL) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_scatter_ref(NULL) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "split_scatter_ref") != NULL);
    for (int i = 0; i < 17; ++i) SCT_CHECK(dst[i] == 0xABABABABu);
    /* n = 0 with NULL pointers is a valid empty move */
    split_move_desc z = {NULL, NULL, 16, NULL, 0, 1};
    SCT_CHECK_OK(split_gather_ref(&z));
    SCT_CHECK_OK(split_scatter_ref(&z));
    /* 4-byte aligned but not 16: still valid (narrower words) */
    b = d, b.src = src + 1;
    SCT_CHECK_OK(split_gather_ref(&b));
    SCT_CHECK(dst[0] == 9 && dst[4] == 1);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "gather_scatter_ref");
    SCT_RUN(test_matches_brute_force);
    SCT_RUN(test_bad_arguments_write_nothing);
    return sct_end();
}
