/* limits_cuda.cu - the current GPU's limits for the CUDA backend (sc_backend_measure_limits):
 *  - copy bandwidth: cudaMemcpyAsync device to device of one SC_LIMITS_COPY_MIB buffer into another
 *    (each far beyond the L2), bytes read + bytes written over the time;
 *  - ray-triangle test rate: a kernel of SC_LIMITS_CUDA_BLOCKS_PER_SM blocks per SM, each thread
 *    running ray_rate.h's body (sc_intersect, every operand in registers) and writing its hit count,
 *    sized to about SC_LIMITS_CUDA_RATE_MS per launch; tests over the time.
 * Each is timed with CUDA events on a stream of its own, SC_LIMITS_WARMUP untimed runs first, and the
 * median of SC_LIMITS_RUNS runs kept (render_tuning.h). Everything is allocated in the call and freed
 * before it returns, on success and on failure; every CUDA call is checked. */
#include <stdlib.h>
#include <string.h>

#include "backend_cuda.h"
#include "ray_rate.h"
#include "render_tuning.h"
#include "sc_report.h"

/* One thread per ray: tests against its triangle, the hit count written (so no test is dead code). */
__global__ void __launch_bounds__(SC_LIMITS_CUDA_THREADS)
sc_ray_rate_kernel(uint32_t tests, float step_x, float step_y, float step_z, uint32_t *hits)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    hits[i] = sc_ray_rate_run(i, tests, step_x, step_y, step_z);
}

/* What the call holds; released by release() whatever happened. */
typedef struct limits_res {
    cudaStream_t stream;
    cudaEvent_t ev[2];
    int has_stream, has_ev[2];
    void *src, *dst;
    size_t bytes;
    uint32_t *hits;              /* device: a word per thread of the test kernel */
    uint32_t *host_hits;
    uint32_t blocks, threads;    /* the test kernel's launch */
} limits_res;

typedef enum limits_op { LIMITS_COPY, LIMITS_RATE } limits_op;

/* One run of op (a copy, or a launch of `tests` per thread) between the two events; its GPU time. */
static sc_status timed(limits_res *r, limits_op op, uint32_t tests, double *ms)
{
    SC_CUDA_CHECK(cudaEventRecord(r->ev[0], r->stream));
    if (op == LIMITS_COPY) {
        SC_CUDA_CHECK(cudaMemcpyAsync(r->dst, r->src, r->bytes, cudaMemcpyDeviceToDevice, r->stream));
    } else {
        sc_ray_rate_kernel<<<r->blocks, SC_LIMITS_CUDA_THREADS, 0, r->stream>>>(
            tests, SC_RAY_RATE_STEP_X, SC_RAY_RATE_STEP_Y, SC_RAY_RATE_STEP_Z, r->hits);
        SC_CUDA_CHECK_LAUNCH("sc_ray_rate_kernel");
    }
    SC_CUDA_CHECK(cudaEventRecord(r->ev[1], r->stream));
    SC_CUDA_CHECK(cudaEventSynchronize(r->ev[1]));
    float t = 0.0f;
    SC_CUDA_CHECK(cudaEventElapsedTime(&t, r->ev[0], r->ev[1]));
    *ms = (double)t;
    return SC_OK;
}

/* Warm-up runs, then the median of the timed ones. */
static sc_status median_of_runs(limits_res *r, limits_op op, uint32_t tests, double *ms)
{
    double t[SC_LIMITS_RUNS];
    for (int w = 0; w < SC_LIMITS_WARMUP; ++w) SC_TRY(timed(r, op, tests, &t[0]));
    for (int i = 0; i < SC_LIMITS_RUNS; ++i) SC_TRY(timed(r, op, tests, &t[i]));
    *ms = sc_limits_median(t, SC_LIMITS_RUNS);
    return SC_OK;
}

/* A device buffer of `bytes`, reported as what it is for when the device has no room. */
static sc_status device_buffer(void **p, size_t bytes, const char *what)
{
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) {
        *p = NULL;
        return sc_cuda_report(e, what, __FILE__, __LINE__);
    }
    return SC_OK;
}

static sc_status measure_copy(limits_res *r, sc_device_limits *out)
{
    r->bytes = (size_t)SC_LIMITS_COPY_MIB << 20;
    SC_TRY(device_buffer(&r->src, r->bytes, "sc_backend_measure_limits: cudaMalloc of the copy's source (256 MiB)"));
    SC_TRY(device_buffer(&r->dst, r->bytes,
                         "sc_backend_measure_limits: cudaMalloc of the copy's destination (256 MiB)"));
    SC_CUDA_CHECK(cudaMemsetAsync(r->src, 0x5a, r->bytes, r->stream));
    SC_CUDA_CHECK(cudaMemsetAsync(r->dst, 0, r->bytes, r->stream));
    double ms = 0.0;
    SC_TRY(median_of_runs(r, LIMITS_COPY, 0, &ms));
    out->copy_ms = ms;
    out->copy_bytes = (uint64_t)r->bytes;
    out->copy_gbs = ms > 0.0 ? 2.0 * (double)r->bytes / (ms * 1e6) : 0.0;
    /* The copy's buffers go before the test kernel runs: it needs none of them. */
    SC_CUDA_CHECK(cudaFree(r->src));
    r->src = NULL;
    SC_CUDA_CHECK(cudaFree(r->dst));
    r->dst = NULL;
    return SC_OK;
}

static sc_status measure_rate(limits_res *r, sc_device_limits *out)
{
    uint32_t sms = 1;
    SC_TRY(sc_cuda_device_sms(&sms));
    if (sms > UINT32_MAX / (SC_LIMITS_CUDA_BLOCKS_PER_SM * SC_LIMITS_CUDA_THREADS))
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_backend_measure_limits: a device of %u SMs is beyond the test "
                                             "kernel's 32-bit thread index", sms);
    r->blocks = sms * SC_LIMITS_CUDA_BLOCKS_PER_SM;
    r->threads = r->blocks * SC_LIMITS_CUDA_THREADS;
    const size_t words = (size_t)r->threads * sizeof(uint32_t);
    SC_TRY(device_buffer((void **)&r->hits, words,
                         "sc_backend_measure_limits: cudaMalloc of the test kernel's hit counts"));
    r->host_hits = (uint32_t *)malloc(words);
    if (!r->host_hits) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_backend_measure_limits: out of host memory");
    /* The size of a launch: grown from a short one until it takes about the target time. */
    uint32_t tests = 256;
    double ms = 0.0;
    SC_TRY(timed(r, LIMITS_RATE, tests, &ms));
    for (int k = 0; k < 8 && ms < 0.5 * SC_LIMITS_CUDA_RATE_MS && tests < SC_LIMITS_MAX_TESTS; ++k) {
        const uint32_t most = tests <= SC_LIMITS_MAX_TESTS / 64 ? 64 * tests : (uint32_t)SC_LIMITS_MAX_TESTS;
        tests = sc_ray_rate_tests_for(tests, ms, SC_LIMITS_CUDA_RATE_MS, tests + 1, most);
        SC_TRY(timed(r, LIMITS_RATE, tests, &ms));
    }
    SC_TRY(median_of_runs(r, LIMITS_RATE, tests, &ms));
    SC_CUDA_CHECK(cudaMemcpyAsync(r->host_hits, r->hits, words, cudaMemcpyDeviceToHost, r->stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(r->stream));
    uint64_t hits = 0;
    for (uint32_t i = 0; i < r->threads; ++i) hits += r->host_hits[i];
    out->ray_tests = (uint64_t)r->threads * tests;
    out->ray_ms = ms;
    out->ray_tests_per_s = ms > 0.0 ? (double)out->ray_tests / (ms * 1e-3) : 0.0;
    out->ray_hit_fraction = (double)hits / (double)out->ray_tests;
    out->threads = r->threads;
    return SC_OK;
}

/* Frees what r holds. Returns the first failure, reported, or SC_OK; after an earlier failure
 * (prior) the frees' failures are not reported, so the caller's message stays the first one. */
static sc_status release(limits_res *r, sc_status prior)
{
    sc_status s = SC_OK;
    cudaError_t e;
#define LIMITS_RELEASE(call)                                                                   \
    do {                                                                                       \
        if ((e = (call)) != cudaSuccess) {                                                     \
            if (prior == SC_OK && s == SC_OK) s = sc_cuda_report(e, #call, __FILE__, __LINE__); \
            else (void)cudaGetLastError();                                                     \
        }                                                                                      \
    } while (0)
    if (r->has_stream) LIMITS_RELEASE(cudaStreamSynchronize(r->stream));
    if (r->src) LIMITS_RELEASE(cudaFree(r->src));
    if (r->dst) LIMITS_RELEASE(cudaFree(r->dst));
    if (r->hits) LIMITS_RELEASE(cudaFree(r->hits));
    for (int i = 0; i < 2; ++i)
        if (r->has_ev[i]) LIMITS_RELEASE(cudaEventDestroy(r->ev[i]));
    if (r->has_stream) LIMITS_RELEASE(cudaStreamDestroy(r->stream));
#undef LIMITS_RELEASE
    free(r->host_hits);
    memset(r, 0, sizeof *r);
    return s;
}

static sc_status measure(limits_res *r, sc_device_limits *out)
{
    SC_CUDA_CHECK(cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking));
    r->has_stream = 1;
    for (int i = 0; i < 2; ++i) {
        SC_CUDA_CHECK(cudaEventCreate(&r->ev[i]));
        r->has_ev[i] = 1;
    }
    SC_TRY(measure_copy(r, out));
    return measure_rate(r, out);
}

sc_status sc_cuda_measure_limits(uint32_t num_threads, sc_device_limits *out)
{
    (void)num_threads;
    memset(out, 0, sizeof *out);
    out->runs = SC_LIMITS_RUNS;
    limits_res r;
    memset(&r, 0, sizeof r);
    const sc_status s = measure(&r, out);
    const sc_status freed = release(&r, s);
    if (s != SC_OK || freed != SC_OK) memset(out, 0, sizeof *out);
    return s != SC_OK ? s : freed;
}
