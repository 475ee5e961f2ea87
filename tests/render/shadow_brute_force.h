/* shadow_brute_force.h - the test-only reference of the shadow pass: every hit pixel's shadow ray, for
 * every light with shadows, against every triangle of the frame, under the contract of slabcast.h
 * ("Shadows: the contract"). It shares only render/core/shadow.h's sc_shadow_ray (origin, direction,
 * tmax; tmin = 0) and intersect.h's watertight test with the renderer: no light grid, no classify.h.
 *
 * A pixel is in shadow for a light when some triangle other than its hit triangle, with three finite
 * vertices (culling never applies to casters), hits the shadow ray with 0 <= t <= tmax.
 *
 * Pruning. The triangles are sorted by the Morton code of their centroids and cut into leaves of
 * SC_SBF_LEAF consecutive triangles; leaves are paired level by level into a tree of boxes. Every box
 * is widened by SC_SBF_MARGIN_REL x (scene extent + largest absolute coordinate), thousands of times
 * what float rounding can move a hit of the watertight test, and a box is entered when the ray's
 * segment, lengthened by SC_SBF_SLACK_REL at both ends, meets it (computed in double). The pruning
 * changes the time, never the answer; sc_sbf_blocker_exhaustive, which tests every triangle, checks
 * that on the pixels the tests print and on whole small frames. */
#ifndef SC_SHADOW_BRUTE_FORCE_H
#define SC_SHADOW_BRUTE_FORCE_H

#include <stdint.h>

#include "shadow.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SC_SBF_LEAF 8
#define SC_SBF_MARGIN_REL 1.0e-3
#define SC_SBF_SLACK_REL 1.0e-3

/* The pruning tree over one frame's triangles (opaque). */
typedef struct sc_sbf_scene sc_sbf_scene;

/* Counters of one reference run. */
typedef struct sc_sbf_stats {
    uint64_t rays;          /* shadow rays cast: hit pixels x lights with shadows */
    uint64_t blocked;       /* of those, in shadow */
    uint64_t box_tests;     /* segment-box tests */
    uint64_t ray_tests;     /* ray-triangle tests */
    double build_s, cast_s; /* seconds: the tree, the rays */
} sc_sbf_stats;

/* Builds the tree over triangles (indices, triangle_count x 3) of positions (vertex_count x 3, the
 * frame's deformed positions). Triangles with a non-finite vertex are left out. NULL when memory
 * runs out. positions and indices must outlive the scene. */
sc_sbf_scene *sc_sbf_build(const float *positions, uint32_t vertex_count, const uint32_t *indices,
                           uint32_t triangle_count);
void sc_sbf_free(sc_sbf_scene *s);

/* The shadow mask of a frame: out[i] (width x height bytes, row 0 at the bottom) has bit k set when
 * pixel i (hits[i], SC_NO_HIT: 0) is in shadow for lights[k]; lights without `shadows` leave their bit
 * 0. Pixels are spread over num_threads threads. stats may be NULL. */
void sc_sbf_mask(const sc_sbf_scene *s, const sc_hit *hits, uint32_t width, uint32_t height,
                 const sc_light_params *lights, uint32_t num_lights, uint32_t num_threads, uint8_t *out,
                 sc_sbf_stats *stats);

/* One hit's shadow ray towards l through the tree: the first blocker found (SC_NO_HIT: lit) and its t. */
uint32_t sc_sbf_blocker(const sc_sbf_scene *s, const sc_hit *hit, const sc_light_params *l, float *t_out);

/* The same against every triangle, without the tree: the lowest blocking triangle id (SC_NO_HIT: lit)
 * and its t. */
uint32_t sc_sbf_blocker_exhaustive(const float *positions, const uint32_t *indices, uint32_t triangle_count,
                                   const sc_hit *hit, const sc_light_params *l, float *t_out);

/* The lights of renderer r as its next frame casts them (the contract's resolved light): from
 * sc_renderer_get_lights (unit directions, colour x intensity) and sc_render_options.shadows: type,
 * position, to_light = minus the direction (directional), colour x intensity, shadows = the option
 * on and the light's no_shadows off. Returns the count (0 .. SC_MAX_LIGHTS). */
uint32_t sc_sbf_lights_of(const sc_renderer *r, sc_light_params out[SC_MAX_LIGHTS]);

/* Bits of the lights with shadows among lights[0 .. num_lights). */
uint8_t sc_sbf_shadow_bits(const sc_light_params *lights, uint32_t num_lights);

#ifdef __cplusplus
}
#endif

#endif /* SC_SHADOW_BRUTE_FORCE_H */
