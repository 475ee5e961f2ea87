/* test_segmented_ref.c - split_segmented_ref against an independent brute force (for every
 * segment, for every bucket in order, the segment's records of that bucket in input order) on
 * small seeded inputs, every rule and key type; bad arguments rejected with nothing written (cpu). */
#include <stdlib.h>
#include <string.h>

#include "split.h"
#include "sctest.h"

/* Bucket of a key, written independently of the library from split.h's definitions. */
static uint32_t brute_bucket(const split_desc *d, uint32_t nb, size_t i)
{
    const split_buckets *r = &d->buckets;
    if (r->rule == SPLIT_BUCKETS_IDS) return r->bucket_ids[i];
    uint64_t key = d->key_type == SPLIT_KEY_U64 ? ((const uint64_t *)d->keys_in)[i] : ((const uint32_t *)d->keys_in)[i];
    if (r->rule == SPLIT_BUCKETS_BITS) return (uint32_t)((key >> r->start_bit) % ((uint64_t)1 << r->bit_count));
    if (r->rule == SPLIT_BUCKETS_RANGE) {
        uint32_t b = 0;
        while (b + 1 < nb && key >= r->range_base + (uint64_t)(b + 1) * r->range_delta) ++b;
        return b;
    }
    uint32_t b = 0;
    for (uint32_t k = 0; k + 1 < nb; ++k) {
        uint64_t bk = d->key_type == SPLIT_KEY_U64 ? ((const uint64_t *)r->boundaries)[k] : ((const uint32_t *)r->boundaries)[k];
        b += bk <= key;
    }
    return b;
}

static void check_case(sct_rng *rng, split_bucket_rule rule, split_key_type kt, uint32_t nb, size_t n, int max_seg)
{
    size_t kb = kt == SPLIT_KEY_U64 ? 8 : 4, S = 0;
    if (rule == SPLIT_BUCKETS_BITS)
        while (nb & (nb - 1)) ++nb; /* BITS: B is a power of two */
    const size_t cap = n + 64;
    uint32_t *off = malloc(cap * sizeof *off);
    off[0] = 0;
    for (size_t at = 0; (at < n || S == 0) && S + 2 < cap;) {
        size_t m = sct_rng_below(rng, (uint32_t)max_seg + 1);
        if (m > n - at) m = n - at;
        at += m;
        off[++S] = (uint32_t)at;
    }
    off[S] = (uint32_t)n; /* the last segment takes what is left */
    unsigned char *keys = malloc(n * kb + 8), *kout = malloc(n * kb + 8), *kexp = malloc(n * kb + 8);
    uint32_t *ids = malloc(n * 4 + 4), *vals = malloc(n * 4 + 4), *vout = malloc(n * 4 + 4), *vexp = malloc(n * 4 + 4);
    uint32_t *g = malloc(n * 4 + 4), *gexp = malloc(n * 4 + 4), *sc = malloc(n * 4 + 4), *scexp = malloc(n * 4 + 4);
    uint32_t *bo = malloc((S * nb + 1) * 4), *boexp = malloc((S * nb + 1) * 4);
    uint64_t bounds[64];
    for (uint32_t k = 0; k + 1 < nb; ++k) bounds[k] = (k + 1) * 5 + (k % 3 == 0); /* sorted, uneven */
    uint32_t bounds32[64];
    for (uint32_t k = 0; k + 1 < nb; ++k) bounds32[k] = (uint32_t)bounds[k];
    for (size_t i = 0; i < n; ++i) {
        uint64_t v = sct_rng_next(rng);
        if (rule == SPLIT_BUCKETS_RANGE || rule == SPLIT_BUCKETS_BOUNDARIES) v %= (uint64_t)nb * 6 + 20;
        if (kt == SPLIT_KEY_U64) ((uint64_t *)keys)[i] = v;
        else ((uint32_t *)keys)[i] = (uint32_t)v;
        ids[i] = sct_rng_below(rng, nb);
        vals[i] = sct_rng_u32(rng);
    }
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = kt, d.n = n, d.keys_in = keys, d.keys_out = kout, d.values_in = vals, d.values_out = vout;
    d.gather_index = g, d.scatter_index = sc, d.bucket_offsets = bo, d.segment_offsets = off, d.num_segments = S;
    d.buckets.rule = rule;
    d.buckets.num_buckets = nb;
    if (rule == SPLIT_BUCKETS_BITS) {
        uint32_t bc = 0;
        while ((1u << bc) < nb) ++bc;
        d.buckets.num_buckets = sct_rng_below(rng, 2) ? 0 : (1u << bc);
        d.buckets.bit_count = bc;
        d.buckets.start_bit = kt == SPLIT_KEY_U64 ? 50 : 7;
    }
    d.buckets.bucket_ids = ids;
    d.buckets.range_base = 10, d.buckets.range_delta = 3;
    d.buckets.boundaries = kt == SPLIT_KEY_U64 ? (const void *)bounds : (const void *)bounds32;
    SCT_CHECK_OK(split_segmented_ref(&d));
    /* brute force */
    size_t at = 0;
    for (size_t s = 0; s < S; ++s)
        for (uint32_t b = 0; b < nb; ++b) {
            boexp[s * nb + b] = (uint32_t)at;
            for (uint32_t i = off[s]; i < off[s + 1]; ++i)
                if (brute_bucket(&d, nb, i) == b) {
                    memcpy(kexp + at * kb, keys + (size_t)i * kb, kb);
                    vexp[at] = vals[i], gexp[at] = i, scexp[i] = (uint32_t)at;
                    ++at;
                }
        }
    boexp[S * nb] = (uint32_t)n;
    SCT_CHECK_EQ_U64(at, n);
    int ok = memcmp(kout, kexp, n * kb) == 0 && memcmp(vout, vexp, n * 4) == 0 && memcmp(g, gexp, n * 4) == 0 &&
             memcmp(sc, scexp, n * 4) == 0 && memcmp(bo, boexp, (S * nb + 1) * 4) == 0;
    SCT_CHECK_MSG(ok, "rule %d key %d B %u n %zu S %zu: reference differs from brute force", (int)rule, (int)kt, nb, n, S);
    free(off), free(keys), free(kout), free(kexp), free(ids), free(vals), free(vout), free(vexp);
    free(g), free(gexp), free(sc), free(scexp), free(bo), free(boexp);
}

static void test_matches_brute_force(void)
{
    static const split_bucket_rule rules[] = {SPLIT_BUCKETS_BITS, SPLIT_BUCKETS_IDS, SPLIT_BUCKETS_RANGE,
                                              SPLIT_BUCKETS_BOUNDARIES};
    static const uint32_t bs[] = {1, 2, 3, 16, 33};
    static const size_t ns[] = {0, 1, 31, 32, 33, 257, 1000};
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed());
    for (int r = 0; r < 4; ++r)
        for (int kt = 0; kt < 2; ++kt)
            for (size_t b = 0; b < sizeof bs / sizeof bs[0]; ++b)
                for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
                    for (int max_seg = 0; max_seg <= 300; max_seg = max_seg * 4 + 5)
                        check_case(&rng, rules[r], kt ? SPLIT_KEY_U64 : SPLIT_KEY_U32, bs[b], ns[k], max_seg);
}

static void quiet(sc_log_level level, const char *message, void *user) { (void)level, (void)message, (void)user; }

static void test_bad_arguments_write_nothing(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    uint32_t keys[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8], ids[8] = {0, 1, 2, 3, 0, 1, 2, 9};
    uint32_t off_bad[3] = {0, 5, 4}, off_end[3] = {0, 3, 7}, off[3] = {0, 3, 8};
    split_desc d;
    memset(&d, 0, sizeof d);
    d.n = 8, d.keys_in = keys, d.keys_out = out, d.segment_offsets = off, d.num_segments = 2;
    d.buckets.rule = SPLIT_BUCKETS_BITS, d.buckets.bit_count = 2;
    memset(out, 0xAB, sizeof out);
    split_desc b = d;
    b.segment_offsets = off_bad;
    SCT_CHECK(split_segmented_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.segment_offsets = off_end;
    SCT_CHECK(split_segmented_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.buckets.rule = SPLIT_BUCKETS_IDS, b.buckets.num_buckets = 4, b.buckets.bucket_ids = ids;
    SCT_CHECK(split_segmented_ref(&b) == SC_ERROR_INVALID_ARGUMENT); /* id 9 >= B */
    b = d, b.num_segments = 0;
    SCT_CHECK(split_segmented_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.keys_out = NULL;
    SCT_CHECK(split_segmented_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    b = d, b.buckets.bit_count = 12;
    SCT_CHECK(split_segmented_ref(&b) == SC_ERROR_INVALID_ARGUMENT);
    for (int i = 0; i < 8; ++i) SCT_CHECK(out[i] == 0xABABABABu);
    SCT_CHECK_OK(split_segmented_ref(&d));
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "segmented_ref");
    SCT_RUN(test_matches_brute_force);
    SCT_RUN(test_bad_arguments_write_nothing);
    return sct_end();
}
