/* records_kernels.cuh - the device code of `split-demo records` (demo_records.cu, which alone
 * includes this header): the records' generation, the key extraction of every method, the digits of
 * (b)'s 96-bit passes, the device check of an output against the reference permutation, and the
 * identity index. record_word: records_host.h (shared with the CPU test). */
#ifndef SPLIT_DEMO_RECORDS_KERNELS_CUH
#define SPLIT_DEMO_RECORDS_KERNELS_CUH

#include <stdint.h>

#include "records_host.h"

__global__ void gen_records(uint32_t *rec, uint64_t words, uint32_t wpr, uint32_t kw)
{
    for (uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; g < words; g += (uint64_t)gridDim.x * blockDim.x)
        rec[g] = record_word(g / wpr, (uint32_t)(g % wpr), kw);
}

__global__ void extract_keys32(const uint32_t *__restrict__ rec, uint32_t *__restrict__ keys, uint64_t n, uint32_t wpr)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        keys[i] = rec[i * wpr];
}

__global__ void extract_keys64(const uint32_t *__restrict__ rec, uint64_t *__restrict__ keys, uint64_t n, uint32_t wpr)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        keys[i] = (uint64_t)rec[i * wpr] | (uint64_t)rec[i * wpr + 1] << 32;
}

__global__ void extract_keys96(const uint32_t *__restrict__ rec, uint32_t *__restrict__ keys, uint64_t n, uint32_t wpr)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        for (int w = 0; w < 3; ++w) keys[i * 3 + w] = rec[i * wpr + w];
}

/* (b) with 96-bit keys: digit p of every record's key as the records lie now (byte p % 4 of key word
 * p / 4), the bucket id of the pass's split. */
__global__ void record_digits(const uint32_t *__restrict__ rec, uint32_t *__restrict__ ids, uint64_t n, uint32_t wpr,
                              uint32_t p)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        ids[i] = (rec[i * wpr + p / 4] >> (8 * (p % 4))) & 0xFFu;
}

/* out record i must be input record ref_perm[i], word for word; the lowest bad i goes to *first_bad. */
__global__ void check_records(const uint32_t *__restrict__ out, const uint32_t *__restrict__ ref_perm, uint64_t words,
                              uint32_t wpr, uint32_t kw, unsigned long long *first_bad)
{
    for (uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; g < words; g += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t i = g / wpr;
        if (out[g] != record_word(ref_perm[i], (uint32_t)(g % wpr), kw)) atomicMin(first_bad, (unsigned long long)i);
    }
}

__global__ void iota_kernel(uint32_t *v, uint64_t n)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        v[i] = (uint32_t)i;
}

#endif /* SPLIT_DEMO_RECORDS_KERNELS_CUH */
