/* orbit.h - an orbit camera around the mesh's bounding sphere (yaw, pitch, distance). */
#ifndef SLABCAST_APP_ORBIT_H
#define SLABCAST_APP_ORBIT_H

#include "slabcast.h"

typedef struct app_orbit {
    float center[3];
    float radius;        /* bounding radius of the mesh, > 0 */
    float yaw, pitch;    /* radians; pitch clamped to (-1.55, 1.55) */
    float distance;      /* from center, in units of radius, >= 0.05 */
    float fovy;          /* radians */
} app_orbit;

/* Frames the bounding box [lo, hi]: centre, radius, a 3/4 view from the front, whole box in view. */
void app_orbit_frame(const float lo[3], const float hi[3], app_orbit *out);
void app_orbit_rotate(app_orbit *o, float dyaw, float dpitch);
void app_orbit_zoom(app_orbit *o, float factor); /* distance *= factor */
/* The camera: eye on the sphere of radius distance*radius, looking at center; near/far from the
 * distance so the whole mesh lies inside (near shrinks when the eye is inside the bounds). */
sc_camera_desc app_orbit_camera(const app_orbit *o);
/* Bounding box of vertex_count x 3 positions; an empty mesh gives the unit box. */
void app_bounds(const float *positions, uint32_t vertex_count, float lo[3], float hi[3]);

#endif
