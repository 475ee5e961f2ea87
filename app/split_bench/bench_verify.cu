/* bench_verify.cu - device checks of split_bench's results: element-wise comparisons, bucket offsets
 * against a histogram scan, the split properties (grouping, permutation, stability) and record
 * moves. Every check returns the number of mismatches; 0 means correct. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "bench_kernels.cuh"

enum { CHECK_THREADS = 256, CHECK_MAX_BLOCKS = 132 * 32 };

static unsigned check_blocks(size_t n)
{
    size_t b = (n + CHECK_THREADS - 1) / CHECK_THREADS;
    const size_t cap = CHECK_MAX_BLOCKS;
    return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}

/* One device counter, reset before and read after each check. */
static unsigned long long *g_counter;

static unsigned long long *counter_reset(cudaStream_t s)
{
    if (!g_counter) g_counter = (unsigned long long *)bench_alloc(sizeof *g_counter);
    BENCH_CUDA(cudaMemsetAsync(g_counter, 0, sizeof *g_counter, s));
    return g_counter;
}

static uint64_t counter_read(cudaStream_t s)
{
    unsigned long long h = 0;
    BENCH_CUDA(cudaMemcpyAsync(&h, g_counter, sizeof h, cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaStreamSynchronize(s));
    return h;
}

/* Adds the block's mismatch count to the counter (one atomic per warp). */
__device__ __forceinline__ void count_bad(unsigned long long *counter, bool bad)
{
    const unsigned active = __activemask();
    const unsigned m = __ballot_sync(active, bad);
    if (m && (threadIdx.x & 31) == (unsigned)(__ffs(active) - 1)) atomicAdd(counter, (unsigned long long)__popc(m));
}

bench_rule bench_rule_of(const split_buckets *b)
{
    bench_rule r;
    r.rule = (int)b->rule;
    r.num_buckets = b->num_buckets ? b->num_buckets : 1u << b->bit_count;
    r.start_bit = b->start_bit;
    r.mask = (1u << b->bit_count) - 1u;
    r.base = (uint32_t)b->range_base;
    r.delta = (uint32_t)b->range_delta;
    r.boundaries = (const uint32_t *)b->boundaries;
    return r;
}

__global__ void diff_kernel(const uint32_t *a, const uint32_t *b, uint64_t n, int reversed, unsigned long long *bad)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        count_bad(bad, a[i] != (reversed ? b[-(int64_t)i - 1] : b[i]));
}

uint64_t bench_diff_u32(const uint32_t *a, const uint32_t *b, size_t words, cudaStream_t s)
{
    if (words == 0) return 0;
    diff_kernel<<<check_blocks(words), CHECK_THREADS, 0, s>>>(a, b, words, 0, counter_reset(s));
    BENCH_LAUNCH("diff_kernel");
    return counter_read(s);
}

uint64_t bench_diff_u32_reversed(const uint32_t *a, const uint32_t *b_end, size_t words, cudaStream_t s)
{
    if (words == 0) return 0;
    diff_kernel<<<check_blocks(words), CHECK_THREADS, 0, s>>>(a, b_end, words, 1, counter_reset(s));
    BENCH_LAUNCH("diff_kernel");
    return counter_read(s);
}

__global__ void diff_pairs_kernel(const uint2 *p, const uint32_t *k, const uint32_t *v, uint64_t n, int reversed,
                                  unsigned long long *bad)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t j = reversed ? n - 1 - i : i;
        const uint2 x = p[i];
        count_bad(bad, x.x != k[j] || x.y != v[j]);
    }
}

uint64_t bench_diff_pairs(const uint32_t *pairs, const uint32_t *k, const uint32_t *v, size_t n, int reversed,
                          cudaStream_t s)
{
    if (n == 0) return 0;
    diff_pairs_kernel<<<check_blocks(n), CHECK_THREADS, 0, s>>>((const uint2 *)pairs, k, v, n, reversed,
                                                                counter_reset(s));
    BENCH_LAUNCH("diff_pairs_kernel");
    return counter_read(s);
}

/* Shared-memory histogram per block, then one global atomic per non-empty bin. */
__global__ void histogram_kernel(const uint32_t *keys, uint64_t n, bench_rule r, uint32_t *hist)
{
    extern __shared__ uint32_t bins[];
    for (uint32_t b = threadIdx.x; b < r.num_buckets; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        atomicAdd(&bins[bench_bucket(r, keys[i])], 1u);
    __syncthreads();
    for (uint32_t b = threadIdx.x; b < r.num_buckets; b += blockDim.x)
        if (bins[b]) atomicAdd(&hist[b], bins[b]);
}

/* Wide B (the bins do not fit shared memory): one global atomic per key. */
__global__ void histogram_global_kernel(const uint32_t *keys, uint64_t n, bench_rule r, uint32_t *hist)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        atomicAdd(&hist[bench_bucket(r, keys[i])], 1u);
}

enum { HIST_SMEM_MAX_BYTES = 48 * 1024 };

void bench_histogram(const uint32_t *keys, size_t n, const bench_rule *r, uint32_t *hist, cudaStream_t s)
{
    const size_t bytes = (size_t)r->num_buckets * sizeof(uint32_t);
    BENCH_CUDA(cudaMemsetAsync(hist, 0, bytes, s));
    if (n == 0) return;
    if (bytes <= HIST_SMEM_MAX_BYTES)
        histogram_kernel<<<check_blocks(n), CHECK_THREADS, bytes, s>>>(keys, n, *r, hist);
    else
        histogram_global_kernel<<<check_blocks(n), CHECK_THREADS, 0, s>>>(keys, n, *r, hist);
    BENCH_LAUNCH("histogram_kernel");
}

uint64_t bench_check_offsets(const uint32_t *offsets, const uint32_t *keys, size_t n, const bench_rule *r,
                             cudaStream_t s)
{
    const uint32_t nb = r->num_buckets;
    uint32_t *hist = (uint32_t *)bench_alloc(nb * sizeof(uint32_t));
    bench_histogram(keys, n, r, hist, s);
    uint32_t *h = (uint32_t *)malloc(nb * sizeof(uint32_t)), *o = (uint32_t *)malloc((nb + 1) * sizeof(uint32_t));
    if (!h || !o) {
        fprintf(stderr, "split_bench: out of host memory\n");
        exit(1);
    }
    BENCH_CUDA(cudaMemcpyAsync(h, hist, nb * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaMemcpyAsync(o, offsets, (nb + 1) * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
    BENCH_CUDA(cudaStreamSynchronize(s));
    uint64_t bad = 0, run = 0;
    for (uint32_t b = 0; b < nb; ++b) {
        bad += o[b] != run;
        run += h[b];
    }
    bad += o[nb] != run || run != n;
    free(h);
    free(o);
    bench_free(hist);
    return bad;
}

/* Bucket owning position j: the last b with offsets[b] <= j (offsets non-decreasing). */
__device__ __forceinline__ uint32_t bucket_at(const uint32_t *offsets, uint32_t nb, uint32_t j)
{
    uint32_t first = 0, count = nb + 1; /* entries <= j */
    while (count > 0) {
        uint32_t half = count / 2;
        if (offsets[first + half] <= j) {
            first += half + 1;
            count -= half + 1;
        } else {
            count = half;
        }
    }
    return first - 1;
}

__global__ void check_split_kernel(const uint32_t *keys_in, const uint32_t *keys_out, const uint32_t *values_out,
                                   const uint32_t *offsets, uint64_t n, bench_rule r, int stable, uint32_t *seen,
                                   unsigned long long *bad)
{
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t k = keys_out[j], b = bench_bucket(r, k);
        bool wrong = bucket_at(offsets, r.num_buckets, (uint32_t)j) != b;
        if (values_out) {
            const uint32_t v = values_out[j];
            wrong |= v >= n;
            if (v < n) {
                wrong |= keys_in[v] != k;
                wrong |= atomicExch(&seen[v], 1u) != 0; /* each source once: with n outputs, a permutation */
            }
            if (stable && j + 1 < n && j + 1 < offsets[b + 1]) wrong |= values_out[j + 1] <= v;
        }
        count_bad(bad, wrong);
    }
}

uint64_t bench_check_split(const uint32_t *keys_in, const uint32_t *keys_out, const uint32_t *values_out,
                           const uint32_t *offsets, size_t n, const bench_rule *r, int stable, cudaStream_t s)
{
    if (n == 0) return 0;
    uint32_t *seen = NULL;
    if (values_out) {
        seen = (uint32_t *)bench_alloc(n * sizeof(uint32_t));
        BENCH_CUDA(cudaMemsetAsync(seen, 0, n * sizeof(uint32_t), s));
    }
    check_split_kernel<<<check_blocks(n), CHECK_THREADS, 0, s>>>(keys_in, keys_out, values_out, offsets, n, *r,
                                                                 stable, seen, counter_reset(s));
    BENCH_LAUNCH("check_split_kernel");
    uint64_t bad = counter_read(s);
    bench_free(seen);
    return bad;
}

__global__ void check_move_kernel(const uint32_t *dst, const uint32_t *index, uint64_t n, uint32_t wpr, uint64_t seed,
                                  int gather, unsigned long long *bad)
{
    const uint64_t total = n * wpr;
    for (uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t r = g / wpr;
        const uint32_t w = (uint32_t)(g % wpr);
        if (gather) {
            count_bad(bad, dst[g] != bench_record_word(seed, index[r], w));
        } else {
            const uint32_t to = index[r];
            count_bad(bad, to >= n || dst[(uint64_t)to * wpr + w] != bench_record_word(seed, r, w));
        }
    }
}

uint64_t bench_check_move(const uint32_t *dst, const uint32_t *index, size_t n, uint32_t wpr, uint64_t seed,
                          int gather, cudaStream_t s)
{
    if (n == 0) return 0;
    check_move_kernel<<<check_blocks(n * wpr), CHECK_THREADS, 0, s>>>(dst, index, n, wpr, seed, gather,
                                                                       counter_reset(s));
    BENCH_LAUNCH("check_move_kernel");
    return counter_read(s);
}
