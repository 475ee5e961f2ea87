/* lights.c - the default light, --light's values and moving a light around the model (see lights.h). */
#include "lights.h"

#include <math.h>
#include <string.h>

#include "camera.h"
#include "option_values.h"

sc_light_desc app_default_light(const float center[3], float radius)
{
    static const float k_dir[3] = {0.40824829f, 0.81649658f, 0.40824829f}; /* normalize(1, 2, 1) */
    sc_light_desc l;
    memset(&l, 0, sizeof l);
    l.type = SC_LIGHT_POINT;
    for (int k = 0; k < 3; ++k) l.position[k] = center[k] + APP_DEFAULT_LIGHT_RADII * radius * k_dir[k];
    return l;
}

int app_parse_light_value(FILE *err, const char *program, const char *opt, const char *v, sc_light_desc *out)
{
    char valid[160];
    snprintf(valid, sizeof valid,
             "x,y,z (a point light there) or dir:x,y,z (a directional light travelling along x,y,z, not 0); "
             "coordinates -%g .. %g", APP_MAX_LIGHT_COORD, APP_MAX_LIGHT_COORD);
    const int directional = strncmp(v, "dir:", 4) == 0;
    double x[3];
    char problem[64];
    if (app_parse_real_list(directional ? v + 4 : v, 3, -APP_MAX_LIGHT_COORD, APP_MAX_LIGHT_COORD, x, problem,
                            sizeof problem) != 0)
        return app_bad_value(err, program, opt, v, problem, valid);
    memset(out, 0, sizeof *out);
    out->type = directional ? SC_LIGHT_DIRECTIONAL : SC_LIGHT_POINT;
    float *dst = directional ? out->direction : out->position;
    for (int k = 0; k < 3; ++k) dst[k] = (float)x[k];
    /* A direction whose float components are all 0 (1e-50 too) has no way to travel. */
    if (directional && dst[0] == 0.0f && dst[1] == 0.0f && dst[2] == 0.0f)
        return app_bad_value(err, program, opt, v, "the direction is 0", valid);
    return 0;
}

/* The orbit is the camera's own (app_camera_orbit): the point orbited is a camera's eye looking at
 * the centre, so the light moves exactly as the view does under the same drag. */
static void orbit_point(float p[3], const float center[3], float dyaw, float dpitch)
{
    app_camera c;
    memset(&c, 0, sizeof c);
    for (int k = 0; k < 3; ++k) {
        c.eye[k] = p[k];
        c.target[k] = center[k];
    }
    app_camera_orbit(&c, dyaw, dpitch);
    for (int k = 0; k < 3; ++k) p[k] = c.eye[k];
}

void app_light_orbit(sc_light_desc *light, const float center[3], float dyaw, float dpitch)
{
    if (light->type == SC_LIGHT_DIRECTIONAL) {
        /* The direction the light comes from (minus the way it travels), orbited around 0. */
        static const float k_origin[3] = {0.0f, 0.0f, 0.0f};
        float from[3] = {-light->direction[0], -light->direction[1], -light->direction[2]};
        orbit_point(from, k_origin, dyaw, dpitch);
        for (int k = 0; k < 3; ++k) light->direction[k] = -from[k];
        return;
    }
    orbit_point(light->position, center, dyaw, dpitch);
}

void app_light_format(const sc_light_desc *light, char *buf, size_t size)
{
    const int directional = light->type == SC_LIGHT_DIRECTIONAL;
    const float *v = directional ? light->direction : light->position;
    snprintf(buf, size, "%s (%.4g, %.4g, %.4g)", directional ? "directional" : "point", (double)v[0], (double)v[1],
             (double)v[2]);
}
