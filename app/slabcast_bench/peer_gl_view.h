/* peer_gl_view.h - the camera of the OpenGL peers (peer_gl_raster.c, peer_gl_shadowmap.c) as the ray
 * caster builds it, so that a triangle GL draws covers the pixels whose rays hit it:
 *  - view basis: forward = normalize(target - eye), right = normalize(forward x up),
 *    up' = right x forward, computed in double and rounded to float, as the front end does
 *    (render/api/resolve.c, view_basis / sc_camera_frame_params); a vertex shader takes d = p - eye and
 *    its view coordinates X = d.right, Y = d.up', w = d.forward (w is the ray caster's hit depth t);
 *  - scale: proj_y = 1 / tanf(fovy / 2), proj_x = proj_y / (width / height), in float as ours;
 *    clip x = proj_x X, y = proj_y Y, clip w = w, so NDC (proj_x X / w, proj_y Y / w) is the
 *    (ndc_x, ndc_y) of sc_pixel_ray_dir (render/core/sc_frame.h);
 *  - pixels: viewport (0, 0, width, height); GL samples a pixel at its centre (x + 0.5, y + 0.5),
 *    row 0 at the bottom, where the ray caster sends the pixel's ray;
 *  - depth: reversed Z for glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE): clip z = proj[2] w + proj[3],
 *    depth n (f - w) / (w (f - n)): 1 at the near plane, 0 at the far one (cleared to 0, test
 *    GL_GREATER). GL clips at exactly the camera's near and far planes, where the ray caster accepts
 *    hits near <= t <= far. A float depth of n / w resolves w to about 2^-24 of itself at any distance,
 *    so the camera's own near and far serve, even the default 0.01 .. 1000.
 * Header-only (static functions): no GL, no CUDA. */
#ifndef SLABCAST_BENCH_PEER_GL_VIEW_H
#define SLABCAST_BENCH_PEER_GL_VIEW_H

#include <math.h>
#include <stdint.h>

#include "slabcast.h"

/* The camera as a vertex shader takes it. */
typedef struct peer_gl_view {
    float eye[3], right[3], up[3], forward[3];
    float proj[4];                   /* proj_x, proj_y, and the depth: clip z = proj[2] * w + proj[3] */
} peer_gl_view;

/* The camera's defaults as sc_renderer_set_camera resolves them (slabcast.h). */
static inline sc_camera_desc peer_gl_camera_defaults(const sc_camera_desc *in)
{
    sc_camera_desc c = *in;
    if (c.up[0] == 0.0f && c.up[1] == 0.0f && c.up[2] == 0.0f) c.up[1] = 1.0f;
    if (c.fovy == 0.0f) c.fovy = (float)(60.0 * 3.14159265358979323846 / 180.0);
    if (c.near_plane == 0.0f) c.near_plane = 0.01f;
    if (c.far_plane == 0.0f) c.far_plane = 1000.0f;
    return c;
}

static inline double peer_gl_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline void peer_gl_cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The view of `camera` (zero fields: defaults) on a width x height target, as the ray caster builds
 * it. 0 when it has no view (eye == target, up along the view, near/far out of order), which
 * sc_renderer_set_camera rejects too. */
static inline int peer_gl_view_of(const sc_camera_desc *camera, uint32_t width, uint32_t height, peer_gl_view *v)
{
    const sc_camera_desc c = peer_gl_camera_defaults(camera);
    double fwd[3], u[3], right[3], up[3];
    for (int i = 0; i < 3; ++i) {
        fwd[i] = (double)c.target[i] - (double)c.eye[i];
        u[i] = c.up[i];
    }
    const double dl = sqrt(peer_gl_dot(fwd, fwd)), ul = sqrt(peer_gl_dot(u, u));
    if (!(dl > 0.0) || !(ul > 0.0) || !(c.near_plane > 0.0f && c.far_plane > c.near_plane)) return 0;
    for (int i = 0; i < 3; ++i) fwd[i] /= dl;
    peer_gl_cross(fwd, u, right);
    const double rl = sqrt(peer_gl_dot(right, right));
    if (!(rl > 1e-6 * ul)) return 0;
    for (int i = 0; i < 3; ++i) right[i] /= rl;
    peer_gl_cross(right, fwd, up);
    for (int i = 0; i < 3; ++i) {
        v->eye[i] = c.eye[i];
        v->right[i] = (float)right[i];
        v->up[i] = (float)up[i];
        v->forward[i] = (float)fwd[i];
    }
    const float f = 1.0f / tanf(c.fovy * 0.5f);
    v->proj[0] = f / ((float)width / (float)height);
    v->proj[1] = f;
    /* Reversed Z: depth = (A w + B) / w is 1 at w = near, 0 at w = far. */
    const double n = c.near_plane, fa = c.far_plane;
    v->proj[2] = (float)(-n / (fa - n));
    v->proj[3] = (float)(n * fa / (fa - n));
    return 1;
}

#endif
