/* bench_timer.cu - timing of split_bench: CUDA events around every run, warm-up first, the median
 * of many runs, input sets rotated so that a run never finds its input in L2; the copy bandwidth. */
#include <stdlib.h>

#include "bench.h"

enum { BENCH_MAX_REPS = 256 };

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

double bench_time_ms(const bench_env *env, bench_op_fn fn, void *ctx, int sets)
{
    int reps = env->reps < 1 ? 1 : env->reps > BENCH_MAX_REPS ? BENCH_MAX_REPS : env->reps;
    if (sets < 1) sets = 1;
    for (int w = 0; w < env->warmup; ++w)
        if (fn(ctx, w % sets, env->stream) != 0) return -1.0;
    BENCH_CUDA(cudaStreamSynchronize(env->stream));
    cudaEvent_t ev[2 * BENCH_MAX_REPS];
    for (int i = 0; i < 2 * reps; ++i) BENCH_CUDA(cudaEventCreate(&ev[i]));
    int failed = 0;
    for (int r = 0; r < reps && !failed; ++r) {
        BENCH_CUDA(cudaEventRecord(ev[2 * r], env->stream));
        failed = fn(ctx, r % sets, env->stream) != 0;
        BENCH_CUDA(cudaEventRecord(ev[2 * r + 1], env->stream));
    }
    BENCH_CUDA(cudaStreamSynchronize(env->stream));
    BENCH_CUDA(cudaGetLastError());
    float t[BENCH_MAX_REPS];
    if (!failed)
        for (int r = 0; r < reps; ++r) BENCH_CUDA(cudaEventElapsedTime(&t[r], ev[2 * r], ev[2 * r + 1]));
    for (int i = 0; i < 2 * reps; ++i) BENCH_CUDA(cudaEventDestroy(ev[i]));
    if (failed) return -1.0;
    qsort(t, (size_t)reps, sizeof t[0], cmp_float);
    return reps % 2 ? (double)t[reps / 2] : 0.5 * ((double)t[reps / 2 - 1] + (double)t[reps / 2]);
}

int bench_sets_for(const bench_env *env, size_t set_bytes)
{
    if (set_bytes == 0) return 1;
    size_t want = (3 * env->l2_bytes + set_bytes - 1) / set_bytes;
    return want < 1 ? 1 : want > 8 ? 8 : (int)want;
}

typedef struct copy_ctx {
    void *src[2];
    void *dst;
    size_t bytes;
} copy_ctx;

static int copy_op(void *ctx, int set, cudaStream_t s)
{
    copy_ctx *c = (copy_ctx *)ctx;
    BENCH_CUDA(cudaMemcpyAsync(c->dst, c->src[set], c->bytes, cudaMemcpyDeviceToDevice, s));
    return 0;
}

double bench_copy_gbs(const bench_env *env, size_t bytes)
{
    copy_ctx c;
    c.bytes = bytes;
    c.src[0] = bench_alloc(bytes);
    c.src[1] = bench_alloc(bytes);
    c.dst = bench_alloc(bytes);
    bench_gen_u32((uint32_t *)c.src[0], bytes / 4, 11, env->stream);
    bench_gen_u32((uint32_t *)c.src[1], bytes / 4, 12, env->stream);
    double ms = bench_time_ms(env, copy_op, &c, 2);
    bench_free(c.src[0]);
    bench_free(c.src[1]);
    bench_free(c.dst);
    return ms > 0 ? 2.0 * (double)bytes / (ms * 1e6) : 0.0;
}
