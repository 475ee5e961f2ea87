/* test_render_grid.c - the grid changed between frames (sc_renderer_set_grid) and the stats read
 * without waiting (sc_renderer_poll_stats) on the CPU backend: a renderer whose tile size and slab
 * count change between frames gives, frame by frame, the same hits and pixels (in the tile heat,
 * slab and shaded modes) as renderers created with those grids; an invalid grid is rejected and the
 * previous one stays in force (also when its buffers exceed the memory bound); poll_stats gives the last frame's stats, the same as
 * sc_renderer_stats, and nothing from before a change of grid, size or mesh (cpu). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid_scene.h"
#include "sctest.h"
#include "slabcast.h"

static void render(sc_renderer *r, float time, uint8_t *rgba, sc_hit *hits)
{
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    f.rgba = rgba;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
}

static void check_grid(const sc_renderer *r, int kind, const char *when)
{
    sc_grid_info g;
    memset(&g, 0xAB, sizeof g);
    SCT_CHECK_OK(sc_renderer_get_grid(r, &g));
    const uint32_t t = k_grid_kinds[kind][0];
    SCT_CHECK_MSG(g.width == GRID_W && g.height == GRID_H && g.tile_size == t && g.num_slabs == k_grid_kinds[kind][1] &&
                      g.tiles_x == (GRID_W + t - 1) / t && g.tiles_y == (GRID_H + t - 1) / t,
                  "%s: grid %ux%u tiles %u slabs %u (%ux%u tiles), want tiles %u slabs %u", when, g.width, g.height,
                  g.tile_size, g.num_slabs, g.tiles_x, g.tiles_y, t, k_grid_kinds[kind][1]);
}

static void test_get_grid(void)
{
    sc_mesh m;
    SCT_REQUIRE(grid_scene(&m));
    sc_renderer *r = grid_renderer(&m, SC_BACKEND_CPU, 0, 0, NULL);
    SCT_REQUIRE(r);
    check_grid(r, 0, "created with the defaults");
    sc_grid_info g;
    SCT_CHECK(sc_renderer_get_grid(r, NULL) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_renderer_get_grid(NULL, &g) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_renderer_set_grid(NULL, 8, 16) == SC_ERROR_INVALID_ARGUMENT);
    /* The messages of sc_renderer_create, naming this call. */
    SCT_CHECK(sc_renderer_set_grid(r, SC_MAX_TILE_SIZE + 1, 16) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK_MSG(strstr(sc_last_error(), "sc_renderer_set_grid: tile size 33 is not in 1..32") != NULL, "message: %s",
                  sc_last_error());
    SCT_CHECK(sc_renderer_set_grid(r, 8, SC_MAX_SLABS + 1) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK_MSG(strstr(sc_last_error(), "sc_renderer_set_grid: slab count 1025 is not in 1..1024") != NULL,
                  "message: %s", sc_last_error());
    check_grid(r, 0, "after the rejected grids");
    SCT_CHECK_OK(sc_renderer_set_grid(r, 4, 64));
    check_grid(r, 1, "set to (4, 64)");
    SCT_CHECK_OK(sc_renderer_resize(r, GRID_W, GRID_H)); /* the grid follows the size, tiles kept */
    check_grid(r, 1, "resized");
    SCT_CHECK_OK(sc_renderer_set_grid(r, 0, 0));
    check_grid(r, 0, "set to the defaults");
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

static void test_set_grid_equals_created(void)
{
    sc_mesh m;
    SCT_REQUIRE(grid_scene(&m));
    const size_t npix = (size_t)GRID_W * GRID_H;
    sc_renderer *ref[GRID_KINDS];
    int ok = 1;
    for (int k = 0; k < GRID_KINDS; ++k) {
        ref[k] = grid_renderer(&m, SC_BACKEND_CPU, k_grid_kinds[k][0], k_grid_kinds[k][1], NULL);
        ok = ok && ref[k];
    }
    sc_renderer *r = grid_renderer(&m, SC_BACKEND_CPU, 0, 0, NULL);
    uint8_t *img = malloc(npix * 4), *want_img = malloc(npix * 4);
    sc_hit *hits = malloc(npix * sizeof *hits), *want_hits = malloc(npix * sizeof *want_hits);
    ok = ok && r && img && want_img && hits && want_hits;
    for (uint32_t i = 0; ok && i < GRID_FRAMES; ++i) {
        const grid_step st = k_grid_steps[i];
        const sc_status s = sc_renderer_set_grid(r, st.tile_size, st.num_slabs);
        if (st.valid) SCT_CHECK_MSG(s == SC_OK, "frame %u: set_grid(%u, %u): %s", i, st.tile_size, st.num_slabs,
                                    sc_last_error());
        else SCT_CHECK_MSG(s == SC_ERROR_INVALID_ARGUMENT, "frame %u: set_grid(%u, %u) gave %s", i, st.tile_size,
                           st.num_slabs, sc_status_name(s));
        char when[64];
        snprintf(when, sizeof when, "frame %u", i);
        check_grid(r, st.kind, when);
        SCT_CHECK(grid_set_mode(r, grid_mode(i)) && grid_set_mode(ref[st.kind], grid_mode(i)));
        render(r, grid_time(i), img, hits);
        render(ref[st.kind], grid_time(i), want_img, want_hits);
        SCT_CHECK_MSG(memcmp(hits, want_hits, npix * sizeof *hits) == 0, "frame %u (tiles %u, slabs %u): hits differ",
                      i, k_grid_kinds[st.kind][0], k_grid_kinds[st.kind][1]);
        SCT_CHECK_MSG(memcmp(img, want_img, npix * 4) == 0, "frame %u (tiles %u, slabs %u, mode %d): pixels differ", i,
                      k_grid_kinds[st.kind][0], k_grid_kinds[st.kind][1], (int)grid_mode(i));
        sc_frame_stats a, b;
        SCT_CHECK_OK(sc_renderer_stats(r, &a));
        SCT_CHECK_OK(sc_renderer_stats(ref[st.kind], &b));
        SCT_CHECK_MSG(a.tiles == grid_tiles(st.kind) && a.references == b.references &&
                          a.ray_triangle_tests == b.ray_triangle_tests && a.tiles_exited_early == b.tiles_exited_early,
                      "frame %u: tiles %llu refs %llu tests %llu exits %llu, want %llu %llu %llu %llu", i,
                      (unsigned long long)a.tiles, (unsigned long long)a.references,
                      (unsigned long long)a.ray_triangle_tests, (unsigned long long)a.tiles_exited_early,
                      (unsigned long long)grid_tiles(st.kind), (unsigned long long)b.references,
                      (unsigned long long)b.ray_triangle_tests, (unsigned long long)b.tiles_exited_early);
    }
    /* The grid shows in the images compared: tile heat and slab mode differ between grids. */
    if (ok) {
        int differs_tiles, differs_slabs;
        SCT_CHECK(grid_set_mode(ref[1], SC_VIEW_TILE_HEAT) && grid_set_mode(ref[2], SC_VIEW_TILE_HEAT));
        render(ref[1], grid_time(0), img, hits);
        render(ref[2], grid_time(0), want_img, want_hits);
        differs_tiles = memcmp(img, want_img, npix * 4) != 0;
        SCT_CHECK(grid_set_mode(ref[1], SC_VIEW_SLAB) && grid_set_mode(ref[3], SC_VIEW_SLAB));
        render(ref[1], grid_time(0), img, hits);
        render(ref[3], grid_time(0), want_img, want_hits);
        differs_slabs = memcmp(img, want_img, npix * 4) != 0;
        SCT_CHECK_MSG(differs_tiles && differs_slabs, "the images show the grid: tiles %d slabs %d", differs_tiles,
                      differs_slabs);
    }
    for (int k = 0; k < GRID_KINDS; ++k) sc_renderer_destroy(ref[k]);
    sc_renderer_destroy(r);
    free(img); free(want_img); free(hits); free(want_hits);
    sc_mesh_free(&m);
}

/* A grid whose buffers exceed the memory bound: OUT_OF_MEMORY, the previous grid stays in force and
 * renders as before. */
static void test_set_grid_out_of_memory(void)
{
    sc_mesh m;
    SCT_REQUIRE(grid_scene(&m));
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = GRID_W;
    d.height = GRID_H;
    d.tile_size = 4;
    d.num_slabs = 64;
    d.host_memory_limit = (size_t)8 << 20; /* 1-pixel tiles with 1024 slabs need 28 MB of cells */
    sc_renderer *r = NULL, *ref = grid_renderer(&m, SC_BACKEND_CPU, 4, 64, NULL);
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    sc_mesh_data md = sc_mesh_view(&m);
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = 0.5f;
    def.wave.amount = 0.02f;
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    SCT_CHECK_OK(sc_renderer_set_deform(r, &def));
    const size_t npix = (size_t)GRID_W * GRID_H;
    uint8_t *img = malloc(npix * 4), *want_img = malloc(npix * 4);
    sc_hit *hits = malloc(npix * sizeof *hits), *want_hits = malloc(npix * sizeof *want_hits);
    SCT_REQUIRE(ref && img && want_img && hits && want_hits);
    render(r, grid_time(0), img, hits);
    const sc_status s = sc_renderer_set_grid(r, 1, 1024);
    SCT_CHECK_MSG(s == SC_ERROR_OUT_OF_MEMORY, "set_grid(1, 1024) under 8 MiB gave %s", sc_status_name(s));
    SCT_CHECK_MSG(strstr(sc_last_error(), "lower the slab count or raise the tile size") != NULL, "message: %s",
                  sc_last_error());
    check_grid(r, 1, "after the grid that did not fit");
    int available = 0;
    sc_frame_stats st;
    SCT_CHECK_OK(sc_renderer_poll_stats(r, &st, &available));
    SCT_CHECK(available == 1 && st.frame == 1); /* no change of grid */
    for (uint32_t i = 1; i < 3; ++i) {
        SCT_CHECK(grid_set_mode(r, grid_mode(i)) && grid_set_mode(ref, grid_mode(i)));
        render(r, grid_time(i), img, hits);
        render(ref, grid_time(i), want_img, want_hits);
        SCT_CHECK_MSG(memcmp(hits, want_hits, npix * sizeof *hits) == 0, "frame %u: hits differ", i);
        SCT_CHECK_MSG(memcmp(img, want_img, npix * 4) == 0, "frame %u: pixels differ", i);
    }
    sc_renderer_destroy(r);
    sc_renderer_destroy(ref);
    free(img); free(want_img); free(hits); free(want_hits);
    sc_mesh_free(&m);
}

/* poll_stats: *available and, when available, the same stats as sc_renderer_stats. */
static void check_poll(sc_renderer *r, int want_available, uint64_t want_frame, const char *when)
{
    sc_frame_stats polled, st;
    int available = -1;
    memset(&polled, 0xAB, sizeof polled);
    SCT_CHECK_OK(sc_renderer_poll_stats(r, &polled, &available));
    SCT_CHECK_MSG(available == want_available, "%s: available %d, want %d", when, available, want_available);
    if (!available) {
        sc_frame_stats zero;
        memset(&zero, 0, sizeof zero);
        const char *what;
        SCT_CHECK_MSG(grid_stats_equal(&polled, &zero, &what), "%s: not available but %s is not 0", when, what);
        return;
    }
    SCT_CHECK_OK(sc_renderer_stats(r, &st));
    const char *what;
    SCT_CHECK_MSG(grid_stats_equal(&polled, &st, &what), "%s: poll_stats and sc_renderer_stats differ in %s", when,
                  what);
    SCT_CHECK_MSG(polled.frame == want_frame, "%s: frame %llu, want %llu", when, (unsigned long long)polled.frame,
                  (unsigned long long)want_frame);
}

static void test_poll_stats(void)
{
    sc_mesh m;
    SCT_REQUIRE(grid_scene(&m));
    sc_renderer *r = grid_renderer(&m, SC_BACKEND_CPU, 0, 0, NULL);
    SCT_REQUIRE(r);
    sc_frame_stats st;
    int available = 0;
    SCT_CHECK(sc_renderer_poll_stats(NULL, &st, &available) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_renderer_poll_stats(r, NULL, &available) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_renderer_poll_stats(r, &st, NULL) == SC_ERROR_INVALID_ARGUMENT);
    check_poll(r, 0, 0, "no frame yet");
    const size_t npix = (size_t)GRID_W * GRID_H;
    uint8_t *img = malloc(npix * 4);
    sc_hit *hits = malloc(npix * sizeof *hits);
    SCT_REQUIRE(img && hits);
    uint64_t frame = 0;
    render(r, grid_time(0), img, hits);
    check_poll(r, 1, ++frame, "first frame");
    SCT_CHECK_OK(sc_renderer_stats(r, &st));
    SCT_CHECK(st.frame == 1 && st.tiles == grid_tiles(0) && st.hit_pixels > 0);
    render(r, grid_time(1), img, hits);
    check_poll(r, 1, ++frame, "second frame");
    check_poll(r, 1, frame, "second frame, polled again");
    /* What is no change of grid keeps the frame. */
    SCT_CHECK_OK(sc_renderer_set_grid(r, 0, 16));
    check_poll(r, 1, frame, "the grid in force set again");
    SCT_CHECK(sc_renderer_set_grid(r, 40, 16) == SC_ERROR_INVALID_ARGUMENT);
    check_poll(r, 1, frame, "a grid rejected");
    sc_render_options o = {1, 1, 0, 0};
    SCT_CHECK_OK(sc_renderer_set_options(r, &o));
    check_poll(r, 1, frame, "options set");
    /* A change of grid, size or mesh: nothing until the next frame. */
    SCT_CHECK_OK(sc_renderer_set_grid(r, 16, 4));
    check_poll(r, 0, 0, "grid changed");
    render(r, grid_time(2), img, hits);
    check_poll(r, 1, ++frame, "frame after the grid change");
    SCT_CHECK_OK(sc_renderer_stats(r, &st));
    SCT_CHECK(st.tiles == grid_tiles(2));
    SCT_CHECK_OK(sc_renderer_resize(r, GRID_W / 2, GRID_H));
    check_poll(r, 0, 0, "resized");
    render(r, grid_time(3), img, hits);
    check_poll(r, 1, ++frame, "frame after the resize");
    sc_mesh_data md = sc_mesh_view(&m);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    check_poll(r, 0, 0, "mesh set");
    render(r, grid_time(4), img, hits);
    check_poll(r, 1, ++frame, "frame after the mesh");
    free(img);
    free(hits);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_grid");
    SCT_RUN(test_get_grid);
    SCT_RUN(test_set_grid_equals_created);
    SCT_RUN(test_set_grid_out_of_memory);
    SCT_RUN(test_poll_stats);
    return sct_end();
}
