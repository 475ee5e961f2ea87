/* shade_cuda.cu - shading and visualisation on the GPU, one thread per pixel: sc_shade_pixel_vn
 * (shade.h, shared with the CPU backend; compiled without FMA contraction, so the pixels are the
 * CPU's). Smooth shading needs the hit triangles' vertex normals, computed from their one-rings (the
 * adjacency, the indices and this frame's positions; sc_vertex_normal): once per distinct vertex of
 * a block's hit pixels, neighbouring pixels sharing most of their corners. Writes RGBA8 rows (row 0
 * at the bottom) into the caller's device buffer or a CUDA surface. */
#include <cuda_runtime.h>

#include "backend_cuda.h"
#include "render_tuning.h"
#include "rgba_store.cuh"
#include "sc_report.h"
#include "shade.h"

enum {
    SC_SHADE_THREADS = SC_CUDA_SHADE_BLOCK_X * SC_CUDA_SHADE_BLOCK_Y,
    SC_SHADE_SLOTS = 4 * SC_SHADE_THREADS /* the block's vertex table: more slots than its 3 corners a
                                             pixel, a power of two */
};
static_assert((SC_SHADE_SLOTS & (SC_SHADE_SLOTS - 1)) == 0 && SC_SHADE_SLOTS >= 3 * SC_SHADE_THREADS,
              "the vertex table holds every corner of the block's pixels");
#define SC_SHADE_EMPTY 0xFFFFFFFFu

/* The slot of vertex v in the block's table (open addressing, linear probing), inserted if new; a new
 * vertex is appended to the list of vertices to compute. */
__device__ static uint32_t shade_slot(uint32_t *keys, uint16_t *list, uint32_t *count, uint32_t v)
{
    uint32_t slot = __umulhi(v * 0x9E3779B1u, SC_SHADE_SLOTS); /* in [0, SC_SHADE_SLOTS) */
    for (;;) {
        const uint32_t old = atomicCAS(&keys[slot], SC_SHADE_EMPTY, v);
        if (old == SC_SHADE_EMPTY) {
            list[atomicAdd(count, 1u)] = (uint16_t)slot;
            return slot;
        }
        if (old == v) return slot;
        slot = (slot + 1) & (SC_SHADE_SLOTS - 1);
    }
}

/* Smooth shading (SC_CUDA_SHADE_SHARED_NORMALS): the block's hit pixels' triangle corners gathered
 * into a table of distinct vertices, each vertex's normal computed once (sc_vertex_normal, by
 * consecutive threads, so the one-ring walks fill whole warps), then each pixel shaded with its three
 * from the table: the same bits as computing them per pixel, with fewer walks (neighbouring pixels
 * share vertices). */
__global__ void __launch_bounds__(SC_SHADE_THREADS)
sc_shade_kernel(const sc_cuda_frame_consts *__restrict__ fc, const sc_cuda_globals *g, const sc_hit *hits,
                const uint32_t *tests, const uint32_t *tile_offsets, const float *tri_keys, const uint32_t *idx,
                const float *pos, const uint32_t *adj_offsets, const uint32_t *adj_tris, const uint8_t *shadow_mask,
                const uint32_t *shadow_tests)
{
    __shared__ uint32_t keys[SC_SHADE_SLOTS];
    __shared__ float normals[SC_SHADE_SLOTS][3];
    __shared__ uint16_t list[3 * SC_SHADE_THREADS];
    __shared__ uint32_t count;
    const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const uint32_t tid = threadIdx.y * blockDim.x + threadIdx.x;
    sc_frame_params p = fc->p;
    /* The shading inputs stay in (cached) global memory: with the lights they are too large to copy
     * per thread. */
    const sc_cuda_shade_params &sp = fc->shade;
    if (!sp.rgba && !sp.surface) return; /* no image this frame (the whole grid) */
    p.depth_min = g->depth_min;
    p.depth_max = g->depth_max;
    const bool inside = x < p.width && y < p.height;
    const sc_shade_buffers b = {hits, tests, tile_offsets, tri_keys, idx, pos, adj_offsets, adj_tris, shadow_mask,
                                shadow_tests};
    float vn[3][3];
    bool have_vn = false;
    if (SC_CUDA_SHADE_SHARED_NORMALS && sc_shade_uses_vertex_normals(&sp.s, &p)) { /* the whole block alike */
        for (uint32_t i = tid; i < SC_SHADE_SLOTS; i += SC_SHADE_THREADS) keys[i] = SC_SHADE_EMPTY;
        if (tid == 0) count = 0;
        __syncthreads();
        const uint32_t tri = inside ? hits[(size_t)y * p.width + x].tri : SC_NO_HIT;
        uint32_t slot[3] = {0, 0, 0};
        if (tri != SC_NO_HIT)
            for (int k = 0; k < 3; ++k) slot[k] = shade_slot(keys, list, &count, idx[3 * (size_t)tri + k]);
        __syncthreads();
        const sc_mesh_rings m = {adj_offsets, adj_tris, idx, pos};
        for (uint32_t i = tid; i < count; i += SC_SHADE_THREADS) {
            const uint32_t s = list[i];
            sc_vertex_normal(&m, keys[s], normals[s]);
        }
        __syncthreads();
        if (tri != SC_NO_HIT) {
            for (int k = 0; k < 3; ++k)
                for (int c = 0; c < 3; ++c) vn[k][c] = normals[slot[k]][c];
            have_vn = true;
        }
    }
    if (!inside) return;
    const uint32_t packed = sc_shade_pixel_vn(&sp.s, &p, &b, x, y, have_vn ? (const float (*)[3])vn : NULL);
    if (sp.rgba) {
        sc_store_rgba8(sp.rgba + (size_t)y * sp.pitch + 4 * (size_t)x, packed);
    } else
        surf2Dwrite(packed, (cudaSurfaceObject_t)sp.surface, (int)(4 * x), (int)y);
}

sc_status sc_cuda_shade(const sc_cuda_state *st, const sc_frame_params *p,
                        cudaStream_t s)
{
    dim3 block(SC_CUDA_SHADE_BLOCK_X, SC_CUDA_SHADE_BLOCK_Y);
    dim3 grid((p->width + block.x - 1) / block.x, (p->height + block.y - 1) / block.y);
    sc_shade_kernel<<<grid, block, 0, s>>>(st->consts, st->globals, st->hits, st->tests, st->tile_offsets, st->tri_keys,
                                           st->indices, st->positions, st->adj_offsets, st->adj_tris,
                                           st->shadow_mask, st->shadow_tests);
    SC_CUDA_CHECK_LAUNCH("sc_shade_kernel");
    return SC_OK;
}
