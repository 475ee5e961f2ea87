/* shade.h - the colour of a pixel, shared by the CPU and CUDA backends (internal): the shading
 * inputs the front end resolves once (sc_shade_params), the frame's buffers shading reads
 * (sc_shade_buffers), and sc_shade_pixel, the one per-pixel function both backends call: Lambert +
 * ambient with one directional light (two-sided: the normal is turned towards the viewer), smooth
 * (interpolated vertex normals, each computed from its vertex's one-ring, sc_vertex_normal: only the
 * hit pixels need normals, so no frame computes them for every vertex; sc_shade_pixel_vn takes them
 * from a caller that computed them) or flat, over a vertical background gradient; or one of the
 * visualisation modes (sc_view_mode). Colours are floats in [0, 1]; sc_pack_rgba8 rounds them into a
 * pixel. The arithmetic is plain float operations (the CUDA backend is compiled without FMA
 * contraction), so both backends give the same pixels for the same hits.
 * Every function here is defined for every float input (NaN and infinities included): values are
 * clamped into range before any float-to-integer conversion, which is undefined behaviour out of
 * range in C and gives arbitrary values on a GPU. */
#ifndef SC_SHADE_H
#define SC_SHADE_H

#include <math.h>
#include <stdint.h>

#include "sc_frame.h"
#include "sc_hd.h"
#include "shadow.h"
#include "slabcast.h"
#include "vertex_normal.h"

/* Shading inputs, resolved once by the front end from sc_shading_desc (defaults filled). */
typedef struct sc_shade_params {
    int mode;                      /* sc_view_mode */
    float light[3];                /* unit vector towards the light */
    float ambient;                 /* >= 0 */
    float albedo[3];
    float bg_bottom[3], bg_top[3]; /* background gradient, bottom and top row */
    float heat_max_tile;           /* references per tile shown hottest */
    float heat_max_tests;          /* ray-triangle tests per pixel shown hottest (shadow tests too) */
    uint32_t num_lights;           /* 0: the one directional light above, no shadows */
    uint32_t shadow_lights;        /* lights with lights[i].shadows set */
    sc_light_params lights[SC_MAX_LIGHTS];
    float center[3];               /* the rest mesh's centre: origin of directional light coordinates */
} sc_shade_params;

/* The frame's buffers shading reads (the backend's memory); each is read only by the modes that
 * need it. */
typedef struct sc_shade_buffers {
    const sc_hit *hits;            /* per pixel */
    const uint32_t *tests;         /* per pixel: ray-triangle tests (SC_VIEW_TESTS_HEAT) */
    const uint32_t *tile_offsets;  /* per tile + 1: first reference (SC_VIEW_TILE_HEAT) */
    const float *tri_keys;         /* per triangle: depth key (SC_VIEW_SLAB) */
    /* The mesh with this frame's positions and its one-rings (the smooth normals' inputs). */
    const uint32_t *indices;
    const float *positions;
    const uint32_t *adj_offsets;   /* per vertex + 1 (sc_mesh_rings) */
    const uint32_t *adj_tris;      /* 3 x triangles: per vertex its triangles in triangle order */
    const uint8_t *shadow_mask;    /* per pixel: bit i set when in shadow for light i (NULL: none) */
    const uint32_t *shadow_tests;  /* per pixel: shadow-ray tests (SC_VIEW_SHADOW_TESTS) */
} sc_shade_buffers;

/* v clamped to [0, 1]; NaN gives 0. */
SC_HD static inline float sc_clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

SC_HD static inline uint32_t sc_pack_rgba8(float r, float g, float b)
{
    uint32_t R = (uint32_t)(sc_clamp01(r) * 255.0f + 0.5f);
    uint32_t G = (uint32_t)(sc_clamp01(g) * 255.0f + 0.5f);
    uint32_t B = (uint32_t)(sc_clamp01(b) * 255.0f + 0.5f);
    return R | G << 8 | B << 16 | 0xFFu << 24; /* bytes R, G, B, A in memory (little-endian) */
}

/* Heat colour map: black, blue, magenta, orange, yellow, white over v in [0, 1]. */
SC_HD static inline void sc_heat(float v, float rgb[3])
{
    v = sc_clamp01(v);
    const float stops[6][3] = {{0.0f, 0.0f, 0.0f}, {0.1f, 0.15f, 0.75f}, {0.75f, 0.1f, 0.6f},
                               {1.0f, 0.5f, 0.05f}, {1.0f, 0.95f, 0.2f}, {1.0f, 1.0f, 1.0f}};
    float f = v * 5.0f; /* in [0, 5]: the cast below is defined */
    int i = (int)f;
    if (i > 4) i = 4;
    float t = f - (float)i;
    for (int k = 0; k < 3; ++k) rgb[k] = stops[i][k] + (stops[i + 1][k] - stops[i][k]) * t;
}

/* log2(1 + count) / log2(1 + max), in [0, 1]. A max so small that log2(1 + max) rounds to 0 (or
 * one that is not a positive number) shows every nonzero count hottest and 0 coldest. */
SC_HD static inline float sc_log_scale(float count, float max)
{
    float den = log2f(1.0f + max);
    if (!(den > 0.0f)) return count > 0.0f ? 1.0f : 0.0f;
    return sc_clamp01(log2f(1.0f + count) / den);
}

/* A saturated colour per index (hue from a hash), for triangle ids. */
SC_HD static inline void sc_id_colour(uint32_t id, float rgb[3])
{
    uint32_t h = id * 0x9E3779B1u;
    h ^= h >> 15; h *= 0x85EBCA77u; h ^= h >> 13;
    rgb[0] = 0.25f + 0.75f * (float)(h & 0xFF) / 255.0f;
    rgb[1] = 0.25f + 0.75f * (float)((h >> 8) & 0xFF) / 255.0f;
    rgb[2] = 0.25f + 0.75f * (float)((h >> 16) & 0xFF) / 255.0f;
}

/* Hue wheel position v in [0, 1) as a colour, for slab indices (a non-finite v is taken as 0). */
SC_HD static inline void sc_hue(float v, float rgb[3])
{
    if (!isfinite(v)) v = 0.0f;
    float h = sc_clamp01(v - floorf(v)) * 6.0f; /* in [0, 6]: the cast below is defined */
    int i = (int)h;
    float f = h - (float)i;
    float q = 1.0f - f;
    switch (i) {
    case 0: rgb[0] = 1; rgb[1] = f; rgb[2] = 0; break;
    case 1: rgb[0] = q; rgb[1] = 1; rgb[2] = 0; break;
    case 2: rgb[0] = 0; rgb[1] = 1; rgb[2] = f; break;
    case 3: rgb[0] = 0; rgb[1] = q; rgb[2] = 1; break;
    case 4: rgb[0] = f; rgb[1] = 0; rgb[2] = 1; break;
    default: rgb[0] = 1; rgb[1] = 0; rgb[2] = q; break;
    }
}

SC_HD static inline void sc_normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f) { v[0] /= l; v[1] /= l; v[2] /= l; }
}

/* Whether the hit pixels of a frame in mode s->mode interpolate vertex normals (smooth shading in
 * the modes that shade with a normal). */
SC_HD static inline int sc_shade_uses_vertex_normals(const sc_shade_params *s, const sc_frame_params *p)
{
    return !p->flat_shading && (s->mode == SC_VIEW_SHADED || s->mode == SC_VIEW_NORMALS);
}

/* The shading normal of hit h (a hit) seen along dir: the face normal (flat shading) or the
 * interpolated vertex normals, unit, turned towards the viewer. The vertex normals of the hit
 * triangle's corners f[0], f[1], f[2] are vn[0..2] when the caller has them (sc_vertex_normal of
 * each: the CUDA backend computes a block's distinct vertices once), else (vn NULL) computed here,
 * each from its vertex's one-ring (sc_vertex_normal): the same bits a per-vertex pass over the frame
 * would give, for the three vertices of the hit triangle only. */
SC_HD static inline void sc_shade_normal(const sc_frame_params *p, const sc_shade_buffers *b, const sc_hit *h,
                                         const float dir[3], const float (*vn)[3], float n[3])
{
    const uint32_t *f = b->indices + 3 * (size_t)h->tri;
    if (p->flat_shading) {
        sc_face_normal(b->positions, f, n);
    } else {
        float c[3][3];
        if (!vn) {
            const sc_mesh_rings m = {b->adj_offsets, b->adj_tris, b->indices, b->positions};
            for (int k = 0; k < 3; ++k) sc_vertex_normal(&m, f[k], c[k]);
            vn = (const float (*)[3])c;
        }
        float w0 = 1.0f - h->u - h->v;
        for (int k = 0; k < 3; ++k) n[k] = w0 * vn[0][k] + h->u * vn[1][k] + h->v * vn[2][k];
    }
    sc_normalize3(n);
    if (n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] > 0.0f) {
        n[0] = -n[0]; n[1] = -n[1]; n[2] = -n[2];
    }
}

/* The packed RGBA8 colour of pixel (x, y) (row 0 at the bottom) with hit h (h.tri indexes b's
 * mesh) of a frame whose layout p carries this frame's depth range; id: the triangle's id in the
 * image (the triangle-id view's colour): h.tri for a renderer's own hits, the whole mesh's id when
 * b's mesh is a share of it; vn: the hit triangle's vertex normals when the caller computed them, or
 * NULL (sc_shade_normal). b->hits is not read. */
SC_HD static inline uint32_t sc_shade_hit_vn(const sc_shade_params *s, const sc_frame_params *p,
                                             const sc_shade_buffers *b, uint32_t x, uint32_t y, sc_hit h,
                                             uint32_t id, const float (*vn)[3])
{
    const size_t px = (size_t)y * p->width + x;
    float gy = ((float)y + 0.5f) / (float)p->height;
    float rgb[3];
    for (int k = 0; k < 3; ++k) rgb[k] = s->bg_bottom[k] + (s->bg_top[k] - s->bg_bottom[k]) * gy;
    switch (s->mode) {
    case SC_VIEW_TILE_HEAT: {
        uint32_t tile = (y / p->tile_size) * p->tiles_x + x / p->tile_size;
        float count = (float)(b->tile_offsets[tile + 1] - b->tile_offsets[tile]);
        sc_heat(sc_log_scale(count, s->heat_max_tile), rgb);
        break;
    }
    case SC_VIEW_TESTS_HEAT:
        sc_heat(sc_log_scale((float)b->tests[px], s->heat_max_tests), rgb);
        break;
    case SC_VIEW_SHADOW_TESTS:
        sc_heat(sc_log_scale(b->shadow_tests ? (float)b->shadow_tests[px] : 0.0f, s->heat_max_tests), rgb);
        break;
    default:
        if (h.tri == SC_NO_HIT) break;
        if (s->mode == SC_VIEW_TRIANGLE_ID) {
            sc_id_colour(id, rgb);
        } else if (s->mode == SC_VIEW_DEPTH) {
            float span = p->depth_max - p->depth_min;
            float v = span > 0.0f ? (h.depth - p->depth_min) / span : 0.0f;
            rgb[0] = rgb[1] = rgb[2] = 1.0f - sc_clamp01(v);
        } else if (s->mode == SC_VIEW_SHADOW) {
            /* Dark where every light is blocked; each light that reaches the pixel adds its colour of
             * the palette (light 0 warm white, 1 sky blue, 2 pink, 3 green), divided among the lights. */
            const float base[3] = {0.10f, 0.11f, 0.16f};
            const float palette[SC_MAX_LIGHTS][3] = {
                {1.0f, 0.92f, 0.70f}, {0.45f, 0.80f, 1.0f}, {1.0f, 0.50f, 0.80f}, {0.60f, 1.0f, 0.55f}};
            const uint32_t mask = b->shadow_mask ? b->shadow_mask[px] : 0u;
            const uint32_t nl = s->num_lights ? s->num_lights : 1u;
            for (int k = 0; k < 3; ++k) rgb[k] = base[k];
            for (uint32_t i = 0; i < nl; ++i)
                if (!(mask >> i & 1u))
                    for (int k = 0; k < 3; ++k) rgb[k] += 0.85f * palette[i][k] / (float)nl;
        } else if (s->mode == SC_VIEW_SLAB) {
            sc_hue((float)sc_slab_of(p, b->tri_keys[h.tri]) / (float)p->num_slabs, rgb);
        } else {
            float dir[3], n[3];
            sc_pixel_ray_dir(p, x, y, dir);
            sc_shade_normal(p, b, &h, dir, vn, n);
            if (s->mode == SC_VIEW_NORMALS) {
                for (int k = 0; k < 3; ++k) rgb[k] = 0.5f * (n[k] + 1.0f);
            } else if (s->num_lights == 0) {
                float lambert = n[0] * s->light[0] + n[1] * s->light[1] + n[2] * s->light[2];
                float l = s->ambient + (1.0f - s->ambient) * (lambert > 0.0f ? lambert : 0.0f);
                for (int k = 0; k < 3; ++k) rgb[k] = s->albedo[k] * l;
            } else {
                const uint32_t mask = b->shadow_mask ? b->shadow_mask[px] : 0u;
                float sum[3] = {0.0f, 0.0f, 0.0f};
                for (uint32_t i = 0; i < s->num_lights; ++i) {
                    if (mask >> i & 1u) continue;
                    const sc_light_params *L = &s->lights[i];
                    float l[3];
                    if (L->type == SC_LIGHT_POINT) {
                        for (int k = 0; k < 3; ++k) l[k] = L->pos[k] - (p->eye[k] + h.depth * dir[k]);
                        sc_normalize3(l);
                    } else {
                        for (int k = 0; k < 3; ++k) l[k] = L->to_light[k];
                    }
                    float lambert = n[0] * l[0] + n[1] * l[1] + n[2] * l[2];
                    if (lambert > 0.0f)
                        for (int k = 0; k < 3; ++k) sum[k] += L->color[k] * lambert;
                }
                for (int k = 0; k < 3; ++k) rgb[k] = s->albedo[k] * (s->ambient + (1.0f - s->ambient) * sum[k]);
            }
        }
        break;
    }
    return sc_pack_rgba8(rgb[0], rgb[1], rgb[2]);
}

/* The packed RGBA8 colour of pixel (x, y) of a frame, its hit read from b->hits (sc_shade_hit_vn). */
SC_HD static inline uint32_t sc_shade_pixel_vn(const sc_shade_params *s, const sc_frame_params *p,
                                               const sc_shade_buffers *b, uint32_t x, uint32_t y,
                                               const float (*vn)[3])
{
    const sc_hit h = b->hits[(size_t)y * p->width + x];
    return sc_shade_hit_vn(s, p, b, x, y, h, h.tri, vn);
}

/* The same, every vertex normal computed here. */
SC_HD static inline uint32_t sc_shade_pixel(const sc_shade_params *s, const sc_frame_params *p,
                                            const sc_shade_buffers *b, uint32_t x, uint32_t y)
{
    return sc_shade_pixel_vn(s, p, b, x, y, NULL);
}

#endif /* SC_SHADE_H */
