/* bench_sort.cu - the "sort" and "records" sections of split_bench.
 * sort: split_sort (SplitSort) of uniformly random 32- and 64-bit keys, key-only and with 32-bit
 * values, beside CUB DeviceRadixSort SortKeys / SortPairs; our output must equal CUB's (both stable;
 * values are indices). records: 2^24 records of 128 bytes sorted by a separate 32-bit key, beside
 * CUB SortPairs(key, index) followed by a plain record gather; outputs compared; Patidar 2009's
 * figure (379 ms on a GTX 280-class GPU) printed beside it. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

enum { SORT_SETS = 8 };

typedef struct sort_ctx {
    size_t n;
    uint32_t key_bits;   /* 32 or 64 */
    int kv, cub, sets;
    void *keys[SORT_SETS];
    uint32_t *vals[SORT_SETS];
    void *kout, *cub_kout;
    uint32_t *vout, *cub_vout;
    void *temp;
    size_t temp_bytes;
} sort_ctx;

static int sort_op(void *ctx, int set, cudaStream_t s)
{
    sort_ctx *c = (sort_ctx *)ctx;
    size_t bytes = c->temp_bytes;
    const uint32_t *vin = c->kv ? c->vals[set] : NULL;
    if (c->cub) {
        uint32_t *vout = c->kv ? c->cub_vout : NULL;
        if (c->key_bits == 32) {
            if (c->kv) cub_sort_pairs_u32(c->temp, &bytes, (const uint32_t *)c->keys[set], (uint32_t *)c->cub_kout, vin,
                                          vout, c->n, 0, 32, s);
            else cub_sort_keys_u32(c->temp, &bytes, (const uint32_t *)c->keys[set], (uint32_t *)c->cub_kout, c->n, 0, 32, s);
        } else {
            if (c->kv) cub_sort_pairs_u64(c->temp, &bytes, (const uint64_t *)c->keys[set], (uint64_t *)c->cub_kout, vin,
                                          vout, c->n, s);
            else cub_sort_keys_u64(c->temp, &bytes, (const uint64_t *)c->keys[set], (uint64_t *)c->cub_kout, c->n, s);
        }
        if (!c->temp) c->temp_bytes = bytes; /* size query */
        return 0;
    }
    split_sort_desc d;
    memset(&d, 0, sizeof d);
    d.key_bits = c->key_bits;
    d.n = c->n;
    d.keys_in = c->keys[set];
    d.keys_out = c->kout;
    d.values_in = vin;
    d.values_out = c->kv ? c->vout : NULL;
    BENCH_SPLIT(split_sort(c->temp, &bytes, &d, s));
    if (!c->temp) c->temp_bytes = bytes;
    return 0;
}

static void sort_config(const bench_env *env, int n_log2, uint32_t key_bits, int kv)
{
    cudaStream_t s = env->stream;
    sort_ctx c;
    memset(&c, 0, sizeof c);
    const size_t n = (size_t)1 << n_log2, kb = key_bits / 8;
    c.n = n;
    c.key_bits = key_bits;
    c.kv = kv;
    c.sets = bench_sets_for(env, n * (kb + (kv ? 4 : 0)));
    for (int i = 0; i < c.sets; ++i) {
        c.keys[i] = bench_alloc(n * kb);
        uint64_t seed = bench_hash64(0x50e7ull ^ ((uint64_t)n_log2 << 16) ^ (key_bits << 8) ^ (uint64_t)i);
        if (key_bits == 32) bench_gen_u32((uint32_t *)c.keys[i], n, seed, s);
        else bench_gen_u64((uint64_t *)c.keys[i], n, seed, s);
        if (kv) {
            c.vals[i] = (uint32_t *)bench_alloc(n * 4);
            bench_gen_iota(c.vals[i], n, s);
        }
    }
    c.kout = bench_alloc(n * kb);
    c.cub_kout = bench_alloc(n * kb);
    if (kv) {
        c.vout = (uint32_t *)bench_alloc(n * 4);
        c.cub_vout = (uint32_t *)bench_alloc(n * 4);
    }
    size_t need = 0;
    for (int impl = 0; impl < 2; ++impl) { /* temp == NULL: size queries */
        c.cub = impl;
        c.temp_bytes = 0;
        sort_op(&c, 0, s);
        if (c.temp_bytes > need) need = c.temp_bytes;
    }
    c.temp_bytes = need;
    c.temp = bench_alloc(need);
    c.cub = 1;

    /* Verify: CUB's sort of set 0, then ours, compared word by word. */
    sort_op(&c, 0, s);
    c.cub = 0;
    bench_poison(c.kout, n * kb, s);
    if (kv) bench_poison(c.vout, n * 4, s);
    int ok = -1;
    if (sort_op(&c, 0, s) == 0) {
        uint64_t bad = bench_diff_u32((const uint32_t *)c.kout, (const uint32_t *)c.cub_kout, n * kb / 4, s);
        if (kv) bad += bench_diff_u32(c.vout, c.cub_vout, n, s);
        ok = bad == 0 ? 1 : -1;
        if (bad) bench_fail("split_sort %u-bit %s, n = 2^%d: %llu words differ from CUB", key_bits, kv ? "pairs" : "keys",
                            n_log2, (unsigned long long)bad);
    }
    bench_row rows[2];
    char cell[2][64];
    char payload[16];
    snprintf(payload, sizeof payload, "u%u %s", key_bits, kv ? "pairs" : "keys");
    for (int impl = 0; impl < 2; ++impl) {
        c.cub = impl;
        bench_row *row = &rows[impl];
        memset(row, 0, sizeof *row);
        snprintf(row->section, sizeof row->section, "sort");
        snprintf(row->impl, sizeof row->impl, "%s", impl ? (kv ? "cub SortPairs" : "cub SortKeys") : "split_sort");
        snprintf(row->payload, sizeof row->payload, "%s", payload);
        snprintf(row->dist, sizeof row->dist, "uniform");
        snprintf(row->note, sizeof row->note, "input sets %d", c.sets);
        row->n = n;
        row->passes = key_bits / 8;
        row->ms = bench_time_ms(env, sort_op, &c, c.sets);
        row->verified = impl ? 0 : ok;
        report_add(row, env->copy_gbs);
        report_cell(row, cell[impl], sizeof cell[impl]);
    }
    double x = rows[0].ms > 0 ? rows[1].ms / rows[0].ms : 0.0;
    printf("2^%d %-10s | %s | %s | %5.2fx %s\n", n_log2, payload, cell[0], cell[1], x, ok > 0 ? "ok" : "FAIL");
    fflush(stdout);
    for (int i = 0; i < c.sets; ++i) {
        bench_free(c.keys[i]);
        bench_free(c.vals[i]);
    }
    void *p[] = {c.kout, c.cub_kout, c.vout, c.cub_vout, c.temp};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i) bench_free(p[i]);
}

void bench_section_sort(const bench_env *env, int n_log2);
void bench_section_records(const bench_env *env);

void bench_section_sort(const bench_env *env, int n_log2)
{
    printf("\n== split_sort vs CUB DeviceRadixSort, uniform keys, n = 2^%d; time, G keys/s ==\n", n_log2);
    printf("%-15s | %-19s | %-19s | %s\n", "n     keys", "split_sort", "CUB radix sort", "ours speed / CUB");
    for (uint32_t kb = 32; kb <= 64; kb += 32)
        for (int kv = 0; kv < 2; ++kv) sort_config(env, n_log2, kb, kv);
}

/* ---- records ---- */
typedef struct rec_ctx {
    size_t n, rb;
    const uint32_t *keys;
    const void *recs;
    uint32_t *kout, *cub_kout, *iota, *idx;
    void *rout, *cub_rout;
    void *temp;
    size_t temp_bytes;
    int cub;
} rec_ctx;

static int rec_op(void *ctx, int set, cudaStream_t s)
{
    rec_ctx *c = (rec_ctx *)ctx;
    size_t bytes = c->temp_bytes;
    if (c->cub) {
        cub_sort_pairs_u32(c->temp, &bytes, c->keys, c->cub_kout, c->iota, c->idx, c->n, 0, 32, s);
        if (c->temp) baseline_gather(c->recs, c->cub_rout, c->idx, c->n, c->rb, s);
        if (!c->temp) c->temp_bytes = bytes;
        return 0;
    }
    split_sort_desc d;
    memset(&d, 0, sizeof d);
    d.key_bits = 32;
    d.n = c->n;
    d.keys_in = c->keys;
    d.keys_out = c->kout;
    d.records_in = c->recs;
    d.records_out = c->rout;
    d.record_bytes = c->rb;
    BENCH_SPLIT(split_sort(c->temp, &bytes, &d, s));
    if (!c->temp) c->temp_bytes = bytes;
    return 0;
}

void bench_section_records(const bench_env *env)
{
    cudaStream_t s = env->stream;
    rec_ctx c;
    memset(&c, 0, sizeof c);
    c.n = (size_t)1 << 24;
    c.rb = 128;
    const size_t n = c.n;
    uint32_t *keys = (uint32_t *)bench_alloc(n * 4);
    void *recs = bench_alloc(n * c.rb);
    bench_gen_u32(keys, n, 0x4ec0ull, s);
    bench_fill_records((uint32_t *)recs, n, (uint32_t)(c.rb / 4), 0x4ec1ull, s);
    c.keys = keys;
    c.recs = recs;
    c.kout = (uint32_t *)bench_alloc(n * 4);
    c.cub_kout = (uint32_t *)bench_alloc(n * 4);
    c.iota = (uint32_t *)bench_alloc(n * 4);
    c.idx = (uint32_t *)bench_alloc(n * 4);
    c.rout = bench_alloc(n * c.rb);
    c.cub_rout = bench_alloc(n * c.rb);
    bench_gen_iota(c.iota, n, s);
    size_t need = 0;
    for (int impl = 0; impl < 2; ++impl) {
        c.cub = impl;
        c.temp = NULL;
        c.temp_bytes = 0;
        rec_op(&c, 0, s);
        if (c.temp_bytes > need) need = c.temp_bytes;
    }
    c.temp_bytes = need;
    c.temp = bench_alloc(need);
    c.cub = 1;
    rec_op(&c, 0, s);
    c.cub = 0;
    bench_poison(c.kout, n * 4, s);
    bench_poison(c.rout, n * c.rb, s);
    int ok = -1;
    if (rec_op(&c, 0, s) == 0) {
        uint64_t bad = bench_diff_u32(c.kout, c.cub_kout, n, s) +
                       bench_diff_u32((const uint32_t *)c.rout, (const uint32_t *)c.cub_rout, n * c.rb / 4, s);
        ok = bad == 0 ? 1 : -1;
        if (bad) bench_fail("split_sort of 128-byte records: %llu words differ from CUB + gather", (unsigned long long)bad);
    }
    printf("\n== sorting 2^24 records of 128 bytes by a 32-bit key (Patidar 2009: 379 ms on a GTX 280-class GPU) ==\n");
    bench_row rows[2];
    for (int impl = 0; impl < 2; ++impl) {
        c.cub = impl;
        bench_row *row = &rows[impl];
        memset(row, 0, sizeof *row);
        snprintf(row->section, sizeof row->section, "records");
        snprintf(row->impl, sizeof row->impl, "%s", impl ? "cub SortPairs(key, index) + gather" : "split_sort records");
        snprintf(row->payload, sizeof row->payload, "128B rec");
        snprintf(row->dist, sizeof row->dist, "uniform");
        snprintf(row->note, sizeof row->note, "paper: 379 ms on a GTX 280");
        row->n = n;
        row->passes = 4;
        row->ms = bench_time_ms(env, rec_op, &c, 1);
        row->verified = impl ? 0 : ok;
        report_add(row, env->copy_gbs);
    }
    printf("split_sort (key, index) + gather: %8.3f ms (%.1f M records/s), %.0fx the paper's 379 ms  %s\n", rows[0].ms,
           rows[0].gitems * 1e3, rows[0].ms > 0 ? 379.0 / rows[0].ms : 0.0, ok > 0 ? "ok" : "FAIL");
    printf("CUB SortPairs + gather:           %8.3f ms (%.1f M records/s); ours vs CUB %.2fx\n", rows[1].ms,
           rows[1].gitems * 1e3, rows[0].ms > 0 ? rows[1].ms / rows[0].ms : 0.0);
    fflush(stdout);
    void *p[] = {keys, recs, c.kout, c.cub_kout, c.iota, c.idx, c.rout, c.cub_rout, c.temp};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i) bench_free(p[i]);
}
