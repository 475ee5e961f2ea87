/* demo_records.cu - `split-demo records`: sorting large records (16 .. 512 bytes) by a 32-, 64- or
 * 96-bit key on the GPU, three ways, each verified against a CPU sort before any time is printed; and
 * the one gather of the records with 1, 2, 4, 8 and 16 passes beside the pass count the split
 * library's model picks (split_move_desc.num_passes = 0).
 *
 * A record of B bytes (a multiple of 4) is B/4 32-bit words; record j of the input holds:
 *   words 0 .. kw-1  its key (kw = 1, 2 or 3 for 32-, 64- and 96-bit keys, word 0 the least
 *                    significant; a 96-bit key's high word takes one of 13 values),
 *   word kw          j, its original index,
 *   the rest         a hash of (j, word), the payload.
 * The keys are pseudo-random, except that every 4th record takes one of 997 shared keys, so equal
 * keys are common and stability is checked. The input is generated on the device (gen_records).
 *
 * Every method starts from the records alone: its first kernel (extract_keys, part of the timed
 * work of all three) copies each record's key into a key array. Then:
 *  (a) "split_sort + 1 gather": split_sort (SplitSort, the library's LSD radix sort by stable 8-bit
 *      splits: 4, 8 or 12 passes for 32-, 64- and 96-bit keys, which split_sort takes directly) of the
 *      (key, index) pairs, the index being 0 .. n-1; then ONE split_gather of the whole records by
 *      the sorted indices: out[i] = in[perm[i]].
 *  (b) "multisplit + gather per pass": the naive way, moving whole records at every radix pass. For
 *      each 8-bit digit p, least significant first (4 or 8 passes): one stable split_multisplit of
 *      the current keys (BITS rule, start_bit 8p, 8 bits, 256 buckets) that writes the keys in
 *      digit order (keys_out, the next pass's input) and the pass's gather_index, then one
 *      split_gather of the full records by that index into the other record buffer (ping-pong;
 *      the last pass lands in the output buffer). Each pass reads and writes every record.
 *      96-bit keys (split_multisplit takes 32- and 64-bit keys): the keys travel inside the records;
 *      each of the 12 passes reads its digit from the records as they lie (record_digits), splits
 *      the digits as bucket ids (split_index, IDS rule, stable) and gathers the records by it.
 *  (c) "CUB SortPairs + 1 gather": cub::DeviceRadixSort::SortPairs of the same (key, index) pairs
 *      (all 32, 64 or 96 bits; 96-bit keys through a decomposer of the three words), then the same
 *      one split_gather as (a).
 * Every gather leaves num_passes at 0: the split library's pass-count model picks the passes.
 *
 * Pass counts: for each record size (with the first key width), the one gather of (a) and (c) is
 * run again with 1, 2, 4, 8 and 16 passes and with num_passes = 0, each output checked, each timed;
 * a second table shows the model's choice (split_move_passes), its time and its time over the best
 * listed count (the target: within 10 %).
 *
 * The record layout, its host generation, the CPU reference and the host check live in
 * records_host.c (plain C, tested without a GPU by tests/demo/test_records_ref.c), the kernels in
 * records_kernels.cuh, the options and their parser in records_options.c.
 *
 * Checks: the CPU reference is qsort of (key, original index) pairs on the host (ties broken by the
 * index, i.e. a stable sort), giving the expected original index of every output position. The
 * output of each method (after its first run, and again after the timed runs) is compared word by
 * word with the record that index names (a device kernel regenerating the expected words from the
 * reference permutation, over all n records), and on the host for a sample of records (the first and
 * last 256 and 256 spread between, copied back and compared with records the host generates). Any
 * mismatch: exit 1 naming the method and the first bad record. The table is printed only after
 * every configuration passed.
 *
 * Timing: per method, one warm-up then the median of R runs (CUDA events around the whole method:
 * key extraction, sort or passes, gather). "bytes/rec" is a model of the traffic per record, reads
 * plus writes of what each step moves (histograms, scans and partial-sector waste left out; CUB's
 * passes counted as 8-bit digits like split_sort's):
 *   (a), (c): 2K (extract) + P * (2K + 8) (sort passes over key + 4-byte index) + 4 + 2B (gather)
 *   (b):      2K (extract) + P * (2K + 8 + 2B) (keys, the gather index written and read, the record)
 *   (b), 96-bit keys: P * (4 + 4 + 8 + 4 + 2B) (digit read and written, ids read twice (count and
 *             place), the gather index written and read, the record)
 * with K the key bytes and P = 8K / 8 passes.
 *
 * Memory: three record buffers (input, output, and (b)'s ping-pong buffer) plus keys, indices and
 * temporary storage: when the GPU's free memory (cudaMemGetInfo) cannot hold them for N records of
 * B bytes, N is reduced for that B with a printed note. */
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "records_host.h"
#include "records_kernels.cuh"
#include "records_options.h"
#include "split.h"

#define W "records" /* the subcommand, in messages */

enum { DIGIT_BITS = 8, SAMPLE = 256, KEY_STRIDE = 12, THREADS = 256 /* per block of every kernel */ };

/* ---- the methods --------------------------------------------------------------------------- */

typedef struct rec_ctx {
    size_t n, record_bytes;
    uint32_t key_bits, wpr, kw;
    const uint32_t *rec_in;
    uint32_t *rec_out, *rec_tmp;
    void *keys, *keys2;        /* n keys of KEY_STRIDE bytes each (32- and 64-bit keys use less) */
    const uint32_t *iota;      /* 0 .. n-1 */
    uint32_t *perm, *gidx;     /* sorted indices (a, c); a pass's gather index (b) */
    void *temp;                /* the temporary storage of split_sort, split_multisplit and CUB */
    size_t temp_bytes;         /* the largest of the three needs */
} rec_ctx;

static int extract(const rec_ctx *c, cudaStream_t s)
{
    if (c->key_bits == 32)
        extract_keys32<<<demo_blocks_for(c->n, THREADS), THREADS, 0, s>>>(c->rec_in, (uint32_t *)c->keys, c->n, c->wpr);
    else if (c->key_bits == 64)
        extract_keys64<<<demo_blocks_for(c->n, THREADS), THREADS, 0, s>>>(c->rec_in, (uint64_t *)c->keys, c->n, c->wpr);
    else
        extract_keys96<<<demo_blocks_for(c->n, THREADS), THREADS, 0, s>>>(c->rec_in, (uint32_t *)c->keys, c->n, c->wpr);
    DEMO_CUDA(W, cudaGetLastError());
    return 0;
}

static int gather_once(const rec_ctx *c, cudaStream_t s)
{
    split_move_desc mv = {c->rec_in, c->rec_out, c->record_bytes, c->perm, c->n, 0}; /* passes: the model's */
    DEMO_SPLIT(W, split_gather(&mv, s));
    return 0;
}

static split_sort_desc sort_desc(const rec_ctx *c)
{
    split_sort_desc d;
    memset(&d, 0, sizeof d);
    d.key_bits = c->key_bits;
    d.n = c->n;
    d.keys_in = c->keys;
    d.keys_out = c->keys2;
    d.values_in = c->iota;
    d.values_out = c->perm;
    return d;
}

/* (a) split_sort of (key, index), one gather. */
static int method_split_sort(void *vc, cudaStream_t s)
{
    const rec_ctx *c = (const rec_ctx *)vc;
    if (extract(c, s)) return 1;
    const split_sort_desc d = sort_desc(c);
    size_t bytes = c->temp_bytes;
    DEMO_SPLIT(W, split_sort(c->temp, &bytes, &d, s));
    return gather_once(c, s);
}

static split_desc pass_desc(const rec_ctx *c, uint32_t pass, const void *keys_in, void *keys_out)
{
    split_desc d;
    memset(&d, 0, sizeof d);
    if (c->key_bits == 96) { /* bucket ids from record_digits (in keys2), no keys moved */
        d.key_type = SPLIT_KEY_U32;
        d.n = c->n;
        d.buckets.rule = SPLIT_BUCKETS_IDS;
        d.buckets.num_buckets = 1u << DIGIT_BITS;
        d.buckets.bucket_ids = (const uint32_t *)c->keys2;
        d.gather_index = c->gidx;
        return d;
    }
    d.key_type = c->key_bits == 32 ? SPLIT_KEY_U32 : SPLIT_KEY_U64;
    d.n = c->n;
    d.keys_in = keys_in;
    d.keys_out = keys_out;
    d.buckets.rule = SPLIT_BUCKETS_BITS;
    d.buckets.start_bit = pass * DIGIT_BITS;
    d.buckets.bit_count = DIGIT_BITS;
    d.gather_index = c->gidx;
    return d;
}

/* (b) per 8-bit digit: a stable multisplit of the keys giving the pass's gather index, then a
 * gather of the whole records by it (ping-pong between rec_tmp and rec_out, ending in rec_out). */
static int method_per_pass_ids(const rec_ctx *c, cudaStream_t s);

static int method_per_pass(void *vc, cudaStream_t s)
{
    const rec_ctx *c = (const rec_ctx *)vc;
    if (c->key_bits == 96) return method_per_pass_ids(c, s);
    if (extract(c, s)) return 1;
    const uint32_t passes = c->key_bits / DIGIT_BITS;
    const uint32_t *src = c->rec_in;
    const void *ksrc = c->keys;
    for (uint32_t p = 0; p < passes; ++p) {
        uint32_t *dst = (passes - 1 - p) % 2 == 0 ? c->rec_out : c->rec_tmp;
        void *kdst = p % 2 == 0 ? c->keys2 : c->keys;
        const split_desc d = pass_desc(c, p, ksrc, kdst);
        size_t bytes = c->temp_bytes;
        DEMO_SPLIT(W, split_multisplit(c->temp, &bytes, &d, s));
        split_move_desc mv = {src, dst, c->record_bytes, c->gidx, c->n, 0};
        DEMO_SPLIT(W, split_gather(&mv, s));
        src = dst, ksrc = kdst;
    }
    return 0;
}

/* (b) with 96-bit keys (split_multisplit takes 32- and 64-bit keys): the keys travel inside the
 * records, so each pass reads its digit from the records as they lie (record_digits), splits the
 * digits as bucket ids (split_index, IDS rule, stable) and gathers the records by the result. */
static int method_per_pass_ids(const rec_ctx *c, cudaStream_t s)
{
    const uint32_t passes = c->key_bits / DIGIT_BITS;
    const uint32_t *src = c->rec_in;
    for (uint32_t p = 0; p < passes; ++p) {
        uint32_t *dst = (passes - 1 - p) % 2 == 0 ? c->rec_out : c->rec_tmp;
        record_digits<<<demo_blocks_for(c->n, THREADS), THREADS, 0, s>>>(src, (uint32_t *)c->keys2, c->n, c->wpr, p);
        DEMO_CUDA(W, cudaGetLastError());
        const split_desc d = pass_desc(c, p, NULL, NULL);
        size_t bytes = c->temp_bytes;
        DEMO_SPLIT(W, split_index(c->temp, &bytes, &d, s));
        split_move_desc mv = {src, dst, c->record_bytes, c->gidx, c->n, 0};
        DEMO_SPLIT(W, split_gather(&mv, s));
        src = dst;
    }
    return 0;
}

/* A 96-bit key as split_sort lays it out (word 0 least significant), and CUB's view of it: the
 * words most significant first. */
struct key96 {
    uint32_t w[3];
};
struct key96_decomposer {
    __host__ __device__ cuda::std::tuple<uint32_t &, uint32_t &, uint32_t &> operator()(key96 &k) const
    {
        return {k.w[2], k.w[1], k.w[0]};
    }
};

static cudaError_t cub_sort(const rec_ctx *c, void *temp, size_t *bytes, cudaStream_t s)
{
    if (c->key_bits == 96)
        return cub::DeviceRadixSort::SortPairs(temp, *bytes, (const key96 *)c->keys, (key96 *)c->keys2, c->iota, c->perm,
                                               (int64_t)c->n, key96_decomposer{}, s);
    if (c->key_bits == 32)
        return cub::DeviceRadixSort::SortPairs(temp, *bytes, (const uint32_t *)c->keys, (uint32_t *)c->keys2, c->iota,
                                               c->perm, (int64_t)c->n, 0, 32, s);
    return cub::DeviceRadixSort::SortPairs(temp, *bytes, (const uint64_t *)c->keys, (uint64_t *)c->keys2, c->iota,
                                           c->perm, (int64_t)c->n, 0, 64, s);
}

/* (c) CUB's SortPairs of (key, index), one gather. */
static int method_cub(void *vc, cudaStream_t s)
{
    const rec_ctx *c = (const rec_ctx *)vc;
    if (extract(c, s)) return 1;
    size_t bytes = c->temp_bytes;
    DEMO_CUDA(W, cub_sort(c, c->temp, &bytes, s));
    return gather_once(c, s);
}

static const struct method {
    const char *name;
    demo_work_fn fn;
} methods[] = {
    {"(a) split_sort + 1 gather", method_split_sort},
    {"(b) multisplit + gather per pass", method_per_pass},
    {"(c) CUB SortPairs + 1 gather", method_cub},
};
enum { NUM_METHODS = sizeof methods / sizeof methods[0] };

static uint64_t bytes_moved(uint32_t method, uint64_t record_bytes, uint32_t key_bits)
{
    const uint64_t k = key_bits / 8, passes = key_bits / DIGIT_BITS;
    if (method == 1 && key_bits == 96) return passes * (4 + 4 + 8 + 4 + 2 * record_bytes);
    if (method == 1) return 2 * k + passes * (2 * k + 8 + 2 * record_bytes);
    return 2 * k + passes * (2 * k + 8) + 4 + 2 * record_bytes;
}

/* ---- the CPU reference ---------------------------------------------------------------------- */

/* perm[i] = the original index of the i-th record in (key, index) order (records_host.c). */
static int reference_perm(size_t n, uint32_t key_bits, uint32_t *perm)
{
    return records_reference_perm("split-demo " W, NULL, n, 0, key_bits, perm);
}

/* ---- the checks ----------------------------------------------------------------------------- */

static void describe_bad(const rec_ctx *c, const char *method, size_t i, const uint32_t *ref_perm, const uint32_t *got)
{
    records_describe_bad(stderr, "split-demo " W, method, NULL, c->record_bytes, c->key_bits, c->n, i, ref_perm, got);
}

/* The output of a method against the reference permutation: all records on the device, a sample on
 * the host. */
static int check_output(const rec_ctx *c, const char *method, const uint32_t *ref_perm, const uint32_t *d_ref_perm,
                        unsigned long long *d_first_bad, uint32_t *host_rec)
{
    const uint64_t words = (uint64_t)c->n * c->wpr;
    DEMO_CUDA(W, cudaMemset(d_first_bad, 0xFF, sizeof *d_first_bad));
    check_records<<<demo_blocks_for(words, THREADS), THREADS>>>(c->rec_out, d_ref_perm, words, c->wpr, c->kw, d_first_bad);
    DEMO_CUDA(W, cudaGetLastError());
    unsigned long long first_bad = 0;
    DEMO_CUDA(W, cudaMemcpy(&first_bad, d_first_bad, sizeof first_bad, cudaMemcpyDeviceToHost));
    if (first_bad != ~0ull) {
        DEMO_CUDA(W, cudaMemcpy(host_rec, c->rec_out + (size_t)first_bad * c->wpr, c->record_bytes,
                                cudaMemcpyDeviceToHost));
        describe_bad(c, method, (size_t)first_bad, ref_perm, host_rec);
        return 1;
    }
    /* the host's own look: the first and last SAMPLE records and SAMPLE spread between */
    for (size_t k = 0; k < 3 * (size_t)SAMPLE; ++k) {
        size_t i = k < SAMPLE ? k : k < 2 * SAMPLE ? c->n - 1 - (k - SAMPLE) : (size_t)((k * 2654435761ull) % c->n);
        if (i >= c->n) continue; /* n < SAMPLE */
        DEMO_CUDA(W, cudaMemcpy(host_rec, c->rec_out + i * c->wpr, c->record_bytes, cudaMemcpyDeviceToHost));
        if (!records_record_matches(host_rec, NULL, ref_perm[i], c->wpr, c->kw)) {
            fprintf(stderr, "split-demo " W ": the device check passed but the host's sample differs:\n");
            describe_bad(c, method, i, ref_perm, host_rec);
            return 1;
        }
    }
    return 0;
}

/* ---- the run -------------------------------------------------------------------------------- */

typedef struct row {
    uint32_t record_bytes, key_bits, method; /* method NUM_METHODS: the paper's line */
    size_t n;
    float ms;
} row;

/* The records of B bytes that fit: three record buffers, two key arrays of 8 bytes, four index
 * arrays (iota, perm, gather index, reference) and temporary storage (at most ~48 bytes a record
 * for the sorts' double buffers), besides 512 MiB left free. */
static size_t records_that_fit(size_t want, size_t record_bytes, size_t free_bytes)
{
    const size_t per = 3 * record_bytes + 2 * KEY_STRIDE + 4 * 4 + 48, slack = (size_t)512 << 20;
    if (free_bytes <= slack) return 0;
    const size_t fit = (free_bytes - slack) / per;
    if (fit >= want) return want;
    return fit >= ((size_t)1 << 20) ? fit & ~(((size_t)1 << 20) - 1) : fit;
}

typedef struct buffers {
    uint32_t *rec_in, *rec_out, *rec_tmp, *iota, *perm, *gidx, *ref;
    void *keys, *keys2, *temp;
    unsigned long long *first_bad;
} buffers;

static void free_buffers(buffers *b)
{
    cudaFree(b->rec_in), cudaFree(b->rec_out), cudaFree(b->rec_tmp), cudaFree(b->iota), cudaFree(b->perm);
    cudaFree(b->gidx), cudaFree(b->ref), cudaFree(b->keys), cudaFree(b->keys2), cudaFree(b->temp);
    cudaFree(b->first_bad);
    memset(b, 0, sizeof *b);
}

static int alloc_buffers(buffers *b, size_t n, size_t record_bytes)
{
    memset(b, 0, sizeof *b);
    const size_t rec = n * record_bytes; /* n < 2^32, record_bytes <= 512: no overflow */
    DEMO_CUDA(W, cudaMalloc((void **)&b->rec_in, rec));
    DEMO_CUDA(W, cudaMalloc((void **)&b->rec_out, rec));
    DEMO_CUDA(W, cudaMalloc((void **)&b->rec_tmp, rec));
    DEMO_CUDA(W, cudaMalloc((void **)&b->iota, n * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&b->perm, n * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&b->gidx, n * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&b->ref, n * 4));
    DEMO_CUDA(W, cudaMalloc(&b->keys, n * KEY_STRIDE));
    DEMO_CUDA(W, cudaMalloc(&b->keys2, n * KEY_STRIDE));
    DEMO_CUDA(W, cudaMalloc((void **)&b->first_bad, sizeof *b->first_bad));
    iota_kernel<<<demo_blocks_for(n, THREADS), THREADS>>>(b->iota, n);
    DEMO_CUDA(W, cudaGetLastError());
    return 0;
}

/* The temporary storage of the three methods, the largest need, allocated into c->temp. */
static int alloc_temp(rec_ctx *c, buffers *b)
{
    size_t need = 0, bytes = 0;
    const split_sort_desc sd = sort_desc(c);
    DEMO_SPLIT(W, split_sort(NULL, &bytes, &sd, 0));
    need = bytes > need ? bytes : need;
    for (uint32_t p = 0; p < c->key_bits / DIGIT_BITS; ++p) {
        const split_desc d = pass_desc(c, p, c->keys, c->keys2);
        bytes = 0;
        if (c->key_bits == 96) DEMO_SPLIT(W, split_index(NULL, &bytes, &d, 0));
        else DEMO_SPLIT(W, split_multisplit(NULL, &bytes, &d, 0));
        need = bytes > need ? bytes : need;
    }
    bytes = 0;
    DEMO_CUDA(W, cub_sort(c, NULL, &bytes, 0));
    need = bytes > need ? bytes : need;
    cudaFree(b->temp);
    b->temp = NULL;
    DEMO_CUDA(W, cudaMalloc(&b->temp, need ? need : 1));
    c->temp = b->temp;
    c->temp_bytes = need;
    return 0;
}

/* All methods for one (B, key bits): generated input, the reference, each method run, checked,
 * timed and checked again. Appends NUM_METHODS rows. */
static int run_config(rec_ctx *c, buffers *b, const records_opts *o, uint32_t *ref_perm, size_t *ref_n,
                      uint32_t *host_rec, row *rows, int *num_rows)
{
    c->kw = c->key_bits / 32;
    const uint64_t words = (uint64_t)c->n * c->wpr;
    gen_records<<<demo_blocks_for(words, THREADS), THREADS>>>(b->rec_in, words, c->wpr, c->kw);
    DEMO_CUDA(W, cudaGetLastError());
    if (*ref_n != c->n) { /* the reference of this key width for another n (or none yet) */
        *ref_n = 0;
        if (reference_perm(c->n, c->key_bits, ref_perm)) return 1;
        *ref_n = c->n;
    }
    DEMO_CUDA(W, cudaMemcpy(b->ref, ref_perm, c->n * 4, cudaMemcpyHostToDevice));
    if (alloc_temp(c, b)) return 1;
    for (uint32_t m = 0; m < NUM_METHODS; ++m) {
        DEMO_CUDA(W, cudaMemset(c->rec_out, 0, c->n * c->record_bytes)); /* no stale output passes */
        int rc = methods[m].fn(c, 0);
        if (rc) return rc;
        DEMO_CUDA(W, cudaDeviceSynchronize());
        if (check_output(c, methods[m].name, ref_perm, b->ref, b->first_bad, host_rec)) return 1;
        float ms = 0;
        if ((rc = demo_time(W, methods[m].fn, c, 0, o->runs, &ms)) != 0) return rc;
        if (check_output(c, methods[m].name, ref_perm, b->ref, b->first_bad, host_rec)) return 1;
        row r = {(uint32_t)c->record_bytes, c->key_bits, m, c->n, ms};
        rows[(*num_rows)++] = r;
    }
    printf("split-demo " W ": %zu records of %zu bytes, %u-bit keys: all %d methods equal the CPU sort\n", c->n,
           c->record_bytes, c->key_bits, (int)NUM_METHODS);
    fflush(stdout);
    return 0;
}

/* ---- the pass count of the one gather ----------------------------------------------------------- */

enum { NUM_PASS_COUNTS = 5 };
static const uint32_t pass_counts[NUM_PASS_COUNTS] = {1, 2, 4, 8, 16};

typedef struct pass_row {
    uint32_t record_bytes;
    size_t n;
    float ms[NUM_PASS_COUNTS]; /* the gather with pass_counts[k] passes */
    uint32_t model_passes;     /* split_move_passes' choice for num_passes = 0 */
    float model_ms;            /* the gather with num_passes = 0 */
} pass_row;

static int gather_by_desc(void *vmv, cudaStream_t s)
{
    DEMO_SPLIT(W, split_gather((const split_move_desc *)vmv, s));
    return 0;
}

/* The one gather of methods (a) and (c) (records by the sorted permutation in c->perm, which the last
 * method left there, checked) with 1, 2, 4, 8 and 16 passes and with the model's choice; each output
 * checked before and after its timed runs. */
static int run_pass_counts(const rec_ctx *c, const records_opts *o, const uint32_t *ref_perm,
                           const uint32_t *d_ref_perm, unsigned long long *d_first_bad, uint32_t *host_rec,
                           pass_row *out)
{
    memset(out, 0, sizeof *out);
    out->record_bytes = (uint32_t)c->record_bytes;
    out->n = c->n;
    split_move_desc mv = {c->rec_in, c->rec_out, c->record_bytes, c->perm, c->n, 0};
    DEMO_SPLIT(W, split_move_passes(&mv, 0, &out->model_passes));
    for (int k = 0; k <= NUM_PASS_COUNTS; ++k) {
        mv.num_passes = k < NUM_PASS_COUNTS ? pass_counts[k] : 0;
        char name[64];
        snprintf(name, sizeof name, "gather with %u passes%s", k < NUM_PASS_COUNTS ? mv.num_passes : out->model_passes,
                 k < NUM_PASS_COUNTS ? "" : " (the model's choice)");
        DEMO_CUDA(W, cudaMemset(c->rec_out, 0, c->n * c->record_bytes));
        int rc = gather_by_desc(&mv, 0);
        if (rc) return rc;
        DEMO_CUDA(W, cudaDeviceSynchronize());
        if (check_output(c, name, ref_perm, d_ref_perm, d_first_bad, host_rec)) return 1;
        float ms = 0;
        if ((rc = demo_time(W, gather_by_desc, &mv, 0, o->runs, &ms)) != 0) return rc;
        if (check_output(c, name, ref_perm, d_ref_perm, d_first_bad, host_rec)) return 1;
        if (k < NUM_PASS_COUNTS) out->ms[k] = ms;
        else out->model_ms = ms;
    }
    return 0;
}

/* The model's choice against the listed pass counts; returns the number of sizes where the model's
 * gather is more than 10 % slower than the best listed count. */
static int print_pass_table(const pass_row *rows, int num_rows)
{
    int missed = 0;
    printf("\nthe one gather (records by the sorted permutation), ms per pass count; model = num_passes 0 "
           "(split_move_passes)\n%6s %10s", "bytes", "records");
    for (int k = 0; k < NUM_PASS_COUNTS; ++k) printf(" %7u p", pass_counts[k]);
    printf(" | %6s %9s %7s\n", "model", "ms", "/ best");
    for (int i = 0; i < num_rows; ++i) {
        const pass_row *r = &rows[i];
        float best = r->ms[0];
        printf("%6u %10zu", r->record_bytes, r->n);
        for (int k = 0; k < NUM_PASS_COUNTS; ++k) {
            printf(" %9.3f", r->ms[k]);
            if (r->ms[k] < best) best = r->ms[k];
        }
        const double ratio = best > 0 ? r->model_ms / best : 0.0;
        const int ok = ratio <= 1.10;
        missed += !ok;
        printf(" | %6u %9.3f %7.3f %s\n", r->model_passes, r->model_ms, ratio, ok ? "within 10%" : "MISSED: > 10%");
    }
    return missed;
}

static void print_table(const row *rows, int num_rows)
{
    printf("\n%6s %4s  %-34s %10s %10s %12s %10s\n", "bytes", "key", "method", "records", "ms", "Mrecords/s",
           "bytes/rec");
    for (int i = 0; i < num_rows; ++i) {
        const row *r = &rows[i];
        const double rate = r->ms > 0 ? (double)r->n / (r->ms * 1e-3) / 1e6 : 0;
        if (r->method == NUM_METHODS)
            printf("%6u %4u  %-34s %10zu %10.3f %12.1f %10s\n", r->record_bytes, r->key_bits,
                   "Patidar 2009 (paper, reference)", r->n, r->ms, rate, "-");
        else
            printf("%6u %4u  %-34s %10zu %10.3f %12.1f %10llu\n", r->record_bytes, r->key_bits,
                   methods[r->method].name, r->n, r->ms, rate,
                   (unsigned long long)bytes_moved(r->method, r->record_bytes, r->key_bits));
    }
    printf("ms: median of the timed runs after 1 warm-up (CUDA events, whole method: key extraction, sort or\n"
           "passes, gather); bytes/rec: a model of the reads + writes per record (see demo_records.cu).\n"
           "Patidar 2009 (split primitives, GTX 280-class GPU): 16M x 128-byte records, 379 ms with 4-byte keys,\n"
           "556 ms with 8-byte keys (no figure for 12-byte keys).\n");
}

int demo_records(int argc, char **argv)
{
    records_opts o;
    const int parsed = records_parse_options(argc, argv, &o);
    if (parsed == 1) return 0;
    if (parsed) return parsed;
    const int no_device = demo_require_device(W);
    if (no_device) return no_device;

    const size_t max_rows = (size_t)o.num_sizes * (size_t)o.num_key_widths * (NUM_METHODS + 1);
    row *rows = (row *)malloc(max_rows * sizeof *rows);
    pass_row pass_rows[RECORDS_MAX_SIZES];
    int num_pass_rows = 0;
    uint32_t *host_rec = (uint32_t *)malloc(512);
    /* the CPU reference of each key width, kept while n stays (ref_n: the n it is for) */
    uint32_t *ref_perm[RECORDS_MAX_KEY_WIDTHS] = {NULL, NULL};
    size_t ref_n[RECORDS_MAX_KEY_WIDTHS] = {0, 0};
    for (int ki = 0; ki < o.num_key_widths; ++ki) ref_perm[ki] = (uint32_t *)malloc((size_t)o.count * 4);
    if (!rows || !host_rec || !ref_perm[0] || (o.num_key_widths > 1 && !ref_perm[1])) {
        fprintf(stderr, "split-demo " W ": host allocation for %llu records failed\n", (unsigned long long)o.count);
        free(rows), free(host_rec), free(ref_perm[0]), free(ref_perm[1]);
        return 1;
    }
    int num_rows = 0, rc = 0;
    for (int si = 0; rc == 0 && si < o.num_sizes; ++si) {
        const size_t record_bytes = o.sizes[si];
        size_t free_bytes = 0, total_bytes = 0;
        if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
            fprintf(stderr, "split-demo " W ": cudaMemGetInfo failed: %s\n", cudaGetErrorString(cudaGetLastError()));
            rc = 1;
            break;
        }
        const size_t n = records_that_fit((size_t)o.count, record_bytes, free_bytes);
        if (n == 0) {
            fprintf(stderr, "split-demo " W ": %zu-byte records: %.2f GiB of GPU memory free, too little for even "
                            "one record's buffers and 512 MiB of headroom; refusing this size\n",
                    record_bytes, free_bytes / 1073741824.0);
            rc = 1;
            break;
        }
        if (n < (size_t)o.count)
            printf("split-demo " W ": note: %llu records of %zu bytes need about %.1f GiB of GPU memory (3 record "
                   "buffers, keys, indices, temporary storage); %.1f GiB free: using %zu records for this size\n",
                   (unsigned long long)o.count, record_bytes,
                   ((double)o.count * (3.0 * record_bytes + 88) + 536870912.0) / 1073741824.0,
                   free_bytes / 1073741824.0, n);
        buffers b;
        if (alloc_buffers(&b, n, record_bytes)) {
            free_buffers(&b);
            rc = 1;
            break;
        }
        for (int ki = 0; rc == 0 && ki < o.num_key_widths; ++ki) {
            rec_ctx c;
            memset(&c, 0, sizeof c);
            c.n = n, c.record_bytes = record_bytes, c.key_bits = o.key_bits[ki], c.wpr = (uint32_t)(record_bytes / 4);
            c.rec_in = b.rec_in, c.rec_out = b.rec_out, c.rec_tmp = b.rec_tmp, c.keys = b.keys, c.keys2 = b.keys2;
            c.iota = b.iota, c.perm = b.perm, c.gidx = b.gidx;
            rc = run_config(&c, &b, &o, ref_perm[ki], &ref_n[ki], host_rec, rows, &num_rows);
            if (rc == 0 && ki == 0) /* the gather does not depend on the key: once per record size */
                rc = run_pass_counts(&c, &o, ref_perm[ki], b.ref, b.first_bad, host_rec, &pass_rows[num_pass_rows++]);
            if (rc == 0 && record_bytes == 128 && c.key_bits <= 64) { /* the paper timed 4- and 8-byte keys */
                row r = {128, c.key_bits, NUM_METHODS, (size_t)1 << 24, c.key_bits == 32 ? 379.0f : 556.0f};
                rows[num_rows++] = r;
            }
        }
        free_buffers(&b);
    }
    if (rc == 0) {
        print_table(rows, num_rows); /* only now: every configuration has passed its checks */
        const int missed = print_pass_table(pass_rows, num_pass_rows);
        if (missed)
            printf("split-demo " W ": the pass-count model's gather is more than 10%% slower than the best listed "
                   "count for %d record size%s (a performance target, not a correctness check)\n", missed,
                   missed > 1 ? "s" : "");
        printf("split-demo " W ": verified\n");
    }
    free(rows), free(host_rec), free(ref_perm[0]), free(ref_perm[1]);
    return rc;
}
