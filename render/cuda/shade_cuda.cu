/* shade_cuda.cu - shading and visualisation on the GPU, one thread per pixel: sc_shade_pixel
 * (shade.h, shared with the CPU backend; compiled without FMA contraction, so the pixels are the
 * CPU's). Writes RGBA8 rows (row 0 at the bottom) into the caller's device buffer or a CUDA
 * surface. */
#include <cuda_runtime.h>

#include "backend_cuda.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "shade.h"

__global__ void __launch_bounds__(SC_CUDA_SHADE_BLOCK_X * SC_CUDA_SHADE_BLOCK_Y)
sc_shade_kernel(const sc_cuda_frame_consts *__restrict__ fc, const sc_cuda_globals *g, const sc_hit *hits,
                const uint32_t *tests, const uint32_t *tile_offsets, const float *tri_keys, const uint32_t *idx,
                const float *pos, const float *normals, const uint8_t *shadow_mask, const uint32_t *shadow_tests)
{
    const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    sc_frame_params p = fc->p;
    /* The shading inputs stay in (cached) global memory: with the lights they are too large to copy
     * per thread. */
    const sc_cuda_shade_params &sp = fc->shade;
    if (x >= p.width || y >= p.height || (!sp.rgba && !sp.surface)) return; /* no image this frame */
    p.depth_min = g->depth_min;
    p.depth_max = g->depth_max;
    const sc_shade_buffers b = {hits, tests, tile_offsets, tri_keys, idx, pos, normals, shadow_mask, shadow_tests};
    const uint32_t packed = sc_shade_pixel(&sp.s, &p, &b, x, y);
    if (sp.rgba) {
        uint8_t *dst = sp.rgba + (size_t)y * sp.pitch + 4 * (size_t)x;
        if (((uintptr_t)dst & 3u) == 0) {
            *(uint32_t *)dst = packed;
        } else {
            for (int k = 0; k < 4; ++k) dst[k] = (uint8_t)(packed >> (8 * k));
        }
    } else
        surf2Dwrite(packed, (cudaSurfaceObject_t)sp.surface, (int)(4 * x), (int)y);
}

sc_status sc_cuda_shade(const sc_cuda_state *st, const sc_frame_params *p,
                        cudaStream_t s)
{
    dim3 block(SC_CUDA_SHADE_BLOCK_X, SC_CUDA_SHADE_BLOCK_Y);
    dim3 grid((p->width + block.x - 1) / block.x, (p->height + block.y - 1) / block.y);
    sc_shade_kernel<<<grid, block, 0, s>>>(st->consts, st->globals, st->hits, st->tests, st->tile_offsets, st->tri_keys,
                                           st->indices, st->positions, st->normals, st->shadow_mask,
                                           st->shadow_tests);
    SC_CUDA_CHECK_LAUNCH("sc_shade_kernel");
    return SC_OK;
}
