/* resolve.c - the front end's descriptor checks and defaults (resolve.h): cameras (with the default
 * view of a mesh and the look-at basis), shading, lights; and the deformers, each in one place: its
 * name, the field that turns it on, a typical amount, whether it reads the rest normals, its checks
 * and how far it can move a point (slabcast.h: sc_deformer_name, sc_deform_amount,
 * sc_deformer_typical_amount, sc_deformer_reads_normals, sc_deform_reach). */
#include "resolve.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_tuning.h"
#include "sc_report.h"
#include "sizes.h"

static int all_zero3(const float v[3]) { return v[0] == 0.0f && v[1] == 0.0f && v[2] == 0.0f; }


sc_status sc_check_float(float v, const char *call, const char *field)
{
    if (isnan(v)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: %s is NaN", call, field);
    if (isinf(v)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: %s is infinite", call, field);
    return SC_OK;
}

sc_status sc_resolve_pitch(size_t pitch, uint32_t width, uint32_t height, const char *call, size_t *out)
{
    const size_t row = 4 * (size_t)width;
    if (pitch == 0) pitch = row;
    if (pitch < row)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: pitch %zu is below width x 4 = %zu bytes", call, pitch, row);
    if (!sc_image_extent_ok(pitch, row, height))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: pitch %zu over %u rows reaches past the address space", call,
                       pitch, height);
    *out = pitch;
    return SC_OK;
}

static sc_status check_float3(const float v[3], const char *call, const char *field)
{
    char name[96];
    for (int i = 0; i < 3; ++i) {
        if (isfinite(v[i])) continue;
        snprintf(name, sizeof name, "%s[%d]", field, i);
        return sc_check_float(v[i], call, name);
    }
    return SC_OK;
}

static double dot3d(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3d(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The view basis of a camera, in double (float inputs cannot overflow or underflow it): forward
 * (unit, eye -> target), right = forward x up (unit), up' = right x forward. 0 when eye == target or
 * up is parallel to the view direction (within 1e-6 of the angle). */
static int view_basis(const sc_camera_desc *c, double fwd[3], double right[3], double up[3])
{
    double d[3], u[3];
    for (int i = 0; i < 3; ++i) {
        d[i] = (double)c->target[i] - (double)c->eye[i];
        u[i] = c->up[i];
    }
    double dl = sqrt(dot3d(d, d)), ul = sqrt(dot3d(u, u));
    if (!(dl > 0.0) || !(ul > 0.0)) return 0;
    for (int i = 0; i < 3; ++i) fwd[i] = d[i] / dl;
    cross3d(fwd, u, right);
    double rl = sqrt(dot3d(right, right));
    if (!(rl > 1e-6 * ul)) return 0;
    for (int i = 0; i < 3; ++i) right[i] /= rl;
    cross3d(right, fwd, up);
    return 1;
}

/* Camera part of *p from a camera (validated) and the target's aspect: the look-at basis
 * (cglm's glm_lookat conventions, computed in double) and the perspective scale factors (as
 * glm_perspective computes them). */
void sc_camera_frame_params(const sc_camera_desc *c, sc_frame_params *p)
{
    double fwd[3], right[3], up[3];
    if (!view_basis(c, fwd, right, up)) return; /* never: sc_resolve_camera checked it */
    for (int i = 0; i < 3; ++i) {
        p->eye[i] = c->eye[i];
        p->right[i] = (float)right[i];
        p->up[i] = (float)up[i];
        p->forward[i] = (float)fwd[i];
    }
    const float f = 1.0f / tanf(c->fovy * 0.5f);
    p->proj_x = f / ((float)p->width / (float)p->height);
    p->proj_y = f;
    p->near_plane = c->near_plane;
    p->far_plane = c->far_plane;
}

sc_status sc_resolve_camera(const sc_camera_desc *in, sc_camera_desc *out)
{
    static const char *const call = "sc_renderer_set_camera";
    sc_camera_desc c = *in;
    SC_TRY(check_float3(c.eye, call, "camera.eye"));
    SC_TRY(check_float3(c.target, call, "camera.target"));
    SC_TRY(check_float3(c.up, call, "camera.up"));
    SC_TRY(sc_check_float(c.fovy, call, "camera.fovy"));
    SC_TRY(sc_check_float(c.near_plane, call, "camera.near_plane"));
    SC_TRY(sc_check_float(c.far_plane, call, "camera.far_plane"));
    if (all_zero3(c.up)) c.up[1] = 1.0f;
    if (c.fovy == 0.0f) c.fovy = SC_DEFAULT_FOVY;
    if (c.near_plane == 0.0f) c.near_plane = SC_DEFAULT_NEAR;
    if (c.far_plane == 0.0f) c.far_plane = SC_DEFAULT_FAR;
    if (!(c.fovy > 0.0f && c.fovy < 3.14159f))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: camera.fovy %g is not in (0, pi)", call, (double)c.fovy);
    if (!isfinite(1.0f / tanf(c.fovy * 0.5f)))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: camera.fovy %g is too small (1 / tan(fovy / 2) overflows)", call,
                       (double)c.fovy);
    if (!(c.near_plane > 0.0f && c.far_plane > c.near_plane))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: need 0 < camera.near_plane (%g) < camera.far_plane (%g)", call,
                       (double)c.near_plane, (double)c.far_plane);
    double d[3];
    for (int i = 0; i < 3; ++i) d[i] = (double)c.target[i] - (double)c.eye[i];
    if (!(dot3d(d, d) > 0.0))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: camera.eye and camera.target are the same point", call);
    double fwd[3], right[3], up[3];
    if (!view_basis(&c, fwd, right, up))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: camera.up is parallel to the view direction", call);
    *out = c;
    return SC_OK;
}

/* Clamps a double into the finite float range. */
static float to_float_clamped(double v) { return v > FLT_MAX ? FLT_MAX : (v < -FLT_MAX ? -FLT_MAX : (float)v); }

/* Without a camera: look at the mesh from +z (from -z when the float range has no room on that
 * side), the whole bounding sphere in view. Computed in double and clamped to floats, so no finite
 * mesh overflows it. 0 when even that is not representable (a tiny mesh at the edge of the float
 * range). */
int sc_default_camera(const float center[3], float radius, sc_camera_desc *out)
{
    const double R = radius;
    const double dist = R / sin(0.5 * SC_DEFAULT_FOVY) * 1.1;
    for (int side = 1; side >= -1; side -= 2) {
        sc_camera_desc c;
        memset(&c, 0, sizeof c);
        for (int i = 0; i < 3; ++i) c.eye[i] = c.target[i] = center[i];
        c.eye[2] = to_float_clamped((double)center[2] + side * dist);
        if (c.eye[2] == c.target[2]) continue; /* no room in the float range on this side */
        const double reach = fabs((double)c.eye[2] - (double)c.target[2]);
        c.up[1] = 1.0f;
        c.fovy = SC_DEFAULT_FOVY;
        c.near_plane = to_float_clamped(0.01 * R);
        if (!(c.near_plane > 0.0f)) c.near_plane = FLT_MIN;
        c.far_plane = to_float_clamped(reach + 4.0 * R);
        if (!(c.far_plane > c.near_plane)) continue;
        *out = c;
        return 1;
    }
    return 0;
}

/* The backends' per-pixel inputs of a resolved shading descriptor: the unit vector towards the
 * light (in float, as both backends always computed it), ambient at least 0, the heat scales. */
static void shade_params(const sc_shading_desc *s, sc_shade_params *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->mode = (int)s->mode;
    float l[3] = {-s->light_dir[0], -s->light_dir[1], -s->light_dir[2]};
    float len = sqrtf(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    if (len > 0.0f) { l[0] /= len; l[1] /= len; l[2] /= len; }
    for (int k = 0; k < 3; ++k) {
        sp->light[k] = l[k];
        sp->albedo[k] = s->albedo[k];
        sp->bg_bottom[k] = s->background_bottom[k];
        sp->bg_top[k] = s->background_top[k];
    }
    sp->ambient = s->ambient < 0.0f ? 0.0f : s->ambient;
    sp->heat_max_tile = s->heat_max > 0.0f ? s->heat_max : SC_HEAT_MAX_TILE;
    sp->heat_max_tests = s->heat_max > 0.0f ? s->heat_max : SC_HEAT_MAX_TESTS;
}

/* The light direction is stored normalised (computed in double: no overflow or underflow of its
 * length). */
sc_status sc_resolve_shading(const sc_shading_desc *in, sc_shading_desc *out, sc_shade_params *shade)
{
    static const char *const call = "sc_renderer_set_shading";
    sc_shading_desc sd;
    sc_shading_desc *s = &sd;
    if (in) *s = *in;
    else memset(s, 0, sizeof *s);
    if ((unsigned)s->mode >= SC_VIEW_MODE_COUNT)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: unknown view mode %d", call, (int)s->mode);
    SC_TRY(check_float3(s->light_dir, call, "shading.light_dir"));
    SC_TRY(sc_check_float(s->ambient, call, "shading.ambient"));
    SC_TRY(check_float3(s->albedo, call, "shading.albedo"));
    SC_TRY(check_float3(s->background_bottom, call, "shading.background_bottom"));
    SC_TRY(check_float3(s->background_top, call, "shading.background_top"));
    SC_TRY(sc_check_float(s->heat_max, call, "shading.heat_max"));
    if (s->heat_max < 0.0f)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: shading.heat_max %g is negative (0: the mode's default)", call,
                       (double)s->heat_max);
    if (all_zero3(s->light_dir)) {
        s->light_dir[0] = SC_LIGHT_DIR_X; s->light_dir[1] = SC_LIGHT_DIR_Y; s->light_dir[2] = SC_LIGHT_DIR_Z;
    }
    double l[3] = {s->light_dir[0], s->light_dir[1], s->light_dir[2]};
    double len = sqrt(dot3d(l, l)); /* > 0: some component is a nonzero float */
    for (int i = 0; i < 3; ++i) s->light_dir[i] = (float)(l[i] / len);
    if (s->ambient == 0.0f) s->ambient = SC_AMBIENT;
    if (all_zero3(s->albedo)) {
        s->albedo[0] = SC_ALBEDO_R; s->albedo[1] = SC_ALBEDO_G; s->albedo[2] = SC_ALBEDO_B;
    }
    if (all_zero3(s->background_bottom)) {
        s->background_bottom[0] = SC_BG_BOTTOM_R; s->background_bottom[1] = SC_BG_BOTTOM_G;
        s->background_bottom[2] = SC_BG_BOTTOM_B;
    }
    if (all_zero3(s->background_top)) {
        s->background_top[0] = SC_BG_TOP_R; s->background_top[1] = SC_BG_TOP_G; s->background_top[2] = SC_BG_TOP_B;
    }
    *out = sd;
    shade_params(&sd, shade);
    return SC_OK;
}

/* ---- deformers ---------------------------------------------------------------------------------- */
/* Each deformer's name, amount, typical amount, normals read, checks and reach, in switches that name
 * every sc_deformer and have no default: a deformer added to the enum without one of them does not
 * build (-Wswitch, an error with SLABCAST_WERROR). */

const char *sc_deformer_name(sc_deformer deformer)
{
    switch (deformer) {
    case SC_DEFORMER_TWIST: return "twist";
    case SC_DEFORMER_BEND: return "bend";
    case SC_DEFORMER_WAVE: return "wave";
    case SC_DEFORMER_PULSE: return "pulse";
    case SC_DEFORMER_NOISE: return "noise";
    case SC_DEFORMER_COUNT: break;
    }
    return NULL;
}

int sc_deformer_from_name(const char *name, sc_deformer *out)
{
    if (!name || !out) return 0;
    for (int d = 0; d < SC_DEFORMER_COUNT; ++d)
        if (strcmp(name, sc_deformer_name((sc_deformer)d)) == 0) {
            *out = (sc_deformer)d;
            return 1;
        }
    return 0;
}

float *sc_deform_amount(sc_deform_desc *deform, sc_deformer deformer)
{
    if (!deform) return NULL;
    switch (deformer) {
    case SC_DEFORMER_TWIST: return &deform->twist.amount;
    case SC_DEFORMER_BEND: return &deform->bend.amount;
    case SC_DEFORMER_WAVE: return &deform->wave.amount;
    case SC_DEFORMER_PULSE: return &deform->pulse.amount;
    case SC_DEFORMER_NOISE: return &deform->noise.amount;
    case SC_DEFORMER_COUNT: break;
    }
    return NULL;
}

/* The amounts the programs have always shown each deformer at (--deform, --deform-amount 1). */
float sc_deformer_typical_amount(sc_deformer deformer)
{
    switch (deformer) {
    case SC_DEFORMER_TWIST: return 0.9f;  /* radians between C and R along the axis */
    case SC_DEFORMER_BEND: return 0.6f;   /* radians over R */
    case SC_DEFORMER_WAVE: return 0.04f;  /* amplitude, units of R */
    case SC_DEFORMER_PULSE: return 0.02f; /* along the normal, units of R */
    case SC_DEFORMER_NOISE: return 0.03f; /* along the normal, units of R */
    case SC_DEFORMER_COUNT: break;
    }
    return 0.0f;
}

/* Whether the deformer's step of sc_deform_vertex (render/core/deform.h) reads the rest normal. */
int sc_deformer_reads_normals(sc_deformer deformer)
{
    switch (deformer) {
    case SC_DEFORMER_TWIST: return 0;
    case SC_DEFORMER_BEND: return 0;
    case SC_DEFORMER_WAVE: return 0;
    case SC_DEFORMER_PULSE: return 1; /* along the rest normal */
    case SC_DEFORMER_NOISE: return 1; /* along the rest normal */
    case SC_DEFORMER_COUNT: break;
    }
    return -1;
}

/* Every float of one deformer's descriptor is finite (the message names the field). */
static sc_status check_deformer(const sc_deform_desc *d, sc_deformer deformer, const char *call)
{
    switch (deformer) {
    case SC_DEFORMER_TWIST:
        SC_TRY(sc_check_float(d->twist.amount, call, "deform.twist.amount"));
        SC_TRY(check_float3(d->twist.axis, call, "deform.twist.axis"));
        return sc_check_float(d->twist.frequency, call, "deform.twist.frequency");
    case SC_DEFORMER_BEND:
        SC_TRY(sc_check_float(d->bend.amount, call, "deform.bend.amount"));
        SC_TRY(check_float3(d->bend.axis, call, "deform.bend.axis"));
        SC_TRY(check_float3(d->bend.direction, call, "deform.bend.direction"));
        return sc_check_float(d->bend.frequency, call, "deform.bend.frequency");
    case SC_DEFORMER_WAVE:
        SC_TRY(sc_check_float(d->wave.amount, call, "deform.wave.amount"));
        SC_TRY(check_float3(d->wave.direction, call, "deform.wave.direction"));
        SC_TRY(check_float3(d->wave.displacement, call, "deform.wave.displacement"));
        SC_TRY(sc_check_float(d->wave.wavelength, call, "deform.wave.wavelength"));
        return sc_check_float(d->wave.frequency, call, "deform.wave.frequency");
    case SC_DEFORMER_PULSE:
        SC_TRY(sc_check_float(d->pulse.amount, call, "deform.pulse.amount"));
        SC_TRY(sc_check_float(d->pulse.frequency, call, "deform.pulse.frequency"));
        return sc_check_float(d->pulse.spatial_frequency, call, "deform.pulse.spatial_frequency");
    case SC_DEFORMER_NOISE:
        SC_TRY(sc_check_float(d->noise.amount, call, "deform.noise.amount"));
        SC_TRY(sc_check_float(d->noise.scale, call, "deform.noise.scale"));
        return sc_check_float(d->noise.speed, call, "deform.noise.speed");
    case SC_DEFORMER_COUNT: break;
    }
    return SC_OK;
}

sc_status sc_check_deform(const sc_deform_desc *d)
{
    for (int k = 0; k < SC_DEFORMER_COUNT; ++k) SC_TRY(check_deformer(d, (sc_deformer)k, "sc_renderer_set_deform"));
    return SC_OK;
}

/* The bound rho (units of R) on a point's distance from C after the deformer, given the bound before
 * it (sc_deform_vertex, render/core/deform.h): pulse and noise move along the unit rest normal by at
 * most their amounts; twist turns about an axis through C (no change); bend turns a point at distance
 * rho about its arc's centre by the angle h k (k <= |amount| / R, h <= rho its height along the axis),
 * a chord of at most |1/k - x| |h k| <= rho (1 + rho |amount|); wave moves by at most its amount. */
static double reach_after(const sc_deform_desc *d, sc_deformer deformer, double rho)
{
    switch (deformer) {
    case SC_DEFORMER_TWIST: return rho;
    case SC_DEFORMER_BEND:
        return d->bend.amount != 0.0f ? rho + rho * (1.0 + rho * fabs((double)d->bend.amount)) : rho;
    case SC_DEFORMER_WAVE: return rho + fabs((double)d->wave.amount);
    case SC_DEFORMER_PULSE: return rho + fabs((double)d->pulse.amount);
    case SC_DEFORMER_NOISE: return rho + fabs((double)d->noise.amount);
    case SC_DEFORMER_COUNT: break;
    }
    return rho;
}

double sc_deform_reach(const sc_deform_desc *deform)
{
    /* The order the effects apply in (slabcast.h's sc_deform_desc, deform.h's sc_deform_vertex). */
    static const sc_deformer k_applied[] = {SC_DEFORMER_PULSE, SC_DEFORMER_NOISE, SC_DEFORMER_TWIST,
                                            SC_DEFORMER_BEND, SC_DEFORMER_WAVE};
    _Static_assert(sizeof k_applied / sizeof k_applied[0] == SC_DEFORMER_COUNT,
                   "every sc_deformer has its place in the order of application");
    double rho = 1.0;
    if (!deform) return rho;
    for (size_t k = 0; k < sizeof k_applied / sizeof k_applied[0]; ++k) rho = reach_after(deform, k_applied[k], rho);
    return rho;
}

/* Lights: each checked (naming lights[i].field) and resolved: colour all 0 -> 1, intensity 0 -> 1,
 * a directional light's direction unit (in double). */
sc_status sc_resolve_lights(const sc_light_desc *in, uint32_t count, sc_light_desc *out)
{
    static const char *const call = "sc_renderer_set_lights";
    if (count > SC_MAX_LIGHTS)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: %u lights; at most SC_MAX_LIGHTS (%d)", call, count,
                       SC_MAX_LIGHTS);
    if (count && !in) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: lights is NULL with count %u", call, count);
    for (uint32_t i = 0; i < count; ++i) {
        sc_light_desc l = in[i];
        char field[48];
        if (l.type != SC_LIGHT_POINT && l.type != SC_LIGHT_DIRECTIONAL)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: lights[%u].type %d is not an sc_light_type", call, i,
                           (int)l.type);
        snprintf(field, sizeof field, "lights[%u].position", i);
        SC_TRY(check_float3(l.position, call, field));
        snprintf(field, sizeof field, "lights[%u].direction", i);
        SC_TRY(check_float3(l.direction, call, field));
        snprintf(field, sizeof field, "lights[%u].color", i);
        SC_TRY(check_float3(l.color, call, field));
        snprintf(field, sizeof field, "lights[%u].intensity", i);
        SC_TRY(sc_check_float(l.intensity, call, field));
        if (l.intensity < 0.0f)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: lights[%u].intensity %g is negative", call, i,
                           (double)l.intensity);
        for (int k = 0; k < 3; ++k)
            if (l.color[k] < 0.0f)
                return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: lights[%u].color[%d] %g is negative", call, i, k,
                               (double)l.color[k]);
        if (l.type == SC_LIGHT_DIRECTIONAL) {
            if (all_zero3(l.direction))
                return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                               "%s: lights[%u].direction is 0 (a directional light needs the way it travels)", call, i);
            double d[3] = {l.direction[0], l.direction[1], l.direction[2]};
            double len = sqrt(dot3d(d, d));
            for (int k = 0; k < 3; ++k) l.direction[k] = (float)(d[k] / len);
        }
        if (all_zero3(l.color)) l.color[0] = l.color[1] = l.color[2] = 1.0f;
        if (l.intensity == 0.0f) l.intensity = 1.0f;
        l.no_shadows = l.no_shadows ? 1 : 0;
        out[i] = l;
    }
    return SC_OK;
}

void sc_light_shade_params(const sc_light_desc *lights, uint32_t count, int shadows, const float center[3],
                           sc_shade_params *sp)
{
    sp->num_lights = count;
    sp->shadow_lights = 0;
    for (int k = 0; k < 3; ++k) sp->center[k] = center[k];
    for (uint32_t i = 0; i < SC_MAX_LIGHTS; ++i) {
        sc_light_params *p = &sp->lights[i];
        memset(p, 0, sizeof *p);
        if (i >= count) continue;
        const sc_light_desc *l = &lights[i];
        p->type = (uint32_t)l->type;
        p->shadows = shadows && !l->no_shadows ? 1u : 0u;
        for (int k = 0; k < 3; ++k) {
            p->pos[k] = l->position[k];
            p->to_light[k] = -l->direction[k];
            p->color[k] = l->color[k] * l->intensity;
        }
        if (p->type == SC_LIGHT_POINT) p->to_light[0] = p->to_light[1] = p->to_light[2] = 0.0f;
        sp->shadow_lights += p->shadows;
    }
}
