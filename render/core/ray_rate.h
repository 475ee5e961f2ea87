/* ray_rate.h - the ray-triangle test rate of sc_backend_measure_limits, shared by both backends
 * (internal): the body one thread (a GPU thread, or a host worker's item) runs, and the host's
 * helpers around it (the median of the timed runs, the run's size).
 *
 * The body tests one ray against one triangle again and again with sc_intersect, the watertight test
 * of intersect.h that the ray cast and the shadow cast use, every operand in registers. After every
 * test the ray's origin moves by a step along each axis, wrapped into its range (three adds, three
 * compares and selects), so every test has operands the compiler cannot know and no part of it can be
 * hoisted out of the loop; the steps come from the caller at run time. The ray's direction is fixed, so
 * its axes (sc_ray_setup's permutation) are known once for all its tests, as a ray cast's tile knows
 * them for all its triangles. The hits are counted and the caller stores the count, so no test can be
 * dropped. The origin sweeps a 4 x 4 square around the triangle's shadow along the ray: about one test
 * in eight hits, the rest miss at the sign test, as most of a ray cast's tests do (a tile's triangles
 * cover few of its rays each). */
#ifndef SC_RAY_RATE_H
#define SC_RAY_RATE_H

#include <stdint.h>

#include "intersect.h"
#include "sc_hd.h"

/* The origin's steps per test along x, y and z: incommensurate with the 4 x 4 x 1 box, so the origins
 * of a thread's tests spread over it. Passed to the body by the caller (kernel argument, work item),
 * never as constants. */
#define SC_RAY_RATE_STEP_X 0.8125f
#define SC_RAY_RATE_STEP_Y 0.3671875f
#define SC_RAY_RATE_STEP_Z 0.0390625f

/* Runs `tests` ray-triangle tests for thread `lane` (which shifts its triangle by a few 1/4096ths, so
 * threads differ); returns the hits. Bit for bit the same on the host and the device. */
SC_HD static inline uint32_t sc_ray_rate_run(uint32_t lane, uint32_t tests, float step_x, float step_y, float step_z)
{
    const float j = SC_FMUL((float)(lane & 255u), 0.000244140625f); /* lane / 4096 */
    /* No two corners share a coordinate, so no subtraction of the test is shared between them. */
    const float a[3] = {j, 0.015625f, 4.0f};
    const float b[3] = {SC_FADD(2.0f, j), -0.0078125f, 4.5f};
    const float c[3] = {SC_FADD(0.0234375f, j), 2.0f, 5.0f};
    const float org[3] = {-1.0f, -1.0f, 0.0f};
    const float dir[3] = {0.0625f, 0.03125f, 1.0f};
    sc_ray ray;
    sc_ray_setup(&ray, org, dir);
    uint32_t hits = 0;
    for (uint32_t i = 0; i < tests; ++i) {
        float t, u, v;
        hits += (uint32_t)sc_intersect(&ray, a, b, c, 0.0f, 3.0e38f, &t, &u, &v);
        ray.org[0] = SC_FADD(ray.org[0], step_x);
        ray.org[1] = SC_FADD(ray.org[1], step_y);
        ray.org[2] = SC_FADD(ray.org[2], step_z);
        if (ray.org[0] >= 3.0f) ray.org[0] = SC_FSUB(ray.org[0], 4.0f);
        if (ray.org[1] >= 3.0f) ray.org[1] = SC_FSUB(ray.org[1], 4.0f);
        if (ray.org[2] >= 1.0f) ray.org[2] = SC_FSUB(ray.org[2], 1.0f);
    }
    return hits;
}

/* Host helpers. */

/* The median of v[0 .. n) (n >= 1; sorts v in place): the middle value, or the mean of the two. */
static inline double sc_limits_median(double *v, int n)
{
    for (int i = 1; i < n; ++i)
        for (int k = i; k > 0 && v[k - 1] > v[k]; --k) {
            const double t = v[k];
            v[k] = v[k - 1];
            v[k - 1] = t;
        }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Tests per thread for a run of about target_ms, from a run of `tests` per thread that took ms:
 * within [lo, hi]. */
static inline uint32_t sc_ray_rate_tests_for(uint32_t tests, double ms, double target_ms, uint32_t lo, uint32_t hi)
{
    double want = ms > 0.0 ? (double)tests * target_ms / ms : (double)hi;
    if (!(want >= (double)lo)) want = (double)lo; /* NaN too */
    if (want > (double)hi) want = (double)hi;
    return (uint32_t)want;
}

#endif /* SC_RAY_RATE_H */
