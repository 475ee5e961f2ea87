/* test_bench_sweep.c - the configurations of a sweep: their count (the product of the lists) and
 * the factors named, their order (the model slowest, the view fastest, so a model is read once),
 * the refusal past BENCH_MAX_CONFIGS, and the names and labels the progress line and table show. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_options.h"
#include "bench_sweep.h"
#include "bench_test_options.h"
#include "deform_set.h"
#include "sctest.h"

/* ---- the sweep --------------------------------------------------------------------------------- */

static void test_sweep_order(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "builtin", "m/dragon.obj.xz", "--size", "64x48,32x32", "--slabs", "4,8,16",
                      "--views", "2", "--deform=twist/none", NULL) == 0);
    uint64_t count = 0;
    char factors[256], why[256];
    SCT_REQUIRE(bench_sweep_count(&o, &count, factors, sizeof factors, why, sizeof why) == 0);
    SCT_CHECK_EQ_U64(count, 2 * 2 * 3 * 2 * 2);
    SCT_CHECK_MSG(strcmp(factors, "2 models x 1 subdivision level x 2 deformer sets x 2 sizes x 1 tile size x 3 slab "
                                  "counts x 2 views x 1 shadow setting") == 0, "factors: %s", factors);
    bench_config *c = NULL;
    size_t n = 0;
    SCT_REQUIRE(bench_sweep_expand(&o, &c, &n, why, sizeof why) == 0);
    SCT_REQUIRE(n == 48);
    static const uint32_t k_slabs[3] = {4, 8, 16};
    /* The view varies fastest, then slabs, tile, size, deformer set, subdivision; the model slowest. */
    for (size_t i = 0; i < n; ++i) {
        SCT_CHECK_EQ_U64(c[i].index, i);
        SCT_CHECK_EQ_U64(c[i].view, i % 2);
        SCT_CHECK_EQ_U64(c[i].views, 2);
        SCT_CHECK_EQ_U64(c[i].num_slabs, k_slabs[(i / 2) % 3]);
        SCT_CHECK_EQ_U64(c[i].width, (i / 6) % 2 ? 32 : 64);
        SCT_CHECK_EQ_U64(c[i].deform_mask, (i / 12) % 2 ? 0 : APP_DEFORM_BIT(SC_DEFORMER_TWIST));
        SCT_CHECK_EQ_U64(c[i].model, i / 24);
        SCT_CHECK((c[i].model_path == NULL) == (i < 24));
        SCT_CHECK_EQ_U64(c[i].tile_size, 8);
        SCT_CHECK_EQ_U64(c[i].shadows, 0);
    }
    char label[256];
    bench_config_label(&c[47], label, sizeof label);
    SCT_CHECK_MSG(strcmp(label, "dragon 32x32 tile 8 slabs 16 deform none view 2/2") == 0, "label: %s", label);
    bench_config_label(&c[0], label, sizeof label);
    SCT_CHECK_MSG(strcmp(label, "builtin 64x48 tile 8 slabs 4 deform twist view 1/2") == 0, "label: %s", label);
    free(c);
}

static void test_sweep_camera_and_subdivide(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--camera", "0,0,5,0,0,0,45", "--subdivide", "0,1", NULL) == 0);
    bench_config *c = NULL;
    size_t n = 0;
    char why[256];
    SCT_REQUIRE(bench_sweep_expand(&o, &c, &n, why, sizeof why) == 0);
    SCT_REQUIRE(n == 2);
    SCT_CHECK_EQ_U64(c[0].views, 0);
    SCT_CHECK_EQ_U64(c[1].subdivide, 1);
    char label[256];
    bench_config_label(&c[1], label, sizeof label);
    SCT_CHECK_MSG(strcmp(label, "builtin 1024x1024 tile 8 slabs 16 deform twist,wave subdivide 1 camera") == 0, "%s",
                  label);
    free(c);
}

/* --shadows off,on: the shadow setting varies fastest, so a view's two settings sit side by side. */
static void test_sweep_shadows(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--views", "2", "--slabs", "8,16", "--shadows", "off,on", NULL) == 0);
    uint64_t count = 0;
    char factors[256], why[256];
    SCT_REQUIRE(bench_sweep_count(&o, &count, factors, sizeof factors, why, sizeof why) == 0);
    SCT_CHECK_EQ_U64(count, 8);
    SCT_CHECK_MSG(strstr(factors, "x 2 views x 2 shadow settings"), "factors: %s", factors);
    bench_config *c = NULL;
    size_t n = 0;
    SCT_REQUIRE(bench_sweep_expand(&o, &c, &n, why, sizeof why) == 0);
    SCT_REQUIRE(n == 8);
    for (size_t i = 0; i < n; ++i) {
        SCT_CHECK_EQ_U64(c[i].shadows, i % 2);
        SCT_CHECK_EQ_U64(c[i].view, (i / 2) % 2);
        SCT_CHECK_EQ_U64(c[i].num_slabs, i < 4 ? 8 : 16);
    }
    char label[256];
    bench_config_label(&c[7], label, sizeof label);
    SCT_CHECK_MSG(strcmp(label, "builtin 1024x1024 tile 8 slabs 16 deform twist,wave view 2/2 shadows") == 0, "label: %s",
                  label);
    bench_config_label(&c[6], label, sizeof label);
    SCT_CHECK_MSG(strcmp(label, "builtin 1024x1024 tile 8 slabs 16 deform twist,wave view 2/2") == 0, "label: %s", label);
    free(c);
    /* With --camera and a subdivision: every part of the label. */
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--camera", "0,0,5,0,0,0,45", "--subdivide", "2", "--shadows", "on", NULL) == 0);
    SCT_REQUIRE(bench_sweep_expand(&o, &c, &n, why, sizeof why) == 0);
    SCT_REQUIRE(n == 1);
    bench_config_label(&c[0], label, sizeof label);
    SCT_CHECK_MSG(strcmp(label, "builtin 1024x1024 tile 8 slabs 16 deform twist,wave subdivide 2 camera shadows") == 0,
                  "label: %s", label);
    free(c);
}

/* Past BENCH_MAX_CONFIGS the sweep is refused with its size and factors. */
static void test_sweep_limit(void)
{
    bench_options o;
    char msg[512];
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--slabs", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "--tile",
                      "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "--views", "17", NULL) == 0);
    uint64_t count = 0;
    char why[512];
    SCT_CHECK(bench_sweep_count(&o, &count, NULL, 0, why, sizeof why) == -1);
    SCT_CHECK_EQ_U64(count, 16 * 16 * 17);
    SCT_CHECK_MSG(strstr(why, "4352 configurations") && strstr(why, "more than 4096") &&
                      strstr(why, "16 slab counts") && strstr(why, "shorten a list"), "why: %s", why);
    bench_config *c = (bench_config *)1;
    size_t n = 1;
    SCT_CHECK(bench_sweep_expand(&o, &c, &n, why, sizeof why) == -1);
    SCT_CHECK(c == NULL && n == 0);
    /* Exactly at the limit it runs. */
    SCT_REQUIRE(parse(&o, msg, sizeof msg, "--slabs", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "--tile",
                      "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "--views", "16", NULL) == 0);
    SCT_CHECK(bench_sweep_count(&o, &count, NULL, 0, why, sizeof why) == 0);
    SCT_CHECK_EQ_U64(count, BENCH_MAX_CONFIGS);
}

static void test_model_names(void)
{
    static const struct { const char *path, *name; } k_names[] = {
        {NULL, "builtin"}, {"dragon.obj", "dragon"}, {"models/stanford-dragon.obj.xz", "stanford-dragon"},
        {"a.b.ply", "a.b"}, {".hidden", ".hidden"}, {"dir.x/file", "file"}, {"x.xz", "x"},
    };
    for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; ++i) {
        char name[64];
        bench_model_short_name(k_names[i].path, name, sizeof name);
        SCT_CHECK_MSG(strcmp(name, k_names[i].name) == 0, "%s -> %s, not %s", k_names[i].path ? k_names[i].path : "NULL",
                      name, k_names[i].name);
    }
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "bench_sweep");
    SCT_RUN(test_sweep_order);
    SCT_RUN(test_sweep_camera_and_subdivide);
    SCT_RUN(test_sweep_shadows);
    SCT_RUN(test_sweep_limit);
    SCT_RUN(test_model_names);
    return sct_end();
}
