/* brute_force_dense.h - a test-only reference for dense meshes (millions of triangles at 4K) that
 * shares no binning code with the renderer: only intersect.h (ray setup, the watertight test, the
 * back-face predicate, the tie rule) and the pixel ray of sc_frame.h.
 *
 * Each triangle is projected in double and tested against the pixel rays of its box widened by
 * SC_BFD_MARGIN_PX + SC_BFD_MARGIN_REL * (largest absolute pixel coordinate + focal length) pixels,
 * far more than float rounding can move a hit (the renderer's binning margin is about a tenth of a
 * pixel). A triangle with a vertex at or behind 1/16 of the near plane (whose projection may be
 * unbounded) is tested against every pixel; one wholly nearer than half the near plane or wholly
 * beyond twice the far plane is skipped (its hits would lie outside [near, far] by far more than
 * rounding).
 * The hit rules are the renderer's: near <= t <= far, non-finite triangles and (with culling on)
 * back faces dropped, the nearest hit wins and equal depths go to the lower triangle id. */
#ifndef SC_BRUTE_FORCE_DENSE_H
#define SC_BRUTE_FORCE_DENSE_H

#include <stdint.h>

#include "sc_frame.h"
#include "slabcast.h"

#define SC_BFD_MARGIN_PX 2.0
#define SC_BFD_MARGIN_REL 1.0e-4

/* Counters of one run. */
typedef struct sc_bfd_stats {
    uint64_t boxed;        /* triangles tested over their box */
    uint64_t whole_screen; /* triangles tested over every pixel */
    uint64_t skipped;      /* dropped: culled, non-finite, outside [near, far] or off screen */
    uint64_t ray_tests;    /* ray-triangle tests */
} sc_bfd_stats;

/* out: width x height hits, row 0 at the bottom. Rows are split into num_threads contiguous bands
 * of about equal work, one thread each (no locks). Returns 0, or -1 when memory runs out.
 * stats may be NULL. */
int sc_brute_force_dense(const sc_frame_params *p, const float *positions, const uint32_t *indices,
                         uint32_t num_triangles, uint32_t num_threads, sc_hit *out, sc_bfd_stats *stats);

#endif /* SC_BRUTE_FORCE_DENSE_H */
