/* renderer.c - the public API (slabcast.h): argument checks and defaults (resolve.c), the frame
 * layout (sc_frame_params: grid, camera, per-frame options), the reference buffer's size policy
 * (capacity.c), the stats, and calls into the backend chosen at creation through its table
 * (sc_backend_ops.h, backend_registry.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_registry.h"
#include "capacity.h"
#include "cpu_parallel.h"
#include "deform.h"
#include "mesh_bounds.h"
#include "render_tuning.h"
#include "renderer_internal.h"
#include "resolve.h"
#include "sc_report.h"
#include "sizes.h"
#include "vertex_order.h"

/* Grid sizes of r->params from the size, tile size and slab count (r->desc); r->params is unchanged
 * on failure. */
static sc_status layout_grid(sc_renderer *r, uint32_t width, uint32_t height, const char *call)
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

/* The default bound of the renderer's host memory: half of the physical memory (a request above it
 * would push the machine into swap or the OOM killer: Linux overcommits, so malloc alone does not
 * refuse it); no bound when the system does not say. */
static size_t default_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t bytes;
    if (pages <= 0 || page <= 0 || !sc_size_mul((size_t)pages, (size_t)page, &bytes)) return SIZE_MAX;
    return bytes / 2;
}

/* The default view of the mesh (or of the unit sphere before one), when the caller set no camera.
 * When even that is not representable, the previous camera stays and a warning says so. */
static void default_camera(sc_renderer *r)
{
    if (sc_default_camera(r->mesh_center, r->mesh_radius, &r->camera)) return;
    sc_log(SC_LOG_WARNING, "sc_renderer_set_mesh: the mesh (centre %g %g %g, radius %g) cannot be framed in the "
                           "float range; set a camera with sc_renderer_set_camera",
           (double)r->mesh_center[0], (double)r->mesh_center[1], (double)r->mesh_center[2], (double)r->mesh_radius);
}

/* Resolves the defaults of a tile size and slab count (0: default) and checks their ranges. */
static sc_status resolve_grid(uint32_t *tile_size, uint32_t *num_slabs, const char *call)
{
    if (*tile_size == 0) *tile_size = SC_DEFAULT_TILE_SIZE;
    if (*num_slabs == 0) *num_slabs = SC_DEFAULT_SLABS;
    if (*tile_size > SC_MAX_TILE_SIZE)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: tile size %u is not in 1..%d", call, *tile_size,
                       SC_MAX_TILE_SIZE);
    if (*num_slabs > SC_MAX_SLABS)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: slab count %u is not in 1..%d", call, *num_slabs,
                       SC_MAX_SLABS);
    return SC_OK;
}

/* Checks a creation descriptor and resolves its defaults. */
static sc_status resolve_desc(const sc_renderer_desc *in, sc_renderer_desc *d)
{
    *d = *in;
    if (d->num_threads == 0) d->num_threads = sc_cpu_default_threads();
    if (d->num_threads > SC_CPU_MAX_THREADS) d->num_threads = SC_CPU_MAX_THREADS;
    if (d->host_memory_limit == 0) d->host_memory_limit = default_memory_limit();
    SC_TRY(resolve_grid(&d->tile_size, &d->num_slabs, "sc_renderer_create"));
    if (!sc_backend_name(d->backend)) /* names.c knows every sc_backend */
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_create: unknown backend %d", (int)d->backend);
    if (d->binning != SC_BINNING_SPLIT && d->binning != SC_BINNING_RADIX_SORT)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                       "sc_renderer_create: binning %d is not an sc_binning (SC_BINNING_SPLIT or "
                       "SC_BINNING_RADIX_SORT)",
                       (int)d->binning);
    if (d->vertex_order != SC_VERTEX_ORDER_FIRST_USE && d->vertex_order != SC_VERTEX_ORDER_KEEP)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                       "sc_renderer_create: vertex_order %d is not an sc_vertex_order (SC_VERTEX_ORDER_FIRST_USE or "
                       "SC_VERTEX_ORDER_KEEP)",
                       (int)d->vertex_order);
    if (d->initial_ref_capacity > SC_MAX_REF_CAPACITY)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                       "sc_renderer_create: initial_ref_capacity %zu is above %zu (references have 32-bit offsets); "
                       "lower it (0: automatic)",
                       d->initial_ref_capacity, SC_MAX_REF_CAPACITY);
    return SC_OK;
}

/* The binning asked for against what the backend chosen can do: the radix-sort binning only where
 * the backend has it (the CUDA backend). */
static sc_status check_binning(const sc_backend_ops *ops, sc_binning binning)
{
    if (binning == SC_BINNING_RADIX_SORT && !(ops->caps & SC_BACKEND_CAP_RADIX_BINNING))
        return SC_FAIL(SC_ERROR_UNSUPPORTED,
                       "sc_renderer_create: binning SC_BINNING_RADIX_SORT is a CUDA backend option; the %s backend "
                       "builds its grid with the split binning only (binning = SC_BINNING_SPLIT)",
                       ops->name);
    return SC_OK;
}

sc_status sc_renderer_create(const sc_renderer_desc *desc, sc_renderer **out)
{
    if (!desc || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_create: desc and out must not be NULL");
    *out = NULL;
    sc_renderer *r = calloc(1, sizeof *r);
    if (!r) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_create: out of host memory");
    sc_status s = resolve_desc(desc, &r->desc);
    if (s == SC_OK) s = layout_grid(r, desc->width, desc->height, "sc_renderer_create");
    if (s == SC_OK) s = sc_backend_lookup(r->desc.backend, "sc_renderer_create", &r->ops);
    if (s == SC_OK) s = check_binning(r->ops, r->desc.binning);
    if (s != SC_OK) {
        free(r);
        return s;
    }
    r->params.cull_back_faces = desc->cull_back_faces ? 1u : 0u;
    r->params.flat_shading = desc->flat_shading ? 1u : 0u;
    r->stage_times = desc->stage_times ? 1 : 0;
    r->mesh_radius = 1.0f;
    (void)sc_resolve_shading(NULL, &r->shading, &r->shade); /* the defaults are valid */
    default_camera(r);
    sc_camera_frame_params(&r->camera, &r->params);
    const sc_backend_config config = {.grid = r->params,
                                      .num_threads = r->desc.num_threads,
                                      .host_memory_limit = r->desc.host_memory_limit,
                                      .stream = r->desc.stream,
                                      .binning = r->desc.binning};
    s = r->ops->create(&config, &r->state);
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
    r->ops->destroy(r->state);
    free(r->share.ids);
    free(r);
}

sc_backend sc_renderer_backend(const sc_renderer *r) { return r ? r->ops->kind : SC_BACKEND_DEFAULT; }

sc_status sc_renderer_set_mesh(sc_renderer *r, const sc_mesh_data *m)
{
    return sc_renderer_set_mesh_share(r, m, NULL);
}

sc_status sc_renderer_set_mesh_share(sc_renderer *r, const sc_mesh_data *m, const sc_share_desc *share)
{
    static const char *const call = "sc_renderer_set_mesh";
    if (!r || !m) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: renderer and mesh must not be NULL", call);
    SC_TRY(sc_mesh_check(m, call));
    sc_share_ids ids;
    SC_TRY(sc_share_resolve(share, m->triangle_count, call, &ids));
    float center[3], radius;
    const uint64_t dropped = sc_mesh_bounds(m, center, &radius);
    if (share && share->has_frame) { /* a share deforms and is framed in the whole mesh's frame */
        memcpy(center, share->frame_center, sizeof center);
        radius = share->frame_radius;
    }
    /* The backend gets the mesh in the renderer's vertex order, and the permutation that takes the
     * caller's vertex-indexed arrays to it and back. */
    sc_vertex_order_mesh ordered;
    sc_status s = sc_vertex_order_make(m, r->desc.vertex_order, call, &ordered);
    if (s != SC_OK) {
        free(ids.ids);
        return s;
    }
    r->has_mesh = 0;
    r->first_reported = r->last.frames + 1; /* the frames before are of another mesh */
    s = r->ops->set_mesh(r->state, &ordered.mesh, ordered.new_of_old);
    sc_vertex_order_free(&ordered);
    free(r->share.ids);
    r->share = ids; /* the old mesh is gone either way */
    SC_TRY(s);
    if (r->ops->set_share)
        SC_TRY(r->ops->set_share(r->state, r->share.ids, r->share.first, r->share.owned_first, r->share.owned_end));
    if (dropped)
        sc_log(SC_LOG_WARNING,
               "sc_renderer_set_mesh: %llu of %u triangles use a vertex with a non-finite coordinate; they are dropped",
               (unsigned long long)dropped, m->triangle_count);
    memcpy(r->mesh_center, center, sizeof center);
    r->mesh_radius = radius;
    r->params.num_vertices = m->vertex_count;
    r->params.num_triangles = m->triangle_count;
    if (!r->ref_capacity)
        SC_TRY(r->ops->reserve(r->state, sc_ref_capacity_initial(r->desc.initial_ref_capacity, m->triangle_count),
                               &r->ref_capacity));
    r->has_mesh = 1;
    if (!r->camera_set) {
        default_camera(r);
        sc_camera_frame_params(&r->camera, &r->params);
    }
    return SC_OK;
}

sc_status sc_renderer_set_camera(sc_renderer *r, const sc_camera_desc *camera)
{
    if (!r || !camera) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_camera: NULL argument");
    SC_TRY(sc_resolve_camera(camera, &r->camera));
    r->camera_set = 1;
    sc_camera_frame_params(&r->camera, &r->params);
    return SC_OK;
}

sc_status sc_renderer_set_deform(sc_renderer *r, const sc_deform_desc *deform)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_deform: NULL renderer");
    if (deform) SC_TRY(sc_check_deform(deform));
    if (deform) r->deform = *deform;
    else memset(&r->deform, 0, sizeof r->deform);
    return SC_OK;
}

sc_status sc_renderer_set_shading(sc_renderer *r, const sc_shading_desc *shading)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_shading: NULL renderer");
    return sc_resolve_shading(shading, &r->shading, &r->shade);
}

sc_status sc_renderer_set_options(sc_renderer *r, const sc_render_options *options)
{
    if (!r || !options) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_options: NULL argument");
    r->params.cull_back_faces = options->cull_back_faces ? 1u : 0u;
    r->params.flat_shading = options->flat_shading ? 1u : 0u;
    r->shadows = options->shadows ? 1 : 0;
    r->stage_times = options->stage_times ? 1 : 0;
    return SC_OK;
}

sc_status sc_renderer_set_lights(sc_renderer *r, const sc_light_desc *lights, uint32_t count)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_lights: NULL renderer");
    sc_light_desc resolved[SC_MAX_LIGHTS];
    SC_TRY(sc_resolve_lights(lights, count, resolved));
    memset(r->lights, 0, sizeof r->lights);
    if (count) memcpy(r->lights, resolved, count * sizeof resolved[0]);
    r->num_lights = count;
    return SC_OK;
}

sc_status sc_renderer_get_lights(const sc_renderer *r, sc_light_desc *out, uint32_t *count)
{
    if (!r || !out || !count) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_get_lights: NULL argument");
    memcpy(out, r->lights, sizeof r->lights);
    *count = r->num_lights;
    return SC_OK;
}

sc_status sc_renderer_get_options(const sc_renderer *r, sc_render_options *out)
{
    if (!r || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_get_options: NULL argument");
    memset(out, 0, sizeof *out);
    out->cull_back_faces = (int)r->params.cull_back_faces;
    out->flat_shading = (int)r->params.flat_shading;
    out->shadows = r->shadows;
    out->stage_times = r->stage_times;
    return SC_OK;
}

sc_status sc_renderer_resize(sc_renderer *r, uint32_t width, uint32_t height)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_resize: NULL renderer");
    sc_frame_params saved = r->params;
    SC_TRY(layout_grid(r, width, height, "sc_renderer_resize"));
    sc_status s = r->ops->resize(r->state, &r->params);
    if (s != SC_OK) {
        r->params = saved;
        r->desc.width = saved.width;
        r->desc.height = saved.height;
        return s;
    }
    sc_camera_frame_params(&r->camera, &r->params);
    r->first_reported = r->last.frames + 1; /* the frames before are of another grid */
    return SC_OK;
}

sc_status sc_renderer_set_grid(sc_renderer *r, uint32_t tile_size, uint32_t num_slabs)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_set_grid: NULL renderer");
    SC_TRY(resolve_grid(&tile_size, &num_slabs, "sc_renderer_set_grid"));
    if (tile_size == r->desc.tile_size && num_slabs == r->desc.num_slabs) return SC_OK; /* in force */
    const sc_frame_params saved = r->params;
    const uint32_t saved_tile_size = r->desc.tile_size, saved_slabs = r->desc.num_slabs;
    r->desc.tile_size = tile_size;
    r->desc.num_slabs = num_slabs;
    sc_status s = layout_grid(r, r->params.width, r->params.height, "sc_renderer_set_grid");
    if (s == SC_OK) s = r->ops->resize(r->state, &r->params);
    if (s != SC_OK) {
        r->params = saved;
        r->desc.tile_size = saved_tile_size;
        r->desc.num_slabs = saved_slabs;
        return s;
    }
    sc_camera_frame_params(&r->camera, &r->params);
    r->first_reported = r->last.frames + 1; /* the frames before are of another grid */
    return SC_OK;
}

sc_status sc_renderer_get_grid(const sc_renderer *r, sc_grid_info *out)
{
    if (!r || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_get_grid: NULL argument");
    memset(out, 0, sizeof *out);
    out->width = r->params.width;
    out->height = r->params.height;
    out->tile_size = r->params.tile_size;
    out->num_slabs = r->params.num_slabs;
    out->tiles_x = r->params.tiles_x;
    out->tiles_y = r->params.tiles_y;
    return SC_OK;
}

sc_status sc_renderer_render(sc_renderer *r, const sc_frame_desc *frame)
{
    if (!r || !frame) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_render: NULL argument");
    if (!r->has_mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_render: no mesh set");
    size_t pitch = 4 * (size_t)r->params.width;
    if (frame->rgba)
        SC_TRY(sc_resolve_pitch(frame->rgba_pitch, r->params.width, r->params.height, "sc_renderer_render", &pitch));
    if (frame->surface && !(r->ops->caps & SC_BACKEND_CAP_SURFACE))
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_renderer_render: the %s backend cannot write a CUDA surface",
                       r->ops->name);
    SC_TRY(sc_check_float(frame->time, "sc_renderer_render", "frame.time"));
    const double t0 = sc_now_ms();
    sc_deform_eval deform;
    sc_deform_evaluate(&r->deform, r->mesh_center, r->mesh_radius, frame->time, &deform);
    sc_shade_params shade = r->shade;
    sc_light_shade_params(r->lights, r->num_lights, r->shadows, r->mesh_center, &shade);
    const sc_backend_frame in = {.params = &r->params,
                                 .deform = &deform,
                                 .positions = frame->positions,
                                 .shade = &shade,
                                 .rgba = frame->rgba,
                                 .pitch = pitch,
                                 .surface = frame->rgba ? 0ull : frame->surface,
                                 .stage_times = r->stage_times,
                                 .serial = r->last.frames + 1};
    uint32_t grows = 0;
    for (;;) {
        size_t needed = 0, cap = 0;
        sc_status s = r->ops->render(r->state, &in, &needed);
        if (s != SC_ERROR_CAPACITY) {
            SC_TRY(s);
            break;
        }
        SC_TRY(sc_ref_capacity_grown(needed, &cap));
        SC_TRY(r->ops->reserve(r->state, cap, &r->ref_capacity));
        grows += 1;
    }
    r->last.frames += 1;
    r->last.total_ms = sc_now_ms() - t0;
    r->last.capacity_grows = grows;
    r->last.triangles = r->params.num_triangles;
    r->last.tiles = r->params.num_tiles;
    r->records[r->last.frames % SC_FRAME_RECORDS] = r->last;
    return SC_OK;
}

/* Completes a backend's stats of a frame with the front end's record of it. */
static void add_host_part(const sc_renderer *r, const sc_frame_record *rec, sc_frame_stats *st)
{
    st->total_ms = rec->total_ms;
    if (r->ops->caps & SC_BACKEND_CAP_SYNCHRONOUS) st->frame_ms = st->total_ms;
    st->capacity_grows = rec->capacity_grows;
    st->triangles = rec->triangles;
    st->tiles = rec->tiles;
    st->frame = rec->frames;
}

sc_status sc_renderer_stats(sc_renderer *r, sc_frame_stats *out)
{
    if (!r || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_stats: NULL argument");
    sc_frame_stats st;
    SC_TRY(r->ops->finish(r->state, &st));
    if (r->last.frames == 0) memset(&st, 0, sizeof st); /* no frame yet: the zero stats */
    else add_host_part(r, &r->last, &st);
    *out = st;
    return SC_OK;
}

sc_status sc_renderer_poll_stats(sc_renderer *r, sc_frame_stats *out, int *available)
{
    if (!r || !out || !available)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_poll_stats: NULL argument");
    *available = 0;
    memset(out, 0, sizeof *out);
    sc_frame_stats st;
    uint64_t serial = 0;
    SC_TRY(r->ops->poll(r->state, &st, &serial));
    if (serial == 0 || serial < r->first_reported || serial > r->last.frames) return SC_OK;
    const sc_frame_record *rec = &r->records[serial % SC_FRAME_RECORDS];
    if (rec->frames != serial) return SC_OK; /* older than the records kept (SC_FRAME_RECORDS) */
    add_host_part(r, rec, &st);
    *out = st;
    *available = 1;
    return SC_OK;
}

sc_status sc_renderer_read_hits(const sc_renderer *r, sc_hit *out)
{
    if (!r || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_read_hits: NULL argument");
    SC_TRY(r->ops->read_hits(r->state, out));
    sc_share_map_hits(&r->share, out, (uint64_t)r->params.width * r->params.height);
    return SC_OK;
}

sc_status sc_renderer_read_shadows(const sc_renderer *r, uint8_t *out)
{
    if (!r || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_read_shadows: NULL argument");
    return r->ops->read_shadows(r->state, out);
}

sc_status sc_renderer_read_positions(const sc_renderer *r, float *out)
{
    if (!r || (!out && r->params.num_vertices))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_read_positions: NULL argument");
    if (!r->has_mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_read_positions: no mesh set");
    return r->ops->read_positions(r->state, out);
}
