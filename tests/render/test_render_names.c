/* test_render_names.c - the names of the renderer's enums (sc_view_mode_name, sc_backend_name,
 * sc_deformer_name and their inverses): every value has a distinct name that reads back to it, the
 * programs' spellings, unknown values and names refused without an error recorded (cpu). */
#include <string.h>

#include "sctest.h"
#include "slabcast.h"

static void test_view_modes_round_trip(void)
{
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m) {
        const char *name = sc_view_mode_name((sc_view_mode)m);
        SCT_REQUIRE(name != NULL && name[0] != '\0');
        sc_view_mode back = SC_VIEW_MODE_COUNT;
        SCT_CHECK(sc_view_mode_from_name(name, &back));
        SCT_CHECK_MSG(back == (sc_view_mode)m, "mode %d: '%s' reads back as %d", m, name, (int)back);
        for (int k = 0; k < m; ++k)
            SCT_CHECK_MSG(strcmp(name, sc_view_mode_name((sc_view_mode)k)) != 0, "modes %d and %d share '%s'", k, m,
                          name);
    }
    SCT_CHECK(strcmp(sc_view_mode_name(SC_VIEW_TILE_HEAT), "tiles") == 0);
    SCT_CHECK(strcmp(sc_view_mode_name(SC_VIEW_SHADOW_TESTS), "shadow-tests") == 0);
    SCT_CHECK(sc_view_mode_name(SC_VIEW_MODE_COUNT) == NULL);
    SCT_CHECK(sc_view_mode_name((sc_view_mode)-1) == NULL);
}

static void test_backends_round_trip(void)
{
    const sc_backend all[] = {SC_BACKEND_DEFAULT, SC_BACKEND_CPU, SC_BACKEND_CUDA};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        const char *name = sc_backend_name(all[i]);
        SCT_REQUIRE(name != NULL);
        sc_backend back = (sc_backend)99;
        SCT_CHECK(sc_backend_from_name(name, &back));
        SCT_CHECK_MSG(back == all[i], "backend '%s' reads back as %d", name, (int)back);
    }
    sc_backend b = SC_BACKEND_DEFAULT;
    SCT_CHECK(sc_backend_from_name("gpu", &b));
    SCT_CHECK(b == SC_BACKEND_CUDA);
    SCT_CHECK(strcmp(sc_backend_name(SC_BACKEND_DEFAULT), "auto") == 0);
    SCT_CHECK(sc_backend_name((sc_backend)(SC_BACKEND_CUDA + 1)) == NULL);
}

static void test_deformers_round_trip(void)
{
    static const char *const expected[SC_DEFORMER_COUNT] = {"twist", "bend", "wave", "pulse", "noise"};
    for (int d = 0; d < SC_DEFORMER_COUNT; ++d) {
        const char *name = sc_deformer_name((sc_deformer)d);
        SCT_REQUIRE(name != NULL);
        SCT_CHECK_MSG(strcmp(name, expected[d]) == 0, "deformer %d is '%s'", d, name);
        sc_deformer back = SC_DEFORMER_COUNT;
        SCT_CHECK(sc_deformer_from_name(name, &back));
        SCT_CHECK(back == (sc_deformer)d);
    }
    sc_deformer d = SC_DEFORMER_WAVE;
    SCT_CHECK(!sc_deformer_from_name("none", &d));
    SCT_CHECK(!sc_deformer_from_name("twist,wave", &d));
    SCT_CHECK(d == SC_DEFORMER_WAVE);
    SCT_CHECK(sc_deformer_name(SC_DEFORMER_COUNT) == NULL);
}

static void test_unknown_names(void)
{
    sc_view_mode m = SC_VIEW_SHADED;
    sc_backend b = SC_BACKEND_CPU;
    sc_clear_error();
    SCT_CHECK(!sc_view_mode_from_name("heat", &m));
    SCT_CHECK(!sc_view_mode_from_name("Shaded", &m));
    SCT_CHECK(!sc_view_mode_from_name("", &m));
    SCT_CHECK(!sc_view_mode_from_name(NULL, &m));
    SCT_CHECK(!sc_view_mode_from_name("shaded", NULL));
    SCT_CHECK(m == SC_VIEW_SHADED);
    SCT_CHECK(!sc_backend_from_name("opencl", &b));
    SCT_CHECK(!sc_backend_from_name("", &b));
    SCT_CHECK(!sc_backend_from_name(NULL, &b));
    SCT_CHECK(b == SC_BACKEND_CPU);
    SCT_CHECK_MSG(sc_last_error()[0] == '\0', "a lookup recorded an error: %s", sc_last_error());
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_names");
    SCT_RUN(test_view_modes_round_trip);
    SCT_RUN(test_backends_round_trip);
    SCT_RUN(test_deformers_round_trip);
    SCT_RUN(test_unknown_names);
    return sct_end();
}
