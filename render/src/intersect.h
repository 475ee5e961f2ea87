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

SC_HD static inline void sc_ray_setup(sc_ray *r, const float org[3], const float dir[3])
{
    float ax = sc_absf(dir[0]), ay = sc_absf(dir[1]), az = sc_absf(dir[2]);
    int kz = (ax >= ay && ax >= az) ? 0 : (ay >= az ? 1 : 2);
    int kx = kz + 1 == 3 ? 0 : kz + 1;
    int ky = kx + 1 == 3 ? 0 : kx + 1;
    if (dir[kz] < 0.0f) { int t = kx; kx = ky; ky = t; } /* keep the winding */
    r->org[0] = org[0]; r->org[1] = org[1]; r->org[2] = org[2];
    r->kx = kx; r->ky = ky; r->kz = kz;
    r->sx = SC_FDIV(dir[kx], dir[kz]);
    r->sy = SC_FDIV(dir[ky], dir[kz]);
    r->sz = SC_FDIV(1.0f, dir[kz]);
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
    float Ax = SC_FSUB(A[kx], SC_FMUL(r->sx, A[kz]));
    float Ay = SC_FSUB(A[ky], SC_FMUL(r->sy, A[kz]));
    float Bx = SC_FSUB(B[kx], SC_FMUL(r->sx, B[kz]));
    float By = SC_FSUB(B[ky], SC_FMUL(r->sy, B[kz]));
    float Cx = SC_FSUB(C[kx], SC_FMUL(r->sx, C[kz]));
    float Cy = SC_FSUB(C[ky], SC_FMUL(r->sy, C[kz]));
    float U = SC_FDIFF_PROD(Cx, By, Cy, Bx);
    float V = SC_FDIFF_PROD(Ax, Cy, Ay, Cx);
    float W = SC_FDIFF_PROD(Bx, Ay, By, Ax);
    if (U == 0.0f || V == 0.0f || W == 0.0f) {
        double cxby = SC_DMUL((double)Cx, (double)By), cybx = SC_DMUL((double)Cy, (double)Bx);
        double axcy = SC_DMUL((double)Ax, (double)Cy), aycx = SC_DMUL((double)Ay, (double)Cx);
        double bxay = SC_DMUL((double)Bx, (double)Ay), byax = SC_DMUL((double)By, (double)Ax);
        U = (float)SC_DSUB(cxby, cybx);
        V = (float)SC_DSUB(axcy, aycx);
        W = (float)SC_DSUB(bxay, byax);
    }
    if ((U < 0.0f || V < 0.0f || W < 0.0f) && (U > 0.0f || V > 0.0f || W > 0.0f)) return 0;
    float det = SC_FADD(SC_FADD(U, V), W);
    if (!(det != 0.0f)) return 0; /* zero or NaN */
    float Az = SC_FMUL(r->sz, A[kz]);
    float Bz = SC_FMUL(r->sz, B[kz]);
    float Cz = SC_FMUL(r->sz, C[kz]);
    float T = SC_FADD(SC_FADD(SC_FMUL(U, Az), SC_FMUL(V, Bz)), SC_FMUL(W, Cz));
    float t = SC_FDIV(T, det);
    if (!(t >= tmin && t <= tmax)) return 0; /* also rejects NaN */
    *t_out = t;
    *u_out = SC_FDIV(V, det);
    *v_out = SC_FDIV(W, det);
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
