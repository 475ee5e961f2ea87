/* sctest.c - implementation of the small test framework. */
#include "sctest.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct {
    const char *suite;
    int argc;
    char **argv;
    int passed, failed, skipped;
    const char *current;
    int current_failures;
    int current_skipped;
    struct timespec started;
} g;

void sct_begin(int argc, char **argv, const char *suite)
{
    memset(&g, 0, sizeof g);
    g.suite = suite;
    g.argc = argc;
    g.argv = argv;
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* --env=NAME=VALUE: set before any test runs (a manifest entry that runs a suite under another
     * configuration, e.g. SLABCAST_CUDA_PORTABLE=1); not a filter. */
    for (int i = 1; i < argc; ++i) {
        if (strncmp(argv[i], "--env=", 6) != 0) continue;
        char buf[256];
        snprintf(buf, sizeof buf, "%s", argv[i] + 6);
        char *eq = strchr(buf, '=');
        if (!eq || eq == buf) {
            fprintf(stderr, "%s: bad %s (--env=NAME=VALUE)\n", suite, argv[i]);
            exit(2);
        }
        *eq = '\0';
        setenv(buf, eq + 1, 1);
        printf("   environment: %s=%s\n", buf, eq + 1);
    }
    printf("== %s (seed 0x%llx)\n", suite, (unsigned long long)sct_base_seed());
}

int sct_should_run(const char *name)
{
    int filters = 0;
    for (int i = 1; i < g.argc; ++i) {
        if (strncmp(g.argv[i], "--env=", 6) == 0) continue;
        ++filters;
        if (strstr(name, g.argv[i])) return 1;
    }
    return filters == 0;
}

void sct_start_test(const char *name)
{
    g.current = name;
    g.current_failures = 0;
    g.current_skipped = 0;
    clock_gettime(CLOCK_MONOTONIC, &g.started);
}

void sct_finish_test(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(now.tv_sec - g.started.tv_sec) * 1e3 + (double)(now.tv_nsec - g.started.tv_nsec) * 1e-6;
    if (g.current_failures) {
        ++g.failed;
        printf("FAIL  %s (%d failed checks, %.1f ms)\n", g.current, g.current_failures, ms);
    } else if (g.current_skipped) {
        ++g.skipped;
    } else {
        ++g.passed;
        printf("ok    %s (%.1f ms)\n", g.current, ms);
    }
    g.current = NULL;
}

void sct_fail(const char *file, int line, const char *fmt, ...)
{
    ++g.current_failures;
    if (g.current_failures > 20) {
        if (g.current_failures == 21) printf("      ... further failures of %s not shown\n", g.current ? g.current : "?");
        return;
    }
    printf("      %s:%d: ", file, line);
    va_list args;
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    printf("\n");
}

int sct_current_failed(void) { return g.current_failures; }

void sct_skip(const char *reason)
{
    g.current_skipped = 1;
    printf("skip  %s: %s\n", g.current ? g.current : "?", reason);
}

void sct_skip_all(const char *reason)
{
    const char *require = getenv("SLABCAST_REQUIRE_GPU");
    if (require && strcmp(require, "1") == 0) {
        printf("FAIL  %s: required resource missing: %s\n", g.suite, reason);
        printf("%s: 0 passed, 1 failed, 0 skipped\n", g.suite);
        exit(1);
    }
    printf("SKIP  %s: %s\n", g.suite, reason);
    exit(SCT_EXIT_SKIP);
}

int sct_end(void)
{
    printf("%s: %d passed, %d failed, %d skipped\n", g.suite, g.passed, g.failed, g.skipped);
    if (g.failed) return 1;
    if (g.passed == 0 && g.skipped > 0) return SCT_EXIT_SKIP;
    return 0;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sct_rng_seed(sct_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; ++i) rng->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }

uint64_t sct_rng_next(sct_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t sct_rng_u32(sct_rng *rng) { return (uint32_t)(sct_rng_next(rng) >> 32); }

uint32_t sct_rng_below(sct_rng *rng, uint32_t bound)
{
    return (uint32_t)(((uint64_t)sct_rng_u32(rng) * bound) >> 32);
}

double sct_rng_unit(sct_rng *rng) { return (double)(sct_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0); }

uint64_t sct_base_seed(void)
{
    const char *env = getenv("SCT_SEED");
    if (env && *env) return strtoull(env, NULL, 0);
    return 0x5eedull;
}
