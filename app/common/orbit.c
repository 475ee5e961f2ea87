/* orbit.c - orbit camera, mesh bounds and framing. */
#include "orbit.h"

#include <float.h>
#include <math.h>

/* The largest centre magnitude and radius app_orbit_frame keeps: the camera goes at most about
 * 2600 radii from the centre (zoomed out), which must stay a finite float. */
#define APP_FRAME_MAX_CENTER 1e34
#define APP_FRAME_MAX_RADIUS 1e34
#define APP_FRAME_MIN_RADIUS 1e-30

static int vertex_finite(const float *p)
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

uint64_t app_bounds(const float *p, uint32_t n, const uint32_t *idx, uint32_t tris, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; ++k) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    uint64_t used = 0;
    for (uint32_t t = 0; p && idx && t < tris; ++t) {
        const uint32_t *tri = idx + 3 * (size_t)t;
        if (tri[0] >= n || tri[1] >= n || tri[2] >= n) continue;
        const float *v[3] = {p + 3 * (size_t)tri[0], p + 3 * (size_t)tri[1], p + 3 * (size_t)tri[2]};
        if (!vertex_finite(v[0]) || !vertex_finite(v[1]) || !vertex_finite(v[2])) continue;
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) {
                double x = v[j][k];
                if (x < lo[k]) lo[k] = x;
                if (x > hi[k]) hi[k] = x;
            }
        ++used;
    }
    if (used == 0)
        for (int k = 0; k < 3; ++k) {
            lo[k] = -1.0;
            hi[k] = 1.0;
        }
    return used;
}

static double clamp_abs(double x, double limit) { return x > limit ? limit : (x < -limit ? -limit : x); }

/* Centre and radius of a box, in double (no overflow: float-range inputs, and the squares of
 * half-extents below 1e77 fit a double). */
static double box_center_radius(const double lo[3], const double hi[3], double c[3])
{
    double r2 = 0.0;
    for (int k = 0; k < 3; ++k) {
        c[k] = 0.5 * lo[k] + 0.5 * hi[k];
        double e = 0.5 * hi[k] - 0.5 * lo[k];
        r2 += e * e;
    }
    return sqrt(r2);
}

void app_orbit_frame(const double lo[3], const double hi[3], app_orbit *o)
{
    double c[3];
    double r = box_center_radius(lo, hi, c);
    for (int k = 0; k < 3; ++k) o->center[k] = (float)clamp_abs(isfinite(c[k]) ? c[k] : 0.0, APP_FRAME_MAX_CENTER);
    if (!(r > 0.0) || !isfinite(r)) r = 1.0;
    if (r > APP_FRAME_MAX_RADIUS) r = APP_FRAME_MAX_RADIUS;
    if (r < APP_FRAME_MIN_RADIUS) r = APP_FRAME_MIN_RADIUS;
    o->radius = (float)r;
    o->fovy = 0.7853982f; /* 45 degrees */
    o->yaw = 0.6f;
    o->pitch = 0.35f;
    /* The bounding sphere of the box just fits the vertical field of view. */
    o->distance = 1.0f / sinf(0.5f * o->fovy);
}

void app_fit_mesh(float *p, uint32_t n, const uint32_t *idx, uint32_t tris, app_orbit *orbit, app_fit *fit)
{
    app_fit local = {0};
    double lo[3], hi[3], c[3];
    uint64_t used = app_bounds(p, n, idx, tris, lo, hi);
    double r = box_center_radius(lo, hi, c);
    local.radius = r;
    const double big = ldexp(1.0, APP_FIT_LOG2), small = ldexp(1.0, -APP_FIT_LOG2);
    double r_eff = r > 0.0 ? r : 1.0;
    int comfortable = r_eff >= small && r_eff <= big;
    for (int k = 0; k < 3; ++k)
        comfortable = comfortable && fabs(c[k]) <= big && fabs(c[k]) <= ldexp(r_eff, APP_FIT_CENTER_LOG2);
    if (!comfortable && used > 0) {
        int e = 0;
        if (r > 0.0) (void)frexp(r, &e); /* r = m 2^e, m in [0.5, 1): the moved radius is m */
        double s = ldexp(1.0, -e);
        for (size_t i = 0; i < (size_t)n * 3; ++i) {
            if (!isfinite(p[i])) continue; /* unused (app_bounds skipped it); left for the renderer */
            p[i] = (float)clamp_abs(((double)p[i] - c[i % 3]) * s, FLT_MAX);
        }
        for (int k = 0; k < 3; ++k) {
            local.offset[k] = c[k];
            lo[k] = (lo[k] - c[k]) * s;
            hi[k] = (hi[k] - c[k]) * s;
        }
        local.moved = 1;
        local.scale_log2 = -e;
    }
    app_orbit_frame(lo, hi, orbit);
    if (fit) *fit = local;
}

void app_orbit_rotate(app_orbit *o, float dyaw, float dpitch)
{
    o->yaw = fmodf(o->yaw + dyaw, 6.2831853f);
    o->pitch += dpitch;
    if (o->pitch > 1.55f) o->pitch = 1.55f;
    if (o->pitch < -1.55f) o->pitch = -1.55f;
}

void app_orbit_zoom(app_orbit *o, float factor)
{
    o->distance *= factor;
    if (o->distance < 0.05f) o->distance = 0.05f;
    if (o->distance > 1000.0f) o->distance = 1000.0f;
}

sc_camera_desc app_orbit_camera(const app_orbit *o)
{
    sc_camera_desc c = {0};
    float d = o->distance * o->radius;
    float cp = cosf(o->pitch);
    c.eye[0] = o->center[0] + d * cp * sinf(o->yaw);
    c.eye[1] = o->center[1] + d * sinf(o->pitch);
    c.eye[2] = o->center[2] + d * cp * cosf(o->yaw);
    for (int k = 0; k < 3; ++k) c.target[k] = o->center[k];
    c.up[1] = 1.0f;
    c.fovy = o->fovy;
    /* Deformation may move vertices up to about half a radius outwards. */
    float reach = 1.6f * o->radius;
    c.near_plane = d > reach ? (d - reach) * 0.5f : 0.001f * o->radius;
    if (c.near_plane < 1e-4f * o->radius) c.near_plane = 1e-4f * o->radius;
    c.far_plane = d + reach * 2.0f;
    return c;
}
