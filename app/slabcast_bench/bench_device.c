/* bench_device.c - device properties, free memory and images, over the CUDA runtime when built with
 * it. */
#include "bench_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if SLABCAST_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

#if SLABCAST_BENCH_CUDA
/* One CUDA attribute of the current device; 0 when the runtime does not give it. */
static int cuda_attribute(enum cudaDeviceAttr attr, int device)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, attr, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return v;
}

static int query_cuda(bench_device *d, char *why, size_t why_size)
{
    int dev = 0;
    struct cudaDeviceProp prop;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, dev);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(why, why_size, "cannot read the CUDA device's properties: %s", cudaGetErrorString(e));
        return -1;
    }
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    d->sm_count = prop.multiProcessorCount;
    /* Clocks through attributes: the properties' clock fields are gone from recent runtimes. */
    d->clock_khz = cuda_attribute(cudaDevAttrClockRate, dev);
    d->memory_clock_khz = cuda_attribute(cudaDevAttrMemoryClockRate, dev);
    d->memory_bus_bits = cuda_attribute(cudaDevAttrGlobalMemoryBusWidth, dev);
    d->compute_major = prop.major;
    d->compute_minor = prop.minor;
    d->total_memory = (uint64_t)prop.totalGlobalMem;
    if (cudaDriverGetVersion(&d->driver_version) != cudaSuccess) d->driver_version = 0;
    if (cudaRuntimeGetVersion(&d->runtime_version) != cudaSuccess) d->runtime_version = 0;
    (void)cudaGetLastError();
    return 0;
}
#endif

int bench_device_query(sc_backend backend, uint32_t threads, bench_device *d, char *why, size_t why_size)
{
    memset(d, 0, sizeof *d);
    d->backend = backend;
    if (backend == SC_BACKEND_CPU) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(d->name, sizeof d->name, "cpu");
        d->threads = threads ? threads : (unsigned)(online > 0 ? online : 1);
        return 0;
    }
#if SLABCAST_BENCH_CUDA
    return query_cuda(d, why, why_size);
#else
    snprintf(why, why_size, "built without CUDA");
    return -1;
#endif
}

int bench_device_free_memory(sc_backend backend, uint64_t *free_bytes)
{
#if SLABCAST_BENCH_CUDA
    if (backend != SC_BACKEND_CUDA) return -1;
    size_t free_now = 0, total = 0;
    if (cudaMemGetInfo(&free_now, &total) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    *free_bytes = (uint64_t)free_now;
    return 0;
#else
    (void)backend;
    (void)free_bytes;
    return -1;
#endif
}

int bench_pixels_alloc(sc_backend backend, uint32_t width, uint32_t height, void **out, char *why, size_t why_size)
{
    *out = NULL;
    if (width == 0 || height == 0 || (size_t)width > SIZE_MAX / 4 / height) {
        snprintf(why, why_size, "a %ux%u image does not fit in memory", width, height);
        return -1;
    }
    size_t bytes = (size_t)width * height * 4;
#if SLABCAST_BENCH_CUDA
    if (backend == SC_BACKEND_CUDA) {
        cudaError_t e = cudaMalloc(out, bytes);
        if (e == cudaSuccess) return 0;
        (void)cudaGetLastError();
        *out = NULL;
        snprintf(why, why_size, "cannot allocate a %ux%u image (%zu bytes) on the device: %s", width, height, bytes,
                 cudaGetErrorString(e));
        return -1;
    }
#endif
    (void)backend;
    *out = malloc(bytes);
    if (*out) return 0;
    snprintf(why, why_size, "out of memory for a %ux%u image (%zu bytes)", width, height, bytes);
    return -1;
}

void bench_pixels_free(sc_backend backend, void *pixels)
{
    if (!pixels) return;
#if SLABCAST_BENCH_CUDA
    if (backend == SC_BACKEND_CUDA) {
        (void)cudaFree(pixels);
        return;
    }
#endif
    (void)backend;
    free(pixels);
}
