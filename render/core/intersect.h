/* intersect.h - watertight ray-triangle intersection (Woop, Benthin, Wald: "Watertight
 * Ray/Triangle Intersection", JCGT 2013) and the back-face predicate, as inline functions for the
 * CPU backend, the brute-force reference and CUDA kernels alike (internal).
 *
 * Every float operation goes through the SC_F* macros (sc_hd.h): correctly rounded, never fused,
 * so host and device give bit-identical hits. Edge functions that come out exactly 0 are redone in
 * double, as the paper does, so rays through shared edges and vertices hit exactly one side. */
#ifndef SC_INTERSECT_H
#define SC_INTERSECT_H

#include <stdint.h>

#include "sc_hd.h"

/* A ray prepared for the test: origin, permuted axes and shear constants. */
typedef struct sc_ray {
    float org[3];
    int kx, ky, kz;
    float sx, sy, sz;
} sc_ray;

SC_HD static inline float sc_absf(float a) { return a < 0.0f ? -a : a; }

/* v[k] for k in 0 .. 2, as selects: a GPU thread indexing its own small array by a runtime k would
 * put the array in local memory. */
SC_HD static inline float sc_pick3(const float v[3], int k) { return k == 0 ? v[0] : (k == 1 ? v[1] : v[2]); }

SC_HD static inline void sc_ray_setup(sc_ray *r, const float org[3], const float dir[3])
{
    float ax = sc_absf(dir[0]), ay = sc_absf(dir[1]), az = sc_absf(dir[2]);
    int kz = (ax >= ay && ax >= az) ? 0 : (ay >= az ? 1 : 2);
    int kx = kz + 1 == 3 ? 0 : kz + 1;
    int ky = kx + 1 == 3 ? 0 : kx + 1;
    const float dz = sc_pick3(dir, kz);
    if (dz < 0.0f) { int t = kx; kx = ky; ky = t; } /* keep the winding */
    r->org[0] = org[0]; r->org[1] = org[1]; r->org[2] = org[2];
    r->kx = kx; r->ky = ky; r->kz = kz;
    r->sx = SC_FDIV(sc_pick3(dir, kx), dz);
    r->sy = SC_FDIV(sc_pick3(dir, ky), dz);
    r->sz = SC_FDIV(1.0f, dz);
}

/* The test in parts, so a kernel can stage triangles already moved to the ray origin and permuted
 * along the ray's axes, and interleave rays; sc_intersect below is exactly their composition.
 * A triangle as the test sees it: vertices minus the ray origin, picked along the ray's kx, ky, kz. */
typedef struct sc_tri_axes {
    float akx, aky, akz, bkx, bky, bkz, ckx, cky, ckz;
} sc_tri_axes;

/* The sheared 2D vertices and the edge functions U, V, W. */
typedef struct sc_edges {
    float Ax, Ay, Bx, By, Cx, Cy, U, V, W;
} sc_edges;

SC_HD static inline void sc_edges_compute(float sx, float sy, const sc_tri_axes *q, sc_edges *e)
{
    e->Ax = SC_FSUB(q->akx, SC_FMUL(sx, q->akz));
    e->Ay = SC_FSUB(q->aky, SC_FMUL(sy, q->akz));
    e->Bx = SC_FSUB(q->bkx, SC_FMUL(sx, q->bkz));
    e->By = SC_FSUB(q->bky, SC_FMUL(sy, q->bkz));
    e->Cx = SC_FSUB(q->ckx, SC_FMUL(sx, q->ckz));
    e->Cy = SC_FSUB(q->cky, SC_FMUL(sy, q->ckz));
    e->U = SC_FDIFF_PROD(e->Cx, e->By, e->Cy, e->Bx);
    e->V = SC_FDIFF_PROD(e->Ax, e->Cy, e->Ay, e->Cx);
    e->W = SC_FDIFF_PROD(e->Bx, e->Ay, e->By, e->Ax);
}

/* An edge function came out exactly 0: the ray passes through an edge or vertex (or nearly). */
SC_HD static inline int sc_edges_zero(const sc_edges *e)
{
    return e->U == 0.0f || e->V == 0.0f || e->W == 0.0f;
}

/* Redoes all three edge functions in double, as the paper does for exact zeros. */
SC_HD static inline void sc_edges_exact(sc_edges *e)
{
    double cxby = SC_DMUL((double)e->Cx, (double)e->By), cybx = SC_DMUL((double)e->Cy, (double)e->Bx);
    double axcy = SC_DMUL((double)e->Ax, (double)e->Cy), aycx = SC_DMUL((double)e->Ay, (double)e->Cx);
    double bxay = SC_DMUL((double)e->Bx, (double)e->Ay), byax = SC_DMUL((double)e->By, (double)e->Ax);
    e->U = (float)SC_DSUB(cxby, cybx);
    e->V = (float)SC_DSUB(axcy, aycx);
    e->W = (float)SC_DSUB(bxay, byax);
}

/* The sign test: not (some edge function < 0 and some > 0). A zero of either sign is neither. */
SC_HD static inline int sc_edges_inside(const sc_edges *e)
{
    return !((e->U < 0.0f || e->V < 0.0f || e->W < 0.0f) && (e->U > 0.0f || e->V > 0.0f || e->W > 0.0f));
}

/* For a triangle that passed the sign test: the determinant and the hit distance; 0 when the
 * determinant is zero or NaN or t lies outside [tmin, tmax] (NaN too). u = V / det, v = W / det. */
SC_HD static inline int sc_edges_depth(float sz, const sc_tri_axes *q, const sc_edges *e, float tmin, float tmax,
                                       float *t_out, float *det_out)
{
    float det = SC_FADD(SC_FADD(e->U, e->V), e->W);
    if (!(det != 0.0f)) return 0;
    float Az = SC_FMUL(sz, q->akz);
    float Bz = SC_FMUL(sz, q->bkz);
    float Cz = SC_FMUL(sz, q->ckz);
    float T = SC_FADD(SC_FADD(SC_FMUL(e->U, Az), SC_FMUL(e->V, Bz)), SC_FMUL(e->W, Cz));
    float t = SC_FDIV(T, det);
    if (!(t >= tmin && t <= tmax)) return 0;
    *t_out = t;
    *det_out = det;
    return 1;
}

/* Tests triangle (a, b, c). On a hit with tmin <= t <= tmax returns 1 and writes t and the
 * barycentric weights u of b and v of c. Degenerate and edge-on triangles are never hit. Both
 * faces are hit (culling is the caller's, see sc_tri_backfacing). NaN coordinates never hit. */
SC_HD static inline int sc_intersect(const sc_ray *r, const float *a, const float *b, const float *c,
                                     float tmin, float tmax, float *t_out, float *u_out, float *v_out)
{
    const int kx = r->kx, ky = r->ky, kz = r->kz;
    float A[3], B[3], C[3];
    for (int i = 0; i < 3; ++i) {
        A[i] = SC_FSUB(a[i], r->org[i]);
        B[i] = SC_FSUB(b[i], r->org[i]);
        C[i] = SC_FSUB(c[i], r->org[i]);
    }
    const sc_tri_axes q = {sc_pick3(A, kx), sc_pick3(A, ky), sc_pick3(A, kz), sc_pick3(B, kx), sc_pick3(B, ky),
                           sc_pick3(B, kz), sc_pick3(C, kx), sc_pick3(C, ky), sc_pick3(C, kz)};
    sc_edges e;
    sc_edges_compute(r->sx, r->sy, &q, &e);
    if (sc_edges_zero(&e)) sc_edges_exact(&e);
    if (!sc_edges_inside(&e)) return 0;
    float t, det;
    if (!sc_edges_depth(r->sz, &q, &e, tmin, tmax, &t, &det)) return 0;
    *t_out = t;
    *u_out = SC_FDIV(e.V, det);
    *v_out = SC_FDIV(e.W, det);
    return 1;
}

/* Nonzero when triangle (a, b, c) faces away from the eye or is seen edge-on (its geometric normal
 * (b - a) x (c - a) points away from eye - a, or is zero): such triangles are dropped when back
 * faces are culled. Front faces are counter-clockwise as seen from the eye. */
SC_HD static inline int sc_tri_backfacing(const float *eye, const float *a, const float *b, const float *c)
{
    float e1[3], e2[3], d[3];
    for (int i = 0; i < 3; ++i) {
        e1[i] = SC_FSUB(b[i], a[i]);
        e2[i] = SC_FSUB(c[i], a[i]);
        d[i] = SC_FSUB(eye[i], a[i]);
    }
    float nx = SC_FDIFF_PROD(e1[1], e2[2], e1[2], e2[1]);
    float ny = SC_FDIFF_PROD(e1[2], e2[0], e1[0], e2[2]);
    float nz = SC_FDIFF_PROD(e1[0], e2[1], e1[1], e2[0]);
    float dot = SC_FADD(SC_FADD(SC_FMUL(nx, d[0]), SC_FMUL(ny, d[1])), SC_FMUL(nz, d[2]));
    return !(dot > 0.0f);
}

/* Better hit: nearer, or as near with a lower triangle id. */
SC_HD static inline int sc_hit_better(float t, uint32_t tri, float best_t, uint32_t best_tri)
{
    return t < best_t || (t == best_t && tri < best_tri);
}

#endif /* SC_INTERSECT_H */
