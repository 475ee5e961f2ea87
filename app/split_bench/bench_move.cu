/* bench_move.cu - the "move" section of split_bench: split_gather / split_scatter of n records of
 * 4 .. 512 bytes by a uniformly random permutation, with 1, 2, 4, 8 and 16 passes and with the pass
 * count the library's model picks (num_passes = 0, split_move_passes), at n = 2^20 (the indexed side
 * of small records fits the L2) and n = 2^24, or at the counts of --move-n. Bandwidth counts
 * n * (2 * record_bytes + 4) bytes (record read, record written, index read) whatever the number of
 * passes. Every result is checked against the records' generating function. Per record size and
 * direction the table shows the model's choice, its time and its time over the best of the listed pass
 * counts (the model's target: within 10 %). */
#include <stdio.h>
#include <string.h>

#include "bench.h"

typedef struct move_ctx {
    split_move_desc d;
    int gather;
} move_ctx;

static int move_op(void *ctx, int set, cudaStream_t s)
{
    (void)set;
    const move_ctx *c = (const move_ctx *)ctx;
    if (c->gather) BENCH_SPLIT(split_gather(&c->d, s));
    else BENCH_SPLIT(split_scatter(&c->d, s));
    return 0;
}

void bench_section_move(const bench_env *env);

enum { NUM_PASS_COUNTS = 5, NUM_RECORD_SIZES = 8 };
static const uint32_t pass_counts[NUM_PASS_COUNTS] = {1, 2, 4, 8, 16};
static const size_t record_sizes[NUM_RECORD_SIZES] = {4, 8, 16, 32, 64, 128, 256, 512};

/* One timed, checked move; returns its time in ms (-1 on a failure, reported). */
static double time_move(const bench_env *env, move_ctx *c, uint64_t seed, uint32_t passes_shown)
{
    const size_t n = c->d.n, rb = c->d.record_bytes;
    bench_poison(c->d.dst, n * rb, env->stream);
    if (move_op(c, 0, env->stream) != 0) return -1.0;
    const uint64_t bad = bench_check_move((const uint32_t *)c->d.dst, c->d.index, n, (uint32_t)(rb / 4), seed, c->gather,
                                          env->stream);
    if (bad) {
        bench_fail("split_%s: %llu wrong words (%zu-byte records, n = %zu, %u passes)", c->gather ? "gather" : "scatter",
                   (unsigned long long)bad, rb, n, passes_shown);
        return -1.0;
    }
    bench_row row;
    memset(&row, 0, sizeof row);
    snprintf(row.section, sizeof row.section, "move");
    snprintf(row.impl, sizeof row.impl, "%s%s", c->gather ? "split_gather" : "split_scatter",
             c->d.num_passes ? "" : " model");
    snprintf(row.payload, sizeof row.payload, "%zuB rec", rb);
    snprintf(row.dist, sizeof row.dist, "permutation");
    row.n = n;
    row.passes = passes_shown;
    /* 2^24 records: >= 64 MB on each side; 2^20 records of up to 512 MB: L2-resident inputs are
     * the point of that size, so no rotation of input sets. */
    row.ms = bench_time_ms(env, move_op, c, 1);
    row.model_bytes = (double)n * (2.0 * (double)rb + 4.0);
    row.verified = 1;
    report_add(&row, env->copy_gbs);
    return row.ms;
}

/* Every record size of the first `sizes` at n records. */
static void move_size(const bench_env *env, size_t n, int sizes, void *src, void *dst, uint32_t *index)
{
    const uint64_t seed = 77;
    printf("\n== gather / scatter, n = %zu records, random permutation: ms per pass count; model = num_passes 0 ==\n",
           n);
    printf("%-7s %-7s |", "record", "move");
    for (int p = 0; p < NUM_PASS_COUNTS; ++p) printf(" %6u pass%s", pass_counts[p], pass_counts[p] > 1 ? "es" : "  ");
    printf(" | model: passes     ms  / best | GB/s (1 pass)\n");
    for (int si = 0; si < sizes; ++si) {
        const size_t rb = record_sizes[si];
        bench_fill_records((uint32_t *)src, n, (uint32_t)(rb / 4), seed, env->stream);
        for (int g = 1; g >= 0; --g) {
            move_ctx c;
            memset(&c, 0, sizeof c);
            c.gather = g;
            c.d.src = src;
            c.d.dst = dst;
            c.d.record_bytes = rb;
            c.d.index = index;
            c.d.n = n;
            double ms[NUM_PASS_COUNTS], best = 0.0;
            int ok = 1;
            for (int p = 0; p < NUM_PASS_COUNTS; ++p) {
                c.d.num_passes = pass_counts[p];
                ms[p] = time_move(env, &c, seed, pass_counts[p]);
                if (ms[p] < 0) ok = 0;
                else if (best == 0.0 || ms[p] < best) best = ms[p];
            }
            c.d.num_passes = 0;
            uint32_t chosen = 0;
            if (split_move_passes(&c.d, !g, &chosen) != SC_OK) {
                bench_fail("split_move_passes: %s", sc_last_error());
                ok = 0;
            }
            const double model_ms = time_move(env, &c, seed, chosen);
            if (model_ms < 0) ok = 0;
            printf("%4zu B  %-7s |", rb, g ? "gather" : "scatter");
            for (int p = 0; p < NUM_PASS_COUNTS; ++p) printf(" %11.3f", ms[p]);
            const double gbs = ms[0] > 0 ? (double)n * (2.0 * (double)rb + 4.0) / (ms[0] * 1e6) : 0.0;
            printf(" | %13u %7.3f %5.2f | %5.0f %s\n", chosen, model_ms, best > 0 ? model_ms / best : 0.0, gbs,
                   ok ? "ok" : "FAIL");
            fflush(stdout);
        }
    }
}

/* The record sizes whose source and destination (two buffers of n records) and index fit in the free
 * device memory with 1 GiB to spare: how many of record_sizes, the rest skipped with a note. */
static int sizes_that_fit(const bench_env *env, size_t n)
{
    const size_t spare = (size_t)1 << 30;
    int count = 0;
    while (count < NUM_RECORD_SIZES && env->free_bytes > spare &&
           2 * n * record_sizes[count] + 4 * n <= env->free_bytes - spare)
        ++count;
    if (count < NUM_RECORD_SIZES)
        printf("note: %zu-byte records and larger skipped at n = %zu: their buffers (%.1f GiB) do not fit in %.1f GiB "
               "of free device memory\n",
               record_sizes[count], n, (2.0 * (double)n * (double)record_sizes[count]) / 1073741824.0,
               (double)env->free_bytes / 1073741824.0);
    return count;
}

void bench_section_move(const bench_env *env)
{
    /* the record counts: --move-n's, else 2^20 (the indexed side of small records fits the L2) and
     * 2^24 (it does not; not with --quick) */
    static const size_t default_counts[2] = {(size_t)1 << 20, (size_t)1 << 24};
    const size_t *counts = env->num_move_n ? env->move_n : default_counts;
    const int num_counts = env->num_move_n ? env->num_move_n : env->quick ? 1 : 2;
    int fit[8];
    size_t bytes = 0, n_max = 0;
    for (int i = 0; i < num_counts; ++i) {
        fit[i] = sizes_that_fit(env, counts[i]);
        if (fit[i] == 0) continue;
        const size_t b = counts[i] * record_sizes[fit[i] - 1];
        if (b > bytes) bytes = b;
        if (counts[i] > n_max) n_max = counts[i];
    }
    if (bytes == 0) return;
    uint32_t *index = (uint32_t *)bench_alloc(n_max * 4);
    void *src = bench_alloc(bytes), *dst = bench_alloc(bytes);
    for (int i = 0; i < num_counts; ++i) {
        if (fit[i] == 0) continue;
        bench_gen_permutation(index, counts[i], 0x9e7ull, env->stream);
        move_size(env, counts[i], fit[i], src, dst, index);
    }
    bench_free(src);
    bench_free(dst);
    bench_free(index);
}
