/* test_render_legend.c - the colour legends of the view modes (sc_renderer_get_view_legend,
 * sc_renderer_view_color) on the CPU backend: in the tile heat, tests heat, slab and depth modes,
 * with the default and explicit heat maxima and several grids, every pixel's colour is the colour
 * sc_renderer_view_color gives that pixel's value, the value taken from the renderer's outputs (the
 * tile's references, the pixel's ray-triangle tests, the slab of the hit triangle's depth key found
 * from the slab bounds, the hit's place in the frame's depth range); the legend's fields per mode
 * and after a grid change; values beyond the scale and between classes; argument errors (cpu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid_scene.h"
#include "sc_render_testing.h"
#include "sctest.h"
#include "slabcast.h"

/* A rendered frame of the legend scene and the outputs the values come from (host memory: CPU). */
typedef struct legend_frame {
    sc_frame_params p;             /* the grid and this frame's depth range */
    sc_frame_stats stats;
    uint8_t *rgba;
    sc_hit *hits;
    sc_backend_buffers buf;
} legend_frame;

static int set_shading(sc_renderer *r, sc_view_mode mode, float heat_max)
{
    sc_shading_desc s;
    memset(&s, 0, sizeof s);
    s.mode = mode;
    s.heat_max = heat_max;
    return sc_renderer_set_shading(r, &s) == SC_OK;
}

static int render_frame(sc_renderer *r, float time, legend_frame *f)
{
    sc_frame_desc d;
    memset(&d, 0, sizeof d);
    d.time = time;
    d.rgba = f->rgba;
    if (sc_renderer_render(r, &d) != SC_OK || sc_renderer_read_hits(r, f->hits) != SC_OK ||
        sc_renderer_stats(r, &f->stats) != SC_OK || sc_renderer_testing_buffers(r, &f->buf) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "render: %s", sc_last_error());
        return 0;
    }
    sc_renderer_testing_frame_params(r, &f->p);
    return 1;
}

/* The slab of depth key z by its definition: the largest k with slab bound k <= z (0 below). */
static uint32_t slab_by_bounds(const sc_frame_params *p, float z)
{
    uint32_t k = 0;
    for (uint32_t j = 1; j < p->num_slabs; ++j)
        if (z >= sc_slab_bound(p, j)) k = j;
    return k;
}

/* The value pixel px shows in `mode`; 0 when the pixel has no value (slab, depth: no hit). */
static int pixel_value(const legend_frame *f, sc_view_mode mode, uint32_t x, uint32_t y, float *value)
{
    const sc_frame_params *p = &f->p;
    const size_t px = (size_t)y * p->width + x;
    const sc_hit h = f->hits[px];
    switch (mode) {
    case SC_VIEW_TILE_HEAT: {
        const uint32_t tile = (y / p->tile_size) * p->tiles_x + x / p->tile_size;
        *value = (float)(f->buf.tile_offsets[tile + 1] - f->buf.tile_offsets[tile]);
        return 1;
    }
    case SC_VIEW_TESTS_HEAT:
        *value = (float)f->buf.tests[px];
        return 1;
    case SC_VIEW_SLAB:
        if (h.tri == SC_NO_HIT) return 0;
        *value = (float)slab_by_bounds(p, f->buf.tri_keys[h.tri]);
        return 1;
    default: { /* SC_VIEW_DEPTH */
        if (h.tri == SC_NO_HIT) return 0;
        const float span = f->stats.depth_max - f->stats.depth_min;
        *value = span > 0.0f ? (h.depth - f->stats.depth_min) / span : 0.0f;
        return 1;
    }
    }
}

/* The outputs' totals agree with the stats: the values read are the frame's. */
static void check_totals(const legend_frame *f, const char *what)
{
    const sc_frame_params *p = &f->p;
    const uint32_t tiles = p->tiles_x * p->tiles_y;
    SCT_CHECK_MSG(f->buf.tile_offsets[tiles] - f->buf.tile_offsets[0] == f->stats.references,
                  "%s: tile offsets span %u references, stats %llu", what,
                  f->buf.tile_offsets[tiles] - f->buf.tile_offsets[0], (unsigned long long)f->stats.references);
    uint64_t tests = 0;
    for (size_t i = 0; i < (size_t)p->width * p->height; ++i) tests += f->buf.tests[i];
    SCT_CHECK_EQ_U64(tests, f->stats.ray_triangle_tests);
}

/* Every pixel with a value has the colour sc_renderer_view_color gives it; returns the distinct
 * values seen (capped), so a caller can tell a scene that tests nothing. */
static int check_pixels(sc_renderer *r, const legend_frame *f, sc_view_mode mode, const char *what)
{
    const sc_frame_params *p = &f->p;
    long bad = 0, checked = 0;
    float seen[8];
    int distinct = 0;
    for (uint32_t y = 0; y < p->height; ++y)
        for (uint32_t x = 0; x < p->width; ++x) {
            float value;
            if (!pixel_value(f, mode, x, y, &value)) continue;
            uint8_t want[4];
            if (sc_renderer_view_color(r, value, want) != SC_OK) {
                sct_fail(__FILE__, __LINE__, "%s: sc_renderer_view_color(%g): %s", what, (double)value, sc_last_error());
                return distinct;
            }
            const uint8_t *got = f->rgba + 4 * ((size_t)y * p->width + x);
            ++checked;
            int known = 0;
            for (int i = 0; i < distinct; ++i) known |= seen[i] == value;
            if (!known && distinct < 8) seen[distinct++] = value;
            if (memcmp(got, want, 4) == 0) continue;
            if (bad++ < 5)
                sct_fail(__FILE__, __LINE__, "%s: pixel (%u, %u) value %g: image %u,%u,%u,%u, legend %u,%u,%u,%u", what,
                         x, y, (double)value, got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
        }
    if (bad) sct_fail(__FILE__, __LINE__, "%s: %ld of %ld pixels differ from the legend", what, bad, checked);
    SCT_CHECK_MSG(checked > (long)(p->width * p->height) / 10, "%s: only %ld pixels have a value", what, checked);
    return distinct;
}

/* Pixels whose colour under the legend of another heat max differs: the check above would see a
 * legend that ignored the heat max in force. */
static long pixels_off_with_heat_max(sc_renderer *r, const legend_frame *f, sc_view_mode mode, float heat_max)
{
    if (!set_shading(r, mode, heat_max)) return -1;
    long off = 0;
    for (uint32_t y = 0; y < f->p.height; ++y)
        for (uint32_t x = 0; x < f->p.width; ++x) {
            float value;
            uint8_t c[4];
            if (!pixel_value(f, mode, x, y, &value) || sc_renderer_view_color(r, value, c) != SC_OK) continue;
            off += memcmp(c, f->rgba + 4 * ((size_t)y * f->p.width + x), 4) != 0;
        }
    return off;
}

static int frame_alloc(legend_frame *f)
{
    const size_t npix = (size_t)GRID_W * GRID_H;
    memset(f, 0, sizeof *f);
    f->rgba = malloc(npix * 4);
    f->hits = malloc(npix * sizeof *f->hits);
    return f->rgba && f->hits;
}

static void frame_free(legend_frame *f)
{
    free(f->rgba);
    free(f->hits);
}

/* The pixels of every mode with a scale, on grids (tile size, slabs), heat max default and set. */
static void test_pixels_match_legend(void)
{
    static const uint32_t grids[3][2] = {{8, 16}, {4, 64}, {16, 5}};
    static const sc_view_mode modes[4] = {SC_VIEW_TILE_HEAT, SC_VIEW_TESTS_HEAT, SC_VIEW_SLAB, SC_VIEW_DEPTH};
    static const float heat_maxes[3] = {0.0f, 9.0f, 40.0f};
    static const char *const mode_names[4] = {"tiles", "tests", "slab", "depth"};
    sc_mesh m;
    SCT_REQUIRE(grid_scene(&m));
    sc_renderer *r = grid_renderer(&m, SC_BACKEND_CPU, 0, 0, NULL);
    legend_frame f;
    const int ok = frame_alloc(&f);
    for (int g = 0; r && ok && g < 3; ++g) {
        SCT_CHECK_OK(sc_renderer_set_grid(r, grids[g][0], grids[g][1]));
        for (int mi = 0; mi < 4; ++mi)
            for (int hi = 0; hi < 3; ++hi) {
                const sc_view_mode mode = modes[mi];
                const int heat = mode == SC_VIEW_TILE_HEAT || mode == SC_VIEW_TESTS_HEAT;
                if (!heat && hi > 0) continue; /* heat_max changes nothing else */
                char what[96];
                snprintf(what, sizeof what, "tile %u, %u slabs, %s mode, heat_max %g", grids[g][0], grids[g][1],
                         mode_names[mi], (double)heat_maxes[hi]);
                if (!set_shading(r, mode, heat_maxes[hi]) || !render_frame(r, grid_time((uint32_t)(g + hi)), &f)) {
                    sct_fail(__FILE__, __LINE__, "%s: %s", what, sc_last_error());
                    continue;
                }
                check_totals(&f, what);
                const int distinct = check_pixels(r, &f, mode, what);
                SCT_CHECK_MSG(distinct >= 3, "%s: only %d distinct values: the scene tests too little", what, distinct);
                if (heat) {
                    /* The colours depend on the heat max in force. */
                    const float other = heat_maxes[hi] == 9.0f ? 0.0f : 9.0f;
                    SCT_CHECK_MSG(pixels_off_with_heat_max(r, &f, mode, other) > 0,
                                  "%s: the legend of heat max %g gives the same colours", what, (double)other);
                }
            }
    }
    frame_free(&f);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

static void check_legend(const sc_renderer *r, sc_view_mode mode, int has_scale, float max, int log_scale,
                         int discrete, const char *quantity)
{
    sc_view_legend l;
    memset(&l, 0xAB, sizeof l);
    SCT_CHECK_OK(sc_renderer_get_view_legend(r, &l));
    SCT_CHECK_MSG(l.mode == mode && l.has_scale == has_scale && l.min_value == 0.0f && l.max_value == max &&
                      l.log_scale == log_scale && l.discrete == discrete && l.quantity &&
                      strstr(l.quantity, quantity) != NULL && (l.classes != NULL) == (discrete != 0),
                  "mode %d: legend mode %d scale %d %g..%g log %d discrete %d quantity %s; want scale %d 0..%g log %d "
                  "discrete %d quantity ~%s",
                  (int)mode, (int)l.mode, l.has_scale, (double)l.min_value, (double)l.max_value, l.log_scale,
                  l.discrete, l.quantity ? l.quantity : "(null)", has_scale, (double)max, log_scale, discrete, quantity);
}

static int same_colour(const sc_renderer *r, float a, float b)
{
    uint8_t ca[4], cb[4];
    return sc_renderer_view_color(r, a, ca) == SC_OK && sc_renderer_view_color(r, b, cb) == SC_OK &&
           memcmp(ca, cb, 4) == 0;
}

static int colour_is(const sc_renderer *r, float v, uint8_t R, uint8_t G, uint8_t B)
{
    uint8_t c[4];
    return sc_renderer_view_color(r, v, c) == SC_OK && c[0] == R && c[1] == G && c[2] == B && c[3] == 255;
}

/* The fields of every mode, the heat max resolved, the slab range after a grid change; the ends and
 * classes of the scales. */
static void test_legend_fields(void)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = 32;
    d.height = 16;
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    check_legend(r, SC_VIEW_SHADED, 0, 0.0f, 0, 0, "shaded"); /* the default mode */
    SCT_CHECK(set_shading(r, SC_VIEW_TRIANGLE_ID, 0.0f));
    check_legend(r, SC_VIEW_TRIANGLE_ID, 0, 0.0f, 0, 0, "triangle");
    SCT_CHECK(set_shading(r, SC_VIEW_NORMALS, 0.0f));
    check_legend(r, SC_VIEW_NORMALS, 0, 0.0f, 0, 0, "normal");
    SCT_CHECK(set_shading(r, SC_VIEW_DEPTH, 0.0f));
    check_legend(r, SC_VIEW_DEPTH, 1, 1.0f, 0, 0, "depth");
    SCT_CHECK(colour_is(r, 0.0f, 255, 255, 255) && colour_is(r, 1.0f, 0, 0, 0) && colour_is(r, 7.0f, 0, 0, 0) &&
              colour_is(r, -1.0f, 255, 255, 255));
    SCT_CHECK(set_shading(r, SC_VIEW_TILE_HEAT, 0.0f));
    check_legend(r, SC_VIEW_TILE_HEAT, 1, 1024.0f, 1, 0, "triangles per tile");
    SCT_CHECK(colour_is(r, 0.0f, 0, 0, 0) && colour_is(r, 1024.0f, 255, 255, 255));
    SCT_CHECK(set_shading(r, SC_VIEW_TILE_HEAT, 9.0f));
    check_legend(r, SC_VIEW_TILE_HEAT, 1, 9.0f, 1, 0, "triangles per tile");
    SCT_CHECK(colour_is(r, 9.0f, 255, 255, 255) && same_colour(r, 9.0f, 5000.0f) && !same_colour(r, 3.0f, 4.0f));
    SCT_CHECK(set_shading(r, SC_VIEW_TESTS_HEAT, 0.0f));
    check_legend(r, SC_VIEW_TESTS_HEAT, 1, 256.0f, 1, 0, "tests per pixel");
    SCT_CHECK(colour_is(r, 0.0f, 0, 0, 0) && colour_is(r, 256.0f, 255, 255, 255) && !same_colour(r, 255.0f, 16.0f));
    SCT_CHECK(set_shading(r, SC_VIEW_SLAB, 0.0f));
    check_legend(r, SC_VIEW_SLAB, 1, 15.0f, 0, 1, "slab");
    sc_view_legend slab;
    SCT_CHECK(sc_renderer_get_view_legend(r, &slab) == SC_OK && slab.classes && strcmp(slab.classes, "slabs") == 0);
    SCT_CHECK(colour_is(r, 0.0f, 255, 0, 0)); /* hue 0 */
    SCT_CHECK(same_colour(r, 2.0f, 2.7f) && same_colour(r, 0.0f, -3.0f) && same_colour(r, 15.0f, 100.0f) &&
              !same_colour(r, 2.0f, 3.0f));
    SCT_CHECK_OK(sc_renderer_set_grid(r, 4, 5));
    check_legend(r, SC_VIEW_SLAB, 1, 4.0f, 0, 1, "slab");
    SCT_CHECK(same_colour(r, 4.0f, 15.0f) && !same_colour(r, 3.0f, 4.0f));
    sc_renderer_destroy(r);
}

static void check_error(sc_status s, const char *text)
{
    SCT_CHECK_MSG(s == SC_ERROR_INVALID_ARGUMENT && strstr(sc_last_error(), text) != NULL,
                  "status %d, message \"%s\", want INVALID_ARGUMENT with \"%s\"", (int)s, sc_last_error(), text);
}

static void test_argument_errors(void)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = d.height = 8;
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    sc_view_legend l;
    uint8_t c[4] = {1, 2, 3, 4};
    check_error(sc_renderer_get_view_legend(NULL, &l), "sc_renderer_get_view_legend: r (the renderer) is NULL");
    check_error(sc_renderer_get_view_legend(r, NULL), "sc_renderer_get_view_legend: out is NULL");
    check_error(sc_renderer_view_color(NULL, 1.0f, c), "sc_renderer_view_color: r (the renderer) is NULL");
    SCT_CHECK(set_shading(r, SC_VIEW_TILE_HEAT, 0.0f));
    check_error(sc_renderer_view_color(r, 1.0f, NULL), "sc_renderer_view_color: rgba is NULL");
    check_error(sc_renderer_view_color(r, NAN, c), "sc_renderer_view_color: value is NaN");
    check_error(sc_renderer_view_color(r, INFINITY, c), "sc_renderer_view_color: value is infinite");
    SCT_CHECK_MSG(c[0] == 1 && c[1] == 2 && c[2] == 3 && c[3] == 4, "a rejected call wrote rgba");
    SCT_CHECK(set_shading(r, SC_VIEW_NORMALS, 0.0f));
    check_error(sc_renderer_view_color(r, 1.0f, c), "has no colour scale");
    sc_renderer_destroy(r);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_legend");
    SCT_RUN(test_legend_fields);
    SCT_RUN(test_argument_errors);
    SCT_RUN(test_pixels_match_legend);
    return sct_end();
}
