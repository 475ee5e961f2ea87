/* limits_cpu.c - the host's limits for the CPU backend (sc_backend_measure_limits): the copy
 * bandwidth of memcpy over the worker threads, one buffer far larger than the caches into another,
 * in 1 MiB items handed out as the stages hand out theirs (cpu_parallel.h); and the rate of the
 * watertight ray-triangle test over the same threads, every operand in registers (ray_rate.h). Each
 * is the median of SC_LIMITS_RUNS timed runs after SC_LIMITS_WARMUP untimed ones (render_tuning.h). */
#include <stdlib.h>
#include <string.h>

#include "backend_cpu.h"
#include "cpu_parallel.h"
#include "ray_rate.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "sizes.h"

/* ---- the copy ---------------------------------------------------------------------------------- */

typedef struct copy_job {
    unsigned char *dst;
    const unsigned char *src;    /* NULL: fill dst with `fill` instead of copying */
    int fill;
    size_t chunk, bytes;
} copy_job;

static void copy_item(void *ctx, uint32_t item, uint32_t worker)
{
    (void)worker;
    const copy_job *j = ctx;
    const size_t at = (size_t)item * j->chunk;
    const size_t n = j->bytes - at < j->chunk ? j->bytes - at : j->chunk;
    if (j->src) memcpy(j->dst + at, j->src + at, n);
    else memset(j->dst + at, j->fill, n);
}

static double run_copy(uint32_t threads, copy_job *j, uint32_t items)
{
    const double t0 = sc_now_ms();
    sc_cpu_parallel_for(threads, items, copy_item, j);
    return sc_now_ms() - t0;
}

static sc_status measure_copy(uint32_t threads, sc_device_limits *out)
{
    const size_t chunk = (size_t)SC_LIMITS_CPU_CHUNK_KIB << 10, bytes = (size_t)SC_LIMITS_COPY_MIB << 20;
    const uint32_t items = (uint32_t)((bytes + chunk - 1) / chunk);
    unsigned char *src = malloc(bytes), *dst = malloc(bytes);
    if (!src || !dst) {
        free(src);
        free(dst);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                       "sc_backend_measure_limits: cannot allocate the copy's two buffers of %d MiB of host memory",
                       (int)SC_LIMITS_COPY_MIB);
    }
    /* Both buffers written first, by the threads that copy them: every page mapped before the timing. */
    copy_job fill_src = {src, NULL, 0x5a, chunk, bytes}, fill_dst = {dst, NULL, 0, chunk, bytes};
    (void)run_copy(threads, &fill_src, items);
    (void)run_copy(threads, &fill_dst, items);
    copy_job copy = {dst, src, 0, chunk, bytes};
    for (int w = 0; w < SC_LIMITS_WARMUP; ++w) (void)run_copy(threads, &copy, items);
    double ms[SC_LIMITS_RUNS];
    for (int r = 0; r < SC_LIMITS_RUNS; ++r) ms[r] = run_copy(threads, &copy, items);
    free(src);
    free(dst);
    out->copy_ms = sc_limits_median(ms, SC_LIMITS_RUNS);
    out->copy_bytes = (uint64_t)bytes;
    out->copy_gbs = out->copy_ms > 0.0 ? 2.0 * (double)bytes / (out->copy_ms * 1e6) : 0.0;
    return SC_OK;
}

/* ---- the ray-triangle tests -------------------------------------------------------------------- */

typedef struct rate_job {
    uint32_t tests;              /* per item */
    float step[3];               /* the origin's steps (ray_rate.h), read at run time */
    uint32_t *hits;              /* per item */
} rate_job;

static void rate_item(void *ctx, uint32_t item, uint32_t worker)
{
    (void)worker;
    rate_job *j = ctx;
    j->hits[item] = sc_ray_rate_run(item, j->tests, j->step[0], j->step[1], j->step[2]);
}

static double run_rate(uint32_t threads, rate_job *j, uint32_t items)
{
    const double t0 = sc_now_ms();
    sc_cpu_parallel_for(threads, items, rate_item, j);
    return sc_now_ms() - t0;
}

static sc_status measure_rate(uint32_t threads, sc_device_limits *out)
{
    const uint32_t items = threads * SC_LIMITS_CPU_ITEMS_PER_THREAD; /* threads <= SC_CPU_MAX_THREADS */
    uint32_t *hits = calloc(items, sizeof *hits);
    if (!hits) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_backend_measure_limits: out of host memory");
    rate_job j = {1024, {SC_RAY_RATE_STEP_X, SC_RAY_RATE_STEP_Y, SC_RAY_RATE_STEP_Z}, hits};
    /* The size of a run: grown from a short one until a run takes about the target time (these runs
     * are the warm-up). */
    double ms = run_rate(threads, &j, items);
    for (int k = 0; k < 8 && ms < 0.5 * SC_LIMITS_CPU_RATE_MS && j.tests < SC_LIMITS_MAX_TESTS; ++k) {
        const uint32_t most = j.tests <= SC_LIMITS_MAX_TESTS / 64 ? 64 * j.tests : (uint32_t)SC_LIMITS_MAX_TESTS;
        j.tests = sc_ray_rate_tests_for(j.tests, ms, SC_LIMITS_CPU_RATE_MS, j.tests + 1, most);
        ms = run_rate(threads, &j, items);
    }
    for (int w = 0; w < SC_LIMITS_WARMUP; ++w) (void)run_rate(threads, &j, items);
    double t[SC_LIMITS_RUNS];
    for (int r = 0; r < SC_LIMITS_RUNS; ++r) t[r] = run_rate(threads, &j, items);
    uint64_t hit_sum = 0;
    for (uint32_t i = 0; i < items; ++i) hit_sum += hits[i];
    free(hits);
    out->ray_tests = (uint64_t)items * j.tests;
    out->ray_ms = sc_limits_median(t, SC_LIMITS_RUNS);
    out->ray_tests_per_s = out->ray_ms > 0.0 ? (double)out->ray_tests / (out->ray_ms * 1e-3) : 0.0;
    out->ray_hit_fraction = (double)hit_sum / (double)out->ray_tests;
    return SC_OK;
}

sc_status sc_cpu_measure_limits(uint32_t num_threads, sc_device_limits *out)
{
    memset(out, 0, sizeof *out);
    out->runs = SC_LIMITS_RUNS;
    out->threads = num_threads;
    SC_TRY(measure_copy(num_threads, out));
    return measure_rate(num_threads, out);
}
