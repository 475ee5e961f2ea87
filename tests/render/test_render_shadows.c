/* test_render_shadows.c - the CPU backend's shadows against shadow_brute_force.h, which
 * shares only the shadow ray (shadow.h) and the watertight test (intersect.h) with the renderer:
 * every hit pixel's mask bit for bit, for every light, on the cases of shadow_cases.h: a small
 * scene of a plane, a closed sphere, overlapping quads and a wall; closed meshes that must not leak;
 * the bunny, the dragon and the built-in knot; lights above, beside, grazing, inside the bounding
 * box, behind the camera, 1e4 radii away, directional at the horizon and straight down; culling on
 * and off; a twisted mesh; reference capacities of 1 and 64; shadows off. Also the shadow counters,
 * the view modes and sc_renderer_set_lights's validation.
 *
 * small_* run by default (`test_render_shadows small`, label cpu); large_* (`test_render_shadows
 * large`, labels cpu large) are the dragon and the knot at 1920x1080. Models come from
 * sctest_models.h; a test whose model is absent is skipped. */
#include <stdio.h>
#include <string.h>

#include "sctest.h"
#include "shadow_cases.h"
#include "slabcast.h"

static void run_cpu(const shadow_case *c) { shadow_check_case(SC_BACKEND_CPU, c, NULL, NULL); }

static int render_rgba_cpu(sc_renderer *r, uint32_t w, uint32_t h, uint8_t *rgba)
{
    (void)w;
    (void)h;
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.rgba = rgba;
    if (sc_renderer_render(r, &f) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "render: %s", sc_last_error());
        return -1;
    }
    return 0;
}

static void test_small_reference_self_check(void) { shadow_cases_reference_self_check(); }
static void test_small_light_api(void) { shadow_check_light_api(SC_BACKEND_CPU); }
static void test_small_point_lights(void) { shadow_cases_small_point_lights(run_cpu); }
static void test_small_far_and_directional_lights(void) { shadow_cases_small_far_lights(run_cpu); }
static void test_small_deform_and_grow(void) { shadow_cases_small_deform_grow(run_cpu); }
static void test_small_shadows_off(void) { shadow_cases_small_off(run_cpu); }
static void test_small_no_leak_sphere(void) { shadow_cases_no_leak_sphere(run_cpu); }
static void test_small_no_leak_box(void) { shadow_cases_no_leak_box(run_cpu); }
static void test_small_view_modes(void) { shadow_check_view_modes(SC_BACKEND_CPU, render_rgba_cpu); }
static void test_small_bunny(void) { shadow_cases_bunny(run_cpu); }
static void test_small_bunny_on_ground(void) { shadow_cases_bunny_on_ground(run_cpu); }
static void test_small_dragon_640x480(void) { shadow_cases_dragon(run_cpu, 640, 480); }
static void test_small_knot_400x300(void) { shadow_cases_knot(run_cpu, 400, 300); }
static void test_large_dragon_1080p(void) { shadow_cases_dragon(run_cpu, 1920, 1080); }
static void test_large_knot_1080p(void) { shadow_cases_knot(run_cpu, 1920, 1080); }

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_shadows");
    SCT_RUN(test_small_reference_self_check);
    SCT_RUN(test_small_light_api);
    SCT_RUN(test_small_point_lights);
    SCT_RUN(test_small_far_and_directional_lights);
    SCT_RUN(test_small_deform_and_grow);
    SCT_RUN(test_small_shadows_off);
    SCT_RUN(test_small_no_leak_sphere);
    SCT_RUN(test_small_no_leak_box);
    SCT_RUN(test_small_view_modes);
    SCT_RUN(test_small_bunny);
    SCT_RUN(test_small_bunny_on_ground);
    SCT_RUN(test_small_dragon_640x480);
    SCT_RUN(test_small_knot_400x300);
    SCT_RUN(test_large_dragon_1080p);
    SCT_RUN(test_large_knot_1080p);
    return sct_end();
}
