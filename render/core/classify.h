/* classify.h - per-triangle projection and classification, shared by the count and emit passes of
 * every backend (internal): finite check, back-face cull, near-plane clip, frustum cull, screen
 * bounds under the pixel-centre convention, tile span, tile overlap test, depth key.
 *
 * Binning is conservative: a pixel whose centre ray hits the triangle (intersect.h, the ray of
 * sc_pixel_ray_dir, near <= t <= far) lies in a tile the triangle is binned to. Why, with u = 2^-24
 * the unit roundoff of float and every operation rounded once (SC_F* macros, no fused operations):
 *
 * 1. The polygon. The triangle is clipped against w >= near_c in view space, near_c a little below
 *    the near plane (SC_BIN_MARGIN_NEAR of the triangle's view extent: covers the rounding of the
 *    view depths and of the ray test's t, so a ray hitting at t >= near never lies beyond the cut),
 *    and the 3 or 4 vertices are projected to pixel coordinates. Every point of the exact polygon is
 *    a convex combination of its vertices, so it lies within the largest vertex error of the convex
 *    hull of the computed float vertices.
 * 2. The margin (sc_bin_margin) bounds, in pixels, the vertex errors of 1 and how far a pixel ray of
 *    sc_frame.h, as rounded, can stray from the exact pixel centre: the ray's direction, shear and
 *    edge functions, and the view-space dot products and the projection c + (k v) (1 / w) (a
 *    reciprocal and two products: one rounding more than a division, at most u (big + k + S^2 / k)
 *    in pixels, as |c| <= S / 2 <= k + S^2 / k), each a few roundings relative to a view-space
 *    length. In pixels those are at most about 51 u times
 *    big + k + S^2 / k, where big is the largest absolute pixel coordinate of the polygon, k the
 *    projection's focal length in pixels and S the larger side of the target (S^2 / k: rays at the
 *    edge of a wide field of view). For a clipped polygon, big also counts k times the triangle's
 *    view extent over near_c: the clip points' own rounding. SC_BIN_MARGIN_REL (about 67 u) covers
 *    that; SC_BIN_MARGIN_PX is headroom. So a hit pixel centre lies within the margin of the hull.
 * 3. Bounds. The tile span covers the polygon's bounds widened by the margin (the rounding of the
 *    bounds arithmetic is a few u of big, inside the margin), so it covers every hit pixel.
 * 4. Winding. Edge tests need the polygon's true orientation. It is computed from coordinates
 *    relative to vertex 0 (so the size of the products is the polygon's, not the distance from
 *    pixel (0, 0)), and its rounding error is at most 5 u times the sum of the products' magnitudes
 *    (each product of differences carries 3 roundings, the sums 2 more); only a value beyond 8 u
 *    times that sum decides. Within it, or for a clipped quad whose corners do not all turn that way
 *    beyond their own bounds (not provably convex), the polygon is binned by its bounds only.
 * 5. Edge tests. A tile is rejected only when a corner of its pixel-centre rectangle lies more than
 *    the margin outside an edge's line. The edge vector is a float difference (its direction off by
 *    at most ~u) and the corner is measured from the edge's first vertex: the error in the distance
 *    is at most about 5 u times |corner - vertex|, which is at most big + S plus a tile, well inside
 *    the margin. With the orientation right, the lines widened by the margin contain the hull
 *    widened by the margin, hence every hit pixel centre of 2.
 *
 * The depth key is the nearest vertex depth (at least near) lowered by SC_DEPTH_KEY_MARGIN: a hit's
 * t is a convex combination of the vertices' depths along the ray, rounded a few times. */
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
    float orient;                  /* +1 / -1: winding in screen space; 0: not provable, bounds only */
    float margin;                  /* pixels */
    uint32_t tx0, ty0, tx1, ty1;   /* tile span, inclusive */
    uint32_t px0, py0, px1, py1;   /* the pixels whose centres it may cover, inclusive (the tile span's
                                      source; every ray that hits it passes through one of them) */
    float depth_key;               /* nearest depth (clipped at near), lowered by the key margin */
} sc_tri_setup;

/* 8 u: a winding or turn decides only beyond this times the sum of its products' magnitudes (its
 * rounding error is at most 5 u times that sum, see the header). */
#define SC_CLASSIFY_TURN_REL 4.76837158203125e-07f
/* Added to those bounds: products in the subnormal range round by an absolute amount. */
#define SC_CLASSIFY_TURN_ABS 7.88860905221012e-31f

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

/* The projection's focal length in pixels: the larger of kx and ky (equal up to rounding). */
SC_HD static inline float sc_focal_px(const sc_frame_params *p)
{
    return sc_maxf(SC_FMUL(SC_FMUL(0.5f, (float)p->width), p->proj_x),
                   SC_FMUL(SC_FMUL(0.5f, (float)p->height), p->proj_y));
}

/* The binning margin in pixels of a polygon whose largest absolute pixel coordinate (or clip
 * measure, see sc_tri_classify) is big: SC_BIN_MARGIN_PX + SC_BIN_MARGIN_REL * (big + k + S^2 / k),
 * k the focal length in pixels, S the larger side of the target (see the header). */
SC_HD static inline float sc_bin_margin(const sc_frame_params *p, float big)
{
    const float k = sc_focal_px(p);
    const float s = (float)(p->width > p->height ? p->width : p->height);
    const float view = SC_FADD(k, SC_FDIV(SC_FMUL(s, s), k));
    return SC_FADD(SC_BIN_MARGIN_PX, SC_FMUL(SC_BIN_MARGIN_REL, SC_FADD(big, view)));
}

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

/* The sign of the cross product (x1, y1) x (x2, y2) of two float differences when it is provably
 * that sign (see the header), else 0. */
SC_HD static inline float sc_cross_sign(float x1, float y1, float x2, float y2)
{
    const float a = SC_FMUL(x1, y2), b = SC_FMUL(y1, x2);
    const float c = SC_FSUB(a, b);
    const float bound = SC_FADD(SC_FMUL(SC_CLASSIFY_TURN_REL, SC_FADD(sc_absf(a), sc_absf(b))), SC_CLASSIFY_TURN_ABS);
    return c > bound ? 1.0f : c < -bound ? -1.0f : 0.0f;
}

/* Winding of the triangle in slots 0..2: +1 counter-clockwise, -1 clockwise, 0 when too thin to
 * tell. Relative to vertex 0, so the products are as small as the triangle. */
SC_HD static inline float sc_tri_orient(const float *sx, const float *sy)
{
    return sc_cross_sign(SC_FSUB(sx[1], sx[0]), SC_FSUB(sy[1], sy[0]), SC_FSUB(sx[2], sx[0]), SC_FSUB(sy[2], sy[0]));
}

/* Winding of the clipped quad in slots 0..3, 0 unless it is provably convex with that winding:
 * the fan area from vertex 0 decides the sign, and no corner may turn the other way beyond its
 * bound (a corner within its bound is straight to a few u, which the margin covers). */
SC_HD static inline float sc_quad_orient(const float *sx, const float *sy)
{
    const float e1x = SC_FSUB(sx[1], sx[0]), e1y = SC_FSUB(sy[1], sy[0]);
    const float e2x = SC_FSUB(sx[2], sx[0]), e2y = SC_FSUB(sy[2], sy[0]);
    const float e3x = SC_FSUB(sx[3], sx[0]), e3y = SC_FSUB(sy[3], sy[0]);
    const float a1 = SC_FMUL(e1x, e2y), b1 = SC_FMUL(e1y, e2x);
    const float a2 = SC_FMUL(e2x, e3y), b2 = SC_FMUL(e2y, e3x);
    const float area2 = SC_FADD(SC_FSUB(a1, b1), SC_FSUB(a2, b2));
    const float mag = SC_FADD(SC_FADD(sc_absf(a1), sc_absf(b1)), SC_FADD(sc_absf(a2), sc_absf(b2)));
    const float bound = SC_FADD(SC_FMUL(SC_CLASSIFY_TURN_REL, mag), SC_CLASSIFY_TURN_ABS);
    const float o = area2 > bound ? 1.0f : area2 < -bound ? -1.0f : 0.0f;
    float convex = 1.0f;
    SC_UNROLL
    for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t j = (i + 1) & 3u, k = (i + 2) & 3u;
        const float t = sc_cross_sign(SC_FSUB(sx[j], sx[i]), SC_FSUB(sy[j], sy[i]), SC_FSUB(sx[k], sx[j]),
                                      SC_FSUB(sy[k], sy[j]));
        if (t == -o) convex = 0.0f;
    }
    return SC_FMUL(o, convex);
}

/* View coordinates of d, a point minus the eye: x right, y up, depth w along forward. */
SC_HD static inline void sc_view_of(const sc_frame_params *p, const float *d, float *vx, float *vy, float *vw)
{
    *vx = sc_dot3(d, p->right);
    *vy = sc_dot3(d, p->up);
    *vw = sc_dot3(d, p->forward);
}

/* The clip plane of a triangle whose largest view coordinate is ext: near lowered by
 * SC_BIN_MARGIN_NEAR of the view extent, never below near / 2 (see the header). */
SC_HD static inline float sc_clip_near(const sc_frame_params *p, float ext)
{
    const float nearp = p->near_plane;
    return sc_maxf(SC_FSUB(nearp, SC_FMUL(SC_BIN_MARGIN_NEAR, SC_FADD(nearp, ext))), SC_FMUL(0.5f, nearp));
}

/* The projection to pixels: X = cx + kx * x / w, Y = cy + ky * y / w. */
typedef struct sc_pixel_proj {
    float kx, ky, cx, cy;
} sc_pixel_proj;

SC_HD static inline sc_pixel_proj sc_pixel_proj_of(const sc_frame_params *p)
{
    sc_pixel_proj q;
    q.kx = SC_FMUL(SC_FMUL(0.5f, (float)p->width), p->proj_x);
    q.ky = SC_FMUL(SC_FMUL(0.5f, (float)p->height), p->proj_y);
    q.cx = SC_FMUL(0.5f, (float)p->width);
    q.cy = SC_FMUL(0.5f, (float)p->height);
    return q;
}

/* Pixel coordinate of view coordinate v at depth w, given iw = SC_FRCP(w), the reciprocal both axes of
 * a vertex share (k, c: the axis's scale and centre): c + (k v) iw, each operation rounded once (one
 * rounding more than a division by w, in the header's budget; a GPU's correctly rounded division
 * costs about twice a correctly rounded reciprocal and a product). */
SC_HD static inline float sc_to_px(float k, float c, float v, float iw)
{
    return SC_FADD(c, SC_FMUL(SC_FMUL(k, v), iw));
}

/* The pixel centres x + 0.5 of one axis inside [b0 - margin, b1 + margin], as floats: first =
 * ceil(lo - 0.5) clamped below to -1, last = floor(hi - 0.5) clamped above to extent (in float:
 * bounds may be huge); the caller clamps them to the target. */
SC_HD static inline void sc_centre_span(float b0, float b1, float margin, uint32_t extent, float *f0, float *f1)
{
    *f0 = ceilf(sc_maxf(SC_FSUB(SC_FSUB(b0, margin), 0.5f), -1.0f));
    *f1 = floorf(sc_minf(SC_FSUB(SC_FADD(b1, margin), 0.5f), (float)extent));
}

/* Minimum, maximum and magnitude of finite floats, the fast path of sc_view_extent and sc_px_bounds3:
 * on the GPU fminf / fmaxf / fabsf (one FMNMX, the magnitude an operand modifier), on the host the
 * select forms. On finite operands the two differ only in the sign of a zero result (the select forms
 * keep -0 where fminf / fmaxf / fabsf may give +0), and no use of these results depends on that sign:
 * ext enters near + ext and a product added to the margin, wmin max(wmin, near), the bounds their
 * difference with the margin, big the sum big + view of sc_bin_margin (near, the margin and view are
 * positive). So both give the same clip plane, key, margin and pixel bounds. Non-finite operands take
 * the select forms, whose NaN order the classification's conservative bounds rely on. */
#if !defined(SC_FIN_MIN) /* a test may define them (test_classify_zero_sign) */
#if defined(__CUDA_ARCH__)
#define SC_FIN_MIN(a, b) fminf((a), (b))
#define SC_FIN_MAX(a, b) fmaxf((a), (b))
#define SC_FIN_ABS(a) fabsf(a)
#else
#define SC_FIN_MIN(a, b) sc_minf((a), (b))
#define SC_FIN_MAX(a, b) sc_maxf((a), (b))
#define SC_FIN_ABS(a) sc_absf(a)
#endif
#endif

/* Nonzero when all n values are finite: their sum is (a non-finite value makes it inf or NaN; a sum
 * that overflows only sends finite values down the select path, which gives the same results). */
SC_HD static inline int sc_all_finite(const float *v, int n)
{
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) sum = SC_FADD(sum, v[i]);
    return isfinite(sum);
}

/* The view extent of a triangle (ext: the largest magnitude of its view coordinates, the scale of their
 * rounding) and its nearest depth wmin. */
SC_HD static inline void sc_view_extent(const float *vx, const float *vy, const float *vw, float *ext_out,
                                        float *wmin_out)
{
    const float all[9] = {vx[0], vx[1], vx[2], vy[0], vy[1], vy[2], vw[0], vw[1], vw[2]};
    if (sc_all_finite(all, 9)) {
        float ext = 0.0f;
        SC_UNROLL
        for (int i = 0; i < 9; ++i) ext = SC_FIN_MAX(ext, SC_FIN_ABS(all[i]));
        *ext_out = ext;
        *wmin_out = SC_FIN_MIN(SC_FIN_MIN(vw[0], vw[1]), vw[2]);
        return;
    }
    float wmin = INFINITY, ext = 0.0f;
    SC_UNROLL
    for (int i = 0; i < 3; ++i) {
        wmin = sc_minf(wmin, vw[i]);
        ext = sc_maxf(ext, sc_maxf(sc_absf(vw[i]), sc_maxf(sc_absf(vx[i]), sc_absf(vy[i]))));
    }
    *ext_out = ext;
    *wmin_out = wmin;
}

/* Bounds of three projected vertices (X[i], Y[i]) and big, the largest magnitude among them. */
SC_HD static inline void sc_px_bounds3(const float *X, const float *Y, float *bx0, float *bx1, float *by0,
                                       float *by1, float *big)
{
    const float all[6] = {X[0], X[1], X[2], Y[0], Y[1], Y[2]};
    if (sc_all_finite(all, 6)) {
        *bx0 = SC_FIN_MIN(SC_FIN_MIN(X[0], X[1]), X[2]);
        *bx1 = SC_FIN_MAX(SC_FIN_MAX(X[0], X[1]), X[2]);
        *by0 = SC_FIN_MIN(SC_FIN_MIN(Y[0], Y[1]), Y[2]);
        *by1 = SC_FIN_MAX(SC_FIN_MAX(Y[0], Y[1]), Y[2]);
        float m = 0.0f;
        SC_UNROLL
        for (int i = 0; i < 6; ++i) m = SC_FIN_MAX(m, SC_FIN_ABS(all[i]));
        *big = m;
        return;
    }
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, m = 0.0f;
    SC_UNROLL
    for (int i = 0; i < 3; ++i) {
        x0 = sc_minf(x0, X[i]); x1 = sc_maxf(x1, X[i]);
        y0 = sc_minf(y0, Y[i]); y1 = sc_maxf(y1, Y[i]);
        m = sc_maxf(m, sc_maxf(sc_absf(X[i]), sc_absf(Y[i])));
    }
    *bx0 = x0; *bx1 = x1; *by0 = y0; *by1 = y1; *big = m;
}

/* The tiles of pixel columns or rows px0 <= px1 (tile size ts): the quotients by a shift when ts is a
 * power of two (the default 8, and 16), else by division; the same quotients either way (a GPU's
 * integer division is a few dozen instructions, the classification's largest single cost). */
SC_HD static inline void sc_tile_span(uint32_t ts, uint32_t px0, uint32_t px1, uint32_t *t0, uint32_t *t1)
{
    if ((ts & (ts - 1u)) == 0u) {
#if defined(__CUDA_ARCH__)
        const uint32_t sh = (uint32_t)__ffs((int)ts) - 1u;
#elif defined(__GNUC__)
        const uint32_t sh = (uint32_t)__builtin_ctz(ts);
#else
        uint32_t sh = 0;
        while ((1u << sh) < ts) ++sh;
#endif
        *t0 = px0 >> sh;
        *t1 = px1 >> sh;
    } else {
        *t0 = px0 / ts;
        *t1 = px1 / ts;
    }
}

/* Classifies triangle (a, b, c) (world positions). Returns 1 when it may cover a pixel centre and
 * fills *s, 0 when culled (non-finite, back-facing with culling on, outside the frustum, covering
 * no pixel centre). */
SC_HD static inline int sc_tri_classify(const sc_frame_params *p, const float *a, const float *b,
                                        const float *c, sc_tri_setup *s)
{
    const float *v[3] = {a, b, c};
    /* One test of all nine coordinates (no return per coordinate), so the GPU issues the nine loads
     * together instead of one memory round trip after another. */
    int finite = 1;
    SC_UNROLL
    for (int i = 0; i < 3; ++i)
        SC_UNROLL
        for (int k = 0; k < 3; ++k)
            finite &= isfinite(v[i][k]) ? 1 : 0;
    if (!finite) return 0;
    if (p->cull_back_faces && sc_tri_backfacing(p->eye, a, b, c)) return 0;

    /* View space: x, y and depth w; ext: the largest view coordinate (the scale of their rounding). */
    float vx[3], vy[3], vw[3];
    SC_UNROLL
    for (int i = 0; i < 3; ++i) {
        float d[3] = {SC_FSUB(v[i][0], p->eye[0]), SC_FSUB(v[i][1], p->eye[1]), SC_FSUB(v[i][2], p->eye[2])};
        sc_view_of(p, d, &vx[i], &vy[i], &vw[i]);
    }
    float ext, wmin;
    sc_view_extent(vx, vy, vw, &ext, &wmin);
    const float nearp = p->near_plane, nearc = sc_clip_near(p, ext);
    if (!(vw[0] >= nearc || vw[1] >= nearc || vw[2] >= nearc)) return 0; /* wholly behind near */
    float key = SC_FMUL(sc_maxf(wmin, nearp), SC_FSUB(1.0f, SC_DEPTH_KEY_MARGIN));
    if (key > p->far_plane) return 0;
    s->depth_key = key;

    /* Clip against w >= nearc (Sutherland-Hodgman with one plane) and project. A triangle wholly in
     * front (the common case) is its 3 projected vertices, in the same order and arithmetic. */
    const sc_pixel_proj q = sc_pixel_proj_of(p);
    uint32_t n = 0;
    float bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY, big = 0.0f;
    if (vw[0] >= nearc && vw[1] >= nearc && vw[2] >= nearc) {
        SC_UNROLL
        for (int i = 0; i < 3; ++i) {
            const float iw = SC_FRCP(vw[i]);
            s->sx[i] = sc_to_px(q.kx, q.cx, vx[i], iw);
            s->sy[i] = sc_to_px(q.ky, q.cy, vy[i], iw);
        }
        sc_px_bounds3(s->sx, s->sy, &bx0, &bx1, &by0, &by1, &big);
        n = 3;
    } else {
        SC_UNROLL
        for (int i = 0; i < 3; ++i) {
            const int j = i == 2 ? 0 : i + 1;
            const int in_i = vw[i] >= nearc, in_j = vw[j] >= nearc;
            if (in_i) {
                const float iw = SC_FRCP(vw[i]);
                float X = sc_to_px(q.kx, q.cx, vx[i], iw);
                float Y = sc_to_px(q.ky, q.cy, vy[i], iw);
                sc_poly_push(X, Y, s->sx, s->sy, &n, &bx0, &bx1, &by0, &by1, &big);
            }
            if (in_i != in_j) {
                float f = SC_FDIV(SC_FSUB(nearc, vw[i]), SC_FSUB(vw[j], vw[i]));
                float px = SC_FADD(vx[i], SC_FMUL(f, SC_FSUB(vx[j], vx[i])));
                float py = SC_FADD(vy[i], SC_FMUL(f, SC_FSUB(vy[j], vy[i])));
                const float iw = SC_FRCP(nearc);
                float X = sc_to_px(q.kx, q.cx, px, iw);
                float Y = sc_to_px(q.ky, q.cy, py, iw);
                sc_poly_push(X, Y, s->sx, s->sy, &n, &bx0, &bx1, &by0, &by1, &big);
            }
        }
        /* A clip point is rounded relative to the edge's view extent, not to its own (small when
         * it lies near the view axis): count that extent, projected at nearc, in the margin. */
        big = sc_maxf(big, SC_FDIV(SC_FMUL(sc_maxf(q.kx, q.ky), ext), nearc));
    }
    if (n == 3) { s->sx[3] = s->sx[0]; s->sy[3] = s->sy[0]; } /* slot 3 defined for every polygon */
    s->num_verts = n;
    if (!isfinite(big)) return 0;
    float margin = sc_bin_margin(p, big);
    s->margin = margin;

    /* The pixel centres within the margin of the bounds, clamped to the target. */
    float fx0, fx1, fy0, fy1;
    sc_centre_span(bx0, bx1, margin, p->width, &fx0, &fx1);
    sc_centre_span(by0, by1, margin, p->height, &fy0, &fy1);
    fx0 = sc_maxf(fx0, 0.0f); fy0 = sc_maxf(fy0, 0.0f);
    fx1 = sc_minf(fx1, (float)(p->width - 1)); fy1 = sc_minf(fy1, (float)(p->height - 1));
    if (fx0 > fx1 || fy0 > fy1) return 0;
    s->px0 = (uint32_t)fx0; s->px1 = (uint32_t)fx1;
    s->py0 = (uint32_t)fy0; s->py1 = (uint32_t)fy1;
    sc_tile_span(p->tile_size, s->px0, s->px1, &s->tx0, &s->tx1);
    sc_tile_span(p->tile_size, s->py0, s->py1, &s->ty0, &s->ty1);

    /* Winding in screen space, provable or 0 (bounds only). */
    s->orient = n == 3 ? sc_tri_orient(s->sx, s->sy) : sc_quad_orient(s->sx, s->sy);
    return 1;
}

/* The pixels whose centres a triangle may cover, inclusive, from its vertices minus the eye (da, db,
 * dc): the bounds sc_tri_classify computes (px0 .. py1; the same operations in the same order) for a
 * triangle wholly in front of its clip plane, before they are clamped to the target (*px0, *py0 may be
 * -1 and *px1, *py1 width or height). 0 when the triangle is not wholly in front of that plane or its
 * bounds are not finite: then its pixels are not bounded here (a caller takes all it looks at). Culling
 * is not repeated. The CUDA ray cast tests a reference only against the rays of these pixels. */
SC_HD static inline int sc_tri_pixel_box(const sc_frame_params *p, const float *da, const float *db, const float *dc,
                                         int *px0, int *py0, int *px1, int *py1)
{
    const float *v[3] = {da, db, dc};
    float vx[3], vy[3], vw[3];
    SC_UNROLL
    for (int i = 0; i < 3; ++i) sc_view_of(p, v[i], &vx[i], &vy[i], &vw[i]);
    float ext, wmin;
    sc_view_extent(vx, vy, vw, &ext, &wmin);
    const float nearc = sc_clip_near(p, ext);
    if (!(vw[0] >= nearc && vw[1] >= nearc && vw[2] >= nearc)) return 0;
    const sc_pixel_proj q = sc_pixel_proj_of(p);
    float X[3], Y[3];
    SC_UNROLL
    for (int i = 0; i < 3; ++i) {
        const float iw = SC_FRCP(vw[i]);
        X[i] = sc_to_px(q.kx, q.cx, vx[i], iw);
        Y[i] = sc_to_px(q.ky, q.cy, vy[i], iw);
    }
    float bx0, bx1, by0, by1, big;
    sc_px_bounds3(X, Y, &bx0, &bx1, &by0, &by1, &big);
    if (!isfinite(big)) return 0;
    const float margin = sc_bin_margin(p, big);
    float fx0, fx1, fy0, fy1;
    sc_centre_span(bx0, bx1, margin, p->width, &fx0, &fx1);
    sc_centre_span(by0, by1, margin, p->height, &fy0, &fy1);
    *px0 = (int)fx0;
    *px1 = (int)fx1;
    *py0 = (int)fy0;
    *py1 = (int)fy1;
    return 1;
}

/* Nonzero when the polygon, widened by the margin, may contain a pixel centre of tile (tx, ty):
 * no edge has the tile's rectangle of pixel centres wholly more than the margin on its outer side.
 * Each edge is measured from its first vertex (relative coordinates, see the header). */
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
