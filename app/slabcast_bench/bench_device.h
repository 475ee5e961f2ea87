/* bench_device.h - what a benchmark ran on (the GPU's properties and versions, or the CPU backend's
 * threads), free device memory, and the frames' image in the backend's memory. The CUDA runtime is
 * called only in builds with CUDA (SLABCAST_BENCH_CUDA); without it every CUDA question has no
 * answer. */
#ifndef SLABCAST_BENCH_DEVICE_H
#define SLABCAST_BENCH_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "slabcast.h"

typedef struct bench_device {
    sc_backend backend;          /* SC_BACKEND_CUDA or SC_BACKEND_CPU */
    char name[256];              /* CUDA: the GPU's name; cpu: "cpu" */
    /* CUDA only (0 on the cpu backend). Versions as the runtime gives them: 13000 is 13.0. */
    int sm_count;
    int clock_khz, memory_clock_khz, memory_bus_bits;
    int compute_major, compute_minor;
    int driver_version, runtime_version;
    uint64_t total_memory;       /* bytes of device memory */
    /* cpu only: worker threads (--threads, or one per online core). */
    unsigned threads;
} bench_device;

/* Fills *d for the backend in use: CUDA, the current device. 0, or -1 with why. */
int bench_device_query(sc_backend backend, uint32_t threads, bench_device *d, char *why, size_t why_size);

/* Free device memory (cudaMemGetInfo): 0 and *free_bytes, or -1 where there is none to ask (the cpu
 * backend, a build without CUDA, a failed call). */
int bench_device_free_memory(sc_backend backend, uint64_t *free_bytes);

/* An RGBA8 image of width x height in the backend's memory (device memory for CUDA); the size is
 * overflow-checked. 0, or -1 with why. */
int bench_pixels_alloc(sc_backend backend, uint32_t width, uint32_t height, void **out, char *why, size_t why_size);
void bench_pixels_free(sc_backend backend, void *pixels);

#endif
