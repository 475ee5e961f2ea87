/* sc_frame.h - the frame layout shared by every backend (internal): target and grid sizes, camera,
 * slab range, and the small functions that define the grid (tile of a pixel, slab bounds, slab of
 * a depth, the ray of a pixel). One plain struct, passed by value to kernels on the GPU. */
#ifndef SC_FRAME_H
#define SC_FRAME_H

#include <math.h>
#include <stdint.h>

#include "sc_hd.h"

typedef struct sc_frame_params {
    /* Target and grid. */
    uint32_t width, height;        /* pixels */
    uint32_t tile_size;            /* pixels per tile edge */
    uint32_t tiles_x, tiles_y;     /* ceil(width / tile_size), ceil(height / tile_size) */
    uint32_t num_tiles;            /* tiles_x * tiles_y; tile id = ty * tiles_x + tx */
    uint32_t tile_bits;            /* bits of a tile id: 2^tile_bits >= num_tiles */
    uint32_t num_slabs;            /* S */
    uint32_t slab_bits;            /* 2^slab_bits >= S: the slab stride of cell offsets */
    /* Reference key = tile | slab << tile_bits. Cell (tile, slab) is entry
     * tile << slab_bits | slab of the cell offsets (num_tiles << slab_bits) + 1 entries. */
    uint32_t cull_back_faces;      /* 0 / 1 */
    uint32_t flat_shading;         /* 0 / 1 */
    uint32_t num_vertices, num_triangles;

    /* Camera: orthonormal basis from the look-at matrix; a point p has view coordinates
     * (dot(p - eye, right), dot(p - eye, up)) and view depth dot(p - eye, forward). */
    float eye[3], right[3], up[3], forward[3];
    float proj_x, proj_y;          /* perspective scale factors: cot(fovy/2) / aspect, cot(fovy/2) */
    float near_plane, far_plane;

    /* This frame's slab range: min / max depth key of the visible triangles. */
    float depth_min, depth_max;
} sc_frame_params;

/* Near bound of slab k (0 <= k <= S): bound 0 is depth_min, bound S is +inf. */
SC_HD static inline float sc_slab_bound(const sc_frame_params *p, uint32_t k)
{
    if (k == 0) return p->depth_min;
    if (k >= p->num_slabs) return INFINITY;
    float span = SC_FSUB(p->depth_max, p->depth_min);
    return SC_FADD(p->depth_min, SC_FMUL(span, SC_FDIV((float)k, (float)p->num_slabs)));
}

/* The slab of a depth key: the largest k with sc_slab_bound(k) <= z (0 for z below the range).
 * Exact with respect to sc_slab_bound, so a triangle of slab k+1 always has key >= bound k+1. */
SC_HD static inline uint32_t sc_slab_of(const sc_frame_params *p, float z)
{
    uint32_t s = p->num_slabs;
    float span = SC_FSUB(p->depth_max, p->depth_min);
    uint32_t k = 0;
    if (span > 0.0f && z > p->depth_min) {
        float f = SC_FMUL(SC_FDIV(SC_FSUB(z, p->depth_min), span), (float)s);
        k = f >= (float)(s - 1) ? s - 1 : (uint32_t)f;
    }
    while (k > 0 && z < sc_slab_bound(p, k)) --k;
    while (k + 1 < s && z >= sc_slab_bound(p, k + 1)) ++k;
    return k;
}

SC_HD static inline uint32_t sc_ceil_log2(uint32_t n)
{
    uint32_t b = 0;
    while (b < 32 && (1ull << b) < n) ++b;
    return b;
}

/* The ray of pixel (x, y) (row 0 at the bottom) through its centre: origin eye, direction
 * forward + ndc_x / proj_x * right + ndc_y / proj_y * up, so the ray parameter is the view depth. */
SC_HD static inline void sc_pixel_ray_dir(const sc_frame_params *p, uint32_t x, uint32_t y, float dir[3])
{
    float nx = SC_FSUB(SC_FDIV(SC_FMUL(2.0f, SC_FADD((float)x, 0.5f)), (float)p->width), 1.0f);
    float ny = SC_FSUB(SC_FDIV(SC_FMUL(2.0f, SC_FADD((float)y, 0.5f)), (float)p->height), 1.0f);
    float a = SC_FDIV(nx, p->proj_x), b = SC_FDIV(ny, p->proj_y);
    for (int i = 0; i < 3; ++i)
        dir[i] = SC_FADD(SC_FADD(p->forward[i], SC_FMUL(a, p->right[i])), SC_FMUL(b, p->up[i]));
}

#endif /* SC_FRAME_H */
