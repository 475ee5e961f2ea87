/* renderer.c - the public API (slabcast.h): argument checks, defaults, the frame layout
 * (sc_frame_params: grid and camera), grow-and-redo, dispatch to a backend. */
#include <cglm/cglm.h>
#include <math.h>
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

/* Camera part of r->params from r->camera (validated) and the target's aspect. */
static void set_camera_params(sc_renderer *r)
{
    sc_frame_params *p = &r->params;
    const sc_camera_desc *c = &r->camera;
    vec3 eye = {c->eye[0], c->eye[1], c->eye[2]};
    vec3 target = {c->target[0], c->target[1], c->target[2]};
    vec3 up = {c->up[0], c->up[1], c->up[2]};
    mat4 view, proj;
    glm_lookat(eye, target, up, view);
    glm_perspective(c->fovy, (float)p->width / (float)p->height, c->near_plane, c->far_plane, proj);
    for (int i = 0; i < 3; ++i) {
        p->eye[i] = c->eye[i];
        p->right[i] = view[i][0];
        p->up[i] = view[i][1];
        p->forward[i] = -view[i][2];
    }
    p->proj_x = proj[0][0];
    p->proj_y = proj[1][1];
    p->near_plane = c->near_plane;
    p->far_plane = c->far_plane;
}

static sc_status resolve_camera(const sc_camera_desc *in, sc_camera_desc *out)
{
    sc_camera_desc c = *in;
    if (all_zero3(c.up)) c.up[1] = 1.0f;
    if (c.fovy == 0.0f) c.fovy = SC_DEFAULT_FOVY;
    if (c.near_plane == 0.0f) c.near_plane = SC_DEFAULT_NEAR;
    if (c.far_plane == 0.0f) c.far_plane = SC_DEFAULT_FAR;
    if (!finite3(c.eye) || !finite3(c.target) || !finite3(c.up))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_camera: eye, target and up must be finite");
    if (!(c.fovy > 0.0f && c.fovy < 3.14159f))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_camera: fovy %g is not in (0, pi)", (double)c.fovy);
    if (!(c.near_plane > 0.0f && c.far_plane > c.near_plane && isfinite(c.far_plane)))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_camera: need 0 < near (%g) < far (%g) < inf",
                       (double)c.near_plane, (double)c.far_plane);
    float d[3] = {c.target[0] - c.eye[0], c.target[1] - c.eye[1], c.target[2] - c.eye[2]};
    float dl = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    float ul = sqrtf(c.up[0] * c.up[0] + c.up[1] * c.up[1] + c.up[2] * c.up[2]);
    float cr[3] = {d[1] * c.up[2] - d[2] * c.up[1], d[2] * c.up[0] - d[0] * c.up[2], d[0] * c.up[1] - d[1] * c.up[0]};
    float cl = sqrtf(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
    if (!(dl > 0.0f))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_camera: eye and target are the same point");
    if (!(cl > 1e-6f * dl * ul))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_camera: up is parallel to the view direction");
    *out = c;
    return SC_OK;
}

/* Without a camera: look at the mesh from +z, the whole bounding sphere in view. */
static void default_camera(sc_renderer *r)
{
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    float R = r->mesh_radius;
    float dist = R / sinf(0.5f * SC_DEFAULT_FOVY) * 1.1f;
    for (int i = 0; i < 3; ++i) c.eye[i] = c.target[i] = r->mesh_center[i];
    c.eye[2] += dist;
    c.near_plane = 0.01f * R;
    c.far_plane = dist + 4.0f * R;
    resolve_camera(&c, &r->camera);
}

static void resolve_shading(const sc_shading_desc *in, sc_shading_desc *s)
{
    if (in) *s = *in;
    else memset(s, 0, sizeof *s);
    if (all_zero3(s->light_dir)) {
        s->light_dir[0] = SC_LIGHT_DIR_X; s->light_dir[1] = SC_LIGHT_DIR_Y; s->light_dir[2] = SC_LIGHT_DIR_Z;
    }
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
    resolve_shading(NULL, &r->shading);
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

sc_status sc_renderer_set_mesh(sc_renderer *r, const sc_mesh_data *m)
{
    if (!r || !m) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_mesh: renderer and mesh must not be NULL");
    if ((m->vertex_count && !m->positions) || (m->triangle_count && !m->indices))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_mesh: NULL positions or indices with a nonzero count");
    for (uint32_t v = 0; v < m->vertex_count; ++v)
        if (!finite3(m->positions + 3 * (size_t)v))
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_mesh: vertex %u has a non-finite coordinate", v);
    for (uint64_t i = 0; i < 3 * (uint64_t)m->triangle_count; ++i)
        if (m->indices[i] >= m->vertex_count)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                           "sc_renderer_set_mesh: triangle %llu has vertex index %u, but there are %u vertices",
                           (unsigned long long)(i / 3), m->indices[i], m->vertex_count);
    /* Bounds of the vertices used by a triangle (all vertices when there is none). */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v = 0; v < m->vertex_count; ++v)
        for (int k = 0; k < 3; ++k) {
            float x = m->positions[3 * (size_t)v + k];
            lo[k] = x < lo[k] ? x : lo[k];
            hi[k] = x > hi[k] ? x : hi[k];
        }
    float radius = 0.0f;
    if (m->vertex_count > 0) {
        for (int k = 0; k < 3; ++k) r->mesh_center[k] = 0.5f * (lo[k] + hi[k]);
        for (uint32_t v = 0; v < m->vertex_count; ++v) {
            const float *q = m->positions + 3 * (size_t)v;
            float d[3] = {q[0] - r->mesh_center[0], q[1] - r->mesh_center[1], q[2] - r->mesh_center[2]};
            float l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            radius = l > radius ? l : radius;
        }
    } else {
        r->mesh_center[0] = r->mesh_center[1] = r->mesh_center[2] = 0.0f;
    }
    r->mesh_radius = radius > 0.0f ? radius : 1.0f;
    r->has_mesh = 0;
    SC_TRY(r->backend == SC_BACKEND_CUDA ? sc_backend_cuda_set_mesh(r, m) : sc_backend_cpu_set_mesh(r, m));
    r->params.num_vertices = m->vertex_count;
    r->params.num_triangles = m->triangle_count;
    r->has_mesh = 1;
    if (!r->ref_capacity) {
        double want = SC_REF_CAPACITY_PER_TRIANGLE * (double)m->triangle_count;
        size_t cap = r->desc.initial_ref_capacity ? r->desc.initial_ref_capacity
                   : (want > SC_MIN_REF_CAPACITY ? (size_t)want : SC_MIN_REF_CAPACITY);
        SC_TRY(r->backend == SC_BACKEND_CUDA ? sc_backend_cuda_reserve(r, cap) : sc_backend_cpu_reserve(r, cap));
    }
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
    if (deform) r->deform = *deform;
    else memset(&r->deform, 0, sizeof r->deform);
    return SC_OK;
}

sc_status sc_renderer_set_shading(sc_renderer *r, const sc_shading_desc *shading)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_shading: NULL renderer");
    if (shading && ((unsigned)shading->mode >= SC_VIEW_MODE_COUNT))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_shading: unknown view mode %d", (int)shading->mode);
    resolve_shading(shading, &r->shading);
    return SC_OK;
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
    if (!isfinite(frame->time))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_render: time is not finite");
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
            if (needed > UINT32_MAX - 1)
                return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_render: %zu references exceed 2^32 - 1", needed);
            double grown = SC_REF_CAPACITY_GROWTH * (double)needed;
            size_t cap = grown > (double)(UINT32_MAX - 1) ? (size_t)(UINT32_MAX - 1) : (size_t)grown;
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
