/* shadow.h - the shadow ray of a hit pixel and the light-space grid that finds its blockers, shared
 * by the CPU backend, the CUDA kernels and the brute-force reference (internal).
 *
 * The contract (slabcast.h, "Shadows"): a pixel is in shadow for a light when some triangle other
 * than its hit triangle hits its shadow ray (sc_shadow_ray below) under intersect.h's watertight test
 * with tmin <= t <= tmax. Every float operation is an SC_F* macro (correctly rounded, never fused), so
 * host and device compute bit-identical rays and therefore identical shadows.
 *
 * Why the origin offset and tmin = 0. A hit point computed from barycentrics lies off the triangle's
 * plane by a few ulps of the triangle's coordinates; a shadow ray leaving from just below the surface
 * re-hits the neighbouring triangles near t = 0 (self-shadowing acne on smooth curved meshes). The hit
 * triangle itself is excluded by the contract; the neighbours are avoided by moving the origin off the
 * plane, to the light's side, by SC_SHADOW_OFFSET_REL times the largest absolute coordinate of the hit
 * triangle: that is the scale of the hit point's rounding error (Waechter and Binder, Ray Tracing Gems
 * 2019, offset by ulps of the point's magnitude for the same reason; using the triangle's coordinates
 * instead of a fixed floor near the origin keeps the offset scale invariant). 2^-16 is 128 ulps of
 * that magnitude: 30x more than the point's error, and far too small to lose a contact shadow (a
 * blocker that close is closer than the float spacing of the mesh's own coordinates allows to place).
 * With the origin off the surface, tmin = 0 keeps every blocker.
 *
 * The light-space grid (irregular z-buffer). Every blocker P of a shadow ray from origin O lies on the
 * segment from O towards the light, so it has O's light-space image: for a point light L, P - L is
 * (1 - t)(O - L), the same direction; for a directional light, P - O is parallel to the light. So a
 * light view maps receivers (the shadow rays' origins) and casters (triangles) to the same 2D light
 * coordinates, and a caster can block only receivers inside its image:
 *  - a directional light has one orthographic view: u, v = the coordinates of p - C on two unit axes
 *    orthogonal to the light (C the mesh centre), w = the coordinate along the light's travel;
 *  - a point light has up to six views, the cube faces around L: d = p - L, the face of the largest
 *    |d_k| (w = |d_k|), and u, v = the other two components over w. A receiver belongs to the face of
 *    its d; a caster is clipped to each face's w >= wc and projected there. wc is half of
 *    (1 - tmax) times the face's nearest receiver: the blockers of a receiver at depth w lie at depth
 *    >= (1 - tmax) w, so nothing that can block is clipped away.
 * The views that hold receivers share G^2 light tiles: each of the k such views gets a grid of
 * gx x gy <= G^2 / k tiles over its receivers' bounds, its aspect that of the bounds (fitted every
 * frame, so clustered receivers get the whole grid and tiles stay near square in light space), and S
 * depth slabs over its receivers' depth range. A light has G^2 tile ids whatever its views: the splits
 * that group receivers and casters by tile scan no buckets for views without receivers. A caster is binned to the
 * tiles its image covers, widened by a margin that bounds the float error of the images and of the
 * ray test (below), and to the slab of its key: its nearest light-space depth, lowered by a margin. A
 * blocker of a receiver at depth w has depth <= w, so the receiver needs only slabs whose near bound
 * is <= w: every caster of a later slab has key >= that bound > w.
 *
 * The margins. The ray test reports a hit when the exact ray meets a triangle whose vertices moved by a
 * few ulps of their distance to the ray's origin (the translation, shear and edge products of
 * intersect.h, each rounded once); a blocker is within sqrt(3) D of its receiver, D the largest
 * distance (inf norm) from the caster's vertices to the receivers' bounding box. The float ray's
 * direction is off by an ulp per component, which moves a point t along it by ulps of t |dir|, the
 * blocker's distance to the receiver again. So a blocker seen from a point light is off the caster by
 * an angle of a few ulps of D / w (w its depth, at least the caster's nearest), which becomes at most
 * (1 + u^2 + v^2) times that in light coordinates at a receiver; for a directional light it is off by
 * ulps of D outright. Both add the rounding of the light coordinates themselves (ulps of their size).
 * SC_SHADOW_RAY_REL (32 u) is about three times the ray's part, SC_SHADOW_PROJ_REL (8 u) covers the
 * coordinates'. The margin does not grow with the distance to the light: a point light 10^4 radii away
 * bins a caster to about the tiles its own image covers. The depth key is lowered by the ray's part and
 * SC_SHADOW_KEY_REL of the depths' size. */
#ifndef SC_SHADOW_H
#define SC_SHADOW_H

#include <math.h>
#include <stdint.h>

#include "intersect.h"
#include "render_tuning.h"
#include "sc_hd.h"
#include "slabcast.h"

/* The contract's constants (slabcast.h states them). */
#define SC_SHADOW_OFFSET_REL (1.0f / 65536.0f)       /* origin offset: of the triangle's largest coordinate */
#define SC_SHADOW_TMAX_POINT (1.0f - 1.0f / 4096.0f)  /* point light: t = 1 is the light */

enum {
    SC_SHADOW_MAX_VIEWS = 6,       /* cube faces of a point light */
    SC_SHADOW_VIEW_DIRECTIONAL = 0 /* the one view of a directional light */
};

/* A light as the backends use it, resolved by the front end. */
typedef struct sc_light_params {
    uint32_t type;                 /* SC_LIGHT_POINT / SC_LIGHT_DIRECTIONAL */
    uint32_t shadows;              /* 1: shadow rays are cast for it (light and renderer option on) */
    float pos[3];                  /* point light: position */
    float to_light[3];             /* directional: unit vector towards the light (minus its direction) */
    float color[3];                /* colour x intensity */
} sc_light_params;

/* One light view's grid for this frame (sc_shadow_grid_setup). */
typedef struct sc_shadow_view {
    uint32_t active;               /* 1: it holds receivers */
    float u0, v0, u1, v1;          /* receivers' light coordinates: bounds */
    float su, sv;                  /* tiles per unit of u, v (G / extent; 0: one column / row) */
    float w_lo, w_hi;              /* receivers' depth range: the slab range */
    float wc;                      /* point light: the clip depth of casters */
    float ext;                     /* receivers' largest distance to L (or C), inf norm */
    float uv_max;                  /* receivers' largest |u|, |v| */
    float box0[3], box1[3];        /* receivers' world bounding box (the rays' origins) */
    uint32_t gx, gy;               /* tiles along u and v (gx * gy <= G^2 / active views) */
    uint32_t base;                 /* its first tile id: tile = base + ty * gx + tx */
} sc_shadow_view;

/* A light's grid for this frame. Tile id = view's base + ty * gx + tx. The CPU backend keys a caster
 * reference tile | slab << tile_bits and a receiver of no tile num_tiles_max (the sentinel bucket);
 * the CUDA backend keys references by cell, tile << slab_bits | slab, and keeps only receivers. */
typedef struct sc_shadow_grid {
    sc_light_params light;
    float center[3];               /* C: origin of a directional light's coordinates */
    float axis_u[3], axis_v[3], axis_w[3]; /* directional: orthonormal, axis_w along the light's travel */
    uint32_t grid;                 /* G: the light's G^2 tiles are shared by its views with receivers */
    uint32_t num_slabs;            /* S */
    uint32_t tile_bits, slab_bits; /* 2^tile_bits > G^2 (room for the sentinel) */
    uint32_t num_tiles;            /* G^2: the tile ids of every view */
    sc_shadow_view views[SC_SHADOW_MAX_VIEWS];
} sc_shadow_grid;

/* Per view bounds of the receivers, reduced over the frame's hit pixels. */
typedef struct sc_shadow_bounds {
    float u0[SC_SHADOW_MAX_VIEWS], u1[SC_SHADOW_MAX_VIEWS];
    float v0[SC_SHADOW_MAX_VIEWS], v1[SC_SHADOW_MAX_VIEWS];
    float w0[SC_SHADOW_MAX_VIEWS], w1[SC_SHADOW_MAX_VIEWS];
    float ext[SC_SHADOW_MAX_VIEWS];
    float box0[3][SC_SHADOW_MAX_VIEWS], box1[3][SC_SHADOW_MAX_VIEWS];
    uint32_t count[SC_SHADOW_MAX_VIEWS];
} sc_shadow_bounds;

/* A receiver in light space. */
typedef struct sc_shadow_receiver {
    uint32_t view;
    float u, v, w;                 /* light coordinates and depth */
    float ext;                     /* distance to L (or C), inf norm */
} sc_shadow_receiver;

SC_HD static inline float sc_minf_s(float a, float b) { return a < b ? a : b; }
SC_HD static inline float sc_maxf_s(float a, float b) { return a > b ? a : b; }

#if defined(__CUDA_ARCH__)
#define SC_FSQRT(a) __fsqrt_rn(a)
#else
#define SC_FSQRT(a) sqrtf(a)
#endif

SC_HD static inline float sc_shadow_maxabs3(const float *p)
{
    float m = sc_absf(p[0]);
    m = sc_absf(p[1]) > m ? sc_absf(p[1]) : m;
    return sc_absf(p[2]) > m ? sc_absf(p[2]) : m;
}

/* The direction of the shadow ray from origin org towards light l, and its tmax (tmin is 0). */
SC_HD static inline float sc_shadow_ray_dir(const sc_light_params *l, const float org[3], float dir[3])
{
    if (l->type == SC_LIGHT_POINT) {
        for (int i = 0; i < 3; ++i) dir[i] = SC_FSUB(l->pos[i], org[i]);
        return SC_SHADOW_TMAX_POINT;
    }
    for (int i = 0; i < 3; ++i) dir[i] = l->to_light[i];
    return INFINITY;
}

/* The shadow ray of a hit on triangle (a, b, c) with barycentric weights u (of b) and v (of c)
 * towards light l: origin, direction and tmax (tmin is 0). See the header. */
SC_HD static inline void sc_shadow_ray(const sc_light_params *l, const float *a, const float *b, const float *c,
                                       float u, float v, float org[3], float dir[3], float *tmax)
{
    float e1[3], e2[3], p[3];
    for (int i = 0; i < 3; ++i) {
        e1[i] = SC_FSUB(b[i], a[i]);
        e2[i] = SC_FSUB(c[i], a[i]);
        p[i] = SC_FADD(SC_FADD(a[i], SC_FMUL(u, e1[i])), SC_FMUL(v, e2[i]));
    }
    float n[3] = {SC_FDIFF_PROD(e1[1], e2[2], e1[2], e2[1]), SC_FDIFF_PROD(e1[2], e2[0], e1[0], e2[2]),
                  SC_FDIFF_PROD(e1[0], e2[1], e1[1], e2[0])};
    /* Unit normal, scaled first by its largest component (no overflow or underflow in the square). */
    const float nm = sc_shadow_maxabs3(n);
    float side = 0.0f;
    if (nm > 0.0f && nm < INFINITY) {
        for (int i = 0; i < 3; ++i) n[i] = SC_FDIV(n[i], nm);
        const float len = SC_FSQRT(SC_FADD(SC_FADD(SC_FMUL(n[0], n[0]), SC_FMUL(n[1], n[1])), SC_FMUL(n[2], n[2])));
        for (int i = 0; i < 3; ++i) n[i] = SC_FDIV(n[i], len);
        float tl[3];
        for (int i = 0; i < 3; ++i) tl[i] = l->type == SC_LIGHT_POINT ? SC_FSUB(l->pos[i], p[i]) : l->to_light[i];
        const float d = SC_FADD(SC_FADD(SC_FMUL(n[0], tl[0]), SC_FMUL(n[1], tl[1])), SC_FMUL(n[2], tl[2]));
        side = d < 0.0f ? -1.0f : 1.0f;
    }
    float m = sc_shadow_maxabs3(a);
    m = sc_shadow_maxabs3(b) > m ? sc_shadow_maxabs3(b) : m;
    m = sc_shadow_maxabs3(c) > m ? sc_shadow_maxabs3(c) : m;
    const float off = SC_FMUL(side, SC_FMUL(SC_SHADOW_OFFSET_REL, m));
    for (int i = 0; i < 3; ++i) org[i] = SC_FADD(p[i], SC_FMUL(off, n[i]));
    *tmax = sc_shadow_ray_dir(l, org, dir);
}

/* Light coordinates of point p relative to the light's frame: the face of a point light and
 * (x, y, w) with w >= 0 its depth along the face's axis (x, y not divided), or the directional
 * coordinates (u, v, w). The cube faces: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z; on face k with axis
 * a = k / 2, the other axes (a + 1) % 3 and (a + 2) % 3 give x and y. */
SC_HD static inline uint32_t sc_shadow_face(const float d[3])
{
    const float ax = sc_absf(d[0]), ay = sc_absf(d[1]), az = sc_absf(d[2]);
    const uint32_t a = (ax >= ay && ax >= az) ? 0u : (ay >= az ? 1u : 2u);
    return 2u * a + (sc_pick3(d, (int)a) < 0.0f ? 1u : 0u);
}

SC_HD static inline void sc_shadow_face_coords(uint32_t face, const float d[3], float *x, float *y, float *w)
{
    const float dx = d[0], dy = d[1], dz = d[2];
    float W, X, Y;
    if (face < 2u) { W = dx; X = dy; Y = dz; }
    else if (face < 4u) { W = dy; X = dz; Y = dx; }
    else { W = dz; X = dx; Y = dy; }
    *w = (face & 1u) ? -W : W;
    *x = X;
    *y = Y;
}

SC_HD static inline void sc_shadow_dir_coords(const sc_shadow_grid *g, const float *p, float *x, float *y, float *w,
                                              float *ext)
{
    float d[3] = {SC_FSUB(p[0], g->center[0]), SC_FSUB(p[1], g->center[1]), SC_FSUB(p[2], g->center[2])};
    *x = SC_FADD(SC_FADD(SC_FMUL(d[0], g->axis_u[0]), SC_FMUL(d[1], g->axis_u[1])), SC_FMUL(d[2], g->axis_u[2]));
    *y = SC_FADD(SC_FADD(SC_FMUL(d[0], g->axis_v[0]), SC_FMUL(d[1], g->axis_v[1])), SC_FMUL(d[2], g->axis_v[2]));
    *w = SC_FADD(SC_FADD(SC_FMUL(d[0], g->axis_w[0]), SC_FMUL(d[1], g->axis_w[1])), SC_FMUL(d[2], g->axis_w[2]));
    *ext = sc_shadow_maxabs3(d);
}

/* The receiver of a shadow ray's origin; 0 when it cannot be blocked in a grid (a point light at the
 * origin itself: a zero direction hits nothing) or is not finite. */
SC_HD static inline int sc_shadow_receiver_of(const sc_shadow_grid *g, const float org[3], sc_shadow_receiver *r)
{
    r->view = 0;
    r->u = r->v = r->w = r->ext = 0.0f;
    if (g->light.type == SC_LIGHT_POINT) {
        const float d[3] = {SC_FSUB(org[0], g->light.pos[0]), SC_FSUB(org[1], g->light.pos[1]),
                            SC_FSUB(org[2], g->light.pos[2])};
        const uint32_t f = sc_shadow_face(d);
        float x, y, w;
        sc_shadow_face_coords(f, d, &x, &y, &w);
        if (!(w > 0.0f) || !(w < INFINITY)) return 0;
        r->view = f;
        r->u = SC_FDIV(x, w);
        r->v = SC_FDIV(y, w);
        r->w = w;
        r->ext = w; /* the largest component */
    } else {
        r->view = SC_SHADOW_VIEW_DIRECTIONAL;
        sc_shadow_dir_coords(g, org, &r->u, &r->v, &r->w, &r->ext);
    }
    return isfinite(r->u) && isfinite(r->v) && isfinite(r->w) && isfinite(r->ext);
}

/* The light tile of a coordinate on one axis of a view: floor((x - lo) * s) clamped to 0 .. G - 1
 * (monotone in x: float subtraction and multiplication by s >= 0 are). */
SC_HD static inline uint32_t sc_shadow_cell(float x, float lo, float s, uint32_t G)
{
    const float f = SC_FMUL(SC_FSUB(x, lo), s);
    if (!(f > 0.0f)) return 0;
    if (f >= (float)(G - 1)) return G - 1;
    return (uint32_t)f;
}

SC_HD static inline uint32_t sc_shadow_tile_of(const sc_shadow_grid *g, const sc_shadow_receiver *r)
{
    const sc_shadow_view *vw = &g->views[r->view];
    return vw->base + sc_shadow_cell(r->v, vw->v0, vw->sv, vw->gy) * vw->gx + sc_shadow_cell(r->u, vw->u0, vw->su, vw->gx);
}

/* Near bound of slab k of a view (k = 0: -inf, k >= S: +inf), and the slab of a key: the largest k
 * with bound(k) <= key, exact with respect to the bounds. */
SC_HD static inline float sc_shadow_slab_bound(const sc_shadow_grid *g, const sc_shadow_view *vw, uint32_t k)
{
    if (k == 0) return -INFINITY;
    if (k >= g->num_slabs) return INFINITY;
    const float span = SC_FSUB(vw->w_hi, vw->w_lo);
    return SC_FADD(vw->w_lo, SC_FMUL(span, SC_FDIV((float)k, (float)g->num_slabs)));
}

SC_HD static inline uint32_t sc_shadow_slab_of(const sc_shadow_grid *g, const sc_shadow_view *vw, float key)
{
    const uint32_t S = g->num_slabs;
    const float span = SC_FSUB(vw->w_hi, vw->w_lo);
    uint32_t k = 0;
    if (span > 0.0f && key > vw->w_lo) {
        const float f = SC_FMUL(SC_FDIV(SC_FSUB(key, vw->w_lo), span), (float)S);
        k = f >= (float)(S - 1) ? S - 1 : (uint32_t)f;
    }
    while (k > 0 && key < sc_shadow_slab_bound(g, vw, k)) --k;
    while (k + 1 < S && key >= sc_shadow_slab_bound(g, vw, k + 1)) ++k;
    return k;
}

/* The first slab a receiver at depth w does not need (every caster from it on has key > w). */
SC_HD static inline uint32_t sc_shadow_slab_end(const sc_shadow_grid *g, const sc_shadow_view *vw, float w)
{
    uint32_t k = sc_shadow_slab_of(g, vw, w);
    return k + 1;
}

/* A caster's image in one view: its light-space bounds widened by the margin, and its depth key. */
typedef struct sc_shadow_image {
    float x0, x1, y0, y1;
    float key;
} sc_shadow_image;

/* A caster's tile span in one view (inclusive, 0 .. G - 1). */
typedef struct sc_shadow_span {
    uint32_t tx0, ty0, tx1, ty1;
} sc_shadow_span;

/* Whether a receiver at light coordinates (u, v) lies in a caster's image: only then can the caster
 * block its ray (the margin covers the rounding, see the header). The ray cast tests this before the
 * ray-triangle test. */
SC_HD static inline int sc_shadow_image_holds(const sc_shadow_image *im, float u, float v)
{
    return u >= im->x0 && u <= im->x1 && v >= im->y0 && v <= im->y1;
}

/* The tile span of an image, clipped to the view; 0 when it misses the view's receivers. */
SC_HD static inline int sc_shadow_span_of(const sc_shadow_grid *g, const sc_shadow_view *vw, const sc_shadow_image *im,
                                          sc_shadow_span *s)
{
    if (!(im->x1 >= vw->u0 && im->x0 <= vw->u1 && im->y1 >= vw->v0 && im->y0 <= vw->v1)) return 0; /* NaN too */
    (void)g;
    s->tx0 = sc_shadow_cell(im->x0, vw->u0, vw->su, vw->gx);
    s->tx1 = sc_shadow_cell(im->x1, vw->u0, vw->su, vw->gx);
    s->ty0 = sc_shadow_cell(im->y0, vw->v0, vw->sv, vw->gy);
    s->ty1 = sc_shadow_cell(im->y1, vw->v0, vw->sv, vw->gy);
    return 1;
}

/* Bounds [x0, x1] x [y0, y1] widened by m, with key, as an image. A bound, margin or key that
 * overflowed into NaN (coordinates near the float range's end: inf - inf, inf / inf) becomes the
 * widest: the caster is then binned everywhere rather than nowhere. */
SC_HD static inline void sc_shadow_image_set(float x0, float x1, float y0, float y1, float m, float key,
                                             sc_shadow_image *im)
{
    if (!(m >= 0.0f)) m = INFINITY;
    if (key != key) key = -INFINITY;
    if (x0 != x0) x0 = -INFINITY;
    if (y0 != y0) y0 = -INFINITY;
    if (x1 != x1) x1 = INFINITY;
    if (y1 != y1) y1 = INFINITY;
    im->x0 = SC_FSUB(x0, m);
    im->x1 = SC_FADD(x1, m);
    im->y0 = SC_FSUB(y0, m);
    im->y1 = SC_FADD(y1, m);
    im->key = key;
}

/* A caster's image in a directional light's view from its coordinate bounds [x0, x1] x [y0, y1], its
 * nearest depth w0, D (the largest distance, inf norm, from its vertices to the receivers' box) and e
 * (the largest size of its vertices' coordinates, inf norm): the bounds widened by the margin and the
 * depth key, 0 when the key is behind every receiver. D and e may be any bounds at least that large
 * (the margins only grow). */
SC_HD static inline int sc_shadow_dir_image(const sc_shadow_view *vw, float x0, float x1, float y0, float y1, float w0,
                                           float D, float e, sc_shadow_image *im)
{
    /* The ray test (blocker off the caster by a few ulps of D), the light direction's rounding
     * (parallel to the axes up to ulps, over a distance of at most sqrt(3) D), the dot products
     * (ulps of the coordinates' size e + ext). */
    const float E = SC_FADD(e, vw->ext);
    const float m = SC_FADD(SC_FMUL(SC_SHADOW_RAY_REL, D), SC_FMUL(SC_SHADOW_PROJ_REL, E));
    const float key = SC_FSUB(w0, SC_FADD(SC_FMUL(SC_SHADOW_RAY_REL, D), SC_FMUL(SC_SHADOW_KEY_REL, E)));
    if (key > vw->w_hi) return 0; /* behind every receiver (a NaN key is kept: binned as nearest) */
    sc_shadow_image_set(x0, x1, y0, y1, m, key, im);
    return 1;
}

/* The same in a point light's cube face: [x0, x1] x [y0, y1] the bounds of the projected (clipped)
 * caster, wmin its nearest depth, big its largest |u|, |v|; D and e as above (e: distances to L). */
SC_HD static inline int sc_shadow_point_image(const sc_shadow_view *vw, float x0, float x1, float y0, float y1,
                                             float wmin, float big, float D, float e, sc_shadow_image *im)
{
    /* The ray test and the ray's direction move a blocker off the caster, as seen from L, by an angle
     * of a few ulps of D / w (w >= wmin: its depth), which the projection turns into at most
     * (1 + u^2 + v^2) <= 1 + 2 uv_max^2 times that at a receiver; the light coordinates themselves
     * (the caster's vertices and clip points, the receiver's u, v) are rounded by ulps of their size. */
    const float slope = SC_FADD(1.0f, SC_FMUL(2.0f, SC_FMUL(vw->uv_max, vw->uv_max)));
    const float m = SC_FADD(SC_FMUL(SC_FMUL(SC_SHADOW_RAY_REL, SC_FDIV(D, wmin)), slope),
                            SC_FMUL(SC_SHADOW_PROJ_REL, SC_FADD(SC_FADD(1.0f, big), vw->uv_max)));
    const float key = SC_FSUB(wmin, SC_FADD(SC_FMUL(SC_SHADOW_RAY_REL, D),
                                            SC_FMUL(SC_SHADOW_KEY_REL, SC_FADD(e, vw->ext))));
    if (key > vw->w_hi) return 0; /* behind every receiver (a NaN key is kept: binned as nearest) */
    sc_shadow_image_set(x0, x1, y0, y1, m, key, im);
    return 1;
}

/* A vertex p in view `view` of grid g, as the caster images use it: its light coordinates u, v (a
 * point light: x / w, y / w in the cube face, meaningful when w > 0), depth w, and its distance to the
 * view's receivers' box (inf norm). A caster none of whose vertices is clipped (a point light: every
 * w >= wc) has the image sc_shadow_point_image or sc_shadow_dir_image gives with the bounds of its
 * vertices' u, v, the least w, the largest |u|, |v|, the largest distance as D, and as e a bound of
 * its coordinates' size from the light coordinates (sc_shadow_size_bound): the same bounds, key and
 * margin sc_shadow_caster_image computes from the vertices, the key lowered a little more. */
SC_HD static inline void sc_shadow_vertex_coords(const sc_shadow_grid *g, uint32_t view, const float *p, float out[4])
{
    const sc_shadow_view *vw = &g->views[view];
    float D = 0.0f;
    for (int k = 0; k < 3; ++k)
        D = sc_maxf_s(D, sc_maxf_s(sc_absf(SC_FSUB(p[k], vw->box0[k])), sc_absf(SC_FSUB(p[k], vw->box1[k]))));
    if (g->light.type != SC_LIGHT_POINT) {
        float ext;
        sc_shadow_dir_coords(g, p, &out[0], &out[1], &out[2], &ext);
    } else {
        const float d[3] = {SC_FSUB(p[0], g->light.pos[0]), SC_FSUB(p[1], g->light.pos[1]), SC_FSUB(p[2], g->light.pos[2])};
        float x, y;
        sc_shadow_face_coords(view, d, &x, &y, &out[2]);
        out[0] = SC_FDIV(x, out[2]);
        out[1] = SC_FDIV(y, out[2]);
    }
    out[3] = D;
}

/* A bound of e (sc_shadow_caster_image: the largest inf-norm size of a caster's vertices' coordinates
 * relative to L, or to C for a directional light) from light coordinates. A point light: a vertex's
 * components are w, x = u w and y = v w up to the rounding of u (x / w), so its size is at most w max(1,
 * |u|, |v|) (1 + 2 ulp); wmax and big are the largest w and |u|, |v| of the vertices. A directional
 * light: the size is at most the Euclidean length of the vertex's offset, which the coordinates on the
 * (rounded, orthonormal up to ulps) axes give within a few ulps: |u| + |v| + |w| (sum over the largest
 * of each, passed as wmax, big = |u| + |v|). The factor 1 + 2^-16 covers the roundings many times. */
SC_HD static inline float sc_shadow_size_bound(int point, float wmax, float big)
{
    const float s = point ? SC_FMUL(wmax, sc_maxf_s(1.0f, big)) : SC_FADD(wmax, big);
    return SC_FMUL(s, 1.0000152587890625f);
}

/* Triangle (a, b, c) as a caster in view `view` of grid g: 1 and its image when it may block a
 * receiver of that view (the view is active and the key is not behind every receiver). A caster must
 * be finite (the frame drops the others). */
SC_HD static inline int sc_shadow_caster_image(const sc_shadow_grid *g, uint32_t view, const float *a, const float *b,
                                               const float *c, sc_shadow_image *im)
{
    const sc_shadow_view *vw = &g->views[view];
    if (!vw->active) return 0;
    const float *v[3] = {a, b, c};
    /* D: the largest distance (inf norm) from a vertex to the receivers' box: a blocker lies within
     * sqrt(3) D of its receiver. */
    float D = 0.0f;
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            D = sc_maxf_s(D, sc_maxf_s(sc_absf(SC_FSUB(v[i][k], vw->box0[k])), sc_absf(SC_FSUB(v[i][k], vw->box1[k]))));
    if (g->light.type != SC_LIGHT_POINT) {
        float x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, w0 = INFINITY, e = 0.0f;
        for (int i = 0; i < 3; ++i) {
            float x, y, w, ext;
            sc_shadow_dir_coords(g, v[i], &x, &y, &w, &ext);
            x0 = sc_minf_s(x0, x); x1 = sc_maxf_s(x1, x);
            y0 = sc_minf_s(y0, y); y1 = sc_maxf_s(y1, y);
            w0 = sc_minf_s(w0, w);
            e = sc_maxf_s(e, ext);
        }
        return sc_shadow_dir_image(vw, x0, x1, y0, y1, w0, D, e, im);
    }
    /* Point light, cube face `view`: clip to w >= wc, project. */
    float X[3], Y[3], W[3], e = 0.0f;
    for (int i = 0; i < 3; ++i) {
        const float d[3] = {SC_FSUB(v[i][0], g->light.pos[0]), SC_FSUB(v[i][1], g->light.pos[1]),
                            SC_FSUB(v[i][2], g->light.pos[2])};
        sc_shadow_face_coords(view, d, &X[i], &Y[i], &W[i]);
        e = sc_maxf_s(e, sc_shadow_maxabs3(d));
    }
    const float wc = vw->wc;
    if (!(W[0] >= wc || W[1] >= wc || W[2] >= wc)) return 0;
    float x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, wmin = INFINITY, big = 0.0f;
    for (int i = 0; i < 3; ++i) {
        const int j = i == 2 ? 0 : i + 1;
        const int in_i = W[i] >= wc, in_j = W[j] >= wc;
        float px[2], py[2], pw[2];
        int n = 0;
        if (in_i) { px[n] = X[i]; py[n] = Y[i]; pw[n] = W[i]; ++n; }
        if (in_i != in_j) {
            const float f = SC_FDIV(SC_FSUB(wc, W[i]), SC_FSUB(W[j], W[i]));
            px[n] = SC_FADD(X[i], SC_FMUL(f, SC_FSUB(X[j], X[i])));
            py[n] = SC_FADD(Y[i], SC_FMUL(f, SC_FSUB(Y[j], Y[i])));
            pw[n] = wc;
            ++n;
        }
        for (int k = 0; k < n; ++k) {
            const float U = SC_FDIV(px[k], pw[k]), V = SC_FDIV(py[k], pw[k]);
            x0 = sc_minf_s(x0, U); x1 = sc_maxf_s(x1, U);
            y0 = sc_minf_s(y0, V); y1 = sc_maxf_s(y1, V);
            wmin = sc_minf_s(wmin, pw[k]);
            big = sc_maxf_s(big, sc_maxf_s(sc_absf(U), sc_absf(V)));
        }
    }
    return sc_shadow_point_image(vw, x0, x1, y0, y1, wmin, big, D, e, im);
}

/* G, the light tiles per view edge, for a mesh of num_triangles (render_tuning.h). */
SC_HD static inline uint32_t sc_shadow_grid_size(uint32_t num_triangles)
{
    uint32_t G = SC_SHADOW_GRID_MIN;
    while (G < SC_SHADOW_GRID_MAX && (uint64_t)G * G * SC_SHADOW_TRIANGLES_PER_TILE < num_triangles) G *= 2;
    return G;
}

/* Empty bounds (every view without receivers). */
SC_HD static inline void sc_shadow_bounds_clear(sc_shadow_bounds *b)
{
    for (int k = 0; k < SC_SHADOW_MAX_VIEWS; ++k) {
        b->u0[k] = b->v0[k] = b->w0[k] = INFINITY;
        b->u1[k] = b->v1[k] = b->w1[k] = -INFINITY;
        b->ext[k] = 0.0f;
        for (int i = 0; i < 3; ++i) {
            b->box0[i][k] = INFINITY;
            b->box1[i][k] = -INFINITY;
        }
        b->count[k] = 0;
    }
}

SC_HD static inline void sc_shadow_bounds_add(sc_shadow_bounds *b, const sc_shadow_receiver *r, const float org[3])
{
    const uint32_t k = r->view;
    for (int i = 0; i < 3; ++i) {
        b->box0[i][k] = sc_minf_s(b->box0[i][k], org[i]);
        b->box1[i][k] = sc_maxf_s(b->box1[i][k], org[i]);
    }
    b->u0[k] = sc_minf_s(b->u0[k], r->u); b->u1[k] = sc_maxf_s(b->u1[k], r->u);
    b->v0[k] = sc_minf_s(b->v0[k], r->v); b->v1[k] = sc_maxf_s(b->v1[k], r->v);
    b->w0[k] = sc_minf_s(b->w0[k], r->w); b->w1[k] = sc_maxf_s(b->w1[k], r->w);
    b->ext[k] = sc_maxf_s(b->ext[k], r->ext);
    b->count[k] += 1;
}

/* Merges bounds src into dst (the bounds of the union of their receivers). */
SC_HD static inline void sc_shadow_bounds_merge(sc_shadow_bounds *dst, const sc_shadow_bounds *src)
{
    for (int k = 0; k < SC_SHADOW_MAX_VIEWS; ++k) {
        if (!src->count[k]) continue;
        dst->u0[k] = sc_minf_s(dst->u0[k], src->u0[k]); dst->u1[k] = sc_maxf_s(dst->u1[k], src->u1[k]);
        dst->v0[k] = sc_minf_s(dst->v0[k], src->v0[k]); dst->v1[k] = sc_maxf_s(dst->v1[k], src->v1[k]);
        dst->w0[k] = sc_minf_s(dst->w0[k], src->w0[k]); dst->w1[k] = sc_maxf_s(dst->w1[k], src->w1[k]);
        dst->ext[k] = sc_maxf_s(dst->ext[k], src->ext[k]);
        for (int i = 0; i < 3; ++i) {
            dst->box0[i][k] = sc_minf_s(dst->box0[i][k], src->box0[i][k]);
            dst->box1[i][k] = sc_maxf_s(dst->box1[i][k], src->box1[i][k]);
        }
        dst->count[k] += src->count[k];
    }
}

/* The frame part of a light's grid: the directional axes (before the receivers are mapped). */
SC_HD static inline void sc_shadow_grid_init(sc_shadow_grid *g, const sc_light_params *l, const float center[3],
                                             uint32_t grid, uint32_t num_slabs)
{
    g->light = *l;
    for (int i = 0; i < 3; ++i) g->center[i] = center[i];
    g->grid = grid;
    g->num_slabs = num_slabs;
    g->num_tiles = grid * grid;
    g->tile_bits = 0;
    while ((1u << g->tile_bits) <= g->num_tiles) ++g->tile_bits;
    g->slab_bits = 0;
    while ((1u << g->slab_bits) < num_slabs) ++g->slab_bits;
    /* axis_w: the light's travel; axis_u: orthogonal to it and to the world axis it is least
     * aligned with; axis_v = w x u. */
    const float *t = l->to_light;
    float w[3] = {-t[0], -t[1], -t[2]};
    const float ax = sc_absf(w[0]), ay = sc_absf(w[1]), az = sc_absf(w[2]);
    float h[3] = {0.0f, 0.0f, 0.0f};
    h[(ax <= ay && ax <= az) ? 0 : (ay <= az ? 1 : 2)] = 1.0f;
    float u[3] = {SC_FDIFF_PROD(h[1], w[2], h[2], w[1]), SC_FDIFF_PROD(h[2], w[0], h[0], w[2]),
                  SC_FDIFF_PROD(h[0], w[1], h[1], w[0])};
    float ul = SC_FSQRT(SC_FADD(SC_FADD(SC_FMUL(u[0], u[0]), SC_FMUL(u[1], u[1])), SC_FMUL(u[2], u[2])));
    if (ul > 0.0f)
        for (int i = 0; i < 3; ++i) u[i] = SC_FDIV(u[i], ul);
    float v[3] = {SC_FDIFF_PROD(w[1], u[2], w[2], u[1]), SC_FDIFF_PROD(w[2], u[0], w[0], u[2]),
                  SC_FDIFF_PROD(w[0], u[1], w[1], u[0])};
    for (int i = 0; i < 3; ++i) {
        g->axis_u[i] = u[i];
        g->axis_v[i] = v[i];
        g->axis_w[i] = w[i];
    }
    for (int k = 0; k < SC_SHADOW_MAX_VIEWS; ++k) {
        sc_shadow_view *vw = &g->views[k];
        vw->active = 0;
        vw->u0 = vw->v0 = vw->u1 = vw->v1 = vw->su = vw->sv = vw->w_lo = vw->w_hi = vw->wc = vw->ext = 0.0f;
        vw->uv_max = 0.0f;
        for (int i = 0; i < 3; ++i) vw->box0[i] = vw->box1[i] = 0.0f;
        vw->gx = vw->gy = 1;
        vw->base = 0;
    }
}

/* The tiles of a view with receiver bounds du x dv out of a share of T: gx x gy <= T, gx / gy near
 * du / dv (the ratio kept within 1/16 .. 16, so a caster across a thin view's long side does not
 * take hundreds of tiles); one column or row along a side of zero or non-finite extent. */
SC_HD static inline void sc_shadow_view_tiles(float du, float dv, uint32_t T, uint32_t *gx, uint32_t *gy)
{
    const int u_ok = du > 0.0f && du < INFINITY, v_ok = dv > 0.0f && dv < INFINITY;
    if (!u_ok || !v_ok) {
        *gx = u_ok ? T : 1u;
        *gy = v_ok ? T : 1u;
        if (!u_ok && !v_ok) *gy = 1u;
        return;
    }
    float r = SC_FDIV(du, dv);
    if (!(r >= 1.0f / 16.0f)) r = 1.0f / 16.0f;
    if (!(r <= 16.0f)) r = 16.0f;
    const float x = SC_FSQRT(SC_FMUL((float)T, r));
    uint32_t nx = x >= (float)T ? T : (uint32_t)x;
    if (nx < 1u) nx = 1u;
    *gx = nx;
    *gy = T / nx;
}

/* The view holding tile id `tile` of a fitted grid (SC_SHADOW_MAX_VIEWS: none). */
SC_HD static inline uint32_t sc_shadow_view_of_tile(const sc_shadow_grid *g, uint32_t tile)
{
    for (uint32_t k = 0; k < SC_SHADOW_MAX_VIEWS; ++k) {
        const sc_shadow_view *vw = &g->views[k];
        if (vw->active && tile >= vw->base && tile - vw->base < vw->gx * vw->gy) return k;
    }
    return SC_SHADOW_MAX_VIEWS;
}

/* The views of a light's grid from its receivers' bounds. */
SC_HD static inline void sc_shadow_grid_fit(sc_shadow_grid *g, const sc_shadow_bounds *b)
{
    uint32_t views = 0, base = 0;
    for (int k = 0; k < SC_SHADOW_MAX_VIEWS; ++k) views += b->count[k] > 0;
    const uint32_t share = views ? g->num_tiles / views : 0;
    for (int k = 0; k < SC_SHADOW_MAX_VIEWS; ++k) {
        sc_shadow_view *vw = &g->views[k];
        vw->active = b->count[k] > 0;
        if (!vw->active) continue;
        vw->u0 = b->u0[k]; vw->u1 = b->u1[k];
        vw->v0 = b->v0[k]; vw->v1 = b->v1[k];
        const float du = SC_FSUB(vw->u1, vw->u0), dv = SC_FSUB(vw->v1, vw->v0);
        sc_shadow_view_tiles(du, dv, share, &vw->gx, &vw->gy);
        vw->base = base;
        base += vw->gx * vw->gy;
        vw->su = du > 0.0f && du < INFINITY ? SC_FDIV((float)vw->gx, du) : 0.0f;
        vw->sv = dv > 0.0f && dv < INFINITY ? SC_FDIV((float)vw->gy, dv) : 0.0f;
        if (!(vw->su < INFINITY)) vw->su = 0.0f;
        if (!(vw->sv < INFINITY)) vw->sv = 0.0f;
        vw->w_lo = b->w0[k];
        vw->w_hi = b->w1[k];
        vw->ext = b->ext[k];
        vw->uv_max = sc_maxf_s(sc_maxf_s(sc_absf(vw->u0), sc_absf(vw->u1)), sc_maxf_s(sc_absf(vw->v0), sc_absf(vw->v1)));
        for (int i = 0; i < 3; ++i) {
            vw->box0[i] = b->box0[i][k];
            vw->box1[i] = b->box1[i][k];
        }
        vw->wc = SC_FMUL(0.5f, SC_FMUL(SC_FSUB(1.0f, SC_SHADOW_TMAX_POINT), b->w0[k]));
    }
}

#endif /* SC_SHADOW_H */
