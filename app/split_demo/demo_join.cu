/* demo_join.cu - `split-demo join`: the relational equi-join R ⋈ S on 32-bit keys with 32-bit payloads
 * built from split (after He et al., "Relational joins on graphics processors", SIGMOD 2008), five
 * GPU methods and the CPU, each checked against the CPU hash join before any time is printed.
 *
 * Input (join_host.h, generated on the device by the same inline functions the host uses, and
 * compared with the host's copy): R has D = ceil(|R| / K) distinct keys (K = --r-dup), tuple i the
 * key of key index i % D, a hash-derived bijection of 2 * (i % D), and payload i; S tuple j has
 * payload j and, with probability F (--match), the key of an R key index drawn uniformly or by a
 * Zipf(theta) rank (--dist zipf: rank 0 is the hottest key), otherwise a key that is a bijection of
 * an odd number, never an R key. So the output has sum over matching S tuples of their key's copies
 * in R pairs (K per matching S tuple when K divides |R|): a real many-to-many join.
 *
 * Every method writes its output pairs (key, r_payload, s_payload) as three arrays into one device
 * buffer by count, exclusive scan, write: a count pass gives each partition's (or S tuple's) number
 * of pairs, cub::DeviceScan::ExclusiveSum turns them into write offsets, and a write pass writes
 * each pair at its offset (never past the buffer: every store is checked against its capacity). The
 * buffer holds the exact output size, known from the generator and confirmed by the CPU join; in
 * the checked run the count pass's total is read back and compared with it before the write pass.
 *  hash/split  radix-partitioned hash join: R and S each partitioned on the key's low b bits (b from
 *              join_partition_bits: average R partition <= 1024 tuples, S partition <= 4096, or
 *              --part-bits) by the split library, payloads as values (join_partition_plan): up to
 *              8 bits one split_multisplit (BITS rule, unstable, the 2^b + 1 partition offsets as
 *              bucket_offsets); above, two radix passes of at most 2^11 buckets each, least
 *              significant first: split_multisplit by bits [0, b/2) (unstable), then a stable
 *              split_multisplit by bits [b/2, b), leaving each relation sorted by its low b bits,
 *              and the partition offsets by a binary search per partition (--part-levels 1 forces
 *              one pass, the wide path above 2048 partitions); then one thread block per partition:
 *              its R partition in chunks of 2048 tuples, each chunk a chained hash table in shared
 *              memory (2048 heads) probed by the whole S partition.
 *              An R partition larger than a chunk (skew, duplicates) takes several chunks; a large S
 *              partition just takes longer. The count pass and the write pass run the same kernel;
 *              the write pass reserves each warp's pairs with one shared-memory atomic.
 *  hash/cub    the same join with cub::DeviceRadixSort::SortPairs over bits [0, b) as the
 *              partitioner, partition offsets by a binary search per partition afterwards.
 *  sort-merge  split_sort (SplitSort, payloads as values) of R and of S, then per sorted S tuple the
 *              run of its key in sorted R by two binary searches (count: the run's length, kept with
 *              its start), scan, write. Sorted S makes neighbouring searches follow one path.
 *  inlj        indexed nested-loop join: R sorted once by split_sort into an index (its build time a
 *              row of its own), then each S tuple, in input order, probes it by binary search.
 *  bnlj        block nested-loop join for |R| <= 2^15 only (skipped with the reason above): each
 *              block holds 1024 S tuples in registers (4 per thread) and stages R through shared
 *              memory in tiles of 2048 keys, comparing every pair; count, scan, write.
 *  cpu         the plain hash join of join_host.c (chained table, build then probe), timed with the
 *              wall clock: the reference of every check and the base of the speed-ups.
 *
 * Checks: the CPU join's count must equal the generator's; each GPU method's count and checksum (the
 * number of pairs and the sum mod 2^64 of a 64-bit mix of each pair, order-independent: payloads
 * are tuple indices, so a dropped, duplicated or altered pair changes it) must equal the CPU join's,
 * after its first run and again after the timed runs; the output buffer is filled with 0xFF before
 * the first run so stale pairs cannot pass. Any mismatch: exit 1 naming the method and what differs.
 * --rows K prints the first K pairs of the first GPU method in (key, r_payload, s_payload) order
 * (sorted on the host) and checks every later GPU method's first K pairs equal them.
 *
 * Timing: per method one warm-up then the median of --runs runs (CUDA events around the whole method:
 * partitioning or sorting of both relations, count, scan, write); tuples/s is (|R| + |S|) / time.
 * Memory: the device buffers (inputs, partitioned copies, offsets, counts, the output, temporary
 * storage) are checked against cudaMemGetInfo before they are allocated, with a clear message.
 *
 * The kernels are in join_kernels.cuh, the options and their parser in join_options.c; this file
 * holds the methods, the host side of the run, the device buffers, the checks and the run. */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "demo.h"
#include "join_host.h"
#include "join_kernels.cuh"
#include "join_options.h"
#include "split.h"

#define W "join" /* the subcommand, in messages */

static const size_t SLACK_BYTES = (size_t)256 << 20; /* GPU memory left free */


/* ---- the methods ------------------------------------------------------------------------------- */

typedef struct join_ctx {
    join_gen g;
    uint32_t nr, ns, bits, parts, levels;  /* levels: of hash/split's partitioning (join_partition_plan) */
    const uint32_t *r_key, *r_pay, *s_key, *s_pay; /* the generated relations */
    uint32_t *r_key2, *r_pay2, *s_key2, *s_pay2;   /* partitioned or sorted copies */
    uint32_t *r_off, *s_off;                       /* parts + 1 partition offsets each */
    uint32_t *k_tmp, *p_tmp;                       /* two-pass partitioning: the first pass's output */
    uint32_t *count, *out_off;                     /* max(parts, ns) + 1: counts and their exclusive sums */
    uint32_t *first;                               /* ns: each S tuple's first match in sorted R */
    uint32_t *out_k, *out_r, *out_s;               /* the output pairs */
    uint32_t cap;                                  /* their capacity: the exact output size */
    void *temp;
    size_t temp_bytes;
    const char *method; /* in messages */
    int checked_run;    /* nonzero: read the count pass's total back and compare it before writing */
    int partitions_printed;
} join_ctx;

static split_sort_desc sort_desc(uint32_t n, const uint32_t *k, const uint32_t *p, uint32_t *k2, uint32_t *p2)
{
    split_sort_desc d;
    memset(&d, 0, sizeof d);
    d.key_bits = 32;
    d.n = n;
    d.keys_in = k;
    d.keys_out = k2;
    d.values_in = p;
    d.values_out = p2;
    return d;
}

/* count[0 .. items) written by a count pass: count[items] = 0, out_off = the exclusive sums (entry
 * items the total); in the checked run the total is compared with the expected output size. */
static int scan_counts(const join_ctx *c, uint32_t items, cudaStream_t s)
{
    DEMO_CUDA(W, cudaMemsetAsync(c->count + items, 0, sizeof(uint32_t), s));
    size_t bytes = c->temp_bytes;
    DEMO_CUDA(W, cub::DeviceScan::ExclusiveSum(c->temp, bytes, c->count, c->out_off, (int64_t)items + 1, s));
    if (!c->checked_run) return 0;
    uint32_t total = 0;
    DEMO_CUDA(W, cudaMemcpyAsync(&total, c->out_off + items, sizeof total, cudaMemcpyDeviceToHost, s));
    DEMO_CUDA(W, cudaStreamSynchronize(s));
    if (total != c->cap) {
        fprintf(stderr, "split-demo " W ": method %s: MISMATCH: the count pass found %u output pairs, the CPU hash "
                        "join %u\n", c->method, total, c->cap);
        return 1;
    }
    return 0;
}

/* The hash join of the partitioned relations (r_key2 .. s_pay2, r_off, s_off): count, scan, write. */
static int hash_join(const join_ctx *c, cudaStream_t s)
{
    hash_join_partitions<false><<<c->parts, THREADS, 0, s>>>(c->r_key2, c->r_pay2, c->r_off, c->s_key2, c->s_pay2,
                                                             c->s_off, c->count, NULL, NULL, NULL, NULL, 0);
    DEMO_CUDA(W, cudaGetLastError());
    if (scan_counts(c, c->parts, s)) return 1;
    hash_join_partitions<true><<<c->parts, THREADS, 0, s>>>(c->r_key2, c->r_pay2, c->r_off, c->s_key2, c->s_pay2,
                                                            c->s_off, NULL, c->out_off, c->out_k, c->out_r, c->out_s,
                                                            c->cap);
    DEMO_CUDA(W, cudaGetLastError());
    return 0;
}

static join_partition_plan plan_r(const join_ctx *c)
{
    return join_partition_plan_make(c->nr, c->bits, c->levels, c->r_key, c->r_pay, c->k_tmp, c->p_tmp, c->r_key2,
                                    c->r_pay2, c->r_off);
}

static join_partition_plan plan_s(const join_ctx *c)
{
    return join_partition_plan_make(c->ns, c->bits, c->levels, c->s_key, c->s_pay, c->k_tmp, c->p_tmp, c->s_key2,
                                    c->s_pay2, c->s_off);
}

/* One relation partitioned by its plan: one split_multisplit, or (two passes) a split_multisplit by
 * the low part, a stable one by the high part and the partition offsets by binary search. The tmp
 * arrays serve R, then S. */
static int partition_split(const join_ctx *c, const join_partition_plan *p, cudaStream_t s)
{
    size_t bytes = c->temp_bytes;
    DEMO_SPLIT(W, split_multisplit(c->temp, &bytes, &p->first, s));
    if (p->levels == 1) return 0;
    bytes = c->temp_bytes;
    DEMO_SPLIT(W, split_multisplit(c->temp, &bytes, &p->second, s));
    partition_offsets<<<demo_blocks_for((uint64_t)c->parts + 1, THREADS), THREADS, 0, s>>>(p->keys_out, (uint32_t)p->n, c->parts - 1,
                                                                           c->parts, p->part_offsets);
    DEMO_CUDA(W, cudaGetLastError());
    return 0;
}

static int method_hash_split(void *vc, cudaStream_t s)
{
    const join_ctx *c = (const join_ctx *)vc;
    const join_partition_plan pr = plan_r(c), ps = plan_s(c);
    if (partition_split(c, &pr, s) || partition_split(c, &ps, s)) return 1;
    return hash_join(c, s);
}

static cudaError_t cub_partition(const join_ctx *c, void *temp, size_t *bytes, uint32_t n, const uint32_t *k,
                                 const uint32_t *p, uint32_t *k2, uint32_t *p2, cudaStream_t s)
{
    return cub::DeviceRadixSort::SortPairs(temp, *bytes, k, k2, p, p2, (int64_t)n, 0, (int)c->bits, s);
}

static int method_hash_cub(void *vc, cudaStream_t s)
{
    const join_ctx *c = (const join_ctx *)vc;
    const uint32_t mask = c->parts - 1;
    size_t bytes = c->temp_bytes;
    DEMO_CUDA(W, cub_partition(c, c->temp, &bytes, c->nr, c->r_key, c->r_pay, c->r_key2, c->r_pay2, s));
    bytes = c->temp_bytes;
    DEMO_CUDA(W, cub_partition(c, c->temp, &bytes, c->ns, c->s_key, c->s_pay, c->s_key2, c->s_pay2, s));
    partition_offsets<<<demo_blocks_for((uint64_t)c->parts + 1, THREADS), THREADS, 0, s>>>(c->r_key2, c->nr, mask, c->parts, c->r_off);
    DEMO_CUDA(W, cudaGetLastError());
    partition_offsets<<<demo_blocks_for((uint64_t)c->parts + 1, THREADS), THREADS, 0, s>>>(c->s_key2, c->ns, mask, c->parts, c->s_off);
    DEMO_CUDA(W, cudaGetLastError());
    return hash_join(c, s);
}

static int sort_r(const join_ctx *c, cudaStream_t s)
{
    const split_sort_desc d = sort_desc(c->nr, c->r_key, c->r_pay, c->r_key2, c->r_pay2);
    size_t bytes = c->temp_bytes;
    DEMO_SPLIT(W, split_sort(c->temp, &bytes, &d, s));
    return 0;
}

/* Probes of sorted R (r_key2, r_pay2) by the S tuples sk/sp: count, scan, write. */
static int probe_sorted_r(const join_ctx *c, const uint32_t *sk, const uint32_t *sp, cudaStream_t s)
{
    probe_count<<<demo_blocks_for(c->ns, THREADS), THREADS, 0, s>>>(c->r_key2, c->nr, sk, c->ns, c->count, c->first);
    DEMO_CUDA(W, cudaGetLastError());
    if (scan_counts(c, c->ns, s)) return 1;
    probe_write<<<demo_blocks_for(c->ns, THREADS), THREADS, 0, s>>>(c->r_pay2, sk, sp, c->ns, c->count, c->first, c->out_off, c->out_k,
                                                    c->out_r, c->out_s, c->cap);
    DEMO_CUDA(W, cudaGetLastError());
    return 0;
}

static int method_sort_merge(void *vc, cudaStream_t s)
{
    const join_ctx *c = (const join_ctx *)vc;
    if (sort_r(c, s)) return 1;
    const split_sort_desc d = sort_desc(c->ns, c->s_key, c->s_pay, c->s_key2, c->s_pay2);
    size_t bytes = c->temp_bytes;
    DEMO_SPLIT(W, split_sort(c->temp, &bytes, &d, s));
    return probe_sorted_r(c, c->s_key2, c->s_pay2, s);
}

static int method_inlj_build(void *vc, cudaStream_t s)
{
    return sort_r((const join_ctx *)vc, s);
}

static int method_inlj_probe(void *vc, cudaStream_t s)
{
    const join_ctx *c = (const join_ctx *)vc;
    return probe_sorted_r(c, c->s_key, c->s_pay, s);
}

static int method_inlj(void *vc, cudaStream_t s)
{
    return method_inlj_build(vc, s) ? 1 : method_inlj_probe(vc, s);
}

static int method_bnlj(void *vc, cudaStream_t s)
{
    const join_ctx *c = (const join_ctx *)vc;
    const unsigned blocks = (unsigned)(((uint64_t)c->ns + THREADS * BNLJ_PER_THREAD - 1) / (THREADS * BNLJ_PER_THREAD));
    bnlj<false><<<blocks, THREADS, 0, s>>>(c->r_key, c->r_pay, c->nr, c->s_key, c->s_pay, c->ns, c->count, NULL, NULL,
                                           NULL, NULL, 0);
    DEMO_CUDA(W, cudaGetLastError());
    if (scan_counts(c, c->ns, s)) return 1;
    bnlj<true><<<blocks, THREADS, 0, s>>>(c->r_key, c->r_pay, c->nr, c->s_key, c->s_pay, c->ns, NULL, c->out_off,
                                          c->out_k, c->out_r, c->out_s, c->cap);
    DEMO_CUDA(W, cudaGetLastError());
    return 0;
}

/* ---- the host side of the run ------------------------------------------------------------------ */

typedef struct host_data {
    uint32_t *rk, *rp, *sk, *sp, *cdf, *scratch;
    join_gen g;
    uint64_t expected;
    join_sum ref;
    uint32_t *rows; /* --rows: the first GPU method's first K rows, 3 words each */
    size_t rows_n;
} host_data;

static void free_host(host_data *h)
{
    free(h->rk), free(h->rp), free(h->sk), free(h->sp), free(h->cdf), free(h->scratch), free(h->rows);
    memset(h, 0, sizeof *h);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* R, S and the Zipf table on the host, and the expected output size. */
static int host_generate(const join_opts *o, host_data *h)
{
    join_gen_init(&h->g, o->seed, o->nr, o->ns, o->dup, o->match, o->zipf);
    h->rk = (uint32_t *)malloc(o->nr * 4), h->rp = (uint32_t *)malloc(o->nr * 4);
    h->sk = (uint32_t *)malloc(o->ns * 4), h->sp = (uint32_t *)malloc(o->ns * 4);
    h->scratch = (uint32_t *)malloc((o->nr > o->ns ? o->nr : o->ns) * 4);
    h->cdf = o->zipf ? join_zipf_table(h->g.distinct, o->theta) : (uint32_t *)calloc(1, 4);
    if (!h->rk || !h->rp || !h->sk || !h->sp || !h->scratch || !h->cdf) {
        fprintf(stderr, "split-demo " W ": host allocation for %llu + %llu tuples failed\n", (unsigned long long)o->nr,
                (unsigned long long)o->ns);
        return 1;
    }
    join_generate_r(&h->g, h->rk, h->rp);
    join_generate_s(&h->g, h->cdf, h->sk, h->sp);
    h->expected = join_expected_pairs(&h->g, h->cdf);
    return 0;
}

static void print_header(const join_opts *o, const host_data *h)
{
    printf("split-demo " W ": R %llu tuples, %u distinct keys x %u copies (tuple i: key index i %% %u, key a seeded\n"
           "  bijection of 2 x key index, payload i)\n",
           (unsigned long long)o->nr, h->g.distinct, o->dup, h->g.distinct);
    printf("split-demo " W ": S %llu tuples (tuple j: payload j), a fraction %.4f with an R key drawn ",
           (unsigned long long)o->ns, o->match);
    if (o->zipf)
        printf("Zipf(theta %.3f)\n  by rank (rank 0 the hottest R key)", o->theta);
    else
        printf("uniformly\n  from R's keys");
    printf(", the rest with keys absent from R (bijections of odd numbers); seed %llu\n"
           "split-demo " W ": expected output %llu pairs (%.3f per S tuple)\n",
           (unsigned long long)o->seed, (unsigned long long)h->expected, (double)h->expected / (double)o->ns);
    fflush(stdout);
}

/* The CPU hash join: the reference (its count must be the generator's), timed as the median of runs. */
static int cpu_reference(const join_opts *o, host_data *h, int timed, float *ms)
{
    const join_rel r = {h->rk, h->rp, (size_t)o->nr}, s = {h->sk, h->sp, (size_t)o->ns};
    const int runs = timed ? o->runs : 1;
    float *t = (float *)malloc((size_t)runs * sizeof *t);
    if (!t) {
        fprintf(stderr, "split-demo " W ": host allocation failed\n");
        return 1;
    }
    for (int i = 0; i < runs; ++i) {
        const double t0 = now_ms();
        if (join_cpu_hash(&r, &s, &h->ref, NULL) != 0) {
            fprintf(stderr, "split-demo " W ": host allocation for the CPU hash join failed\n");
            free(t);
            return 1;
        }
        t[i] = (float)(now_ms() - t0);
    }
    *ms = demo_median(t, runs);
    free(t);
    if (h->ref.count != h->expected) {
        fprintf(stderr, "split-demo " W ": method cpu: MISMATCH: the CPU hash join found %llu pairs, the generator "
                        "expects %llu\n", (unsigned long long)h->ref.count, (unsigned long long)h->expected);
        return 1;
    }
    return 0;
}

/* ---- device buffers ----------------------------------------------------------------------------- */

typedef struct dev_bufs {
    uint32_t *r_key, *r_pay, *s_key, *s_pay, *r_key2, *r_pay2, *s_key2, *s_pay2;
    uint32_t *r_off, *s_off, *count, *out_off, *first, *out_k, *out_r, *out_s, *cdf, *k_tmp, *p_tmp;
    void *temp;
    unsigned long long *sum;
} dev_bufs;

static void free_dev(dev_bufs *b)
{
    uint32_t **arrays[] = {&b->r_key, &b->r_pay, &b->s_key, &b->s_pay, &b->r_key2, &b->r_pay2, &b->s_key2, &b->s_pay2,
                           &b->r_off, &b->s_off, &b->count, &b->out_off, &b->first, &b->out_k, &b->out_r, &b->out_s,
                           &b->cdf, &b->k_tmp, &b->p_tmp};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) cudaFree(*arrays[i]), *arrays[i] = NULL;
    cudaFree(b->temp), cudaFree(b->sum);
    b->temp = NULL, b->sum = NULL;
}

static int check_free_memory(const char *what, size_t need)
{
    size_t free_bytes = 0, total_bytes = 0;
    DEMO_CUDA(W, cudaMemGetInfo(&free_bytes, &total_bytes));
    if (free_bytes < SLACK_BYTES || free_bytes - SLACK_BYTES < need) {
        fprintf(stderr, "split-demo " W ": %s need %.2f GiB of GPU memory, %.2f GiB is free (%.2f GiB kept as "
                        "headroom); use smaller --r / --s or fewer pairs (--match, --r-dup)\n",
                what, need / 1073741824.0, free_bytes / 1073741824.0, SLACK_BYTES / 1073741824.0);
        return 1;
    }
    return 0;
}

/* Allocates the buffers (checked against the free memory first), generates R and S on the device and
 * compares them with the host's. */
static int setup_device(const join_opts *o, host_data *h, join_ctx *c, dev_bufs *b)
{
    memset(b, 0, sizeof *b);
    const size_t nr = (size_t)o->nr, ns = (size_t)o->ns, parts = c->parts;
    const size_t items = (parts > ns ? parts : ns) + 1;
    const size_t cdf_n = o->zipf && h->g.distinct > 1 ? (size_t)h->g.distinct - 1 : 1;
    const size_t cap = (size_t)h->expected ? (size_t)h->expected : 1;
    /* n <= 2^26, parts <= 2^24, expected < 2^32: no product below overflows 64 bits */
    const size_t nt = c->levels == 2 ? (nr > ns ? nr : ns) : 1;
    const size_t need = 16 * (nr + ns) + 8 * (parts + 1) + 8 * items + 4 * ns + 12 * cap + 4 * cdf_n + 8 * nt + 64;
    if (check_free_memory("the relations, their partitioned copies, offsets, counts and the output pairs", need))
        return 1;
    uint32_t **arrays[] = {&b->r_key, &b->r_pay, &b->r_key2, &b->r_pay2, &b->s_key, &b->s_pay, &b->s_key2, &b->s_pay2,
                           &b->r_off, &b->s_off, &b->count, &b->out_off, &b->first, &b->out_k, &b->out_r, &b->out_s,
                           &b->cdf, &b->k_tmp, &b->p_tmp};
    const size_t sizes[] = {nr, nr,  nr,  nr,  ns,    ns, ns, ns, parts + 1, parts + 1, items, items,
                            ns, cap, cap, cap, cdf_n, nt, nt};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        DEMO_CUDA(W, cudaMalloc((void **)arrays[i], sizes[i] * sizeof(uint32_t)));
    DEMO_CUDA(W, cudaMalloc((void **)&b->sum, sizeof *b->sum));
    DEMO_CUDA(W, cudaMemcpy(b->cdf, h->cdf, cdf_n * 4, cudaMemcpyHostToDevice));
    gen_r<<<demo_blocks_for(nr, THREADS), THREADS>>>(h->g, b->r_key, b->r_pay);
    DEMO_CUDA(W, cudaGetLastError());
    gen_s<<<demo_blocks_for(ns, THREADS), THREADS>>>(h->g, b->cdf, b->s_key, b->s_pay);
    DEMO_CUDA(W, cudaGetLastError());
    const uint32_t *dev[] = {b->r_key, b->r_pay, b->s_key, b->s_pay}, *host[] = {h->rk, h->rp, h->sk, h->sp};
    const char *const what[] = {"R key", "R payload", "S key", "S payload"};
    for (int a = 0; a < 4; ++a) {
        const size_t n = a < 2 ? nr : ns;
        DEMO_CUDA(W, cudaMemcpy(h->scratch, dev[a], n * 4, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < n; ++i)
            if (h->scratch[i] != host[a][i]) {
                fprintf(stderr, "split-demo " W ": the device generated %s %zu = 0x%08x, the host 0x%08x\n", what[a], i,
                        h->scratch[i], host[a][i]);
                return 1;
            }
    }

    c->nr = (uint32_t)nr, c->ns = (uint32_t)ns, c->cap = (uint32_t)h->expected;
    c->r_key = b->r_key, c->r_pay = b->r_pay, c->s_key = b->s_key, c->s_pay = b->s_pay;
    c->r_key2 = b->r_key2, c->r_pay2 = b->r_pay2, c->s_key2 = b->s_key2, c->s_pay2 = b->s_pay2;
    c->r_off = b->r_off, c->s_off = b->s_off, c->count = b->count, c->out_off = b->out_off, c->first = b->first;
    c->out_k = b->out_k, c->out_r = b->out_r, c->out_s = b->out_s;
    c->k_tmp = b->k_tmp, c->p_tmp = b->p_tmp;

    /* the temporary storage: the largest need of every call, queried with the pointers they use */
    size_t need_temp = 0;
    const join_partition_plan pr = plan_r(c), ps = plan_s(c);
    const split_sort_desc sr = sort_desc(c->nr, c->r_key, c->r_pay, c->r_key2, c->r_pay2);
    const split_sort_desc ss = sort_desc(c->ns, c->s_key, c->s_pay, c->s_key2, c->s_pay2);
    size_t bytes[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    DEMO_SPLIT(W, split_multisplit(NULL, &bytes[0], &pr.first, 0));
    DEMO_SPLIT(W, split_multisplit(NULL, &bytes[1], &ps.first, 0));
    if (c->levels == 2) {
        DEMO_SPLIT(W, split_multisplit(NULL, &bytes[7], &pr.second, 0));
        DEMO_SPLIT(W, split_multisplit(NULL, &bytes[8], &ps.second, 0));
    }
    DEMO_SPLIT(W, split_sort(NULL, &bytes[2], &sr, 0));
    DEMO_SPLIT(W, split_sort(NULL, &bytes[3], &ss, 0));
    DEMO_CUDA(W, cub_partition(c, NULL, &bytes[4], c->nr, c->r_key, c->r_pay, c->r_key2, c->r_pay2, 0));
    DEMO_CUDA(W, cub_partition(c, NULL, &bytes[5], c->ns, c->s_key, c->s_pay, c->s_key2, c->s_pay2, 0));
    DEMO_CUDA(W, cub::DeviceScan::ExclusiveSum(NULL, bytes[6], c->count, c->out_off, (int64_t)items, (cudaStream_t)0));
    for (int i = 0; i < 9; ++i) need_temp = bytes[i] > need_temp ? bytes[i] : need_temp;
    if (check_free_memory("the temporary storage of the partitioning, sorts and scans", need_temp)) return 1;
    DEMO_CUDA(W, cudaMalloc(&b->temp, need_temp ? need_temp : 1));
    c->temp = b->temp, c->temp_bytes = need_temp;
    return 0;
}

/* ---- checking a method's output ------------------------------------------------------------------- */

static int cmp_row(const void *a, const void *b)
{
    const uint32_t *x = (const uint32_t *)a, *y = (const uint32_t *)b;
    for (int w = 0; w < 3; ++w)
        if (x[w] != y[w]) return x[w] < y[w] ? -1 : 1;
    return 0;
}

/* --rows K: the method's pairs sorted on the host; the first GPU method's first K are printed, later
 * methods' must equal them. */
static int check_rows(const join_opts *o, host_data *h, const join_ctx *c)
{
    const size_t n = c->cap, k = o->rows < n ? (size_t)o->rows : n;
    uint32_t *cols = (uint32_t *)malloc((n ? n : 1) * 12), *rows = (uint32_t *)malloc((n ? n : 1) * 12);
    if (!cols || !rows) {
        fprintf(stderr, "split-demo " W ": host allocation for --rows (%zu pairs) failed\n", n);
        free(cols), free(rows);
        return 1;
    }
    int rc = 0;
    if (cudaMemcpy(cols, c->out_k, n * 4, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(cols + n, c->out_r, n * 4, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(cols + 2 * n, c->out_s, n * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "split-demo " W ": copying the output back failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        rc = 1;
    }
    for (size_t i = 0; rc == 0 && i < n; ++i) {
        rows[3 * i] = cols[i];
        rows[3 * i + 1] = cols[n + i];
        rows[3 * i + 2] = cols[2 * n + i];
    }
    if (rc == 0) qsort(rows, n, 12, cmp_row);
    if (rc == 0 && !h->rows) {
        h->rows = rows, h->rows_n = k, rows = NULL;
        printf("split-demo " W ": the first %zu of %zu output pairs of %s, sorted:\n%12s %12s %12s\n", k, n, c->method,
               "key", "r_payload", "s_payload");
        for (size_t i = 0; i < k; ++i)
            printf("  0x%08x %12u %12u\n", h->rows[3 * i], h->rows[3 * i + 1], h->rows[3 * i + 2]);
    } else if (rc == 0 && memcmp(rows, h->rows, h->rows_n * 12) != 0) {
        fprintf(stderr, "split-demo " W ": method %s: MISMATCH: its first %zu sorted output pairs differ from the "
                        "first method's\n", c->method, h->rows_n);
        rc = 1;
    }
    free(cols), free(rows);
    return rc;
}

/* The method's output against the CPU hash join's: the total of its count pass (items counts:
 * partitions or S tuples) and the checksum of its pairs. */
static int check_output(const join_ctx *c, const host_data *h, uint32_t items, const char *when)
{
    uint32_t total = 0;
    unsigned long long sum = 0;
    DEMO_CUDA(W, cudaDeviceSynchronize());
    DEMO_CUDA(W, cudaMemcpy(&total, c->out_off + items, sizeof total, cudaMemcpyDeviceToHost));
    const uint32_t n = total < c->cap ? total : c->cap;
    unsigned long long *dsum = NULL;
    DEMO_CUDA(W, cudaMalloc((void **)&dsum, sizeof *dsum));
    DEMO_CUDA(W, cudaMemset(dsum, 0, sizeof *dsum));
    checksum_pairs<<<demo_blocks_for(n, THREADS), THREADS>>>(c->out_k, c->out_r, c->out_s, n, dsum);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpy(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost);
    cudaFree(dsum);
    DEMO_CUDA(W, e);
    if (total != h->ref.count || sum != h->ref.sum) {
        fprintf(stderr, "split-demo " W ": method %s, %s: MISMATCH: %u output pairs with checksum 0x%016llx; the CPU "
                        "hash join has %llu pairs with checksum 0x%016llx\n", c->method, when, total, sum,
                (unsigned long long)h->ref.count, (unsigned long long)h->ref.sum);
        return 1;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------------------------ */

typedef struct row {
    const char *name;
    float ms;
    long long pairs; /* -1: not a join (the index build) */
} row;

static void add_row(row *rows, int *num_rows, const char *name, float ms, long long pairs)
{
    rows[*num_rows].name = name;
    rows[*num_rows].ms = ms;
    rows[*num_rows].pairs = pairs;
    *num_rows += 1;
}

/* Runs a method once (checked), times it (or, for inlj, its build and its probe), checks it again. */
static int run_method(const join_opts *o, host_data *h, join_ctx *c, method_id m, row *rows, int *num_rows)
{
    static const demo_work_fn fns[NUM_METHODS] = {method_hash_split, method_hash_cub, method_sort_merge, method_inlj,
                                                  method_bnlj, NULL};
    c->method = join_method_names[m];
    DEMO_CUDA(W, cudaMemset(c->out_k, 0xFF, (size_t)(c->cap ? c->cap : 1) * 4));
    DEMO_CUDA(W, cudaMemset(c->out_r, 0xFF, (size_t)(c->cap ? c->cap : 1) * 4));
    DEMO_CUDA(W, cudaMemset(c->out_s, 0xFF, (size_t)(c->cap ? c->cap : 1) * 4));
    c->checked_run = 1;
    int rc = fns[m](c, 0);
    c->checked_run = 0;
    if (rc) return rc;
    const uint32_t items = m == M_SPLIT || m == M_CUB ? c->parts : c->ns;
    if (check_output(c, h, items, "first run")) return 1;
    if ((m == M_SPLIT || m == M_CUB) && !c->partitions_printed) { /* the partitions' sizes */
        c->partitions_printed = 1;
        uint32_t *off = (uint32_t *)malloc(((size_t)c->parts + 1) * 4);
        if (!off) {
            fprintf(stderr, "split-demo " W ": host allocation failed\n");
            return 1;
        }
        uint32_t max_r = 0, max_s = 0;
        for (int rel = 0; rel < 2; ++rel) {
            if (cudaMemcpy(off, rel ? c->s_off : c->r_off, ((size_t)c->parts + 1) * 4, cudaMemcpyDeviceToHost) !=
                cudaSuccess)
                break;
            for (uint32_t p = 0; p < c->parts; ++p) {
                uint32_t *mx = rel ? &max_s : &max_r;
                *mx = off[p + 1] - off[p] > *mx ? off[p + 1] - off[p] : *mx;
            }
        }
        free(off);
        char how[160];
        if (c->levels == 2)
            snprintf(how, sizeof how, "hash/split: split_multisplit by bits [0, %u), then a stable split_multisplit "
                     "by bits [%u, %u)", c->bits / 2, c->bits / 2, c->bits);
        else
            snprintf(how, sizeof how, "hash/split: one split_multisplit pass per relation, %s",
                     c->parts > SPLIT_MAX_BUCKETS ? "the unstable wide path" : "unstable");
        printf("split-demo " W ": hash joins: %u partition bits (%u partitions; %s), average %.0f R / %.0f S tuples "
               "per partition; largest R partition %u tuples (%u chunk%s of %d), largest S partition %u\n",
               c->bits, c->parts, how,
               (double)c->nr / c->parts, (double)c->ns / c->parts, max_r, (max_r + JOIN_GPU_CHUNK - 1) / JOIN_GPU_CHUNK,
               (max_r + JOIN_GPU_CHUNK - 1) / JOIN_GPU_CHUNK == 1 ? "" : "s", (int)JOIN_GPU_CHUNK, max_s);
    }
    if (o->rows && check_rows(o, h, c)) return 1;
    float ms = 0;
    if (m == M_INLJ) {
        if ((rc = demo_time(W, method_inlj_build, c, 0, o->runs, &ms)) != 0) return rc;
        add_row(rows, num_rows, "inlj (index build)", ms, -1);
        if ((rc = demo_time(W, method_inlj_probe, c, 0, o->runs, &ms)) != 0) return rc;
        add_row(rows, num_rows, "inlj (probe)", ms, (long long)h->ref.count);
    } else {
        if ((rc = demo_time(W, fns[m], c, 0, o->runs, &ms)) != 0) return rc;
        add_row(rows, num_rows, join_method_names[m], ms, (long long)h->ref.count);
    }
    if (check_output(c, h, items, "after the timed runs")) return 1;
    printf("split-demo " W ": %s equals the CPU hash join (%llu pairs, checksum 0x%016llx)\n", join_method_names[m],
           (unsigned long long)h->ref.count, (unsigned long long)h->ref.sum);
    fflush(stdout);
    return 0;
}

static void print_table(const join_opts *o, const row *rows, int num_rows, float cpu_ms)
{
    const double tuples = (double)o->nr + (double)o->ns;
    printf("\n%-20s %12s %14s %12s %10s\n", "method", "ms", "Mtuples/s", "pairs", "vs cpu");
    float split_ms = 0, cub_ms = 0;
    for (int i = 0; i < num_rows; ++i) {
        const row *r = &rows[i];
        const double rate = r->ms > 0 ? tuples / (r->ms * 1e-3) / 1e6 : 0;
        char pairs[32] = "-";
        if (r->pairs >= 0) snprintf(pairs, sizeof pairs, "%lld", r->pairs);
        printf("%-20s %12.3f %14.1f %12s %9.2fx\n", r->name, r->ms, rate, pairs, r->ms > 0 ? cpu_ms / r->ms : 0.0);
        if (strcmp(r->name, "hash/split") == 0) split_ms = r->ms;
        if (strcmp(r->name, "hash/cub") == 0) cub_ms = r->ms;
    }
    printf("ms: median of %d timed runs after 1 warm-up (GPU: CUDA events around the whole method; cpu: wall clock\n"
           "of build + probe); Mtuples/s: (|R| + |S|) / time; vs cpu: the CPU hash join's time / the method's.\n",
           o->runs);
    if (split_ms > 0 && cub_ms > 0)
        printf("hash/split vs hash/cub: %.3f ms vs %.3f ms, hash/split %.2fx the speed of hash/cub\n", split_ms, cub_ms,
               cub_ms / split_ms);
}

extern "C" int demo_join(int argc, char **argv); /* demo.h declares it too, with C linkage */

int demo_join(int argc, char **argv)
{
    join_opts o;
    const int parsed = join_parse_options(argc, argv, &o);
    if (parsed == 1) return 0;
    if (parsed) return parsed;
    const int no_device = demo_require_device(W);
    if (no_device) return no_device;

    host_data h;
    memset(&h, 0, sizeof h);
    if (host_generate(&o, &h)) {
        free_host(&h);
        return 1;
    }
    if (h.expected > UINT32_MAX - 1) {
        fprintf(stderr, "split-demo " W ": --r %llu --s %llu --r-dup %u --match %g give %llu output pairs; at most "
                        "4294967294 are supported (32-bit offsets): use smaller sizes, --r-dup or --match\n",
                (unsigned long long)o.nr, (unsigned long long)o.ns, o.dup, o.match, (unsigned long long)h.expected);
        free_host(&h);
        return 2;
    }
    print_header(&o, &h);
    float cpu_ms = 0;
    if (cpu_reference(&o, &h, o.want[M_CPU], &cpu_ms)) {
        free_host(&h);
        return 1;
    }
    printf("split-demo " W ": the CPU hash join agrees with the generator: %llu pairs, checksum 0x%016llx\n",
           (unsigned long long)h.ref.count, (unsigned long long)h.ref.sum);

    join_ctx c;
    memset(&c, 0, sizeof c);
    c.g = h.g;
    c.bits = o.part_bits ? o.part_bits : join_partition_bits(o.nr, o.ns, JOIN_GPU_R_PER_PART, JOIN_GPU_S_PER_PART);
    c.parts = 1u << c.bits;
    c.levels = o.part_levels ? o.part_levels : join_partition_levels(c.bits);
    dev_bufs b;
    int rc = setup_device(&o, &h, &c, &b);
    row rows[NUM_METHODS + 1];
    int num_rows = 0;
    if (rc == 0 && o.want[M_CPU]) add_row(rows, &num_rows, "cpu (hash join)", cpu_ms, (long long)h.ref.count);
    for (int m = 0; rc == 0 && m < M_CPU; ++m) {
        if (!o.want[m]) continue;
        if (m == M_BNLJ && o.nr > BNLJ_MAX_R) {
            printf("split-demo " W ": bnlj skipped: |R| = %llu is above its limit of %d tuples (it compares every "
                   "pair: |R| x |S| comparisons)\n", (unsigned long long)o.nr, (int)BNLJ_MAX_R);
            continue;
        }
        rc = run_method(&o, &h, &c, (method_id)m, rows, &num_rows);
    }
    if (rc == 0) {
        print_table(&o, rows, num_rows, cpu_ms);
        printf("split-demo " W ": verified\n");
    }
    free_dev(&b);
    free_host(&h);
    return rc;
}
