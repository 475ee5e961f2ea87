/* brute_force.h - the test-only reference of the renderer: every pixel's ray against every
 * triangle (no grid, no slabs, no early exit), with the renderer's hit rules: the pixel-centre
 * ray of sc_frame.h, the watertight test of intersect.h, near <= t <= far, back faces dropped when
 * culling is on, triangles with a non-finite vertex dropped, ties to the lower triangle id. */
#ifndef SC_BRUTE_FORCE_H
#define SC_BRUTE_FORCE_H

#include <stdint.h>

#include "sc_frame.h"
#include "slabcast.h"

/* out: width x height hits, row 0 at the bottom. Rows are spread over num_threads threads. */
void sc_brute_force(const sc_frame_params *p, const float *positions, const uint32_t *indices,
                    uint32_t num_triangles, uint32_t num_threads, sc_hit *out);

#endif /* SC_BRUTE_FORCE_H */
