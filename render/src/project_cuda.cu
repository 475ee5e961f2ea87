/* project_cuda.cu - projection and classification of every triangle (tile count and depth key,
 * classify.h, one thread per triangle), the frame's depth range and visible count by a reduction
 * (warp shuffles, then one atomic per warp), the exclusive scan of the tile counts (CUB, 64-bit
 * offsets) and the frame totals (references, overflow, slab range), all kept on the device. */
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <math.h>

#include "backend_cuda.h"
#include "classify.h"
#include "render_tuning.h"
#include "sc_report.h"

__global__ void __launch_bounds__(SC_CUDA_PROJECT_THREADS)
sc_project_kernel(sc_frame_params p, const float *pos, const uint32_t *idx, uint32_t *tri_tiles, float *tri_keys)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= p.num_triangles) return;
    const uint32_t *f = idx + 3 * (size_t)t;
    sc_tri_setup s;
    uint32_t count = 0;
    float key = INFINITY;
    if (sc_tri_classify(&p, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], &s)) {
        count = sc_tri_tile_count(&p, &s);
        if (count > 0) key = s.depth_key;
    }
    tri_tiles[t] = count;
    tri_keys[t] = key;
}

sc_status sc_cuda_project(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    uint32_t n = p->num_triangles;
    if (n == 0) return SC_OK;
    sc_project_kernel<<<(n + SC_CUDA_PROJECT_THREADS - 1) / SC_CUDA_PROJECT_THREADS, SC_CUDA_PROJECT_THREADS, 0, s>>>(
        *p, st->positions, st->indices, st->tri_tiles, st->tri_keys);
    SC_CUDA_CHECK_LAUNCH("sc_project_kernel");
    return SC_OK;
}

/* Visible keys are positive finite floats, whose bit patterns order like the floats: the minimum
 * is kept as the maximum of the complemented bits (the globals start zeroed). */
__global__ void __launch_bounds__(SC_CUDA_REDUCE_THREADS)
sc_reduce_kernel(const uint32_t *tri_tiles, const float *tri_keys, uint32_t n, sc_cuda_globals *g)
{
    uint32_t min_inv = 0, max_bits = 0, visible = 0;
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
        if (tri_tiles[t] == 0) continue;
        uint32_t b = __float_as_uint(tri_keys[t]);
        min_inv = max(min_inv, ~b);
        max_bits = max(max_bits, b);
        ++visible;
    }
    for (int o = 16; o > 0; o >>= 1) {
        min_inv = max(min_inv, __shfl_down_sync(0xFFFFFFFFu, min_inv, o));
        max_bits = max(max_bits, __shfl_down_sync(0xFFFFFFFFu, max_bits, o));
        visible += __shfl_down_sync(0xFFFFFFFFu, visible, o);
    }
    if ((threadIdx.x & 31) == 0 && visible > 0) {
        atomicMax(&g->depth_min_inv, min_inv);
        atomicMax(&g->depth_max_bits, max_bits);
        atomicAdd(&g->visible, (unsigned long long)visible);
    }
}

sc_status sc_cuda_reduce(const sc_cuda_state *st, cudaStream_t s)
{
    uint32_t n = st->num_triangles;
    if (n == 0) return SC_OK;
    uint32_t blocks = (n + SC_CUDA_REDUCE_THREADS - 1) / SC_CUDA_REDUCE_THREADS;
    if (blocks > SC_CUDA_REDUCE_MAX_BLOCKS) blocks = SC_CUDA_REDUCE_MAX_BLOCKS;
    sc_reduce_kernel<<<blocks, SC_CUDA_REDUCE_THREADS, 0, s>>>(st->tri_tiles, st->tri_keys, n, st->globals);
    SC_CUDA_CHECK_LAUNCH("sc_reduce_kernel");
    return SC_OK;
}

sc_status sc_cuda_scan_temp_bytes(uint32_t num_triangles, size_t *bytes)
{
    *bytes = 0;
    if (num_triangles == 0) return SC_OK;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(NULL, *bytes, (const uint32_t *)NULL, (unsigned long long *)NULL,
                                                 cuda::std::plus<>(), 0ull, num_triangles));
    return SC_OK;
}

/* One thread: the references of the frame, overflow against the capacity, and the slab range
 * (the near plane for a frame with no visible triangle, as the CPU backend). */
__global__ void sc_finalize_kernel(const uint32_t *tri_tiles, const unsigned long long *tri_offsets, uint32_t n,
                                   unsigned long long capacity, float near_plane, sc_cuda_globals *g)
{
    unsigned long long total = n ? tri_offsets[n - 1] + tri_tiles[n - 1] : 0ull;
    g->references = total;
    g->overflow = total > capacity ? 1u : 0u;
    if (g->visible == 0) {
        g->depth_min = g->depth_max = near_plane;
    } else {
        g->depth_min = __uint_as_float(~g->depth_min_inv);
        g->depth_max = __uint_as_float(g->depth_max_bits);
    }
}

sc_status sc_cuda_scan(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    uint32_t n = p->num_triangles;
    if (n > 0) {
        size_t bytes = st->scan_temp_bytes;
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(st->scan_temp, bytes, st->tri_tiles, st->tri_offsets,
                                                     cuda::std::plus<>(), 0ull, n, s));
    }
    sc_finalize_kernel<<<1, 1, 0, s>>>(st->tri_tiles, st->tri_offsets, n, (unsigned long long)st->ref_capacity,
                                       p->near_plane, st->globals);
    SC_CUDA_CHECK_LAUNCH("sc_finalize_kernel");
    return SC_OK;
}
