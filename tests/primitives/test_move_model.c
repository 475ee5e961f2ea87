/* test_move_model.c - the pass-count model of split_gather / split_scatter (primitives/src/
 * move_model.c, used when num_passes = 0), on the CPU: the sector arithmetic against hand-counted
 * values and a brute-force walk over records laid end to end; the cost terms' shape (one pass when
 * everything fits the cache, more passes only when a window is what fits, never more than the cap,
 * ties to fewer passes); and the choices the constants were fitted to on an H200 (60 MB L2,
 * split_bench --move-only: 2, 4 and 8 passes for 4-byte gathers, 4-byte scatters and 8-byte
 * scatters of 2^24 records, one pass for every other size there and for every size at 2^20). */
#include <math.h>

#include "move_model.h"
#include "sctest.h"
#include "split_tuning.h"

/* Sectors of a record of R bytes at byte offset off, walked one byte at a time. */
static void brute_sectors(uint64_t off, uint64_t rb, uint64_t *touched, uint64_t *partial)
{
    *touched = *partial = 0;
    for (uint64_t s = off / 32; s * 32 < off + rb; ++s) {
        uint64_t covered = 0;
        for (uint64_t b = s * 32; b < s * 32 + 32; ++b) covered += b >= off && b < off + rb;
        ++*touched;
        *partial += covered < 32;
    }
}

static void test_sectors(void)
{
    double t = -1, p = -1;
    split_move_model_sectors(0, &t, &p);
    SCT_CHECK(t == 0.0 && p == 0.0);
    split_move_model_sectors(4, &t, &p);
    SCT_CHECK(t == 32.0 && p == 32.0);
    split_move_model_sectors(32, &t, &p);
    SCT_CHECK(t == 32.0 && p == 0.0);
    split_move_model_sectors(48, &t, &p); /* offsets 0 and 16: two sectors, one partial each */
    SCT_CHECK(t == 64.0 && p == 32.0);
    split_move_model_sectors(12, &t, &p); /* 6 of 8 offsets in one sector, 2 straddle */
    SCT_CHECK(t == 40.0 && p == 40.0);
    for (uint64_t rb = 4; rb <= 520; rb += 4) {
        /* records laid end to end: the mean over one period of 32 records covers every offset */
        uint64_t tt = 0, pp = 0;
        for (uint64_t j = 0; j < 32; ++j) {
            uint64_t a, b;
            brute_sectors(j * rb, rb, &a, &b);
            tt += a, pp += b;
        }
        split_move_model_sectors(rb, &t, &p);
        SCT_CHECK_MSG(fabs(t - 32.0 * (double)tt / 32.0) < 1e-9 && fabs(p - 32.0 * (double)pp / 32.0) < 1e-9,
                      "record %llu: model %.3f / %.3f, brute force %.3f / %.3f", (unsigned long long)rb, t, p,
                      (double)tt, (double)pp);
    }
}

static void test_shape(void)
{
    const uint64_t l2 = 60ull << 20;
    /* degenerate sizes: one pass */
    SCT_CHECK(split_move_model_passes(0, 16, l2, 0) == 1);
    SCT_CHECK(split_move_model_passes(1, 16, l2, 1) == 1);
    SCT_CHECK(split_move_model_passes(1000, 0, l2, 0) == 1);
    /* everything fits the cache: more passes only add index reads and walks */
    for (uint64_t rb = 4; rb <= 512; rb *= 2)
        for (int sc = 0; sc < 2; ++sc) {
            SCT_CHECK(split_move_model_passes(1000, rb, l2, sc) == 1);
            SCT_CHECK(split_move_model_cost(1000, rb, l2, 2, sc) > split_move_model_cost(1000, rb, l2, 1, sc));
        }
    /* 0 passes counts as 1 */
    SCT_CHECK(split_move_model_cost(1 << 20, 8, l2, 0, 0) == split_move_model_cost(1 << 20, 8, l2, 1, 0));
    /* no cache: windows never fit, so one pass */
    SCT_CHECK(split_move_model_passes(1u << 24, 4, 0, 1) == 1);
    /* tiny scattered records a few times the cache: more passes (windows that fit), within the cap,
     * a power of two */
    const uint64_t n = 1u << 22, c = 16u << 20;
    const uint32_t p = split_move_model_passes(n, 4, c, 1);
    SCT_CHECK_MSG(p > 1 && p <= MOVE_MODEL_MAX_PASSES && (p & (p - 1)) == 0, "passes %u", p);
    /* the choice is the least cost of the candidates */
    for (uint32_t q = 1; q <= MOVE_MODEL_MAX_PASSES; q *= 2)
        SCT_CHECK(split_move_model_cost(n, 4, c, q, 1) >= split_move_model_cost(n, 4, c, p, 1));
    /* scatters of records smaller than a sector cost more per miss than gathers */
    SCT_CHECK(split_move_model_cost(1u << 24, 4, l2, 1, 1) > split_move_model_cost(1u << 24, 4, l2, 1, 0));
    SCT_CHECK(split_move_model_cost(1u << 24, 64, l2, 1, 1) == split_move_model_cost(1u << 24, 64, l2, 1, 0));
}

static void test_fitted_choices(void)
{
    const uint64_t l2 = 60ull << 20, big = 1u << 24, small = 1u << 20;
    for (uint64_t rb = 4; rb <= 512; rb *= 2)
        for (int sc = 0; sc < 2; ++sc) {
            const uint32_t want = rb == 4 ? (sc ? 4u : 2u) : rb == 8 && sc ? 8u : 1u;
            SCT_CHECK_MSG(split_move_model_passes(big, rb, l2, sc) == want, "2^24 x %llu B %s: %u passes, want %u",
                          (unsigned long long)rb, sc ? "scatter" : "gather", split_move_model_passes(big, rb, l2, sc),
                          want);
            SCT_CHECK(split_move_model_passes(small, rb, l2, sc) == 1);
        }
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "move_model");
    SCT_RUN(test_sectors);
    SCT_RUN(test_shape);
    SCT_RUN(test_fitted_choices);
    return sct_end();
}
