/* mesh_bounds.c - the rest mesh's bounds for the default view and the deformation, and the checks
 * of its arrays (mesh_bounds.h). */
#include "mesh_bounds.h"

#include <float.h>
#include <math.h>

#include "sc_report.h"

static int finite3(const float v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

/* Clamps a double into the finite float range. */
static float to_float_clamped(double v) { return v > FLT_MAX ? FLT_MAX : (v < -FLT_MAX ? -FLT_MAX : (float)v); }

/* Whether triangle t of the mesh has three finite vertices (indices checked). */
static int triangle_finite(const sc_mesh_data *m, uint32_t t)
{
    const uint32_t *f = m->indices + 3 * (size_t)t;
    return finite3(m->positions + 3 * (size_t)f[0]) && finite3(m->positions + 3 * (size_t)f[1]) &&
           finite3(m->positions + 3 * (size_t)f[2]);
}

/* Bounds of the vertices visited by mesh_visit (double: no finite input overflows them). */
typedef struct mesh_bounds_acc {
    double lo[3], hi[3];
    const double *center;  /* second pass: the centre, and the largest squared distance from it */
    double r2;
} mesh_bounds_acc;

static void bounds_visit(mesh_bounds_acc *acc, const float *q)
{
    if (!acc->center) {
        for (int k = 0; k < 3; ++k) {
            acc->lo[k] = q[k] < acc->lo[k] ? q[k] : acc->lo[k];
            acc->hi[k] = q[k] > acc->hi[k] ? q[k] : acc->hi[k];
        }
        return;
    }
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) d2 += ((double)q[k] - acc->center[k]) * ((double)q[k] - acc->center[k]);
    acc->r2 = d2 > acc->r2 ? d2 : acc->r2;
}

/* Visits the vertices of the kept triangles (those with three finite vertices); without a kept
 * triangle, every finite vertex. Returns the number of dropped triangles. */
static uint64_t mesh_visit(const sc_mesh_data *m, mesh_bounds_acc *acc)
{
    uint64_t kept = 0, dropped = 0;
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        if (!triangle_finite(m, t)) {
            ++dropped;
            continue;
        }
        ++kept;
        for (int j = 0; j < 3; ++j) bounds_visit(acc, m->positions + 3 * (size_t)m->indices[3 * (size_t)t + j]);
    }
    if (kept == 0)
        for (uint32_t v = 0; v < m->vertex_count; ++v)
            if (finite3(m->positions + 3 * (size_t)v)) bounds_visit(acc, m->positions + 3 * (size_t)v);
    return dropped;
}

/* Centre (of the bounding box) and radius (largest distance from it) of the vertices mesh_visit
 * visits; the unit sphere at the origin when there is none. The radius is clamped to the float
 * range. Returns the number of dropped triangles. */
uint64_t sc_mesh_bounds(const sc_mesh_data *m, float center[3], float *radius)
{
    mesh_bounds_acc acc = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}, NULL, 0.0};
    uint64_t dropped = mesh_visit(m, &acc);
    if (!(acc.lo[0] <= acc.hi[0])) { /* no finite vertex */
        center[0] = center[1] = center[2] = 0.0f;
        *radius = 1.0f;
        return dropped;
    }
    double c[3];
    for (int k = 0; k < 3; ++k) {
        c[k] = 0.5 * (acc.lo[k] + acc.hi[k]);
        center[k] = (float)c[k]; /* between two floats: in range */
        c[k] = center[k];        /* distances from the centre as stored */
    }
    acc.center = c;
    (void)mesh_visit(m, &acc);
    float R = to_float_clamped(sqrt(acc.r2));
    *radius = R > 0.0f ? R : 1.0f;
    return dropped;
}

sc_status sc_mesh_check(const sc_mesh_data *m, const char *call)
{
    if ((m->vertex_count && !m->positions) || (m->triangle_count && !m->indices))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL positions or indices with a nonzero count", call);
    for (uint64_t i = 0; i < 3 * (uint64_t)m->triangle_count; ++i)
        if (m->indices[i] >= m->vertex_count)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: triangle %llu has vertex index %u, but there are %u vertices",
                           call, (unsigned long long)(i / 3), m->indices[i], m->vertex_count);
    return SC_OK;
}
