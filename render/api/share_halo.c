/* share_halo.c - sc_mesh_share_make_halo (slabcast.h): an even share of a mesh with the triangles
 * around it, so that every vertex of its own triangles has its whole one-ring (in the whole mesh's
 * triangle order) and its owner's smooth normals are the whole mesh's. */
#include <stdlib.h>
#include <string.h>

#include "mesh_bounds.h"
#include "sc_report.h"

/* Whether triangle t uses a vertex marked in `mark`. */
static int touches(const sc_mesh_data *m, const unsigned char *mark, uint64_t t)
{
    const uint32_t *f = m->indices + 3 * t;
    return mark[f[0]] | mark[f[1]] | mark[f[2]];
}

sc_status sc_mesh_share_make_halo(const sc_mesh_data *mesh, uint32_t parts, uint32_t part, sc_mesh_share *out)
{
    static const char *const call = "sc_mesh_share_make_halo";
    if (!out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL out", call);
    memset(out, 0, sizeof *out);
    if (parts == 0 || part >= parts)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: part %u of %u: parts must be > 0 and part < parts", call, part,
                       parts);
    if (!mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL mesh", call);
    SC_TRY(sc_mesh_check(mesh, call));
    const uint64_t n = mesh->triangle_count;
    const uint32_t t0 = (uint32_t)(n * part / parts), t1 = (uint32_t)(n * (part + 1) / parts);
    /* The vertices of the owned triangles, then every triangle that uses one of them. */
    unsigned char *mark = calloc((size_t)mesh->vertex_count + 1, 1);
    uint32_t *new_of_old = malloc(((size_t)mesh->vertex_count + 1) * sizeof *new_of_old);
    out->triangle_ids = malloc(((size_t)n + 1) * sizeof *out->triangle_ids);
    if (!mark || !new_of_old || !out->triangle_ids) {
        free(mark);
        free(new_of_old);
        sc_mesh_share_free(out);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory (%u vertices, %llu triangles)", call,
                       mesh->vertex_count, (unsigned long long)n);
    }
    for (uint64_t i = 3 * (uint64_t)t0; i < 3 * (uint64_t)t1; ++i) mark[mesh->indices[i]] = 1;
    uint32_t count = 0;
    for (uint64_t t = 0; t < n; ++t)
        if ((t >= t0 && t < t1) || touches(mesh, mark, t)) out->triangle_ids[count++] = (uint32_t)t;
    free(mark);
    out->indices = malloc((3 * (size_t)count + 1) * sizeof *out->indices);
    if (!out->indices) {
        free(new_of_old);
        sc_mesh_share_free(out);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory (%u triangles)", call, count);
    }
    /* The vertices of the share's triangles in the order they first use them. */
    for (uint32_t v = 0; v < mesh->vertex_count; ++v) new_of_old[v] = UINT32_MAX;
    uint32_t used = 0;
    for (uint32_t k = 0; k < count; ++k)
        for (int j = 0; j < 3; ++j) {
            const uint32_t v = mesh->indices[3 * (size_t)out->triangle_ids[k] + j];
            if (new_of_old[v] == UINT32_MAX) new_of_old[v] = used++;
            out->indices[3 * (size_t)k + j] = new_of_old[v];
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
    out->share.triangle_ids = out->triangle_ids;
    out->share.owned_first = t0;
    out->share.owned_count = t1 - t0;
    out->share.has_frame = 1;
    (void)sc_mesh_bounds(mesh, out->share.frame_center, &out->share.frame_radius);
    return SC_OK;
}
