/* classify.h - per-triangle projection and classification, shared by the count and emit passes of
 * every backend (internal): finite check, back-face cull, near-plane clip, frustum cull, screen
 * bounds under the pixel-centre convention, tile span, tile overlap test, depth key.
 *
 * Binning is conservative: a pixel whose centre ray hits the triangle (near <= t <= far) lies in a
 * tile the triangle overlaps. The triangle is clipped against the near plane (w >= near) in view
 * space, the clipped polygon (3 or 4 vertices, all in front) is projected, and its bounds and edges
 * are widened by a margin (render_tuning.h) before tiles are tested against them. */
#ifndef SC_CLASSIFY_H
#define SC_CLASSIFY_H

#include <math.h>
#include <stdint.h>

#include "intersect.h"
#include "render_tuning.h"
#include "sc_frame.h"
#include "sc_hd.h"

typedef struct sc_tri_setup {
    float sx[4], sy[4];            /* clipped polygon in pixel coordinates (x right, y up) */
    uint32_t num_verts;            /* 3 or 4 */
    float orient;                  /* +1 / -1: winding in screen space; 0: edge-on, bounds only */
    float margin;                  /* pixels */
    uint32_t tx0, ty0, tx1, ty1;   /* tile span, inclusive */
    float depth_key;               /* nearest depth (clipped at near), lowered by the key margin */
} sc_tri_setup;

SC_HD static inline float sc_minf(float a, float b) { return a < b ? a : b; }
SC_HD static inline float sc_maxf(float a, float b) { return a > b ? a : b; }

SC_HD static inline float sc_dot3(const float *a, const float *b)
{
    return SC_FADD(SC_FADD(SC_FMUL(a[0], b[0]), SC_FMUL(a[1], b[1])), SC_FMUL(a[2], b[2]));
}

/* Full unrolling of the small fixed loops below, so that every polygon slot is indexed by a
 * compile-time constant and the polygon stays in registers on the GPU. */
#if defined(__CUDA_ARCH__)
#define SC_UNROLL _Pragma("unroll")
#else
#define SC_UNROLL
#endif

/* Appends (X, Y) to the polygon as slot *n (slots written by selects over the 4 constant slots, no
 * dynamic index) and widens the bounds. */
SC_HD static inline void sc_poly_push(float X, float Y, float *sx, float *sy, uint32_t *n, float *bx0, float *bx1,
                                      float *by0, float *by1, float *big)
{
    SC_UNROLL
    for (uint32_t k = 0; k < 4; ++k)
        if (*n == k) { sx[k] = X; sy[k] = Y; }
    *n += 1;
    *bx0 = sc_minf(*bx0, X); *bx1 = sc_maxf(*bx1, X);
    *by0 = sc_minf(*by0, Y); *by1 = sc_maxf(*by1, Y);
    *big = sc_maxf(*big, sc_maxf(sc_absf(X), sc_absf(Y)));
}

/* Classifies triangle (a, b, c) (world positions). Returns 1 when it may cover a pixel centre and
 * fills *s, 0 when culled (non-finite, back-facing with culling on, outside the frustum, covering
 * no pixel centre). */
SC_HD static inline int sc_tri_classify(const sc_frame_params *p, const float *a, const float *b,
                                        const float *c, sc_tri_setup *s)
{
    const float *v[3] = {a, b, c};
    SC_UNROLL
    for (int i = 0; i < 3; ++i)
        SC_UNROLL
        for (int k = 0; k < 3; ++k)
            if (!isfinite(v[i][k])) return 0;
    if (p->cull_back_faces && sc_tri_backfacing(p->eye, a, b, c)) return 0;

    /* View space: x, y and depth w. */
    float vx[3], vy[3], vw[3];
    float wmin = INFINITY;
    SC_UNROLL
    for (int i = 0; i < 3; ++i) {
        float d[3] = {SC_FSUB(v[i][0], p->eye[0]), SC_FSUB(v[i][1], p->eye[1]), SC_FSUB(v[i][2], p->eye[2])};
        vx[i] = sc_dot3(d, p->right);
        vy[i] = sc_dot3(d, p->up);
        vw[i] = sc_dot3(d, p->forward);
        wmin = sc_minf(wmin, vw[i]);
    }
    const float nearp = p->near_plane;
    if (!(vw[0] >= nearp || vw[1] >= nearp || vw[2] >= nearp)) return 0; /* wholly behind near */
    float key = SC_FMUL(sc_maxf(wmin, nearp), SC_FSUB(1.0f, SC_DEPTH_KEY_MARGIN));
    if (key > p->far_plane) return 0;
    s->depth_key = key;

    /* Clip against w >= near (Sutherland-Hodgman with one plane) and project. A triangle wholly in
     * front (the common case) is its 3 projected vertices, in the same order and arithmetic. */
    const float kx = SC_FMUL(SC_FMUL(0.5f, (float)p->width), p->proj_x);
    const float ky = SC_FMUL(SC_FMUL(0.5f, (float)p->height), p->proj_y);
    const float cx = SC_FMUL(0.5f, (float)p->width), cy = SC_FMUL(0.5f, (float)p->height);
    uint32_t n = 0;
    float bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY, big = 0.0f;
    if (vw[0] >= nearp && vw[1] >= nearp && vw[2] >= nearp) {
        SC_UNROLL
        for (int i = 0; i < 3; ++i) {
            float X = SC_FADD(cx, SC_FDIV(SC_FMUL(kx, vx[i]), vw[i]));
            float Y = SC_FADD(cy, SC_FDIV(SC_FMUL(ky, vy[i]), vw[i]));
            s->sx[i] = X; s->sy[i] = Y;
            bx0 = sc_minf(bx0, X); bx1 = sc_maxf(bx1, X);
            by0 = sc_minf(by0, Y); by1 = sc_maxf(by1, Y);
            big = sc_maxf(big, sc_maxf(sc_absf(X), sc_absf(Y)));
        }
        n = 3;
    } else {
        SC_UNROLL
        for (int i = 0; i < 3; ++i) {
            const int j = i == 2 ? 0 : i + 1;
            const int in_i = vw[i] >= nearp, in_j = vw[j] >= nearp;
            if (in_i) {
                float X = SC_FADD(cx, SC_FDIV(SC_FMUL(kx, vx[i]), vw[i]));
                float Y = SC_FADD(cy, SC_FDIV(SC_FMUL(ky, vy[i]), vw[i]));
                sc_poly_push(X, Y, s->sx, s->sy, &n, &bx0, &bx1, &by0, &by1, &big);
            }
            if (in_i != in_j) {
                float f = SC_FDIV(SC_FSUB(nearp, vw[i]), SC_FSUB(vw[j], vw[i]));
                float px = SC_FADD(vx[i], SC_FMUL(f, SC_FSUB(vx[j], vx[i])));
                float py = SC_FADD(vy[i], SC_FMUL(f, SC_FSUB(vy[j], vy[i])));
                float X = SC_FADD(cx, SC_FDIV(SC_FMUL(kx, px), nearp));
                float Y = SC_FADD(cy, SC_FDIV(SC_FMUL(ky, py), nearp));
                sc_poly_push(X, Y, s->sx, s->sy, &n, &bx0, &bx1, &by0, &by1, &big);
            }
        }
    }
    if (n == 3) { s->sx[3] = s->sx[0]; s->sy[3] = s->sy[0]; } /* slot 3 defined for every polygon */
    s->num_verts = n;
    if (!isfinite(big)) return 0;
    float margin = SC_FADD(SC_BIN_MARGIN_PX, SC_FMUL(SC_BIN_MARGIN_REL, big));
    s->margin = margin;

    /* Pixel centres x + 0.5 inside [bx0 - margin, bx1 + margin]: first = ceil(lo - 0.5),
     * last = floor(hi - 0.5), clamped to the target (in float first: bounds may be huge). */
    float fx0 = ceilf(sc_maxf(SC_FSUB(SC_FSUB(bx0, margin), 0.5f), -1.0f));
    float fx1 = floorf(sc_minf(SC_FSUB(SC_FADD(bx1, margin), 0.5f), (float)p->width));
    float fy0 = ceilf(sc_maxf(SC_FSUB(SC_FSUB(by0, margin), 0.5f), -1.0f));
    float fy1 = floorf(sc_minf(SC_FSUB(SC_FADD(by1, margin), 0.5f), (float)p->height));
    fx0 = sc_maxf(fx0, 0.0f); fy0 = sc_maxf(fy0, 0.0f);
    fx1 = sc_minf(fx1, (float)(p->width - 1)); fy1 = sc_minf(fy1, (float)(p->height - 1));
    if (fx0 > fx1 || fy0 > fy1) return 0;
    s->tx0 = (uint32_t)fx0 / p->tile_size;
    s->tx1 = (uint32_t)fx1 / p->tile_size;
    s->ty0 = (uint32_t)fy0 / p->tile_size;
    s->ty1 = (uint32_t)fy1 / p->tile_size;

    /* Winding in screen space; edge-on polygons are binned by their bounds only. */
    float area2 = 0.0f;
    SC_UNROLL
    for (uint32_t i = 0; i < 4; ++i) {
        if (i >= n) break;
        const uint32_t j = i + 1 == n ? 0 : i + 1;
        const float xj = j == 0 ? s->sx[0] : s->sx[(i + 1) & 3u], yj = j == 0 ? s->sy[0] : s->sy[(i + 1) & 3u];
        area2 = SC_FADD(area2, SC_FDIFF_PROD(s->sx[i], yj, xj, s->sy[i]));
    }
    float scale = sc_maxf(SC_FSUB(bx1, bx0), SC_FSUB(by1, by0));
    s->orient = (area2 > SC_FMUL(SC_FMUL(1.0e-3f, scale), margin)) ? 1.0f
              : (area2 < -SC_FMUL(SC_FMUL(1.0e-3f, scale), margin)) ? -1.0f : 0.0f;
    return 1;
}

/* Nonzero when the polygon, widened by the margin, may contain a pixel centre of tile (tx, ty):
 * no edge has the tile's rectangle of pixel centres wholly on its outer side. */
SC_HD static inline int sc_tri_overlaps_tile(const sc_frame_params *p, const sc_tri_setup *s, uint32_t tx, uint32_t ty)
{
    if (s->orient == 0.0f) return 1;
    float x0 = SC_FADD((float)(tx * p->tile_size), 0.5f);
    float y0 = SC_FADD((float)(ty * p->tile_size), 0.5f);
    uint32_t xe = (tx + 1) * p->tile_size, ye = (ty + 1) * p->tile_size;
    float x1 = SC_FSUB((float)(xe < p->width ? xe : p->width), 0.5f);
    float y1 = SC_FSUB((float)(ye < p->height ? ye : p->height), 0.5f);
    const uint32_t n = s->num_verts;
    int inside = 1;
    SC_UNROLL
    for (uint32_t i = 0; i < 4; ++i) {
        if (i >= n) break;
        const uint32_t j = i + 1 == n ? 0 : i + 1;
        const float xj = j == 0 ? s->sx[0] : s->sx[(i + 1) & 3u], yj = j == 0 ? s->sy[0] : s->sy[(i + 1) & 3u];
        float ex = SC_FMUL(s->orient, SC_FSUB(xj, s->sx[i]));
        float ey = SC_FMUL(s->orient, SC_FSUB(yj, s->sy[i]));
        /* Inside is where ex * (y - sy_i) - ey * (x - sx_i) >= 0; take the rectangle's corner that
         * maximises it. */
        float x = ey > 0.0f ? x0 : x1;
        float y = ex > 0.0f ? y1 : y0;
        float e = SC_FDIFF_PROD(ex, SC_FSUB(y, s->sy[i]), ey, SC_FSUB(x, s->sx[i]));
        float len = sqrtf(SC_FADD(SC_FMUL(ex, ex), SC_FMUL(ey, ey)));
        if (e < -SC_FMUL(s->margin, len)) inside = 0;
    }
    return inside;
}

/* Tiles the triangle overlaps (the count pass; emit visits the same tiles in the same order:
 * rows ty0..ty1, columns tx0..tx1). */
SC_HD static inline uint32_t sc_tri_tile_count(const sc_frame_params *p, const sc_tri_setup *s)
{
    if (s->orient == 0.0f) return (s->tx1 - s->tx0 + 1) * (s->ty1 - s->ty0 + 1);
    uint32_t count = 0;
    for (uint32_t ty = s->ty0; ty <= s->ty1; ++ty)
        for (uint32_t tx = s->tx0; tx <= s->tx1; ++tx)
            count += (uint32_t)sc_tri_overlaps_tile(p, s, tx, ty);
    return count;
}

#endif /* SC_CLASSIFY_H */
