/* raycast_stage.cuh - what the ray cast kernels share (raycast_cuda.cu, raycast_pairs_cuda.cu): the
 * prepared ray, the warp sum of the counters, and the staged record of a reference (its vertices minus
 * the eye, permuted for the tile's ray axes when all its rays share them, its triangle id and one
 * word of the kernel's own). */
#ifndef SC_RAYCAST_STAGE_CUH
#define SC_RAYCAST_STAGE_CUH

#include <stdint.h>

#include "intersect.h"
#include "sc_frame.h"

enum { RC_PERM_NONE = 0xFF }; /* perm code of a pixel outside the target */

/* A prepared ray without its origin (the eye): shear constants and axes kx | ky << 2 | kz << 4. */
typedef struct rc_ray {
    float sx, sy, sz;
    uint32_t perm;
} rc_ray;

/* The prepared ray of pixel (x, y) (sc_pixel_ray_dir, sc_ray_setup), as a kernel keeps it. */
__device__ static inline rc_ray rc_prepare_ray(const sc_frame_params &p, uint32_t x, uint32_t y)
{
    float dir[3];
    sc_ray ray;
    sc_pixel_ray_dir(&p, x, y, dir);
    sc_ray_setup(&ray, p.eye, dir);
    rc_ray r;
    r.sx = ray.sx;
    r.sy = ray.sy;
    r.sz = ray.sz;
    r.perm = (uint32_t)ray.kx | (uint32_t)ray.ky << 2 | (uint32_t)ray.kz << 4;
    return r;
}

__device__ static inline float rc_pick(uint32_t k, float v0, float v1, float v2)
{
    return k == 0 ? v0 : (k == 1 ? v1 : v2);
}

/* Sum of v over the `lanes` first lanes of the warp (lanes 1..32), valid in lane 0. */
__device__ static inline unsigned long long warp_sum_u64(unsigned long long v, uint32_t lanes)
{
    const unsigned mask = lanes >= 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1u);
    const uint32_t lane = threadIdx.x & 31;
    for (uint32_t o = 16; o > 0; o >>= 1) {
        unsigned long long w = __shfl_down_sync(mask, v, o);
        if (lane + o < lanes) v += w;
    }
    return v;
}

/* Record rec (12 words) of triangle tri with vertices minus the eye a, b, c: UNIFORM permuted to axes
 * (kx, ky, kz), else in world axes; word 10 is `extra` (the kernel's own), word 11 unused. */
__device__ static __forceinline__ void rc_stage_record(float4 *rec, bool uniform, uint32_t kx, uint32_t ky,
                                                       uint32_t kz, const float *a, const float *b, const float *c,
                                                       uint32_t tri, float extra)
{
    if (uniform) {
        rec[0] = make_float4(rc_pick(kx, a[0], a[1], a[2]), rc_pick(ky, a[0], a[1], a[2]),
                             rc_pick(kz, a[0], a[1], a[2]), rc_pick(kx, b[0], b[1], b[2]));
        rec[1] = make_float4(rc_pick(ky, b[0], b[1], b[2]), rc_pick(kz, b[0], b[1], b[2]),
                             rc_pick(kx, c[0], c[1], c[2]), rc_pick(ky, c[0], c[1], c[2]));
        rec[2] = make_float4(rc_pick(kz, c[0], c[1], c[2]), __uint_as_float(tri), extra, 0.0f);
    } else {
        rec[0] = make_float4(a[0], a[1], a[2], b[0]);
        rec[1] = make_float4(b[1], b[2], c[0], c[1]);
        rec[2] = make_float4(c[2], __uint_as_float(tri), extra, 0.0f);
    }
}

#endif /* SC_RAYCAST_STAGE_CUH */
