/* renderer.c - the public API (slabcast.h): argument checks, defaults, the frame layout
 * (sc_frame_params: grid and camera), grow-and-redo, dispatch to a backend. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend_cuda.h"
#include "render_tuning.h"
#include "renderer_internal.h"
#include "sc_report.h"

double sc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int all_zero3(const float v[3]) { return v[0] == 0.0f && v[1] == 0.0f && v[2] == 0.0f; }
static int finite3(const float v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

/* Grid sizes of r->params from the size, tile size and slab count. */
static sc_status set_grid(sc_renderer *r, uint32_t width, uint32_t height, const char *call)
{
    if (width == 0 || height == 0)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: target size %ux%u is empty", call, width, height);
    sc_frame_params *p = &r->params;
    uint32_t ts = r->desc.tile_size;
    uint64_t tiles_x = (width + (uint64_t)ts - 1) / ts, tiles_y = (height + (uint64_t)ts - 1) / ts;
    uint64_t tiles = tiles_x * tiles_y;
    uint32_t tile_bits = tiles > (1u << 30) ? 31 : sc_ceil_log2((uint32_t)tiles);
    uint32_t slab_bits = sc_ceil_log2(r->desc.num_slabs);
    if (tile_bits > 2 * SC_SPLIT_PASS_BITS || tile_bits + slab_bits > SC_MAX_KEY_BITS)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                       "%s: a %ux%u target in %u-pixel tiles has %llu tiles; with %u slabs that needs %u key bits "
                       "(at most %d tile bits and %d in all)",
                       call, width, height, ts, (unsigned long long)tiles, r->desc.num_slabs, tile_bits + slab_bits,
                       2 * SC_SPLIT_PASS_BITS, SC_MAX_KEY_BITS);
    p->width = width;
    p->height = height;
    p->tile_size = ts;
    p->tiles_x = (uint32_t)tiles_x;
    p->tiles_y = (uint32_t)tiles_y;
    p->num_tiles = (uint32_t)tiles;
    p->tile_bits = tile_bits;
    p->num_slabs = r->desc.num_slabs;
    p->slab_bits = slab_bits;
    r->desc.width = width;
    r->desc.height = height;
    return SC_OK;
}

const char *sc_format_bytes(double bytes, char *buf, size_t size)
{
    static const char *const k_units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 6) {
        bytes /= 1024.0;
        ++u;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", bytes, k_units[u]);
    return buf;
}

/* ---- Descriptor checks: every float finite, naming the field ---- */

static sc_status check_float(float v, const char *call, const char *field)
{
    if (isnan(v)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: %s is NaN", call, field);
    if (isinf(v)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: %s is infinite", call, field);
    return SC_OK;
}

static sc_status check_float3(const float v[3], const char *call, const char *field)
{
    char name[96];
    for (int i = 0; i < 3; ++i) {
        if (isfinite(v[i])) continue;
        snprintf(name, sizeof name, "%s[%d]", field, i);
        return check_float(v[i], call, name);
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

/* Camera part of r->params from r->camera (validated) and the target's aspect: the look-at basis
 * (cglm's glm_lookat conventions, computed in double) and the perspective scale factors (as
 * glm_perspective computes them). */
static void set_camera_params(sc_renderer *r)
{
    sc_frame_params *p = &r->params;
    const sc_camera_desc *c = &r->camera;
    double fwd[3], right[3], up[3];
    if (!view_basis(c, fwd, right, up)) return; /* never: resolve_camera checked it */
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

static sc_status resolve_camera(const sc_camera_desc *in, sc_camera_desc *out)
{
    static const char *const call = "sc_renderer_set_camera";
    sc_camera_desc c = *in;
    SC_TRY(check_float3(c.eye, call, "camera.eye"));
    SC_TRY(check_float3(c.target, call, "camera.target"));
    SC_TRY(check_float3(c.up, call, "camera.up"));
    SC_TRY(check_float(c.fovy, call, "camera.fovy"));
    SC_TRY(check_float(c.near_plane, call, "camera.near_plane"));
    SC_TRY(check_float(c.far_plane, call, "camera.far_plane"));
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
 * mesh overflows it. When even that is not representable (a tiny mesh at the edge of the float
 * range), the previous camera stays and a warning says so. */
static void default_camera(sc_renderer *r)
{
    const double R = r->mesh_radius;
    const double dist = R / sin(0.5 * SC_DEFAULT_FOVY) * 1.1;
    for (int side = 1; side >= -1; side -= 2) {
        sc_camera_desc c;
        memset(&c, 0, sizeof c);
        for (int i = 0; i < 3; ++i) c.eye[i] = c.target[i] = r->mesh_center[i];
        c.eye[2] = to_float_clamped((double)r->mesh_center[2] + side * dist);
        if (c.eye[2] == c.target[2]) continue; /* no room in the float range on this side */
        const double reach = fabs((double)c.eye[2] - (double)c.target[2]);
        c.up[1] = 1.0f;
        c.fovy = SC_DEFAULT_FOVY;
        c.near_plane = to_float_clamped(0.01 * R);
        if (!(c.near_plane > 0.0f)) c.near_plane = FLT_MIN;
        c.far_plane = to_float_clamped(reach + 4.0 * R);
        if (!(c.far_plane > c.near_plane)) continue;
        r->camera = c;
        return;
    }
    sc_log(SC_LOG_WARNING, "sc_renderer_set_mesh: the mesh (centre %g %g %g, radius %g) cannot be framed in the "
                           "float range; set a camera with sc_renderer_set_camera",
           (double)r->mesh_center[0], (double)r->mesh_center[1], (double)r->mesh_center[2], (double)r->mesh_radius);
}

/* Checks a shading descriptor (NULL: defaults) and resolves its defaults into *s. The light
 * direction is stored normalised (computed in double: no overflow or underflow of its length). */
static sc_status resolve_shading(const sc_shading_desc *in, sc_shading_desc *out)
{
    static const char *const call = "sc_renderer_set_shading";
    sc_shading_desc sd;
    sc_shading_desc *s = &sd;
    if (in) *s = *in;
    else memset(s, 0, sizeof *s);
    if ((unsigned)s->mode >= SC_VIEW_MODE_COUNT)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: unknown view mode %d", call, (int)s->mode);
    SC_TRY(check_float3(s->light_dir, call, "shading.light_dir"));
    SC_TRY(check_float(s->ambient, call, "shading.ambient"));
    SC_TRY(check_float3(s->albedo, call, "shading.albedo"));
    SC_TRY(check_float3(s->background_bottom, call, "shading.background_bottom"));
    SC_TRY(check_float3(s->background_top, call, "shading.background_top"));
    SC_TRY(check_float(s->heat_max, call, "shading.heat_max"));
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
    return SC_OK;
}

/* Every float of a deformation descriptor must be finite. */
static sc_status check_deform(const sc_deform_desc *d)
{
    static const char *const call = "sc_renderer_set_deform";
    SC_TRY(check_float(d->twist.amount, call, "deform.twist.amount"));
    SC_TRY(check_float3(d->twist.axis, call, "deform.twist.axis"));
    SC_TRY(check_float(d->twist.frequency, call, "deform.twist.frequency"));
    SC_TRY(check_float(d->bend.amount, call, "deform.bend.amount"));
    SC_TRY(check_float3(d->bend.axis, call, "deform.bend.axis"));
    SC_TRY(check_float3(d->bend.direction, call, "deform.bend.direction"));
    SC_TRY(check_float(d->bend.frequency, call, "deform.bend.frequency"));
    SC_TRY(check_float(d->wave.amount, call, "deform.wave.amount"));
    SC_TRY(check_float3(d->wave.direction, call, "deform.wave.direction"));
    SC_TRY(check_float3(d->wave.displacement, call, "deform.wave.displacement"));
    SC_TRY(check_float(d->wave.wavelength, call, "deform.wave.wavelength"));
    SC_TRY(check_float(d->wave.frequency, call, "deform.wave.frequency"));
    SC_TRY(check_float(d->pulse.amount, call, "deform.pulse.amount"));
    SC_TRY(check_float(d->pulse.frequency, call, "deform.pulse.frequency"));
    SC_TRY(check_float(d->pulse.spatial_frequency, call, "deform.pulse.spatial_frequency"));
    SC_TRY(check_float(d->noise.amount, call, "deform.noise.amount"));
    SC_TRY(check_float(d->noise.scale, call, "deform.noise.scale"));
    SC_TRY(check_float(d->noise.speed, call, "deform.noise.speed"));
    return SC_OK;
}

sc_status sc_renderer_create(const sc_renderer_desc *desc, sc_renderer **out)
{
    if (!desc || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_create: desc and out must not be NULL");
    *out = NULL;
    sc_renderer *r = calloc(1, sizeof *r);
    if (!r) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_create: out of host memory");
    r->desc = *desc;
    if (r->desc.tile_size == 0) r->desc.tile_size = SC_DEFAULT_TILE_SIZE;
    if (r->desc.num_slabs == 0) r->desc.num_slabs = SC_DEFAULT_SLABS;
    sc_status s = SC_OK;
    if (r->desc.tile_size > SC_MAX_TILE_SIZE)
        s = SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_create: tile size %u is not in 1..%d", r->desc.tile_size,
                    SC_MAX_TILE_SIZE);
    else if (r->desc.num_slabs > SC_MAX_SLABS)
        s = SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_create: slab count %u is not in 1..%d", r->desc.num_slabs,
                    SC_MAX_SLABS);
    else if (r->desc.backend != SC_BACKEND_DEFAULT && r->desc.backend != SC_BACKEND_CPU &&
             r->desc.backend != SC_BACKEND_CUDA)
        s = SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_create: unknown backend %d", (int)r->desc.backend);
    else if (r->desc.initial_ref_capacity > SC_MAX_REF_CAPACITY)
        s = SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                    "sc_renderer_create: initial_ref_capacity %zu is above %zu (references have 32-bit offsets); lower "
                    "it (0: automatic)",
                    r->desc.initial_ref_capacity, SC_MAX_REF_CAPACITY);
    if (s == SC_OK) s = set_grid(r, desc->width, desc->height, "sc_renderer_create");
    if (s != SC_OK) {
        free(r);
        return s;
    }
    r->backend = (r->desc.backend == SC_BACKEND_CUDA ||
                  (r->desc.backend == SC_BACKEND_DEFAULT && sc_backend_cuda_available()))
                   ? SC_BACKEND_CUDA : SC_BACKEND_CPU;
    r->params.cull_back_faces = desc->cull_back_faces ? 1u : 0u;
    r->params.flat_shading = desc->flat_shading ? 1u : 0u;
    r->mesh_radius = 1.0f;
    (void)resolve_shading(NULL, &r->shading); /* the defaults are valid */
    default_camera(r);
    set_camera_params(r);
    s = r->backend == SC_BACKEND_CUDA ? sc_backend_cuda_create(r) : sc_backend_cpu_create(r);
    if (s != SC_OK) {
        free(r);
        return s;
    }
    *out = r;
    return SC_OK;
}

void sc_renderer_destroy(sc_renderer *r)
{
    if (!r) return;
    sc_backend_cpu_destroy(r);
    sc_backend_cuda_destroy(r);
    free(r);
}

sc_backend sc_renderer_backend(const sc_renderer *r) { return r ? r->backend : SC_BACKEND_DEFAULT; }

/* Whether triangle t of the mesh has three finite vertices (indices checked). */
static int triangle_finite(const sc_mesh_data *m, uint32_t t)
{
    const uint32_t *f = m->indices + 3 * (size_t)t;
    return finite3(m->positions + 3 * (size_t)f[0]) && finite3(m->positions + 3 * (size_t)f[1]) &&
           finite3(m->positions + 3 * (size_t)f[2]);
}

/* Bounds of the vertices visited by mesh_visit (double: no finite input overflows them). */
typedef struct mesh_bounds_acc {
    double lo[3], hi[3];
    const double *center;  /* second pass: the centre, and the largest squared distance from it */
    double r2;
} mesh_bounds_acc;

static void bounds_visit(mesh_bounds_acc *acc, const float *q)
{
    if (!acc->center) {
        for (int k = 0; k < 3; ++k) {
            acc->lo[k] = q[k] < acc->lo[k] ? q[k] : acc->lo[k];
            acc->hi[k] = q[k] > acc->hi[k] ? q[k] : acc->hi[k];
        }
        return;
    }
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) d2 += ((double)q[k] - acc->center[k]) * ((double)q[k] - acc->center[k]);
    acc->r2 = d2 > acc->r2 ? d2 : acc->r2;
}

/* Visits the vertices of the kept triangles (those with three finite vertices); without a kept
 * triangle, every finite vertex. Returns the number of dropped triangles. */
static uint64_t mesh_visit(const sc_mesh_data *m, mesh_bounds_acc *acc)
{
    uint64_t kept = 0, dropped = 0;
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        if (!triangle_finite(m, t)) {
            ++dropped;
            continue;
        }
        ++kept;
        for (int j = 0; j < 3; ++j) bounds_visit(acc, m->positions + 3 * (size_t)m->indices[3 * (size_t)t + j]);
    }
    if (kept == 0)
        for (uint32_t v = 0; v < m->vertex_count; ++v)
            if (finite3(m->positions + 3 * (size_t)v)) bounds_visit(acc, m->positions + 3 * (size_t)v);
    return dropped;
}

/* Centre (of the bounding box) and radius (largest distance from it) of the vertices mesh_visit
 * visits; the unit sphere at the origin when there is none. The radius is clamped to the float
 * range. Returns the number of dropped triangles. */
static uint64_t mesh_bounds(const sc_mesh_data *m, float center[3], float *radius)
{
    mesh_bounds_acc acc = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}, NULL, 0.0};
    uint64_t dropped = mesh_visit(m, &acc);
    if (!(acc.lo[0] <= acc.hi[0])) { /* no finite vertex */
        center[0] = center[1] = center[2] = 0.0f;
        *radius = 1.0f;
        return dropped;
    }
    double c[3];
    for (int k = 0; k < 3; ++k) {
        c[k] = 0.5 * (acc.lo[k] + acc.hi[k]);
        center[k] = (float)c[k]; /* between two floats: in range */
        c[k] = center[k];        /* distances from the centre as stored */
    }
    acc.center = c;
    (void)mesh_visit(m, &acc);
    float R = to_float_clamped(sqrt(acc.r2));
    *radius = R > 0.0f ? R : 1.0f;
    return dropped;
}

sc_status sc_renderer_set_mesh(sc_renderer *r, const sc_mesh_data *m)
{
    if (!r || !m) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_mesh: renderer and mesh must not be NULL");
    if ((m->vertex_count && !m->positions) || (m->triangle_count && !m->indices))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_mesh: NULL positions or indices with a nonzero count");
    for (uint64_t i = 0; i < 3 * (uint64_t)m->triangle_count; ++i)
        if (m->indices[i] >= m->vertex_count)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                           "sc_renderer_set_mesh: triangle %llu has vertex index %u, but there are %u vertices",
                           (unsigned long long)(i / 3), m->indices[i], m->vertex_count);
    float center[3], radius;
    const uint64_t dropped = mesh_bounds(m, center, &radius);
    r->has_mesh = 0;
    SC_TRY(r->backend == SC_BACKEND_CUDA ? sc_backend_cuda_set_mesh(r, m) : sc_backend_cpu_set_mesh(r, m));
    if (dropped)
        sc_log(SC_LOG_WARNING,
               "sc_renderer_set_mesh: %llu of %u triangles use a vertex with a non-finite coordinate; they are dropped",
               (unsigned long long)dropped, m->triangle_count);
    memcpy(r->mesh_center, center, sizeof center);
    r->mesh_radius = radius;
    r->params.num_vertices = m->vertex_count;
    r->params.num_triangles = m->triangle_count;
    if (!r->ref_capacity) {
        double want = SC_REF_CAPACITY_PER_TRIANGLE * (double)m->triangle_count;
        size_t cap = r->desc.initial_ref_capacity ? r->desc.initial_ref_capacity
                   : want > (double)SC_MAX_REF_CAPACITY ? SC_MAX_REF_CAPACITY
                   : (want > SC_MIN_REF_CAPACITY ? (size_t)want : SC_MIN_REF_CAPACITY);
        SC_TRY(r->backend == SC_BACKEND_CUDA ? sc_backend_cuda_reserve(r, cap) : sc_backend_cpu_reserve(r, cap));
    }
    r->has_mesh = 1;
    if (!r->camera_set) {
        default_camera(r);
        set_camera_params(r);
    }
    return SC_OK;
}

sc_status sc_renderer_set_camera(sc_renderer *r, const sc_camera_desc *camera)
{
    if (!r || !camera) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_camera: NULL argument");
    SC_TRY(resolve_camera(camera, &r->camera));
    r->camera_set = 1;
    set_camera_params(r);
    return SC_OK;
}

sc_status sc_renderer_set_deform(sc_renderer *r, const sc_deform_desc *deform)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_deform: NULL renderer");
    if (deform) SC_TRY(check_deform(deform));
    if (deform) r->deform = *deform;
    else memset(&r->deform, 0, sizeof r->deform);
    return SC_OK;
}

sc_status sc_renderer_set_shading(sc_renderer *r, const sc_shading_desc *shading)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_shading: NULL renderer");
    return resolve_shading(shading, &r->shading);
}

sc_status sc_renderer_resize(sc_renderer *r, uint32_t width, uint32_t height)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_resize: NULL renderer");
    sc_frame_params saved = r->params;
    SC_TRY(set_grid(r, width, height, "sc_renderer_resize"));
    sc_status s = r->backend == SC_BACKEND_CUDA ? sc_backend_cuda_resize(r) : sc_backend_cpu_resize(r);
    if (s != SC_OK) {
        r->params = saved;
        r->desc.width = saved.width;
        r->desc.height = saved.height;
        return s;
    }
    set_camera_params(r);
    return SC_OK;
}

sc_status sc_renderer_render(sc_renderer *r, const sc_frame_desc *frame)
{
    if (!r || !frame) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_render: NULL argument");
    if (!r->has_mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_render: no mesh set");
    if (frame->rgba && frame->rgba_pitch && frame->rgba_pitch < 4 * (size_t)r->params.width)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_render: pitch %zu is less than 4 x width %u",
                       frame->rgba_pitch, r->params.width);
    if (frame->surface && r->backend != SC_BACKEND_CUDA)
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_renderer_render: the CPU backend cannot write a CUDA surface");
    SC_TRY(check_float(frame->time, "sc_renderer_render", "frame.time"));
    if (r->backend == SC_BACKEND_CUDA) return sc_backend_cuda_render(r, frame); /* stats: harvested later */
    double t0 = sc_now_ms();
    sc_frame_stats *st = &r->stats;
    memset(st, 0, sizeof *st);
    st->triangles = r->params.num_triangles;
    st->tiles = r->params.num_tiles;
    for (;;) {
        size_t needed = 0;
        sc_status s = sc_backend_cpu_render(r, frame, &needed);
        if (s == SC_ERROR_CAPACITY) {
            if (needed > SC_MAX_REF_CAPACITY)
                return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                               "sc_renderer_render: the frame has %zu triangle-tile references, more than 2^32 - 2; "
                               "raise the tile size or move the camera back",
                               needed);
            double grown = SC_REF_CAPACITY_GROWTH * (double)needed;
            size_t cap = grown > (double)SC_MAX_REF_CAPACITY ? SC_MAX_REF_CAPACITY : (size_t)grown;
            SC_TRY(sc_backend_cpu_reserve(r, cap));
            st->capacity_grows += 1;
            continue;
        }
        SC_TRY(s);
        break;
    }
    st->total_ms = sc_now_ms() - t0;
    st->frame_ms = st->total_ms;
    return SC_OK;
}

sc_status sc_renderer_stats(sc_renderer *r, sc_frame_stats *out)
{
    if (!r || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_stats: NULL argument");
    if (r->backend == SC_BACKEND_CUDA) SC_TRY(sc_backend_cuda_finish(r));
    *out = r->stats;
    return SC_OK;
}

sc_status sc_renderer_read_hits(const sc_renderer *r, sc_hit *out)
{
    if (!r || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_read_hits: NULL argument");
    return r->backend == SC_BACKEND_CUDA ? sc_backend_cuda_read_hits(r, out) : sc_backend_cpu_read_hits(r, out);
}

sc_status sc_renderer_read_positions(const sc_renderer *r, float *out)
{
    if (!r || (!out && r->params.num_vertices))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_read_positions: NULL argument");
    if (!r->has_mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_read_positions: no mesh set");
    return r->backend == SC_BACKEND_CUDA ? sc_backend_cuda_read_positions(r, out)
                                         : sc_backend_cpu_read_positions(r, out);
}
