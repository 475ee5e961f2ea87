/* bench_move.cu - the "move" section of split_bench: split_gather / split_scatter of 2^24 records of
 * 16, 64 and 128 bytes by a uniformly random permutation, single pass and multi-pass. Bandwidth
 * counts n * (2 * record_bytes + 4) bytes (record read, record written, index read) whatever the
 * number of passes. Each result is checked once against the records' generating function. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

typedef struct move_ctx {
    split_move_desc d;
    int gather;
} move_ctx;

static int move_op(void *ctx, int set, cudaStream_t s)
{
    const move_ctx *c = (const move_ctx *)ctx;
    if (c->gather) BENCH_SPLIT(split_gather(&c->d, s));
    else BENCH_SPLIT(split_scatter(&c->d, s));
    return 0;
}

void bench_section_move(const bench_env *env);

void bench_section_move(const bench_env *env)
{
    static const size_t sizes[] = {16, 64, 128};
    static const uint32_t passes[] = {1, 4, 16};
    const size_t n = (size_t)1 << 24;
    const uint64_t seed = 77;
    cudaStream_t s = env->stream;
    printf("\n== gather / scatter, n = 2^24 records, random permutation; GB/s over n * (2 * record + 4) bytes ==\n");
    printf("%-22s | %-27s | %-27s\n", "record passes", "gather", "scatter");
    uint32_t *index = (uint32_t *)bench_alloc(n * 4);
    bench_gen_permutation(index, n, 0x9e7ull, s);
    void *src = bench_alloc(n * sizes[2]), *dst = bench_alloc(n * sizes[2]);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
        const size_t rb = sizes[si];
        const uint32_t wpr = (uint32_t)(rb / 4);
        bench_fill_records((uint32_t *)src, n, wpr, seed, s);
        for (size_t pi = 0; pi < sizeof passes / sizeof passes[0]; ++pi) {
            bench_row rows[2];
            char cell[2][64];
            int ok[2] = {-1, -1};
            for (int g = 0; g < 2; ++g) {
                move_ctx c;
                memset(&c, 0, sizeof c);
                c.gather = !g;
                c.d.src = src;
                c.d.dst = dst;
                c.d.record_bytes = rb;
                c.d.index = index;
                c.d.n = n;
                c.d.num_passes = passes[pi];
                bench_poison(dst, n * rb, s);
                if (move_op(&c, 0, s) == 0) {
                    uint64_t bad = bench_check_move((const uint32_t *)dst, index, n, wpr, seed, c.gather, s);
                    ok[g] = bad == 0 ? 1 : -1;
                    if (bad)
                        bench_fail("split_%s: %llu wrong words (%zu-byte records, %u passes)", c.gather ? "gather" : "scatter",
                                   (unsigned long long)bad, rb, passes[pi]);
                }
                bench_row *row = &rows[g];
                memset(row, 0, sizeof *row);
                snprintf(row->section, sizeof row->section, "move");
                snprintf(row->impl, sizeof row->impl, "%s", c.gather ? "split_gather" : "split_scatter");
                snprintf(row->payload, sizeof row->payload, "%zuB rec", rb);
                snprintf(row->dist, sizeof row->dist, "permutation");
                row->n = n;
                row->passes = passes[pi];
                row->ms = bench_time_ms(env, move_op, &c, 1); /* 2^24 records: >= 512 MB moved, no rotation needed */
                row->model_bytes = (double)n * (2.0 * (double)rb + 4.0);
                row->verified = ok[g];
                report_add(row, env->copy_gbs);
                snprintf(cell[g], sizeof cell[g], "%8.3f ms %6.0f GB/s %3.0f%%", row->ms, row->gbs,
                         100.0 * row->frac_copy);
            }
            printf("%4zu B %2u pass%s        | %s | %s | %s\n", rb, passes[pi], passes[pi] > 1 ? "es" : "  ", cell[0],
                   cell[1], ok[0] > 0 && ok[1] > 0 ? "ok" : "FAIL");
            fflush(stdout);
        }
    }
    bench_free(src);
    bench_free(dst);
    bench_free(index);
}
