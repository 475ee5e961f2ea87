/* split_bench.cu - the benchmark of the split library (driver).
 *
 *   split_bench [--quick] [--n-log2 K] [--large] [--wide-only] [--segmented-only] [--rules-only]
 *               [--sort-only] [--move-only] [--only PAYLOAD,B,DIST]... [--json PATH]
 *
 * Sections: split (BITS rule, stable / unstable, keys / pairs, B in {2, 32, 256, 2048}, six
 * distributions, beside CUB), multisplit RANGE / BOUNDARIES rules, the wide unstable multisplit
 * (B = 16384 and 2^20 key-value pairs at 2^20 and 2^24, with and without the caller's bucket counts,
 * beside CUB's sort over the bucket bits), split_sort vs CUB (32- and 64-bit
 * keys), segmented split (renderer-like, the renderer's L2-hot call, 1M small segments), gather / scatter
 * (records of 4 .. 512 bytes, 1 .. 16 passes and the pass-count model's choice), and sorting 2^24
 * 128-byte records. Each of our results is verified once; times are medians of CUDA-event-timed
 * runs after a warm-up, rotating input sets so that L2 does not serve the inputs. Bandwidth is a
 * fraction of the device-to-device copy bandwidth measured at the start of the same run.
 * Exit status: 0 all verified, 1 a verification failed or a call returned an error, 2 bad usage,
 * 77 no CUDA device. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void bench_section_split(const bench_env *env, int n_log2);
void bench_section_rules(const bench_env *env, int n_log2);
void bench_section_wide(const bench_env *env);
void bench_section_sort(const bench_env *env, int n_log2);
void bench_section_segmented(const bench_env *env);
void bench_section_move(const bench_env *env);
void bench_section_records(const bench_env *env);

static int g_failures;

void bench_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
    ++g_failures;
}

int bench_failures(void) { return g_failures; }

void bench_cuda_fatal(cudaError_t err, const char *what, const char *file, int line)
{
    fflush(stdout);
    fprintf(stderr, "split_bench: %s failed: %s (%s) at %s:%d\n", what, cudaGetErrorString(err), cudaGetErrorName(err),
            file, line);
    exit(1);
}

void *bench_alloc(size_t bytes)
{
    void *p = NULL;
    cudaError_t err = cudaMalloc(&p, bytes ? bytes : 4);
    if (err != cudaSuccess) {
        fflush(stdout);
        fprintf(stderr, "split_bench: cudaMalloc of %zu bytes failed: %s\n", bytes, cudaGetErrorString(err));
        exit(1);
    }
    return p;
}

void bench_free(void *p)
{
    if (p) BENCH_CUDA(cudaFree(p));
}

int bench_sizes(const bench_env *env, int out[4])
{
    int k = 0;
    if (env->n_log2) out[k++] = env->n_log2;
    else if (env->quick) out[k++] = 24;
    else {
        out[k++] = 24;
        out[k++] = 26;
    }
    if (env->large && out[k - 1] != 28) out[k++] = 28;
    return k;
}

int bench_row_selected(const bench_env *env, int kv, uint32_t buckets, int dist)
{
    if (env->num_only == 0) return 1;
    for (int i = 0; i < env->num_only; ++i)
        if (env->only[i].kv == kv && env->only[i].buckets == buckets && env->only[i].dist == dist) return 1;
    return 0;
}

/* "keys,256,uniform" -> one --only entry; 0, or -1 when it names no row of the split section. */
static int parse_only(const char *arg, bench_env *env)
{
    if (env->num_only >= (int)(sizeof env->only / sizeof env->only[0])) return -1;
    char payload[16], dist[24];
    unsigned b = 0;
    if (sscanf(arg, "%15[^,],%u,%23s", payload, &b, dist) != 3) return -1;
    int kv;
    if (!strcmp(payload, "keys")) kv = 0;
    else if (!strcmp(payload, "pairs")) kv = 1;
    else return -1;
    if (b != 2 && b != 32 && b != 256 && b != 2048) return -1;
    for (int d = 0; d < BENCH_DIST_COUNT; ++d) {
        if (!strcmp(dist, bench_dist_name((bench_dist)d))) {
            env->only[env->num_only].kv = kv;
            env->only[env->num_only].buckets = b;
            env->only[env->num_only].dist = d;
            ++env->num_only;
            return 0;
        }
    }
    return -1;
}

/* --move-n: comma-separated record counts, each 1024 .. 2^30, at most 8. 0 or -1. */
static int parse_move_n(const char *text, bench_env *env)
{
    env->num_move_n = 0;
    for (const char *p = text;;) {
        char *end = NULL;
        if (*p < '0' || *p > '9') return -1;
        const unsigned long long v = strtoull(p, &end, 10);
        if (end == p || v < 1024 || v > (1ull << 30) || env->num_move_n == 8) return -1;
        env->move_n[env->num_move_n++] = (size_t)v;
        if (*end == 0) return 0;
        if (*end != ',') return -1;
        p = end + 1;
    }
}

static void usage(FILE *f)
{
    fprintf(f, "usage: split_bench [--quick] [--n-log2 K] [--large] [--wide-only] [--segmented-only]\n"
               "                   [--rules-only] [--sort-only] [--move-only] [--move-n N,...]\n"
               "                   [--only PAYLOAD,B,DIST]... [--json PATH]\n"
               "  --quick      2^24 only, fewer repetitions (a smoke run)\n"
               "  --n-log2 K   split and sort sections at 2^K keys only (10 <= K <= 30)\n"
               "  --large      adds 2^28\n"
               "  --wide-only  only the wide multisplit section (B = 16384 and 2^20 at n = 2^20 and 2^24)\n"
               "  --segmented-only  only the segmented split section\n"
               "  --rules-only only the multisplit RANGE / BOUNDARIES section\n"
               "  --sort-only  only the split_sort section (with --n-log2: at that size)\n"
               "  --move-only  only the gather / scatter section (records of 4 .. 512 bytes at 2^20 and 2^24:\n"
               "               1, 2, 4, 8, 16 passes and the pass-count model's choice)\n"
               "  --move-n N,...  the gather / scatter section at these record counts instead (up to 8, each\n"
               "               1024 .. 2^30): e.g. the indexed side at other multiples of the L2\n"
               "  --only PAYLOAD,B,DIST  only this row of the split section (repeatable; PAYLOAD keys or\n"
               "               pairs, B 2, 32, 256 or 2048, DIST uniform, one-bucket, hockey-75%%, binomial,\n"
               "               ascending or descending), e.g. --only keys,256,uniform (few launches: profiling)\n"
               "  --json PATH  JSON report (default split_bench.json)\n");
}

/* The arguments after the program's name, space-separated, as far as they fit (the report's
 * "options"). */
static void join_arguments(int argc, char **argv, char *out, size_t size)
{
    out[0] = 0;
    for (int i = 1; i < argc; ++i)
        if (strlen(out) + strlen(argv[i]) + 2 < size) {
            if (out[0]) strcat(out, " ");
            strcat(out, argv[i]);
        }
}

int main(int argc, char **argv)
{
    bench_env env;
    memset(&env, 0, sizeof env);
    env.json_path = "split_bench.json";
    char options[256];
    join_arguments(argc, argv, options, sizeof options);
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick")) env.quick = 1;
        else if (!strcmp(argv[i], "--large")) env.large = 1;
        else if (!strcmp(argv[i], "--wide-only")) env.wide_only = 1;
        else if (!strcmp(argv[i], "--segmented-only")) env.segmented_only = 1;
        else if (!strcmp(argv[i], "--sort-only")) env.sort_only = 1;
        else if (!strcmp(argv[i], "--rules-only")) env.rules_only = 1;
        else if (!strcmp(argv[i], "--move-only")) env.move_only = 1;
        else if (!strcmp(argv[i], "--n-log2") && i + 1 < argc) {
            env.n_log2 = atoi(argv[++i]);
            if (env.n_log2 < 10 || env.n_log2 > 30) {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(argv[i], "--move-n") && i + 1 < argc) {
            if (parse_move_n(argv[++i], &env) != 0) {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            if (parse_only(argv[++i], &env) != 0) {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            env.json_path = argv[++i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    env.warmup = env.quick ? 2 : 3;
    env.reps = env.quick ? 7 : 25;

    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        printf("split_bench: no CUDA device (%s)\n", err != cudaSuccess ? cudaGetErrorString(err) : "none found");
        return 77;
    }
    cudaDeviceProp prop;
    BENCH_CUDA(cudaGetDeviceProperties(&prop, 0));
    int driver = 0, runtime = 0;
    BENCH_CUDA(cudaDriverGetVersion(&driver));
    BENCH_CUDA(cudaRuntimeGetVersion(&runtime));
    snprintf(env.gpu_name, sizeof env.gpu_name, "%s", prop.name);
    env.sm_count = prop.multiProcessorCount;
    env.l2_bytes = (size_t)prop.l2CacheSize;
    size_t total = 0;
    BENCH_CUDA(cudaMemGetInfo(&env.free_bytes, &total));
    BENCH_CUDA(cudaStreamCreateWithFlags(&env.stream, cudaStreamNonBlocking));
    const char *commit = getenv("SPLIT_BENCH_GIT_COMMIT");
    if (!commit || !commit[0]) commit = bench_commit();

    env.copy_gbs = bench_copy_gbs(&env, (size_t)1 << 30);
    printf("split_bench: %s, %d SMs, %zu MB L2, %.1f GB; driver %d, runtime %d; commit %s; options \"%s\"\n",
           env.gpu_name, env.sm_count, env.l2_bytes >> 20, (double)total / 1e9, driver, runtime, commit, options);
    printf("copy bandwidth (cudaMemcpyAsync D2D of 1 GiB, read + written): %.0f GB/s\n", env.copy_gbs);
    printf("byte models: split 12 B/key (count reads 4, scatter reads 4 + writes 4), 20 B/pair (4 + 8 + 8);\n"
           "             gather/scatter n * (2 * record + 4); %% = model bytes / time / copy bandwidth\n");
    printf("timing: median of %d CUDA-event-timed runs after %d warm-up runs; G = 1e9 items/s\n", env.reps, env.warmup);
    report_set_header(env.gpu_name, env.sm_count, driver, runtime, env.l2_bytes, commit, env.copy_gbs, options);

    int sizes[4];
    const int nsizes = bench_sizes(&env, sizes);
    if (env.num_only) {
        for (int i = 0; i < nsizes; ++i) bench_section_split(&env, sizes[i]);
    } else if (env.wide_only || env.segmented_only || env.rules_only || env.sort_only || env.move_only) {
        if (env.rules_only)
            for (int i = 0; i < nsizes; ++i) bench_section_rules(&env, sizes[i]);
        if (env.wide_only) bench_section_wide(&env);
        if (env.segmented_only) bench_section_segmented(&env);
        if (env.move_only) bench_section_move(&env);
        if (env.sort_only)
            for (int i = 0; i < nsizes; ++i) bench_section_sort(&env, sizes[i]);
    } else {
        for (int i = 0; i < nsizes; ++i) bench_section_split(&env, sizes[i]);
        for (int i = 0; i < nsizes; ++i) bench_section_rules(&env, sizes[i]);
        bench_section_wide(&env);
        for (int i = 0; i < nsizes; ++i) bench_section_sort(&env, sizes[i]);
        bench_section_segmented(&env);
        bench_section_move(&env);
        bench_section_records(&env);
    }
    BENCH_CUDA(cudaStreamSynchronize(env.stream));
    BENCH_CUDA(cudaGetLastError());

    if (report_write_json(env.json_path) != 0) {
        fprintf(stderr, "split_bench: cannot write %s\n", env.json_path);
        ++g_failures;
    } else {
        printf("\nJSON: %s\n", env.json_path);
    }
    BENCH_CUDA(cudaStreamDestroy(env.stream));
    if (g_failures) {
        printf("split_bench: %d failure(s)\n", g_failures);
        return 1;
    }
    printf("split_bench: every result verified\n");
    return 0;
}
