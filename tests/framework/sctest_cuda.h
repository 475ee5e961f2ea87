/* sctest_cuda.h - GPU-test helpers: skip (exit 77) when no CUDA device, checked CUDA calls. */
#ifndef SCTEST_CUDA_H
#define SCTEST_CUDA_H

#include <cuda_runtime_api.h>

#include "sctest.h"

/* Call first in main() of every gpu-labelled test: skips the binary when no device is usable. */
static inline void sct_require_cuda(void)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        char why[256];
        snprintf(why, sizeof why, "no CUDA device (%s)",
                 err != cudaSuccess ? cudaGetErrorString(err) : "device count 0");
        sct_skip_all(why);
    }
}

#define SCT_CUDA(call)                                                                     \
    do {                                                                                   \
        cudaError_t sct_err_ = (call);                                                     \
        if (sct_err_ != cudaSuccess)                                                       \
            sct_fail(__FILE__, __LINE__, "%s failed: %s", #call, cudaGetErrorString(sct_err_)); \
    } while (0)

#define SCT_CUDA_REQUIRE(call)                                                             \
    do {                                                                                   \
        cudaError_t sct_err_ = (call);                                                     \
        if (sct_err_ != cudaSuccess) {                                                     \
            sct_fail(__FILE__, __LINE__, "%s failed: %s", #call, cudaGetErrorString(sct_err_)); \
            return;                                                                        \
        }                                                                                  \
    } while (0)

#endif
