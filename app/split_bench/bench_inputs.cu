/* bench_inputs.cu - seeded inputs of split_bench, generated on the device from a counter-based hash
 * (the same seed gives the same data on any run). */
#include <math.h>

#include <cub/device/device_radix_sort.cuh>

#include "bench.h"
#include "bench_kernels.cuh"

enum { GEN_THREADS = 256, GEN_MAX_BLOCKS = 132 * 64 };

const char *bench_dist_name(bench_dist d)
{
    static const char *const names[BENCH_DIST_COUNT] = {"uniform",  "one-bucket", "hockey-75%",
                                                       "binomial", "ascending",  "descending"};
    return (unsigned)d < BENCH_DIST_COUNT ? names[d] : "?";
}

uint64_t bench_hash64(uint64_t x) { return bench_mix64(x); }

static unsigned gen_blocks(size_t n)
{
    size_t b = (n + GEN_THREADS - 1) / GEN_THREADS;
    const size_t cap = GEN_MAX_BLOCKS;
    return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}

/* Binomial(B-1, 1/2) by inverse CDF: thresholds[b] = floor(2^32 P(X <= b)), the last one saturated;
 * bucket = first b with u < thresholds[b] (u uniform 32-bit). Kept on the device, rebuilt per B. */
static uint32_t *g_binom_table;
static uint32_t g_binom_buckets;

static const uint32_t *binomial_table(uint32_t nb, cudaStream_t s)
{
    if (g_binom_buckets == nb) return g_binom_table;
    if (!g_binom_table) g_binom_table = (uint32_t *)bench_alloc(SPLIT_MAX_BUCKETS * sizeof(uint32_t));
    static uint32_t host[SPLIT_MAX_BUCKETS];
    const double trials = (double)nb - 1.0;
    double cdf = 0.0;
    for (uint32_t b = 0; b < nb; ++b) {
        double lp = lgamma(trials + 1.0) - lgamma((double)b + 1.0) - lgamma(trials - (double)b + 1.0) - trials * log(2.0);
        cdf += exp(lp);
        double t = floor(cdf * 4294967296.0);
        host[b] = t >= 4294967295.0 ? 0xffffffffu : (uint32_t)t;
    }
    host[nb - 1] = 0xffffffffu;
    BENCH_CUDA(cudaMemcpyAsync(g_binom_table, host, nb * sizeof(uint32_t), cudaMemcpyHostToDevice, s));
    BENCH_CUDA(cudaStreamSynchronize(s)); /* host[] is reused on the next call */
    g_binom_buckets = nb;
    return g_binom_table;
}

__global__ void gen_bucket_keys_kernel(uint32_t *keys, uint64_t n, uint32_t log2b, int dist, uint64_t seed,
                                       const uint32_t *binom)
{
    const uint32_t nb = 1u << log2b, hot = nb / 2, mask = nb - 1;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t h = bench_mix64(seed * 0x9e3779b97f4a7c15ull + i);
        const uint32_t hi = (uint32_t)(h >> 32), lo = (uint32_t)h;
        uint32_t b;
        switch (dist) {
        case BENCH_DIST_UNIFORM: b = lo & mask; break;
        case BENCH_DIST_ONE_BUCKET: b = hot; break;
        case BENCH_DIST_HOCKEY: b = (lo & 3u) != 0 ? hot : (lo >> 2) & mask; break;
        case BENCH_DIST_BINOMIAL: {
            uint32_t first = 0, count = nb; /* first b with lo < binom[b] */
            while (count > 0) {
                uint32_t half = count / 2;
                if (binom[first + half] <= lo) {
                    first += half + 1;
                    count -= half + 1;
                } else {
                    count = half;
                }
            }
            b = first < nb ? first : nb - 1;
            break;
        }
        case BENCH_DIST_ASCENDING: b = (uint32_t)((i << log2b) / n); break;
        default: b = mask - (uint32_t)((i << log2b) / n); break;
        }
        keys[i] = (log2b ? (hi << log2b) : hi) | b;
    }
}

void bench_gen_bucket_keys(uint32_t *keys, size_t n, uint32_t log2b, bench_dist d, uint64_t seed, cudaStream_t s)
{
    const uint32_t *binom = d == BENCH_DIST_BINOMIAL ? binomial_table(1u << log2b, s) : NULL;
    gen_bucket_keys_kernel<<<gen_blocks(n), GEN_THREADS, 0, s>>>(keys, n, log2b, (int)d, seed, binom);
    BENCH_LAUNCH("gen_bucket_keys_kernel");
}

__global__ void gen_u32_kernel(uint32_t *out, uint64_t n, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = (uint32_t)(bench_mix64(seed * 0x9e3779b97f4a7c15ull + i) >> 16);
}

__global__ void gen_u64_kernel(uint64_t *out, uint64_t n, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = bench_mix64(seed * 0x9e3779b97f4a7c15ull + i);
}

__global__ void iota_kernel(uint32_t *out, uint64_t n)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = (uint32_t)i;
}

__global__ void fill_records_kernel(uint32_t *words, uint64_t total, uint32_t wpr, uint64_t seed)
{
    for (uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (uint64_t)gridDim.x * blockDim.x)
        words[g] = bench_record_word(seed, g / wpr, (uint32_t)(g % wpr));
}

__global__ void zip_kernel(const uint32_t *k, const uint32_t *v, uint64_t n, uint2 *pairs)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        pairs[i] = make_uint2(k[i], v[i]);
}

void bench_gen_u32(uint32_t *out, size_t n, uint64_t seed, cudaStream_t s)
{
    gen_u32_kernel<<<gen_blocks(n), GEN_THREADS, 0, s>>>(out, n, seed);
    BENCH_LAUNCH("gen_u32_kernel");
}

void bench_gen_u64(uint64_t *out, size_t n, uint64_t seed, cudaStream_t s)
{
    gen_u64_kernel<<<gen_blocks(n), GEN_THREADS, 0, s>>>(out, n, seed);
    BENCH_LAUNCH("gen_u64_kernel");
}

void bench_gen_iota(uint32_t *out, size_t n, cudaStream_t s)
{
    iota_kernel<<<gen_blocks(n), GEN_THREADS, 0, s>>>(out, n);
    BENCH_LAUNCH("iota_kernel");
}

void bench_fill_records(uint32_t *words, size_t n, uint32_t wpr, uint64_t seed, cudaStream_t s)
{
    fill_records_kernel<<<gen_blocks(n * wpr), GEN_THREADS, 0, s>>>(words, (uint64_t)n * wpr, wpr, seed);
    BENCH_LAUNCH("fill_records_kernel");
}

void bench_zip_pairs(const uint32_t *keys, const uint32_t *values, size_t n, uint32_t *pairs, cudaStream_t s)
{
    zip_kernel<<<gen_blocks(n), GEN_THREADS, 0, s>>>(keys, values, n, (uint2 *)pairs);
    BENCH_LAUNCH("zip_kernel");
}

void bench_poison(void *p, size_t bytes, cudaStream_t s)
{
    if (p && bytes) BENCH_CUDA(cudaMemsetAsync(p, 0xff, bytes, s));
}

void bench_gen_permutation(uint32_t *perm, size_t n, uint64_t seed, cudaStream_t s)
{
    uint32_t *keys = (uint32_t *)bench_alloc(2 * n * sizeof(uint32_t) + 4);
    uint32_t *iota = (uint32_t *)bench_alloc(n * sizeof(uint32_t) + 4);
    bench_gen_u32(keys, n, seed, s);
    bench_gen_iota(iota, n, s);
    size_t bytes = 0;
    cub_sort_pairs_u32(NULL, &bytes, keys, keys + n, iota, perm, n, 0, 32, s);
    void *temp = bench_alloc(bytes);
    cub_sort_pairs_u32(temp, &bytes, keys, keys + n, iota, perm, n, 0, 32, s);
    BENCH_CUDA(cudaStreamSynchronize(s));
    bench_free(temp);
    bench_free(iota);
    bench_free(keys);
}
