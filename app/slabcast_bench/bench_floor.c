/* bench_floor.c - the stage models of the frame's floor (bench_floor.h; each model, with its formula,
 * in docs/BENCH.md). Every count is 64-bit and every product and sum is checked. */
#include "bench_floor.h"

#include <math.h>
#include <string.h>

/* Sizes of what the stages exchange, in bytes. */
enum {
    B_POSITION = 12,                 /* a vertex's position (or rest normal): 3 floats */
    B_INDICES = 12,                  /* a triangle's 3 vertex indices */
    B_TRIANGLE = 48,                 /* a triangle gathered: its indices and its 3 vertices' positions */
    B_KEY = 4,                       /* a triangle's depth key */
    B_TILE_RECORD = 16,              /* a visible triangle's tiles as project finds them for emit */
    B_WORD = 4,                      /* a count, an offset, an id */
    B_PAIR = 8,                      /* a reference: (key, value) */
    B_HIT = 16,                      /* sc_hit */
    B_RGBA = 4,                      /* a pixel */
    B_ORIGIN = 16,                   /* a shadow ray's origin and light depth */
    B_CASTER_RECORD = 32,            /* a caster reference's record: triangle, indices, image bounds */
    B_MASK = 1                       /* a pixel's shadow mask */
};

/* *acc += count * per; -1 when it does not fit 64 bits. */
static int add_product(uint64_t *acc, uint64_t count, uint64_t per)
{
    if (per != 0 && count > UINT64_MAX / per) return -1;
    const uint64_t p = count * per;
    if (p > UINT64_MAX - *acc) return -1;
    *acc += p;
    return 0;
}

/* The references the ray cast reads: all of them when no tile exits early; otherwise at least
 * ceil(tests / tile pixels), since a reference is read only while one of its tile's rays is live and
 * every live ray tests it. */
static uint64_t raycast_references_read(const bench_floor_input *in)
{
    if (in->tiles_exited_early == 0) return in->references;
    const uint64_t tile_pixels = (uint64_t)in->tile_size * in->tile_size;
    if (tile_pixels == 0) return 0;
    const uint64_t at_least = in->ray_triangle_tests / tile_pixels + (in->ray_triangle_tests % tile_pixels != 0);
    return at_least < in->references ? at_least : in->references;
}

int bench_floor_bytes(const bench_floor_input *in, uint64_t bytes[SC_STAGE_COUNT], uint64_t tests[SC_STAGE_COUNT])
{
    memset(bytes, 0, SC_STAGE_COUNT * sizeof bytes[0]);
    memset(tests, 0, SC_STAGE_COUNT * sizeof tests[0]);
    const uint64_t V = in->vertices, T = in->triangles, P = in->pixels, R = in->references;
    const uint64_t L = in->shadow_lights, RS = in->shadow_receivers, SR = in->shadow_references;
    uint64_t cells = 0;
    int bad = add_product(&cells, in->tiles, in->num_slabs) || add_product(&cells, 1, 1);
    /* deform: rest positions read and positions written; the rest normals read when a deformer moves
     * points along them. */
    uint64_t *b = &bytes[SC_STAGE_DEFORM];
    bad |= add_product(b, V, 2 * B_POSITION) || add_product(b, in->reads_normals ? V : 0, B_POSITION);
    /* project: every triangle's indices, every vertex's position; a key per triangle, the visible ones'
     * tile records and the tiles' reference counts written. */
    b = &bytes[SC_STAGE_PROJECT];
    bad |= add_product(b, T, B_INDICES + B_KEY) || add_product(b, V, B_POSITION) ||
           add_product(b, in->visible_triangles, B_TILE_RECORD) || add_product(b, in->tiles, B_WORD);
    /* emit: the keys and the visible triangles' records read, a (key, value) pair per reference written. */
    b = &bytes[SC_STAGE_EMIT];
    bad |= add_product(b, T, B_KEY) || add_product(b, in->visible_triangles, B_TILE_RECORD) ||
           add_product(b, R, B_PAIR);
    /* tile split: every pair read and written once; the tiles' counts read and offsets written. */
    b = &bytes[SC_STAGE_TILE_SPLIT];
    bad |= add_product(b, R, 2 * B_PAIR) || add_product(b, in->tiles, 2 * B_WORD);
    /* slab split: every pair read, its triangle id written; the cells' offsets written. */
    b = &bytes[SC_STAGE_SLAB_SPLIT];
    bad |= add_product(b, R, B_PAIR + B_WORD) || add_product(b, cells, B_WORD);
    /* ray cast: each reference read, its id and its triangle gathered; a hit per pixel written. */
    b = &bytes[SC_STAGE_RAYCAST];
    bad |= add_product(b, raycast_references_read(in), B_WORD + B_TRIANGLE) || add_product(b, P, B_HIT);
    /* ... and the ray-triangle tests it ran (not the counter of every reference of a slab times its
     * live rays, which the pixel bounds cut far below). */
    tests[SC_STAGE_RAYCAST] = in->ray_tests_performed;
    if (L > 0) {
        /* receivers, per light: the hits read; per receiver its hit triangle gathered, its origin and
         * (light tile, pixel) pair written, the pair grouped by tile (read, pixel written). */
        b = &bytes[SC_STAGE_SHADOW_RECEIVERS];
        uint64_t lp = 0;
        bad |= add_product(&lp, L, P) || add_product(b, lp, B_HIT) ||
               add_product(b, RS, B_TRIANGLE + B_ORIGIN + 2 * B_PAIR + B_WORD);
        /* emit, per light: every triangle's indices and every vertex's position read; per caster
         * reference its pair and its record written. */
        b = &bytes[SC_STAGE_SHADOW_EMIT];
        uint64_t lt = 0, lv = 0;
        bad |= add_product(&lt, L, T) || add_product(&lv, L, V) || add_product(b, lt, B_INDICES) ||
               add_product(b, lv, B_POSITION) || add_product(b, SR, B_PAIR + B_CASTER_RECORD);
        /* split: every caster pair read and written once. */
        bad |= add_product(&bytes[SC_STAGE_SHADOW_SPLIT], SR, 2 * B_PAIR);
        /* cast: per receiver its pixel, origin and hit triangle read and its mask written; the casters'
         * records are not counted (a ray stops at its first blocker and needs only the slabs in front
         * of it: the counters bound no number of records read), the tests are. */
        bad |= add_product(&bytes[SC_STAGE_SHADOW_CAST], RS, B_WORD + B_ORIGIN + B_WORD + B_MASK);
        tests[SC_STAGE_SHADOW_CAST] = in->shadow_ray_tests;
    }
    /* shade: every hit read and pixel written; the hit triangle gathered for a hit pixel's normal; the
     * shadow mask read with shadows. */
    b = &bytes[SC_STAGE_SHADE];
    bad |= add_product(b, P, B_HIT + B_RGBA) || add_product(b, in->hit_pixels, B_TRIANGLE) ||
           add_product(b, L > 0 ? P : 0, B_MASK);
    if (bad) {
        memset(bytes, 0, SC_STAGE_COUNT * sizeof bytes[0]);
        memset(tests, 0, SC_STAGE_COUNT * sizeof tests[0]);
        return -1;
    }
    return 0;
}

/* ratio = a / b where both are known and b > 0; NaN otherwise. */
static double ratio_of(double a, double b)
{
    return isfinite(a) && isfinite(b) && b > 0.0 ? a / b : NAN;
}

static void no_floor(bench_floor *out)
{
    memset(out, 0, sizeof *out);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        bench_floor_stage *f = &out->stage[s];
        f->bytes_ms = f->tests_ms = f->ms = f->ratio = f->frac_copy = f->frac_tests = NAN;
    }
}

int bench_floor_compute(const bench_floor_input *in, const sc_device_limits *limits, const double *median_ms,
                        bench_floor *out)
{
    no_floor(out);
    if (!limits || !(isfinite(limits->copy_gbs) && limits->copy_gbs > 0.0) ||
        !(isfinite(limits->ray_tests_per_s) && limits->ray_tests_per_s > 0.0))
        return -1;
    uint64_t bytes[SC_STAGE_COUNT], tests[SC_STAGE_COUNT];
    if (bench_floor_bytes(in, bytes, tests) != 0) return -1;
    const double bytes_per_ms = limits->copy_gbs * 1e6, tests_per_ms = limits->ray_tests_per_s * 1e-3;
    bench_floor_stage *frame = &out->stage[SC_STAGE_COUNT];
    memset(frame, 0, sizeof *frame);
    for (int s = 0; s < SC_STAGE_COUNT; ++s) {
        bench_floor_stage *f = &out->stage[s];
        f->bytes = bytes[s];
        f->tests = tests[s];
        f->bytes_ms = (double)bytes[s] / bytes_per_ms;
        f->tests_ms = (double)tests[s] / tests_per_ms;
        f->ms = f->bytes_ms > f->tests_ms ? f->bytes_ms : f->tests_ms;
        f->ratio = ratio_of(median_ms[s], f->ms);
        f->frac_copy = bytes[s] > 0 ? ratio_of(f->bytes_ms, median_ms[s]) : NAN;
        f->frac_tests = tests[s] > 0 ? ratio_of(f->tests_ms, median_ms[s]) : NAN;
        /* The frame: sums (each count below 2^64 and at most 14 of them: the sum is checked). */
        if (bytes[s] > UINT64_MAX - frame->bytes || tests[s] > UINT64_MAX - frame->tests) {
            no_floor(out);
            return -1;
        }
        frame->bytes += bytes[s];
        frame->tests += tests[s];
        frame->tests_ms += f->tests_ms;
        frame->ms += f->ms;
    }
    frame->bytes_ms = (double)frame->bytes / bytes_per_ms;
    frame->ratio = ratio_of(median_ms[SC_STAGE_COUNT], frame->ms);
    frame->frac_copy = frame->bytes > 0 ? ratio_of(frame->bytes_ms, median_ms[SC_STAGE_COUNT]) : NAN;
    frame->frac_tests = frame->tests > 0 ? ratio_of(frame->tests_ms, median_ms[SC_STAGE_COUNT]) : NAN;
    return 0;
}
