/* share.c - shares of a mesh for sort-last rendering (slabcast.h): a share's description checked
 * and kept by the renderer, its hits read back with the whole mesh's triangle ids, a mesh cut into
 * shares, and the composite of the shares' hits (the order of render/core/composite.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "composite.h"
#include "mesh_bounds.h"
#include "sc_report.h"
#include "share.h"

static sc_status check_indices(const sc_mesh_data *m, const char *call)
{
    if (!m) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL mesh", call);
    return sc_mesh_check(m, call);
}

sc_status sc_share_resolve(const sc_share_desc *share, uint32_t triangle_count, const char *call, sc_share_ids *out)
{
    memset(out, 0, sizeof *out);
    out->owned_end = SC_NO_HIT;
    if (!share) return SC_OK;
    if (share->owned_count) {
        if ((uint64_t)share->owned_first + share->owned_count > SC_NO_HIT)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                           "%s: share.owned_first %u + share.owned_count %u passes SC_NO_HIT (0xFFFFFFFF)", call,
                           share->owned_first, share->owned_count);
        out->owned_first = share->owned_first;
        out->owned_end = share->owned_first + share->owned_count;
    }
    if (share->has_frame) {
        const float *c = share->frame_center;
        if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(c[2]) || !isfinite(share->frame_radius) ||
            !(share->frame_radius > 0.0f))
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                           "%s: share.frame_center must be finite and share.frame_radius finite and > 0 (has_frame set)",
                           call);
    }
    if (!share->triangle_ids) {
        if ((uint64_t)share->first_triangle + triangle_count > SC_NO_HIT)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                           "%s: share.first_triangle %u + %u triangles reaches SC_NO_HIT (0xFFFFFFFF); ids must stay below it",
                           call, share->first_triangle, triangle_count);
        out->first = share->first_triangle;
        return SC_OK;
    }
    for (uint32_t t = 0; t < triangle_count; ++t) {
        const uint32_t id = share->triangle_ids[t];
        if (id == SC_NO_HIT)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: share.triangle_ids[%u] is SC_NO_HIT (0xFFFFFFFF)", call, t);
        if (t > 0 && id <= share->triangle_ids[t - 1])
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                           "%s: share.triangle_ids must be strictly ascending; [%u] = %u after [%u] = %u", call, t, id,
                           t - 1, share->triangle_ids[t - 1]);
    }
    if (triangle_count) {
        out->ids = malloc((size_t)triangle_count * sizeof *out->ids);
        if (!out->ids) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory for share.triangle_ids", call);
        memcpy(out->ids, share->triangle_ids, (size_t)triangle_count * sizeof *out->ids);
    }
    return SC_OK;
}

void sc_share_map_hits(const sc_share_ids *share, sc_hit *hits, uint64_t count)
{
    if (!share->ids && share->first == 0) return;
    for (uint64_t i = 0; i < count; ++i) {
        if (hits[i].tri == SC_NO_HIT) continue;
        hits[i].tri = share->ids ? share->ids[hits[i].tri] : share->first + hits[i].tri;
    }
}

sc_status sc_mesh_frame(const sc_mesh_data *mesh, float center[3], float *radius)
{
    if (!center || !radius) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_frame: NULL argument");
    SC_TRY(check_indices(mesh, "sc_mesh_frame"));
    (void)sc_mesh_bounds(mesh, center, radius);
    return SC_OK;
}

sc_status sc_share_part(const sc_mesh_data *mesh, uint32_t parts, uint32_t part, sc_mesh_share *out, const char *call,
                        uint32_t *t0, uint32_t *t1)
{
    if (!out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL out", call);
    memset(out, 0, sizeof *out);
    if (parts == 0 || part >= parts)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: part %u of %u: parts must be > 0 and part < parts", call, part,
                       parts);
    SC_TRY(check_indices(mesh, call));
    const uint64_t n = mesh->triangle_count;
    *t0 = (uint32_t)(n * part / parts);
    *t1 = (uint32_t)(n * (part + 1) / parts);
    return SC_OK;
}

sc_status sc_share_compact(const sc_mesh_data *mesh, const uint32_t *ids, uint32_t first, uint32_t count,
                           sc_mesh_share *out, const char *call)
{
    /* The vertices of the share in the order its triangles first use them. */
    uint32_t *new_of_old = malloc(((size_t)mesh->vertex_count + 1) * sizeof *new_of_old);
    out->indices = malloc((3 * (size_t)count + 1) * sizeof *out->indices);
    if (!new_of_old || !out->indices) {
        free(new_of_old);
        sc_mesh_share_free(out);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory (%u vertices, %u triangles)", call,
                       mesh->vertex_count, count);
    }
    for (uint32_t v = 0; v < mesh->vertex_count; ++v) new_of_old[v] = UINT32_MAX;
    uint32_t used = 0;
    for (uint32_t k = 0; k < count; ++k) {
        const uint64_t t = ids ? ids[k] : (uint64_t)first + k;
        for (int j = 0; j < 3; ++j) {
            const uint32_t v = mesh->indices[3 * t + (uint64_t)j];
            if (new_of_old[v] == UINT32_MAX) new_of_old[v] = used++;
            out->indices[3 * (size_t)k + (size_t)j] = new_of_old[v];
        }
    }
    out->positions = malloc((3 * (size_t)used + 1) * sizeof *out->positions);
    if (!out->positions) {
        free(new_of_old);
        sc_mesh_share_free(out);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory (%u vertices)", call, used);
    }
    for (uint32_t v = 0; v < mesh->vertex_count; ++v)
        if (new_of_old[v] != UINT32_MAX)
            memcpy(out->positions + 3 * (size_t)new_of_old[v], mesh->positions + 3 * (size_t)v, 3 * sizeof(float));
    free(new_of_old);
    out->mesh.positions = out->positions;
    out->mesh.vertex_count = used;
    out->mesh.indices = out->indices;
    out->mesh.triangle_count = count;
    out->share.has_frame = 1;
    (void)sc_mesh_bounds(mesh, out->share.frame_center, &out->share.frame_radius);
    return SC_OK;
}

sc_status sc_mesh_share_make(const sc_mesh_data *mesh, uint32_t parts, uint32_t part, sc_mesh_share *out)
{
    static const char *const call = "sc_mesh_share_make";
    uint32_t t0 = 0, t1 = 0;
    SC_TRY(sc_share_part(mesh, parts, part, out, call, &t0, &t1));
    SC_TRY(sc_share_compact(mesh, NULL, t0, t1 - t0, out, call));
    out->share.first_triangle = t0;
    return SC_OK;
}

void sc_mesh_share_free(sc_mesh_share *share)
{
    if (!share) return;
    free(share->positions);
    free(share->indices);
    free(share->triangle_ids);
    memset(share, 0, sizeof *share);
}

sc_status sc_hits_composite(sc_hit *acc, const sc_hit *part, uint64_t count)
{
    if (count && (!acc || !part)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_hits_composite: NULL buffer");
    for (uint64_t i = 0; i < count; ++i)
        if (sc_hit_composite_better(&acc[i], &part[i])) acc[i] = part[i];
    return SC_OK;
}
