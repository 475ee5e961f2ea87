/* split_launch.cuh - launching the split library's kernels (internal, CUDA): programmatic dependent
 * launch and the opt-in to more than the default dynamic shared memory. */
#ifndef SPLIT_LAUNCH_CUH
#define SPLIT_LAUNCH_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <utility>

#include "sc_report.h"
#include "split_tuning.h"

/* Programmatic dependent launch (sm_90). A kernel launched by split_launch_dependent may be scheduled
 * while the kernel before it in the stream is still running; its first statement is
 * split_wait_prior_grids(), which returns once the kernels before it have completed and their writes
 * are visible, so nothing it reads or writes in global memory is touched early. A kernel calls
 * split_release_dependents() to let the next one be scheduled before it ends (the next one still
 * waits for its completion). Elsewhere (older GPUs, plain launches: split_pdl_on) both are no-ops. */
__device__ __forceinline__ void split_wait_prior_grids()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void split_release_dependents()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
/* Whether launches on the current device use programmatic dependent launch: compute capability 9.0
 * or newer, unless SLABCAST_CUDA_PORTABLE=1 in the environment (the portable path, as on older GPUs:
 * plain stream order, which the griddepcontrol instructions above then leave unchanged). Asked of the
 * driver once per device ordinal below 64 (bit `dev` of `known`, the answer in `on`); devices from 64
 * on ask at every launch. */
inline bool split_pdl_on()
{
    static std::atomic<unsigned long long> known{0}, on{0};
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    const unsigned long long bit = dev >= 0 && dev < 64 ? 1ull << dev : 0ull;
    if (bit && (known.load(std::memory_order_acquire) & bit)) return (on.load(std::memory_order_relaxed) & bit) != 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    const char *portable = getenv("SLABCAST_CUDA_PORTABLE");
    const bool pdl = major >= 9 && !(portable && strcmp(portable, "1") == 0);
    if (pdl) on.fetch_or(bit, std::memory_order_relaxed);
    known.fetch_or(bit, std::memory_order_release);
    return pdl;
}

template <typename... KArgs, typename... Args>
static cudaError_t split_launch_dependent(void (*kernel)(KArgs...), uint32_t grid, uint32_t block, size_t smem,
                                         cudaStream_t stream, Args &&...args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = split_pdl_on() ? 1 : 0;
    return cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...);
}

/* Lets kernel use `most` bytes of dynamic shared memory when a launch needs more than the default
 * (`need`), once per kernel and device: the attribute belongs to the current device, so `devices`
 * holds a bit per device ordinal below 64 that has it (later calls there, graph captures included,
 * make no attribute call); devices from 64 on set it at every such call. */
template <typename K>
static sc_status split_allow_smem(K kernel, uint32_t need, uint32_t most, std::atomic<unsigned long long> &devices)
{
    if (need <= SPLIT_DEFAULT_SMEM_BYTES) return SC_OK;
    int dev = 0;
    SC_CUDA_CHECK(cudaGetDevice(&dev));
    const unsigned long long bit = dev >= 0 && dev < 64 ? 1ull << dev : 0ull;
    if (bit && (devices.load(std::memory_order_acquire) & bit)) return SC_OK;
    SC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most));
    devices.fetch_or(bit, std::memory_order_release);
    return SC_OK;
}

#endif /* SPLIT_LAUNCH_CUH */
