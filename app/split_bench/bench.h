/* bench.h - split_bench: shared declarations of the benchmark of the split library.
 *
 * Parts: bench_timer.cu (event timing, median, input-set rotation), bench_inputs.cu (seeded device
 * inputs), bench_cub.cu (CUB baselines and a plain gather), bench_verify.cu (device checks of every
 * result), bench_report.c (rows, JSON), bench_commit.c (the commit built from), and one file per
 * section (bench_split.cu, bench_segmented.cu, bench_move.cu, bench_sort.cu) driven by split_bench.cu. */
#ifndef SPLIT_BENCH_H
#define SPLIT_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "split.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- run-wide options and device facts (split_bench.cu) ---- */
typedef struct bench_env {
    int quick;                /* --quick: 2^24 only, fewer repetitions */
    int large;                /* --large: adds 2^28 */
    int n_log2;               /* --n-log2 K: only 2^K (0: the default list) */
    int wide_only;            /* --wide-only: only the "wide" section */
    int segmented_only;       /* --segmented-only: only the "segmented" section */
    int sort_only;            /* --sort-only: only the split_sort section */
    int rules_only;           /* --rules-only: only the multisplit RANGE / BOUNDARIES section */
    int move_only;            /* --move-only: only the gather / scatter section */
    int num_move_n;           /* --move-n N,...: the move section's record counts (0: 2^20 and 2^24) */
    size_t move_n[8];
    int num_only;             /* --only rows (0: every row); then only the "split" section runs */
    struct bench_only {
        int kv;               /* 0 keys, 1 pairs */
        uint32_t buckets;
        int dist;             /* bench_dist */
    } only[16];
    int warmup, reps;         /* per timed operation */
    const char *json_path;
    cudaStream_t stream;
    size_t l2_bytes;
    size_t free_bytes;        /* device memory free at start */
    double copy_gbs;          /* device-to-device copy bandwidth, bytes read + written per second / 1e9 */
    char gpu_name[256];
    int sm_count;
} bench_env;

/* Nonzero when the "split" row (kv, B, dist) runs: no --only flag, or one names it. */
int bench_row_selected(const bench_env *env, int kv, uint32_t buckets, int dist);

/* Sizes of the split and sort sections: n_log2 values, returns how many (at most 4). */
int bench_sizes(const bench_env *env, int out[4]);

/* ---- failures ---- */
/* Prints "FAIL: ..." to stdout and counts it; the program exits non-zero at the end. */
void bench_fail(const char *fmt, ...);
int bench_failures(void);
/* Any CUDA runtime error is fatal: the message names the call, file and line; exit(1). */
void bench_cuda_fatal(cudaError_t err, const char *what, const char *file, int line);
#define BENCH_CUDA(call)                                                                  \
    do {                                                                                  \
        cudaError_t bench_err_ = (call);                                                  \
        if (bench_err_ != cudaSuccess) bench_cuda_fatal(bench_err_, #call, __FILE__, __LINE__); \
    } while (0)
#define BENCH_LAUNCH(name) BENCH_CUDA(cudaGetLastError())
/* A failed library call: counts a failure with sc_last_error() and makes the enclosing function
 * return -1. */
#define BENCH_SPLIT(call)                                                                     \
    do {                                                                                      \
        sc_status bench_st_ = (call);                                                         \
        if (bench_st_ != SC_OK) {                                                             \
            bench_fail("%s returned %s: %s", #call, sc_status_name(bench_st_), sc_last_error()); \
            return -1;                                                                        \
        }                                                                                     \
    } while (0)

/* Device allocation that exits on failure (the size is printed); bench_free(NULL) is fine. */
void *bench_alloc(size_t bytes);
void bench_free(void *p);

/* ---- timing (bench_timer.cu) ---- */
/* One timed operation: runs on `stream` with input set `set` (0 .. sets-1). Returns 0, or -1 after
 * counting a failure. */
typedef int (*bench_op_fn)(void *ctx, int set, cudaStream_t stream);
/* Warm-up, then env->reps runs, each between its own pair of CUDA events, rotating over `sets`
 * input sets (set = run % sets); the median in milliseconds, or -1 if a run failed. */
double bench_time_ms(const bench_env *env, bench_op_fn fn, void *ctx, int sets);
/* Input sets needed so that consecutive runs never find their input in L2: ceil(3 L2 / set_bytes),
 * 1 .. 8. */
int bench_sets_for(const bench_env *env, size_t set_bytes);
/* Device-to-device copy bandwidth (cudaMemcpyAsync of `bytes`), read + written, in GB/s. */
double bench_copy_gbs(const bench_env *env, size_t bytes);

/* ---- inputs (bench_inputs.cu): seeded, generated on the device ---- */
typedef enum bench_dist {
    BENCH_DIST_UNIFORM = 0,  /* bucket uniform in [0, B) */
    BENCH_DIST_ONE_BUCKET,   /* every key in bucket B/2 */
    BENCH_DIST_HOCKEY,       /* 75% in bucket B/2, the rest uniform */
    BENCH_DIST_BINOMIAL,     /* bucket ~ Binomial(B-1, 1/2) */
    BENCH_DIST_ASCENDING,    /* bucket = floor(i B / n): input already grouped, ascending */
    BENCH_DIST_DESCENDING,   /* bucket = B-1 - floor(i B / n) */
    BENCH_DIST_COUNT
} bench_dist;
const char *bench_dist_name(bench_dist d);

uint64_t bench_hash64(uint64_t x);
/* keys[i]: bucket id (drawn from d) in bits [0, log2b), random bits above. */
void bench_gen_bucket_keys(uint32_t *keys, size_t n, uint32_t log2b, bench_dist d, uint64_t seed, cudaStream_t s);
void bench_gen_u32(uint32_t *out, size_t n, uint64_t seed, cudaStream_t s);
void bench_gen_u64(uint64_t *out, size_t n, uint64_t seed, cudaStream_t s);
void bench_gen_iota(uint32_t *out, size_t n, cudaStream_t s);
/* A uniformly random permutation of 0 .. n-1 (CUB sort of random keys; allocates its scratch). */
void bench_gen_permutation(uint32_t *perm, size_t n, uint64_t seed, cudaStream_t s);
/* words[r * wpr + w] = bench_record_word(seed, r, w) for n records of wpr 32-bit words. */
void bench_fill_records(uint32_t *words, size_t n, uint32_t wpr, uint64_t seed, cudaStream_t s);
/* pairs[i] = (keys[i], values[i]) */
void bench_zip_pairs(const uint32_t *keys, const uint32_t *values, size_t n, uint32_t *pairs, cudaStream_t s);
/* Fills with 0xff bytes (outputs are poisoned before every verified run). */
void bench_poison(void *p, size_t bytes, cudaStream_t s);

/* ---- baselines (bench_cub.cu): CUB calls, two-phase temp storage like CUB itself ---- */
void cub_sort_keys_u32(void *temp, size_t *bytes, const uint32_t *in, uint32_t *out, size_t n, int begin_bit,
                       int end_bit, cudaStream_t s);
void cub_sort_pairs_u32(void *temp, size_t *bytes, const uint32_t *kin, uint32_t *kout, const uint32_t *vin,
                        uint32_t *vout, size_t n, int begin_bit, int end_bit, cudaStream_t s);
void cub_sort_keys_u64(void *temp, size_t *bytes, const uint64_t *in, uint64_t *out, size_t n, cudaStream_t s);
void cub_sort_pairs_u64(void *temp, size_t *bytes, const uint64_t *kin, uint64_t *kout, const uint32_t *vin,
                        uint32_t *vout, size_t n, cudaStream_t s);
/* DevicePartition::If, selected = (key & 1) == 0 (bucket 0 of B = 2) first, the rest after it in
 * reverse order. Keys (uint32) or pairs (uint2 {key, value}, pairs != 0); num_selected: 1 uint32. */
void cub_partition_b2(void *temp, size_t *bytes, const void *in, void *out, uint32_t *num_selected, size_t n,
                      int pairs, cudaStream_t s);
/* DeviceSegmentedRadixSort::SortPairs over bits [begin_bit, end_bit), offsets of num_segments + 1. */
void cub_segmented_sort_pairs(void *temp, size_t *bytes, const uint32_t *kin, uint32_t *kout, const uint32_t *vin,
                              uint32_t *vout, size_t n, size_t num_segments, const uint32_t *offsets,
                              int begin_bit, int end_bit, cudaStream_t s);
/* Baseline gather of records (16-byte words when aligned, else 4-byte): dst[i] = src[index[i]]. */
void baseline_gather(const void *src, void *dst, const uint32_t *index, size_t n, size_t record_bytes,
                     cudaStream_t s);

/* ---- verification (bench_verify.cu); each returns the number of mismatches (0 = correct) ---- */
/* A bucket rule over uint32 keys, as split.h defines it. */
typedef struct bench_rule {
    int rule;                   /* SPLIT_BUCKETS_BITS, _RANGE or _BOUNDARIES */
    uint32_t num_buckets;
    uint32_t start_bit, mask;   /* BITS */
    uint32_t base, delta;       /* RANGE */
    const uint32_t *boundaries; /* BOUNDARIES: device, num_buckets - 1 sorted */
} bench_rule;
bench_rule bench_rule_of(const split_buckets *b);
/* Words of a and b equal (b read backwards from b_end - 1 when reversed). */
uint64_t bench_diff_u32(const uint32_t *a, const uint32_t *b, size_t words, cudaStream_t s);
uint64_t bench_diff_u32_reversed(const uint32_t *a, const uint32_t *b_end, size_t words, cudaStream_t s);
/* Pairs p[i] = {k[i], v[i]} (reversed: k, v read backwards from their ends). */
uint64_t bench_diff_pairs(const uint32_t *pairs, const uint32_t *k, const uint32_t *v, size_t n, int reversed,
                          cudaStream_t s);
/* hist[b] (device, B entries) = keys in bucket b under the rule (shared-memory bins up to 12K
 * buckets, global atomics above). */
void bench_histogram(const uint32_t *keys, size_t n, const bench_rule *r, uint32_t *hist, cudaStream_t s);
/* offsets[0 .. B] (device) equal the exclusive scan of the histogram of keys under the rule, then n. */
uint64_t bench_check_offsets(const uint32_t *offsets, const uint32_t *keys, size_t n, const bench_rule *r,
                             cudaStream_t s);
/* A split result: the bucket of keys_out[j] is the bucket whose [offsets[b], offsets[b+1]) holds j;
 * with values_out (values_in = 0 .. n-1): values_out is a permutation, keys_out[j] =
 * keys_in[values_out[j]], and with stable, values_out ascends inside each bucket. */
uint64_t bench_check_split(const uint32_t *keys_in, const uint32_t *keys_out, const uint32_t *values_out,
                           const uint32_t *offsets, size_t n, const bench_rule *r, int stable, cudaStream_t s);
/* Gather (dst[i] = record index[i]) or scatter (dst[index[i]] = record i) of records filled by
 * bench_fill_records(seed). */
uint64_t bench_check_move(const uint32_t *dst, const uint32_t *index, size_t n, uint32_t wpr, uint64_t seed,
                          int gather, cudaStream_t s);

/* ---- the commit built from (bench_commit.c: `git describe --always --dirty` at build time, "unknown"
 * outside a checkout) ---- */
const char *bench_commit(void);

/* ---- report (bench_report.c) ---- */
typedef struct bench_row {
    char section[24];   /* "split", "rules", "wide", "segmented", "move", "sort", "records" */
    char impl[48];      /* "split stable", "cub SortPairs 32b", ... */
    char payload[16];   /* "keys", "pairs", "u64 keys", "128B rec", ... */
    char dist[24];
    char note[96];
    uint64_t n;
    uint32_t buckets;
    uint32_t passes;
    double ms;          /* median */
    double gitems;      /* G items (keys, pairs, records) per second */
    double model_bytes; /* bytes of the byte model for this row (0: none) */
    double gbs;         /* model_bytes / time, GB/s */
    double frac_copy;   /* gbs / copy bandwidth */
    int verified;       /* 1: checked and correct, 0: not checked, -1: checked and wrong */
} bench_row;

/* Fills the rate fields from ms, n and model_bytes; appends a copy of the row. */
void report_add(bench_row *row, double copy_gbs);
void report_set_header(const char *gpu_name, int sm_count, int driver_version, int runtime_version,
                       size_t l2_bytes, const char *git_commit, double copy_gbs, const char *options);
/* The JSON file: header fields, the byte models, every row. 0 on success. */
int report_write_json(const char *path);
/* Formats a row's time, rate and fraction of copy bandwidth into buf ("1.234 ms 54.4 G 36%"). */
void report_cell(const bench_row *row, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_BENCH_H */
