/* test_records_ref.c - the CPU reference of `split-demo records` (app/split_demo/demo_records.cu),
 * without a GPU (cpu): the demo's methods run with the split library's CPU references on the demo's
 * own records (records_host.c: layout, generation, stable reference order, check):
 *  (a) split_sort_ref of (key, index) pairs, then one split_gather_ref of the whole records;
 *  (b) per 8-bit digit, least significant first: a stable split_multisplit_ref of the keys (BITS
 *      rule) giving keys_out and the pass's gather index, then split_gather_ref of the whole records
 *      into the other buffer (ping-pong, the last pass landing in the output buffer);
 *      (96-bit keys: the digit read from the records themselves into bucket ids, split_index_ref with
 *      the IDS rule);
 * on n = 1, 7, 1000, 100003, records of 16 and 132 bytes, 32-, 64- and 96-bit keys, for the demo's records
 * and for records overwritten with only a few distinct keys (many equal keys: stability). Each output
 * is checked word by word against the stable CPU reference by records_first_bad, the demo's check;
 * that check is itself shown to catch an unstable order, a wrong gather, a corrupted payload word and
 * a wrong key order on crafted outputs. */
#include <stdlib.h>
#include <string.h>

#include "records_host.h"
#include "sctest.h"
#include "split.h"

enum { DIGIT_BITS = 8 };

/* The keys of the n records (wpr words each) as a uint32_t, uint64_t or 3-word array (keys: n * 12
 * bytes). */
static void extract_keys(const uint32_t *rec, size_t n, uint32_t wpr, uint32_t key_bits, void *keys)
{
    for (size_t i = 0; i < n; ++i) {
        if (key_bits == 32)
            ((uint32_t *)keys)[i] = rec[i * wpr];
        else if (key_bits == 64)
            ((uint64_t *)keys)[i] = records_key_of(rec + i * wpr, 2);
        else
            for (int w = 0; w < 3; ++w) ((uint32_t *)keys)[i * 3 + w] = rec[i * wpr + w];
    }
}

/* (a) split_sort_ref of (key, index), one split_gather_ref. Returns 0 or the failing call's status. */
static int method_sort(const uint32_t *in, uint32_t *out, size_t n, size_t record_bytes, uint32_t key_bits)
{
    const uint32_t wpr = (uint32_t)(record_bytes / 4);
    void *keys = malloc(n * 12), *keys2 = malloc(n * 12);
    uint32_t *iota = malloc(n * 4), *perm = malloc(n * 4);
    int rc = -1;
    if (keys && keys2 && iota && perm) {
        extract_keys(in, n, wpr, key_bits, keys);
        for (size_t i = 0; i < n; ++i) iota[i] = (uint32_t)i;
        split_sort_desc d;
        memset(&d, 0, sizeof d);
        d.key_bits = key_bits, d.n = n, d.keys_in = keys, d.keys_out = keys2, d.values_in = iota, d.values_out = perm;
        rc = (int)split_sort_ref(&d);
        if (rc == 0) {
            split_move_desc mv = {in, out, record_bytes, perm, n, 1};
            rc = (int)split_gather_ref(&mv);
        }
    }
    free(keys), free(keys2), free(iota), free(perm);
    return rc;
}

/* (b) with 96-bit keys, per 8-bit digit p: the digit read from each record as it lies after the
 * previous pass (byte p % 4 of key word p / 4) into a bucket id array, a stable split_index_ref (IDS
 * rule, 256 buckets) giving the pass's gather index, split_gather_ref of the records. */
static int method_per_pass_ids(const uint32_t *in, uint32_t *out, uint32_t *tmp, size_t n, size_t record_bytes)
{
    const uint32_t wpr = (uint32_t)(record_bytes / 4), passes = 96 / DIGIT_BITS;
    uint32_t *ids = malloc(n * 4), *gidx = malloc(n * 4);
    int rc = ids && gidx ? 0 : -1;
    const uint32_t *src = in;
    for (uint32_t p = 0; rc == 0 && p < passes; ++p) {
        uint32_t *dst = (passes - 1 - p) % 2 == 0 ? out : tmp;
        for (size_t i = 0; i < n; ++i) ids[i] = (src[i * wpr + p / 4] >> (8 * (p % 4))) & 0xFFu;
        split_desc d;
        memset(&d, 0, sizeof d);
        d.key_type = SPLIT_KEY_U32;
        d.n = n, d.gather_index = gidx;
        d.buckets.rule = SPLIT_BUCKETS_IDS;
        d.buckets.num_buckets = 256;
        d.buckets.bucket_ids = ids;
        rc = (int)split_index_ref(&d);
        if (rc == 0) {
            split_move_desc mv = {src, dst, record_bytes, gidx, n, 1};
            rc = (int)split_gather_ref(&mv);
        }
        src = dst;
    }
    free(ids), free(gidx);
    return rc;
}

/* (b) per 8-bit digit: stable split_multisplit_ref of the keys, split_gather_ref of the records. */
static int method_per_pass(const uint32_t *in, uint32_t *out, uint32_t *tmp, size_t n, size_t record_bytes,
                           uint32_t key_bits)
{
    if (key_bits == 96) return method_per_pass_ids(in, out, tmp, n, record_bytes);
    const uint32_t wpr = (uint32_t)(record_bytes / 4), passes = key_bits / DIGIT_BITS;
    void *keys = malloc(n * 8), *keys2 = malloc(n * 8);
    uint32_t *gidx = malloc(n * 4);
    int rc = -1;
    if (keys && keys2 && gidx) {
        rc = 0;
        extract_keys(in, n, wpr, key_bits, keys);
        const uint32_t *src = in;
        const void *ksrc = keys;
        for (uint32_t p = 0; rc == 0 && p < passes; ++p) {
            uint32_t *dst = (passes - 1 - p) % 2 == 0 ? out : tmp;
            void *kdst = p % 2 == 0 ? keys2 : keys;
            split_desc d;
            memset(&d, 0, sizeof d);
            d.key_type = key_bits == 32 ? SPLIT_KEY_U32 : SPLIT_KEY_U64;
            d.n = n, d.keys_in = ksrc, d.keys_out = kdst, d.gather_index = gidx;
            d.buckets.rule = SPLIT_BUCKETS_BITS;
            d.buckets.start_bit = p * DIGIT_BITS;
            d.buckets.bit_count = DIGIT_BITS;
            rc = (int)split_multisplit_ref(&d);
            if (rc == 0) {
                split_move_desc mv = {src, dst, record_bytes, gidx, n, 1};
                rc = (int)split_gather_ref(&mv);
            }
            src = dst, ksrc = kdst;
        }
    }
    free(keys), free(keys2), free(gidx);
    return rc;
}

/* The demo's records, or (few_keys) the same records with keys from only 5 distinct values (which
 * differ in both halves of a 64-bit key), so most records share their key with many others. */
static void make_input(uint32_t *in, size_t n, uint32_t wpr, uint32_t kw, int few_keys)
{
    records_generate(in, n, wpr, kw);
    if (!few_keys) return;
    for (size_t j = 0; j < n; ++j) {
        const uint64_t k = records_mix64(0x1234 + (records_mix64(j) % 5));
        in[j * wpr] = (uint32_t)k;
        if (kw >= 2) in[j * wpr + 1] = (uint32_t)(k >> 32);
        if (kw == 3) in[j * wpr + 2] = (uint32_t)(k % 3);
    }
}

static void test_methods_match_reference(void)
{
    static const size_t ns[] = {1, 7, 1000, 100003};
    static const size_t sizes[] = {16, 132};
    static const uint32_t widths[] = {32, 64, 96};
    static const char *const names[] = {"(a) split_sort_ref + 1 gather", "(b) multisplit_ref + gather per pass"};
    for (size_t ni = 0; ni < 4; ++ni)
        for (size_t si = 0; si < 2; ++si)
            for (size_t ki = 0; ki < 3; ++ki)
                for (int few = 0; few < 2; ++few) {
                    const size_t n = ns[ni], rb = sizes[si];
                    const uint32_t kb = widths[ki], kw = kb / 32, wpr = (uint32_t)(rb / 4);
                    uint32_t *in = malloc(n * rb), *out = malloc(n * rb), *tmp = malloc(n * rb);
                    uint32_t *ref = malloc(n * 4);
                    SCT_REQUIRE(in && out && tmp && ref);
                    make_input(in, n, wpr, kw, few);
                    SCT_REQUIRE(records_reference_perm("test_records_ref", in, n, wpr, kb, ref) == 0);
                    if (!few) { /* the demo's reference (from record_key) is the same order */
                        uint32_t *ref2 = malloc(n * 4);
                        SCT_REQUIRE(ref2 != NULL);
                        SCT_REQUIRE(records_reference_perm("test_records_ref", NULL, n, 0, kb, ref2) == 0);
                        SCT_CHECK_MSG(memcmp(ref, ref2, n * 4) == 0, "n %zu, %u-bit keys: reference orders differ",
                                      n, kb);
                        free(ref2);
                    }
                    for (int m = 0; m < 2; ++m) {
                        memset(out, 0, n * rb); /* no stale output passes */
                        const int rc = m == 0 ? method_sort(in, out, n, rb, kb)
                                              : method_per_pass(in, out, tmp, n, rb, kb);
                        SCT_CHECK_MSG(rc == 0, "%s: n %zu, %zu bytes, %u-bit keys: status %d", names[m], n, rb, kb, rc);
                        const size_t bad = records_first_bad(out, in, ref, n, wpr, kw);
                        if (bad != n)
                            records_describe_bad(stderr, "test_records_ref", names[m], in, rb, kb, n, bad, ref,
                                                 out + bad * wpr);
                        SCT_CHECK_MSG(bad == n, "%s: n %zu, %zu bytes, %u-bit keys, %s keys: first bad record %zu",
                                      names[m], n, rb, kb, few ? "few" : "demo", bad);
                        /* the demo checks against generated records (in NULL): the same verdict */
                        if (!few)
                            SCT_CHECK(records_first_bad(out, NULL, ref, n, wpr, kw) == n);
                    }
                    free(in), free(out), free(tmp), free(ref);
                }
}

/* The shared check must fail on wrong outputs: crafted from a correct one. */
static void test_check_detects_errors(void)
{
    const size_t n = 1000, rb = 132;
    const uint32_t kb = 64, kw = 2, wpr = (uint32_t)(rb / 4);
    uint32_t *in = malloc(n * rb), *out = malloc(n * rb), *bad = malloc(n * rb), *ref = malloc(n * 4);
    SCT_REQUIRE(in && out && bad && ref);
    make_input(in, n, wpr, kw, 1); /* 5 keys: many ties */
    SCT_REQUIRE(records_reference_perm("test_records_ref", in, n, wpr, kb, ref) == 0);
    SCT_REQUIRE(method_sort(in, out, n, rb, kb) == 0);
    SCT_REQUIRE(records_first_bad(out, in, ref, n, wpr, kw) == n);

    /* an unstable order: two records with equal keys swapped (same keys, so a key-only check passes) */
    size_t i = 0;
    while (i + 1 < n && records_key_of(out + i * wpr, kw) != records_key_of(out + (i + 1) * wpr, kw)) ++i;
    SCT_REQUIRE(i + 1 < n);
    i += 10; /* somewhere inside a run of equal keys (runs are ~200 long) */
    SCT_REQUIRE(records_key_of(out + i * wpr, kw) == records_key_of(out + (i + 1) * wpr, kw));
    memcpy(bad, out, n * rb);
    memcpy(bad + i * wpr, out + (i + 1) * wpr, rb);
    memcpy(bad + (i + 1) * wpr, out + i * wpr, rb);
    SCT_CHECK_EQ_U64(records_first_bad(bad, in, ref, n, wpr, kw), i);

    /* a wrong gather: record 500 holds a copy of another input record */
    memcpy(bad, out, n * rb);
    memcpy(bad + 500 * wpr, in + (size_t)((ref[500] + 1) % n) * wpr, rb);
    SCT_CHECK_EQ_U64(records_first_bad(bad, in, ref, n, wpr, kw), 500);

    /* one payload word wrong (the last word of the last record) */
    memcpy(bad, out, n * rb);
    bad[n * wpr - 1] ^= 1;
    SCT_CHECK_EQ_U64(records_first_bad(bad, in, ref, n, wpr, kw), n - 1);

    /* the input unsorted (identity order) is not the reference order */
    SCT_CHECK(records_first_bad(in, in, ref, n, wpr, kw) < n);

    /* the demo's generated records: a stable sort's output passes, an unstable swap of the generated
     * records' equal keys (every 4th record, 997 shared keys: at n 100003 many ties) does not */
    const size_t n2 = 100003, rb2 = 16;
    const uint32_t wpr2 = (uint32_t)(rb2 / 4), kw2 = 1;
    uint32_t *in2 = malloc(n2 * rb2), *out2 = malloc(n2 * rb2), *ref2 = malloc(n2 * 4);
    SCT_REQUIRE(in2 && out2 && ref2);
    records_generate(in2, n2, wpr2, kw2);
    SCT_REQUIRE(records_reference_perm("test_records_ref", NULL, n2, 0, 32, ref2) == 0);
    SCT_REQUIRE(method_sort(in2, out2, n2, rb2, 32) == 0);
    SCT_CHECK(records_first_bad(out2, NULL, ref2, n2, wpr2, kw2) == n2);
    size_t t = 0;
    while (t + 1 < n2 && out2[t * wpr2] != out2[(t + 1) * wpr2]) ++t;
    SCT_REQUIRE(t + 1 < n2);
    uint32_t sw[4];
    memcpy(sw, out2 + t * wpr2, rb2);
    memcpy(out2 + t * wpr2, out2 + (t + 1) * wpr2, rb2);
    memcpy(out2 + (t + 1) * wpr2, sw, rb2);
    SCT_CHECK_EQ_U64(records_first_bad(out2, NULL, ref2, n2, wpr2, kw2), t);
    SCT_CHECK_EQ_U64(records_first_bad(out2, in2, ref2, n2, wpr2, kw2), t);
    free(in2), free(out2), free(ref2);

    /* 96-bit keys: records sorted by their low 64 bits only (the high word ignored) are caught */
    const size_t n3 = 5000, rb3 = 16;
    const uint32_t wpr3 = (uint32_t)(rb3 / 4), kw3 = 3;
    uint32_t *in3 = malloc(n3 * rb3), *out3 = malloc(n3 * rb3), *ref3 = malloc(n3 * 4);
    SCT_REQUIRE(in3 && out3 && ref3);
    records_generate(in3, n3, wpr3, kw3);
    SCT_REQUIRE(records_reference_perm("test_records_ref", NULL, n3, 0, 96, ref3) == 0);
    SCT_REQUIRE(method_sort(in3, out3, n3, rb3, 96) == 0);
    SCT_CHECK(records_first_bad(out3, NULL, ref3, n3, wpr3, kw3) == n3);
    SCT_REQUIRE(method_sort(in3, out3, n3, rb3, 64) == 0);
    SCT_CHECK(records_first_bad(out3, NULL, ref3, n3, wpr3, kw3) < n3);
    free(in3), free(out3), free(ref3);
    free(in), free(out), free(bad), free(ref);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "records_ref");
    SCT_RUN(test_methods_match_reference);
    SCT_RUN(test_check_detects_errors);
    return sct_end();
}
