/* test_bench_floor.c - the stage models of slabcast-bench's floor (bench_floor.h, docs/BENCH.md) on
 * hand-computed frames: every stage's bytes and the casts' tests; the ray cast's references read with
 * and without early exits; the shadow stages with one and two lights; the floor times, "x floor" and
 * the fractions of the copy bandwidth and test rate at given limits; no floor (NaN) where a stage moves
 * nothing; counts past 64 bits and limits that are not positive refused. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench_floor.h"
#include "sctest.h"

/* Relative closeness, for times computed in double. */
static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (fabs(a) > fabs(b) ? fabs(a) : fabs(b)) + 1e-300;
}

/* A 64x48 target in 8x8 tiles (48 tiles), 4 slabs; a mesh of 100 vertices and 150 triangles, 120 of
 * them visible with 300 references; 5000 ray-triangle tests, no tile exited early, 2000 hit pixels;
 * shadows off. */
static bench_floor_input base_frame(void)
{
    bench_floor_input in;
    memset(&in, 0, sizeof in);
    in.vertices = 100;
    in.triangles = 150;
    in.pixels = 64 * 48;
    in.tiles = 48;
    in.tile_size = 8;
    in.num_slabs = 4;
    in.visible_triangles = 120;
    in.references = 300;
    in.ray_triangle_tests = 20000; /* the counter: the references read follow it */
    in.ray_tests_performed = 5000; /* the tests run: the floor's tests */
    in.hit_pixels = 2000;
    return in;
}

static void test_eye_pass(void)
{
    const bench_floor_input in = base_frame();
    uint64_t bytes[SC_STAGE_COUNT], tests[SC_STAGE_COUNT];
    SCT_REQUIRE(bench_floor_bytes(&in, bytes, tests) == 0);
    /* deform: 100 x (12 read + 12 written) */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_DEFORM], 2400);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_NORMALS], 0);
    /* project: 150 x (12 indices + 4 key) + 100 x 12 positions + 120 x 16 records + 48 x 4 counts */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_PROJECT], 2400 + 1200 + 1920 + 192);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_REDUCE], 0);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SCAN], 0);
    /* emit: 150 x 4 keys + 120 x 16 records + 300 x 8 pairs */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_EMIT], 600 + 1920 + 2400);
    /* tile split: 300 x 16 (pairs read and written) + 48 x 8 (counts read, offsets written) */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_TILE_SPLIT], 4800 + 384);
    /* slab split: 300 x (8 read + 4 written) + 4 x (48 x 4 + 1) cell offsets */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SLAB_SPLIT], 3600 + 772);
    /* ray cast, no early exit: every reference (4 id + 48 triangle) + 3072 x 16 hits */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_RAYCAST], 15600 + 49152);
    SCT_CHECK_EQ_U64(tests[SC_STAGE_RAYCAST], 5000);
    /* shadows off: nothing */
    for (int s = SC_STAGE_SHADOW_RECEIVERS; s <= SC_STAGE_SHADOW_CAST; ++s) {
        SCT_CHECK_EQ_U64(bytes[s], 0);
        SCT_CHECK_EQ_U64(tests[s], 0);
    }
    /* shade: 3072 x (16 + 4) + 2000 hit pixels x 48 */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADE], 61440 + 96000);
    for (int s = 0; s < SC_STAGE_COUNT; ++s)
        if (s != SC_STAGE_RAYCAST) SCT_CHECK_MSG(tests[s] == 0, "stage %d: %llu tests", s, (unsigned long long)tests[s]);
}

static void test_normals_and_early_exit(void)
{
    bench_floor_input in = base_frame();
    in.reads_normals = 1;
    in.tiles_exited_early = 10;
    uint64_t bytes[SC_STAGE_COUNT], tests[SC_STAGE_COUNT];
    SCT_REQUIRE(bench_floor_bytes(&in, bytes, tests) == 0);
    /* deform reads the rest normals too: 100 x 36 */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_DEFORM], 3600);
    /* references read: at least ceil(20000 / 64) = 313, but no more than the 300 references */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_RAYCAST], 300 * 52 + 49152);
    /* ... at least ceil(5000 / 64) = 79 of them; the tests are those run, not the counter */
    in.ray_triangle_tests = 5000;
    in.ray_tests_performed = 50000;
    SCT_REQUIRE(bench_floor_bytes(&in, bytes, tests) == 0);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_RAYCAST], 79 * 52 + 49152);
    SCT_CHECK_EQ_U64(tests[SC_STAGE_RAYCAST], 50000);
    /* 64 tests, 1-pixel tiles: 64 references read */
    in.ray_triangle_tests = 64;
    in.tile_size = 1;
    SCT_REQUIRE(bench_floor_bytes(&in, bytes, tests) == 0);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_RAYCAST], 64 * 52 + 49152);
}

static void test_shadow_pass(void)
{
    bench_floor_input in = base_frame();
    in.shadow_lights = 1;
    in.shadow_receivers = 2000;
    in.shadow_references = 700;
    in.shadow_ray_tests = 9000;
    uint64_t bytes[SC_STAGE_COUNT], tests[SC_STAGE_COUNT];
    SCT_REQUIRE(bench_floor_bytes(&in, bytes, tests) == 0);
    /* receivers: 3072 x 16 hits + 2000 x (48 triangle + 16 origin + 8 pair + 8 read + 4 written) */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADOW_RECEIVERS], 49152 + 168000);
    /* emit: 150 x 12 indices + 100 x 12 positions + 700 x (8 pair + 32 record) */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADOW_EMIT], 1800 + 1200 + 28000);
    /* split: 700 x 16 */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADOW_SPLIT], 11200);
    /* cast: 2000 x (4 pixel + 16 origin + 4 hit triangle + 1 mask), and the tests */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADOW_CAST], 50000);
    SCT_CHECK_EQ_U64(tests[SC_STAGE_SHADOW_CAST], 9000);
    /* shade reads the mask too: + 3072 */
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADE], 61440 + 96000 + 3072);
    /* Two lights: the per-light reads twice, the per-receiver and per-reference terms as counted. */
    in.shadow_lights = 2;
    in.shadow_receivers = 4000;
    SCT_REQUIRE(bench_floor_bytes(&in, bytes, tests) == 0);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADOW_RECEIVERS], 2 * 49152 + 4000 * 84);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADOW_EMIT], 2 * 1800 + 2 * 1200 + 28000);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADOW_CAST], 4000 * 25);
    SCT_CHECK_EQ_U64(bytes[SC_STAGE_SHADE], 61440 + 96000 + 3072);
}

/* Limits of 1 GB/s (1e6 bytes per ms) and 1e6 tests/s (1e3 per ms). */
static sc_device_limits unit_limits(void)
{
    sc_device_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.copy_gbs = 1.0;
    lim.ray_tests_per_s = 1e6;
    return lim;
}

/* Every floor by hand at unit_limits(). */
static void test_times(void)
{
    const bench_floor_input in = base_frame();
    const sc_device_limits lim = unit_limits();
    double median[SC_STAGE_COUNT + 1];
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) median[s] = 1.0;
    median[SC_STAGE_DEFORM] = 0.0048;  /* 2 x its floor of 0.0024 ms */
    median[SC_STAGE_RAYCAST] = 10.0;   /* 2 x its floor: 5000 tests, 5 ms (bytes: 0.064752 ms) */
    median[SC_STAGE_COUNT] = 2.0 * (0.180028 + 5.0);
    bench_floor f;
    SCT_REQUIRE(bench_floor_compute(&in, &lim, median, &f) == 0);
    const bench_floor_stage *d = &f.stage[SC_STAGE_DEFORM], *r = &f.stage[SC_STAGE_RAYCAST];
    SCT_CHECK(close_to(d->bytes_ms, 0.0024) && d->tests_ms == 0.0 && close_to(d->ms, 0.0024));
    SCT_CHECK(close_to(d->ratio, 2.0) && close_to(d->frac_copy, 0.5) && isnan(d->frac_tests));
    SCT_CHECK(close_to(r->bytes_ms, 0.064752) && close_to(r->tests_ms, 5.0) && close_to(r->ms, 5.0));
    SCT_CHECK(close_to(r->ratio, 2.0) && close_to(r->frac_copy, 0.0064752) && close_to(r->frac_tests, 0.5));
    /* No floor where a stage moves nothing: normals, reduce, scan, the shadow stages with shadows off. */
    const int none[] = {SC_STAGE_NORMALS, SC_STAGE_REDUCE, SC_STAGE_SCAN, SC_STAGE_SHADOW_RECEIVERS,
                        SC_STAGE_SHADOW_EMIT, SC_STAGE_SHADOW_SPLIT, SC_STAGE_SHADOW_CAST};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; ++i) {
        const bench_floor_stage *g = &f.stage[none[i]];
        SCT_CHECK_MSG(g->bytes == 0 && g->ms == 0.0 && isnan(g->ratio) && isnan(g->frac_copy), "stage %d", none[i]);
    }
    /* The frame: the stages' sums; 244780 bytes (0.24478 ms at the copy bandwidth); the floor is the
     * sum of the stages' floors, the ray cast's its tests: 0.180028 + 5 ms. */
    const bench_floor_stage *fr = &f.stage[SC_STAGE_COUNT];
    SCT_CHECK_EQ_U64(fr->bytes, 244780);
    SCT_CHECK_EQ_U64(fr->tests, 5000);
    SCT_CHECK(close_to(fr->bytes_ms, 0.24478) && close_to(fr->tests_ms, 5.0));
    SCT_CHECK_MSG(close_to(fr->ms, 5.180028), "frame floor %.9f", fr->ms);
    SCT_CHECK(close_to(fr->ratio, 2.0));
    SCT_CHECK(close_to(fr->frac_copy, 0.24478 / median[SC_STAGE_COUNT]));
    SCT_CHECK(close_to(fr->frac_tests, 5.0 / median[SC_STAGE_COUNT]));
    /* A stage faster than its floor (its data in the caches): reported as it is. */
    median[SC_STAGE_SHADE] = 0.1;
    SCT_REQUIRE(bench_floor_compute(&in, &lim, median, &f) == 0);
    SCT_CHECK(close_to(f.stage[SC_STAGE_SHADE].ratio, 0.1 / 0.15744) && f.stage[SC_STAGE_SHADE].frac_copy > 1.0);
}

static void test_refused(void)
{
    bench_floor_input in = base_frame();
    sc_device_limits lim = unit_limits();
    double median[SC_STAGE_COUNT + 1];
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) median[s] = 1.0;
    bench_floor f;
    /* Counts whose bytes do not fit 64 bits. */
    in.vertices = UINT64_MAX / 10;
    uint64_t bytes[SC_STAGE_COUNT], tests[SC_STAGE_COUNT];
    SCT_CHECK(bench_floor_bytes(&in, bytes, tests) == -1);
    for (int s = 0; s < SC_STAGE_COUNT; ++s) SCT_CHECK(bytes[s] == 0 && tests[s] == 0);
    SCT_CHECK(bench_floor_compute(&in, &lim, median, &f) == -1);
    SCT_CHECK(isnan(f.stage[SC_STAGE_COUNT].ms) && isnan(f.stage[SC_STAGE_DEFORM].ratio));
    in = base_frame();
    in.tiles = UINT64_MAX / 2;  /* the cells, tiles x slabs */
    SCT_CHECK(bench_floor_bytes(&in, bytes, tests) == -1);
    in = base_frame();
    in.shadow_lights = 3;
    in.pixels = UINT64_MAX / 2; /* lights x pixels */
    SCT_CHECK(bench_floor_bytes(&in, bytes, tests) == -1);
    /* Limits not measured, zero or not finite: no floor. */
    in = base_frame();
    SCT_CHECK(bench_floor_compute(&in, NULL, median, &f) == -1);
    lim.copy_gbs = 0.0;
    SCT_CHECK(bench_floor_compute(&in, &lim, median, &f) == -1);
    lim.copy_gbs = INFINITY;
    SCT_CHECK(bench_floor_compute(&in, &lim, median, &f) == -1);
    lim.copy_gbs = 1.0;
    lim.ray_tests_per_s = NAN;
    SCT_CHECK(bench_floor_compute(&in, &lim, median, &f) == -1);
    SCT_CHECK(isnan(f.stage[SC_STAGE_RAYCAST].ms));
    /* An unknown median (a failed stage time): that stage's ratio is NaN, its floor stands. */
    lim.ray_tests_per_s = 1e6;
    median[SC_STAGE_EMIT] = NAN;
    SCT_REQUIRE(bench_floor_compute(&in, &lim, median, &f) == 0);
    SCT_CHECK(isnan(f.stage[SC_STAGE_EMIT].ratio) && close_to(f.stage[SC_STAGE_EMIT].ms, 0.00492));
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "bench_floor");
    SCT_RUN(test_eye_pass);
    SCT_RUN(test_normals_and_early_exit);
    SCT_RUN(test_shadow_pass);
    SCT_RUN(test_times);
    SCT_RUN(test_refused);
    return sct_end();
}
