/* test_render_cpu.c - the CPU backend against the brute-force reference, pixel by pixel (triangle
 * id exactly, depth to 1e-6 relative), on scenes built around the traps of DESIGN.md section 2,
 * over several tile sizes, slab counts and resolutions; watertightness; grow-and-redo (cpu). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_test_util.h"

typedef struct grid_config { uint32_t tile, slabs; int cull; } grid_config;

static const grid_config CONFIGS[] = {{0, 0, 0}, {5, 3, 1}, {32, 1, 0}, {1, 64, 0}, {8, 1024, 1}};
enum { NUM_CONFIGS = sizeof CONFIGS / sizeof CONFIGS[0] };

/* Every configuration at w x h with the given camera; returns total mismatches. */
static long check_scene(const sc_mesh *m, uint32_t w, uint32_t h, const float eye[3], const float target[3],
                        float near_plane, float far_plane, const char *what, uint32_t max_configs)
{
    long bad = 0;
    for (uint32_t c = 0; c < NUM_CONFIGS && c < max_configs; ++c) {
        sc_renderer *r = make_renderer(w, h, CONFIGS[c].tile, CONFIGS[c].slabs, CONFIGS[c].cull);
        if (!r) return -1;
        sc_mesh_data md = sc_mesh_view(m);
        SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
        look(r, eye[0], eye[1], eye[2], target[0], target[1], target[2], near_plane, far_plane);
        char name[160];
        const sc_frame_params params = test_params(r);
        snprintf(name, sizeof name, "%s [%ux%u tile %u slabs %u cull %d]", what, w, h, params.tile_size,
                 params.num_slabs, CONFIGS[c].cull);
        long b = compare_with_brute_force(r, m, 0.0f, name, NULL);
        bad += b < 0 ? 1 : b;
        sc_renderer_destroy(r);
    }
    return bad;
}

/* Random triangles in a box in front of the camera (which looks down -z from the origin). */
static void random_soup(test_mesh *t, sct_rng *rng, uint32_t n, float size, float zlo, float zhi)
{
    for (uint32_t i = 0; i < n; ++i) {
        float c[3] = {rng_range(rng, -1, 1) * 0.6f * -zlo, rng_range(rng, -1, 1) * 0.6f * -zlo, rng_range(rng, zlo, zhi)};
        float v[3][3];
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d) v[k][d] = c[d] + rng_range(rng, -size, size);
        tm_tri3(t, v[0], v[1], v[2]);
    }
}

static const float ORIGIN[3] = {0, 0, 0}, FORWARD[3] = {0, 0, -1};

static void test_one_triangle(void)
{
    test_mesh t = {0};
    float a[3] = {-0.5f, -0.4f, -2}, b[3] = {0.6f, -0.3f, -2.5f}, c[3] = {0.1f, 0.7f, -1.5f};
    tm_tri3(&t, a, b, c);
    SCT_CHECK(check_scene(&t.m, 64, 48, ORIGIN, FORWARD, 0.1f, 100, "one triangle", NUM_CONFIGS) == 0);
    SCT_CHECK(check_scene(&t.m, 1, 1, ORIGIN, FORWARD, 0.1f, 100, "one triangle 1x1", NUM_CONFIGS) == 0);
    SCT_CHECK(check_scene(&t.m, 8, 8, ORIGIN, FORWARD, 0.1f, 100, "one triangle 8x8", NUM_CONFIGS) == 0);
    sc_mesh_free(&t.m);
}

static void test_empty_mesh(void)
{
    test_mesh t = {0};
    tm_vertex(&t, 0, 0, -1); /* vertices but no triangle */
    SCT_CHECK(check_scene(&t.m, 40, 30, ORIGIN, FORWARD, 0.1f, 100, "no triangles", 2) == 0);
    sc_mesh none = {0};
    sc_renderer *r = make_renderer(16, 16, 0, 0, 0);
    SCT_REQUIRE(r);
    sc_mesh_data md = sc_mesh_view(&none);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    uint8_t img[16 * 16 * 4];
    sc_frame_desc f = {0};
    f.rgba = img;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    sc_frame_stats s;
    SCT_CHECK_OK(sc_renderer_stats(r, &s));
    SCT_CHECK_EQ_U64(s.references, 0);
    SCT_CHECK_EQ_U64(s.hit_pixels, 0);
    SCT_CHECK_EQ_U64(s.ray_triangle_tests, 0);
    sc_renderer_destroy(r);
    sc_mesh_free(&t.m);
}

static void test_random_soup_resolutions(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 1);
    test_mesh t = {0};
    random_soup(&t, &rng, 120, 0.4f, -8, -1.5f);
    SCT_CHECK(check_scene(&t.m, 1000, 777, ORIGIN, FORWARD, 0.1f, 100, "soup", 3) == 0);
    SCT_CHECK(check_scene(&t.m, 1920, 1080, ORIGIN, FORWARD, 0.1f, 100, "soup", 1) == 0);
    SCT_CHECK(check_scene(&t.m, 123, 77, ORIGIN, FORWARD, 0.1f, 100, "soup odd size", NUM_CONFIGS) == 0);
    SCT_CHECK(check_scene(&t.m, 1, 1, ORIGIN, FORWARD, 0.1f, 100, "soup 1x1", NUM_CONFIGS) == 0);
    SCT_CHECK(check_scene(&t.m, 8, 8, ORIGIN, FORWARD, 0.1f, 100, "soup 8x8", NUM_CONFIGS) == 0);
    /* Pixel columns past 65535 (the triangles land around column 70000). */
    SCT_CHECK(check_scene(&t.m, 140001, 3, ORIGIN, FORWARD, 0.1f, 100, "soup 140001 wide", 1) == 0);
    sc_mesh_free(&t.m);
}

/* Large triangles all around the camera: many cross the near plane, some lie wholly behind it. */
static void test_partly_behind_camera(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 2);
    test_mesh t = {0};
    for (int i = 0; i < 60; ++i) {
        float v[3][3];
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d) v[k][d] = rng_range(&rng, -3, 3);
        tm_tri3(&t, v[0], v[1], v[2]);
    }
    SCT_CHECK(check_scene(&t.m, 160, 120, ORIGIN, FORWARD, 0.05f, 100, "around the camera", NUM_CONFIGS) == 0);
    SCT_CHECK(check_scene(&t.m, 97, 203, ORIGIN, FORWARD, 0.001f, 100, "around the camera, near 0.001", 2) == 0);
    sc_mesh_free(&t.m);
}

/* The camera inside closed meshes: every ray hits (no crack, nothing lost at the near plane). */
static void test_camera_inside_closed_mesh(void)
{
    test_mesh t = {0};
    float c[3] = {0.1f, -0.05f, 0.2f};
    tm_sphere(&t, c, 1.0f, 24, 40, sct_base_seed() + 3);
    sc_renderer *r = make_renderer(200, 150, 0, 0, 0);
    SCT_REQUIRE(r);
    sc_mesh_data md = sc_mesh_view(&t.m);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    look(r, 0.0f, 0.0f, 0.0f, 0.3f, 0.2f, -1.0f, 0.01f, 100);
    sc_hit *hits = NULL;
    SCT_CHECK(compare_with_brute_force(r, &t.m, 0.0f, "inside a sphere", &hits) == 0);
    size_t miss = 0;
    for (size_t i = 0; hits && i < 200 * 150; ++i) miss += hits[i].tri == SC_NO_HIT;
    SCT_CHECK_EQ_U64(miss, 0);
    free(hits);
    sc_renderer_destroy(r);
    sc_mesh_free(&t.m);

    /* Inside the tube of the built-in knot, looking along it. */
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(24, &knot));
    float ring0[3] = {0, 0, 0}, ring1[3] = {0, 0, 0};
    for (uint32_t j = 0; j < 24; ++j)
        for (int k = 0; k < 3; ++k) {
            ring0[k] += knot.positions[3 * j + k] / 24.0f;
            ring1[k] += knot.positions[3 * (24 + j) + k] / 24.0f;
        }
    for (uint32_t cfg = 0; cfg < NUM_CONFIGS; ++cfg) {
        r = make_renderer(160, 100, CONFIGS[cfg].tile, CONFIGS[cfg].slabs, 0);
        SCT_REQUIRE(r);
        md = sc_mesh_view(&knot);
        SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
        look(r, ring0[0], ring0[1], ring0[2], ring1[0], ring1[1], ring1[2], 0.001f, 10);
        hits = NULL;
        SCT_CHECK(compare_with_brute_force(r, &knot, 0.0f, "inside the knot's tube", &hits) == 0);
        miss = 0;
        for (size_t i = 0; hits && i < 160 * 100; ++i) miss += hits[i].tri == SC_NO_HIT;
        SCT_CHECK_EQ_U64(miss, 0);
        free(hits);
        sc_renderer_destroy(r);
    }
    sc_mesh_free(&knot);
}

/* A convex closed mesh seen from outside: every ray through its interior (by an independent
 * half-space test in double) hits, i.e. no background inside the silhouette. */
/* A renderer of w x h (tile, slabs; 0: defaults) holding mesh m, its eye at the origin looking down
 * -z with near 0.1 and far 100 (the view of most scenes here); NULL on failure. */
static sc_renderer *looking_ahead(const sc_mesh *m, uint32_t w, uint32_t h, uint32_t tile, uint32_t slabs)
{
    sc_renderer *r = make_renderer(w, h, tile, slabs, 0);
    if (!r) return NULL;
    sc_mesh_data md = sc_mesh_view(m);
    if (sc_renderer_set_mesh(r, &md) != SC_OK) {
        sc_renderer_destroy(r);
        return NULL;
    }
    look(r, 0, 0, 0, 0, 0, -1, 0.1f, 100);
    return r;
}

static void test_closed_mesh_no_background_inside_silhouette(void)
{
    test_mesh t = {0};
    float c[3] = {0.05f, 0.02f, -3.0f};
    tm_sphere(&t, c, 1.0f, 40, 64, sct_base_seed() + 4);
    const uint32_t W = 240, H = 180;
    sc_renderer *r = looking_ahead(&t.m, W, H, 0, 0);
    SCT_REQUIRE(r);
    sc_hit *hits = NULL;
    SCT_CHECK(compare_with_brute_force(r, &t.m, 0.0f, "convex sphere", &hits) == 0);
    SCT_REQUIRE(hits);
    size_t inside = 0, holes = 0;
    const sc_frame_params params = test_params(r), *p = &params;
    for (uint32_t y = 0; y < H; ++y)
        for (uint32_t x = 0; x < W; ++x) {
            float d[3];
            sc_pixel_ray_dir(p, x, y, d);
            double t0 = -INFINITY, t1 = INFINITY;
            for (uint32_t f = 0; f < t.m.triangle_count; ++f) {
                const uint32_t *ix = t.m.indices + 3 * f;
                const float *a = t.m.positions + 3 * ix[0], *b = t.m.positions + 3 * ix[1], *cc = t.m.positions + 3 * ix[2];
                double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]};
                double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
                double nd = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
                double na = n[0] * (a[0] - p->eye[0]) + n[1] * (a[1] - p->eye[1]) + n[2] * (a[2] - p->eye[2]);
                if (nd > 0) t1 = fmin(t1, na / nd);
                else if (nd < 0) t0 = fmax(t0, na / nd);
                else if (na < 0) t1 = -INFINITY;
            }
            if (t1 - t0 > 1e-3) {
                ++inside;
                holes += hits[(size_t)y * W + x].tri == SC_NO_HIT;
            }
        }
    SCT_CHECK(inside > W * H / 10);
    SCT_CHECK_EQ_U64(holes, 0);
    free(hits);
    sc_renderer_destroy(r);
    sc_mesh_free(&t.m);
}

/* Triangles right in front of the camera covering far more than 100 tiles each. */
static void test_close_up_triangles(void)
{
    test_mesh t = {0};
    float a[3] = {-5, -4, -0.5f}, b[3] = {6, -3, -0.7f}, c[3] = {0.2f, 7, -0.4f};
    tm_tri3(&t, a, b, c);
    float d[3] = {-3, 2, -0.3f}, e[3] = {-2, -3, -0.35f}, f[3] = {4, 0.5f, -0.9f};
    tm_tri3(&t, d, e, f);
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 5);
    random_soup(&t, &rng, 30, 0.3f, -4, -1);
    SCT_CHECK(check_scene(&t.m, 256, 200, ORIGIN, FORWARD, 0.1f, 100, "close-up", NUM_CONFIGS) == 0);
    sc_renderer *r = looking_ahead(&t.m, 256, 200, 8, 16);
    SCT_REQUIRE(r);
    sc_frame_desc fr = {0};
    SCT_CHECK_OK(sc_renderer_render(r, &fr));
    sc_frame_stats s;
    SCT_CHECK_OK(sc_renderer_stats(r, &s));
    const uint32_t *tri_tiles = test_buffers(r).tri_tiles;
    SCT_CHECK_MSG(tri_tiles[0] > 100 && tri_tiles[1] > 100, "tiles of the close-up triangles: %u, %u", tri_tiles[0],
                  tri_tiles[1]);
    SCT_CHECK(s.references >= (uint64_t)tri_tiles[0] + tri_tiles[1]);
    sc_renderer_destroy(r);
    sc_mesh_free(&t.m);
}

/* The early-exit trap: long thin triangles that start in the nearest slab and recede through many
 * slabs, with small triangles of later slabs in front of their far parts. A rule that stops at the
 * first slab with a hit returns the long triangle there; the exact rule does not. */
static void test_long_thin_triangles_across_slabs(void)
{
    test_mesh t = {0};
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 6);
    /* Floor strips below the eye from depth 1 to depth 20 (all in slab 0 by their nearest depth). */
    for (int i = 0; i < 12; ++i) {
        float x = -1.2f + 0.2f * (float)i;
        float a[3] = {x, -0.5f, -1.0f}, b[3] = {x + 0.3f, -0.5f, -20.0f}, c[3] = {x + 0.1f, -0.5f, -20.0f};
        tm_tri3(&t, a, b, c);
    }
    /* Small upright triangles standing on the strips at depths 3 .. 18. */
    for (int i = 0; i < 150; ++i) {
        int strip = (int)sct_rng_below(&rng, 12);
        float z = rng_range(&rng, -18, -3);
        float x = -1.2f + 0.2f * (float)strip + 0.2f * (-z - 1.0f) / 19.0f;
        float s = rng_range(&rng, 0.05f, 0.2f);
        float a[3] = {x - s, -0.5f - s, z}, b[3] = {x + s, -0.5f - s, z + rng_range(&rng, -0.1f, 0.1f)},
              c[3] = {x, -0.5f + s, z};
        tm_tri3(&t, a, b, c);
    }
    /* A backdrop wall, so that rays hit and tiles can finish early. */
    {
        float a[3] = {-60, -60, -25}, b[3] = {60, -60, -25}, c[3] = {0, 60, -25};
        tm_tri3(&t, a, b, c);
    }
    SCT_CHECK(check_scene(&t.m, 300, 200, ORIGIN, FORWARD, 0.1f, 100, "long thin triangles", NUM_CONFIGS) == 0);
    /* The trap is live: some pixel's winner is a small triangle although a long triangle of an
     * earlier slab is hit too, and some tiles exit early. */
    sc_renderer *r = looking_ahead(&t.m, 300, 200, 8, 16);
    SCT_REQUIRE(r);
    sc_frame_desc fr = {0};
    SCT_CHECK_OK(sc_renderer_render(r, &fr));
    sc_frame_stats s;
    SCT_CHECK_OK(sc_renderer_stats(r, &s));
    sc_hit *hits = malloc(300 * 200 * sizeof *hits);
    SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
    const sc_frame_params params = test_params(r), *p = &params;
    const float *tri_keys = test_buffers(r).tri_keys;
    size_t trapped = 0;
    for (uint32_t y = 0; y < 200; ++y)
        for (uint32_t x = 0; x < 300; ++x) {
            const sc_hit *h = &hits[y * 300 + x];
            if (h->tri == SC_NO_HIT || h->tri < 12 || h->tri == t.m.triangle_count - 1) continue;
            uint32_t win_slab = sc_slab_of(p, tri_keys[h->tri]);
            float d[3];
            sc_pixel_ray_dir(p, x, y, d);
            sc_ray ray;
            sc_ray_setup(&ray, p->eye, d);
            for (uint32_t k = 0; k < 12; ++k) {
                const uint32_t *f = t.m.indices + 3 * k;
                float th, u, v;
                if (sc_intersect(&ray, t.m.positions + 3 * f[0], t.m.positions + 3 * f[1], t.m.positions + 3 * f[2],
                                 p->near_plane, p->far_plane, &th, &u, &v) &&
                    sc_slab_of(p, tri_keys[k]) < win_slab) {
                    ++trapped;
                    break;
                }
            }
        }
    SCT_CHECK_MSG(trapped > 100, "pixels where a later slab beats a hit of an earlier slab: %zu", trapped);
    SCT_CHECK_MSG(s.tiles_exited_early > 0, "tiles exited early: %llu", (unsigned long long)s.tiles_exited_early);
    /* The tests run: the pixel bounds cut them below the counter, and each hit pixel's winner is one. */
    SCT_CHECK_MSG(s.hit_pixels <= s.ray_tests_performed && s.ray_tests_performed < s.ray_triangle_tests,
                  "tests run %llu, hit pixels %llu, counter %llu", (unsigned long long)s.ray_tests_performed,
                  (unsigned long long)s.hit_pixels, (unsigned long long)s.ray_triangle_tests);
    free(hits);
    sc_renderer_destroy(r);
    sc_mesh_free(&t.m);
}

/* Many overlapping triangles inside one tile, at many depths. */
static void test_everything_in_one_tile(void)
{
    test_mesh t = {0};
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 7);
    /* 64x64 target, 60 degree field of view: every vertex within 2 pixels of the ray of pixel
     * (12, 12), the centre of tile (1, 1). */
    for (int i = 0; i < 200; ++i) {
        float z = rng_range(&rng, 1, 10);
        const float ratio = (12.5f / 32.0f - 1.0f) * 0.57735f; /* x / depth of pixel 12's centre */
        float v[3][3];
        for (int k = 0; k < 3; ++k) {
            float zk = z * rng_range(&rng, 0.95f, 1.05f);
            v[k][0] = (ratio + rng_range(&rng, -0.03f, 0.03f)) * zk;
            v[k][1] = (ratio + rng_range(&rng, -0.03f, 0.03f)) * zk;
            v[k][2] = -zk;
        }
        tm_tri3(&t, v[0], v[1], v[2]);
    }
    SCT_CHECK(check_scene(&t.m, 64, 64, ORIGIN, FORWARD, 0.1f, 100, "one tile", NUM_CONFIGS) == 0);
    sc_renderer *r = looking_ahead(&t.m, 64, 64, 8, 16);
    SCT_REQUIRE(r);
    sc_frame_desc fr = {0};
    SCT_CHECK_OK(sc_renderer_render(r, &fr));
    uint32_t busy = 0;
    const uint32_t *tile_offsets = test_buffers(r).tile_offsets;
    for (uint32_t tile = 0; tile < test_params(r).num_tiles; ++tile)
        busy += tile_offsets[tile + 1] > tile_offsets[tile];
    SCT_CHECK_MSG(busy == 1, "tiles with references: %u", busy);
    sc_renderer_destroy(r);
    sc_mesh_free(&t.m);
}

/* The built-in knot from outside and from close by, deformed, against the brute force. */
static void test_knot_deformed(void)
{
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(12, &knot));
    sc_renderer *r = make_renderer(180, 140, 0, 0, 1);
    SCT_REQUIRE(r);
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    sc_deform_desc d;
    memset(&d, 0, sizeof d);
    d.twist.amount = 1.0f;
    d.bend.amount = 0.5f;
    d.wave.amount = 0.05f;
    d.pulse.amount = 0.03f;
    d.noise.amount = 0.04f;
    SCT_CHECK_OK(sc_renderer_set_deform(r, &d));
    look(r, 0.3f, 0.4f, 2.5f, 0, 0, 0, 0.05f, 10);
    SCT_CHECK(compare_with_brute_force(r, &knot, 0.7f, "deformed knot t=0.7", NULL) == 0);
    SCT_CHECK(compare_with_brute_force(r, &knot, 1.9f, "deformed knot t=1.9", NULL) == 0);
    look(r, 0.2f, 0.1f, 0.6f, 0, 0, 0, 0.01f, 10);
    SCT_CHECK(compare_with_brute_force(r, &knot, 0.3f, "deformed knot close", NULL) == 0);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

/* A tiny initial reference buffer: the frame grows it and is redone, with the same result. */
static void test_grow_and_redo(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 8);
    test_mesh t = {0};
    random_soup(&t, &rng, 80, 0.5f, -6, -1);
    sc_renderer_desc desc = {0};
    desc.backend = SC_BACKEND_CPU;
    desc.width = 200;
    desc.height = 100;
    desc.initial_ref_capacity = 1;
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&desc, &r));
    sc_mesh_data md = sc_mesh_view(&t.m);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    look(r, 0, 0, 0, 0, 0, -1, 0.1f, 100);
    SCT_CHECK(compare_with_brute_force(r, &t.m, 0, "grow", NULL) == 0);
    sc_frame_stats s;
    SCT_CHECK_OK(sc_renderer_stats(r, &s));
    SCT_CHECK(s.capacity_grows == 1);
    SCT_CHECK(s.references > 1);
    SCT_CHECK(compare_with_brute_force(r, &t.m, 0, "after grow", NULL) == 0);
    SCT_CHECK_OK(sc_renderer_stats(r, &s));
    SCT_CHECK(s.capacity_grows == 0);
    /* Resize keeps working (more tiles, more references). */
    SCT_CHECK_OK(sc_renderer_resize(r, 640, 480));
    SCT_CHECK(compare_with_brute_force(r, &t.m, 0, "after resize", NULL) == 0);
    sc_renderer_destroy(r);
    sc_mesh_free(&t.m);
}

/* Degenerate geometry at frame time: zero-area triangles, and caller positions with NaN and Inf
 * coordinates. Such triangles are dropped (never hit), nothing crashes, the rest renders. */
static void test_degenerate_frame_input(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 9);
    test_mesh t = {0};
    random_soup(&t, &rng, 60, 0.5f, -6, -1);
    float a[3] = {-1, -1, -3}, b[3] = {1, 1, -3}, c[3] = {0, 0, -3}, d[3] = {2, 2, -3};
    tm_tri3(&t, a, b, c); /* collinear */
    tm_tri3(&t, a, a, d); /* repeated vertex */
    uint32_t v = tm_vertex(&t, 0.3f, 0.2f, -2);
    tm_triangle(&t, v, v, v); /* a point */
    const uint32_t nv = t.m.vertex_count;
    float *pos = malloc(sizeof(float) * 3 * nv);
    memcpy(pos, t.m.positions, sizeof(float) * 3 * nv);
    pos[3 * 5 + 0] = NAN;
    pos[3 * 11 + 2] = INFINITY;
    pos[3 * 17 + 1] = -INFINITY;
    sc_renderer *r = looking_ahead(&t.m, 120, 90, 0, 0);
    SCT_REQUIRE(r);
    sc_frame_desc f = {0};
    f.positions = pos;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    sc_hit *got = malloc(120 * 90 * sizeof *got), *want = malloc(120 * 90 * sizeof *want);
    SCT_CHECK_OK(sc_renderer_read_hits(r, got));
    const sc_frame_params params = test_params(r);
    sc_brute_force(&params, pos, t.m.indices, t.m.triangle_count, 2, want);
    size_t bad = 0, hit = 0;
    for (size_t i = 0; i < 120 * 90; ++i) {
        bad += got[i].tri != want[i].tri || (got[i].tri != SC_NO_HIT && got[i].depth != want[i].depth);
        hit += got[i].tri != SC_NO_HIT;
        if (got[i].tri != SC_NO_HIT) SCT_CHECK(got[i].tri < 60 && isfinite(got[i].depth));
    }
    SCT_CHECK_EQ_U64(bad, 0);
    SCT_CHECK(hit > 0);
    sc_frame_stats s;
    SCT_CHECK_OK(sc_renderer_stats(r, &s));
    SCT_CHECK(s.visible_triangles <= 60);
    free(got);
    free(want);
    free(pos);
    sc_renderer_destroy(r);
    sc_mesh_free(&t.m);
}

/* Counters agree with the hit buffer and the grid. */
static void test_stats(void)
{
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(16, &knot));
    sc_renderer *r = make_renderer(128, 96, 0, 0, 0);
    SCT_REQUIRE(r);
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    sc_frame_desc f = {0};
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    sc_frame_stats s;
    SCT_CHECK_OK(sc_renderer_stats(r, &s));
    sc_hit *hits = malloc(128 * 96 * sizeof *hits);
    SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
    uint64_t hit = 0, tests = 0;
    const uint32_t *pixel_tests = test_buffers(r).tests;
    for (size_t i = 0; i < 128 * 96; ++i) {
        hit += hits[i].tri != SC_NO_HIT;
        tests += pixel_tests[i];
    }
    SCT_CHECK_EQ_U64(s.hit_pixels, hit);
    SCT_CHECK_EQ_U64(s.ray_triangle_tests, tests);
    SCT_CHECK_EQ_U64(s.triangles, knot.triangle_count);
    SCT_CHECK_EQ_U64(s.tiles, 16 * 12);
    SCT_CHECK(s.visible_triangles > 0 && s.visible_triangles <= s.triangles);
    SCT_CHECK(s.references >= s.visible_triangles);
    SCT_CHECK(hit > 128 * 96 / 8);
    SCT_CHECK(s.depth_min > 0 && s.depth_max >= s.depth_min);
    SCT_CHECK(s.total_ms >= 0);
    free(hits);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_cpu");
    SCT_RUN(test_one_triangle);
    SCT_RUN(test_empty_mesh);
    SCT_RUN(test_random_soup_resolutions);
    SCT_RUN(test_partly_behind_camera);
    SCT_RUN(test_camera_inside_closed_mesh);
    SCT_RUN(test_closed_mesh_no_background_inside_silhouette);
    SCT_RUN(test_close_up_triangles);
    SCT_RUN(test_long_thin_triangles_across_slabs);
    SCT_RUN(test_everything_in_one_tile);
    SCT_RUN(test_knot_deformed);
    SCT_RUN(test_grow_and_redo);
    SCT_RUN(test_degenerate_frame_input);
    SCT_RUN(test_stats);
    return sct_end();
}
