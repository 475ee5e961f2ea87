/* test_framework.c - the test framework's own seeded generator (cpu). */
#include "sctest.h"

static void test_rng_is_reproducible(void)
{
    sct_rng a, b;
    sct_rng_seed(&a, 42);
    sct_rng_seed(&b, 42);
    for (int i = 0; i < 1000; ++i) SCT_CHECK_EQ_U64(sct_rng_next(&a), sct_rng_next(&b));
    sct_rng_seed(&b, 43);
    int same = 0;
    for (int i = 0; i < 1000; ++i) same += sct_rng_next(&a) == sct_rng_next(&b);
    SCT_CHECK(same == 0);
}

static void test_rng_below_is_in_range_and_covers_it(void)
{
    sct_rng r;
    sct_rng_seed(&r, 7);
    int seen[33] = {0};
    for (int i = 0; i < 100000; ++i) {
        uint32_t v = sct_rng_below(&r, 33);
        SCT_REQUIRE(v < 33);
        ++seen[v];
    }
    for (int i = 0; i < 33; ++i) SCT_CHECK_MSG(seen[i] > 2500 && seen[i] < 3600, "bucket %d: %d", i, seen[i]);
    for (int i = 0; i < 1000; ++i) {
        double u = sct_rng_unit(&r);
        SCT_REQUIRE(u >= 0.0 && u < 1.0);
    }
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "framework");
    SCT_RUN(test_rng_is_reproducible);
    SCT_RUN(test_rng_below_is_in_range_and_covers_it);
    return sct_end();
}
