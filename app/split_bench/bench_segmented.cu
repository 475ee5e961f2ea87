/* bench_segmented.cu - the "segmented" section of split_bench: split_segmented (stable, key-value,
 * bucket offsets out) on two layouts, beside CUB DeviceSegmentedRadixSort over the bucket bits:
 *  - renderer-like: 16384 segments (tiles), sizes exponential with mean 73 (about 1.2M records),
 *    16 buckets (slabs);
 *  - 2^20 segments of uniformly random sizes 0 .. 32 (about 16.8M records), 16 buckets;
 *  - the renderer's own call, L2-hot (inputs NOT rotated: the renderer splits references it has
 *    just written): n = 2^20 and 2M records in 16384 segments of skewed sizes (about 10% empty, a
 *    long tail up to a few thousand), 16 buckets from key bits [14, 18), values out only (keys_out
 *    NULL), bucket offsets out, the record count read on the device (num_records_device).
 * Keys carry the bucket in bits [0, 4) (BITS rule) except in the renderer rows, values are record
 * indices. Our result is checked against split_segmented_ref (keys, values, offsets), and CUB's
 * against the same reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { SEG_SETS = 8, SEG_LOG2B = 4 };

typedef struct seg_bufs {
    size_t n, num_segments;
    int sets;
    uint32_t *offsets;                   /* device, S + 1 */
    uint32_t *keys[SEG_SETS], *vals[SEG_SETS];
    uint32_t *kout, *vout, *bucket_offsets;
    void *temp;
    size_t temp_bytes;
    int cub;                             /* the operation: 0 ours, 1 CUB */
} seg_bufs;

static split_desc seg_desc(const seg_bufs *b, int set)
{
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = b->n;
    d.keys_in = b->keys[set];
    d.keys_out = b->kout;
    d.values_in = b->vals[set];
    d.values_out = b->vout;
    d.buckets.rule = SPLIT_BUCKETS_BITS;
    d.buckets.bit_count = SEG_LOG2B;
    d.bucket_offsets = b->bucket_offsets;
    d.segment_offsets = b->offsets;
    d.num_segments = b->num_segments;
    return d;
}

static int seg_op(void *ctx, int set, cudaStream_t s)
{
    seg_bufs *b = (seg_bufs *)ctx;
    size_t bytes = b->temp_bytes;
    if (b->cub) {
        cub_segmented_sort_pairs(b->temp, &bytes, b->keys[set], b->kout, b->vals[set], b->vout, b->n, b->num_segments,
                                 b->offsets, 0, SEG_LOG2B, s);
    } else {
        split_desc d = seg_desc(b, set);
        BENCH_SPLIT(split_segmented(b->temp, &bytes, &d, s));
    }
    return 0;
}

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "split_bench: host allocation of %zu bytes failed\n", bytes);
        exit(1);
    }
    return p;
}

/* Mismatches of a device array against a host one. */
static uint64_t diff_host(const uint32_t *dev, const uint32_t *ref, size_t count, cudaStream_t s)
{
    uint32_t *h = (uint32_t *)host_alloc(count * 4);
    BENCH_CUDA(cudaMemcpyAsync(h, dev, count * 4, cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaStreamSynchronize(s));
    uint64_t bad = 0;
    for (size_t i = 0; i < count; ++i) bad += h[i] != ref[i];
    free(h);
    return bad;
}

static void seg_layout(const bench_env *env, const char *name, const uint32_t *sizes, size_t S)
{
    cudaStream_t s = env->stream;
    seg_bufs b;
    memset(&b, 0, sizeof b);
    b.num_segments = S;
    uint32_t *h_off = (uint32_t *)host_alloc((S + 1) * 4);
    h_off[0] = 0;
    for (size_t i = 0; i < S; ++i) h_off[i + 1] = h_off[i] + sizes[i];
    const size_t n = h_off[S], nb = 1u << SEG_LOG2B;
    b.n = n;
    b.sets = bench_sets_for(env, n * 8);
    b.offsets = (uint32_t *)bench_alloc((S + 1) * 4);
    BENCH_CUDA(cudaMemcpyAsync(b.offsets, h_off, (S + 1) * 4, cudaMemcpyHostToDevice, s));
    for (int i = 0; i < b.sets; ++i) {
        b.keys[i] = (uint32_t *)bench_alloc(n * 4);
        b.vals[i] = (uint32_t *)bench_alloc(n * 4);
        bench_gen_u32(b.keys[i], n, bench_hash64(0x5e6ull ^ ((uint64_t)S << 8) ^ i), s);
        bench_gen_iota(b.vals[i], n, s);
    }
    b.kout = (uint32_t *)bench_alloc(n * 4);
    b.vout = (uint32_t *)bench_alloc(n * 4);
    b.bucket_offsets = (uint32_t *)bench_alloc((S * nb + 1) * 4);
    size_t ours = 0, cub = 0;
    split_desc d = seg_desc(&b, 0);
    if (split_segmented(NULL, &ours, &d, s) != SC_OK) {
        bench_fail("split_segmented size query: %s", sc_last_error());
        ours = 0;
    }
    cub_segmented_sort_pairs(NULL, &cub, b.keys[0], b.kout, b.vals[0], b.vout, n, S, b.offsets, 0, SEG_LOG2B, s);
    b.temp_bytes = ours > cub ? ours : cub;
    b.temp = bench_alloc(b.temp_bytes);

    /* Reference on the host, input set 0. */
    uint32_t *hk = (uint32_t *)host_alloc(n * 4), *hv = (uint32_t *)host_alloc(n * 4);
    uint32_t *rk = (uint32_t *)host_alloc(n * 4), *rv = (uint32_t *)host_alloc(n * 4);
    uint32_t *ro = (uint32_t *)host_alloc((S * nb + 1) * 4);
    BENCH_CUDA(cudaMemcpyAsync(hk, b.keys[0], n * 4, cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaMemcpyAsync(hv, b.vals[0], n * 4, cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaStreamSynchronize(s));
    split_desc r = seg_desc(&b, 0);
    r.keys_in = hk;
    r.keys_out = rk;
    r.values_in = hv;
    r.values_out = rv;
    r.bucket_offsets = ro;
    r.segment_offsets = h_off;
    int ok[2] = {-1, -1};
    sc_status st = split_segmented_ref(&r);
    if (st != SC_OK) bench_fail("split_segmented_ref: %s", sc_last_error());
    for (int impl = 0; impl < 2 && st == SC_OK; ++impl) {
        b.cub = impl;
        bench_poison(b.kout, n * 4, s);
        bench_poison(b.vout, n * 4, s);
        bench_poison(b.bucket_offsets, (S * nb + 1) * 4, s);
        if (seg_op(&b, 0, s) != 0) continue;
        uint64_t bad = diff_host(b.kout, rk, n, s) + diff_host(b.vout, rv, n, s);
        if (!impl) bad += diff_host(b.bucket_offsets, ro, S * nb + 1, s);
        ok[impl] = bad == 0 ? 1 : -1;
        if (bad) bench_fail("segmented %s (%s): %llu mismatches against split_segmented_ref", impl ? "CUB" : "ours",
                            name, (unsigned long long)bad);
    }
    bench_row rows[2];
    char cell[2][64];
    for (int impl = 0; impl < 2; ++impl) {
        b.cub = impl;
        bench_row *row = &rows[impl];
        memset(row, 0, sizeof *row);
        snprintf(row->section, sizeof row->section, "segmented");
        snprintf(row->impl, sizeof row->impl, "%s", impl ? "cub DeviceSegmentedRadixSort 4 bits" : "split_segmented");
        snprintf(row->payload, sizeof row->payload, "pairs");
        snprintf(row->dist, sizeof row->dist, "%s", name);
        snprintf(row->note, sizeof row->note, "%zu segments, input sets %d", S, b.sets);
        row->n = n;
        row->buckets = (uint32_t)nb;
        row->passes = 1;
        row->ms = bench_time_ms(env, seg_op, &b, b.sets);
        row->model_bytes = 20.0 * (double)n + 4.0 * (double)(S + 1) + (impl ? 0.0 : 4.0 * (double)(S * nb + 1));
        row->verified = ok[impl];
        report_add(row, env->copy_gbs);
        report_cell(row, cell[impl], sizeof cell[impl]);
    }
    double x = rows[0].ms > 0 ? rows[1].ms / rows[0].ms : 0.0;
    printf("%-14s %8zu seg %9zu rec | %s | %s | %6.2fx %s\n", name, S, n, cell[0], cell[1], x,
           ok[0] > 0 && ok[1] > 0 ? "ok" : "FAIL");
    fflush(stdout);
    free(hk);
    free(hv);
    free(rk);
    free(rv);
    free(ro);
    free(h_off);
    for (int i = 0; i < b.sets; ++i) {
        bench_free(b.keys[i]);
        bench_free(b.vals[i]);
    }
    void *p[] = {b.offsets, b.kout, b.vout, b.bucket_offsets, b.temp};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i) bench_free(p[i]);
}

/* Segment sizes of the renderer rows: S sizes summing to n exactly. Weights: 10% empty, else
 * u^3-shaped (most tiles small, some a few times the mean) and 1 in 400 a tail tile of 8 .. 40 times
 * the mean weight (clamped to a few thousand records after scaling). */
static void renderer_sizes(uint32_t *sizes, size_t S, size_t n)
{
    double *w = (double *)host_alloc(S * sizeof(double)), sum = 0;
    for (size_t i = 0; i < S; ++i) {
        uint64_t h = bench_hash64(0x7e11ull + i);
        double u = ((double)(h >> 11) + 0.5) / 9007199254740992.0;
        if (h % 10 == 0) w[i] = 0.0;
        else if ((h >> 7) % 400 == 0) w[i] = 8.0 + 32.0 * u;
        else w[i] = 0.15 + 3.0 * u * u * u;
        sum += w[i];
    }
    const double cap = 4000.0;
    size_t at = 0;
    double run = 0;
    for (size_t i = 0; i < S; ++i) {
        run += w[i];
        size_t e = i + 1 == S ? n : (size_t)((double)n * run / sum);
        if (e < at) e = at;
        if ((double)(e - at) > cap) e = at + (size_t)cap;
        if (e > n) e = n;
        sizes[i] = (uint32_t)(e - at);
        at = e;
    }
    sizes[S - 1] += (uint32_t)(n - at); /* the rest (none unless the cap cut a tile) */
    free(w);
}

typedef struct seg_hot {
    split_desc d;
    void *temp;
    size_t temp_bytes;
} seg_hot;

static int seg_hot_op(void *ctx, int set, cudaStream_t s)
{
    (void)set;
    seg_hot *h = (seg_hot *)ctx;
    size_t bytes = h->temp_bytes;
    BENCH_SPLIT(split_segmented(h->temp, &bytes, &h->d, s));
    return 0;
}

/* The renderer's call, one input set (L2-hot), verified against the reference. */
static void seg_renderer_hot(const bench_env *env, size_t n)
{
    cudaStream_t s = env->stream;
    const size_t S = 16384, nb = 16;
    uint32_t *sizes = (uint32_t *)host_alloc(S * 4), *h_off = (uint32_t *)host_alloc((S + 1) * 4);
    renderer_sizes(sizes, S, n);
    uint32_t max_size = 0;
    h_off[0] = 0;
    for (size_t i = 0; i < S; ++i) {
        h_off[i + 1] = h_off[i] + sizes[i];
        if (sizes[i] > max_size) max_size = sizes[i];
    }
    uint32_t *keys = (uint32_t *)bench_alloc(n * 4), *vals = (uint32_t *)bench_alloc(n * 4);
    uint32_t *vout = (uint32_t *)bench_alloc(n * 4), *offs = (uint32_t *)bench_alloc((S * nb + 1) * 4);
    uint32_t *d_off = (uint32_t *)bench_alloc((S + 1) * 4), *d_count = (uint32_t *)bench_alloc(4);
    const uint32_t count = (uint32_t)n;
    BENCH_CUDA(cudaMemcpyAsync(d_off, h_off, (S + 1) * 4, cudaMemcpyHostToDevice, s));
    BENCH_CUDA(cudaMemcpyAsync(d_count, &count, 4, cudaMemcpyHostToDevice, s));
    bench_gen_u32(keys, n, bench_hash64(0x4e7ull ^ n), s);
    bench_gen_iota(vals, n, s);
    seg_hot h;
    memset(&h, 0, sizeof h);
    h.d.key_type = SPLIT_KEY_U32;
    h.d.n = n;
    h.d.keys_in = keys;
    h.d.values_in = vals;
    h.d.values_out = vout;
    h.d.buckets.rule = SPLIT_BUCKETS_BITS;
    h.d.buckets.start_bit = 14;
    h.d.buckets.bit_count = SEG_LOG2B;
    h.d.bucket_offsets = offs;
    h.d.segment_offsets = d_off;
    h.d.num_segments = S;
    h.d.num_records_device = d_count;
    if (split_segmented(NULL, &h.temp_bytes, &h.d, s) != SC_OK)
        bench_fail("split_segmented size query: %s", sc_last_error());
    h.temp = bench_alloc(h.temp_bytes);

    uint32_t *hk = (uint32_t *)host_alloc(n * 4), *hv = (uint32_t *)host_alloc(n * 4);
    uint32_t *rv = (uint32_t *)host_alloc(n * 4), *ro = (uint32_t *)host_alloc((S * nb + 1) * 4);
    BENCH_CUDA(cudaMemcpyAsync(hk, keys, n * 4, cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaMemcpyAsync(hv, vals, n * 4, cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaStreamSynchronize(s));
    split_desc r = h.d;
    r.keys_in = hk;
    r.values_in = hv;
    r.values_out = rv;
    r.bucket_offsets = ro;
    r.segment_offsets = h_off;
    r.num_records_device = &count;
    int ok = -1;
    if (split_segmented_ref(&r) != SC_OK) {
        bench_fail("split_segmented_ref: %s", sc_last_error());
    } else {
        bench_poison(vout, n * 4, s);
        bench_poison(offs, (S * nb + 1) * 4, s);
        if (seg_hot_op(&h, 0, s) == 0) {
            uint64_t bad = diff_host(vout, rv, n, s) + diff_host(offs, ro, S * nb + 1, s);
            ok = bad == 0 ? 1 : -1;
            if (bad) bench_fail("segmented renderer L2-hot n=%zu: %llu mismatches against split_segmented_ref", n,
                                (unsigned long long)bad);
        }
    }
    bench_row row;
    memset(&row, 0, sizeof row);
    snprintf(row.section, sizeof row.section, "segmented");
    snprintf(row.impl, sizeof row.impl, "split_segmented");
    snprintf(row.payload, sizeof row.payload, "values only");
    snprintf(row.dist, sizeof row.dist, "renderer L2-hot");
    snprintf(row.note, sizeof row.note, "%zu segments (largest %u), bits [14,18), device count, inputs not rotated", S,
             max_size);
    row.n = n;
    row.buckets = (uint32_t)nb;
    row.passes = 1;
    row.ms = bench_time_ms(env, seg_hot_op, &h, 1);
    row.model_bytes = 12.0 * (double)n + 4.0 * (double)(S + 1) + 4.0 * (double)(S * nb + 1);
    row.verified = ok;
    report_add(&row, env->copy_gbs);
    char cell[64];
    report_cell(&row, cell, sizeof cell);
    printf("%-38s | %8zu seg %9zu rec, largest %5u | %s (%.1f us) %s\n", "renderer L2-hot, values only", S, n,
           max_size, cell, row.ms * 1e3, ok > 0 ? "ok" : "FAIL");
    fflush(stdout);
    free(sizes), free(h_off), free(hk), free(hv), free(rv), free(ro);
    void *p[] = {keys, vals, vout, offs, d_off, d_count, h.temp};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i) bench_free(p[i]);
}

void bench_section_segmented(const bench_env *env);

void bench_section_segmented(const bench_env *env)
{
    printf("\n== segmented split, 16 buckets, key-value, bucket offsets out; %% of copy bandwidth under 20 B/pair "
           "+ 4 B per segment offset + 4 B per bucket offset ==\n");
    printf("%-38s | %-27s | %-27s | %s\n", "layout", "ours (stable)", "CUB segmented radix sort 4 bits",
           "ours speed / CUB");
    const size_t s1 = 16384, s2 = (size_t)1 << 20;
    uint32_t *sizes = (uint32_t *)host_alloc(s2 * 4);
    for (size_t i = 0; i < s1; ++i) { /* exponential, mean 73 */
        double u = ((double)(bench_hash64(0x7113ull + i) >> 11) + 0.5) / 9007199254740992.0;
        sizes[i] = (uint32_t)floor(-73.0 * log(u));
    }
    seg_layout(env, "renderer-like", sizes, s1);
    for (size_t i = 0; i < s2; ++i) sizes[i] = (uint32_t)(bench_hash64(0x5a11ull + i) % 33);
    seg_layout(env, "1M small", sizes, s2);
    free(sizes);
    printf("\n-- the renderer's call: 16 buckets by key bits [14, 18), values out only, bucket offsets, device record "
           "count; inputs NOT rotated (L2-hot, as in the frame); %% of copy bandwidth under 12 B/record --\n");
    seg_renderer_hot(env, (size_t)1 << 20);
    seg_renderer_hot(env, (size_t)2000000);
}
