/* mesh_default.c - the built-in mesh: a closed tube around a (2,3) torus knot (a trefoil), with
 * 2 * res rings of res vertices, 4 * res^2 triangles, periodic in both directions (a closed
 * 2-manifold: every edge is shared by exactly two triangles). The tube follows the knot with the
 * Frenet frame, which is periodic because the knot's curvature never vanishes. Counter-clockwise
 * faces point outwards. Unit-ish radius, centred at the origin. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_tuning.h"
#include "sc_mesh.h"
#include "sc_report.h"


static const double KNOT_P = 2.0, KNOT_Q = 3.0;
static const double KNOT_SCALE = 1.0 / 3.0;  /* the curve's radius is at most 3 */
static const double TUBE_RADIUS = 0.4 / 3.0;
static const double TWO_PI = 6.283185307179586476925;

static void knot_point(double phi, double out[3])
{
    double r = cos(KNOT_Q * phi) + 2.0;
    out[0] = KNOT_SCALE * r * cos(KNOT_P * phi);
    out[1] = KNOT_SCALE * r * sin(KNOT_P * phi);
    out[2] = -KNOT_SCALE * sin(KNOT_Q * phi);
}

static void normalize_d(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= l; v[1] /= l; v[2] /= l;
}

sc_status sc_mesh_default(uint32_t res, sc_mesh *out)
{
    if (!out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_default: out must not be NULL");
    memset(out, 0, sizeof *out);
    if (res == 0) res = SC_DEFAULT_MESH_RESOLUTION;
    if (res < 3 || res > SC_DEFAULT_MESH_MAX_RES)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_default: resolution %u is not in 3..%d", res,
                       SC_DEFAULT_MESH_MAX_RES);
    const uint32_t rings = 2 * res, around = res;
    const size_t nv = (size_t)rings * around, nt = 2 * nv;
    out->positions = malloc(nv * 3 * sizeof(float));
    out->indices = malloc(nt * 3 * sizeof(uint32_t));
    if (!out->positions || !out->indices) {
        sc_mesh_free(out);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_mesh_default: out of host memory for %zu triangles", nt);
    }
    const double h = 1e-4;
    for (uint32_t i = 0; i < rings; ++i) {
        double phi = TWO_PI * (double)i / (double)rings;
        double c[3], cp[3], cm[3];
        knot_point(phi, c);
        knot_point(phi + h, cp);
        knot_point(phi - h, cm);
        double t[3], n[3], b[3];
        for (int k = 0; k < 3; ++k) {
            t[k] = (cp[k] - cm[k]) / (2.0 * h);
            n[k] = (cp[k] - 2.0 * c[k] + cm[k]) / (h * h);
        }
        normalize_d(t);
        double tn = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
        for (int k = 0; k < 3; ++k) n[k] -= tn * t[k];
        normalize_d(n);
        b[0] = t[1] * n[2] - t[2] * n[1];
        b[1] = t[2] * n[0] - t[0] * n[2];
        b[2] = t[0] * n[1] - t[1] * n[0];
        for (uint32_t j = 0; j < around; ++j) {
            double th = TWO_PI * (double)j / (double)around;
            float *v = out->positions + 3 * ((size_t)i * around + j);
            for (int k = 0; k < 3; ++k) v[k] = (float)(c[k] + TUBE_RADIUS * (cos(th) * n[k] + sin(th) * b[k]));
        }
    }
    /* Quad (i, j): a = (i, j), b = (i+1, j), c = (i+1, j+1), d = (i, j+1). The ring angle turns
     * from n towards t x n, so (a, d, c) and (a, c, b) have normal (d/dtheta) x t = outwards. */
    uint32_t *f = out->indices;
    for (uint32_t i = 0; i < rings; ++i) {
        uint32_t i1 = i + 1 == rings ? 0 : i + 1;
        for (uint32_t j = 0; j < around; ++j) {
            uint32_t j1 = j + 1 == around ? 0 : j + 1;
            uint32_t a = i * around + j, b = i1 * around + j, c = i1 * around + j1, d = i * around + j1;
            f[0] = a; f[1] = d; f[2] = c;
            f[3] = a; f[4] = c; f[5] = b;
            f += 6;
        }
    }
    out->vertex_count = (uint32_t)nv;
    out->triangle_count = (uint32_t)nt;
    return SC_OK;
}
