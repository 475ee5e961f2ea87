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
    SC_SHADE_CORNERS = 3 * SC_SHADE_THREADS, /* the block's pixels' triangle corners, at most */
    SC_SHADE_SLOTS = 4 * SC_SHADE_THREADS, /* the block's vertex table: more slots than its corners, a
                                              power of two */
    SC_SHADE_RING_CHUNK = SC_CUDA_SHADE_RING_CHUNK
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

/* An exclusive prefix sum over the block of each thread's value v; *total gets the block's sum.
 * Every thread of the block calls it (it holds barriers). */
__device__ static uint32_t shade_block_exclusive_sum(uint32_t v, uint32_t *warp_sums, uint32_t *total)
{
    const uint32_t lane = threadIdx.x & 31u, warp = (threadIdx.y * blockDim.x + threadIdx.x) >> 5;
    uint32_t incl = v;
    for (uint32_t d = 1; d < 32; d <<= 1) {
        const uint32_t o = __shfl_up_sync(0xFFFFFFFFu, incl, d);
        if (lane >= d) incl += o;
    }
    if (lane == 31) warp_sums[warp] = incl;
    __syncthreads();
    uint32_t base = 0, sum = 0;
    for (uint32_t w = 0; w < SC_SHADE_THREADS / 32; ++w) {
        if (w < warp) base += warp_sums[w];
        sum += warp_sums[w];
    }
    *total = sum;
    return base + incl - v;
}

/* The vertex normals of the block's listed vertices (list[0 .. n), slots of keys) into normals[slot]:
 * their rings' triangles laid end to end (entry e of the block is triangle adj_tris[ring[i] + e -
 * first[i]] of the ring of listed vertex i), a chunk of entries at a time, each entry's face normal by
 * its own thread (so a ring's loads are in flight together, not one triangle after another), then each
 * vertex's sum over its entries of the chunk in ring order (sc_vertex_normal_add), and at the end
 * sc_vertex_normal_finish: sc_vertex_normal's bits. Every thread of the block calls it. */
__device__ static void shade_listed_normals(const sc_mesh_rings &m, const uint32_t *keys, const uint16_t *list,
                                            uint32_t n, float (*normals)[3])
{
    __shared__ uint32_t ring[SC_SHADE_CORNERS];      /* listed vertex i: its first adjacency entry */
    __shared__ uint32_t first[SC_SHADE_CORNERS + 1]; /* ... its first entry in the block's order */
    __shared__ float fn[SC_SHADE_RING_CHUNK][3];     /* a chunk's face normals */
    __shared__ uint32_t warp_sums[SC_SHADE_THREADS / 32];
    const uint32_t tid = threadIdx.y * blockDim.x + threadIdx.x;
    uint32_t len[3], mine = 0;
    for (uint32_t k = 0; k < 3; ++k) { /* the listed vertices 3 tid .. 3 tid + 2, in list order */
        const uint32_t i = 3 * tid + k;
        len[k] = 0;
        if (i < n) {
            const uint32_t v = keys[list[i]], b = m.adj_offsets[v];
            ring[i] = b;
            len[k] = m.adj_offsets[v + 1] - b;
        }
        mine += len[k];
    }
    uint32_t total;
    uint32_t e = shade_block_exclusive_sum(mine, warp_sums, &total);
    for (uint32_t k = 0; k < 3; ++k) {
        const uint32_t i = 3 * tid + k;
        if (i < n) first[i] = e;
        e += len[k];
    }
    if (tid == 0) first[n] = total;
    for (uint32_t i = tid; i < n; i += SC_SHADE_THREADS)
        for (int c = 0; c < 3; ++c) normals[list[i]][c] = 0.0f;
    __syncthreads();
    for (uint32_t c0 = 0; c0 < total; c0 += SC_SHADE_RING_CHUNK) {
        const uint32_t cn = min((uint32_t)SC_SHADE_RING_CHUNK, total - c0);
        for (uint32_t k = tid; k < cn; k += SC_SHADE_THREADS) {
            const uint32_t g = c0 + k;
            uint32_t lo = 0, hi = n - 1; /* the last listed vertex whose entries start at or before g */
            while (lo < hi) {
                const uint32_t mid = (lo + hi + 1) >> 1;
                if (first[mid] <= g) lo = mid; else hi = mid - 1;
            }
            sc_face_normal(m.positions, m.indices + 3 * (size_t)m.adj_tris[ring[lo] + (g - first[lo])], fn[k]);
        }
        __syncthreads();
        for (uint32_t i = tid; i < n; i += SC_SHADE_THREADS) {
            const uint32_t a = max(first[i], c0), b = min(first[i + 1], c0 + cn);
            if (a >= b) continue;
            float *o = normals[list[i]];
            float sum[3] = {o[0], o[1], o[2]};
            for (uint32_t g = a; g < b; ++g) sc_vertex_normal_add(sum, fn[g - c0]);
            o[0] = sum[0]; o[1] = sum[1]; o[2] = sum[2];
        }
        __syncthreads();
    }
    for (uint32_t i = tid; i < n; i += SC_SHADE_THREADS) {
        float *o = normals[list[i]];
        const float sum[3] = {o[0], o[1], o[2]};
        sc_vertex_normal_finish(sum, o);
    }
    __syncthreads();
}

/* Smooth shading (SC_CUDA_SHADE_SHARED_NORMALS): the block's hit pixels' triangle corners gathered
 * into a table of distinct vertices, each vertex's normal computed once (shade_listed_normals, or
 * sc_vertex_normal a vertex a thread), then each pixel shaded with its three from the table: the same
 * bits as computing them per pixel, with fewer walks (neighbouring pixels share vertices). */
__global__ void __launch_bounds__(SC_SHADE_THREADS)
sc_shade_kernel(const sc_cuda_frame_consts *__restrict__ fc, const sc_cuda_globals *g, const sc_hit *hits,
                const uint32_t *tests, const uint32_t *tile_offsets, const float *tri_keys, const uint32_t *idx,
                const float *pos, const uint32_t *adj_offsets, const uint32_t *adj_tris, const uint8_t *shadow_mask,
                const uint32_t *shadow_tests)
{
    __shared__ uint32_t keys[SC_SHADE_SLOTS];
    __shared__ float normals[SC_SHADE_SLOTS][3];
    __shared__ uint16_t list[SC_SHADE_CORNERS];
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
        const uint32_t n = count;
        if (SC_CUDA_SHADE_SHARED_NORMALS == 2) {
            if (n > 0) shade_listed_normals(m, keys, list, n, normals); /* n is the block's: all or none */
        } else {
            for (uint32_t i = tid; i < n; i += SC_SHADE_THREADS) {
                const uint32_t s = list[i];
                sc_vertex_normal(&m, keys[s], normals[s]);
            }
            __syncthreads();
        }
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
