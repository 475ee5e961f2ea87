/* test_app_options.c - the slabcast program's command line, statistics output and camera framing (cpu).
 *
 * Options: every numeric option refuses overflow, garbage, signs, spaces, NaN/inf and values out of
 * its documented range with one line naming the option, the value and the valid range; unknown
 * options and missing values get their own messages. Statistics: a fresh log has nothing measured,
 * a long run keeps bounded memory, and the JSON is valid for any mesh name (checked by an
 * independent parser below) and carries the shadow pass's counters and stages. Framing: bounds come
 * from used, finite vertices in double, and any finite mesh gets a finite, valid camera. Lights:
 * --light and --shadows parse, bad lights are refused, the default light sits where the program
 * frames the model, and moving a light keeps its distance. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_stats.h"
#include "lights.h"
#include "options.h"
#include "orbit.h"
#include "sctest.h"

/* ---- helpers ----------------------------------------------------------------------------------- */

/* Parses argv (argv[0] added); the error text goes to msg. */
static int parse_argv(app_options *o, int n, const char *const *args, char *msg, size_t msg_size)
{
    char *argv[128];
    if (n > 127) n = 127;
    argv[0] = (char *)"slabcast";
    for (int i = 0; i < n; ++i) argv[i + 1] = (char *)args[i];
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    int rc = app_parse_options(n + 1, argv, o, err ? err : stderr);
    if (err) fclose(err);
    if (msg) snprintf(msg, msg_size, "%s", text ? text : "");
    free(text);
    return rc;
}

/* Parses a line split at spaces. */
static int parse(app_options *o, const char *line)
{
    char buf[1024];
    const char *args[63];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && n < 63; t = strtok_r(NULL, " ", &save)) args[n++] = t;
    return parse_argv(o, n, args, NULL, 0);
}

static int parse_one(app_options *o, const char *opt, const char *value, char *msg, size_t msg_size)
{
    const char *args[2] = {opt, value};
    return parse_argv(o, 2, args, msg, msg_size);
}

static int one_line(const char *msg)
{
    size_t n = strlen(msg);
    return n > 0 && msg[n - 1] == '\n' && strchr(msg, '\n') == msg + n - 1;
}

/* ---- options ----------------------------------------------------------------------------------- */

static void test_defaults(void)
{
    app_options o;
    SCT_REQUIRE(parse(&o, "") == 0);
    SCT_CHECK(o.width == 1024 && o.height == 1024);
    SCT_CHECK(o.backend == SC_BACKEND_DEFAULT);
    SCT_CHECK(o.mesh_path == NULL && o.resolution == 0);
    SCT_CHECK(o.deform_mask == APP_DEFORM_DEFAULT);
    SCT_CHECK(o.mode == SC_VIEW_SHADED && o.frames == 0 && o.window == APP_WINDOW_AUTO);
    SCT_CHECK(fabsf(o.time_step - 1.0f / 60.0f) < 1e-7f);
    SCT_CHECK(o.max_mesh_bytes == 0 && o.max_vertices == 0 && o.max_triangles == 0 && !o.verbose);
}

static void test_every_option(void)
{
    app_options o;
    SCT_REQUIRE(parse(&o, "--mesh m.obj --resolution 64 --subdivide 2 --size 1000x777 --backend cpu --tile 16 --slabs 32 "
                          "--cull --flat --deform bend,noise --mode tests --frames 9 --time 1.5 --dt 0.25 "
                          "--out x.png --stats-json s.json --headless --threads 3 --max-mesh-bytes 2G "
                          "--max-vertices 1000 --max-triangles 5000 --max-xz-ratio 1000 --verbose") == 0);
    SCT_CHECK(strcmp(o.mesh_path, "m.obj") == 0 && o.resolution == 64 && o.subdivide == 2);
    SCT_CHECK(o.width == 1000 && o.height == 777 && o.backend == SC_BACKEND_CPU);
    SCT_CHECK(o.tile_size == 16 && o.num_slabs == 32 && o.cull_back_faces && o.flat_shading);
    SCT_CHECK(o.deform_mask == (APP_DEFORM_BIT(SC_DEFORMER_BEND) | APP_DEFORM_BIT(SC_DEFORMER_NOISE)));
    SCT_CHECK(o.mode == SC_VIEW_TESTS_HEAT && o.frames == 9);
    SCT_CHECK(o.start_time == 1.5f && o.time_step == 0.25f);
    SCT_CHECK(strcmp(o.out_path, "x.png") == 0 && o.out_format == APP_IMAGE_PNG && strcmp(o.stats_json, "s.json") == 0);
    SCT_CHECK(o.window == APP_WINDOW_OFF && o.threads == 3);
    SCT_CHECK(o.max_mesh_bytes == (UINT64_C(2) << 30) && o.max_vertices == 1000 && o.max_triangles == 5000 &&
              o.max_xz_ratio == 1000);
    SCT_CHECK(o.verbose == 1);
    SCT_REQUIRE(parse(&o, "--deform none --backend cuda --window") == 0);
    SCT_CHECK(o.deform_mask == 0 && o.backend == SC_BACKEND_CUDA && o.window == APP_WINDOW_ON);
    SCT_REQUIRE(parse(&o, "--size=640x480 --time=-2.5 --out=a/b.JPEG") == 0);
    SCT_CHECK(o.width == 640 && o.height == 480 && o.start_time == -2.5f && o.out_format == APP_IMAGE_JPG);
}

/* The edges of every range are accepted, with the values they name. */
static void test_range_edges_are_accepted(void)
{
    app_options o;
    SCT_CHECK(parse(&o, "--size 16384x1") == 0 && o.width == 16384 && o.height == 1);
    SCT_CHECK(parse(&o, "--size 1X16384") == 0 && o.width == 1 && o.height == 16384);
    SCT_CHECK(parse(&o, "--frames 1000000 --dt 0.05") == 0 && o.frames == 1000000);
    SCT_CHECK(parse(&o, "--frames 1") == 0 && o.frames == 1);
    SCT_CHECK(parse(&o, "--dt 0.000001") == 0 && o.time_step == 1e-6f);
    SCT_CHECK(parse(&o, "--dt 3600 --frames 20") == 0 && o.time_step == 3600.0f);
    SCT_CHECK(parse(&o, "--time -100000 --frames 1") == 0 && o.start_time == -100000.0f);
    SCT_CHECK(parse(&o, "--time 0.5e1") == 0 && o.start_time == 5.0f);
    SCT_CHECK(parse(&o, "--time 1e-400") == 0 && o.start_time == 0.0f); /* below a double: 0 */
    SCT_CHECK(parse(&o, "--tile 1 --slabs 1024 --threads 1024") == 0 && o.tile_size == 1 && o.num_slabs == 1024);
    SCT_CHECK(parse(&o, "--resolution 3 --subdivide 0") == 0 && o.resolution == 3);
    SCT_CHECK(parse(&o, "--resolution 16384 --subdivide 6") == 0 && o.resolution == 16384 && o.subdivide == 6);
    SCT_CHECK(parse(&o, "--frames 007") == 0 && o.frames == 7);
    static const struct { const char *text; uint64_t value; } bytes[] = {
        {"1", 1}, {"4K", 4096}, {"4k", 4096}, {"3m", 3u << 20}, {"2GiB", UINT64_C(2) << 30}, {"5gb", UINT64_C(5) << 30},
        {"1T", UINT64_C(1) << 40}, {"4194304T", UINT64_C(1) << 62}, {"4611686018427387904", UINT64_C(1) << 62},
    };
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; ++i) {
        SCT_CHECK_MSG(parse_one(&o, "--max-mesh-bytes", bytes[i].text, NULL, 0) == 0, "refused %s", bytes[i].text);
        SCT_CHECK_MSG(o.max_mesh_bytes == bytes[i].value, "--max-mesh-bytes %s gave %llu", bytes[i].text,
                      (unsigned long long)o.max_mesh_bytes);
    }
    SCT_CHECK(parse(&o, "--max-vertices 4294967295 --max-triangles 1") == 0 && o.max_vertices == 4294967295u &&
              o.max_triangles == 1);
}

/* Every bad value of every class is refused with one line naming the option, the value and the
 * valid range. */
static void test_bad_values_are_refused(void)
{
    static const struct { const char *opt, *value; } bad[] = {
        /* overflow of 32 and 64 bits (the old parser took 4294967297x1 as 1x1) */
        {"--size", "4294967297x1"}, {"--size", "1x4294967297"}, {"--size", "18446744073709551617x1"},
        {"--size", "99999999999999999999999x5"}, {"--frames", "4294967297"}, {"--frames", "99999999999999999999"},
        {"--tile", "4294967304"}, {"--slabs", "4294967297"}, {"--threads", "4294967297"},
        {"--resolution", "4294967299"}, {"--subdivide", "4294967296"}, {"--max-vertices", "4294967296"},
        {"--max-triangles", "18446744073709551616"}, {"--max-mesh-bytes", "18446744073709551616"},
        {"--max-mesh-bytes", "16777216T"}, {"--max-mesh-bytes", "4194305T"}, {"--max-mesh-bytes", "99999999999999999999K"},
        /* garbage, signs, spaces, other bases, fractions for counts */
        {"--size", "100"}, {"--size", "10x10x"}, {"--size", "x10"}, {"--size", "10x"}, {"--size", "10 x10"},
        {"--size", "+10x10"}, {"--size", "-10x10"}, {"--size", "0x10x10"}, {"--size", "1e3x10"}, {"--size", ""},
        {"--frames", "12abc"}, {"--frames", "0x10"}, {"--frames", " 5"}, {"--frames", "5 "}, {"--frames", "+5"},
        {"--frames", "-1"}, {"--frames", ""}, {"--frames", "1e3"}, {"--frames", "1.5"}, {"--frames", "five"},
        {"--tile", "8px"}, {"--slabs", "16.0"}, {"--threads", "-0"}, {"--resolution", "0x20"},
        {"--max-mesh-bytes", "1Q"}, {"--max-mesh-bytes", "1KK"}, {"--max-mesh-bytes", "1Ki"}, {"--max-mesh-bytes", "-1"},
        {"--max-mesh-bytes", "K"}, {"--max-vertices", "1K"}, {"--max-triangles", "1.0"},
        /* NaN, infinities, hex floats, spaces in times */
        {"--time", "nan"}, {"--time", "NaN"}, {"--time", "inf"}, {"--time", "-inf"}, {"--time", "infinity"},
        {"--dt", "nan"}, {"--dt", "inf"}, {"--dt", "1e999"}, {"--time", "0x1p3"}, {"--time", " 1"}, {"--time", "1 "},
        {"--time", "abc"}, {"--time", "1.5s"}, {"--time", ""}, {"--dt", "1/60"},
        /* out of range */
        {"--dt", "0"}, {"--dt", "-0.1"}, {"--dt", "1e38"}, {"--dt", "3600.001"}, {"--dt", "1e-7"}, {"--dt", "1e-400"},
        {"--time", "100000.5"}, {"--time", "-1e6"}, {"--time", "1e39"}, {"--frames", "0"}, {"--frames", "1000001"},
        {"--resolution", "2"}, {"--resolution", "16385"}, {"--subdivide", "7"}, {"--tile", "0"}, {"--tile", "33"},
        {"--slabs", "0"}, {"--slabs", "1025"}, {"--threads", "0"}, {"--threads", "1025"}, {"--size", "0x5"},
        {"--size", "5x0"}, {"--size", "16385x1"}, {"--max-mesh-bytes", "0"}, {"--max-vertices", "0"},
        {"--max-triangles", "0"}, {"--max-xz-ratio", "0"}, {"--max-xz-ratio", "1e3"},
        /* words */
        {"--backend", "vulkan"}, {"--deform", "twist,spin"}, {"--deform", "twist,,wave"}, {"--deform", ","},
        {"--deform", ""}, {"--mode", "fancy"}, {"--mode", "shadows"}, {"--mode", "Shadow"},
        /* lights: counts, numbers, zero directions, ranges, kinds */
        {"--light", ""}, {"--light", "1,2"}, {"--light", "1,2,3,4"}, {"--light", "1,,3"}, {"--light", "1,2,3,"},
        {"--light", "x,y,z"}, {"--light", "nan,0,0"}, {"--light", "0,inf,0"}, {"--light", "1e19,0,0"},
        {"--light", "0,0,-2e18"}, {"--light", "0x1p3,0,0"}, {"--light", " 1,2,3"}, {"--light", "dir:"},
        {"--light", "dir:0,0,0"}, {"--light", "dir:0,-0,0.0"}, {"--light", "dir:1e-50,0,0"}, {"--light", "dir:1,2"},
        {"--light", "dir:1,2,3,4"}, {"--light", "Dir:1,2,3"}, {"--light", "point:1,2,3"}, {"--light", "dir 1,2,3"},
        /* file names */
        {"--out", "x.jpg.gif"}, {"--out", "x"}, {"--out", "dir.png/x"}, {"--out", ".png"}, {"--out", ""},
        {"--mesh", ""}, {"--stats-json", ""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        app_options o;
        char msg[512];
        int rc = parse_one(&o, bad[i].opt, bad[i].value, msg, sizeof msg);
        SCT_CHECK_MSG(rc != 0, "accepted: %s '%s'", bad[i].opt, bad[i].value);
        if (rc == 0) continue;
        char quoted[128];
        snprintf(quoted, sizeof quoted, "'%s'", bad[i].value);
        SCT_CHECK_MSG(one_line(msg), "%s '%s': not one line: %s", bad[i].opt, bad[i].value, msg);
        SCT_CHECK_MSG(strncmp(msg, "slabcast: ", 10) == 0 && strstr(msg, bad[i].opt) && strstr(msg, quoted) &&
                          strstr(msg, "valid: "),
                      "%s '%s': message does not name the option, the value and the valid range: %s", bad[i].opt,
                      bad[i].value, msg);
    }
}

static void test_numeric_messages_name_the_range(void)
{
    app_options o;
    char msg[512];
    SCT_REQUIRE(parse_one(&o, "--size", "4294967297x1", msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "width") && strstr(msg, "out of range") && strstr(msg, "16384"), "%s", msg);
    SCT_REQUIRE(parse_one(&o, "--dt", "0", msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "out of range") && strstr(msg, "3600"), "%s", msg);
    SCT_REQUIRE(parse_one(&o, "--time", "nan", msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "not a finite number"), "%s", msg);
    SCT_REQUIRE(parse_one(&o, "--frames", "12abc", msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "unexpected characters") && strstr(msg, "1000000"), "%s", msg);
    /* A hostile value is shown on one line, escaped and cut short. */
    char longv[300];
    memset(longv, 'x', sizeof longv - 1);
    longv[sizeof longv - 1] = '\0';
    longv[3] = '\n';
    SCT_REQUIRE(parse_one(&o, "--mode", longv, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(one_line(msg) && strstr(msg, "\\x0a") && strstr(msg, "...'") && strlen(msg) < 250, "%s", msg);
}

/* Frames whose time leaves +-APP_MAX_TIME, and contradicting flags, are refused as a whole. */
static void test_bad_combinations_are_refused(void)
{
    app_options o;
    const char *bad[] = {"--time 99999 --dt 1 --frames 10", "--dt 3600 --frames 1000", "--time 99999.5 --frames 2 --dt 1",
                         "--dt 3600", "--window --headless", "--headless --window",
                         /* --gpus: headless, shaded, id or normals, no shadows */
                         "--gpus 2 --window", "--gpus 2 --shadows", "--gpus 2 --mode tiles",
                         "--gpus 2 --light 1,2,3", "--gpus 0", "--gpus 65", "--gpus 2 --no-hud",
                         /* the viewer's own options with --headless, in either order */
                         "--headless --no-hud", "--state-log s.jsonl --headless", "--headless --interop off",
                         "--deform-speed 2 --headless"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) SCT_CHECK_MSG(parse(&o, bad[i]) != 0, "accepted: %s", bad[i]);
    char msg[512];
    const char *viewer_headless[] = {"--interop=off", "--no-hud", "--headless"};
    SCT_REQUIRE(parse_argv(&o, 3, viewer_headless, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "--interop is a viewer option") && strstr(msg, "--headless") && one_line(msg), "%s", msg);
    SCT_CHECK(parse(&o, "--no-hud --state-log s.jsonl --interop on --deform-speed 2") == 0 &&
              strcmp(o.viewer_option, "--no-hud") == 0);
    SCT_CHECK(parse(&o, "--no-hud --window") == 0 && parse(&o, "--headless --heat-max 9 --record d") == 0 &&
              o.viewer_option == NULL);
    SCT_CHECK(parse(&o, "--time 99999 --dt 1 --frames 2") == 0);
    SCT_CHECK(parse(&o, "--gpus 3 --mode id --headless") == 0 && o.gpus == 3);
    SCT_CHECK(parse(&o, "--size 64x48") == 0 && o.gpus == 0);
}

static void test_unknown_option_and_missing_value(void)
{
    app_options o;
    char msg[512];
    const char *unknown[] = {"--bogus"};
    SCT_REQUIRE(parse_argv(&o, 1, unknown, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "unknown option '--bogus'") && !strstr(msg, "needs a value") && one_line(msg), "%s", msg);
    const char *typo[] = {"--sise", "10x10"};
    SCT_REQUIRE(parse_argv(&o, 2, typo, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "unknown option '--sise'") && strstr(msg, "did you mean --size?"), "%s", msg);
    const char *prefix[] = {"--res", "5"};
    SCT_REQUIRE(parse_argv(&o, 2, prefix, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "did you mean --resolution?"), "%s", msg);
    const char *missing[] = {"--mesh"};
    SCT_REQUIRE(parse_argv(&o, 1, missing, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "option --mesh needs a value") && !strstr(msg, "unknown") && one_line(msg), "%s", msg);
    const char *next_is_option[] = {"--frames", "--headless"};
    SCT_REQUIRE(parse_argv(&o, 2, next_is_option, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "option --frames needs a value"), "%s", msg);
    const char *stray[] = {"-x"};
    SCT_REQUIRE(parse_argv(&o, 1, stray, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "unexpected argument '-x'"), "%s", msg);
    const char *flag_value[] = {"--cull=1"};
    SCT_REQUIRE(parse_argv(&o, 1, flag_value, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "--cull takes no value"), "%s", msg);
    const char *mesh_dash[] = {"--mesh=--odd.obj"};
    SCT_CHECK(parse_argv(&o, 1, mesh_dash, NULL, 0) == 0 && strcmp(o.mesh_path, "--odd.obj") == 0);
}

/* File names without an option and repeated --mesh make the model list, in order; the first is
 * mesh_path. More than APP_MAX_MODELS is refused with a message. */
static void test_model_files(void)
{
    app_options o;
    char msg[512];
    const char *argv[] = {"a.obj", "--mesh", "b.ply", "--size", "64x64", "c.stl.xz"};
    SCT_REQUIRE(parse_argv(&o, 6, argv, msg, sizeof msg) == 0);
    SCT_CHECK(o.mesh_count == 3 && strcmp(o.mesh_path, "a.obj") == 0);
    SCT_CHECK(o.mesh_count == 3 && strcmp(o.mesh_paths[1], "b.ply") == 0 && strcmp(o.mesh_paths[2], "c.stl.xz") == 0);
    SCT_CHECK(o.width == 64);
    const char *none[] = {"--headless"};
    SCT_REQUIRE(parse_argv(&o, 1, none, msg, sizeof msg) == 0);
    SCT_CHECK(o.mesh_count == 0 && o.mesh_path == NULL);
    const char *many[APP_MAX_MODELS + 1];
    for (unsigned i = 0; i <= APP_MAX_MODELS; ++i) many[i] = "m.obj";
    SCT_REQUIRE(parse_argv(&o, APP_MAX_MODELS + 1, many, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "too many model files") && one_line(msg), "%s", msg);
    const char *empty[] = {"--mesh="};
    SCT_REQUIRE(parse_argv(&o, 1, empty, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "empty file name"), "%s", msg);
}

/* The viewer's settings from the command line: ranges enforced, defaults 1 / 0 / auto. */
static void test_viewer_settings(void)
{
    app_options o;
    char msg[512];
    const char *none[] = {"--headless"};
    SCT_REQUIRE(parse_argv(&o, 1, none, msg, sizeof msg) == 0);
    SCT_CHECK(o.deform_amount == 1.0f && o.deform_speed == 1.0f && o.heat_max == 0.0f);
    SCT_CHECK(o.interop == APP_INTEROP_AUTO && o.record_dir == NULL);
    const char *good[] = {"--deform-amount", "2.5", "--deform-speed=-0.5", "--heat-max", "96", "--interop", "off",
                          "--record", "frames"};
    SCT_REQUIRE(parse_argv(&o, 9, good, msg, sizeof msg) == 0);
    SCT_CHECK(o.deform_amount == 2.5f && o.deform_speed == -0.5f && o.heat_max == 96.0f);
    SCT_CHECK(o.interop == APP_INTEROP_OFF && o.record_dir && strcmp(o.record_dir, "frames") == 0);
    const struct { const char *arg, *expect; } bad[] = {
        {"--heat-max=0", "out of range"},      {"--heat-max=-3", "out of range"},
        {"--heat-max=nan", "not a finite"},    {"--deform-amount=11", "out of range"},
        {"--deform-speed=101", "out of range"}, {"--interop=maybe", "unknown interop mode"},
        {"--record=", "empty file name"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const char *argv[] = {bad[i].arg};
        SCT_CHECK(parse_argv(&o, 1, argv, msg, sizeof msg) != 0);
        SCT_CHECK_MSG(strstr(msg, bad[i].expect) && one_line(msg), "%s: %s", bad[i].arg, msg);
    }
}

static void test_output_format_from_extension(void)
{
    static const struct { const char *path; app_image_format f; } cases[] = {
        {"a.png", APP_IMAGE_PNG}, {"dir/a.PNG", APP_IMAGE_PNG}, {"a.jpg", APP_IMAGE_JPG}, {"a.JPEG", APP_IMAGE_JPG},
        {"a.b.bmp", APP_IMAGE_BMP}, {"./x.tga", APP_IMAGE_TGA}, {"a.gif", APP_IMAGE_UNKNOWN}, {"a", APP_IMAGE_UNKNOWN},
        {"a.", APP_IMAGE_UNKNOWN}, {"x.png/a", APP_IMAGE_UNKNOWN}, {".png", APP_IMAGE_UNKNOWN}, {"", APP_IMAGE_UNKNOWN},
        {"a.pngx", APP_IMAGE_UNKNOWN}, {"a.jp", APP_IMAGE_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        SCT_CHECK_MSG(app_image_format_of(cases[i].path) == cases[i].f, "'%s': format %d", cases[i].path,
                      (int)app_image_format_of(cases[i].path));
    app_options o;
    SCT_CHECK(parse(&o, "--out shot.bmp") == 0 && o.out_format == APP_IMAGE_BMP);
    SCT_CHECK(parse(&o, "--out x.jpg") == 0 && o.out_format == APP_IMAGE_JPG); /* was written as PNG bytes */
}

/* --shadows, --light (point, directional, up to SC_MAX_LIGHTS in order) and the shadow view modes. */
static void test_lights_and_shadows(void)
{
    app_options o;
    SCT_REQUIRE(parse(&o, "") == 0);
    SCT_CHECK(o.shadows == 0 && o.light_count == 0);
    SCT_REQUIRE(parse(&o, "--shadows --light 1,2.5,-3 --light=dir:0,-1,0.5 --mode shadow") == 0);
    SCT_CHECK(o.shadows == 1 && o.light_count == 2 && o.mode == SC_VIEW_SHADOW);
    SCT_CHECK(o.lights[0].type == SC_LIGHT_POINT && o.lights[0].position[0] == 1.0f &&
              o.lights[0].position[1] == 2.5f && o.lights[0].position[2] == -3.0f);
    SCT_CHECK(o.lights[1].type == SC_LIGHT_DIRECTIONAL && o.lights[1].direction[0] == 0.0f &&
              o.lights[1].direction[1] == -1.0f && o.lights[1].direction[2] == 0.5f);
    /* The renderer's defaults for the rest: colour 0 (white), intensity 0 (1), shadows on. */
    for (unsigned i = 0; i < o.light_count; ++i)
        SCT_CHECK(o.lights[i].intensity == 0.0f && o.lights[i].color[0] == 0.0f && o.lights[i].no_shadows == 0);
    SCT_REQUIRE(parse(&o, "--mode shadow-tests --light 1e18,-1e18,0 --light dir:1e-30,0,0") == 0);
    SCT_CHECK(o.mode == SC_VIEW_SHADOW_TESTS && o.shadows == 0 && o.light_count == 2);
    SCT_CHECK(o.lights[0].position[0] == 1e18f && o.lights[1].direction[0] == 1e-30f);

    char msg[512];
    const char *four[] = {"--light", "1,0,0", "--light", "0,1,0", "--light", "dir:0,0,1", "--light", "2,2,2"};
    SCT_REQUIRE(parse_argv(&o, 8, four, msg, sizeof msg) == 0);
    SCT_CHECK(o.light_count == SC_MAX_LIGHTS && o.lights[2].type == SC_LIGHT_DIRECTIONAL &&
              o.lights[3].position[0] == 2.0f);
    const char *five[] = {"--light", "1,0,0", "--light", "0,1,0", "--light", "dir:0,0,1", "--light", "2,2,2",
                          "--light", "3,3,3"};
    SCT_REQUIRE(parse_argv(&o, 10, five, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "--light '3,3,3': too many lights") && strstr(msg, "at most 4") && one_line(msg), "%s",
                  msg);
    SCT_REQUIRE(parse_one(&o, "--light", "dir:0,0,0", msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "the direction is 0") && one_line(msg), "%s", msg);
    SCT_REQUIRE(parse_one(&o, "--light", "1,2", msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "expected 3 comma-separated numbers") && strstr(msg, "dir:x,y,z"), "%s", msg);
    SCT_REQUIRE(parse_one(&o, "--light", "1e19,0,0", msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "out of range") && strstr(msg, "1e+18"), "%s", msg);
    const char *flag_value[] = {"--shadows=1"};
    SCT_REQUIRE(parse_argv(&o, 1, flag_value, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "--shadows takes no value"), "%s", msg);
    const char *no_value[] = {"--light"};
    SCT_REQUIRE(parse_argv(&o, 1, no_value, msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "option --light needs a value"), "%s", msg);
    /* A bad mode names every mode, the shadow ones too. */
    SCT_REQUIRE(parse_one(&o, "--mode", "shadows", msg, sizeof msg) != 0);
    SCT_CHECK_MSG(strstr(msg, "shaded, id, normals, depth, tiles, slab, tests, shadow, shadow-tests"), "%s", msg);
    SCT_CHECK(strcmp(app_mode_name(SC_VIEW_SHADOW), "shadow") == 0);
    SCT_CHECK(strcmp(app_mode_name(SC_VIEW_SHADOW_TESTS), "shadow-tests") == 0);
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m) {
        const char *name = app_mode_name((sc_view_mode)m);
        SCT_CHECK_MSG(strcmp(name, "?") != 0, "mode %d has no name", m);
        SCT_CHECK_MSG(parse_one(&o, "--mode", name, NULL, 0) == 0 && o.mode == (sc_view_mode)m, "--mode %s", name);
    }
}

/* The default light is a point light at the framing centre + 3 x the framing radius x
 * normalize(1, 2, 1), as app_orbit_frame frames the bounds. */
static void test_default_light(void)
{
    const double lo[3] = {-1, 0, 2}, hi[3] = {3, 2, 4};
    app_orbit orb;
    app_orbit_frame(lo, hi, &orb);
    sc_light_desc l = app_default_light(orb.center, orb.radius);
    SCT_CHECK(l.type == SC_LIGHT_POINT && l.intensity == 0.0f && l.no_shadows == 0);
    /* Centre (1, 1, 3), radius sqrt(6) (the half-diagonal), normalize(1, 2, 1) = (1, 2, 1) / sqrt(6). */
    const double want[3] = {1 + 3 * 1, 1 + 3 * 2, 3 + 3 * 1};
    for (int k = 0; k < 3; ++k)
        SCT_CHECK_MSG(fabs(l.position[k] - want[k]) < 1e-5 * fabs(want[k]), "position[%d] %g, want %g", k,
                      (double)l.position[k], want[k]);
    char text[128];
    app_light_format(&l, text, sizeof text);
    SCT_CHECK_MSG(strcmp(text, "point (4, 7, 6)") == 0, "%s", text);
}

static double distance3(const float a[3], const float b[3])
{
    double d = 0.0;
    for (int k = 0; k < 3; ++k) d += ((double)a[k] - b[k]) * ((double)a[k] - b[k]);
    return sqrt(d);
}

/* Ctrl+Left drag's move: a point light stays at its distance from the centre, a directional light
 * keeps its length; both turn, and turn back; a light at the centre stays there. */
static void test_light_orbit(void)
{
    const float center[3] = {1.0f, -2.0f, 0.5f};
    sc_light_desc p = app_default_light(center, 2.0f), before = p;
    const double d0 = distance3(p.position, center);
    app_light_orbit(&p, center, 0.4f, -0.3f);
    SCT_CHECK(fabs(distance3(p.position, center) - d0) < 1e-5 * d0);
    SCT_CHECK(distance3(p.position, before.position) > 0.1 * d0);
    SCT_CHECK(p.position[1] < before.position[1]); /* pitch down: lower */
    app_light_orbit(&p, center, -0.4f, 0.3f);
    SCT_CHECK_MSG(distance3(p.position, before.position) < 1e-4 * d0, "%g off after turning back",
                  distance3(p.position, before.position));
    for (int i = 0; i < 50; ++i) app_light_orbit(&p, center, 0.0f, 0.5f); /* never over the pole */
    SCT_CHECK(fabs(distance3(p.position, center) - d0) < 1e-4 * d0 && p.position[1] > center[1]);

    sc_light_desc d = {0};
    d.type = SC_LIGHT_DIRECTIONAL;
    d.direction[0] = 0.0f, d.direction[1] = -2.0f, d.direction[2] = -1.0f;
    const sc_light_desc d_before = d;
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    app_light_orbit(&d, center, 1.0f, 0.2f); /* the centre does not matter to a direction */
    SCT_CHECK(fabs(distance3(d.direction, origin) - sqrt(5.0)) < 1e-5);
    SCT_CHECK(distance3(d.direction, d_before.direction) > 0.1);
    SCT_CHECK(d.position[0] == 0.0f && d.position[1] == 0.0f && d.position[2] == 0.0f);
    app_light_orbit(&d, center, -1.0f, -0.2f);
    SCT_CHECK(distance3(d.direction, d_before.direction) < 1e-5);

    sc_light_desc at = {0};
    for (int k = 0; k < 3; ++k) at.position[k] = center[k];
    app_light_orbit(&at, center, 0.5f, 0.5f);
    SCT_CHECK(distance3(at.position, center) == 0.0);
}

/* ---- a JSON checker, independent of the writer --------------------------------------------------- */

typedef struct json_reader {
    const unsigned char *p, *end;
    const char *want_key;   /* a top-level member to capture */
    char got[512];          /* its value: decoded string, or "null" / "object" / ... */
    int found;
} json_reader;

static void j_ws(json_reader *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')) ++j->p;
}

static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | cp >> 6); out[1] = (char)(0x80 | (cp & 63)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12); out[1] = (char)(0x80 | ((cp >> 6) & 63)); out[2] = (char)(0x80 | (cp & 63));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18); out[1] = (char)(0x80 | ((cp >> 12) & 63));
    out[2] = (char)(0x80 | ((cp >> 6) & 63)); out[3] = (char)(0x80 | (cp & 63));
    return 4;
}

static int j_hex4(json_reader *j, uint32_t *v)
{
    *v = 0;
    for (int i = 0; i < 4; ++i, ++j->p) {
        if (j->p >= j->end) return 0;
        unsigned c = *j->p;
        unsigned d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
        if (d > 15) return 0;
        *v = *v * 16 + d;
    }
    return 1;
}

/* One raw UTF-8 character: decoded to a code point, checked for overlong forms, surrogates and range. */
static int j_raw_char(json_reader *j, uint32_t *cp)
{
    unsigned c = *j->p++;
    int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0) return 0;
    static const uint32_t k_min[4] = {0, 0x80, 0x800, 0x10000};
    *cp = n == 0 ? c : c & (0x3Fu >> n);
    for (int i = 0; i < n; ++i, ++j->p) {
        if (j->p >= j->end || (*j->p & 0xC0) != 0x80) return 0;
        *cp = *cp << 6 | (*j->p & 0x3Fu);
    }
    return *cp >= k_min[n] && *cp <= 0x10FFFF && !(*cp >= 0xD800 && *cp <= 0xDFFF);
}

static int j_string(json_reader *j, char *out, size_t cap)
{
    size_t len = 0;
    if (j->p >= j->end || *j->p != '"') return 0;
    ++j->p;
    for (;;) {
        if (j->p >= j->end) return 0;
        uint32_t cp;
        unsigned c = *j->p;
        if (c == '"') { ++j->p; break; }
        if (c < 0x20) return 0; /* raw control characters are not JSON */
        if (c == '\\') {
            ++j->p;
            if (j->p >= j->end) return 0;
            c = *j->p++;
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *k = c ? strchr(from, (int)c) : NULL;
            if (k) cp = (unsigned char)to[k - from];
            else if (c == 'u') {
                if (!j_hex4(j, &cp)) return 0;
                if (cp >= 0xDC00 && cp <= 0xDFFF) return 0;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    uint32_t lo;
                    if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u') return 0;
                    j->p += 2;
                    if (!j_hex4(j, &lo) || lo < 0xDC00 || lo > 0xDFFF) return 0;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
            } else return 0;
        } else if (!j_raw_char(j, &cp)) return 0;
        if (out && len + 5 < cap) len += put_utf8(out + len, cp);
    }
    if (out) out[len < cap ? len : cap - 1] = '\0';
    return 1;
}

static int j_digits(json_reader *j)
{
    const unsigned char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') ++j->p;
    return j->p > s;
}

static int j_number(json_reader *j)
{
    if (j->p < j->end && *j->p == '-') ++j->p;
    if (j->p < j->end && *j->p == '0') ++j->p;
    else if (!j_digits(j)) return 0;
    if (j->p < j->end && *j->p == '.') { ++j->p; if (!j_digits(j)) return 0; }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        ++j->p;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) ++j->p;
        if (!j_digits(j)) return 0;
    }
    return 1;
}

static int j_value(json_reader *j, int depth, char *capture, size_t cap);

static int j_members(json_reader *j, int depth, char close)
{
    j_ws(j);
    if (j->p < j->end && *j->p == close) { ++j->p; return 1; }
    for (;;) {
        char *capture = NULL;
        if (close == '}') {
            char key[128];
            j_ws(j);
            if (!j_string(j, key, sizeof key)) return 0;
            j_ws(j);
            if (j->p >= j->end || *j->p++ != ':') return 0;
            if (depth == 1 && j->want_key && strcmp(key, j->want_key) == 0) {
                capture = j->got;
                j->found = 1;
            }
        }
        if (!j_value(j, depth + 1, capture, sizeof j->got)) return 0;
        j_ws(j);
        if (j->p >= j->end) return 0;
        char c = (char)*j->p++;
        if (c == close) return 1;
        if (c != ',') return 0;
    }
}

static int j_literal(json_reader *j, const char *word, char *capture, size_t cap)
{
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0) return 0;
    j->p += n;
    if (capture) snprintf(capture, cap, "%s", word);
    return 1;
}

static int j_value(json_reader *j, int depth, char *capture, size_t cap)
{
    j_ws(j);
    if (j->p >= j->end || depth > 32) return 0;
    switch (*j->p) {
    case '{': ++j->p; if (capture) snprintf(capture, cap, "object"); return j_members(j, depth + 1, '}');
    case '[': ++j->p; if (capture) snprintf(capture, cap, "array"); return j_members(j, depth + 1, ']');
    case '"': return j_string(j, capture, cap);
    case 't': return j_literal(j, "true", capture, cap);
    case 'f': return j_literal(j, "false", capture, cap);
    case 'n': return j_literal(j, "null", capture, cap);
    default: if (capture) snprintf(capture, cap, "number"); return j_number(j);
    }
}

/* 1 when the whole of text is one JSON value; the top-level member `key` (if any) in j->got. */
static int json_check(const char *text, size_t len, const char *key, json_reader *j)
{
    memset(j, 0, sizeof *j);
    j->p = (const unsigned char *)text;
    j->end = j->p + len;
    j->want_key = key;
    if (!j_value(j, 0, NULL, 0)) return 0;
    j_ws(j);
    return j->p == j->end;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = calloc(1, 1 << 16);
    *len = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    return buf;
}

static void test_checker_rejects_bad_json(void)
{
    const char *bad[] = {"{\"a\": \"x\ny\"}", "{\"a\": \"\xff\"}", "{\"a\": \"\xc0\xaf\"}", "{\"a\": \"\xed\xa0\x80\"}",
                         "{\"a\": nan}", "{\"a\": 1,}", "{\"a\" 1}", "{\"a\": \"\\ud800\"}", "{\"a\": \"\\q\"}", "{} x"};
    json_reader j;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        SCT_CHECK_MSG(!json_check(bad[i], strlen(bad[i]), NULL, &j), "checker accepted: %s", bad[i]);
    const char *good = "{\"a\": [1, -0.5e+3, true, null], \"b\": \"\\u00e9\\ud83d\\ude00\xc3\xa9\"}";
    SCT_CHECK(json_check(good, strlen(good), "b", &j) && strcmp(j.got, "\xc3\xa9\xf0\x9f\x98\x80\xc3\xa9") == 0);
}

/* ---- statistics -------------------------------------------------------------------------------- */

static void fake_stats(sc_frame_stats *st, double ms)
{
    memset(st, 0, sizeof *st);
    for (int s = 0; s < SC_STAGE_COUNT; ++s) st->stage_ms[s] = ms / SC_STAGE_COUNT;
    st->frame_ms = st->total_ms = ms;
    st->triangles = 12;
    st->hit_pixels = 7;
}

static void write_log_json(const app_frame_log *log, const char *mesh, const char *path, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    FILE *sink = fopen("/dev/null", "w");
    int rc = app_frame_log_write_json(log, path, "cpu", mesh, 64, 48, sink ? sink : stderr);
    if (sink) fclose(sink);
    SCT_CHECK(rc == 0);
    if (rc == 0) *text = read_file(path, len);
}

/* A log on garbage memory starts with nothing measured: no pipelined line, null in JSON (the
 * headless CPU run printed "pipelined: 690040557 frames ... in -0.124 ms"). */
static void test_fresh_log_has_nothing_measured(void)
{
    app_frame_log log;
    memset(&log, 0x2B, sizeof log); /* positive garbage in every int and double */
    SCT_REQUIRE(app_frame_log_init(&log, 3) == 0);
    SCT_CHECK(log.pipelined_frames == 0 && log.pipelined_ms == 0.0 && log.count == 0);
    sc_frame_stats st;
    for (int i = 0; i < 3; ++i) {
        fake_stats(&st, 1.0 + i);
        app_frame_log_add(&log, &st);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    SCT_REQUIRE(out);
    app_frame_log_print(&log, out);
    fclose(out);
    SCT_CHECK_MSG(text && strstr(text, "(3 frames)") && !strstr(text, "pipelined"), "%s", text ? text : "");
    free(text);
    char path[] = "/tmp/test_app_options_XXXXXX";
    int fd = mkstemp(path);
    SCT_REQUIRE(fd >= 0);
    fclose(fdopen(fd, "w"));
    write_log_json(&log, "m.obj", path, &text, &len);
    json_reader j;
    SCT_CHECK_MSG(text && json_check(text, len, "pipelined", &j) && j.found && strcmp(j.got, "null") == 0,
                  "pipelined not null: %s", text ? text : "");
    free(text);
    log.pipelined_frames = 3;
    log.pipelined_ms = 6.0;
    write_log_json(&log, "m.obj", path, &text, &len);
    SCT_CHECK_MSG(text && json_check(text, len, "pipelined", &j) && strcmp(j.got, "object") == 0, "%s", text ? text : "");
    free(text);
    remove(path);
    app_frame_log_free(&log);
}

/* Any mesh name gives valid JSON that reads back as the name, invalid UTF-8 bytes as U+FFFD. */
static void test_json_escapes_every_string(void)
{
    static const struct { const char *name, *decoded; } cases[] = {
        {"plain.obj", "plain.obj"},
        {"q\"uote\\back/slash.obj", "q\"uote\\back/slash.obj"},
        {"ctl\n\r\t\b\f\x01\x1f\x7f.ply", "ctl\n\r\t\b\f\x01\x1f\x7f.ply"},
        {"utf8 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "utf8 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
        /* lone byte, overlong '/', surrogate, cut sequence, above U+10FFFF: one U+FFFD per bad byte */
        {"a\xff" "b", "a\xef\xbf\xbd" "b"},
        {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},
        {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
        {"\xe2\x82z", "\xef\xbf\xbd\xef\xbf\xbdz"},
        {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
        {"end\xe2", "end\xef\xbf\xbd"},
    };
    char path[] = "/tmp/test_app_options_XXXXXX";
    int fd = mkstemp(path);
    SCT_REQUIRE(fd >= 0);
    fclose(fdopen(fd, "w"));
    app_frame_log log;
    SCT_REQUIRE(app_frame_log_init(&log, 1) == 0);
    sc_frame_stats st;
    fake_stats(&st, 2.0);
    app_frame_log_add(&log, &st);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *text = NULL;
        size_t len = 0;
        write_log_json(&log, cases[i].name, path, &text, &len);
        json_reader j;
        int ok = text && json_check(text, len, "mesh", &j);
        SCT_CHECK_MSG(ok, "case %zu: invalid JSON: %s", i, text ? text : "(none)");
        if (ok) SCT_CHECK_MSG(j.found && strcmp(j.got, cases[i].decoded) == 0, "case %zu: mesh reads back as '%s'", i, j.got);
        free(text);
    }
    /* Random byte strings: always valid JSON. */
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() ^ 0x15017);
    for (int round = 0; round < 200; ++round) {
        char name[40];
        size_t n = sct_rng_below(&rng, sizeof name - 1);
        for (size_t k = 0; k < n; ++k) name[k] = (char)(1 + sct_rng_below(&rng, 255));
        name[n] = '\0';
        char *text = NULL;
        size_t len = 0;
        write_log_json(&log, name, path, &text, &len);
        json_reader j;
        SCT_CHECK_MSG(text && json_check(text, len, "mesh", &j) && j.found, "round %d: invalid JSON", round);
        free(text);
    }
    remove(path);
    app_frame_log_free(&log);
}

/* The shadow pass in the statistics: its four stages by name in the table and the JSON, its counters
 * in the JSON always (0 with shadows off) and in the printed summary when shadows ran. */
static void test_shadow_statistics(void)
{
    static const char *const k_shadow_stages[] = {"shadow-recv", "shadow-emit", "shadow-split", "shadow-cast"};
    SCT_CHECK(strcmp(app_stage_name(SC_STAGE_SHADOW_RECEIVERS), "shadow-recv") == 0 &&
              strcmp(app_stage_name(SC_STAGE_SHADOW_CAST), "shadow-cast") == 0 &&
              strcmp(app_stage_name(SC_STAGE_SHADE), "shade") == 0 &&
              strcmp(app_stage_name(SC_STAGE_COUNT), "frame") == 0);
    /* Every stage named, once, within the printed table's 12 columns. */
    for (int i = 0; i <= SC_STAGE_COUNT; ++i) {
        const char *name = app_stage_name(i);
        SCT_CHECK_MSG(name && strlen(name) <= 12, "stage %d: no name, or wider than the table", i);
        for (int j = 0; j < i && name; ++j) SCT_CHECK_MSG(strcmp(name, app_stage_name(j)) != 0, "stage %d twice", i);
    }
    app_frame_log log;
    SCT_REQUIRE(app_frame_log_init(&log, 2) == 0);
    sc_frame_stats st;
    fake_stats(&st, 3.0);
    app_frame_log_add(&log, &st); /* shadows off */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    SCT_REQUIRE(out);
    app_frame_log_print(&log, out);
    fclose(out);
    SCT_CHECK_MSG(text && strstr(text, "shadow-cast") && !strstr(text, "shadows:"), "%s", text ? text : "");
    free(text);
    st.shadow_lights = 2;
    st.light_views = 7;
    st.shadow_receivers = 1001;
    st.shadow_references = 1002;
    st.shadow_ray_tests = 1003;
    st.shadow_rays_blocked = 1004;
    st.shadow_rays_early = 1005;
    st.shadow_overflow_passes = 1;
    app_frame_log_add(&log, &st);
    out = open_memstream(&text, &len);
    SCT_REQUIRE(out);
    app_frame_log_print(&log, out);
    fclose(out);
    SCT_CHECK_MSG(text && strstr(text, "shadows:    2 lights, 7 light views, 1001 receivers, 1002 caster references") &&
                      strstr(text, "1003 shadow-ray tests, 1004 rays blocked, 1005 decided early, 1 overflow passes"),
                  "%s", text ? text : "");
    free(text);
    char path[] = "/tmp/test_app_options_XXXXXX";
    int fd = mkstemp(path);
    SCT_REQUIRE(fd >= 0);
    fclose(fdopen(fd, "w"));
    write_log_json(&log, "m.obj", path, &text, &len);
    json_reader j;
    SCT_CHECK_MSG(text && json_check(text, len, "last_frame", &j) && j.found, "invalid JSON: %s", text ? text : "");
    static const char *const k_counters[] = {
        "\"shadow_lights\": 2", "\"light_views\": 7", "\"shadow_receivers\": 1001", "\"shadow_references\": 1002",
        "\"shadow_ray_tests\": 1003", "\"shadow_rays_blocked\": 1004", "\"shadow_rays_early\": 1005",
        "\"shadow_overflow_passes\": 1"};
    for (size_t i = 0; text && i < sizeof k_counters / sizeof k_counters[0]; ++i)
        SCT_CHECK_MSG(strstr(text, k_counters[i]) != NULL, "JSON lacks %s: %s", k_counters[i], text);
    for (size_t i = 0; text && i < sizeof k_shadow_stages / sizeof k_shadow_stages[0]; ++i) {
        char key[64];
        snprintf(key, sizeof key, "\"%s\": {\"median_ms\": ", k_shadow_stages[i]);
        SCT_CHECK_MSG(strstr(text, key) != NULL, "JSON lacks the stage %s", k_shadow_stages[i]);
    }
    free(text);
    remove(path);
    app_frame_log_free(&log);
}

/* A long run keeps a bounded, uniform sample: memory does not follow --frames, quantiles stay right. */
static void test_long_runs_keep_bounded_memory(void)
{
    app_frame_log log;
    const int n = 200000;
    SCT_REQUIRE(app_frame_log_init(&log, APP_MAX_FRAMES) == 0);
    SCT_CHECK(log.capacity == APP_FRAME_LOG_MAX);
    sc_frame_stats st;
    for (int i = 0; i < n; ++i) {
        fake_stats(&st, (double)i);
        app_frame_log_add(&log, &st);
    }
    SCT_CHECK(log.seen == n && log.count == APP_FRAME_LOG_MAX && log.last.frame_ms == n - 1);
    double median = app_frame_log_quantile(&log, SC_STAGE_COUNT, 0.5);
    double p95 = app_frame_log_quantile(&log, SC_STAGE_COUNT, 0.95);
    SCT_CHECK_MSG(fabs(median - 0.5 * n) < 0.02 * n && fabs(p95 - 0.95 * n) < 0.02 * n, "median %g, p95 %g", median, p95);
    app_frame_log_free(&log);
}

/* ---- bounds and framing ------------------------------------------------------------------------ */

static void test_orbit_frames_the_bounds(void)
{
    double lo[3] = {-1, 0, 2}, hi[3] = {3, 2, 4};
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

static void test_bounds_use_used_finite_vertices(void)
{
    const float inf = INFINITY;
    float p[] = {1, 2, 3, -4, 5, 0, 2, -1, 7,     /* 0-2: the used triangle */
                 1e30f, 1e30f, 1e30f,             /* 3: unused */
                 nanf(""), 0, 0, 0, inf, 0, 9, 9, 9}; /* 4-6: a triangle with non-finite vertices */
    uint32_t idx[] = {0, 1, 2, 4, 5, 6, 0, 1, 99};
    double lo[3], hi[3];
    SCT_CHECK(app_bounds(p, 7, idx, 3, lo, hi) == 1);
    SCT_CHECK(lo[0] == -4 && lo[1] == -1 && lo[2] == 0 && hi[0] == 2 && hi[1] == 5 && hi[2] == 7);
    SCT_CHECK(app_bounds(NULL, 0, NULL, 0, lo, hi) == 0);
    SCT_CHECK(lo[0] == -1 && hi[2] == 1);
    SCT_CHECK(app_bounds(p, 7, idx + 3, 1, lo, hi) == 0 && lo[1] == -1 && hi[1] == 1);
}

/* The camera of a framed mesh is finite and usable: near > 0, far > near, eye away from target,
 * the mesh inside the view. */
static int camera_ok(const app_orbit *orb)
{
    sc_camera_desc c = app_orbit_camera(orb);
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
        if (!isfinite(c.eye[k]) || !isfinite(c.target[k])) return 0;
        d2 += ((double)c.eye[k] - c.target[k]) * ((double)c.eye[k] - c.target[k]);
    }
    return isfinite(orb->radius) && orb->radius > 0 && d2 > 0 && isfinite(c.near_plane) && isfinite(c.far_plane) &&
           c.near_plane > 0 && c.far_plane > c.near_plane && sqrt(d2) + orb->radius < c.far_plane;
}

static void test_framing_any_finite_mesh(void)
{
    /* A 3e38 vertex (the old float bounds overflowed to inf and the camera was refused). */
    float huge[] = {3e38f, 0, 0, -3e38f, 0, 0, 0, 3e38f, 0, 0, 0, -FLT_MAX};
    uint32_t tris[] = {0, 1, 2, 0, 2, 3};
    app_orbit orb;
    app_fit fit;
    app_fit_mesh(huge, 4, tris, 2, &orb, &fit);
    SCT_CHECK(fit.moved && camera_ok(&orb));
    for (int i = 0; i < 12; ++i) SCT_CHECK_MSG(isfinite(huge[i]) && fabsf(huge[i]) <= 2.0f, "moved vertex %g", huge[i]);
    /* A comfortable mesh is left bit for bit alone. */
    float unit[] = {-1, 0, 0, 1, 0.5f, 0, 0, 1, -0.25f, 5e37f, 5e37f, 5e37f};
    float copy[12];
    memcpy(copy, unit, sizeof unit);
    app_fit_mesh(unit, 4, tris, 1, &orb, &fit); /* vertex 3 unused: does not count */
    SCT_CHECK(!fit.moved && memcmp(copy, unit, sizeof unit) == 0 && camera_ok(&orb) && orb.radius < 2.0f);
    /* Seeded random meshes from 1e-38 to 3e38 in size, centred anywhere: always a valid camera, and the
     * moved mesh keeps its shape (ratios of its extents). */
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() ^ 0xF4A3E);
    for (int round = 0; round < 2000; ++round) {
        double size = pow(10.0, -38.0 + 76.5 * sct_rng_unit(&rng));
        double centre = sct_rng_below(&rng, 3) == 0 ? 0.0 : pow(10.0, -38.0 + 76.5 * sct_rng_unit(&rng));
        float p[4 * 3];
        for (int i = 0; i < 12; ++i) {
            double v = centre + size * (2.0 * sct_rng_unit(&rng) - 1.0);
            p[i] = (float)(v > FLT_MAX ? FLT_MAX : (v < -FLT_MAX ? -FLT_MAX : v));
        }
        app_fit_mesh(p, 4, tris, 2, &orb, &fit);
        int ok = camera_ok(&orb);
        for (int i = 0; i < 12; ++i) ok = ok && isfinite(p[i]);
        SCT_CHECK_MSG(ok, "round %d: size %g centre %g gives no valid camera (radius %g, moved %d)", round, size, centre,
                      (double)orb.radius, fit.moved);
        if (!ok) break;
    }
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "app_options");
    SCT_RUN(test_defaults);
    SCT_RUN(test_every_option);
    SCT_RUN(test_range_edges_are_accepted);
    SCT_RUN(test_bad_values_are_refused);
    SCT_RUN(test_numeric_messages_name_the_range);
    SCT_RUN(test_bad_combinations_are_refused);
    SCT_RUN(test_unknown_option_and_missing_value);
    SCT_RUN(test_output_format_from_extension);
    SCT_RUN(test_model_files);
    SCT_RUN(test_viewer_settings);
    SCT_RUN(test_lights_and_shadows);
    SCT_RUN(test_default_light);
    SCT_RUN(test_light_orbit);
    SCT_RUN(test_checker_rejects_bad_json);
    SCT_RUN(test_fresh_log_has_nothing_measured);
    SCT_RUN(test_json_escapes_every_string);
    SCT_RUN(test_shadow_statistics);
    SCT_RUN(test_long_runs_keep_bounded_memory);
    SCT_RUN(test_orbit_frames_the_bounds);
    SCT_RUN(test_bounds_use_used_finite_vertices);
    SCT_RUN(test_framing_any_finite_mesh);
    return sct_end();
}
