/* bench_device.h - what a benchmark ran on (the GPU's properties and versions, or the host backend's
 * threads), free device memory, and the frames' image in the backend's memory. Which of these a
 * backend has is asked of the library (sc_backend_get_info: where its buffers live, how its frames
 * are timed); the CUDA runtime is called only for a backend whose buffers are device memory, and only
 * in builds with CUDA (SLABCAST_BENCH_CUDA): without it every device question has no answer. */
#ifndef SLABCAST_BENCH_DEVICE_H
#define SLABCAST_BENCH_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "slabcast.h"

typedef struct bench_device {
    sc_backend backend;          /* the backend in use (resolved: never SC_BACKEND_DEFAULT) */
    /* What the library says of it (sc_backend_info). on_device: its buffers are device memory, so it
     * runs on the current CUDA device, whose properties below are filled; 0: it runs on the host
     * (threads is filled). asynchronous: frames rendered back to back overlap, so they are timed
     * apart from the waited ones. device_timed: frame_ms is the device's time, the defaults of
     * --frames / --warmup are the GPU's. */
    int on_device, asynchronous, device_timed;
    char name[256];              /* on a device: the GPU's name; on the host: "cpu" */
    /* On a device only (0 on the host). Versions as the runtime gives them: 13000 is 13.0. */
    int sm_count;
    int clock_khz, memory_clock_khz, memory_bus_bits;
    int compute_major, compute_minor;
    int driver_version, runtime_version;
    uint64_t total_memory;       /* bytes of device memory */
    /* On the host only: worker threads (--threads, or the backend's default, one per online core). */
    unsigned threads;
    /* The device's limits (sc_backend_measure_limits: copy bandwidth, ray-triangle test rate), measured
     * once per run before the configurations, against which every configuration's floor is computed
     * (bench_floor.h). limits_known 0: not measured (--no-limits, or the measurement failed:
     * limits_why says why). */
    int limits_known;
    sc_device_limits limits;
    char limits_why[512];
} bench_device;

/* Fills *d for the backend in use: on a device, the current CUDA device. 0, or -1 with why. */
int bench_device_query(sc_backend backend, uint32_t threads, bench_device *d, char *why, size_t why_size);

/* Measures d->limits on d->backend (threads: the CPU backend's workers, 0: one per core). 0, or -1 with
 * d->limits_why (the library's message) and limits_known 0. */
int bench_device_measure_limits(bench_device *d, uint32_t threads);

/* Free device memory (cudaMemGetInfo): 0 and *free_bytes, or -1 where there is none to ask (a backend
 * on the host, a build without CUDA, a failed call). */
int bench_device_free_memory(sc_backend backend, uint64_t *free_bytes);

/* An RGBA8 image of width x height where the backend wants the caller's buffers (device memory for a
 * backend whose sc_backend_info.buffer_memory says so); the size is overflow-checked. 0, or -1 with
 * why. */
int bench_pixels_alloc(sc_backend backend, uint32_t width, uint32_t height, void **out, char *why, size_t why_size);
void bench_pixels_free(sc_backend backend, void *pixels);

#endif
