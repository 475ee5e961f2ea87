/* test_app_options.c - the slabcast program's command line and orbit camera (cpu). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "orbit.h"
#include "sctest.h"

static int parse(app_options *o, const char *line)
{
    char buf[1024], *argv[64];
    int argc = 0;
    snprintf(buf, sizeof buf, "slabcast %s", line);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && argc < 64; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    FILE *sink = fopen("/dev/null", "w");
    int rc = app_parse_options(argc, argv, o, sink ? sink : stderr);
    if (sink) fclose(sink);
    return rc;
}

static void test_defaults(void)
{
    app_options o;
    SCT_REQUIRE(parse(&o, "") == 0);
    SCT_CHECK(o.width == 1024 && o.height == 1024);
    SCT_CHECK(o.backend == SC_BACKEND_DEFAULT);
    SCT_CHECK(o.mesh_path == NULL && o.resolution == 0);
    SCT_CHECK(o.deform_mask == (APP_DEFORM_TWIST | APP_DEFORM_WAVE));
    SCT_CHECK(o.mode == SC_VIEW_SHADED && o.frames == 0 && o.window == APP_WINDOW_AUTO);
    SCT_CHECK(fabsf(o.time_step - 1.0f / 60.0f) < 1e-7f);
}

static void test_every_option(void)
{
    app_options o;
    SCT_REQUIRE(parse(&o, "--mesh m.obj --resolution 64 --subdivide 2 --size 1000x777 --backend cpu --tile 16 --slabs 32 "
                          "--cull --flat --deform bend,noise --mode tests --frames 9 --time 1.5 --dt 0.25 "
                          "--out x.png --stats-json s.json --headless --threads 3") == 0);
    SCT_CHECK(strcmp(o.mesh_path, "m.obj") == 0 && o.resolution == 64 && o.subdivide == 2);
    SCT_CHECK(o.width == 1000 && o.height == 777 && o.backend == SC_BACKEND_CPU);
    SCT_CHECK(o.tile_size == 16 && o.num_slabs == 32 && o.cull_back_faces && o.flat_shading);
    SCT_CHECK(o.deform_mask == (APP_DEFORM_BEND | APP_DEFORM_NOISE));
    SCT_CHECK(o.mode == SC_VIEW_TESTS_HEAT && o.frames == 9);
    SCT_CHECK(o.start_time == 1.5f && o.time_step == 0.25f);
    SCT_CHECK(strcmp(o.out_path, "x.png") == 0 && strcmp(o.stats_json, "s.json") == 0);
    SCT_CHECK(o.window == APP_WINDOW_OFF && o.threads == 3);
    SCT_REQUIRE(parse(&o, "--deform none --backend cuda --window") == 0);
    SCT_CHECK(o.deform_mask == 0 && o.backend == SC_BACKEND_CUDA && o.window == APP_WINDOW_ON);
}

static void test_bad_values_are_refused(void)
{
    app_options o;
    const char *bad[] = {"--size 100", "--size 0x5", "--size 10x10x", "--tile 0", "--tile 33", "--slabs 0",
                         "--backend vulkan", "--deform twist,spin", "--mode fancy", "--frames -1", "--frames 0",
                         "--resolution 2", "--subdivide 7", "--bogus", "--mesh", "--time abc"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) SCT_CHECK_MSG(parse(&o, bad[i]) != 0, "accepted: %s", bad[i]);
}

static void test_orbit_frames_the_bounds(void)
{
    float lo[3] = {-1, 0, 2}, hi[3] = {3, 2, 4};
    app_orbit orb;
    app_orbit_frame(lo, hi, &orb);
    SCT_CHECK(fabsf(orb.center[0] - 1) < 1e-6f && fabsf(orb.center[1] - 1) < 1e-6f && fabsf(orb.center[2] - 3) < 1e-6f);
    SCT_CHECK(fabsf(orb.radius - sqrtf(6.0f)) < 1e-5f);
    sc_camera_desc c = app_orbit_camera(&orb);
    float d2 = 0;
    for (int k = 0; k < 3; ++k) d2 += (c.eye[k] - orb.center[k]) * (c.eye[k] - orb.center[k]);
    /* The bounding sphere fits the field of view, and lies between near and far. */
    SCT_CHECK(orb.radius / sqrtf(d2) <= sinf(0.5f * c.fovy));
    SCT_CHECK(c.near_plane > 0 && c.near_plane < sqrtf(d2) - orb.radius);
    SCT_CHECK(c.far_plane > sqrtf(d2) + orb.radius);
    app_orbit_rotate(&orb, 0.0f, 10.0f);
    SCT_CHECK(orb.pitch <= 1.55f);
    for (int i = 0; i < 100; ++i) app_orbit_zoom(&orb, 0.5f);
    SCT_CHECK(orb.distance >= 0.05f);
    c = app_orbit_camera(&orb); /* eye inside the mesh: near stays positive and small */
    SCT_CHECK(c.near_plane > 0 && c.near_plane < 0.01f * orb.radius);
}

static void test_bounds(void)
{
    float p[] = {1, 2, 3, -4, 5, 0, 2, -1, 7};
    float lo[3], hi[3];
    app_bounds(p, 3, lo, hi);
    SCT_CHECK(lo[0] == -4 && lo[1] == -1 && lo[2] == 0 && hi[0] == 2 && hi[1] == 5 && hi[2] == 7);
    app_bounds(NULL, 0, lo, hi);
    SCT_CHECK(lo[0] == -1 && hi[2] == 1);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "app_options");
    SCT_RUN(test_defaults);
    SCT_RUN(test_every_option);
    SCT_RUN(test_bad_values_are_refused);
    SCT_RUN(test_orbit_frames_the_bounds);
    SCT_RUN(test_bounds);
    return sct_end();
}
