/* bench_cub.cu - the baselines of split_bench: CUB radix sorts (all bits, or only the bucket bits),
 * DevicePartition for B = 2, DeviceSegmentedRadixSort, and a plain record gather for the
 * sort-then-gather baseline of large records. CUB errors are fatal (BENCH_CUDA). */
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include "bench.h"

void cub_sort_keys_u32(void *temp, size_t *bytes, const uint32_t *in, uint32_t *out, size_t n, int begin_bit,
                       int end_bit, cudaStream_t s)
{
    BENCH_CUDA(cub::DeviceRadixSort::SortKeys(temp, *bytes, in, out, (int64_t)n, begin_bit, end_bit, s));
}

void cub_sort_pairs_u32(void *temp, size_t *bytes, const uint32_t *kin, uint32_t *kout, const uint32_t *vin,
                        uint32_t *vout, size_t n, int begin_bit, int end_bit, cudaStream_t s)
{
    BENCH_CUDA(cub::DeviceRadixSort::SortPairs(temp, *bytes, kin, kout, vin, vout, (int64_t)n, begin_bit, end_bit, s));
}

void cub_sort_keys_u64(void *temp, size_t *bytes, const uint64_t *in, uint64_t *out, size_t n, cudaStream_t s)
{
    BENCH_CUDA(cub::DeviceRadixSort::SortKeys(temp, *bytes, in, out, (int64_t)n, 0, 64, s));
}

void cub_sort_pairs_u64(void *temp, size_t *bytes, const uint64_t *kin, uint64_t *kout, const uint32_t *vin,
                        uint32_t *vout, size_t n, cudaStream_t s)
{
    BENCH_CUDA(cub::DeviceRadixSort::SortPairs(temp, *bytes, kin, kout, vin, vout, (int64_t)n, 0, 64, s));
}

struct even_key {
    __host__ __device__ bool operator()(uint32_t k) const { return (k & 1u) == 0; }
    __host__ __device__ bool operator()(const uint2 &p) const { return (p.x & 1u) == 0; }
};

void cub_partition_b2(void *temp, size_t *bytes, const void *in, void *out, uint32_t *num_selected, size_t n,
                      int pairs, cudaStream_t s)
{
    if (pairs)
        BENCH_CUDA(cub::DevicePartition::If(temp, *bytes, (const uint2 *)in, (uint2 *)out, num_selected, (int64_t)n,
                                            even_key(), s));
    else
        BENCH_CUDA(cub::DevicePartition::If(temp, *bytes, (const uint32_t *)in, (uint32_t *)out, num_selected,
                                            (int64_t)n, even_key(), s));
}

void cub_segmented_sort_pairs(void *temp, size_t *bytes, const uint32_t *kin, uint32_t *kout, const uint32_t *vin,
                              uint32_t *vout, size_t n, size_t num_segments, const uint32_t *offsets,
                              int begin_bit, int end_bit, cudaStream_t s)
{
    BENCH_CUDA(cub::DeviceSegmentedRadixSort::SortPairs(temp, *bytes, kin, kout, vin, vout, (int64_t)n,
                                                        (int64_t)num_segments, offsets, offsets + 1, begin_bit,
                                                        end_bit, s));
}

/* Thread g moves word g of dst; words of W bytes. */
template <typename W>
__global__ void gather_words_kernel(const W *__restrict__ src, W *__restrict__ dst, const uint32_t *__restrict__ index,
                                    uint64_t total, uint32_t wpr)
{
    for (uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t r = g / wpr;
        const uint32_t w = (uint32_t)(g - r * wpr);
        dst[g] = src[(uint64_t)__ldg(index + r) * wpr + w];
    }
}

void baseline_gather(const void *src, void *dst, const uint32_t *index, size_t n, size_t record_bytes, cudaStream_t s)
{
    const int wide = record_bytes % 16 == 0 && (uintptr_t)src % 16 == 0 && (uintptr_t)dst % 16 == 0;
    const uint32_t wpr = (uint32_t)(record_bytes / (wide ? 16 : 4));
    const uint64_t total = (uint64_t)n * wpr;
    uint64_t blocks = (total + 255) / 256;
    if (blocks > 132 * 32) blocks = 132 * 32;
    if (blocks == 0) return;
    if (wide)
        gather_words_kernel<uint4><<<(unsigned)blocks, 256, 0, s>>>((const uint4 *)src, (uint4 *)dst, index, total, wpr);
    else
        gather_words_kernel<uint32_t><<<(unsigned)blocks, 256, 0, s>>>((const uint32_t *)src, (uint32_t *)dst, index,
                                                                       total, wpr);
    BENCH_LAUNCH("gather_words_kernel");
}
