/* test_bench_options.c - slabcast-bench's command line: lists (defaults replaced, repeated options
 * added), every value's range, --shadows and what needs it (--images, the gl-shadowmap peer),
 * --vertex-order (the renderer's option), --gpus (the scaling run's share counts and what it refuses),
 * and one-line messages that name the option, the item and
 * what is valid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_options.h"
#include "bench_peer.h"
#include "bench_test_options.h"
#include "deform_set.h"
#include "name_lists.h"
#include "sctest.h"

/* The message is one line, starts with the program's name and holds every one of the words. */
static void check_message(const char *msg, const char *w1, const char *w2)
{
    SCT_CHECK_MSG(strncmp(msg, "slabcast-bench: ", 16) == 0, "message: %s", msg);
    const char *nl = strchr(msg, '\n');
    SCT_CHECK_MSG(nl && nl[1] == '\0', "not one line: %s", msg);
    SCT_CHECK_MSG(!w1 || strstr(msg, w1), "'%s' missing from: %s", w1, msg);
    SCT_CHECK_MSG(!w2 || strstr(msg, w2), "'%s' missing from: %s", w2, msg);
}

static void test_defaults(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, NULL) == 0);
    SCT_CHECK_EQ_U64(o.model_count, 0);
    SCT_CHECK_EQ_U64(o.size_count, 1);
    SCT_CHECK_EQ_U64(o.sizes[0].width, 1024);
    SCT_CHECK_EQ_U64(o.sizes[0].height, 1024);
    SCT_CHECK_EQ_U64(o.tile_count, 1);
    SCT_CHECK_EQ_U64(o.tiles[0], 8);
    SCT_CHECK_EQ_U64(o.slabs[0], 16);
    SCT_CHECK_EQ_U64(o.subdivides[0], 0);
    SCT_CHECK_EQ_U64(o.deforms[0], APP_DEFORM_DEFAULT);
    SCT_CHECK_EQ_U64(o.views, 1);
    SCT_CHECK_EQ_U64(o.peer_count, 0);
    SCT_CHECK_EQ_U64(o.shadow_count, 1);
    SCT_CHECK_EQ_U64(o.shadows[0], 0);
    SCT_CHECK(o.images_dir == NULL);
    SCT_CHECK(o.backend == SC_BACKEND_DEFAULT);
    SCT_CHECK(o.vertex_order == SC_VERTEX_ORDER_FIRST_USE); /* the renderer's default */
    /* device_timed (sc_backend_info): the GPU's defaults; host-timed: the CPU backend's */
    SCT_CHECK_EQ_U64(bench_frames_for(&o, 1), BENCH_DEFAULT_FRAMES_DEVICE);
    SCT_CHECK_EQ_U64(bench_frames_for(&o, 0), BENCH_DEFAULT_FRAMES_HOST);
    SCT_CHECK_EQ_U64(bench_warmup_for(&o, 1), BENCH_DEFAULT_WARMUP_DEVICE);
    SCT_CHECK_EQ_U64(bench_warmup_for(&o, 0), BENCH_DEFAULT_WARMUP_HOST);
}

static void test_lists(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "builtin", "a.obj", "--size", "64x48,1920X1080", "--slabs=1,1024",
                      "--slabs", "7", "--tile", "32", "--subdivide", "0,2", "--deform", "twist,noise/none/bend", NULL) == 0);
    SCT_CHECK_EQ_U64(o.model_count, 2);
    SCT_CHECK(o.models[0] == NULL);
    SCT_CHECK(o.models[1] && strcmp(o.models[1], "a.obj") == 0);
    SCT_REQUIRE(o.size_count == 2);
    SCT_CHECK_EQ_U64(o.sizes[1].width, 1920);
    SCT_CHECK_EQ_U64(o.sizes[1].height, 1080);
    SCT_REQUIRE(o.slab_count == 3); /* the default replaced, the second --slabs added */
    SCT_CHECK_EQ_U64(o.slabs[0], 1);
    SCT_CHECK_EQ_U64(o.slabs[1], 1024);
    SCT_CHECK_EQ_U64(o.slabs[2], 7);
    SCT_CHECK_EQ_U64(o.tile_count, 1);
    SCT_CHECK_EQ_U64(o.tiles[0], 32);
    SCT_CHECK_EQ_U64(o.subdivide_count, 2);
    SCT_REQUIRE(o.deform_count == 3);
    SCT_CHECK_EQ_U64(o.deforms[0], APP_DEFORM_BIT(SC_DEFORMER_TWIST) | APP_DEFORM_BIT(SC_DEFORMER_NOISE));
    SCT_CHECK_EQ_U64(o.deforms[1], 0);
    SCT_CHECK_EQ_U64(o.deforms[2], APP_DEFORM_BIT(SC_DEFORMER_BEND));
    char name[64];
    app_deform_set_names(o.deforms[0], name, sizeof name);
    SCT_CHECK(strcmp(name, "twist,noise") == 0);
    app_deform_set_names(0, name, sizeof name);
    SCT_CHECK(strcmp(name, "none") == 0);
}

static void test_scalars(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--frames", "7", "--warmup", "0", "--backend", "cpu", "--json", "r.json",
                      "--csv", "r.csv", "--plot", "r.SVG", "--peers", "cpu", "--resolution", "12", "--threads", "3", NULL) == 0);
    SCT_CHECK_EQ_U64(bench_frames_for(&o, 1), 7);
    SCT_CHECK_EQ_U64(bench_warmup_for(&o, 1), 0);
    SCT_CHECK(o.backend == SC_BACKEND_CPU);
    SCT_CHECK(strcmp(o.json_path, "r.json") == 0 && strcmp(o.csv_path, "r.csv") == 0);
    SCT_CHECK(strcmp(o.plot_path, "r.SVG") == 0);
    SCT_REQUIRE(o.peer_count == 1);
    SCT_CHECK(strcmp(o.peers[0], "cpu") == 0);
    SCT_CHECK_EQ_U64(o.resolution, 12);
    SCT_CHECK_EQ_U64(o.threads, 3);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--plot", "x.png", NULL) == 0);
    SCT_CHECK(strcmp(o.plot_path, "x.png") == 0);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--plot=X.SVG", NULL) == 0);
    SCT_CHECK(strcmp(o.plot_path, "X.SVG") == 0);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--camera", "0,0,5,0,0,0,45", NULL) == 0);
    SCT_CHECK(o.has_camera && o.camera[2] == 5.0f && o.camera[6] == 45.0f);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--peers", "cpu", "--peers", "none", NULL) == 0);
    SCT_CHECK_EQ_U64(o.peer_count, 0);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--help", NULL) == 0);
    SCT_CHECK(o.help);
}

/* --shadows: a list of off and on (the default off replaced, a repeated option added); --images. */
static void test_shadows(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--shadows", "off,on", NULL) == 0);
    SCT_REQUIRE(o.shadow_count == 2);
    SCT_CHECK(o.shadows[0] == 0 && o.shadows[1] == 1);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--shadows", "on", NULL) == 0);
    SCT_REQUIRE(o.shadow_count == 1);
    SCT_CHECK(o.shadows[0] == 1);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--shadows=on", "--shadows", "off", NULL) == 0);
    SCT_REQUIRE(o.shadow_count == 2);
    SCT_CHECK(o.shadows[0] == 1 && o.shadows[1] == 0);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--shadows", "on", "--images", "pics", NULL) == 0);
    SCT_CHECK(o.images_dir && strcmp(o.images_dir, "pics") == 0);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--shadows", "off,on", "--images=d", NULL) == 0);
    SCT_CHECK(o.images_dir && strcmp(o.images_dir, "d") == 0);
}

/* --vertex-order maps onto sc_renderer_desc.vertex_order (the last one given counts), and its names
 * are those the JSON's options.vertex_order writes. */
static void test_vertex_order(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--vertex-order", "as-loaded", NULL) == 0);
    SCT_CHECK(o.vertex_order == SC_VERTEX_ORDER_KEEP);
    SCT_CHECK(strcmp(bench_vertex_order_name(o.vertex_order), "as-loaded") == 0);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--vertex-order=first-use", NULL) == 0);
    SCT_CHECK(o.vertex_order == SC_VERTEX_ORDER_FIRST_USE);
    SCT_CHECK(strcmp(bench_vertex_order_name(o.vertex_order), "first-use") == 0);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--vertex-order", "first-use", "--vertex-order", "as-loaded", NULL) == 0);
    SCT_CHECK(o.vertex_order == SC_VERTEX_ORDER_KEEP);
}

/* A peer that compares shadows, and --images, need a configuration with shadows on. */
static void test_shadow_combinations(void)
{
    bench_options o;
    char msg[512];
    SCT_CHECK(parse(&o, msg, sizeof msg, "--images", "d", NULL) == -1);
    check_message(msg, "--images", "--shadows on");
    SCT_CHECK(parse(&o, msg, sizeof msg, "--images", "d", "--shadows", "off", NULL) == -1);
    check_message(msg, "--images", "--shadows on");
    SCT_CHECK(bench_peer_known("gl-shadowmap"));
    const bench_peer *p = bench_peer_find("gl-shadowmap");
    if (!p) {
        SCT_CHECK(parse(&o, msg, sizeof msg, "--peers", "gl-shadowmap", "--shadows", "on", NULL) == -1);
        check_message(msg, "not built in this build", "gl-shadowmap");
        return;
    }
    SCT_CHECK(p->needs_shadows);
    SCT_CHECK(parse(&o, msg, sizeof msg, "--peers", "gl-shadowmap", NULL) == -1);
    check_message(msg, "--peers gl-shadowmap compares shadows", "--shadows on");
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--peers", "gl-shadowmap", "--shadows", "off,on", NULL) == 0);
    SCT_REQUIRE(o.peer_count == 1);
    SCT_CHECK(strcmp(o.peers[0], "gl-shadowmap") == 0);
}

/* --gpus: a list of share counts 1 .. SC_GROUP_MAX_SHARES (none: the sweep), refused with shadows,
 * peers or --images (a backend a group cannot run on is the group's to refuse, at run time). */
static void test_gpus(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, NULL) == 0);
    SCT_CHECK(o.gpu_count == 0);
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--gpus", "1,2,4", "--gpus=64", NULL) == 0);
    SCT_REQUIRE(o.gpu_count == 4);
    SCT_CHECK(o.gpus[0] == 1 && o.gpus[1] == 2 && o.gpus[2] == 4 && o.gpus[3] == 64);
    SCT_CHECK(parse(&o, msg, sizeof msg, "--gpus", "2,0", NULL) == -1);
    check_message(msg, "--gpus '2,0'", "out of range");
    SCT_CHECK(parse(&o, msg, sizeof msg, "--gpus", "65", NULL) == -1);
    check_message(msg, "--gpus", "1 .. 64");
    SCT_CHECK(parse(&o, msg, sizeof msg, "--gpus", "2", "--shadows", "on", NULL) == -1);
    check_message(msg, "--gpus", "without shadows");
    SCT_CHECK(parse(&o, msg, sizeof msg, "--gpus", "2", "--images", "d", NULL) == -1);
    check_message(msg, "--gpus", "--images");
    SCT_CHECK(parse(&o, msg, sizeof msg, "--gpus", "2", "--plot", "p.svg", NULL) == -1);
    check_message(msg, "--gpus", "--plot");
}

/* Each bad value: exit status of the parse, and the words its message must hold. */
static void test_errors(void)
{
    static const struct { const char *a, *b, *w1, *w2; } k_cases[] = {
        {"--slabs", "4,0", "--slabs '4,0'", "item 2 '0': out of range"},
        {"--slabs", "4,,2", "item 2 '': empty value", "1 .. 1024"},
        {"--slabs", "1025", "out of range", "integers 1 .. 1024"},
        {"--tile", "33", "--tile", "integers 1 .. 32"},
        {"--tile", "8x", "unexpected characters", "--tile"},
        {"--subdivide", "7", "--subdivide", "0 .. 6"},
        {"--size", "64x", "height: empty value", "each side 1 .. 16384"},
        {"--size", "64x48,abc", "item 2 'abc': expected WxH", "WxH"},
        {"--size", "0x5", "width: out of range", "WxH"},
        {"--size", "16385x5", "width: out of range", NULL},
        {"--deform", "twist,foo", "unknown deformer 'foo'", "comma-separated twist, bend, wave"},
        {"--deform", "twist/", "empty deformer name", "sets split by /"},
        {"--peers", "nosuch", "unknown peer", "peers built here: cpu"},
        {"--peers", "cpu,", "empty name", "--peers"},
        {"--views", "0", "--views '0'", "1 .. 360"},
        {"--views", "361", "out of range", NULL},
        {"--frames", "0", "--frames", "1 .. 100000"},
        {"--warmup", "-1", "not a number", "0 .. 10000"},
        {"--backend", "vulkan", "unknown backend", "auto, cpu, cuda"},
        {"--plot", "x.pdf", "--plot 'x.pdf'", "not an .svg or .png file name"},
        {"--plot", "x.svg.pdf", "--plot", "a file name ending in .svg or .png"},
        {"--json", "", "empty file name", "--json"},
        {"--time", "nan", "--time", "seconds"},
        {"--dt", "0", "--dt", "seconds"},
        {"--camera", "0,0,0,0,0,0,45", "eye equals target", "fov"},
        {"--camera", "1,2,3", "expected 7 comma-separated numbers", NULL},
        {"--resolution", "2", "--resolution", "3 .. 16384"},
        {"--threads", "0", "--threads", "1 .. 1024"},
        {"--shadows", "maybe", "--shadows 'maybe'", "item 1 'maybe': neither off nor on"},
        {"--shadows", "off,", "item 2 '': empty value", "off, on, or both"},
        {"--shadows", "ON", "neither off nor on", "(off,on)"},
        {"--images", "", "--images", "empty folder name"},
        {"--vertex-order", "keep", "unknown vertex order", "first-use, as-loaded"},
        {"--vertex-order", "", "--vertex-order", "first-use, as-loaded"},
    };
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; ++i) {
        bench_options o;
        char msg[512];
        int rc = parse(&o, msg, sizeof msg, k_cases[i].a, k_cases[i].b, NULL);
        SCT_CHECK_MSG(rc == -1, "%s %s accepted", k_cases[i].a, k_cases[i].b);
        check_message(msg, k_cases[i].w1, k_cases[i].w2);
    }
}

/* A peer slabcast-bench knows but this build lacks is told apart from an unknown name. */
static void test_unbuilt_peer(void)
{
    const char *names[] = {"cub-grid", "gl-raster", "gl-shadowmap"};
    for (size_t i = 0; i < 3; ++i) {
        SCT_CHECK(bench_peer_known(names[i]));
        if (bench_peer_find(names[i])) continue; /* built here */
        bench_options o;
        char msg[512];
        SCT_CHECK(parse(&o, msg, sizeof msg, "--peers", names[i], "--shadows", "on", NULL) == -1);
        check_message(msg, "not built in this build", "peers built here: cpu");
    }
    SCT_CHECK(!bench_peer_known("nosuch"));
    SCT_CHECK(bench_peer_find("cpu") == &bench_peer_cpu);
}

static void test_usage_errors(void)
{
    bench_options o;
    char msg[512];
    SCT_CHECK(parse(&o, msg, sizeof msg, "--frames", NULL) == -1);
    check_message(msg, "--frames needs a value", "(N)");
    SCT_CHECK(parse(&o, msg, sizeof msg, "--json", "--csv", NULL) == -1);
    check_message(msg, "--json needs a value", NULL);
    SCT_CHECK(parse(&o, msg, sizeof msg, "--bogus", NULL) == -1);
    check_message(msg, "unknown option '--bogus'", "--help");
    SCT_CHECK(parse(&o, msg, sizeof msg, "--sl", "3", NULL) == -1);
    check_message(msg, "did you mean --slabs?", NULL);
    SCT_CHECK(parse(&o, msg, sizeof msg, "-x", NULL) == -1);
    check_message(msg, "unexpected argument '-x'", NULL);
    SCT_CHECK(parse(&o, msg, sizeof msg, "--help=1", NULL) == -1);
    check_message(msg, "takes no value", NULL);
    SCT_CHECK(parse(&o, msg, sizeof msg, "--views", "2", "--camera", "0,0,5,0,0,0,45", NULL) == -1);
    check_message(msg, "--camera and --views", NULL);
    SCT_CHECK(parse(&o, msg, sizeof msg, "--time", "99999", "--dt", "10", NULL) == -1);
    check_message(msg, "outside", "lower --time, --dt or --frames");
    /* A hostile value is quoted on one line, its control bytes escaped. */
    SCT_CHECK(parse(&o, msg, sizeof msg, "--backend", "a\nb\x1b", NULL) == -1);
    check_message(msg, "'a\\x0ab\\x1b'", NULL);
}

/* Lists longer than BENCH_MAX_LIST are refused naming the limit. */
static void test_list_limit(void)
{
    char list[4 * 80];
    size_t n = 0;
    for (unsigned i = 1; i <= BENCH_MAX_LIST + 1; ++i) n += (size_t)snprintf(list + n, sizeof list - n, "%s%u", i > 1 ? "," : "", i);
    bench_options o;
    char msg[512];
    SCT_CHECK(parse(&o, msg, sizeof msg, "--slabs", list, NULL) == -1);
    check_message(msg, "more than 64 values", "--slabs");
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "bench_options");
    SCT_RUN(test_defaults);
    SCT_RUN(test_lists);
    SCT_RUN(test_scalars);
    SCT_RUN(test_shadows);
    SCT_RUN(test_shadow_combinations);
    SCT_RUN(test_vertex_order);
    SCT_RUN(test_gpus);
    SCT_RUN(test_errors);
    SCT_RUN(test_unbuilt_peer);
    SCT_RUN(test_usage_errors);
    SCT_RUN(test_list_limit);
    return sct_end();
}
