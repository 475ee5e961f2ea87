/* test_multisplit.cu - split_multisplit / split_index on the GPU against split_multisplit_ref (gpu).
 * Stable cases: the exact same permutation, keys, values, indices and offsets as the reference.
 * Unstable cases: the same offsets, the same records in every bucket (and each one belongs there),
 * and gather/scatter indices that agree with the moved records.
 * Every case runs twice: directly on a non-default stream and replayed from a CUDA graph captured
 * on it; outputs are poisoned before each run and guard words after each output must survive.
 * Size grid: the small sizes (0, 1, 31, 32, 33, 255..257, 2047..2049, 4097) on every B x rule x key
 * type, distribution, output set and values varying independently of the size (every size meets all
 * 36 distribution x output set pairs); tile order's tiles +-1 (4608, 6144, 9216) on B = 2, 32, 33, 64,
 * 256 x rule x key type; key-only splits over several tiles per block (B = 2 .. 64, and the two-pass
 * B = 1024, 2048); two-level tiles +-1 (4608, 6144), two tiles + 1, 2.1M and 6.5M on B = 257 .. 2048 x
 * rule; skewed BOUNDARIES tables (geometric, repeated, extremes, clusters) with keys on and next to
 * boundaries; 10^6+7 on every B x rule (both key types on every B, distributions rotating with B and
 * rule), every distribution at B = 32 / 256 / 2048; unstable splits with the BITS rule on every B and
 * size, the other rules rotating; split_index on the issue's ten B x rule x key type, sizes 0 .. 4609
 * and 10^6+7, gather / scatter / both, stable and unstable; 2^24 on a subset (B = 2, 32, 33, 256, 2048
 * with BITS / BOUNDARIES / IDS / RANGE, and a split_index at B = 257); 2^28 only when an argument
 * contains "large" (ctest label large). "sanitize_mid" is a mid-size case of multisplit, unstable
 * multisplit and split_index for compute-sanitizer. */
#include <stdlib.h>
#include <string.h>

#include "multisplit_testdev.h"
#include "multisplit_testgen.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "split.h"

static cudaStream_t g_stream;


typedef struct dev_case {
    void *keys_in, *keys_out;
    uint32_t *values_in, *values_out, *ids, *gather, *scatter, *offsets;
    void *bounds;
    void *temp;
    size_t temp_bytes;
} dev_case;

static int guard_ok(const void *dev, size_t bytes)
{
    uint32_t g[GUARD];
    cudaMemcpy(g, (const char *)dev + bytes, sizeof g, cudaMemcpyDeviceToHost);
    for (int k = 0; k < GUARD; ++k)
        if (g[k] != POISON) return 0;
    return 1;
}

/* Compares one GPU result with the reference; returns the number of mismatches. */
static size_t compare(const mst_case *c, const mst_data *d, const split_desc *ref, const split_desc *dd, int outs,
                      int unstable, const char *how)
{
    size_t n = c->n, kb = d->key_bytes, nb = c->num_buckets, bad = 0;
    void *keys = malloc(n * kb + 8);
    uint32_t *vals = (uint32_t *)malloc(n * 4 + 4), *gat = (uint32_t *)malloc(n * 4 + 4);
    uint32_t *sca = (uint32_t *)malloc(n * 4 + 4), *off = (uint32_t *)malloc((nb + 1) * 4);
    if (!keys || !vals || !gat || !sca || !off) {
        sct_fail(__FILE__, __LINE__, "host allocation failed");
        return 1;
    }
    if (outs & OUT_KEYS) cudaMemcpy(keys, dd->keys_out, n * kb, cudaMemcpyDeviceToHost);
    if (outs & OUT_VALUES) cudaMemcpy(vals, dd->values_out, n * 4, cudaMemcpyDeviceToHost);
    if (outs & OUT_GATHER) cudaMemcpy(gat, dd->gather_index, n * 4, cudaMemcpyDeviceToHost);
    if (outs & OUT_SCATTER) cudaMemcpy(sca, dd->scatter_index, n * 4, cudaMemcpyDeviceToHost);
    if (outs & OUT_OFFSETS) cudaMemcpy(off, dd->bucket_offsets, (nb + 1) * 4, cudaMemcpyDeviceToHost);
    if ((outs & OUT_KEYS) && !guard_ok(dd->keys_out, n * kb)) ++bad;
    if ((outs & OUT_VALUES) && !guard_ok(dd->values_out, n * 4)) ++bad;
    if ((outs & OUT_GATHER) && !guard_ok(dd->gather_index, n * 4)) ++bad;
    if ((outs & OUT_SCATTER) && !guard_ok(dd->scatter_index, n * 4)) ++bad;
    if ((outs & OUT_OFFSETS) && !guard_ok(dd->bucket_offsets, (nb + 1) * 4)) ++bad;
    if (outs & OUT_OFFSETS)
        for (size_t b = 0; b <= nb; ++b) bad += off[b] != ref->bucket_offsets[b];
    if (!unstable) {
        if (outs & OUT_KEYS) bad += n && memcmp(keys, ref->keys_out, n * kb) != 0;
        if (outs & OUT_VALUES) bad += n && memcmp(vals, ref->values_out, n * 4) != 0;
        if (outs & OUT_GATHER) bad += n && memcmp(gat, ref->gather_index, n * 4) != 0;
        if (outs & OUT_SCATTER) bad += n && memcmp(sca, ref->scatter_index, n * 4) != 0;
    } else {
        /* Per bucket (reference offsets): same multiset of (key, value, index) tuples. */
        key_tuple *g = (key_tuple *)malloc((n + 1) * sizeof *g), *r = (key_tuple *)malloc((n + 1) * sizeof *r);
        for (size_t j = 0; j < n; ++j) {
            g[j].key = (outs & OUT_KEYS) ? key_of(keys, kb, j) : 0;
            g[j].value = (outs & OUT_VALUES) ? vals[j] : 0;
            g[j].index = (outs & OUT_GATHER) ? gat[j] : 0;
            r[j].key = (outs & OUT_KEYS) ? key_of(ref->keys_out, kb, j) : 0;
            r[j].value = (outs & OUT_VALUES) ? ref->values_out[j] : 0;
            r[j].index = (outs & OUT_GATHER) ? ref->gather_index[j] : 0;
            if (outs & OUT_GATHER) { /* the records moved agree with the gather index */
                uint32_t i = gat[j];
                if (i >= n) { ++bad; continue; }
                if (outs & OUT_KEYS) bad += key_of(keys, kb, j) != key_of(d->keys, kb, i);
                if (outs & OUT_VALUES) bad += vals[j] != d->values[i];
                if (outs & OUT_SCATTER) bad += sca[i] != j;
            }
        }
        for (size_t b = 0; b < nb; ++b) {
            size_t lo = ref->bucket_offsets[b], hi = ref->bucket_offsets[b + 1];
            qsort(g + lo, hi - lo, sizeof *g, tuple_cmp);
            qsort(r + lo, hi - lo, sizeof *r, tuple_cmp);
        }
        bad += n && memcmp(g, r, n * sizeof *g) != 0;
        if ((outs & OUT_SCATTER) && !(outs & OUT_GATHER)) { /* scatter index: a permutation into the right bucket */
            char *seen = (char *)calloc(n + 1, 1);
            for (size_t i = 0; i < n; ++i) {
                uint32_t j = sca[i];
                if (j >= n || seen[j]) { ++bad; continue; }
                seen[j] = 1;
                uint32_t b = split_bucket_of_ref(ref, i);
                bad += j < ref->bucket_offsets[b] || j >= ref->bucket_offsets[b + 1];
            }
            free(seen);
        }
        free(g);
        free(r);
    }
    if (bad)
        sct_fail(__FILE__, __LINE__, "%s: %s n=%u B=%u %s %s values=%d outs=%d unstable=%d: %zu mismatches", how,
                 c->key_type ? "u64" : "u32", c->n, c->num_buckets, mst_rule_name[c->rule], mst_dist_name[c->dist],
                 c->with_values, outs, unstable, bad);
    free(keys);
    free(vals);
    free(gat);
    free(sca);
    free(off);
    return bad;
}

/* Runs one case (direct and graph-captured) and compares with the reference. use_index: call
 * split_index (outs must be index outputs only). */
static void run_data(const mst_case *c, mst_data *dp, uint64_t seed, int outs, int unstable, int use_index);

static void run_case(const mst_case *c, uint64_t seed, int outs, int unstable, int use_index)
{
    mst_data d;
    SCT_REQUIRE(mst_generate(c, seed, &d));
    run_data(c, &d, seed, outs, unstable, use_index);
}

/* run_case on generated data (freed here). */
static void run_data(const mst_case *c, mst_data *dp, uint64_t seed, int outs, int unstable, int use_index)
{
    mst_data d = *dp;
    size_t n = c->n, kb = d.key_bytes, nb = c->num_buckets;
    if (!d.values) outs &= ~OUT_VALUES;
    /* Reference with every output. */
    split_desc ref = d.desc;
    ref.keys_out = malloc(n * kb + 8);
    ref.values_out = d.values ? (uint32_t *)malloc(n * 4 + 4) : NULL;
    ref.gather_index = (uint32_t *)malloc(n * 4 + 4);
    ref.scatter_index = (uint32_t *)malloc(n * 4 + 4);
    ref.bucket_offsets = (uint32_t *)malloc((nb + 1) * 4);
    SCT_REQUIRE(ref.keys_out && ref.gather_index && ref.scatter_index && ref.bucket_offsets);
    SCT_REQUIRE_OK(split_multisplit_ref(&ref));

    dev_case g;
    memset(&g, 0, sizeof g);
    split_desc dd = d.desc;
    int ids_only = c->rule == SPLIT_BUCKETS_IDS && !(outs & OUT_KEYS);
    g.keys_in = ids_only && (seed & 1) ? NULL : dev_copy(d.keys, n * kb);
    dd.keys_in = g.keys_in;
    g.values_in = d.values ? (uint32_t *)dev_copy(d.values, n * 4) : NULL;
    dd.values_in = (outs & OUT_VALUES) ? g.values_in : NULL;
    g.ids = d.ids ? (uint32_t *)dev_copy(d.ids, n * 4) : NULL;
    dd.buckets.bucket_ids = g.ids;
    g.bounds = dev_copy(d.bounds, nb * kb);
    dd.buckets.boundaries = c->rule == SPLIT_BUCKETS_BOUNDARIES ? g.bounds : NULL;
    dd.keys_out = (outs & OUT_KEYS) ? dev_out(n * kb) : NULL;
    dd.values_out = (outs & OUT_VALUES) ? (uint32_t *)dev_out(n * 4) : NULL;
    dd.gather_index = (outs & OUT_GATHER) ? (uint32_t *)dev_out(n * 4) : NULL;
    dd.scatter_index = (outs & OUT_SCATTER) ? (uint32_t *)dev_out(n * 4) : NULL;
    dd.bucket_offsets = (outs & OUT_OFFSETS) ? (uint32_t *)dev_out((nb + 1) * 4) : NULL;
    dd.unstable = unstable;
    sc_status (*fn)(void *, size_t *, const split_desc *, cudaStream_t) = use_index ? split_index : split_multisplit;
    SCT_CHECK_OK(fn(NULL, &g.temp_bytes, &dd, g_stream));
    SCT_CUDA(cudaMalloc(&g.temp, g.temp_bytes));
    /* Direct. */
    poison_outputs(&dd, n, kb, nb, g_stream);
    SCT_CHECK_OK(fn(g.temp, &g.temp_bytes, &dd, g_stream));
    SCT_CUDA(cudaStreamSynchronize(g_stream));
    compare(c, &d, &ref, &dd, outs, unstable, "direct");
    /* Graph capture. */
    poison_outputs(&dd, n, kb, nb, g_stream);
    SCT_CUDA(cudaStreamSynchronize(g_stream));
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    SCT_CUDA(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    sc_status st = fn(g.temp, &g.temp_bytes, &dd, g_stream);
    SCT_CUDA(cudaStreamEndCapture(g_stream, &graph));
    SCT_CHECK_MSG(st == SC_OK, "captured call failed: %s", sc_last_error());
    if (graph) {
        SCT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
        SCT_CUDA(cudaGraphLaunch(exec, g_stream));
        SCT_CUDA(cudaStreamSynchronize(g_stream));
        compare(c, &d, &ref, &dd, outs, unstable, "graph");
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
    }
    SCT_CUDA(cudaGetLastError());
    cudaFree(g.keys_in);
    cudaFree(g.values_in);
    cudaFree(g.ids);
    cudaFree(g.bounds);
    cudaFree(g.temp);
    cudaFree(dd.keys_out);
    cudaFree(dd.values_out);
    cudaFree(dd.gather_index);
    cudaFree(dd.scatter_index);
    cudaFree(dd.bucket_offsets);
    free(ref.keys_out);
    free(ref.values_out);
    free(ref.gather_index);
    free(ref.scatter_index);
    free(ref.bucket_offsets);
    mst_free(&d);
}

static const uint32_t k_buckets[] = {1, 2, 3, 31, 32, 33, 64, 65, 255, 256, 257, 2048};
enum { NUM_B = sizeof k_buckets / sizeof k_buckets[0] };
static const int k_outs[] = {OUT_ALL, OUT_KEYS | OUT_OFFSETS, OUT_KEYS | OUT_VALUES, OUT_GATHER | OUT_SCATTER,
                             OUT_OFFSETS, OUT_KEYS | OUT_VALUES | OUT_SCATTER};

/* Every key type x rule x bucket count x size; the distribution, output set and value stream vary
 * with the size and, independently of it, with the block (bucket count, key type, rule): with
 * block = 8 * bi + 4 * kt + rule, dist = (si + block) % 6 and output set = (si + block / 6) % 6 depend
 * on block % 36 alone, so each size meets all 36 (distribution, output set) pairs once the grid has 36
 * blocks (the small grid 96, tile order's 40), each (size, B) all six distributions over its 8 rule x
 * key type blocks, and each B all 36 pairs over the sizes; values are on in two blocks of three, the
 * phase moving with the size, with block / 6 and block / 36, so each size has both with every
 * distribution and every output set that takes values. (A case counter modulo 6 would alias: with a
 * number of sizes that is a multiple of 6, each size would always get the same distribution and
 * output set.) */
static void run_size_grid(const uint32_t *sizes, size_t num_sizes, const uint32_t *buckets, size_t num_buckets,
                          uint64_t seed)
{
    for (int kt = 0; kt < 2; ++kt)
        for (int rule = 0; rule < 4; ++rule)
            for (size_t bi = 0; bi < num_buckets; ++bi) {
                const size_t block = 8 * bi + 4 * (size_t)kt + (size_t)rule;
                for (size_t si = 0; si < num_sizes; ++si) {
                    const mst_dist dist = (mst_dist)((si + block) % MST_DIST_COUNT);
                    const int outs = k_outs[(si + block / 6) % 6];
                    const int values = (si + block + block / 6 + block / 36) % 3 != 0;
                    mst_case c = {(split_key_type)kt, sizes[si], buckets[bi], (split_bucket_rule)rule, dist, values, 0};
                    run_case(&c, ++seed, outs, 0, 0);
                    if (sct_current_failed() > 4) return;
                }
            }
}

static void test_small_sizes_every_bucket_count_rule_and_key_type(void)
{
    static const uint32_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 2047, 2048, 2049, 4097};
    run_size_grid(sizes, sizeof sizes / sizeof sizes[0], k_buckets, NUM_B, sct_base_seed());
}

/* Tile order's tiles +-1 (multisplit_lookback.cu: 384 threads x 12 / 16 / 20 / 24 records for 32-bit
 * keys, 12 / 16 for 64-bit keys) and two tiles + 1, on the bucket counts of the ballots (B = 2, 32; 33
 * and 64: two counters a lane) and of the atomicOr match (B = 256), every rule and key type; the 40
 * blocks of run_size_grid give every size all 36 (distribution, output set) pairs, every (size, B)
 * all six distributions. */
static void test_tile_order_tiles_plus_minus_one(void)
{
    static const uint32_t sizes[] = {4607, 4608, 4609, 6143, 6144, 6145, 7679, 7680, 7681, 15361, 9215, 9216, 9217, 18433};
    static const uint32_t bs[] = {2, 32, 33, 64, 256};
    run_size_grid(sizes, sizeof sizes / sizeof sizes[0], bs, sizeof bs / sizeof bs[0], sct_base_seed() * 13);
}

/* Two-level tiles (multisplit_twolevel.cu: 32-bit keys, B = 257 .. 2048, keys and at most one payload
 * stream, not the BITS rule's keys / values; tiles of 384 threads x 16 or 12 records in tile order with
 * tile rows): the tiles +-1, two tiles + 1, 2.1M, and 6.5M on half the rule x B pairs (more tiles
 * than the count kernel's 1024 columns: several tiles per column, rows that carry counts) on B = 257, 512, 1024, 2048 (one to three
 * low bits), every rule; the output sets (keys, keys + values, keys + gather, the gather index alone by
 * split_index) and distributions cycling, one case in five unstable. */
static void test_two_level_tiles(void)
{
    static const uint32_t sizes[] = {4607, 4608, 4609, 6143, 6144, 6145, 9217, 12289, 2100007, 6500011};
    static const uint32_t bs[] = {257, 512, 1024, 2048};
    static const int outs[] = {OUT_KEYS | OUT_OFFSETS, OUT_KEYS | OUT_VALUES | OUT_OFFSETS, OUT_KEYS | OUT_GATHER,
                               OUT_GATHER | OUT_OFFSETS};
    uint64_t seed = sct_base_seed() * 31;
    unsigned k = 0;
    for (int rule = 0; rule < 4; ++rule)
        for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; ++bi)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si, ++k) {
                if (sizes[si] > 4000000 && (rule + bi) % 2) continue; /* the largest size on half the pairs */
                mst_case c = {SPLIT_KEY_U32, sizes[si], bs[bi], (split_bucket_rule)rule, (mst_dist)(k % MST_DIST_COUNT), 1, 0};
                const int o = outs[k % 4];
                run_case(&c, ++seed, o, k % 5 == 4, o == (OUT_GATHER | OUT_OFFSETS));
                if (sct_current_failed() > 4) return;
            }
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* BOUNDARIES tables the shared-memory slot index (split_bucket.cuh) must get right: geometric spacing
 * (most boundaries in the lowest slots), one value repeated, the key type's extremes as the first and
 * last boundary, and two tight clusters; keys on boundaries, one off them, 0, the largest key and
 * uniform. Both key types, B = 2, 33, 257, 2048 (look-back, two-level and general kernels), output
 * sets cycling. */
static void test_boundaries_skewed_tables(void)
{
    static const uint32_t bs[] = {2, 33, 257, 2048};
    uint64_t seed = sct_base_seed() * 37;
    unsigned k = 0;
    for (int kt = 0; kt < 2; ++kt)
        for (int shape = 0; shape < 4; ++shape)
            for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; ++bi, ++k) {
                const uint32_t nb = bs[bi], count = nb - 1;
                const int u64 = kt == 1, bits = u64 ? 64 : 32;
                const uint64_t kmax = u64 ? UINT64_MAX : UINT32_MAX;
                mst_case c = {(split_key_type)kt, k & 1 ? 100003u : 1200007u, nb, SPLIT_BUCKETS_BOUNDARIES, MST_UNIFORM,
                              (int)(k % 3 != 0), 0};
                mst_data d;
                SCT_REQUIRE(mst_generate(&c, ++seed, &d));
                sct_rng rng;
                sct_rng_seed(&rng, seed * 7 + 1);
                uint64_t *t = (uint64_t *)malloc((size_t)nb * sizeof *t);
                SCT_REQUIRE(t);
                const uint64_t same = sct_rng_next(&rng) & kmax, x = sct_rng_next(&rng) & (kmax >> 2);
                for (uint32_t j = 0; j < count; ++j) {
                    const uint64_t r = sct_rng_next(&rng) & kmax;
                    switch (shape) {
                    case 0: { /* geometric: 2^(j * (bits - 1) / count) */
                        const uint32_t e = (uint32_t)((uint64_t)j * (uint64_t)(bits - 1) / (count ? count : 1));
                        t[j] = ((uint64_t)1 << e) + (r & (((uint64_t)1 << e) - 1) & 3);
                        break;
                    }
                    case 1: t[j] = same; break;
                    case 2: t[j] = j == 0 ? 0 : j + 1 == count ? kmax : r; break;
                    default: t[j] = j < count / 2 ? x + r % 100 : (kmax >> 1) + r % (kmax >> 1); break;
                    }
                }
                qsort(t, count, sizeof *t, cmp_u64);
                for (uint32_t j = 0; j < count; ++j) {
                    if (u64) ((uint64_t *)d.bounds)[j] = t[j];
                    else ((uint32_t *)d.bounds)[j] = (uint32_t)t[j];
                }
                for (uint32_t i = 0; i < c.n; ++i) {
                    const uint32_t kind = sct_rng_below(&rng, 16);
                    uint64_t key = sct_rng_next(&rng) & kmax;
                    if (count && kind < 4) key = t[sct_rng_below(&rng, count)];
                    else if (count && kind < 6) key = (t[sct_rng_below(&rng, count)] + (kind == 4 ? 1 : kmax)) & kmax;
                    else if (kind == 6) key = 0;
                    else if (kind == 7) key = kmax;
                    if (u64) ((uint64_t *)d.keys)[i] = key;
                    else ((uint32_t *)d.keys)[i] = (uint32_t)key;
                }
                free(t);
                const int o = k_outs[k % 6];
                run_data(&c, &d, seed, o == OUT_OFFSETS ? (OUT_KEYS | OUT_OFFSETS) : o, k % 5 == 4, 0);
                if (sct_current_failed() > 4) return;
            }
}

/* The RANGE rule's quotient (a multiply by ceil(2^64 / delta) when the offset and delta fit in 32
 * bits, else a division): delta 1, 2, 3, 7, 1000, 2^16 + 1, 2^31, 2^32 - 1, 2^32 and 2^32 + 1 (64-bit
 * keys also reach offsets of 2^32 and more), both key types, B = 2, 33, 256. */
static void test_range_rule_deltas(void)
{
    static const uint64_t deltas[] = {1, 2, 3, 7, 1000, 65537, 1ull << 31, 0xFFFFFFFFull, 1ull << 32, (1ull << 32) + 1};
    static const uint32_t bs[] = {2, 33, 256};
    uint64_t seed = sct_base_seed() * 17;
    unsigned k = 0;
    for (size_t di = 0; di < sizeof deltas / sizeof deltas[0]; ++di)
        for (int kt = 0; kt < 2; ++kt)
            for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; ++bi, ++k) {
                mst_case c = {(split_key_type)kt, 20011, bs[bi], SPLIT_BUCKETS_RANGE, (mst_dist)(k % MST_DIST_COUNT),
                              (int)(k & 1), deltas[di]};
                run_case(&c, ++seed, k_outs[k % 6], 0, 0);
                if (sct_current_failed() > 4) return;
            }
}

/* 10^6+7 records, every B x rule, every output. Key type (bi + rule) & 1 and distribution
 * (bi / 2 + rule) % 6: every B gets both key types (two rules each) and four distributions, and every
 * rule each (key type, distribution) pair exactly once over the 12 bucket counts. */
static void test_million_every_bucket_count_and_rule(void)
{
    uint64_t seed = sct_base_seed() * 3;
    for (int rule = 0; rule < 4; ++rule)
        for (int bi = 0; bi < NUM_B; ++bi) {
            mst_case c = {(split_key_type)((bi + rule) & 1), 1000007, k_buckets[bi], (split_bucket_rule)rule,
                          (mst_dist)((bi / 2 + rule) % MST_DIST_COUNT), 1, 0};
            run_case(&c, ++seed, OUT_ALL, 0, 0);
            if (sct_current_failed() > 4) return;
        }
}

static void test_million_every_distribution(void)
{
    static const uint32_t bs[] = {32, 256, 2048};
    uint64_t seed = sct_base_seed() * 5;
    for (int dist = 0; dist < MST_DIST_COUNT; ++dist)
        for (int bi = 0; bi < 3; ++bi) {
            mst_case c = {(split_key_type)(dist & 1), 1000007, bs[bi], SPLIT_BUCKETS_BITS, (mst_dist)dist, 1, 0};
            run_case(&c, ++seed, OUT_ALL, 0, 0);
        }
}

/* 2^24 records: multisplit with every output on a subset of B x rule, and split_index (gather and
 * scatter index, 64-bit keys, B = 257 RANGE, binomial). */
static void test_2p24_subset(void)
{
    static const struct { uint32_t b; int rule; int kt; int dist; int index; } cs[] = {
        {2, SPLIT_BUCKETS_BITS, 0, MST_UNIFORM, 0},       {32, SPLIT_BUCKETS_BITS, 1, MST_HOCKEY, 0},
        {33, SPLIT_BUCKETS_RANGE, 0, MST_UNIFORM, 0},     {256, SPLIT_BUCKETS_BITS, 0, MST_UNIFORM, 0},
        {256, SPLIT_BUCKETS_IDS, 0, MST_DESCENDING, 0},   {2048, SPLIT_BUCKETS_BOUNDARIES, 1, MST_UNIFORM, 0},
        {2048, SPLIT_BUCKETS_BITS, 0, MST_HOCKEY, 0},     {257, SPLIT_BUCKETS_RANGE, 1, MST_BINOMIAL, 1}};
    uint64_t seed = sct_base_seed() * 11;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; ++k) {
        mst_case c = {(split_key_type)cs[k].kt, 1u << 24, cs[k].b, (split_bucket_rule)cs[k].rule, (mst_dist)cs[k].dist, 1, 0};
        run_case(&c, ++seed, cs[k].index ? (OUT_GATHER | OUT_SCATTER) : OUT_ALL, 0, cs[k].index);
    }
}

/* Unstable multisplit: the same buckets as the reference. The BITS rule on every size x B (key types
 * alternating with si + bi, so every B has both over the sizes and every size both over the B), and a
 * second rule per (size, B), IDS / RANGE / BOUNDARIES rotating with si + bi on the other key type (at
 * 10^6+7 on half the B: 3, 31, 64, 65, 257, 2048). Distribution (bi / 2 + si) % 6 (+3 for the second
 * rule): every B meets all six over the sizes, every size each one on both key types. Each case runs
 * with keys and payloads (output sets rotating) and with the scatter index and offsets alone. */
static void test_unstable_same_buckets(void)
{
    static const uint32_t sizes[] = {0, 1, 33, 2049, 100003, 1000007};
    static const int outs[] = {OUT_ALL, OUT_KEYS | OUT_VALUES | OUT_OFFSETS, OUT_KEYS | OUT_GATHER | OUT_OFFSETS,
                               OUT_KEYS | OUT_SCATTER};
    enum { NUM_SIZES = sizeof sizes / sizeof sizes[0] };
    uint64_t seed = sct_base_seed() * 17;
    for (size_t si = 0; si < NUM_SIZES; ++si)
        for (int bi = 0; bi < NUM_B; ++bi) {
            const size_t m = si + (size_t)bi, q = (size_t)bi / 2;
            mst_case c = {(split_key_type)(m & 1), sizes[si], k_buckets[bi], SPLIT_BUCKETS_BITS,
                          (mst_dist)((q + si) % MST_DIST_COUNT), 1, 0};
            run_case(&c, ++seed, outs[(q + 3 * si) % 4], 1, 0);
            run_case(&c, ++seed, OUT_SCATTER | OUT_OFFSETS, 1, 0);
            if (si + 1 < NUM_SIZES || bi % 4 >= 2) {
                c.key_type = (split_key_type)((m + 1) & 1);
                c.rule = (split_bucket_rule)(1 + m % 3);
                c.dist = (mst_dist)((q + si + 3) % MST_DIST_COUNT);
                run_case(&c, ++seed, outs[(q + 3 * si + 2) % 4], 1, 0);
                run_case(&c, ++seed, OUT_SCATTER | OUT_OFFSETS, 1, 0);
            }
            if (sct_current_failed() > 4) return;
        }
}

/* split_index: the issue's ten bucket counts x every rule (key type (bi + rule) & 1: every rule and
 * every B on both) x sizes 0, 1, 31, 32, 33, 257, 384 and 385 (384-thread tiles +-1), 2049 and 4609;
 * with block = 4 * bi + rule, the index set (gather, scatter, both) is (si + block) % 3, unstable
 * (si + block / 3) % 2 and the distribution (si + block / 6) % 6, so each size meets every (index set,
 * stability) pair with every distribution and each (B, rule) all six distributions and both
 * stabilities over the sizes. Then 10^6+7 on every B, the rule rotating (each rule on both key
 * types), the index set and stability covering all six pairs. */
static void test_split_index(void)
{
    static const uint32_t bs[] = {1, 2, 3, 31, 32, 33, 255, 256, 257, 2048};
    static const uint32_t sizes[] = {0, 1, 31, 32, 33, 257, 384, 385, 2049, 4609};
    static const int idx[] = {OUT_GATHER, OUT_SCATTER, OUT_GATHER | OUT_SCATTER};
    enum { NB = sizeof bs / sizeof bs[0], NS = sizeof sizes / sizeof sizes[0] };
    uint64_t seed = sct_base_seed() * 19;
    for (size_t bi = 0; bi < NB; ++bi)
        for (int rule = 0; rule < 4; ++rule) {
            const size_t block = 4 * bi + (size_t)rule;
            for (size_t si = 0; si < NS; ++si) {
                mst_case c = {(split_key_type)((bi + (size_t)rule) & 1), sizes[si], bs[bi], (split_bucket_rule)rule,
                              (mst_dist)((si + block / 6) % MST_DIST_COUNT), 0, 0};
                run_case(&c, ++seed, idx[(si + block) % 3], (int)((si + block / 3) % 2), 1);
                if (sct_current_failed() > 4) return;
            }
        }
    for (size_t bi = 0; bi < NB; ++bi) {
        mst_case c = {(split_key_type)((bi + bi / 4) & 1), 1000007, bs[bi], (split_bucket_rule)(bi % 4),
                      (mst_dist)((bi + 2) % MST_DIST_COUNT), 0, 0};
        run_case(&c, ++seed, idx[bi % 3], (int)((bi / 3) % 2), 1);
        if (sct_current_failed() > 4) return;
    }
}

/* Key-only splits of 32-bit keys ranked by ballots (B <= 64) take tiles one ahead, with no barrier
 * between a block's tiles (multisplit_lookback.cu); the other output sets of the grids above do not
 * reach them, nor sizes that give a block several tiles. Keys (and offsets) only, every rule, B = 4 and
 * 16 (ballots of bits outside the field), 64 (two counters a lane), sizes of about 2.7 tiles per block
 * on 132 SMs with a partial last tile; B = 1024 and 2048 (BITS: two passes, the first of 4 or 5 bits
 * takes tiles ahead, the second, of 6 bits, is the same kernel looking back) and values out at the
 * same size. */
static void test_key_only_tiles_ahead(void)
{
    static const uint32_t sizes[] = {4609, 5000011};
    static const uint32_t bs[] = {2, 4, 16, 32, 64, 1024, 2048};
    uint64_t seed = sct_base_seed() * 31;
    unsigned k = 0;
    for (int rule = 0; rule < 4; ++rule)
        for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; ++bi)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si, ++k) {
                mst_case c = {SPLIT_KEY_U32, sizes[si], bs[bi], (split_bucket_rule)rule, (mst_dist)(k % MST_DIST_COUNT), 0, 0};
                run_case(&c, ++seed, OUT_KEYS | OUT_OFFSETS, 0, 0);
                if (bs[bi] >= 1024 && rule == SPLIT_BUCKETS_BITS) {
                    c.with_values = 1;
                    run_case(&c, ++seed, OUT_KEYS | OUT_VALUES | OUT_OFFSETS, 0, 0);
                }
                if (sct_current_failed() > 4) return;
            }
}

static void test_sanitize_mid(void)
{
    static const uint32_t bs[] = {3, 32, 33, 257, 2048};
    uint64_t seed = sct_base_seed() * 23;
    for (int k = 0; k < 5; ++k) {
        mst_case c = {(split_key_type)(k & 1), 20011, bs[k], (split_bucket_rule)(k % 4), MST_HOCKEY, 1, 0};
        run_case(&c, ++seed, OUT_ALL, 0, 0);
        run_case(&c, ++seed, OUT_ALL, 1, 0);
    }
    /* A key-only split ranked by ballots with several tiles per block (tiles taken one ahead, no
     * barrier between them): 2M keys are 435 tiles on 396 blocks of an H100. */
    mst_case c = {SPLIT_KEY_U32, 2000003, 32, SPLIT_BUCKETS_BITS, MST_HOCKEY, 0, 0};
    run_case(&c, ++seed, OUT_KEYS | OUT_OFFSETS, 0, 0);
    /* The two-pass split (B = 2048): its second pass is that kernel looking back over given totals. */
    c.num_buckets = 2048;
    run_case(&c, ++seed, OUT_KEYS | OUT_OFFSETS, 0, 0);
    /* split_index, gather and scatter index (no keys moved): stable u32 B = 33 RANGE, unstable u64
     * B = 257 BOUNDARIES. */
    mst_case x = {SPLIT_KEY_U32, 20011, 33, SPLIT_BUCKETS_RANGE, MST_HOCKEY, 0, 0};
    run_case(&x, ++seed, OUT_GATHER | OUT_SCATTER, 0, 1);
    x.key_type = SPLIT_KEY_U64;
    x.num_buckets = 257;
    x.rule = SPLIT_BUCKETS_BOUNDARIES;
    run_case(&x, ++seed, OUT_GATHER | OUT_SCATTER, 1, 1);
}

/* 2^28 records, keys and values: BITS 256 / 2048, IDS 32, RANGE 33 (hockey stick), BOUNDARIES 257,
 * all u32, and BITS 32 with u64 keys. Memory of the largest (u64 keys): on the GPU keys in and out
 * 2 x 2 GiB, values in and out 2 x 1 GiB, about 6 GiB and the temporary storage (tile counts at
 * B = 32; under 4 GiB even for a two-pass split's middle keys and values); on the host the inputs
 * (3 GiB), the reference's outputs (keys 2, values 1, gather 1, scatter 1 GiB) and its bucket array
 * (1 GiB), and compare's copies of the GPU outputs (5 GiB): about 14 GiB. */
static void test_large_2p28(void)
{
    static const struct { uint32_t b; int rule; int kt; int dist; } cs[] = {
        {256, SPLIT_BUCKETS_BITS, 0, MST_UNIFORM},  {2048, SPLIT_BUCKETS_BITS, 0, MST_UNIFORM},
        {32, SPLIT_BUCKETS_IDS, 0, MST_UNIFORM},    {33, SPLIT_BUCKETS_RANGE, 0, MST_HOCKEY},
        {257, SPLIT_BUCKETS_BOUNDARIES, 0, MST_UNIFORM}, {32, SPLIT_BUCKETS_BITS, 1, MST_UNIFORM}};
    uint64_t seed = sct_base_seed() * 29;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; ++k) {
        mst_case c = {(split_key_type)cs[k].kt, 1u << 28, cs[k].b, (split_bucket_rule)cs[k].rule, (mst_dist)cs[k].dist,
                      1, 0};
        run_case(&c, ++seed, OUT_KEYS | OUT_VALUES | OUT_OFFSETS, 0, 0);
    }
}

/* Bad arguments: the right status, and nothing written (poisoned outputs survive). split_sort's bad
 * arguments (temp, keys, values, records, each output checked byte by byte) are test_sort's. */
static void test_bad_arguments_write_nothing(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    enum { N = 1000 };
    uint32_t *keys = NULL, *out = NULL, *offs = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc(&keys, N * 4));
    SCT_CUDA_REQUIRE(cudaMalloc(&out, N * 4));
    SCT_CUDA_REQUIRE(cudaMalloc(&offs, 4096 * 4));
    SCT_CUDA(cudaMemset(keys, 0, N * 4));
    SCT_CUDA(cudaMemset(out, 0xAB, N * 4));
    SCT_CUDA(cudaMemset(offs, 0xAB, 4096 * 4));
    split_desc d;
    memset(&d, 0, sizeof d);
    d.n = N;
    d.keys_in = keys;
    d.keys_out = out;
    d.bucket_offsets = offs;
    d.buckets.bit_count = 4;
    size_t bytes = 0;
    SCT_REQUIRE_OK(split_multisplit(NULL, &bytes, &d, g_stream));
    void *temp = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc(&temp, bytes));
    split_desc e;
    e = d; e.buckets.bit_count = 12;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.rule = SPLIT_BUCKETS_BOUNDARIES; e.buckets.num_buckets = 2049;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.rule = SPLIT_BUCKETS_BOUNDARIES; e.buckets.num_buckets = 0;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.rule = SPLIT_BUCKETS_BOUNDARIES; e.buckets.num_buckets = 5;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT); /* boundaries NULL */
    e = d; e.buckets.start_bit = 29;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.keys_in = NULL;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.buckets.rule = SPLIT_BUCKETS_IDS; e.buckets.num_buckets = 4;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT); /* ids NULL */
    e = d; e.buckets.rule = SPLIT_BUCKETS_RANGE; e.buckets.num_buckets = 4;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT); /* delta 0 */
    e = d; e.n = (size_t)1 << 32;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.key_type = (split_key_type)7;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.values_in = keys;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    e = d; e.keys_out = keys;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_index(temp, &bytes, &d, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_multisplit(temp, NULL, &d, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(split_multisplit(temp, &bytes, NULL, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    /* Misaligned device pointers and temp (validation, before any launch): u32 keys and the output at
     * 2-byte offsets, u64 keys at a 4-byte offset, temp off SPLIT_TEMP_ALIGNMENT, the segmented split's
     * offsets; each message names the field. */
    e = d; e.keys_in = (const char *)keys + 2;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "keys_in") != NULL);
    e = d; e.keys_out = (char *)out + 2; e.n = N / 2;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "keys_out") != NULL);
    e = d; e.key_type = SPLIT_KEY_U64; e.keys_in = keys + 1; e.keys_out = out; e.n = N / 2 - 1;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "8 bytes") != NULL);
    e = d; e.key_type = SPLIT_KEY_U64; e.keys_in = keys; e.keys_out = out + 1; e.n = N / 2 - 1;
    SCT_CHECK(split_multisplit(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "keys_out") != NULL);
    e = d; e.keys_out = NULL; e.gather_index = out; e.scatter_index = (uint32_t *)((char *)offs + 2);
    SCT_CHECK(split_index(temp, &bytes, &e, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "scatter_index") != NULL);
    {
        split_desc sg = d;
        uint32_t *segs = offs + 2048; /* 2 segments: its words are never read (rejected first) */
        sg.segment_offsets = (const uint32_t *)((const char *)segs + 2);
        sg.num_segments = 2;
        sg.bucket_offsets = NULL;
        size_t seg_bytes = 0; /* the size query looks at no data pointer */
        SCT_CHECK(split_segmented(NULL, &seg_bytes, &sg, g_stream) == SC_OK);
        size_t big = (seg_bytes > bytes ? seg_bytes : bytes) + 256;
        void *temp2 = NULL;
        SCT_CUDA_REQUIRE(cudaMalloc(&temp2, big));
        SCT_CHECK(split_multisplit((char *)temp2 + 16, &bytes, &d, g_stream) == SC_ERROR_INVALID_ARGUMENT);
        SCT_CHECK(strstr(sc_last_error(), "temp (") != NULL);
        SCT_CHECK(split_segmented(temp2, &seg_bytes, &sg, g_stream) == SC_ERROR_INVALID_ARGUMENT);
        SCT_CHECK(strstr(sc_last_error(), "segment_offsets") != NULL);
        cudaFree(temp2);
    }
    size_t small = bytes - 1;
    SCT_CHECK(split_multisplit(temp, &small, &d, g_stream) == SC_ERROR_TEMP_STORAGE);
    SCT_CHECK(strstr(sc_last_error(), "split_multisplit") != NULL);
    split_sort_desc s;
    memset(&s, 0, sizeof s);
    s.n = N;
    s.keys_in = keys;
    s.keys_out = out;
    split_sort_desc t = s; t.key_bits = 16;
    SCT_CHECK(split_sort(temp, &bytes, &t, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    t = s; t.keys_in = NULL;
    SCT_CHECK(split_sort(temp, &bytes, &t, g_stream) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CUDA(cudaStreamSynchronize(g_stream));
    uint32_t *h = (uint32_t *)malloc(4096 * 4);
    SCT_REQUIRE(h);
    cudaMemcpy(h, out, N * 4, cudaMemcpyDeviceToHost);
    size_t bad = 0;
    for (int i = 0; i < N; ++i) bad += h[i] != POISON;
    cudaMemcpy(h, offs, 4096 * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4096; ++i) bad += h[i] != POISON;
    SCT_CHECK_MSG(bad == 0, "%zu words written by failed calls", bad);
    free(h);
    cudaFree(keys);
    cudaFree(out);
    cudaFree(offs);
    cudaFree(temp);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "multisplit");
    sct_require_cuda();
    int large = 0;
    for (int i = 1; i < argc; ++i) large |= strstr(argv[i], "large") != NULL;
    if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) sct_skip_all("no stream");
    SCT_RUN(test_bad_arguments_write_nothing);
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_small_sizes_every_bucket_count_rule_and_key_type);
    SCT_RUN(test_tile_order_tiles_plus_minus_one);
    SCT_RUN(test_key_only_tiles_ahead);
    SCT_RUN(test_two_level_tiles);
    SCT_RUN(test_range_rule_deltas);
    SCT_RUN(test_boundaries_skewed_tables);
    SCT_RUN(test_split_index);
    SCT_RUN(test_unstable_same_buckets);
    SCT_RUN(test_million_every_bucket_count_and_rule);
    SCT_RUN(test_million_every_distribution);
    SCT_RUN(test_2p24_subset);
    if (large) SCT_RUN(test_large_2p28);
    cudaStreamDestroy(g_stream);
    return sct_end();
}
