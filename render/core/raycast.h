/* raycast.h - the rules every ray cast of the renderer follows (internal), shared by the CPU ray
 * cast, the CUDA slab kernels and the CUDA overflow fallback:
 *  - the per-triangle test: intersect.h's watertight test, a hit counting when near <= t <= far;
 *  - the tie rule: the nearer hit wins, at equal depth the lower triangle id (sc_hit_better), so the
 *    result does not depend on the order triangles are tested in;
 *  - the early exit: after slab k a ray is done when its nearest hit depth is below the near bound
 *    of slab k+1 (sc_ray_finished). Every triangle of a later slab has a depth key >= that bound and
 *    no hit on it is nearer than its key, so nothing later can win; a later hit at equal depth could,
 *    by a lower id: hence strictly below. */
#ifndef SC_RAYCAST_H
#define SC_RAYCAST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "intersect.h"
#include "sc_hd.h"
#include "slabcast.h"

/* A ray's nearest hit so far. */
typedef struct sc_ray_best {
    float t, u, v;
    uint32_t tri;                  /* SC_NO_HIT: none yet */
} sc_ray_best;

SC_HD static inline sc_ray_best sc_ray_best_none(void)
{
    sc_ray_best b = {INFINITY, 0.0f, 0.0f, SC_NO_HIT};
    return b;
}

/* Tests triangle tri (vertices a, b, c) and keeps the hit in *best when it is better. */
SC_HD static inline void sc_ray_test_triangle(const sc_ray *ray, const float *a, const float *b, const float *c,
                                              uint32_t tri, float tmin, float tmax, sc_ray_best *best)
{
    float t, u, v;
    if (sc_intersect(ray, a, b, c, tmin, tmax, &t, &u, &v) && sc_hit_better(t, tri, best->t, best->tri)) {
        best->t = t;
        best->u = u;
        best->v = v;
        best->tri = tri;
    }
}

/* The early exit: a ray whose nearest hit is at depth best_t needs no triangle of the slabs from the
 * one whose near bound is next_bound on. */
SC_HD static inline bool sc_ray_finished(float best_t, float next_bound) { return best_t < next_bound; }

#endif /* SC_RAYCAST_H */
