/* camera.c - the viewer's free camera (see camera.h). */
#include "camera.h"

#include <math.h>
#include <stdio.h>

#define APP_PI 3.14159265f
#define APP_MAX_PITCH 1.5533f /* 89 degrees */

static float len3(const float v[3]) { return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

static void normalize3(float v[3])
{
    float l = len3(v);
    if (l > 0.0f)
        for (int k = 0; k < 3; ++k) v[k] /= l;
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The view basis: forward (eye to target), right and up; up is world y unless forward is vertical. */
static void basis(const app_camera *c, float fwd[3], float right[3], float up[3])
{
    for (int k = 0; k < 3; ++k) fwd[k] = c->target[k] - c->eye[k];
    normalize3(fwd);
    float world_up[3] = {0.0f, 1.0f, 0.0f};
    if (fabsf(fwd[1]) > 0.9999f) world_up[1] = 0.0f, world_up[2] = fwd[1] > 0 ? 1.0f : -1.0f;
    cross3(fwd, world_up, right);
    normalize3(right);
    cross3(right, fwd, up);
}

void app_camera_from_orbit(app_camera *c, const app_orbit *o)
{
    sc_camera_desc d = app_orbit_camera(o);
    for (int k = 0; k < 3; ++k) {
        c->eye[k] = d.eye[k];
        c->target[k] = d.target[k];
        c->center[k] = o->center[k];
    }
    c->fovy = o->fovy;
    c->radius = o->radius;
}

int app_camera_set(app_camera *c, const float eye[3], const float target[3], float fov_degrees)
{
    int same = 1;
    for (int k = 0; k < 3; ++k) {
        if (!isfinite(eye[k]) || !isfinite(target[k])) return -1;
        same = same && eye[k] == target[k];
    }
    if (same || !(fov_degrees >= APP_CAMERA_MIN_FOV_DEG && fov_degrees <= APP_CAMERA_MAX_FOV_DEG)) return -1;
    for (int k = 0; k < 3; ++k) {
        c->eye[k] = eye[k];
        c->target[k] = target[k];
    }
    c->fovy = fov_degrees * APP_PI / 180.0f;
    return 0;
}

void app_camera_orbit(app_camera *c, float dyaw, float dpitch)
{
    float off[3] = {c->eye[0] - c->target[0], c->eye[1] - c->target[1], c->eye[2] - c->target[2]};
    float r = len3(off);
    if (!(r > 0.0f)) return;
    float pitch = asinf(fmaxf(-1.0f, fminf(1.0f, off[1] / r))) + dpitch;
    float yaw = atan2f(off[0], off[2]) + dyaw;
    if (pitch > APP_MAX_PITCH) pitch = APP_MAX_PITCH;
    if (pitch < -APP_MAX_PITCH) pitch = -APP_MAX_PITCH;
    c->eye[0] = c->target[0] + r * cosf(pitch) * sinf(yaw);
    c->eye[1] = c->target[1] + r * sinf(pitch);
    c->eye[2] = c->target[2] + r * cosf(pitch) * cosf(yaw);
}

void app_camera_pan(app_camera *c, float dx, float dy)
{
    float fwd[3], right[3], up[3];
    basis(c, fwd, right, up);
    float d[3] = {c->target[0] - c->eye[0], c->target[1] - c->eye[1], c->target[2] - c->eye[2]};
    float h = 2.0f * len3(d) * tanf(0.5f * c->fovy); /* view height at the target */
    for (int k = 0; k < 3; ++k) {
        float m = (right[k] * dx + up[k] * dy) * h;
        c->eye[k] += m;
        c->target[k] += m;
    }
}

void app_camera_zoom(app_camera *c, float factor)
{
    float off[3] = {c->eye[0] - c->target[0], c->eye[1] - c->target[1], c->eye[2] - c->target[2]};
    float r = len3(off);
    if (!(r > 0.0f) || !(factor > 0.0f)) return;
    float want = r * factor;
    if (want < 0.001f * c->radius) want = 0.001f * c->radius;
    if (want > 2000.0f * c->radius) want = 2000.0f * c->radius;
    for (int k = 0; k < 3; ++k) c->eye[k] = c->target[k] + off[k] * (want / r);
}

void app_camera_fly(app_camera *c, float right_amount, float up_amount, float forward_amount)
{
    float fwd[3], right[3], up[3];
    basis(c, fwd, right, up);
    for (int k = 0; k < 3; ++k) {
        float m = (right[k] * right_amount + up[k] * up_amount + fwd[k] * forward_amount) * c->radius;
        c->eye[k] += m;
        c->target[k] += m;
    }
}

float app_camera_fov_degrees(const app_camera *c) { return c->fovy * 180.0f / APP_PI; }

void app_camera_add_fov(app_camera *c, float delta)
{
    float f = app_camera_fov_degrees(c) + delta;
    if (f < APP_CAMERA_MIN_FOV_DEG) f = APP_CAMERA_MIN_FOV_DEG;
    if (f > APP_CAMERA_MAX_FOV_DEG) f = APP_CAMERA_MAX_FOV_DEG;
    c->fovy = f * APP_PI / 180.0f;
}

sc_camera_desc app_camera_desc(const app_camera *c)
{
    sc_camera_desc d = {0};
    float fwd[3], right[3], up[3];
    basis(c, fwd, right, up);
    for (int k = 0; k < 3; ++k) {
        d.eye[k] = c->eye[k];
        d.target[k] = c->target[k];
        d.up[k] = up[k];
    }
    d.fovy = c->fovy;
    /* Near and far from the eye's distance to the model's sphere; deformation may move vertices
     * about half a radius outwards (as app_orbit_camera). */
    float to_center[3] = {c->center[0] - c->eye[0], c->center[1] - c->eye[1], c->center[2] - c->eye[2]};
    float dist = len3(to_center);
    float reach = 1.6f * c->radius;
    d.near_plane = dist > reach ? (dist - reach) * 0.5f : 0.001f * c->radius;
    if (d.near_plane < 1e-4f * c->radius) d.near_plane = 1e-4f * c->radius;
    d.far_plane = dist + reach * 2.0f;
    return d;
}

void app_camera_format(const app_camera *c, char *buf, size_t size)
{
    snprintf(buf, size, "--camera %.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", c->eye[0], c->eye[1], c->eye[2],
             c->target[0], c->target[1], c->target[2], app_camera_fov_degrees(c));
}
