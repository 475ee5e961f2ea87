/* composite.h - the order of hits across renderers (internal), shared by the host composite and
 * the device composites: the better hit is the nearer, at equal depth the one with the lower
 * triangle id (sc_hit_better, the rule inside one renderer), and a pixel without a hit loses.
 *
 * As one 64-bit key (for a reduction by minimum, e.g. ncclMin over uint64): the depth's bits above
 * the triangle id. A hit's depth is positive (at least the near plane), and the bit patterns of
 * positive floats order like the floats, so the smaller key is the better hit; no hit is the
 * largest key. */
#ifndef SC_COMPOSITE_H
#define SC_COMPOSITE_H

#include <stdint.h>
#include <string.h>

#include "intersect.h"
#include "sc_hd.h"
#include "slabcast.h"

/* The key of a hit (tri, depth); SC_HIT_KEY_NONE for tri == SC_NO_HIT. */
SC_HD static inline uint64_t sc_hit_key(uint32_t tri, float depth)
{
    if (tri == SC_NO_HIT) return SC_HIT_KEY_NONE;
    uint32_t bits;
    memcpy(&bits, &depth, sizeof bits);
    return (uint64_t)bits << 32 | tri;
}

/* Whether hit b is better than hit a (the composite keeps b). */
SC_HD static inline int sc_hit_composite_better(const sc_hit *a, const sc_hit *b)
{
    if (b->tri == SC_NO_HIT) return 0;
    if (a->tri == SC_NO_HIT) return 1;
    return sc_hit_better(b->depth, b->tri, a->depth, a->tri);
}

#endif /* SC_COMPOSITE_H */
