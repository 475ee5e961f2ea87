/* test_multisplit_wide.cu - the wide unstable multisplit (B up to 2^24, caller's bucket_counts, a
 * device record count) on the GPU against split_multisplit_ref (gpu).
 * Every case: bucket offsets equal the reference's exactly; inside each bucket the multiset of
 * (key, value, source index) equals the reference's; gather and scatter agree with the moved records
 * (keys_in[gather[j]] == keys_out[j], scatter is gather's inverse, a permutation); outputs past the
 * record count c and the guard words after every output stay poisoned. Each case runs directly on a
 * non-default stream and again replayed from a CUDA graph captured on it.
 * Grid: n in {0, 1, 31, 32, 33, 1023, 1025} on B in {1, 2, 2049, 16384, 32400 (IDS), 2^15 and 2^23 BITS
 * whose top ids are unused, 2^19 BITS} x every rule where it applies; 10^6+7 on B up to 2^24; 2^24 on a
 * subset; distributions uniform, one bucket, hockey-stick 75%, ascending; with and without
 * bucket_counts; with a device record count below and above n; u32 and u64 keys; BITS calls that move
 * keys with and without split_desc.clustered (the one-pass placement or the stable LSD passes: two up to
 * 17 bits, three or four above from 2^22 records on, with cases on both sides of that threshold). Wrong
 * bucket_counts write nothing outside the outputs; bad arguments return SC_ERROR_INVALID_ARGUMENT and
 * write nothing.
 * "sanitize_mid" is a mid-size case set for compute-sanitizer. */
#include <stdlib.h>
#include <string.h>

#include "multisplit_testdev.h"
#include "multisplit_testgen.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "split.h"

static cudaStream_t g_stream;

/* Device record count of a case. */
enum { COUNT_NONE = 0, COUNT_BELOW, COUNT_ABOVE, COUNT_ZERO };
static const char *const k_count_name[] = {"none", "c<n", "c>n", "c=0"};

/* One wide case: the generated data (mst_case) plus how the call is made. */
typedef struct wide_case {
    mst_case base;
    int outs;
    int with_counts;  /* bucket_counts given */
    int counted;      /* COUNT_* */
    int top_unused;   /* BITS: bucket ids >= 32400 never occur (2^15-bucket field) */
    int use_index;    /* split_index (index outputs only) */
    int clustered;    /* split_desc.clustered: BITS calls with keys moved take the one-pass placement */
} wide_case;

/* Words of a downloaded output from word `from` to its end (guards included) that are not POISON. */
static size_t poison_lost(const uint32_t *h, size_t from, size_t words)
{
    size_t bad = 0;
    for (size_t w = from; w < words; ++w) bad += h[w] != POISON;
    return bad;
}

/* Downloads an output with its guard words (words = bytes / 4 + GUARD). */
static uint32_t *download(const void *dev, size_t bytes)
{
    uint32_t *h = (uint32_t *)malloc(bytes + GUARD * 4);
    if (h) cudaMemcpy(h, dev, bytes + GUARD * 4, cudaMemcpyDeviceToHost);
    return h;
}

static void describe(const wide_case *w, char *buf, size_t size)
{
    const mst_case *c = &w->base;
    snprintf(buf, size, "%s n=%u B=%u %s%s %s values=%d outs=%d counts=%d count=%s%s", c->key_type ? "u64" : "u32",
             c->n, c->num_buckets, mst_rule_name[c->rule], w->top_unused ? "(top unused)" : "", mst_dist_name[c->dist],
             c->with_values, w->outs, w->with_counts, k_count_name[w->counted], w->use_index ? " index" : "");
}

/* Compares one GPU result with the reference (used = records split); mismatches. */
static size_t compare(const wide_case *w, const mst_data *d, const split_desc *ref, const split_desc *dd, size_t used,
                      const char *how)
{
    const mst_case *c = &w->base;
    const size_t n = c->n, kb = d->key_bytes, nb = c->num_buckets;
    const int outs = w->outs;
    size_t bad = 0;
    uint32_t *keys = (outs & OUT_KEYS) ? download(dd->keys_out, n * kb) : NULL;
    uint32_t *vals = (outs & OUT_VALUES) ? download(dd->values_out, n * 4) : NULL;
    uint32_t *gat = (outs & OUT_GATHER) ? download(dd->gather_index, n * 4) : NULL;
    uint32_t *sca = (outs & OUT_SCATTER) ? download(dd->scatter_index, n * 4) : NULL;
    uint32_t *off = (outs & OUT_OFFSETS) ? download(dd->bucket_offsets, (nb + 1) * 4) : NULL;
    if (((outs & OUT_KEYS) && !keys) || ((outs & OUT_VALUES) && !vals) || ((outs & OUT_GATHER) && !gat) ||
        ((outs & OUT_SCATTER) && !sca) || ((outs & OUT_OFFSETS) && !off)) {
        sct_fail(__FILE__, __LINE__, "host allocation failed");
        return 1;
    }
    /* Past the record count and the guards: untouched. */
    if (keys) bad += poison_lost(keys, used * kb / 4, n * kb / 4 + GUARD);
    if (vals) bad += poison_lost(vals, used, n + GUARD);
    if (gat) bad += poison_lost(gat, used, n + GUARD);
    if (sca) bad += poison_lost(sca, used, n + GUARD);
    if (off) bad += poison_lost(off, nb + 1, nb + 1 + GUARD);
    if (off)
        for (size_t b = 0; b <= nb; ++b) bad += off[b] != ref->bucket_offsets[b];
    /* Per bucket (reference offsets): the same multiset of (key, value, source index). */
    key_tuple *g = (key_tuple *)malloc((used + 1) * sizeof *g), *r = (key_tuple *)malloc((used + 1) * sizeof *r);
    char *seen = (char *)calloc(used + 1, 1);
    if (!g || !r || !seen) {
        sct_fail(__FILE__, __LINE__, "host allocation failed");
        free(g); free(r); free(seen);
        return 1;
    }
    for (size_t j = 0; j < used; ++j) {
        g[j].key = keys ? key_of(keys, kb, j) : 0;
        g[j].value = vals ? vals[j] : 0;
        g[j].index = gat ? gat[j] : 0;
        r[j].key = keys ? key_of(ref->keys_out, kb, j) : 0;
        r[j].value = vals ? ref->values_out[j] : 0;
        r[j].index = gat ? ref->gather_index[j] : 0;
        if (gat) { /* the moved records agree with the gather index; scatter is its inverse */
            const uint32_t i = gat[j];
            if (i >= used) { ++bad; continue; }
            if (keys) bad += key_of(keys, kb, j) != key_of(d->keys, kb, i);
            if (vals) bad += vals[j] != d->values[i];
            if (sca) bad += sca[i] != j;
        }
    }
    for (size_t b = 0; b < nb; ++b) {
        const size_t lo = ref->bucket_offsets[b], hi = ref->bucket_offsets[b + 1];
        if (hi - lo > 1) {
            qsort(g + lo, hi - lo, sizeof *g, tuple_cmp);
            qsort(r + lo, hi - lo, sizeof *r, tuple_cmp);
        }
    }
    bad += used && memcmp(g, r, used * sizeof *g) != 0;
    if (sca) { /* scatter index: a permutation of [0, used) into each record's bucket */
        for (size_t i = 0; i < used; ++i) {
            const uint32_t j = sca[i];
            if (j >= used || seen[j]) { ++bad; continue; }
            seen[j] = 1;
            const uint32_t b = split_bucket_of_ref(ref, i);
            bad += j < ref->bucket_offsets[b] || j >= ref->bucket_offsets[b + 1];
        }
    }
    if (bad) {
        char desc[256];
        describe(w, desc, sizeof desc);
        sct_fail(__FILE__, __LINE__, "%s: %s (c = %zu): %zu mismatches", how, desc, used, bad);
    }
    free(g); free(r); free(seen);
    free(keys); free(vals); free(gat); free(sca); free(off);
    return bad;
}

/* BITS with top_unused: bucket fields >= 32400 folded below it (a 2^15 field, top ids unused). */
static void fold_top_ids(const wide_case *w, mst_data *d)
{
    const split_buckets *b = &d->desc.buckets;
    const uint64_t mask = ((uint64_t)1 << b->bit_count) - 1;
    for (size_t i = 0; i < w->base.n; ++i) {
        uint64_t key = key_of(d->keys, d->key_bytes, i);
        uint64_t f = (key >> b->start_bit) & mask;
        if (f < 32400) continue;
        key = (key & ~(mask << b->start_bit)) | ((f % 32400) << b->start_bit);
        if (d->key_bytes == 8) ((uint64_t *)d->keys)[i] = key;
        else ((uint32_t *)d->keys)[i] = (uint32_t)key;
    }
}

/* Runs one case (direct and graph-captured) and compares it with the reference. */
static void run_case(const wide_case *w, uint64_t seed)
{
    const mst_case *c = &w->base;
    mst_data d;
    SCT_REQUIRE(mst_generate(c, seed, &d));
    if (w->top_unused) fold_top_ids(w, &d);
    const size_t n = c->n, kb = d.key_bytes, nb = c->num_buckets;
    int outs = w->outs;
    if (!d.values) outs &= ~OUT_VALUES;
    wide_case wc = *w;
    wc.outs = outs;
    /* The record count: c < n, c > n (clamped to n), 0 or none. */
    uint32_t count = (uint32_t)n;
    if (w->counted == COUNT_BELOW) count = (uint32_t)(n * 5 / 7);
    else if (w->counted == COUNT_ABOVE) count = (uint32_t)n + 100;
    else if (w->counted == COUNT_ZERO) count = 0;
    const size_t used = count < n ? count : n;

    /* Reference with every output (unstable, host record count). */
    split_desc ref = d.desc;
    ref.unstable = 1;
    ref.num_records_device = w->counted ? &count : NULL;
    ref.keys_out = malloc(n * kb + 8);
    ref.values_out = d.values ? (uint32_t *)malloc(n * 4 + 4) : NULL;
    ref.gather_index = (uint32_t *)malloc(n * 4 + 4);
    ref.scatter_index = (uint32_t *)malloc(n * 4 + 4);
    ref.bucket_offsets = (uint32_t *)malloc((nb + 1) * 4);
    uint32_t *counts = (uint32_t *)malloc(nb * 4 + 4);
    SCT_REQUIRE(ref.keys_out && ref.gather_index && ref.scatter_index && ref.bucket_offsets && counts);
    SCT_REQUIRE_OK(split_multisplit_ref(&ref));
    for (size_t b = 0; b < nb; ++b) counts[b] = ref.bucket_offsets[b + 1] - ref.bucket_offsets[b];

    split_desc dd = d.desc;
    const int ids_only = c->rule == SPLIT_BUCKETS_IDS && !(outs & OUT_KEYS);
    void *keys_in = ids_only && (seed & 1) ? NULL : dev_copy(d.keys, n * kb);
    uint32_t *values_in = d.values ? (uint32_t *)dev_copy(d.values, n * 4) : NULL;
    uint32_t *ids = d.ids ? (uint32_t *)dev_copy(d.ids, n * 4) : NULL;
    void *bounds = dev_copy(d.bounds, nb * kb);
    uint32_t *dcounts = w->with_counts ? (uint32_t *)dev_copy(counts, nb * 4) : NULL;
    uint32_t *dcount = w->counted ? (uint32_t *)dev_copy(&count, 4) : NULL;
    dd.keys_in = keys_in;
    dd.values_in = (outs & OUT_VALUES) ? values_in : NULL;
    dd.buckets.bucket_ids = ids;
    dd.buckets.boundaries = c->rule == SPLIT_BUCKETS_BOUNDARIES ? bounds : NULL;
    dd.keys_out = (outs & OUT_KEYS) ? dev_out(n * kb) : NULL;
    dd.values_out = (outs & OUT_VALUES) ? (uint32_t *)dev_out(n * 4) : NULL;
    dd.gather_index = (outs & OUT_GATHER) ? (uint32_t *)dev_out(n * 4) : NULL;
    dd.scatter_index = (outs & OUT_SCATTER) ? (uint32_t *)dev_out(n * 4) : NULL;
    dd.bucket_offsets = (outs & OUT_OFFSETS) ? (uint32_t *)dev_out((nb + 1) * 4) : NULL;
    dd.unstable = 1;
    dd.bucket_counts = dcounts;
    dd.num_records_device = dcount;
    dd.clustered = w->clustered;
    sc_status (*fn)(void *, size_t *, const split_desc *, cudaStream_t) = w->use_index ? split_index : split_multisplit;
    size_t temp_bytes = 0;
    void *temp = NULL;
    SCT_CHECK_OK(fn(NULL, &temp_bytes, &dd, g_stream));
    SCT_CUDA(cudaMalloc(&temp, temp_bytes ? temp_bytes : 4));
    /* Direct. */
    poison_outputs(&dd, n, kb, nb, g_stream);
    SCT_CHECK_OK(fn(temp, &temp_bytes, &dd, g_stream));
    SCT_CUDA(cudaStreamSynchronize(g_stream));
    compare(&wc, &d, &ref, &dd, used, "direct");
    /* Graph capture. */
    poison_outputs(&dd, n, kb, nb, g_stream);
    SCT_CUDA(cudaStreamSynchronize(g_stream));
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    SCT_CUDA(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    sc_status st = fn(temp, &temp_bytes, &dd, g_stream);
    SCT_CUDA(cudaStreamEndCapture(g_stream, &graph));
    SCT_CHECK_MSG(st == SC_OK, "captured call failed: %s", sc_last_error());
    if (graph) {
        SCT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
        SCT_CUDA(cudaGraphLaunch(exec, g_stream));
        SCT_CUDA(cudaStreamSynchronize(g_stream));
        compare(&wc, &d, &ref, &dd, used, "graph");
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
    }
    SCT_CUDA(cudaGetLastError());
    void *dev[] = {keys_in, values_in, ids, bounds, dcounts, dcount, temp, dd.keys_out, dd.values_out,
                   dd.gather_index, dd.scatter_index, dd.bucket_offsets};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; ++k) cudaFree(dev[k]);
    free(ref.keys_out);
    free(ref.values_out);
    free(ref.gather_index);
    free(ref.scatter_index);
    free(ref.bucket_offsets);
    free(counts);
    mst_free(&d);
}

static const int k_outs[] = {OUT_ALL, OUT_KEYS | OUT_VALUES | OUT_OFFSETS, OUT_GATHER | OUT_SCATTER, OUT_OFFSETS,
                             OUT_KEYS | OUT_SCATTER, OUT_KEYS | OUT_VALUES};
enum { NUM_OUTS = sizeof k_outs / sizeof k_outs[0] };
static const mst_dist k_dists[] = {MST_UNIFORM, MST_ONE_BUCKET, MST_HOCKEY, MST_ASCENDING};
enum { NUM_DISTS = sizeof k_dists / sizeof k_dists[0] };

/* B of the grid with the rule it takes (-1: every rule in turn; top: BITS with top ids unused). */
typedef struct bucket_spec { uint32_t b; int rule; int top; } bucket_spec;
static const bucket_spec k_specs[] = {{1, -1, 0},     {2, -1, 0},
                                      {2049, -1, 0},  {16384, -1, 0},
                                      {32400, SPLIT_BUCKETS_IDS, 0}, {1u << 15, SPLIT_BUCKETS_BITS, 1},
                                      {1u << 19, SPLIT_BUCKETS_BITS, 0}, {1u << 23, SPLIT_BUCKETS_BITS, 1}};
enum { NUM_SPECS = sizeof k_specs / sizeof k_specs[0] };

static wide_case make_case(int kt, uint32_t n, const bucket_spec *s, int rule, unsigned k)
{
    wide_case w;
    memset(&w, 0, sizeof w);
    w.base.key_type = (split_key_type)kt;
    w.base.n = n;
    w.base.num_buckets = s->b;
    w.base.rule = (split_bucket_rule)(s->rule >= 0 ? s->rule : rule);
    w.base.dist = k_dists[k % NUM_DISTS];
    w.base.with_values = (int)(k % 3 != 2);
    w.outs = k_outs[(k / 2) % NUM_OUTS];
    w.with_counts = (int)(k & 1);
    w.counted = (int)((k / 3) % 4);
    w.top_unused = s->top;
    w.use_index = (w.outs & (OUT_KEYS | OUT_VALUES)) == 0 && w.outs != OUT_OFFSETS && (k % 5 == 0);
    w.clustered = (int)((k >> 1) & 1); /* BITS with keys moved: the two passes or the one-pass placement */
    return w;
}

static void test_small_sizes_every_bucket_count_and_rule(void)
{
    static const uint32_t sizes[] = {0, 1, 31, 32, 33, 1023, 1025};
    uint64_t seed = sct_base_seed();
    unsigned k = 0;
    for (int rule = 0; rule < 4; ++rule)
        for (int si = 0; si < NUM_SPECS; ++si) {
            if (k_specs[si].rule >= 0 && rule > 0) continue; /* fixed-rule B: once */
            for (size_t ni = 0; ni < sizeof sizes / sizeof sizes[0]; ++ni, ++k) {
                wide_case w = make_case((int)((k / 7) & 1), sizes[ni], &k_specs[si], rule, k);
                run_case(&w, ++seed);
                if (sct_current_failed() > 4) return;
            }
        }
}

/* Every B up to 2^24 at 10^6 + 7 records, every distribution, counts / record count cycling. */
static void test_million_every_bucket_count(void)
{
    static const bucket_spec specs[] = {{1, SPLIT_BUCKETS_BITS, 0},        {2, SPLIT_BUCKETS_RANGE, 0},
                                        {2049, SPLIT_BUCKETS_BOUNDARIES, 0}, {16384, SPLIT_BUCKETS_BITS, 0},
                                        {32400, SPLIT_BUCKETS_IDS, 0},      {1u << 15, SPLIT_BUCKETS_BITS, 1},
                                        {1u << 20, SPLIT_BUCKETS_BITS, 0},  {1u << 20, SPLIT_BUCKETS_RANGE, 0},
                                        {1u << 24, SPLIT_BUCKETS_BITS, 0},  {1u << 24, SPLIT_BUCKETS_IDS, 0}};
    uint64_t seed = sct_base_seed() * 3;
    unsigned k = 0;
    for (size_t si = 0; si < sizeof specs / sizeof specs[0]; ++si)
        for (int dist = 0; dist < NUM_DISTS; ++dist, ++k) {
            wide_case w = make_case((int)(k & 1), 1000007, &specs[si], 0, k);
            w.base.dist = k_dists[dist];
            if (dist == 0) { /* every B once with every output, counts given and no record count */
                w.outs = OUT_ALL;
                w.with_counts = 1;
                w.counted = COUNT_NONE;
                w.use_index = 0;
            }
            run_case(&w, ++seed);
            if (sct_current_failed() > 4) return;
        }
}

static void test_2p24_subset(void)
{
    static const struct { uint32_t b; int rule, kt, dist, counts, counted; } cs[] = {
        {16384, SPLIT_BUCKETS_BITS, 0, MST_UNIFORM, 1, COUNT_NONE},
        {16384, SPLIT_BUCKETS_BITS, 0, MST_UNIFORM, 0, COUNT_NONE},
        {32400, SPLIT_BUCKETS_IDS, 0, MST_HOCKEY, 1, COUNT_BELOW},
        {1u << 20, SPLIT_BUCKETS_BITS, 1, MST_ASCENDING, 0, COUNT_ABOVE},
        {1u << 24, SPLIT_BUCKETS_BITS, 0, MST_UNIFORM, 0, COUNT_NONE},
        {1u << 24, SPLIT_BUCKETS_BOUNDARIES, 0, MST_ONE_BUCKET, 1, COUNT_NONE}};
    uint64_t seed = sct_base_seed() * 11;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; ++k) {
        wide_case w;
        memset(&w, 0, sizeof w);
        w.base.key_type = (split_key_type)cs[k].kt;
        w.base.n = 1u << 24;
        w.base.num_buckets = cs[k].b;
        w.base.rule = (split_bucket_rule)cs[k].rule;
        w.base.dist = (mst_dist)cs[k].dist;
        w.base.with_values = 1;
        w.outs = OUT_ALL;
        w.with_counts = cs[k].counts;
        w.counted = cs[k].counted;
        run_case(&w, ++seed);
    }
    /* 2^24 pairs x 16384 and 2^20 BITS buckets, counts given, keys and values moved (split_bench's wide
     * rows): the stable LSD passes (two, then three), and the one-pass placement when the caller says
     * the keys are clustered. */
    for (int c = 0; c < 4; ++c) {
        const int clustered = c & 1;
        wide_case w;
        memset(&w, 0, sizeof w);
        w.base.n = 1u << 24;
        w.base.num_buckets = c < 2 ? 16384u : 1u << 20;
        w.base.rule = SPLIT_BUCKETS_BITS;
        w.base.dist = MST_UNIFORM;
        w.base.with_values = 1;
        w.outs = OUT_KEYS | OUT_VALUES | OUT_OFFSETS;
        w.with_counts = 1;
        w.counted = COUNT_NONE;
        w.clustered = clustered;
        run_case(&w, ++seed);
    }
}

/* The LSD passes above 17 bits from 2^22 records on (SPLIT_LSD_WIDE_MIN_RECORDS), unclustered BITS
 * calls that move keys and values: 2^22 records on 23 bits (2^23 buckets, top ids unused) and on 24
 * bits (u64 keys), four passes each; 2^22 - 1 records on 20 bits, the one-pass placement. */
static void test_lsd_pass_threshold(void)
{
    static const struct { uint32_t n, b; int kt, top, counts; } cs[] = {{1u << 22, 1u << 23, 0, 1, 1},
                                                                      {1u << 22, 1u << 24, 1, 0, 0},
                                                                      {(1u << 22) - 1, 1u << 20, 0, 0, 1}};
    uint64_t seed = sct_base_seed() * 19;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; ++k) {
        wide_case w;
        memset(&w, 0, sizeof w);
        w.base.key_type = (split_key_type)cs[k].kt;
        w.base.n = cs[k].n;
        w.base.num_buckets = cs[k].b;
        w.base.rule = SPLIT_BUCKETS_BITS;
        w.base.dist = MST_UNIFORM;
        w.base.with_values = 1;
        w.outs = OUT_KEYS | OUT_VALUES | OUT_OFFSETS;
        w.with_counts = cs[k].counts;
        w.counted = COUNT_NONE;
        w.top_unused = cs[k].top;
        run_case(&w, ++seed);
    }
}

/* u64 keys on every rule with the wide B, counts and record counts. */
static void test_u64_keys(void)
{
    static const uint32_t bs[] = {2049, 16384, 1u << 20};
    uint64_t seed = sct_base_seed() * 13;
    unsigned k = 0;
    for (int rule = 0; rule < 4; ++rule)
        for (int bi = 0; bi < 3; ++bi, ++k) {
            bucket_spec s = {bs[bi], rule, 0};
            wide_case w = make_case(1, bi == 2 ? 200003 : 20011, &s, rule, k);
            w.outs = OUT_ALL;
            w.use_index = 0;
            run_case(&w, ++seed);
        }
}

/* Small B on the wide path (taken for bucket_counts or a record count at any B). */
static void test_small_b_with_counts_or_record_count(void)
{
    static const uint32_t bs[] = {1, 2, 3, 32, 33, 256, 2048};
    uint64_t seed = sct_base_seed() * 17;
    unsigned k = 0;
    for (int bi = 0; bi < 7; ++bi)
        for (int mode = 0; mode < 3; ++mode, ++k) {
            bucket_spec s = {bs[bi], (int)(k % 4), 0};
            wide_case w = make_case((int)(k & 1), 100003, &s, 0, k);
            w.outs = OUT_ALL;
            w.use_index = 0;
            w.with_counts = mode != 1;
            w.counted = mode == 0 ? COUNT_NONE : mode == 1 ? COUNT_BELOW : COUNT_ZERO;
            run_case(&w, ++seed);
        }
}

static void test_sanitize_mid(void)
{
    static const bucket_spec specs[] = {{2049, SPLIT_BUCKETS_BITS, 0}, {32400, SPLIT_BUCKETS_IDS, 0},
                                        {16384, SPLIT_BUCKETS_BOUNDARIES, 0}, {1u << 20, SPLIT_BUCKETS_RANGE, 0}};
    uint64_t seed = sct_base_seed() * 23;
    for (int k = 0; k < 4; ++k) {
        wide_case w = make_case(k & 1, 20011, &specs[k], 0, (unsigned)k);
        w.outs = OUT_ALL;
        w.use_index = 0;
        w.counted = k & 1 ? COUNT_BELOW : COUNT_NONE;
        run_case(&w, ++seed);
    }
}

/* Wrong caller counts: the call succeeds, nothing outside the outputs is written (guards). */
static void test_wrong_counts_stay_inside(void)
{
    static const uint32_t n = 100003, nb = 16384;
    uint32_t *hk = (uint32_t *)malloc(n * 4), *hc = (uint32_t *)malloc(nb * 4);
    SCT_REQUIRE(hk && hc);
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() * 29);
    for (uint32_t i = 0; i < n; ++i) hk[i] = sct_rng_u32(&rng);
    for (int variant = 0; variant < 3; ++variant) {
        /* 0: every count 0; 1: all records claimed by bucket 0 and bucket 1 too (sum 2n);
         * 2: huge counts (the scan wraps). */
        for (uint32_t b = 0; b < nb; ++b) hc[b] = variant == 0 ? 0 : variant == 1 ? (b < 2 ? n : 0) : 0x7FFFFFFFu;
        uint32_t *keys = (uint32_t *)dev_copy(hk, n * 4), *counts = (uint32_t *)dev_copy(hc, nb * 4);
        uint32_t *vals = (uint32_t *)dev_copy(hk, n * 4);
        split_desc d;
        memset(&d, 0, sizeof d);
        d.n = n;
        d.keys_in = keys;
        d.values_in = vals;
        d.keys_out = dev_out(n * 4);
        d.values_out = (uint32_t *)dev_out(n * 4);
        d.gather_index = (uint32_t *)dev_out(n * 4);
        d.scatter_index = (uint32_t *)dev_out(n * 4);
        d.bucket_offsets = (uint32_t *)dev_out((nb + 1) * 4);
        d.buckets.bit_count = 14;
        d.unstable = 1;
        d.bucket_counts = counts;
        size_t bytes = 0;
        void *temp = NULL;
        SCT_CHECK_OK(split_multisplit(NULL, &bytes, &d, g_stream));
        SCT_CUDA(cudaMalloc(&temp, bytes));
        poison_outputs(&d, n, 4, nb, g_stream);
        SCT_CHECK_OK(split_multisplit(temp, &bytes, &d, g_stream));
        SCT_CUDA(cudaStreamSynchronize(g_stream));
        SCT_CUDA(cudaGetLastError());
        const void *outs[] = {d.keys_out, d.values_out, d.gather_index, d.scatter_index};
        size_t bad = 0;
        for (int o = 0; o < 4; ++o) {
            uint32_t *h = download(outs[o], n * 4);
            SCT_REQUIRE(h);
            bad += poison_lost(h, n, n + GUARD);
            free(h);
        }
        uint32_t *h = download(d.bucket_offsets, (nb + 1) * 4);
        SCT_REQUIRE(h);
        bad += poison_lost(h, nb + 1, nb + 1 + GUARD);
        free(h);
        SCT_CHECK_MSG(bad == 0, "variant %d: %zu guard words written", variant, bad);
        void *dev[] = {keys, counts, vals, d.keys_out, d.values_out, d.gather_index, d.scatter_index,
                       d.bucket_offsets, temp};
        for (size_t k = 0; k < sizeof dev / sizeof dev[0]; ++k) cudaFree(dev[k]);
    }
    free(hk);
    free(hc);
}

/* Bad arguments: SC_ERROR_INVALID_ARGUMENT (or TEMP_STORAGE), and nothing written. */
static void test_bad_arguments_write_nothing(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    enum { N = 1000, NB = 4096 };
    uint32_t *keys = NULL, *out = NULL, *offs = NULL, *counts = NULL, *cnt = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc(&keys, N * 4));
    SCT_CUDA_REQUIRE(cudaMalloc(&out, N * 4));
    SCT_CUDA_REQUIRE(cudaMalloc(&offs, (NB + 1) * 4));
    SCT_CUDA_REQUIRE(cudaMalloc(&counts, NB * 4));
    SCT_CUDA_REQUIRE(cudaMalloc(&cnt, 4));
    SCT_CUDA(cudaMemset(keys, 0, N * 4));
    SCT_CUDA(cudaMemset(counts, 0, NB * 4));
    SCT_CUDA(cudaMemset(cnt, 0, 4));
    SCT_CUDA(cudaMemset(out, 0xAB, N * 4));
    SCT_CUDA(cudaMemset(offs, 0xAB, (NB + 1) * 4));
    split_desc d;
    memset(&d, 0, sizeof d);
    d.n = N;
    d.keys_in = keys;
    d.keys_out = out;
    d.bucket_offsets = offs;
    d.buckets.bit_count = 12;
    d.unstable = 1;
    size_t bytes = 0;
    SCT_REQUIRE_OK(split_multisplit(NULL, &bytes, &d, g_stream));
    void *temp = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc(&temp, bytes));
    split_desc e;
    e = d; e.unstable = 0; /* stable, 4096 buckets */
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "unstable") != NULL);
    e = d; e.unstable = 0; e.buckets.bit_count = 0; e.buckets.num_buckets = 2049;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "unstable") != NULL);
    e = d; e.unstable = 0; e.buckets.bit_count = 4; e.bucket_counts = counts;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.unstable = 0; e.buckets.bit_count = 4; e.num_records_device = cnt;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.bit_count = 25;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.bit_count = 0; e.buckets.num_buckets = SPLIT_MAX_WIDE_BUCKETS + 1u;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.start_bit = 24; /* [24, 36) outside a 32-bit key */
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.keys_in = NULL;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.rule = SPLIT_BUCKETS_IDS; e.buckets.num_buckets = NB; /* bucket_ids NULL */
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.rule = SPLIT_BUCKETS_BOUNDARIES; e.buckets.num_buckets = NB; /* boundaries NULL */
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.rule = SPLIT_BUCKETS_RANGE; e.buckets.num_buckets = NB; /* delta 0 */
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.keys_out = NULL; e.bucket_offsets = NULL; /* no output */
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.values_in = keys; /* values_out missing */
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.keys_out = keys; /* in place */
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_index(temp, &bytes, &d, g_stream) == SC_ERROR_INVALID_ARGUMENT); /* keys_out */
    e = d; e.buckets.bit_count = 4; e.num_segments = 1; e.segment_offsets = cnt; e.bucket_counts = counts;
    SCT_CHECK(split_segmented(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_multisplit(temp, NULL, &d, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    size_t small = bytes - 1;
    SCT_CHECK(split_multisplit(temp, &small, &d, g_stream) == SC_ERROR_TEMP_STORAGE);
    SCT_CUDA(cudaStreamSynchronize(g_stream));
    uint32_t *h = (uint32_t *)malloc((NB + 1) * 4);
    SCT_REQUIRE(h);
    cudaMemcpy(h, out, N * 4, cudaMemcpyDeviceToHost);
    size_t bad = poison_lost(h, 0, N);
    cudaMemcpy(h, offs, (NB + 1) * 4, cudaMemcpyDeviceToHost);
    bad += poison_lost(h, 0, NB + 1);
    SCT_CHECK_MSG(bad == 0, "%zu words written by failed calls", bad);
    /* The same descriptor is accepted and works (the checks above were for the arguments). */
    SCT_CHECK_OK(split_multisplit(temp, &bytes, &d, g_stream));
    SCT_CUDA(cudaStreamSynchronize(g_stream));
    cudaMemcpy(h, offs, (NB + 1) * 4, cudaMemcpyDeviceToHost);
    SCT_CHECK(h[0] == 0 && h[1] == N && h[NB] == N); /* every key 0: bucket 0 */
    free(h);
    void *dev[] = {keys, out, offs, counts, cnt, temp};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; ++k) cudaFree(dev[k]);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "multisplit_wide");
    sct_require_cuda();
    if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) sct_skip_all("no stream");
    SCT_RUN(test_bad_arguments_write_nothing);
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_wrong_counts_stay_inside);
    SCT_RUN(test_small_sizes_every_bucket_count_and_rule);
    SCT_RUN(test_small_b_with_counts_or_record_count);
    SCT_RUN(test_u64_keys);
    SCT_RUN(test_million_every_bucket_count);
    SCT_RUN(test_2p24_subset);
    SCT_RUN(test_lsd_pass_threshold);
    cudaStreamDestroy(g_stream);
    return sct_end();
}
