/* bench_split.cu - split / multisplit sections of split_bench.
 *
 * "split": split_multisplit with the BITS rule (bucket = low log2 B bits of the key), stable and
 * unstable, key-only and key-value, B in {2, 32, 256, 2048}, six bucket distributions; beside it
 * CUB DeviceRadixSort over all 32 bits, CUB DeviceRadixSort over the bucket bits [0, log2 B) (the
 * same stable result as our stable split) and, for B = 2, CUB DevicePartition::If.
 * "rules": split_multisplit with the RANGE and BOUNDARIES rules on uniform keys.
 * Every result of ours is verified once on input set 0 with poisoned outputs: the stable split
 * against CUB's bucket-bit sort element by element, the unstable one by the split properties
 * (grouping, permutation, and the multiset of keys through full sorts), bucket offsets against a
 * histogram scan. Then every operation is timed rotating over the input sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { MAX_SETS = 8 };
static const uint32_t k_log2b[] = {1, 5, 8, 11};

typedef struct split_bufs {
    size_t n;
    int sets;
    uint32_t *keys[MAX_SETS], *vals[MAX_SETS], *pairs[MAX_SETS]; /* pairs: AoS {key, value}, partition only */
    uint32_t *kout, *vout, *offsets;
    uint32_t *ref_k, *ref_v;     /* CUB's bucket-bit sort of set 0 */
    uint32_t *tmp_a, *tmp_b;     /* full sorts for the multiset check */
    uint32_t *part_out, *num_sel;
    uint32_t *boundaries;        /* SPLIT_MAX_BUCKETS - 1 */
    void *temp;
    size_t temp_bytes;
} split_bufs;

typedef enum split_impl { IMPL_STABLE, IMPL_UNSTABLE, IMPL_CUB_FULL, IMPL_CUB_BITS, IMPL_CUB_PART } split_impl;

typedef struct split_ctx {
    split_bufs *b;
    int kv;
    split_impl impl;
    split_buckets rule;
    int sets;
} split_ctx;

static split_desc desc_of(const split_ctx *c, int set)
{
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = c->b->n;
    d.keys_in = c->b->keys[set];
    d.keys_out = c->b->kout;
    if (c->kv) {
        d.values_in = c->b->vals[set];
        d.values_out = c->b->vout;
    }
    d.buckets = c->rule;
    d.bucket_offsets = c->b->offsets;
    d.unstable = c->impl == IMPL_UNSTABLE;
    return d;
}

static int split_op(void *ctx, int set, cudaStream_t s)
{
    const split_ctx *c = (const split_ctx *)ctx;
    split_bufs *b = c->b;
    size_t bytes = b->temp_bytes;
    const int bits = (int)c->rule.bit_count;
    switch (c->impl) {
    case IMPL_STABLE:
    case IMPL_UNSTABLE: {
        split_desc d = desc_of(c, set);
        BENCH_SPLIT(split_multisplit(b->temp, &bytes, &d, s));
        break;
    }
    case IMPL_CUB_FULL:
    case IMPL_CUB_BITS: {
        const int end = c->impl == IMPL_CUB_FULL ? 32 : bits;
        if (c->kv) cub_sort_pairs_u32(b->temp, &bytes, b->keys[set], b->kout, b->vals[set], b->vout, b->n, 0, end, s);
        else cub_sort_keys_u32(b->temp, &bytes, b->keys[set], b->kout, b->n, 0, end, s);
        break;
    }
    case IMPL_CUB_PART:
        cub_partition_b2(b->temp, &bytes, c->kv ? (const void *)b->pairs[set] : (const void *)b->keys[set],
                         b->part_out, b->num_sel, b->n, c->kv, s);
        break;
    }
    return 0;
}

/* Largest temporary storage of any operation at this n. */
static size_t temp_need(split_bufs *b, cudaStream_t s)
{
    size_t need = 0, x;
    for (int kv = 0; kv < 2; ++kv) {
        for (int u = 0; u < 2; ++u) {
            for (size_t i = 0; i < sizeof k_log2b / sizeof k_log2b[0]; ++i) {
                static const split_bucket_rule rules[] = {SPLIT_BUCKETS_BITS, SPLIT_BUCKETS_RANGE,
                                                          SPLIT_BUCKETS_BOUNDARIES};
                for (int r = 0; r < 3; ++r) {
                    split_ctx c;
                    memset(&c, 0, sizeof c);
                    c.b = b;
                    c.kv = kv;
                    c.impl = u ? IMPL_UNSTABLE : IMPL_STABLE;
                    c.rule.rule = rules[r];
                    c.rule.num_buckets = 1u << k_log2b[i];
                    c.rule.bit_count = k_log2b[i];
                    c.rule.range_delta = 1;
                    split_desc d = desc_of(&c, 0);
                    x = 0;
                    sc_status st = split_multisplit(NULL, &x, &d, s);
                    if (st != SC_OK) {
                        bench_fail("split_multisplit size query: %s", sc_last_error());
                        continue;
                    }
                    if (x > need) need = x;
                }
            }
        }
        x = 0;
        if (kv) cub_sort_pairs_u32(NULL, &x, b->keys[0], b->kout, b->vals[0], b->vout, b->n, 0, 32, s);
        else cub_sort_keys_u32(NULL, &x, b->keys[0], b->kout, b->n, 0, 32, s);
        if (x > need) need = x;
        x = 0;
        if (kv) cub_sort_pairs_u32(NULL, &x, b->keys[0], b->kout, b->vals[0], b->vout, b->n, 0, 1, s);
        else cub_sort_keys_u32(NULL, &x, b->keys[0], b->kout, b->n, 0, 1, s);
        if (x > need) need = x;
        x = 0;
        cub_partition_b2(NULL, &x, b->keys[0], b->part_out, b->num_sel, b->n, kv, s);
        if (x > need) need = x;
    }
    return need;
}

static void bufs_alloc(split_bufs *b, const bench_env *env, size_t n)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    b->sets = bench_sets_for(env, n * sizeof(uint32_t));
    for (int i = 0; i < b->sets; ++i) {
        b->keys[i] = (uint32_t *)bench_alloc(n * 4);
        b->vals[i] = (uint32_t *)bench_alloc(n * 4);
        b->pairs[i] = (uint32_t *)bench_alloc(n * 8);
        bench_gen_iota(b->vals[i], n, env->stream);
    }
    b->kout = (uint32_t *)bench_alloc(n * 4);
    b->vout = (uint32_t *)bench_alloc(n * 4);
    b->offsets = (uint32_t *)bench_alloc((SPLIT_MAX_BUCKETS + 1) * 4);
    b->ref_k = (uint32_t *)bench_alloc(n * 4);
    b->ref_v = (uint32_t *)bench_alloc(n * 4);
    b->tmp_a = (uint32_t *)bench_alloc(n * 4);
    b->tmp_b = (uint32_t *)bench_alloc(n * 4);
    b->part_out = (uint32_t *)bench_alloc(n * 8);
    b->num_sel = (uint32_t *)bench_alloc(4);
    b->boundaries = (uint32_t *)bench_alloc(SPLIT_MAX_BUCKETS * 4);
    b->temp_bytes = temp_need(b, env->stream);
    b->temp = bench_alloc(b->temp_bytes);
}

static void bufs_free(split_bufs *b)
{
    for (int i = 0; i < b->sets; ++i) {
        bench_free(b->keys[i]);
        bench_free(b->vals[i]);
        bench_free(b->pairs[i]);
    }
    void *p[] = {b->kout, b->vout, b->offsets, b->ref_k, b->ref_v, b->tmp_a, b->tmp_b, b->part_out, b->num_sel,
                 b->boundaries, b->temp};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i) bench_free(p[i]);
}

/* Runs ours once on set 0 with poisoned outputs. 0, or -1 (failure counted). */
static int run_once(split_ctx *c, cudaStream_t s)
{
    bench_poison(c->b->kout, c->b->n * 4, s);
    bench_poison(c->b->vout, c->b->n * 4, s);
    bench_poison(c->b->offsets, (SPLIT_MAX_BUCKETS + 1) * 4, s);
    if (split_op(c, 0, s) != 0) return -1;
    BENCH_CUDA(cudaStreamSynchronize(s));
    return 0;
}

/* Verifies an unstable result (or any result under a non-BITS rule): grouping and offsets;
 * key-value: permutation with matching keys (and order, when stable); key-only: same multiset of
 * keys as the input (full CUB sorts of both compared). Mismatches. */
static uint64_t verify_by_properties(split_ctx *c, int stable, cudaStream_t s)
{
    split_bufs *b = c->b;
    bench_rule r = bench_rule_of(&c->rule);
    uint64_t bad = bench_check_offsets(b->offsets, b->keys[0], b->n, &r, s);
    bad += bench_check_split(b->keys[0], b->kout, c->kv ? b->vout : NULL, b->offsets, b->n, &r, stable, s);
    if (!c->kv) {
        size_t bytes = b->temp_bytes;
        cub_sort_keys_u32(b->temp, &bytes, b->kout, b->tmp_a, b->n, 0, 32, s);
        cub_sort_keys_u32(b->temp, &bytes, b->keys[0], b->tmp_b, b->n, 0, 32, s);
        bad += bench_diff_u32(b->tmp_a, b->tmp_b, b->n, s);
    }
    return bad;
}

static int verdict(uint64_t bad, const char *what, const split_ctx *c, const char *dist)
{
    if (bad == 0) return 1;
    bench_fail("%s: %llu mismatches (n = %zu, %s, B = %u, %s)", what, (unsigned long long)bad, c->b->n,
               c->kv ? "pairs" : "keys", c->rule.num_buckets, dist);
    return -1;
}

static void fill_row(bench_row *row, const char *section, const char *impl, const split_ctx *c, const char *dist,
                     double ms, int verified)
{
    memset(row, 0, sizeof *row);
    snprintf(row->section, sizeof row->section, "%s", section);
    snprintf(row->impl, sizeof row->impl, "%s", impl);
    snprintf(row->payload, sizeof row->payload, "%s", c->kv ? "pairs" : "keys");
    snprintf(row->dist, sizeof row->dist, "%s", dist);
    row->n = c->b->n;
    row->buckets = c->rule.num_buckets;
    row->passes = 1;
    row->ms = ms;
    row->model_bytes = (double)c->b->n * (c->kv ? 20.0 : 12.0);
    row->verified = verified;
}

static double timed(const bench_env *env, split_ctx *c, split_impl impl)
{
    c->impl = impl;
    return bench_time_ms(env, split_op, c, c->sets);
}

/* One configuration of the "split" section. */
static void split_config(const bench_env *env, split_bufs *b, int kv, uint32_t log2b, bench_dist dist, int n_log2)
{
    cudaStream_t s = env->stream;
    const size_t n = b->n;
    const char *dn = bench_dist_name(dist);
    split_ctx c;
    memset(&c, 0, sizeof c);
    c.b = b;
    c.kv = kv;
    c.rule.rule = SPLIT_BUCKETS_BITS;
    c.rule.bit_count = log2b;
    c.rule.num_buckets = 1u << log2b;
    c.sets = bench_sets_for(env, n * (kv ? 8 : 4));
    if (c.sets > b->sets) c.sets = b->sets;
    for (int i = 0; i < c.sets; ++i) {
        bench_gen_bucket_keys(b->keys[i], n, log2b, dist, bench_hash64(((uint64_t)n_log2 << 32) ^ (kv << 24) ^
                                                                       (log2b << 16) ^ ((uint64_t)dist << 8) ^ i), s);
        if (kv && log2b == 1) bench_zip_pairs(b->keys[i], b->vals[i], n, b->pairs[i], s);
    }
    /* The reference: CUB's radix sort over the bucket bits of set 0 (stable). */
    size_t bytes = b->temp_bytes;
    if (kv) cub_sort_pairs_u32(b->temp, &bytes, b->keys[0], b->ref_k, b->vals[0], b->ref_v, n, 0, (int)log2b, s);
    else cub_sort_keys_u32(b->temp, &bytes, b->keys[0], b->ref_k, n, 0, (int)log2b, s);

    int ok_stable = -1, ok_unstable = -1, ok_part = 0;
    c.impl = IMPL_STABLE;
    if (run_once(&c, s) == 0) {
        bench_rule r = bench_rule_of(&c.rule);
        uint64_t bad = bench_diff_u32(b->kout, b->ref_k, n, s) + bench_check_offsets(b->offsets, b->keys[0], n, &r, s);
        if (kv) bad += bench_diff_u32(b->vout, b->ref_v, n, s);
        ok_stable = verdict(bad, "split stable vs CUB bucket-bit sort", &c, dn);
    }
    c.impl = IMPL_UNSTABLE;
    if (run_once(&c, s) == 0) ok_unstable = verdict(verify_by_properties(&c, 0, s), "split unstable", &c, dn);
    if (log2b == 1) { /* the baseline's own output, checked against the stable reference */
        c.impl = IMPL_CUB_PART;
        split_op(&c, 0, s);
        uint32_t nsel = 0;
        BENCH_CUDA(cudaMemcpyAsync(&nsel, b->num_sel, 4, cudaMemcpyDeviceToHost, s));
        BENCH_CUDA(cudaStreamSynchronize(s));
        uint64_t bad = nsel > n;
        if (!bad && kv)
            bad = bench_diff_pairs(b->part_out, b->ref_k, b->ref_v, nsel, 0, s) +
                  bench_diff_pairs(b->part_out + 2 * (size_t)nsel, b->ref_k + nsel, b->ref_v + nsel, n - nsel, 1, s);
        else if (!bad)
            bad = bench_diff_u32(b->part_out, b->ref_k, nsel, s) +
                  bench_diff_u32_reversed(b->part_out + nsel, b->ref_k + n, n - nsel, s);
        ok_part = verdict(bad, "CUB DevicePartition vs stable reference", &c, dn);
    }

    bench_row rows[5];
    const char *full = kv ? "cub SortPairs 32 bits" : "cub SortKeys 32 bits";
    const char *part = kv ? "cub DevicePartition::If uint2" : "cub DevicePartition::If";
    fill_row(&rows[0], "split", "split stable", &c, dn, timed(env, &c, IMPL_STABLE), ok_stable);
    fill_row(&rows[1], "split", "split unstable", &c, dn, timed(env, &c, IMPL_UNSTABLE), ok_unstable);
    fill_row(&rows[2], "split", full, &c, dn, timed(env, &c, IMPL_CUB_FULL), 0);
    fill_row(&rows[3], "split", "cub sort bucket bits", &c, dn, timed(env, &c, IMPL_CUB_BITS), 1);
    int nrows = 4;
    if (log2b == 1) fill_row(&rows[nrows++], "split", part, &c, dn, timed(env, &c, IMPL_CUB_PART), ok_part);
    char cell[5][64];
    for (int i = 0; i < nrows; ++i) {
        snprintf(rows[i].note, sizeof rows[i].note, "input sets %d", c.sets);
        report_add(&rows[i], env->copy_gbs);
        report_cell(&rows[i], cell[i], sizeof cell[i]);
    }
    if (nrows == 4) snprintf(cell[4], sizeof cell[4], "%s", "-");
    else snprintf(cell[4], sizeof cell[4], "%8.3f ms %6.1f G", rows[4].ms, rows[4].gitems);
    double x = rows[0].ms > 0 ? rows[3].ms / rows[0].ms : 0.0;
    printf("2^%d %-5s %4u %-10s | %s | %s | %s | %s | %s | %5.2fx %s\n", n_log2, kv ? "pairs" : "keys",
           1u << log2b, dn, cell[0], cell[1], cell[2], cell[3], cell[4], x,
           ok_stable > 0 && ok_unstable > 0 && ok_part >= 0 ? "ok" : "FAIL");
    fflush(stdout);
}

void bench_section_split(const bench_env *env, int n_log2);
void bench_section_rules(const bench_env *env, int n_log2);

void bench_section_split(const bench_env *env, int n_log2)
{
    split_bufs b;
    bufs_alloc(&b, env, (size_t)1 << n_log2);
    printf("\n== split (BITS rule: bucket = key & (B-1)), n = 2^%d; time, G keys/s, %% of copy bandwidth under "
           "12 B/key (keys) or 20 B/pair (pairs) ==\n",
           n_log2);
    printf("%-22s | %-27s | %-27s | %-19s | %-27s | %-19s | %s\n", "n     payload B dist", "ours stable",
           "ours unstable", "CUB sort 32 bits", "CUB sort log2(B) bits", "CUB partition",
           "stable speed / CUB bits");
    for (int kv = 0; kv < 2; ++kv)
        for (size_t i = 0; i < sizeof k_log2b / sizeof k_log2b[0]; ++i)
            for (int d = 0; d < BENCH_DIST_COUNT; ++d)
                if (bench_row_selected(env, kv, 1u << k_log2b[i], d))
                    split_config(env, &b, kv, k_log2b[i], (bench_dist)d, n_log2);
    bufs_free(&b);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* "rules": RANGE and BOUNDARIES on uniform random keys, stable and unstable. */
void bench_section_rules(const bench_env *env, int n_log2)
{
    cudaStream_t s = env->stream;
    split_bufs b;
    bufs_alloc(&b, env, (size_t)1 << n_log2);
    const size_t n = b.n;
    printf("\n== multisplit, RANGE and BOUNDARIES rules, uniform keys, n = 2^%d (12 B/key, 20 B/pair) ==\n", n_log2);
    printf("%-32s | %-27s | %-27s\n", "n     payload B rule", "ours stable", "ours unstable");
    static uint32_t host_bounds[SPLIT_MAX_BUCKETS];
    for (int kv = 0; kv < 2; ++kv) {
        for (int rule = 0; rule < 2; ++rule) {
            for (size_t i = 0; i < sizeof k_log2b / sizeof k_log2b[0]; ++i) {
                const uint32_t nb = 1u << k_log2b[i];
                split_ctx c;
                memset(&c, 0, sizeof c);
                c.b = &b;
                c.kv = kv;
                c.sets = bench_sets_for(env, n * (kv ? 8 : 4));
                if (c.sets > b.sets) c.sets = b.sets;
                for (int k = 0; k < c.sets; ++k)
                    bench_gen_u32(b.keys[k], n, bench_hash64(0x5eedull ^ ((uint64_t)n_log2 << 20) ^ (nb << 4) ^ k), s);
                c.rule.num_buckets = nb;
                const char *name;
                if (rule == 0) {
                    name = "RANGE";
                    c.rule.rule = SPLIT_BUCKETS_RANGE;
                    c.rule.range_base = 1u << 24;  /* keys below it: bucket 0 */
                    c.rule.range_delta = (((uint64_t)1 << 32) - c.rule.range_base) / nb; /* top keys: clamped */
                } else {
                    name = "BOUNDARIES";
                    c.rule.rule = SPLIT_BUCKETS_BOUNDARIES;
                    for (uint32_t k = 0; k + 1 < nb; ++k)
                        host_bounds[k] = (uint32_t)bench_hash64(((uint64_t)nb << 32) | k);
                    qsort(host_bounds, nb - 1, sizeof host_bounds[0], cmp_u32);
                    BENCH_CUDA(cudaMemcpyAsync(b.boundaries, host_bounds, (nb - 1) * 4, cudaMemcpyHostToDevice, s));
                    BENCH_CUDA(cudaStreamSynchronize(s));
                    c.rule.boundaries = b.boundaries;
                }
                int ok[2] = {-1, -1};
                for (int u = 0; u < 2; ++u) {
                    c.impl = u ? IMPL_UNSTABLE : IMPL_STABLE;
                    if (run_once(&c, s) == 0) ok[u] = verdict(verify_by_properties(&c, !u, s), name, &c, "uniform");
                }
                bench_row rows[2];
                char cell[2][64];
                for (int u = 0; u < 2; ++u) {
                    char impl[48];
                    snprintf(impl, sizeof impl, "multisplit %s %s", name, u ? "unstable" : "stable");
                    fill_row(&rows[u], "rules", impl, &c, "uniform", timed(env, &c, u ? IMPL_UNSTABLE : IMPL_STABLE),
                             ok[u]);
                    snprintf(rows[u].note, sizeof rows[u].note, "input sets %d", c.sets);
                    report_add(&rows[u], env->copy_gbs);
                    report_cell(&rows[u], cell[u], sizeof cell[u]);
                }
                printf("2^%d %-5s %4u %-10s uniform  | %s | %s | %s\n", n_log2, kv ? "pairs" : "keys", nb, name,
                       cell[0], cell[1], ok[0] > 0 && ok[1] > 0 ? "ok" : "FAIL");
                fflush(stdout);
            }
        }
    }
    bufs_free(&b);
}
