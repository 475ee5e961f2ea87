/* capacity.h - the one policy for the size of the reference buffer, for every backend (internal to
 * api/): how large it starts and how it grows when a frame's references do not fit. */
#ifndef SC_CAPACITY_H
#define SC_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#include "sc_status.h"

/* The first capacity for a mesh of `triangles`: `requested` (sc_renderer_desc.initial_ref_capacity,
 * checked) when nonzero, else SC_REF_CAPACITY_PER_TRIANGLE per triangle, at least
 * SC_MIN_REF_CAPACITY, at most SC_MAX_REF_CAPACITY. */
size_t sc_ref_capacity_initial(size_t requested, uint32_t triangles);

/* The capacity to grow to when a frame needs `needed` references: SC_REF_CAPACITY_GROWTH times it,
 * at most SC_MAX_REF_CAPACITY. OUT_OF_MEMORY (reported) when needed itself is above that bound. */
sc_status sc_ref_capacity_grown(size_t needed, size_t *capacity);

#endif /* SC_CAPACITY_H */
