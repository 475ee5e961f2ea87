/* orbit.h - an orbit camera around the mesh's bounding sphere (yaw, pitch, distance), and the
 * bounds and framing of a mesh of any finite extent. */
#ifndef SLABCAST_APP_ORBIT_H
#define SLABCAST_APP_ORBIT_H

#include "slabcast.h"

typedef struct app_orbit {
    float center[3];
    float radius;        /* bounding radius of the mesh, > 0 */
    float yaw, pitch;    /* radians; pitch clamped to (-1.55, 1.55) */
    float distance;      /* from center, in units of radius, 0.05 .. 1000 */
    float fovy;          /* radians */
} app_orbit;

/* Frames the bounding box [lo, hi] (finite, lo <= hi): centre, radius, a 3/4 view from the front,
 * whole box in view. Computed in double; a box whose centre or radius does not fit a float is
 * clamped to the float range (app_fit_mesh keeps boxes well inside it). An empty box (radius 0)
 * gets radius 1. */
void app_orbit_frame(const double lo[3], const double hi[3], app_orbit *out);
void app_orbit_rotate(app_orbit *o, float dyaw, float dpitch);
void app_orbit_zoom(app_orbit *o, float factor); /* distance *= factor */
/* The camera: eye on the sphere of radius distance*radius, looking at center; near/far from the
 * distance so the whole mesh lies inside (near shrinks when the eye is inside the bounds). */
sc_camera_desc app_orbit_camera(const app_orbit *o);

/* Bounding box, in double, of the vertices that triangles use: triangles with an out-of-range
 * index or a non-finite vertex are skipped (renderers and loaders drop them), unused vertices do
 * not count. Returns the number of triangles counted; 0 leaves the unit box [-1, 1]^3. */
uint64_t app_bounds(const float *positions, uint32_t vertex_count, const uint32_t *indices,
                    uint32_t triangle_count, double lo[3], double hi[3]);

/* A box is comfortable for float rendering when its radius lies in [2^-APP_FIT_LOG2,
 * 2^APP_FIT_LOG2] and each coordinate of its centre within 2^APP_FIT_LOG2 of 0 and within
 * 2^APP_FIT_CENTER_LOG2 radii of 0: then the camera (at most about 2600 radii from the centre),
 * depths and ray-triangle products (cubes of lengths) stay far from float overflow and underflow,
 * and the camera's offset from the centre is far above the centre's float spacing. */
#define APP_FIT_LOG2 24
#define APP_FIT_CENTER_LOG2 10

/* How app_fit_mesh moved the mesh: new = (old - offset) * 2^scale_log2. */
typedef struct app_fit {
    int moved;           /* 0: positions untouched */
    double offset[3];
    int scale_log2;
    double radius;       /* the bounding radius before the move */
} app_fit;

/* Frames the mesh (app_bounds, then app_orbit_frame). When the box is not comfortable (above), it
 * first moves the positions in place, in double: the centre to the origin, the radius scaled by a
 * power of two near 1 (exact in float), finite results clamped to the float range. The image is
 * the same up to rounding, since the camera and the deformations are relative to the bounds.
 * Returns what was done in *fit (may be NULL). */
void app_fit_mesh(float *positions, uint32_t vertex_count, const uint32_t *indices, uint32_t triangle_count,
                  app_orbit *orbit, app_fit *fit);

#endif
