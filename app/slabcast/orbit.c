/* orbit.c - orbit camera. */
#include "orbit.h"

#include <math.h>

void app_bounds(const float *p, uint32_t n, float lo[3], float hi[3])
{
    if (n == 0) {
        for (int k = 0; k < 3; ++k) { lo[k] = -1.0f; hi[k] = 1.0f; }
        return;
    }
    for (int k = 0; k < 3; ++k) lo[k] = hi[k] = p[k];
    for (uint32_t i = 1; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            float v = p[3 * i + k];
            if (v < lo[k]) lo[k] = v;
            if (v > hi[k]) hi[k] = v;
        }
}

void app_orbit_frame(const float lo[3], const float hi[3], app_orbit *o)
{
    float r2 = 0.0f;
    for (int k = 0; k < 3; ++k) {
        o->center[k] = 0.5f * (lo[k] + hi[k]);
        float e = 0.5f * (hi[k] - lo[k]);
        r2 += e * e;
    }
    o->radius = r2 > 0.0f ? sqrtf(r2) : 1.0f;
    o->fovy = 0.7853982f; /* 45 degrees */
    o->yaw = 0.6f;
    o->pitch = 0.35f;
    /* The bounding sphere of the box just fits the vertical field of view. */
    o->distance = 1.0f / sinf(0.5f * o->fovy);
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
