/* shade_keys_cuda.cu - the owner's shading of a composited frame (sc_backend_ops.shade_keys): one
 * thread per pixel; a pixel whose winning key is the renderer's own hit there is shaded as the
 * renderer's last frame shades it (its camera, options and shading, sc_shade_hit_vn of shade.h,
 * compiled without FMA contraction like shade_cuda.cu), coloured in the triangle-id view by the whole
 * mesh's id; with `background`, the pixels without a hit too; every other pixel is left alone. The
 * vertex normals of the hit triangle come from the share's one-rings, which a halo share holds whole
 * for the triangles it owns. */
#include <cuda_runtime.h>

#include "backend_cuda.h"
#include "keys_cuda.cuh"
#include "render_tuning.h"
#include "rgba_store.cuh"
#include "sc_report.h"
#include "shade.h"

__global__ void __launch_bounds__(SC_CUDA_SHADE_BLOCK_X * SC_CUDA_SHADE_BLOCK_Y)
sc_shade_keys_kernel(const sc_cuda_frame_consts *__restrict__ fc, const sc_cuda_globals *g, const sc_hit *hits,
                     const uint32_t *idx, const float *pos, const uint32_t *adj_offsets, const uint32_t *adj_tris,
                     const uint32_t *ids, uint32_t first, uint32_t owned_first, uint32_t owned_end,
                     const uint64_t *winners, uint8_t *rgba, size_t pitch, int background)
{
    const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    sc_frame_params p = fc->p;
    if (x >= p.width || y >= p.height) return;
    p.depth_min = g->depth_min;
    p.depth_max = g->depth_max;
    const size_t px = (size_t)y * p.width + x;
    const uint64_t w = winners[px];
    sc_hit h;
    if (w == SC_HIT_KEY_NONE) {
        if (!background) return;
        h.tri = SC_NO_HIT;
        h.depth = __int_as_float(0x7f800000); /* +inf */
        h.u = h.v = 0.0f;
    } else {
        h = hits[px];
        if (owned_key(h, ids, first, owned_first, owned_end) != w) return;
    }
    const sc_shade_buffers b = {hits, NULL, NULL, NULL, idx, pos, adj_offsets, adj_tris, NULL, NULL};
    const uint32_t packed = sc_shade_hit_vn(&fc->shade.s, &p, &b, x, y, h, (uint32_t)w, NULL);
    sc_store_rgba8(rgba + (size_t)y * pitch + 4 * (size_t)x, packed);
}

extern "C" sc_status sc_cuda_shade_keys(void *state, const uint64_t *winners, void *rgba, size_t pitch, int background)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    dim3 block(SC_CUDA_SHADE_BLOCK_X, SC_CUDA_SHADE_BLOCK_Y);
    dim3 grid((st->grid.width + block.x - 1) / block.x, (st->grid.height + block.y - 1) / block.y);
    sc_shade_keys_kernel<<<grid, block, 0, st->stream>>>(st->consts, st->globals, st->hits, st->indices, st->positions,
                                                         st->adj_offsets, st->adj_tris, st->share_ids, st->share_first,
                                                         st->owned_first, st->owned_end, winners, (uint8_t *)rgba,
                                                         pitch, background);
    SC_CUDA_CHECK_LAUNCH("sc_shade_keys_kernel");
    return SC_OK;
}
