/* bench_wide.cu - "wide" section of split_bench: the unstable multisplit with many buckets.
 *
 * Key-value pairs (uint32 keys, values 0 .. n-1), BITS rule over the low log2 B bits, uniform
 * buckets, n in {2^20, 2^24}, B in {16384, 2^20}: split_multisplit unstable counting its own
 * buckets, the same with the caller's bucket_counts (counted once per input set by an independent
 * histogram, outside the timing), and beside them CUB DeviceRadixSort::SortPairs over the log2 B
 * bucket bits. Each result (CUB's too) is verified once on input set 0 with poisoned outputs: bucket
 * offsets equal the histogram's exclusive scan, every output key lies in its bucket, values are a
 * permutation with keys_out[j] = keys_in[values_out[j]] (and for CUB, ascending inside each bucket).
 * Byte model: 20 B/pair like the split section (with counts given the count pass's 4 B are not
 * spent, so its % reads low by a fifth). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { WIDE_MAX_SETS = 8 };
static const int k_wide_nlog2[] = {20, 24};
static const uint32_t k_wide_log2b[] = {14, 20};

typedef enum wide_impl { WIDE_OURS, WIDE_OURS_COUNTS, WIDE_CUB_BITS } wide_impl;

typedef struct wide_bufs {
    size_t n;
    int sets;
    uint32_t *keys[WIDE_MAX_SETS], *vals[WIDE_MAX_SETS], *counts[WIDE_MAX_SETS];
    uint32_t *kout, *vout, *offsets, *cub_offsets;
    void *temp;
    size_t temp_bytes;
} wide_bufs;

typedef struct wide_ctx {
    wide_bufs *b;
    wide_impl impl;
    split_buckets rule;
    int sets;
} wide_ctx;

static split_desc wide_desc(const wide_ctx *c, int set, int with_counts)
{
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = c->b->n;
    d.keys_in = c->b->keys[set];
    d.keys_out = c->b->kout;
    d.values_in = c->b->vals[set];
    d.values_out = c->b->vout;
    d.buckets = c->rule;
    d.bucket_offsets = c->b->offsets;
    d.unstable = 1;
    d.bucket_counts = with_counts ? c->b->counts[set] : NULL;
    return d;
}

static int wide_op(void *ctx, int set, cudaStream_t s)
{
    const wide_ctx *c = (const wide_ctx *)ctx;
    wide_bufs *b = c->b;
    size_t bytes = b->temp_bytes;
    if (c->impl == WIDE_CUB_BITS) {
        cub_sort_pairs_u32(b->temp, &bytes, b->keys[set], b->kout, b->vals[set], b->vout, b->n, 0,
                           (int)c->rule.bit_count, s);
        return 0;
    }
    split_desc d = wide_desc(c, set, c->impl == WIDE_OURS_COUNTS);
    BENCH_SPLIT(split_multisplit(b->temp, &bytes, &d, s));
    return 0;
}

/* Largest temporary storage of the section's operations at this n. */
static size_t wide_temp_need(wide_bufs *b, cudaStream_t s)
{
    size_t need = 0;
    for (size_t i = 0; i < sizeof k_wide_log2b / sizeof k_wide_log2b[0]; ++i) {
        wide_ctx c;
        memset(&c, 0, sizeof c);
        c.b = b;
        c.rule.rule = SPLIT_BUCKETS_BITS;
        c.rule.bit_count = k_wide_log2b[i];
        for (int with_counts = 0; with_counts < 2; ++with_counts) {
            split_desc d = wide_desc(&c, 0, with_counts);
            size_t x = 0;
            if (split_multisplit(NULL, &x, &d, s) != SC_OK)
                bench_fail("split_multisplit size query: %s", sc_last_error());
            if (x > need) need = x;
        }
        size_t x = 0;
        cub_sort_pairs_u32(NULL, &x, b->keys[0], b->kout, b->vals[0], b->vout, b->n, 0, (int)k_wide_log2b[i], s);
        if (x > need) need = x;
    }
    return need;
}

static void wide_alloc(wide_bufs *b, const bench_env *env, size_t n)
{
    memset(b, 0, sizeof *b);
    const uint32_t max_b = 1u << k_wide_log2b[sizeof k_wide_log2b / sizeof k_wide_log2b[0] - 1];
    b->n = n;
    b->sets = bench_sets_for(env, n * 8);
    if (b->sets > WIDE_MAX_SETS) b->sets = WIDE_MAX_SETS;
    for (int i = 0; i < b->sets; ++i) {
        b->keys[i] = (uint32_t *)bench_alloc(n * 4);
        b->vals[i] = (uint32_t *)bench_alloc(n * 4);
        b->counts[i] = (uint32_t *)bench_alloc((size_t)max_b * 4);
        bench_gen_iota(b->vals[i], n, env->stream);
    }
    b->kout = (uint32_t *)bench_alloc(n * 4);
    b->vout = (uint32_t *)bench_alloc(n * 4);
    b->offsets = (uint32_t *)bench_alloc(((size_t)max_b + 1) * 4);
    b->cub_offsets = (uint32_t *)bench_alloc(((size_t)max_b + 1) * 4);
    b->temp_bytes = wide_temp_need(b, env->stream);
    b->temp = bench_alloc(b->temp_bytes);
}

static void wide_free(wide_bufs *b)
{
    for (int i = 0; i < b->sets; ++i) {
        bench_free(b->keys[i]);
        bench_free(b->vals[i]);
        bench_free(b->counts[i]);
    }
    bench_free(b->kout);
    bench_free(b->vout);
    bench_free(b->offsets);
    bench_free(b->cub_offsets);
    bench_free(b->temp);
}

/* Exclusive scan of a device histogram into device offsets (B + 1 entries), on the host. */
static void scan_counts(const uint32_t *counts, uint32_t nb, uint32_t *offsets, cudaStream_t s)
{
    uint32_t *h = (uint32_t *)malloc(((size_t)nb + 1) * 4);
    if (!h) {
        fprintf(stderr, "split_bench: out of host memory\n");
        exit(1);
    }
    BENCH_CUDA(cudaMemcpyAsync(h, counts, (size_t)nb * 4, cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaStreamSynchronize(s));
    uint32_t run = 0;
    for (uint32_t b = 0; b < nb; ++b) {
        const uint32_t c = h[b];
        h[b] = run;
        run += c;
    }
    h[nb] = run;
    BENCH_CUDA(cudaMemcpyAsync(offsets, h, ((size_t)nb + 1) * 4, cudaMemcpyHostToDevice, s));
    BENCH_CUDA(cudaStreamSynchronize(s));
    free(h);
}

/* Runs one implementation once on set 0 with poisoned outputs and verifies it: 1 correct, -1 not. */
static int wide_verify(wide_ctx *c, wide_impl impl, cudaStream_t s)
{
    wide_bufs *b = c->b;
    const uint32_t nb = 1u << c->rule.bit_count;
    c->impl = impl;
    bench_poison(b->kout, b->n * 4, s);
    bench_poison(b->vout, b->n * 4, s);
    bench_poison(b->offsets, ((size_t)nb + 1) * 4, s);
    if (wide_op(c, 0, s) != 0) return -1;
    BENCH_CUDA(cudaStreamSynchronize(s));
    bench_rule r = bench_rule_of(&c->rule);
    const uint32_t *offsets = b->offsets;
    if (impl == WIDE_CUB_BITS) { /* CUB gives no offsets: the histogram's scan groups its output */
        scan_counts(b->counts[0], nb, b->cub_offsets, s);
        offsets = b->cub_offsets;
    }
    uint64_t bad = bench_check_offsets(offsets, b->keys[0], b->n, &r, s);
    bad += bench_check_split(b->keys[0], b->kout, b->vout, offsets, b->n, &r, impl == WIDE_CUB_BITS, s);
    if (bad == 0) return 1;
    static const char *const names[] = {"wide unstable", "wide unstable, counts given", "cub SortPairs bucket bits"};
    bench_fail("%s: %llu mismatches (n = %zu, pairs, B = %u, uniform)", names[impl], (unsigned long long)bad, b->n,
               nb);
    return -1;
}

void bench_section_wide(const bench_env *env);

void bench_section_wide(const bench_env *env)
{
    cudaStream_t s = env->stream;
    printf("\n== wide multisplit (unstable, BITS rule: bucket = key & (B-1)), key-value pairs, uniform; time, "
           "G pairs/s, %% of copy bandwidth under 20 B/pair ==\n");
    printf("%-22s | %-27s | %-27s | %-27s | %s\n", "n     payload B", "ours unstable", "ours, bucket_counts given",
           "CUB SortPairs log2(B) bits", "speed / CUB (ours, counts given)");
    for (size_t ni = 0; ni < sizeof k_wide_nlog2 / sizeof k_wide_nlog2[0]; ++ni) {
        const int n_log2 = k_wide_nlog2[ni];
        wide_bufs b;
        wide_alloc(&b, env, (size_t)1 << n_log2);
        for (size_t bi = 0; bi < sizeof k_wide_log2b / sizeof k_wide_log2b[0]; ++bi) {
            const uint32_t log2b = k_wide_log2b[bi];
            wide_ctx c;
            memset(&c, 0, sizeof c);
            c.b = &b;
            c.rule.rule = SPLIT_BUCKETS_BITS;
            c.rule.bit_count = log2b;
            c.sets = b.sets;
            bench_rule r = bench_rule_of(&c.rule);
            for (int i = 0; i < c.sets; ++i) {
                const uint64_t seed = bench_hash64(0x77ull ^ ((uint64_t)n_log2 << 32) ^ ((uint64_t)log2b << 16) ^ i);
                bench_gen_bucket_keys(b.keys[i], b.n, log2b, BENCH_DIST_UNIFORM, seed, s);
                bench_histogram(b.keys[i], b.n, &r, b.counts[i], s);
            }
            int ok[3];
            for (int impl = 0; impl < 3; ++impl) ok[impl] = wide_verify(&c, (wide_impl)impl, s);
            static const char *const impls[] = {"wide unstable", "wide unstable counts given",
                                                "cub SortPairs bucket bits"};
            bench_row rows[3];
            char cell[3][64];
            for (int impl = 0; impl < 3; ++impl) {
                c.impl = (wide_impl)impl;
                const double ms = bench_time_ms(env, wide_op, &c, c.sets);
                bench_row *row = &rows[impl];
                memset(row, 0, sizeof *row);
                snprintf(row->section, sizeof row->section, "wide");
                snprintf(row->impl, sizeof row->impl, "%s", impls[impl]);
                snprintf(row->payload, sizeof row->payload, "pairs");
                snprintf(row->dist, sizeof row->dist, "%s", bench_dist_name(BENCH_DIST_UNIFORM));
                snprintf(row->note, sizeof row->note, "input sets %d", c.sets);
                row->n = b.n;
                row->buckets = 1u << log2b;
                row->passes = 1;
                row->ms = ms;
                row->model_bytes = (double)b.n * 20.0;
                row->verified = ok[impl];
                report_add(row, env->copy_gbs);
                report_cell(row, cell[impl], sizeof cell[impl]);
            }
            const double x0 = rows[0].ms > 0 ? rows[2].ms / rows[0].ms : 0.0;
            const double x1 = rows[1].ms > 0 ? rows[2].ms / rows[1].ms : 0.0;
            printf("2^%d pairs %7u uniform | %s | %s | %s | %5.2fx %5.2fx %s\n", n_log2, 1u << log2b, cell[0], cell[1],
                   cell[2], x0, x1, ok[0] > 0 && ok[1] > 0 && ok[2] > 0 ? "ok" : "FAIL");
            fflush(stdout);
        }
        wide_free(&b);
    }
}
