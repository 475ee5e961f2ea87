/* test_render_names.c - the names of the renderer's enums (sc_view_mode_name, sc_backend_name, sc_stage_name,
 * sc_deformer_name and their inverses): every value has a distinct name that reads back to it, the
 * programs' spellings, unknown values and names refused without an error recorded; the view modes'
 * descriptions; each deformer's amount field, typical amount and reach (cpu). */
#include <math.h>
#include <stddef.h>
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
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m) {
        const char *what = sc_view_mode_description((sc_view_mode)m);
        SCT_CHECK_MSG(what != NULL && what[0] != '\0', "mode %d has no description", m);
    }
    SCT_CHECK(strcmp(sc_view_mode_description(SC_VIEW_TILE_HEAT), "triangles per tile") == 0);
    SCT_CHECK(sc_view_mode_description(SC_VIEW_MODE_COUNT) == NULL);
    SCT_CHECK(strcmp(sc_view_mode_name(SC_VIEW_TILE_HEAT), "tiles") == 0);
    SCT_CHECK(strcmp(sc_view_mode_name(SC_VIEW_SHADOW_TESTS), "shadow-tests") == 0);
    SCT_CHECK(sc_view_mode_name(SC_VIEW_MODE_COUNT) == NULL);
    SCT_CHECK(sc_view_mode_name((sc_view_mode)-1) == NULL);
}

static void test_backends_round_trip(void)
{
    for (int i = 0; i < SC_BACKEND_COUNT; ++i) {
        const char *name = sc_backend_name((sc_backend)i);
        SCT_REQUIRE(name != NULL);
        sc_backend back = (sc_backend)99;
        SCT_CHECK(sc_backend_from_name(name, &back));
        SCT_CHECK_MSG(back == (sc_backend)i, "backend '%s' reads back as %d", name, (int)back);
        for (int k = 0; k < i; ++k)
            SCT_CHECK_MSG(strcmp(name, sc_backend_name((sc_backend)k)) != 0, "backends %d and %d share '%s'", k, i,
                          name);
    }
    SCT_CHECK(strcmp(sc_backend_name(SC_BACKEND_CPU), "cpu") == 0);
    SCT_CHECK(sc_backend_name(SC_BACKEND_COUNT) == NULL);
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

/* sc_deform_amount gives each deformer's own amount field, distinct for each; the typical amounts turn
 * every one of them on. */
static void test_deformer_amounts(void)
{
    static const size_t expected[SC_DEFORMER_COUNT] = {
        offsetof(sc_deform_desc, twist.amount), offsetof(sc_deform_desc, bend.amount),
        offsetof(sc_deform_desc, wave.amount), offsetof(sc_deform_desc, pulse.amount),
        offsetof(sc_deform_desc, noise.amount)};
    sc_deform_desc d;
    memset(&d, 0, sizeof d);
    for (int k = 0; k < SC_DEFORMER_COUNT; ++k) {
        float *a = sc_deform_amount(&d, (sc_deformer)k);
        SCT_REQUIRE(a != NULL);
        SCT_CHECK_MSG((size_t)((char *)a - (char *)&d) == expected[k], "deformer %d: amount at byte %zu", k,
                      (size_t)((char *)a - (char *)&d));
        const float typical = sc_deformer_typical_amount((sc_deformer)k);
        SCT_CHECK_MSG(typical > 0.0f && typical < 1.0f, "deformer %d: typical amount %g", k, (double)typical);
    }
    SCT_CHECK(sc_deform_amount(&d, SC_DEFORMER_COUNT) == NULL);
    SCT_CHECK(sc_deform_amount(NULL, SC_DEFORMER_TWIST) == NULL);
    SCT_CHECK(sc_deformer_typical_amount(SC_DEFORMER_COUNT) == 0.0f);
    SCT_CHECK(sc_deformer_typical_amount(SC_DEFORMER_TWIST) == 0.9f); /* the programs' motion since their start */
}

/* The bound on how far a point within R of the centre moves, in the order the effects apply. */
static void test_deform_reach(void)
{
    sc_deform_desc d;
    memset(&d, 0, sizeof d);
    SCT_CHECK(sc_deform_reach(NULL) == 1.0);
    SCT_CHECK(sc_deform_reach(&d) == 1.0);
    d.twist.amount = 3.0f; /* turns about an axis through the centre */
    SCT_CHECK(sc_deform_reach(&d) == 1.0);
    d.wave.amount = 0.25f;
    SCT_CHECK(sc_deform_reach(&d) == 1.25);
    memset(&d, 0, sizeof d);
    d.bend.amount = -0.5f;
    SCT_CHECK(fabs(sc_deform_reach(&d) - 2.5) < 1e-12); /* 1 + 1 (1 + 0.5) */
    d.pulse.amount = 0.5f;  /* along the normal first: 1.5 */
    d.noise.amount = -0.5f; /* then 2, which the bend widens to 2 + 2 (1 + 2 * 0.5) = 6 */
    d.wave.amount = 1.0f;   /* and the wave last: 7 */
    SCT_CHECK(fabs(sc_deform_reach(&d) - 7.0) < 1e-12);
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

/* Every stage has a name, distinct from the others' and from the frame's column ("frame"); a value
 * outside the enum has none. */
static void test_stage_names(void)
{
    for (int a = 0; a < SC_STAGE_COUNT; ++a) {
        const char *na = sc_stage_name((sc_stage)a);
        SCT_CHECK_MSG(na != NULL && na[0] != '\0', "stage %d has no name", a);
        if (!na) continue;
        SCT_CHECK_MSG(strcmp(na, "frame") != 0, "stage %d is named like the frame's column", a);
        for (int b = 0; b < a; ++b) {
            const char *nb = sc_stage_name((sc_stage)b);
            SCT_CHECK_MSG(!nb || strcmp(na, nb) != 0, "stages %d and %d share the name %s", b, a, na);
        }
    }
    SCT_CHECK(strcmp(sc_stage_name(SC_STAGE_SHADOW_RECEIVERS), "shadow-recv") == 0);
    SCT_CHECK(sc_stage_name(SC_STAGE_COUNT) == NULL);
    SCT_CHECK(sc_stage_name((sc_stage)-1) == NULL);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_names");
    SCT_RUN(test_view_modes_round_trip);
    SCT_RUN(test_backends_round_trip);
    SCT_RUN(test_deformers_round_trip);
    SCT_RUN(test_deformer_amounts);
    SCT_RUN(test_deform_reach);
    SCT_RUN(test_unknown_names);
    SCT_RUN(test_stage_names);
    return sct_end();
}
