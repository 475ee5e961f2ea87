/* share_halo.c - sc_mesh_share_make_halo (slabcast.h): an even share of a mesh with the triangles
 * around it, so that every vertex of its own triangles has its whole one-ring (in the whole mesh's
 * triangle order) and its owner's smooth normals are the whole mesh's. */
#include <stdlib.h>

#include "sc_report.h"
#include "share.h"

/* Whether triangle t uses a vertex marked in `mark`. */
static int touches(const sc_mesh_data *m, const unsigned char *mark, uint64_t t)
{
    const uint32_t *f = m->indices + 3 * t;
    return mark[f[0]] | mark[f[1]] | mark[f[2]];
}

sc_status sc_mesh_share_make_halo(const sc_mesh_data *mesh, uint32_t parts, uint32_t part, sc_mesh_share *out)
{
    static const char *const call = "sc_mesh_share_make_halo";
    uint32_t t0 = 0, t1 = 0;
    SC_TRY(sc_share_part(mesh, parts, part, out, call, &t0, &t1));
    const uint64_t n = mesh->triangle_count;
    /* The vertices of the owned triangles, then every triangle that uses one of them. */
    unsigned char *mark = calloc((size_t)mesh->vertex_count + 1, 1);
    out->triangle_ids = malloc(((size_t)n + 1) * sizeof *out->triangle_ids);
    if (!mark || !out->triangle_ids) {
        free(mark);
        sc_mesh_share_free(out);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory (%u vertices, %llu triangles)", call,
                       mesh->vertex_count, (unsigned long long)n);
    }
    for (uint64_t i = 3 * (uint64_t)t0; i < 3 * (uint64_t)t1; ++i) mark[mesh->indices[i]] = 1;
    uint32_t count = 0;
    for (uint64_t t = 0; t < n; ++t)
        if ((t >= t0 && t < t1) || touches(mesh, mark, t)) out->triangle_ids[count++] = (uint32_t)t;
    free(mark);
    SC_TRY(sc_share_compact(mesh, out->triangle_ids, 0, count, out, call));
    out->share.triangle_ids = out->triangle_ids;
    out->share.owned_first = t0;
    out->share.owned_count = t1 - t0;
    return SC_OK;
}
