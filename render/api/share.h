/* share.h - a renderer's share of a larger mesh (internal to api/, share.c): the whole mesh's ids
 * of its triangles, for the hits it reads back. */
#ifndef SC_SHARE_H
#define SC_SHARE_H

#include <stdint.h>

#include "slabcast.h"

typedef struct sc_share_ids {
    uint32_t *ids;                 /* owned: the whole mesh's id of each triangle; NULL: first + t */
    uint32_t first;
    uint32_t owned_first, owned_end; /* the ids it owns: owned_first .. owned_end - 1 (all: 0 .. SC_NO_HIT) */
} sc_share_ids;

/* Checks share (NULL: none, the whole mesh) for a mesh of triangle_count triangles and fills *out
 * (its ids copied). */
sc_status sc_share_resolve(const sc_share_desc *share, uint32_t triangle_count, const char *call, sc_share_ids *out);
/* The checks of a share maker `call` (NULL out or mesh, parts 0, part >= parts, an index out of
 * range; *out zeroed) and part `part` of `parts`' triangles, [*t0, *t1). */
sc_status sc_share_part(const sc_mesh_data *mesh, uint32_t parts, uint32_t part, sc_mesh_share *out, const char *call,
                        uint32_t *t0, uint32_t *t1);
/* out's mesh made of the whole mesh's triangles ids[0 .. count) (ids NULL: first .. first + count - 1):
 * their vertices in first-use order, the whole mesh's frame; OUT_OF_MEMORY frees out. */
sc_status sc_share_compact(const sc_mesh_data *mesh, const uint32_t *ids, uint32_t first, uint32_t count,
                           sc_mesh_share *out, const char *call);
/* Hits of the share's triangles to the whole mesh's ids, in place. */
void sc_share_map_hits(const sc_share_ids *share, sc_hit *hits, uint64_t count);

#endif /* SC_SHARE_H */
