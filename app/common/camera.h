/* camera.h - the viewer's free camera: eye, target and field of view, moved by orbit, pan, zoom and
 * fly; near and far planes follow from the model's bounding sphere, so flying into the mesh works.
 * Lengths of every move are in units of the model's bounding radius (any model scale). */
#ifndef SLABCAST_APP_CAMERA_H
#define SLABCAST_APP_CAMERA_H

#include "orbit.h"
#include "slabcast.h"

#define APP_CAMERA_MIN_FOV_DEG 5.0f
#define APP_CAMERA_MAX_FOV_DEG 150.0f

typedef struct app_camera {
    float eye[3], target[3];
    float fovy;              /* radians */
    float center[3];         /* the model's bounding sphere (near/far, step lengths) */
    float radius;            /* > 0 */
} app_camera;

/* The camera of an orbit framing (eye, target, fov; the model's sphere). */
void app_camera_from_orbit(app_camera *c, const app_orbit *o);
/* Sets eye, target and the vertical field of view in degrees (the model's sphere stays). Returns 0,
 * or -1 when eye == target, a value is not finite or the fov is outside the range above. */
int app_camera_set(app_camera *c, const float eye[3], const float target[3], float fov_degrees);
/* Rotates the eye around the target (radians; pitch kept within +-89 degrees). */
void app_camera_orbit(app_camera *c, float dyaw, float dpitch);
/* Moves eye and target in the view plane; dx, dy in fractions of the view's height at the target. */
void app_camera_pan(app_camera *c, float dx, float dy);
/* Distance eye-target *= factor, kept within 0.001 .. 2000 radii. */
void app_camera_zoom(app_camera *c, float factor);
/* Moves eye and target along the view axes (right, up, forward), in radii. */
void app_camera_fly(app_camera *c, float right, float up, float forward);
/* Field of view += delta degrees, kept within the range above. */
void app_camera_add_fov(app_camera *c, float delta_degrees);
float app_camera_fov_degrees(const app_camera *c);
sc_camera_desc app_camera_desc(const app_camera *c);
/* Writes "--camera ex,ey,ez,tx,ty,tz,fov" (round-trip precision) to buf. */
void app_camera_format(const app_camera *c, char *buf, size_t size);

#endif
