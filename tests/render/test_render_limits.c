/* test_render_limits.c - sc_backend_measure_limits on the CPU backend: the copy bandwidth and the ray-
 * triangle test rate measured, positive and finite, with the sizes the call says it used; the body of
 * the rate measurement (render/core/ray_rate.h) hitting about one test in eight, the same on every
 * call; its host helpers; the errors: NULL, an unknown backend, and a backend that is not built or
 * does not run here (the CUDA backend on a machine without a GPU); and sc_deformer_reads_normals. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ray_rate.h"
#include "render_tuning.h"
#include "slabcast.h"
#include "sctest.h"

static int all_zero(const sc_device_limits *l)
{
    static const sc_device_limits zero;
    return memcmp(l, &zero, sizeof zero) == 0;
}

static void test_limits_cpu(void)
{
    sc_device_limits l;
    SCT_REQUIRE_OK(sc_backend_measure_limits(SC_BACKEND_CPU, 2, &l));
    printf("      cpu, 2 threads: copy %.2f GB/s (%.3f ms for %llu bytes), %.4g ray tests/s (%llu in %.3f ms, "
           "%.4f hit)\n",
           l.copy_gbs, l.copy_ms, (unsigned long long)l.copy_bytes, l.ray_tests_per_s, (unsigned long long)l.ray_tests,
           l.ray_ms, l.ray_hit_fraction);
    SCT_CHECK_MSG(isfinite(l.copy_gbs) && l.copy_gbs > 0.0, "copy %g GB/s", l.copy_gbs);
    SCT_CHECK_MSG(isfinite(l.ray_tests_per_s) && l.ray_tests_per_s > 0.0, "%g tests/s", l.ray_tests_per_s);
    SCT_CHECK(isfinite(l.copy_ms) && l.copy_ms > 0.0 && isfinite(l.ray_ms) && l.ray_ms > 0.0);
    SCT_CHECK_EQ_U64(l.copy_bytes, (uint64_t)SC_LIMITS_COPY_MIB << 20);
    SCT_CHECK_EQ_U64(l.runs, SC_LIMITS_RUNS);
    SCT_CHECK_EQ_U64(l.threads, 2);
    /* Every item of a run has the same tests: items = threads x SC_LIMITS_CPU_ITEMS_PER_THREAD. */
    SCT_CHECK(l.ray_tests > 0 && l.ray_tests % (2 * SC_LIMITS_CPU_ITEMS_PER_THREAD) == 0);
    SCT_CHECK_MSG(l.ray_hit_fraction > 0.08 && l.ray_hit_fraction < 0.17, "hit fraction %g", l.ray_hit_fraction);
    /* The rate and bandwidth are what the times say. */
    SCT_CHECK(fabs(l.copy_gbs - 2.0 * (double)l.copy_bytes / (l.copy_ms * 1e6)) <= 1e-9 * l.copy_gbs);
    SCT_CHECK(fabs(l.ray_tests_per_s - (double)l.ray_tests / (l.ray_ms * 1e-3)) <= 1e-9 * l.ray_tests_per_s);
    /* 0 threads: one per core, as a renderer's default. */
    sc_backend_info info;
    SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_CPU, &info));
    SCT_REQUIRE_OK(sc_backend_measure_limits(SC_BACKEND_CPU, 0, &l));
    SCT_CHECK_EQ_U64(l.threads, info.worker_threads);
    SCT_CHECK(l.copy_gbs > 0.0 && l.ray_tests_per_s > 0.0);
}

/* The rate's body: deterministic, about one hit in eight whatever the lane, every test counted (a
 * plain loop of sc_intersect over the same origins gives the same hits). */
static void test_ray_rate_body_cpu(void)
{
    const uint32_t tests = 4096;
    for (uint32_t lane = 0; lane < 1024; lane += 97) {
        const uint32_t hits = sc_ray_rate_run(lane, tests, SC_RAY_RATE_STEP_X, SC_RAY_RATE_STEP_Y, SC_RAY_RATE_STEP_Z);
        SCT_CHECK_EQ_U64(hits, sc_ray_rate_run(lane, tests, SC_RAY_RATE_STEP_X, SC_RAY_RATE_STEP_Y, SC_RAY_RATE_STEP_Z));
        const double f = (double)hits / tests;
        SCT_CHECK_MSG(f > 0.09 && f < 0.16, "lane %u: hit fraction %g", lane, f);
    }
    /* Zero steps: the origin stays at (-1, -1, 0), whose ray passes beside the triangle. */
    SCT_CHECK_EQ_U64(sc_ray_rate_run(0, 100, 0.0f, 0.0f, 0.0f), 0);
    /* An origin under the triangle: every test hits. */
    const float a[3] = {0.0f, 0.0f, 4.0f}, b[3] = {2.0f, 0.0f, 4.5f}, c[3] = {0.0f, 2.0f, 5.0f};
    const float org[3] = {0.25f, 0.25f, 0.0f}, dir[3] = {0.0625f, 0.03125f, 1.0f};
    sc_ray ray;
    sc_ray_setup(&ray, org, dir);
    float t, u, v;
    SCT_CHECK(sc_intersect(&ray, a, b, c, 0.0f, 3.0e38f, &t, &u, &v) == 1);
}

static void test_helpers_cpu(void)
{
    double odd[] = {5.0, 1.0, 4.0, 2.0, 3.0};
    SCT_CHECK(sc_limits_median(odd, 5) == 3.0);
    double even[] = {4.0, 1.0, 3.0, 2.0};
    SCT_CHECK(sc_limits_median(even, 4) == 2.5);
    double one[] = {7.0};
    SCT_CHECK(sc_limits_median(one, 1) == 7.0);
    /* 1000 tests took 0.25 ms: 4000 for 1 ms; clamped to [lo, hi]; a zero time asks for the most. */
    SCT_CHECK_EQ_U64(sc_ray_rate_tests_for(1000, 0.25, 1.0, 64, 1u << 24), 4000);
    SCT_CHECK_EQ_U64(sc_ray_rate_tests_for(1000, 0.25, 1.0, 64, 3000), 3000);
    SCT_CHECK_EQ_U64(sc_ray_rate_tests_for(1000, 100.0, 1.0, 64, 3000), 64);
    SCT_CHECK_EQ_U64(sc_ray_rate_tests_for(1000, 0.0, 1.0, 64, 3000), 3000);
}

static void test_limits_errors_cpu(void)
{
    sc_device_limits l;
    SCT_CHECK(sc_backend_measure_limits(SC_BACKEND_CPU, 1, NULL) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "sc_backend_measure_limits") != NULL);
    memset(&l, 0xff, sizeof l);
    SCT_CHECK(sc_backend_measure_limits((sc_backend)SC_BACKEND_COUNT, 1, &l) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(all_zero(&l));
    memset(&l, 0xff, sizeof l);
    SCT_CHECK(sc_backend_measure_limits((sc_backend)-1, 1, &l) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(all_zero(&l));
    /* A backend that is not built, or built but without its device here: UNSUPPORTED, saying why. */
    sc_backend_info cuda;
    SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_CUDA, &cuda));
    if (cuda.available) {
        printf("      (a CUDA device is here: the unavailable backend's error is not seen)\n");
        return;
    }
    memset(&l, 0xff, sizeof l);
    sc_clear_error();
    SCT_CHECK(sc_backend_measure_limits(SC_BACKEND_CUDA, 1, &l) == SC_ERROR_UNSUPPORTED);
    SCT_CHECK(all_zero(&l));
    SCT_CHECK(sc_last_status() == SC_ERROR_UNSUPPORTED);
    const char *msg = sc_last_error();
    SCT_CHECK_MSG(strstr(msg, "sc_backend_measure_limits") && strstr(msg, "cuda"), "message: %s", msg);
    if (cuda.built) SCT_CHECK_MSG(strstr(msg, cuda.unavailable_reason) != NULL, "message: %s; reason: %s", msg,
                                  cuda.unavailable_reason);
    printf("      %s\n", msg);
}

static void test_deformer_reads_normals_cpu(void)
{
    SCT_CHECK(sc_deformer_reads_normals(SC_DEFORMER_TWIST) == 0);
    SCT_CHECK(sc_deformer_reads_normals(SC_DEFORMER_BEND) == 0);
    SCT_CHECK(sc_deformer_reads_normals(SC_DEFORMER_WAVE) == 0);
    SCT_CHECK(sc_deformer_reads_normals(SC_DEFORMER_PULSE) == 1);
    SCT_CHECK(sc_deformer_reads_normals(SC_DEFORMER_NOISE) == 1);
    SCT_CHECK(sc_deformer_reads_normals(SC_DEFORMER_COUNT) == -1);
    SCT_CHECK(sc_deformer_reads_normals((sc_deformer)-1) == -1);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_limits");
    SCT_RUN(test_ray_rate_body_cpu);
    SCT_RUN(test_helpers_cpu);
    SCT_RUN(test_limits_errors_cpu);
    SCT_RUN(test_deformer_reads_normals_cpu);
    SCT_RUN(test_limits_cpu);
    return sct_end();
}
