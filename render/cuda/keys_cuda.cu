/* keys_cuda.cu - sort-last by hit keys on the device (slabcast.h "Hit keys"; the key of
 * render/core/composite.h): a share's per-pixel keys, the elementwise minimum of two key buffers,
 * hits made from the winning keys, the owners' u and v written back into them, and an image that holds
 * its owner's pixels and zeros elsewhere laid over another (its nonzero words). One thread per
 * element, grid-stride; no allocation or wait (the share's ids are set_share's, backend_cuda.cu). */
#include <cuda_runtime.h>
#include <math.h>

#include "backend_cuda.h"
#include "composite.h"
#include "keys_cuda.cuh"
#include "rgba_store.cuh"
#include "sc_report.h"

enum { SC_KEYS_THREADS = 256, SC_KEYS_MAX_BLOCKS = 65535 };

static unsigned keys_blocks(uint64_t count)
{
    const uint64_t b = (count + SC_KEYS_THREADS - 1) / SC_KEYS_THREADS;
    const uint64_t most = SC_KEYS_MAX_BLOCKS;
    return (unsigned)(b < most ? (b ? b : 1) : most);
}

__global__ void sc_hit_keys_kernel(const sc_hit *hits, uint64_t n, const uint32_t *ids, uint32_t first,
                                   uint32_t owned_first, uint32_t owned_end, uint64_t *keys)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        keys[i] = owned_key(hits[i], ids, first, owned_first, owned_end);
}

/* A pixel whose winner the share owns gets the share's hit (its own key equals the winner). */
__global__ void sc_resolve_keys_kernel(const sc_hit *hits, uint64_t n, const uint32_t *ids, uint32_t first,
                                       uint32_t owned_first, uint32_t owned_end, const uint64_t *winners, sc_hit *out)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t w = winners[i];
        if (w == SC_HIT_KEY_NONE) continue;
        sc_hit h = hits[i];
        if (owned_key(h, ids, first, owned_first, owned_end) != w) continue;
        h.tri = (uint32_t)w;
        out[i] = h;
    }
}

__global__ void sc_keys_min_kernel(uint64_t *acc, const uint64_t *part, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t a = acc[i], b = part[i];
        if (b < a) acc[i] = b;
    }
}

__global__ void sc_hits_from_keys_kernel(sc_hit *hits, const uint64_t *keys, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t k = keys[i];
        sc_hit h;
        if (k == SC_HIT_KEY_NONE) {
            h.tri = SC_NO_HIT;
            h.depth = INFINITY;
        } else {
            h.tri = (uint32_t)k;
            h.depth = __uint_as_float((uint32_t)(k >> 32));
        }
        h.u = h.v = 0.0f;
        hits[i] = h;
    }
}

/* part's nonzero words over acc (rows of any pitch: sc_store_rgba8). */
__global__ void sc_pixels_over_kernel(uint8_t *acc, size_t pitch, const uint32_t *part, uint32_t width, uint32_t height)
{
    const uint64_t n = (uint64_t)width * height;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t b = part[i];
        if (b == 0) continue;
        sc_store_rgba8(acc + (size_t)(i / width) * pitch + 4 * (size_t)(i % width), b);
    }
}

extern "C" sc_status sc_cuda_hit_keys(void *state, uint64_t *keys)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    const uint64_t n = (uint64_t)st->grid.width * st->grid.height;
    sc_hit_keys_kernel<<<keys_blocks(n), SC_KEYS_THREADS, 0, st->stream>>>(st->hits, n, st->share_ids, st->share_first,
                                                                          st->owned_first, st->owned_end, keys);
    SC_CUDA_CHECK_LAUNCH("sc_hit_keys_kernel");
    return SC_OK;
}

extern "C" sc_status sc_cuda_resolve_keys(void *state, const uint64_t *winners, sc_hit *hits)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    const uint64_t n = (uint64_t)st->grid.width * st->grid.height;
    sc_resolve_keys_kernel<<<keys_blocks(n), SC_KEYS_THREADS, 0, st->stream>>>(
        st->hits, n, st->share_ids, st->share_first, st->owned_first, st->owned_end, winners, hits);
    SC_CUDA_CHECK_LAUNCH("sc_resolve_keys_kernel");
    return SC_OK;
}

extern "C" sc_status sc_cuda_keys_min(uint64_t *acc, const uint64_t *part, uint64_t count, cudaStream_t s)
{
    if (count == 0 || acc == part) return SC_OK;
    sc_keys_min_kernel<<<keys_blocks(count), SC_KEYS_THREADS, 0, s>>>(acc, part, count);
    SC_CUDA_CHECK_LAUNCH("sc_keys_min_kernel");
    return SC_OK;
}

extern "C" sc_status sc_cuda_hits_from_keys(sc_hit *hits, const uint64_t *keys, uint64_t count, cudaStream_t s)
{
    if (count == 0) return SC_OK;
    sc_hits_from_keys_kernel<<<keys_blocks(count), SC_KEYS_THREADS, 0, s>>>(hits, keys, count);
    SC_CUDA_CHECK_LAUNCH("sc_hits_from_keys_kernel");
    return SC_OK;
}

extern "C" sc_status sc_cuda_pixels_over(void *acc, size_t pitch, const uint32_t *part, uint32_t width,
                                        uint32_t height, cudaStream_t s)
{
    const uint64_t n = (uint64_t)width * height;
    if (n == 0) return SC_OK;
    sc_pixels_over_kernel<<<keys_blocks(n), SC_KEYS_THREADS, 0, s>>>((uint8_t *)acc, pitch, part, width, height);
    SC_CUDA_CHECK_LAUNCH("sc_pixels_over_kernel");
    return SC_OK;
}
