/* bench_device.c - device properties, free memory and images: the library says where a backend's
 * buffers live and how its frames are timed; the CUDA runtime, when built with it, answers for a
 * backend on the device. */
#include "bench_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Where the backend wants the caller's buffers: 1 device memory, 0 host memory. */
static int buffers_on_device(sc_backend backend)
{
    sc_backend_info info;
    return sc_backend_get_info(backend, &info) == SC_OK && info.buffer_memory == SC_MEMORY_DEVICE;
}

int bench_device_query(sc_backend backend, uint32_t threads, bench_device *d, char *why, size_t why_size)
{
    memset(d, 0, sizeof *d);
    d->backend = backend;
    sc_backend_info info;
    if (sc_backend_get_info(backend, &info) != SC_OK) {
        snprintf(why, why_size, "cannot describe the backend: %s", sc_last_error());
        return -1;
    }
    d->on_device = info.buffer_memory == SC_MEMORY_DEVICE;
    d->asynchronous = info.asynchronous;
    d->device_timed = info.device_timed;
    if (!d->on_device) {
        snprintf(d->name, sizeof d->name, "cpu");
        d->threads = threads ? threads : info.worker_threads;
        return 0;
    }
#if SLABCAST_BENCH_CUDA
    return query_cuda(d, why, why_size);
#else
    snprintf(why, why_size, "built without CUDA");
    return -1;
#endif
}

int bench_device_measure_limits(bench_device *d, uint32_t threads)
{
    d->limits_known = 0;
    d->limits_why[0] = '\0';
    if (sc_backend_measure_limits(d->backend, threads, &d->limits) != SC_OK) {
        snprintf(d->limits_why, sizeof d->limits_why, "%s", sc_last_error());
        return -1;
    }
    d->limits_known = 1;
    return 0;
}

int bench_device_free_memory(sc_backend backend, uint64_t *free_bytes)
{
#if SLABCAST_BENCH_CUDA
    if (!buffers_on_device(backend)) return -1;
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

/* bytes of device memory in *out: 0, or -1 with why. */
static int device_alloc(size_t bytes, uint32_t width, uint32_t height, void **out, char *why, size_t why_size)
{
#if SLABCAST_BENCH_CUDA
    cudaError_t e = cudaMalloc(out, bytes);
    if (e == cudaSuccess) return 0;
    (void)cudaGetLastError();
    *out = NULL;
    snprintf(why, why_size, "cannot allocate a %ux%u image (%zu bytes) on the device: %s", width, height, bytes,
             cudaGetErrorString(e));
#else
    snprintf(why, why_size, "cannot allocate a %ux%u image (%zu bytes) on the device: built without CUDA", width,
             height, bytes);
#endif
    return -1;
}

int bench_pixels_alloc(sc_backend backend, uint32_t width, uint32_t height, void **out, char *why, size_t why_size)
{
    *out = NULL;
    if (width == 0 || height == 0 || (size_t)width > SIZE_MAX / 4 / height) {
        snprintf(why, why_size, "a %ux%u image does not fit in memory", width, height);
        return -1;
    }
    size_t bytes = (size_t)width * height * 4;
    if (buffers_on_device(backend)) return device_alloc(bytes, width, height, out, why, why_size);
    *out = malloc(bytes);
    if (*out) return 0;
    snprintf(why, why_size, "out of memory for a %ux%u image (%zu bytes)", width, height, bytes);
    return -1;
}

void bench_pixels_free(sc_backend backend, void *pixels)
{
    if (!pixels) return;
    if (buffers_on_device(backend)) {
#if SLABCAST_BENCH_CUDA
        (void)cudaFree(pixels);
#endif
        return;
    }
    free(pixels);
}
