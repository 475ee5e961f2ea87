/* test_multisplit_ref.c - the references split_multisplit_ref / split_index_ref / split_bucket_of_ref /
 * split_sort_ref checked against independent brute force (qsort by (bucket, index) and by
 * (key, index)) on small seeded inputs, and their argument checks (cpu). The unstable wide cases
 * (B > 2048, bucket_counts, a record count) take the same checks plus their own argument rules. */
#include <stdlib.h>
#include <string.h>

#include "multisplit_testgen.h"
#include "sctest.h"
#include "split.h"

static const uint32_t POISON_WORD = 0xABABABABu;

static void quiet(sc_log_level level, const char *message, void *user) { (void)level; (void)message; (void)user; }

/* Independent bucket of record i: the rules written out plainly (linear scan for boundaries). */
static uint32_t brute_bucket(const split_desc *d, size_t i)
{
    const split_buckets *b = &d->buckets;
    uint32_t nb = b->num_buckets ? b->num_buckets : 1u << b->bit_count;
    uint64_t key = 0;
    if (d->keys_in)
        key = d->key_type == SPLIT_KEY_U64 ? ((const uint64_t *)d->keys_in)[i] : ((const uint32_t *)d->keys_in)[i];
    switch (b->rule) {
    case SPLIT_BUCKETS_BITS: return (uint32_t)(key >> b->start_bit) % (1u << b->bit_count);
    case SPLIT_BUCKETS_IDS: return b->bucket_ids[i];
    case SPLIT_BUCKETS_RANGE: {
        if (key < b->range_base) return 0;
        uint32_t q = 0;
        while (q + 1 < nb && key - b->range_base >= (uint64_t)(q + 1) * b->range_delta) ++q;
        return q;
    }
    case SPLIT_BUCKETS_BOUNDARIES: {
        uint32_t cnt = 0;
        for (uint32_t j = 0; j + 1 < nb; ++j) {
            uint64_t bj = d->key_type == SPLIT_KEY_U64 ? ((const uint64_t *)b->boundaries)[j]
                                                       : ((const uint32_t *)b->boundaries)[j];
            cnt += bj <= key;
        }
        return cnt;
    }
    }
    return 0;
}

typedef struct pair { uint32_t bucket, index; } pair;

static int pair_cmp(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->bucket != y->bucket) return x->bucket < y->bucket ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void check_multisplit_case(const mst_case *c, uint64_t seed, int unstable)
{
    mst_data d;
    SCT_REQUIRE(mst_generate(c, seed, &d));
    size_t n = c->n;
    uint32_t nb = c->num_buckets;
    pair *p = malloc((n + 1) * sizeof *p);
    void *keys_out = malloc(n * d.key_bytes + 8);
    uint32_t *vals_out = malloc(n * 4 + 4), *gather = malloc(n * 4 + 4), *scatter = malloc(n * 4 + 4);
    uint32_t *offsets = malloc(((size_t)nb + 2) * 4);
    SCT_REQUIRE(p && keys_out && vals_out && gather && scatter && offsets);
    split_desc desc = d.desc;
    desc.keys_out = c->rule == SPLIT_BUCKETS_IDS && (seed & 1) ? NULL : keys_out;
    if (!desc.keys_out) desc.keys_in = NULL; /* IDS without keys */
    desc.values_out = d.values ? vals_out : NULL;
    desc.gather_index = gather;
    desc.scatter_index = scatter;
    desc.bucket_offsets = offsets;
    desc.unstable = unstable;
    offsets[nb + 1] = 0xDEADBEEFu;
    SCT_CHECK_OK(split_multisplit_ref(&desc));
    for (size_t i = 0; i < n; ++i) {
        p[i].bucket = brute_bucket(&desc, i);
        p[i].index = (uint32_t)i;
        SCT_CHECK_EQ_U64(split_bucket_of_ref(&desc, i), p[i].bucket);
        if (sct_current_failed()) break;
    }
    qsort(p, n, sizeof *p, pair_cmp);
    size_t bad = 0;
    for (size_t j = 0; j < n; ++j) {
        uint32_t i = p[j].index;
        bad += gather[j] != i || scatter[i] != j;
        if (desc.keys_out) bad += memcmp((char *)keys_out + j * d.key_bytes, (char *)d.keys + i * d.key_bytes, d.key_bytes) != 0;
        if (desc.values_out) bad += vals_out[j] != d.values[i];
    }
    size_t below = 0; /* offsets[b] = number of records whose bucket is below b */
    for (uint32_t b = 0, j = 0; b <= nb; ++b) {
        while (j < n && p[j].bucket < b) ++j, ++below;
        bad += offsets[b] != below;
    }
    bad += offsets[nb] != n || offsets[nb + 1] != 0xDEADBEEFu;
    SCT_CHECK_MSG(bad == 0, "%s n=%u B=%u %s %s values=%d: %zu mismatches", c->key_type ? "u64" : "u32", c->n, nb,
                  mst_rule_name[c->rule], mst_dist_name[c->dist], c->with_values, bad);

    /* split_index gives the same permutation. */
    uint32_t *gather2 = malloc(n * 4 + 4);
    SCT_REQUIRE(gather2);
    split_desc idesc = desc;
    idesc.keys_out = NULL;
    idesc.values_out = NULL;
    idesc.values_in = NULL;
    idesc.scatter_index = NULL;
    idesc.bucket_offsets = NULL;
    idesc.gather_index = gather2;
    if (c->rule != SPLIT_BUCKETS_IDS) idesc.keys_in = d.keys;
    SCT_CHECK_OK(split_index_ref(&idesc));
    SCT_CHECK(n == 0 || memcmp(gather, gather2, n * 4) == 0);
    free(gather2);
    free(p);
    free(keys_out);
    free(vals_out);
    free(gather);
    free(scatter);
    free(offsets);
    mst_free(&d);
}

static void test_multisplit_ref_matches_brute_force(void)
{
    static const uint32_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 2047, 2048, 2049, 10007};
    static const uint32_t buckets[] = {1, 2, 3, 31, 32, 33, 255, 256, 257, 2048};
    uint64_t seed = sct_base_seed();
    for (int kt = 0; kt < 2; ++kt)
        for (int rule = 0; rule < 4; ++rule)
            for (size_t bi = 0; bi < sizeof buckets / sizeof buckets[0]; ++bi)
                for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
                    mst_case c = {(split_key_type)kt, sizes[si], buckets[bi], (split_bucket_rule)rule,
                                  (mst_dist)((si + bi) % MST_DIST_COUNT), (int)((si + rule) & 1), 0};
                    check_multisplit_case(&c, ++seed, 0);
                    if (sct_current_failed()) return;
                }
}

static void test_multisplit_ref_distributions(void)
{
    uint64_t seed = sct_base_seed() * 7;
    for (int dist = 0; dist < MST_DIST_COUNT; ++dist)
        for (int rule = 0; rule < 4; ++rule) {
            mst_case c = {SPLIT_KEY_U32, 5000, 33, (split_bucket_rule)rule, (mst_dist)dist, 1, 0};
            check_multisplit_case(&c, ++seed, 0);
        }
}

/* Wide buckets (unstable only): the reference is the same counting sort, checked by brute force. */
static void test_multisplit_ref_wide_buckets(void)
{
    static const struct { uint32_t n, b; int rule, kt; } cs[] = {
        {10007, 2049, SPLIT_BUCKETS_BITS, 0},  {10007, 16384, SPLIT_BUCKETS_RANGE, 1},
        {4099, 32400, SPLIT_BUCKETS_IDS, 0},   {2049, 32400, SPLIT_BUCKETS_BOUNDARIES, 1},
        {20011, 1u << 20, SPLIT_BUCKETS_BITS, 1}, {33, 1u << 24, SPLIT_BUCKETS_BITS, 0}};
    uint64_t seed = sct_base_seed() * 31;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; ++k) {
        mst_case c = {(split_key_type)cs[k].kt, cs[k].n, cs[k].b, (split_bucket_rule)cs[k].rule,
                      (mst_dist)(k % MST_DIST_COUNT), (int)(k & 1), 0};
        check_multisplit_case(&c, ++seed, 1);
        if (sct_current_failed()) return;
    }
}

/* num_records_device (a host pointer for the reference): records past c are neither read nor
 * written, and the result equals a split of the first c records; bucket_counts must equal the
 * reference's own counts of those records. */
static void test_multisplit_ref_record_count_and_bucket_counts(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    mst_case c = {SPLIT_KEY_U32, 5003, 3000, SPLIT_BUCKETS_IDS, MST_HOCKEY, 1, 0};
    mst_data d;
    SCT_REQUIRE(mst_generate(&c, sct_base_seed() * 37, &d));
    const size_t n = c.n, nb = c.num_buckets;
    uint32_t *k1 = malloc(n * 4), *v1 = malloc(n * 4), *g1 = malloc(n * 4), *s1 = malloc(n * 4);
    uint32_t *k2 = malloc(n * 4), *v2 = malloc(n * 4), *g2 = malloc(n * 4), *s2 = malloc(n * 4);
    uint32_t *o1 = malloc((nb + 1) * 4), *o2 = malloc((nb + 1) * 4), *counts = calloc(nb, 4);
    SCT_REQUIRE(k1 && v1 && g1 && s1 && k2 && v2 && g2 && s2 && o1 && o2 && counts);
    static const uint32_t cnts[] = {0, 1, 1234, 5002, 5003, 5004, 0xFFFFFFFFu};
    for (size_t t = 0; t < sizeof cnts / sizeof cnts[0]; ++t) {
        const uint32_t cnt = cnts[t], used = cnt < n ? cnt : (uint32_t)n;
        /* Expected: a plain split of the first `used` records. */
        split_desc e = d.desc;
        e.n = used;
        e.keys_out = k1;
        e.values_out = v1;
        e.gather_index = g1;
        e.scatter_index = s1;
        e.bucket_offsets = o1;
        e.unstable = 1;
        SCT_CHECK_OK(split_multisplit_ref(&e));
        memset(counts, 0, nb * 4);
        for (uint32_t i = 0; i < used; ++i) ++counts[d.ids[i]];
        for (int with_counts = 0; with_counts < 2; ++with_counts) {
            split_desc g = d.desc;
            g.keys_out = k2;
            g.values_out = v2;
            g.gather_index = g2;
            g.scatter_index = s2;
            g.bucket_offsets = o2;
            g.unstable = 1;
            g.num_records_device = &cnt;
            g.bucket_counts = with_counts ? counts : NULL;
            memset(k2, 0xAB, n * 4);
            memset(v2, 0xAB, n * 4);
            memset(g2, 0xAB, n * 4);
            memset(s2, 0xAB, n * 4);
            SCT_CHECK_OK(split_multisplit_ref(&g));
            size_t bad = 0;
            for (size_t j = 0; j < n; ++j) {
                if (j < used) bad += k2[j] != k1[j] || v2[j] != v1[j] || g2[j] != g1[j] || s2[j] != s1[j];
                else
                    bad += k2[j] != POISON_WORD || v2[j] != POISON_WORD || g2[j] != POISON_WORD ||
                           s2[j] != POISON_WORD;
            }
            bad += memcmp(o1, o2, (nb + 1) * 4) != 0;
            bad += o2[nb] != used;
            SCT_CHECK_MSG(bad == 0, "count %u bucket_counts %d: %zu mismatches", cnt, with_counts, bad);
        }
        /* Wrong counts: rejected, nothing written. */
        if (used > 0) {
            counts[d.ids[0]] += 1;
            split_desc g = d.desc;
            g.keys_out = k2;
            g.values_in = NULL;
            g.bucket_offsets = o2;
            g.unstable = 1;
            g.num_records_device = &cnt;
            g.bucket_counts = counts;
            memset(k2, 0xAB, n * 4);
            memset(o2, 0xAB, (nb + 1) * 4);
            SCT_CHECK(split_multisplit_ref(&g) == SC_ERROR_INVALID_ARGUMENT);
            SCT_CHECK_MSG(strstr(sc_last_error(), "bucket_counts[") != NULL, "message: %s", sc_last_error());
            size_t bad = 0;
            for (size_t j = 0; j < n; ++j) bad += k2[j] != POISON_WORD;
            for (size_t b = 0; b <= nb; ++b) bad += o2[b] != POISON_WORD;
            SCT_CHECK_MSG(bad == 0, "%zu words written by a rejected call", bad);
        }
    }
    free(k1); free(v1); free(g1); free(s1);
    free(k2); free(v2); free(g2); free(s2);
    free(o1); free(o2); free(counts);
    mst_free(&d);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

/* The valid call the argument tests start from: 8 u32 keys split by bits [0, 2), keys out only. */
static split_desc eight_keys_two_bits(const void *keys, uint32_t *out)
{
    split_desc d = {0};
    d.n = 8;
    d.keys_in = keys;
    d.keys_out = out;
    d.buckets.bit_count = 2;
    return d;
}

/* The wide rules: B > 2048 and bit_count > 11 only unstable (the message says so), bit_count <= 24,
 * bucket_counts and num_records_device only unstable and never segmented. */
static void test_ref_wide_argument_rules(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    uint32_t keys[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8], cnt = 8;
    uint32_t counts[4] = {2, 2, 2, 2}, seg[2] = {0, 8};
    uint32_t poison[8];
    memset(poison, 0xAB, sizeof poison);
    memcpy(out, poison, sizeof out);
    const split_desc d = eight_keys_two_bits(keys, out);
    split_desc e = d;
    e.buckets.bit_count = 12; /* stable, 4096 buckets */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "unstable") != NULL);
    e = d;
    e.buckets.bit_count = 0;
    e.buckets.num_buckets = 2049; /* stable */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "unstable") != NULL);
    e.buckets.num_buckets = SPLIT_MAX_WIDE_BUCKETS + 1u;
    e.unstable = 1;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.unstable = 1;
    e.buckets.bit_count = 25;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.bucket_counts = counts; /* stable */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "bucket_counts") != NULL);
    e = d;
    e.num_records_device = &cnt; /* stable */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.unstable = 1;
    e.buckets.bit_count = 12;
    e.keys_in = NULL; /* NULL keys with the BITS rule */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.unstable = 1;
    e.buckets.bit_count = 12;
    e.keys_out = NULL; /* no output */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.unstable = 1;
    e.buckets.rule = SPLIT_BUCKETS_IDS;
    e.buckets.num_buckets = 5000; /* bucket_ids NULL */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.unstable = 1;
    e.buckets.rule = SPLIT_BUCKETS_BOUNDARIES;
    e.buckets.num_buckets = 5000; /* boundaries NULL */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d; /* segmented: no wide buckets, no bucket_counts, even unstable */
    e.segment_offsets = seg;
    e.num_segments = 1;
    e.unstable = 1;
    e.bucket_counts = counts;
    SCT_CHECK(split_segmented_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e.bucket_counts = NULL;
    e.buckets.bit_count = 12;
    SCT_CHECK(split_segmented_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(memcmp(out, poison, sizeof out) == 0);
    /* Accepted: unstable with 2^12 buckets, bucket_counts and a record count. */
    e = d;
    e.unstable = 1;
    e.bucket_counts = counts; /* keys 1..8, bits [0, 2): buckets 1 2 3 0 1 2 3 0 */
    e.num_records_device = &cnt;
    SCT_CHECK_OK(split_multisplit_ref(&e));
    SCT_CHECK(out[0] == 4 && out[1] == 8 && out[2] == 1 && out[7] == 7);
    e.bucket_counts = NULL;
    e.buckets.bit_count = 12;
    SCT_CHECK_OK(split_multisplit_ref(&e));
    SCT_CHECK(out[0] == 1 && out[7] == 8);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

/* ---- sort ---- */
typedef struct skey { uint32_t w[3]; uint32_t index; } skey;

static int skey_cmp(const void *a, const void *b)
{
    const skey *x = a, *y = b;
    for (int w = 2; w >= 0; --w)
        if (x->w[w] != y->w[w]) return x->w[w] < y->w[w] ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void check_sort_case(uint32_t key_bits, uint32_t used, uint32_t n, size_t record_bytes, int values, uint64_t seed)
{
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    size_t kb = key_bits / 8;
    uint32_t *keys = malloc(n * kb + 4), *keys_out = malloc(n * kb + 4);
    uint32_t *vin = malloc(n * 4 + 4), *vout = malloc(n * 4 + 4);
    unsigned char *rin = malloc(n * record_bytes + 4), *rout = malloc(n * record_bytes + 4);
    skey *ref = malloc((n + 1) * sizeof *ref);
    SCT_REQUIRE(keys && keys_out && vin && vout && rin && rout && ref);
    for (size_t w = 0; w < n * kb / 4; ++w) keys[w] = sct_rng_below(&rng, 4) ? sct_rng_u32(&rng) : sct_rng_below(&rng, 5);
    for (size_t i = 0; i < n; ++i) vin[i] = sct_rng_u32(&rng);
    for (size_t i = 0; i < n * record_bytes; ++i) rin[i] = (unsigned char)sct_rng_u32(&rng);
    split_sort_desc d = {key_bits, used, n, keys, keys_out, values ? vin : NULL, values ? vout : NULL,
                         record_bytes ? rin : NULL, record_bytes ? rout : NULL, record_bytes};
    SCT_CHECK_OK(split_sort_ref(&d));
    uint32_t u = used ? used : key_bits;
    for (size_t i = 0; i < n; ++i) {
        memset(ref[i].w, 0, sizeof ref[i].w);
        for (uint32_t w = 0; w < key_bits / 32; ++w) {
            uint32_t v = keys[i * (key_bits / 32) + w];
            if (u <= 32 * w) v = 0;
            else if (u < 32 * w + 32) v &= (1u << (u - 32 * w)) - 1;
            ref[i].w[w] = v;
        }
        ref[i].index = (uint32_t)i;
    }
    qsort(ref, n, sizeof *ref, skey_cmp);
    size_t bad = 0;
    for (size_t j = 0; j < n; ++j) {
        size_t i = ref[j].index;
        bad += memcmp((char *)keys_out + j * kb, (char *)keys + i * kb, kb) != 0;
        if (values) bad += vout[j] != vin[i];
        if (record_bytes) bad += memcmp(rout + j * record_bytes, rin + i * record_bytes, record_bytes) != 0;
    }
    SCT_CHECK_MSG(bad == 0, "sort bits=%u used=%u n=%u rec=%zu values=%d: %zu mismatches", key_bits, used, n,
                  record_bytes, values, bad);
    free(keys);
    free(keys_out);
    free(vin);
    free(vout);
    free(rin);
    free(rout);
    free(ref);
}

static void test_sort_ref_matches_qsort(void)
{
    static const uint32_t sizes[] = {0, 1, 2, 31, 33, 1000, 4099};
    static const uint32_t bits[][2] = {{32, 0}, {32, 12}, {32, 8}, {64, 0}, {64, 40}, {96, 0}, {96, 33}, {96, 70}, {0, 0}};
    uint64_t seed = sct_base_seed() * 13;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (size_t k = 0; k < sizeof bits / sizeof bits[0]; ++k) {
            uint32_t kb = bits[k][0] ? bits[k][0] : 32;
            check_sort_case(kb, bits[k][1], sizes[s], (s + k) % 3 == 0 ? 12 : ((s + k) % 3 == 1 ? 4 : 0), (int)(k & 1),
                            ++seed);
        }
}

/* ---- arguments ---- */
static void test_ref_rejects_bad_arguments(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    uint32_t keys[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8], ids[8] = {0, 1, 2, 3, 0, 1, 2, 9};
    uint32_t poison[8];
    memset(poison, 0xAB, sizeof poison);
    const split_desc d = eight_keys_two_bits(keys, out);
    memcpy(out, poison, sizeof out);
    SCT_CHECK(split_multisplit_ref(NULL) == SC_ERROR_INVALID_ARGUMENT);
    split_desc e = d;
    e.buckets.bit_count = 12;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.buckets.start_bit = 31;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.keys_in = NULL;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.buckets.rule = SPLIT_BUCKETS_RANGE;
    e.buckets.num_buckets = 4;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT); /* delta 0 */
    e = d;
    e.buckets.rule = SPLIT_BUCKETS_IDS;
    e.buckets.num_buckets = 4;
    e.buckets.bucket_ids = ids; /* ids[7] = 9 >= 4 */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "bucket_ids[7]") != NULL);
    e = d;
    e.buckets.num_buckets = 4097;
    e.buckets.bit_count = 0;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.keys_out = NULL;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT); /* no output */
    e = d;
    e.keys_out = keys;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT); /* in place */
    e = d;
    SCT_CHECK(split_index_ref(&e) == SC_ERROR_INVALID_ARGUMENT);      /* keys_out with split_index */
    e = d;
    e.values_in = ids;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT); /* values_out missing */
    SCT_CHECK(memcmp(out, poison, sizeof out) == 0);
    split_sort_desc s = {32, 0, 8, keys, out, NULL, NULL, NULL, NULL, 0};
    split_sort_desc t = s;
    t.key_bits = 48;
    SCT_CHECK(split_sort_ref(&t) == SC_ERROR_INVALID_ARGUMENT);
    t = s;
    t.key_bits_used = 33;
    SCT_CHECK(split_sort_ref(&t) == SC_ERROR_INVALID_ARGUMENT);
    t = s;
    t.records_in = keys;
    t.records_out = poison;
    t.record_bytes = 6;
    SCT_CHECK(split_sort_ref(&t) == SC_ERROR_INVALID_ARGUMENT);
    t = s;
    t.keys_out = keys;
    SCT_CHECK(split_sort_ref(&t) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(memcmp(out, poison, sizeof out) == 0);
    /* n = 0: offsets are B + 1 zeros. */
    uint32_t offs[5] = {9, 9, 9, 9, 9};
    e = d;
    e.n = 0;
    e.keys_in = NULL;
    e.keys_out = NULL;
    e.bucket_offsets = offs;
    SCT_CHECK_OK(split_multisplit_ref(&e));
    SCT_CHECK(offs[0] == 0 && offs[1] == 0 && offs[2] == 0 && offs[3] == 0 && offs[4] == 0);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

/* Fields validation must reject before anything is written: misaligned keys, values, boundaries and
 * records (4-byte arrays, 8-byte keys), a BITS field past the key's width and a BOUNDARIES table out
 * of order; the message names the field. Equal boundaries, a field ending at the key's top bit and an
 * empty field at the key's width (no shift by the width: split_field_start) are valid. */
static void test_ref_rejects_misaligned_and_edge_fields(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    uint64_t store[10], out64[9];
    uint32_t out[9], vals[9], poison[9];
    memset(poison, 0xAB, sizeof poison);
    for (int i = 0; i < 10; ++i) store[i] = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    const unsigned char *bytes = (const unsigned char *)store;
    const split_desc d = eight_keys_two_bits(store, out);
    memcpy(out, poison, sizeof out);
    split_desc e = d;
    e.keys_in = bytes + 2; /* u32 keys at a 2-byte offset */
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "keys_in") != NULL);
    e = d;
    e.keys_out = (unsigned char *)out + 1;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e = d;
    e.values_in = (const uint32_t *)(bytes + 2);
    e.values_out = vals;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "values_in") != NULL);
    e = d;
    e.key_type = SPLIT_KEY_U64;
    e.keys_in = bytes + 4; /* u64 keys at a 4-byte offset */
    e.keys_out = out64;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "keys_in") != NULL && strstr(sc_last_error(), "8 bytes") != NULL);
    e = d;
    e.buckets.start_bit = 33; /* an empty field past the key's width */
    e.buckets.bit_count = 0;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "bit field") != NULL);
    e.key_type = SPLIT_KEY_U64;
    e.keys_out = out64;
    e.buckets.start_bit = 65;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(memcmp(out, poison, sizeof out) == 0);
    /* Valid edges: an empty field at the key's width (u64: 64, one bucket, input order kept), the
     * field [30, 32) of u32 keys, [63, 64) of u64 keys. */
    e.buckets.start_bit = 64;
    SCT_CHECK_OK(split_multisplit_ref(&e));
    SCT_CHECK(memcmp(out64, store, 8 * sizeof(uint64_t)) == 0);
    e = d;
    e.buckets.start_bit = 30;
    SCT_CHECK_OK(split_multisplit_ref(&e));
    memset(out64, 0, sizeof out64);
    e.key_type = SPLIT_KEY_U64;
    e.keys_out = out64;
    e.buckets.start_bit = 63;
    e.buckets.bit_count = 1;
    SCT_CHECK_OK(split_multisplit_ref(&e));
    for (int i = 1; i < 8; ++i) SCT_CHECK((out64[i - 1] >> 63) <= (out64[i] >> 63));
    /* BOUNDARIES: out of order rejected (naming the entry), repeated values valid. */
    uint32_t unsorted[3] = {5, 9, 7}, repeated[3] = {5, 5, 9};
    memcpy(out, poison, sizeof out);
    e = d;
    e.buckets.rule = SPLIT_BUCKETS_BOUNDARIES;
    e.buckets.bit_count = 0;
    e.buckets.num_buckets = 4;
    e.buckets.boundaries = unsorted;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "boundaries[2]") != NULL);
    SCT_CHECK(memcmp(out, poison, sizeof out) == 0);
    e.buckets.boundaries = bytes + 2;
    SCT_CHECK(split_multisplit_ref(&e) == SC_ERROR_INVALID_ARGUMENT);
    e.buckets.boundaries = repeated;
    SCT_CHECK_OK(split_multisplit_ref(&e));
    /* SplitSort: misaligned keys (8-byte keys at 4), records, values; nothing written. */
    memcpy(out, poison, sizeof out);
    uint32_t recs_out[9];
    memcpy(recs_out, poison, sizeof recs_out);
    split_sort_desc s = {32, 0, 8, store, out, NULL, NULL, NULL, NULL, 0};
    split_sort_desc t = s;
    t.key_bits = 64;
    t.keys_in = bytes + 4;
    t.keys_out = out64;
    SCT_CHECK(split_sort_ref(&t) == SC_ERROR_INVALID_ARGUMENT);
    t = s;
    t.records_in = bytes + 2;
    t.records_out = recs_out;
    t.record_bytes = 4;
    SCT_CHECK(split_sort_ref(&t) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "records_in") != NULL);
    t = s;
    t.values_in = (const uint32_t *)(bytes + 2);
    t.values_out = vals;
    SCT_CHECK(split_sort_ref(&t) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(memcmp(out, poison, sizeof out) == 0 && memcmp(recs_out, poison, sizeof recs_out) == 0);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "multisplit_ref");
    SCT_RUN(test_multisplit_ref_matches_brute_force);
    SCT_RUN(test_multisplit_ref_distributions);
    SCT_RUN(test_multisplit_ref_wide_buckets);
    SCT_RUN(test_multisplit_ref_record_count_and_bucket_counts);
    SCT_RUN(test_ref_wide_argument_rules);
    SCT_RUN(test_sort_ref_matches_qsort);
    SCT_RUN(test_ref_rejects_bad_arguments);
    SCT_RUN(test_ref_rejects_misaligned_and_edge_fields);
    return sct_end();
}
