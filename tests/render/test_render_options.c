/* test_render_options.c - culling and flat shading as per-frame options (sc_renderer_set_options) on
 * the CPU backend: a renderer whose options change between frames gives, frame by frame, the same
 * hits and pixels as renderers created with those options (cpu). */
#include <stdlib.h>
#include <string.h>

#include "options_scene.h"
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

static void test_options_round_trip(void)
{
    sc_mesh m;
    SCT_REQUIRE(options_scene(&m));
    sc_render_options o = {1, 0, 0, 0};
    sc_renderer *r = options_renderer(&m, SC_BACKEND_CPU, o);
    SCT_REQUIRE(r);
    sc_render_options got;
    SCT_CHECK_OK(sc_renderer_get_options(r, &got));
    SCT_CHECK(got.cull_back_faces == 1 && got.flat_shading == 0 && got.stage_times == 0);
    o.cull_back_faces = 0;
    o.flat_shading = 7; /* nonzero: on */
    o.stage_times = -3;
    SCT_CHECK_OK(sc_renderer_set_options(r, &o));
    SCT_CHECK_OK(sc_renderer_get_options(r, &got));
    SCT_CHECK(got.cull_back_faces == 0 && got.flat_shading == 1 && got.stage_times == 1);
    SCT_CHECK(sc_renderer_set_options(r, NULL) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_renderer_set_options(NULL, &o) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_renderer_get_options(r, NULL) == SC_ERROR_INVALID_ARGUMENT);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

static void test_toggled_equals_created(void)
{
    sc_mesh m;
    SCT_REQUIRE(options_scene(&m));
    const size_t npix = (size_t)OPT_W * OPT_H;
    sc_renderer *ref[4] = {NULL, NULL, NULL, NULL}; /* index cull | flat << 1 */
    for (int k = 0; k < 4; ++k) {
        sc_render_options o = {k & 1, k >> 1, 0, 0};
        ref[k] = options_renderer(&m, SC_BACKEND_CPU, o);
    }
    sc_render_options none = {0, 0, 0, 0};
    sc_renderer *r = options_renderer(&m, SC_BACKEND_CPU, none);
    uint8_t *img = malloc(npix * 4), *want_img = malloc(npix * 4);
    sc_hit *hits = malloc(npix * sizeof *hits), *want_hits = malloc(npix * sizeof *want_hits);
    int differs_cull = 0, differs_flat = 0;
    for (uint32_t i = 0; r && ref[0] && ref[1] && ref[2] && ref[3] && i < OPT_FRAMES; ++i) {
        const sc_render_options o = k_opt_sequence[i];
        const int k = o.cull_back_faces | o.flat_shading << 1;
        SCT_CHECK_OK(sc_renderer_set_options(r, &o));
        render(r, options_time(i), img, hits);
        render(ref[k], options_time(i), want_img, want_hits);
        SCT_CHECK_MSG(memcmp(hits, want_hits, npix * sizeof *hits) == 0, "frame %u (cull %d flat %d): hits differ", i,
                      o.cull_back_faces, o.flat_shading);
        SCT_CHECK_MSG(memcmp(img, want_img, npix * 4) == 0, "frame %u (cull %d flat %d): pixels differ", i,
                      o.cull_back_faces, o.flat_shading);
    }
    /* The options matter in this scene: culling changes the hits, flat shading the pixels. */
    if (r && ref[0] && ref[1] && ref[2]) {
        render(ref[0], options_time(0), img, hits);
        render(ref[1], options_time(0), want_img, want_hits);
        differs_cull = memcmp(hits, want_hits, npix * sizeof *hits) != 0;
        render(ref[2], options_time(0), want_img, want_hits);
        differs_flat = memcmp(img, want_img, npix * 4) != 0;
    }
    SCT_CHECK_MSG(differs_cull && differs_flat, "the scene shows the options: cull %d flat %d", differs_cull,
                  differs_flat);
    for (int k = 0; k < 4; ++k) sc_renderer_destroy(ref[k]);
    sc_renderer_destroy(r);
    free(img); free(want_img); free(hits); free(want_hits);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_options");
    SCT_RUN(test_options_round_trip);
    SCT_RUN(test_toggled_equals_created);
    return sct_end();
}
