/* sctest.h - slabcast's small test framework (C11 and CUDA).
 *
 *   static void test_something(void) { SCT_CHECK(x == 1); SCT_CHECK_EQ_U64(a, b); }
 *   int main(int argc, char **argv) {
 *       sct_begin(argc, argv, "primitives");
 *       SCT_RUN(test_something);
 *       return sct_end();     // prints "N passed, N failed, N skipped"; exit 1 on failure, 77 if all skipped
 *   }
 * A failed check records file:line and the expression and the test goes on; SCT_REQUIRE ends the test.
 * sct_skip("why") inside a test marks it skipped. Arguments to the binary filter tests by substring,
 * except --env=NAME=VALUE, which sets an environment variable before the tests run.
 * Randomness only through sct_rng seeded explicitly (SCT_SEED env overrides the base seed). */
#ifndef SCTEST_H
#define SCTEST_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { SCT_EXIT_SKIP = 77 };

void sct_begin(int argc, char **argv, const char *suite);
int sct_end(void);
int sct_should_run(const char *name);
void sct_start_test(const char *name);
void sct_finish_test(void);
void sct_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void sct_skip(const char *reason);
int sct_current_failed(void);   /* failures recorded in the running test */
/* Skip the whole binary (exit 77) unless SLABCAST_REQUIRE_GPU=1 is set, when it fails instead. */
void sct_skip_all(const char *reason);

/* xoshiro256** seeded by splitmix64. */
typedef struct sct_rng { uint64_t s[4]; } sct_rng;
void sct_rng_seed(sct_rng *rng, uint64_t seed);
uint64_t sct_rng_next(sct_rng *rng);
uint32_t sct_rng_u32(sct_rng *rng);
uint32_t sct_rng_below(sct_rng *rng, uint32_t bound); /* uniform in [0, bound), bound > 0 */
double sct_rng_unit(sct_rng *rng);                   /* uniform in [0, 1) */
uint64_t sct_base_seed(void);                        /* 0x5eed by default, SCT_SEED overrides */

#ifdef __cplusplus
}
#endif

#define SCT_RUN(fn)                         \
    do {                                    \
        if (sct_should_run(#fn)) {          \
            sct_start_test(#fn);            \
            fn();                           \
            sct_finish_test();              \
        }                                   \
    } while (0)

#define SCT_CHECK(cond)                                                   \
    do {                                                                  \
        if (!(cond)) sct_fail(__FILE__, __LINE__, "check failed: %s", #cond); \
    } while (0)

#define SCT_CHECK_MSG(cond, ...)                                          \
    do {                                                                  \
        if (!(cond)) sct_fail(__FILE__, __LINE__, __VA_ARGS__);           \
    } while (0)

#define SCT_REQUIRE(cond)                                                 \
    do {                                                                  \
        if (!(cond)) {                                                    \
            sct_fail(__FILE__, __LINE__, "requirement failed: %s", #cond); \
            return;                                                       \
        }                                                                 \
    } while (0)

#define SCT_CHECK_EQ_U64(a, b)                                            \
    do {                                                                  \
        unsigned long long sct_a_ = (unsigned long long)(a), sct_b_ = (unsigned long long)(b); \
        if (sct_a_ != sct_b_)                                             \
            sct_fail(__FILE__, __LINE__, "%s == %s failed: %llu != %llu", #a, #b, sct_a_, sct_b_); \
    } while (0)

/* Checks an sc_status call returns SC_OK, printing the library's message otherwise. */
#define SCT_CHECK_OK(call)                                                \
    do {                                                                  \
        int sct_st_ = (int)(call);                                        \
        if (sct_st_ != 0)                                                 \
            sct_fail(__FILE__, __LINE__, "%s returned %d: %s", #call, sct_st_, sc_last_error()); \
    } while (0)

#define SCT_REQUIRE_OK(call)                                              \
    do {                                                                  \
        int sct_st_ = (int)(call);                                        \
        if (sct_st_ != 0) {                                               \
            sct_fail(__FILE__, __LINE__, "%s returned %d: %s", #call, sct_st_, sc_last_error()); \
            return;                                                       \
        }                                                                 \
    } while (0)

#endif /* SCTEST_H */
