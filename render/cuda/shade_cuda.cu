/* shade_cuda.cu - shading and visualisation on the GPU, one thread per pixel, the arithmetic of
 * shade_cpu.c (compiled without FMA contraction): Lambert + ambient with one directional light
 * (two-sided), smooth or flat normals, background gradient, or a visualisation mode. Writes RGBA8
 * rows (row 0 at the bottom) into the caller's device buffer or a CUDA surface. */
#include <cuda_runtime.h>
#include <math.h>

#include "backend_cuda.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "shade.h"

__device__ static inline void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f) { v[0] /= l; v[1] /= l; v[2] /= l; }
}

__global__ void __launch_bounds__(SC_CUDA_SHADE_BLOCK_X * SC_CUDA_SHADE_BLOCK_Y)
sc_shade_kernel(const sc_cuda_frame_consts *__restrict__ fc, const sc_cuda_globals *g, const sc_hit *hits,
                const uint32_t *tests, const uint32_t *tile_offsets, const float *tri_keys, const uint32_t *idx,
                const float *pos, const float *normals)
{
    const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    sc_frame_params p = fc->p;
    const sc_cuda_shade_params sp = fc->shade;
    if (x >= p.width || y >= p.height || (!sp.rgba && !sp.surface)) return; /* no image this frame */
    p.depth_min = g->depth_min;
    p.depth_max = g->depth_max;
    const size_t px = (size_t)y * p.width + x;
    const sc_hit h = hits[px];
    float gy = ((float)y + 0.5f) / (float)p.height;
    float rgb[3];
    for (int k = 0; k < 3; ++k) rgb[k] = sp.bg_bottom[k] + (sp.bg_top[k] - sp.bg_bottom[k]) * gy;
    switch (sp.mode) {
    case SC_VIEW_TILE_HEAT: {
        uint32_t tile = (y / p.tile_size) * p.tiles_x + x / p.tile_size;
        float count = (float)(tile_offsets[tile + 1] - tile_offsets[tile]);
        sc_heat(sc_log_scale(count, sp.heat_max_tile), rgb);
        break;
    }
    case SC_VIEW_TESTS_HEAT:
        sc_heat(sc_log_scale((float)tests[px], sp.heat_max_tests), rgb);
        break;
    default:
        if (h.tri == SC_NO_HIT) break;
        if (sp.mode == SC_VIEW_TRIANGLE_ID) {
            sc_id_colour(h.tri, rgb);
        } else if (sp.mode == SC_VIEW_DEPTH) {
            float span = p.depth_max - p.depth_min;
            float v = span > 0.0f ? (h.depth - p.depth_min) / span : 0.0f;
            rgb[0] = rgb[1] = rgb[2] = 1.0f - sc_clamp01(v);
        } else if (sp.mode == SC_VIEW_SLAB) {
            sc_hue((float)sc_slab_of(&p, tri_keys[h.tri]) / (float)p.num_slabs, rgb);
        } else {
            float dir[3], n[3];
            sc_pixel_ray_dir(&p, x, y, dir);
            const uint32_t *f = idx + 3 * (size_t)h.tri;
            if (p.flat_shading) {
                const float *a = pos + 3 * (size_t)f[0], *b = pos + 3 * (size_t)f[1], *d = pos + 3 * (size_t)f[2];
                float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
                n[0] = e1[1] * e2[2] - e1[2] * e2[1];
                n[1] = e1[2] * e2[0] - e1[0] * e2[2];
                n[2] = e1[0] * e2[1] - e1[1] * e2[0];
            } else {
                float w0 = 1.0f - h.u - h.v;
                const float *n0 = normals + 3 * (size_t)f[0], *n1 = normals + 3 * (size_t)f[1],
                            *n2 = normals + 3 * (size_t)f[2];
                for (int k = 0; k < 3; ++k) n[k] = w0 * n0[k] + h.u * n1[k] + h.v * n2[k];
            }
            normalize3(n);
            if (n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] > 0.0f) {
                n[0] = -n[0]; n[1] = -n[1]; n[2] = -n[2];
            }
            if (sp.mode == SC_VIEW_NORMALS) {
                for (int k = 0; k < 3; ++k) rgb[k] = 0.5f * (n[k] + 1.0f);
            } else {
                float lambert = n[0] * sp.light[0] + n[1] * sp.light[1] + n[2] * sp.light[2];
                float amb = sp.ambient < 0.0f ? 0.0f : sp.ambient;
                float l = amb + (1.0f - amb) * (lambert > 0.0f ? lambert : 0.0f);
                for (int k = 0; k < 3; ++k) rgb[k] = sp.albedo[k] * l;
            }
        }
        break;
    }
    uint32_t packed = sc_pack_rgba8(rgb[0], rgb[1], rgb[2]);
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
                                           st->indices, st->positions, st->normals);
    SC_CUDA_CHECK_LAUNCH("sc_shade_kernel");
    return SC_OK;
}
