/* demo_common.c - the helpers shared by split-demo's subcommands (demo.h). */
#include <stdlib.h>
#include <string.h>

#include "demo.h"

unsigned demo_blocks_for(uint64_t items, unsigned threads)
{
    const uint64_t blocks = (items + threads - 1) / threads;
    return (unsigned)(blocks < 8192 ? (blocks ? blocks : 1) : 8192);
}

int demo_require_device(const char *what)
{
    int devices = 0;
    const cudaError_t count_err = cudaGetDeviceCount(&devices);
    if (count_err == cudaSuccess && devices > 0) return 0;
    const char *require = getenv("SLABCAST_REQUIRE_GPU");
    const char *why = count_err != cudaSuccess ? cudaGetErrorString(count_err) : "no device";
    if (require && strcmp(require, "1") == 0) {
        fprintf(stderr, "split-demo %s: cudaGetDeviceCount: %s, and SLABCAST_REQUIRE_GPU=1 requires one\n", what,
                why);
        return 1;
    }
    printf("split-demo %s: no CUDA device (cudaGetDeviceCount: %s); nothing to run\n", what, why);
    return 77;
}

int demo_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!s || !*s) return -1;
    uint64_t v = 0;
    for (const char *p = s; *p; ++p) {
        if (*p < '0' || *p > '9') return -1;
        const uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return -1; /* overflow */
        v = v * 10 + d;
    }
    if (v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

float demo_median(float *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof v[0], cmp_float);
    return v[n / 2];
}

int demo_time(const char *what, demo_work_fn fn, void *ctx, cudaStream_t s, int runs, float *median_ms)
{
    float *ms = malloc((size_t)(runs > 0 ? runs : 1) * sizeof *ms);
    if (!ms) {
        fprintf(stderr, "split-demo %s: host allocation for %d timings failed\n", what, runs);
        return 1;
    }
    cudaEvent_t t0 = NULL, t1 = NULL;
    int rc = 0;
    if (cudaEventCreate(&t0) != cudaSuccess || cudaEventCreate(&t1) != cudaSuccess) {
        fprintf(stderr, "split-demo %s: cudaEventCreate failed: %s\n", what, cudaGetErrorString(cudaGetLastError()));
        rc = 1;
    }
    for (int run = -1; rc == 0 && run < runs; ++run) { /* run -1: the warm-up */
        cudaError_t e = cudaEventRecord(t0, s);
        if (e == cudaSuccess && (rc = fn(ctx, s)) != 0) break;
        if (e == cudaSuccess) e = cudaEventRecord(t1, s);
        if (e == cudaSuccess) e = cudaEventSynchronize(t1);
        if (e == cudaSuccess && run >= 0) e = cudaEventElapsedTime(&ms[run], t0, t1);
        if (e != cudaSuccess) {
            fprintf(stderr, "split-demo %s: timing run %d failed: %s\n", what, run + 1, cudaGetErrorString(e));
            rc = 1;
        }
    }
    if (rc == 0) *median_ms = demo_median(ms, runs);
    if (t0) cudaEventDestroy(t0);
    if (t1) cudaEventDestroy(t1);
    free(ms);
    return rc;
}

int demo_option(const char *who, int argc, char **argv, int *a, const char *const *names, int count,
                const char **value)
{
    const char *arg = argv[*a];
    *value = NULL;
    for (int k = 0; k < count; ++k) {
        const size_t len = strlen(names[k]);
        if (strncmp(arg, names[k], len) != 0 || (arg[len] != 0 && arg[len] != '=')) continue;
        if (arg[len] == '=') {
            *value = arg + len + 1;
            return k;
        }
        if (*a + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value\n", who, names[k]);
            return -1;
        }
        *a += 1;
        *value = argv[*a];
        return k;
    }
    fprintf(stderr, "%s: unknown option '%s'; valid:", who, arg);
    for (int k = 0; k < count; ++k) fprintf(stderr, " %s,", names[k]);
    fprintf(stderr, " --help\n");
    return -1;
}

int demo_bad_value(const char *who, const char *option, const char *value, const char *valid, void (*usage)(FILE *))
{
    fprintf(stderr, "%s: %s: '%s' is not valid; valid: %s\n", who, option, value, valid);
    usage(stderr);
    return 2;
}
