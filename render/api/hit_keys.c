/* hit_keys.c - sort-last by hit keys (slabcast.h "Hit keys"): a renderer's keys, the owners'
 * resolve and shade of the winners (the backend's sc_backend_ops.hit_keys, resolve_keys,
 * shade_keys), the composite of key buffers on the device (the CUDA backend's keys_min,
 * hits_from_keys) and its host reference. */
#include "backend_registry.h"
#include "renderer_internal.h"
#include "resolve.h"
#include "sc_report.h"

/* The checks every per-renderer call makes: a renderer with a frame of the mesh, size and grid in
 * force, and a backend that has the call. */
static sc_status check_frame(const sc_renderer *r, int has_op, const char *call)
{
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL renderer", call);
    if (!has_op)
        return SC_FAIL(SC_ERROR_UNSUPPORTED,
                       "%s: the %s backend has no hit keys (use sc_renderer_read_hits and sc_hits_composite)", call,
                       r->ops->name);
    if (!r->has_mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: no mesh set", call);
    if (r->last.frames == 0 || r->last.frames < r->first_reported)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                       "%s: no frame rendered since the mesh, size or grid was set; call sc_renderer_render first",
                       call);
    return SC_OK;
}

sc_status sc_renderer_hit_keys(const sc_renderer *r, uint64_t *keys)
{
    static const char *const call = "sc_renderer_hit_keys";
    SC_TRY(check_frame(r, r && r->ops->hit_keys, call));
    if (!keys) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL keys", call);
    return r->ops->hit_keys(r->state, keys);
}

sc_status sc_renderer_resolve_keys(const sc_renderer *r, const uint64_t *winners, sc_hit *hits)
{
    static const char *const call = "sc_renderer_resolve_keys";
    SC_TRY(check_frame(r, r && r->ops->resolve_keys, call));
    if (!winners || !hits) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL buffer", call);
    return r->ops->resolve_keys(r->state, winners, hits);
}

sc_status sc_renderer_shade_keys(const sc_renderer *r, const uint64_t *winners, void *rgba, size_t pitch,
                                 int background)
{
    static const char *const call = "sc_renderer_shade_keys";
    SC_TRY(check_frame(r, r && r->ops->shade_keys, call));
    if (!winners || !rgba) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL buffer", call);
    SC_TRY(sc_resolve_pitch(pitch, r->params.width, r->params.height, call, &pitch));
    const sc_view_mode mode = r->shading.mode;
    if (mode != SC_VIEW_SHADED && mode != SC_VIEW_TRIANGLE_ID && mode != SC_VIEW_NORMALS)
        return SC_FAIL(SC_ERROR_UNSUPPORTED,
                       "%s: view mode \"%s\" shows per-renderer data; shares shade \"shaded\", \"id\" and \"normals\"",
                       call, sc_view_mode_name(mode));
    if (r->shadows)
        for (uint32_t i = 0; i < r->num_lights; ++i)
            if (!r->lights[i].no_shadows)
                return SC_FAIL(SC_ERROR_UNSUPPORTED,
                               "%s: shadows are on; a share cannot see the other shares' casters (turn them off)", call);
    return r->ops->shade_keys(r->state, winners, rgba, pitch, background);
}

/* The CUDA backend's table when built (the device composites), else UNSUPPORTED. */
static sc_status device_ops(const char *call, const sc_backend_ops **out)
{
    *out = sc_backend_find(SC_BACKEND_CUDA);
    if (!*out || !(*out)->keys_min) return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: built without CUDA", call);
    return SC_OK;
}

sc_status sc_hit_keys_composite_device(uint64_t *acc, const uint64_t *part, uint64_t count, cudaStream_t stream)
{
    static const char *const call = "sc_hit_keys_composite_device";
    const sc_backend_ops *ops;
    SC_TRY(device_ops(call, &ops));
    if (count && (!acc || !part)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL buffer", call);
    return ops->keys_min(acc, part, count, stream);
}

sc_status sc_hits_from_keys_device(sc_hit *hits, const uint64_t *keys, uint64_t count, cudaStream_t stream)
{
    static const char *const call = "sc_hits_from_keys_device";
    const sc_backend_ops *ops;
    SC_TRY(device_ops(call, &ops));
    if (count && (!hits || !keys)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL buffer", call);
    return ops->hits_from_keys(hits, keys, count, stream);
}

sc_status sc_hit_keys_composite(uint64_t *acc, const uint64_t *part, uint64_t count)
{
    if (count && (!acc || !part)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_hit_keys_composite: NULL buffer");
    for (uint64_t i = 0; i < count; ++i)
        if (part[i] < acc[i]) acc[i] = part[i];
    return SC_OK;
}
