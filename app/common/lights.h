/* lights.h - the program's lights (sc_light_desc): the default light placed from the model's
 * framing, --light's values, and moving a light around the model (the viewer's Ctrl+Left drag).
 * Shared by slabcast and slabcast-bench, so both put the default light in the same place. */
#ifndef SLABCAST_APP_LIGHTS_H
#define SLABCAST_APP_LIGHTS_H

#include <stdio.h>

#include "slabcast.h"

/* The default light's distance from the framing centre, in framing radii. */
#define APP_DEFAULT_LIGHT_RADII 3.0f
/* --light's coordinates stay within +-this: squared distances between the light and the model then
 * stay finite floats (1e36 < FLT_MAX), whatever the renderer computes from them. */
#define APP_MAX_LIGHT_COORD 1e18

/* The default light: a point light at center + APP_DEFAULT_LIGHT_RADII x radius x normalize(1, 2, 1),
 * center and radius the model's framing (app_orbit: its bounding box's centre and radius). Above the
 * model and to its front right as the program frames it, far enough that the whole model is lit and
 * near enough that its shadows show perspective. */
sc_light_desc app_default_light(const float center[3], float radius);

/* --light's value: "x,y,z" a point light there, "dir:x,y,z" a directional light travelling along
 * (x, y, z) (not 0); each coordinate a plain decimal number within +-APP_MAX_LIGHT_COORD. Fills
 * *out (colour and intensity 0: the renderer's defaults). 0, or -1 after one line on err
 * ("<program>: <opt> '<value>': <problem>; valid: ..."). */
int app_parse_light_value(FILE *err, const char *program, const char *opt, const char *v, sc_light_desc *out);

/* Moves a light around center the way the camera orbits its target (yaw about world y, pitch
 * towards the poles, radians; pitch kept within +-89 degrees): a point light on the sphere of its
 * distance from center (none at center: it stays), a directional light's direction turned the same
 * way as the point it comes from. */
void app_light_orbit(sc_light_desc *light, const float center[3], float dyaw, float dpitch);

/* "point (x, y, z)" or "directional (x, y, z)" (the way it travels), for the HUD and headless runs. */
void app_light_format(const sc_light_desc *light, char *buf, size_t size);

#endif
