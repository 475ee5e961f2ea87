/* split_occupancy.cuh - internal: resident blocks per SM of a kernel, queried once per device.
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor is a host call of a few microseconds; the kernels
 * that size their grids to one wave (the wide multisplit's count and place kernels, the segmented
 * split's cooperative ballot kernel) ask it at every launch otherwise. The answer depends on the
 * kernel, its block size and shared memory and the device, so each caller keeps one cache per
 * (kernel, block size, shared memory) it launches, indexed by device ordinal. */
#ifndef SPLIT_OCCUPANCY_CUH
#define SPLIT_OCCUPANCY_CUH

#include <cuda_runtime.h>

#include <atomic>

#include "sc_report.h"

/* Device ordinals a cache holds; devices from this on are queried at every call. */
enum { SPLIT_OCC_CACHED_DEVICES = 64 };

typedef std::atomic<int> split_occ_cache[SPLIT_OCC_CACHED_DEVICES];

/* *per_sm = resident blocks per SM of `kernel` launched with `threads` threads and `smem` bytes of
 * dynamic shared memory on the current device (0 if it cannot be resident); *device = that device. */
template <typename K>
static sc_status split_blocks_per_sm(K kernel, int threads, size_t smem, split_occ_cache &cache, int *device,
                                     int *per_sm)
{
    int dev = 0, occ = 0;
    SC_CUDA_CHECK(cudaGetDevice(&dev));
    const bool cached = dev >= 0 && dev < SPLIT_OCC_CACHED_DEVICES;
    if (cached) occ = cache[dev].load(std::memory_order_relaxed);
    if (occ <= 0) {
        SC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, threads, smem));
        if (cached && occ > 0) cache[dev].store(occ, std::memory_order_relaxed);
    }
    *device = dev;
    *per_sm = occ;
    return SC_OK;
}

#endif /* SPLIT_OCCUPANCY_CUH */
